"""One MJ command being read: the clause of a sentence it stands in (`Clause`), the slots found so far (`Fill`),
and what every command's slots share: the players it names (whole names, a word of one name, a misspelt name,
a pronoun for the last player named, the thread's player), the moments and hours it gives.

The rules of guessing are the corpus's rulings (tests/fixtures/mjmail/README.md, written for the MJ in
docs/guide-mj.md §6): a pronoun, a misspelt name, a vague date is a guess (the command is asked, not done);
a slot left out takes the command's default, which is no guess.  Pure: the game is known through its `View`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from pbem.engine import when
from pbem.engine.desk import lexicon as L
from pbem.engine.desk.readings import Intent, Reading, View
from pbem.engine.desk.slots import (
    Hit,
    Roster,
    Tok,
    When,
    text_between,
)
from pbem.msg import Msg
from pbem.wording import StepNoun


@dataclass(frozen=True)
class Found:
    """A trigger found in a sentence, over its plain words ``i`` to ``j``."""

    trigger: L.Trigger
    i: int
    j: int

    @property
    def command(self) -> str:
        return self.trigger.command


@dataclass
class Context:
    """What the mail said before the clause being read: the players named (for pronouns), the last command."""

    view: View
    roster: Roster
    named: list[str] = field(default_factory=list)
    previous: Reading | None = None


@dataclass
class Clause:
    """The words of one command (``words``, plain, with the words of the sentence before prepended when the
    command needs them: ``own`` is where its own begin), its triggers, and the line it stands in."""

    words: list[Tok]
    found: list[Found]
    line: str
    text: str
    question: bool
    ctx: Context
    own: int = 0
    toks: list[Tok] = field(default_factory=list)  # every token of the sentence, signs included

    @property
    def view(self) -> View:
        return self.ctx.view

    @property
    def ws(self) -> list[str]:
        return [t.w for t in self.words]

    @property
    def head(self) -> Found:
        return self.found[0]


MINOR = frozenset({"pour", "for", "par", "avec", "sur", "dans", "stp", "svp", "please", "merci", "bon", "alors",
                   "ok", "with", "by", "on", "at", "in", "me", "moi"})
"""Words that say nothing of their own in the MJ's prose (never listed as ignored text on their own)."""
FRAME = frozenset({"fin", "tour", "tours", "etape", "date", "limite", "dl", "deadline", "echeance", "step", "turn",
                   "end", "partie", "game", "jeu", "en", "cours", "actuel", "actuelle", "current",
                   "peux", "pourrais", "pourriez", "pouvez", "peut", "veux", "voudrais", "voudrait", "faudrait", "faut",
                   "can", "could", "would", "you", "possible"})
"""Words that frame a command (« la fin du tour », « la date limite de la partie », « tu peux … ? »): a run of
them and of fillers is part of the command, not the MJ's prose."""


class Fill:
    """The slots of one clause as they are found: used words, guesses, what is missing or refused."""

    def __init__(self, c: Clause, command: str):
        self.c = c
        self.command = command
        self.slots: dict[str, Any] = {}
        self.used: set[int] = set()
        self.guessed: list[str] = []
        self.alternatives: list[Intent] = []
        self.candidates: tuple[str, ...] = ()
        self.test_candidates: tuple[int, ...] = ()
        self.missing: tuple[str, ...] = ()
        self.why: Msg | None = None
        for f in c.found:
            self.use(f.i, f.j)

    def use(self, i: int, j: int) -> None:
        self.used.update(range(i, j))

    def guess(self, *names: str) -> None:
        self.guessed.extend(n for n in names if n not in self.guessed)

    def refuse(self, fr: str, en: str, *, missing: Sequence[str] = (), candidates: Sequence[str] = ()) -> None:
        if self.why is None:
            self.why = Msg(fr, en)
            self.missing = tuple(missing)
            self.candidates = tuple(candidates)

    def reading(self) -> Reading:
        verdict = "refuse" if self.why is not None else "ask" if self.guessed else "do"
        return Reading(verdict, self.command, self.slots if verdict != "refuse" else {}, self.c.text,
                       guessed=tuple(self.guessed), alternatives=tuple(self.alternatives),
                       candidates=self.candidates, test_candidates=self.test_candidates, missing=self.missing,
                       why=self.why, prose=self.prose())

    def prose(self) -> tuple[str, ...]:
        """The runs of the clause's own words that filled nothing (the MJ's reasons and comments)."""
        runs: list[str] = []
        words = self.c.words
        i = self.c.own
        while i < len(words):
            if i in self.used or words[i].w in L.FILLER or words[i].w in MINOR:
                i += 1
                continue
            j = i
            while j + 1 < len(words) and j + 1 not in self.used:
                j += 1
            text = text_between(self.c.line, words[i].start, words[j].end)
            if text and any(t.w not in L.FILLER and t.w not in MINOR and t.w not in FRAME and not t.punct
                            for t in words[i:j + 1]):
                runs.append(text)
            i = j + 1
        return tuple(runs)


# --- players ------------------------------------------------------------------------------------------


_SUBJECTS = frozenset({"je", "j", "tu", "on", "il", "elle", "peux", "pourrais", "pouvez", "pourriez", "vas", "va",
                       "dois", "faut", "faudrait", "veux", "voudrais", "ne", "n", "peut", "pourras", "merci", "de",
                       "d", "please", "can", "could", "stp", "svp"})


def pronoun_of(c: Clause, at: int) -> tuple[str, int] | None:
    """A pronoun that is the object of the trigger word at plain index ``at`` (« retire-le », « je le retire »,
    « tu peux lui renvoyer », « register him », « mets-lui PASSER »): its gender, and its index."""
    words = c.words
    k = at + 1
    if k < len(words) and words[k].w in L.PRONOUNS and words[k].w not in ("il", "elle") and (
            words[k].joined or words[k].w in ("him", "her", "them")):
        return L.PRONOUNS[words[k].w], k
    for k in range(at - 1, max(at - 3, -1), -1):
        w = words[k].w
        if w in L.PRONOUNS and w not in ("il", "elle"):
            before = words[k - 1].w if k > 0 else ""
            if words[k].joined and k > 0 and words[k - 1].w not in L.FILLER:  # « mets-lui PASSER »
                return L.PRONOUNS[w], k
            if k == at - 1 and (k == 0 or before in _SUBJECTS):
                return L.PRONOUNS[w], k
    return None


def resolve(c: Clause, gender: str, before: int | None = None) -> str | None:
    """Who a pronoun stands for: the last player named before it (in its sentence, then in the mail) who agrees
    with it, else the thread's one."""
    women = c.view.women
    fits: Callable[[str], bool] = (lambda n: n in women) if gender == "f" else (
        lambda n: n not in women) if gender == "m" else (lambda n: True)
    earlier = [h.name for h in c.ctx.roster.scan(c.words[:before if before is not None else len(c.words)])
               if h.name is not None]
    for name in [*reversed(earlier), *reversed(c.ctx.named)]:
        if fits(name):
            return name
    thread = c.view.thread
    if thread is not None and len(thread.players) == 1 and fits(thread.players[0]):
        return thread.players[0]
    return None


def slot_words(c: Clause, f: Fill) -> list[int]:
    """The words where a player's name is expected: after the trigger, after « pour », « de », « à »,
    « par », and any capitalised word inside the sentence that is no common word."""
    out = []
    words = c.words
    trigger_end = c.head.j
    for k, t in enumerate(words):
        if k in f.used or t.addr or t.w.isdigit() or t.punct:
            continue
        prev = words[k - 1].w if k > 0 else ""
        if (k == trigger_end or prev in ("pour", "de", "d", "a", "par", "for", "of", "to", "with", "remplace")
                or (t.cap and t.w not in L.KNOWN)) and t.w not in L.KNOWN and t.w not in when.WEEKDAYS \
                and t.w not in when.MONTHS:
            out.append(k)
    return out


@dataclass
class Who:
    """A player slot as found: the name, or the candidates, and how sure."""

    name: str | None = None
    candidates: tuple[str, ...] = ()
    guessed: bool = False
    i: int = -1
    j: int = -1
    near_none: bool = False  # a word that looks like a name and is near none


def players(c: Clause, f: Fill, *, exclude: set[int] | None = None) -> list[Hit]:
    """The players named in the clause (whole names, words of one or several names), outside ``exclude``."""
    skip = exclude or set()
    return [h for h in c.ctx.roster.scan(c.words) if not skip & set(range(h.i, h.j))]


def who(c: Clause, f: Fill, hits: Sequence[Hit], *, pronoun_at: int | None = None, thread: bool = True) -> Who:
    """The one player a slot names: a name, else a pronoun (a guess), else a misspelt name (a guess), else the
    candidates of an ambiguous word (or the thread's player among them: a guess)."""
    at0 = c.head.i if pronoun_at is None else pronoun_at
    attached = pronoun_of(c, at0)
    if attached is not None and not any(h.i >= c.head.j for h in hits):  # « Ygritte abandonne, sors-la »
        name = resolve(c, attached[0], attached[1])
        if name is not None:
            f.use(attached[1], attached[1] + 1)
            return Who(name, guessed=True, i=attached[1], j=attached[1] + 1)
    exact = [h for h in hits if h.name is not None]
    if exact:
        h = exact[0]
        f.use(h.i, h.j)
        return Who(h.name, i=h.i, j=h.j)
    ambiguous = [h for h in hits if h.name is None]
    if ambiguous:
        h = ambiguous[0]
        f.use(h.i, h.j)
        th = c.view.thread
        if thread and th is not None and len(set(th.players) & set(h.candidates)) == 1:
            return Who((set(th.players) & set(h.candidates)).pop(), guessed=True, i=h.i, j=h.j)
        return Who(None, h.candidates, i=h.i, j=h.j)
    found = attached
    if found is not None:
        gender, k = found
        name = resolve(c, gender, k)
        if name is not None:
            f.use(k, k + 1)
            return Who(name, guessed=True, i=k, j=k + 1)
    roster = c.ctx.roster
    near_none = False
    for k in slot_words(c, f):
        name, candidates = roster.loose(c.words[k])
        if name is not None:
            f.use(k, k + 1)
            return Who(name, guessed=True, i=k, j=k + 1)
        if candidates:
            f.use(k, k + 1)
            return Who(None, candidates, i=k, j=k + 1)
        if c.words[k].cap or k == c.head.j:
            near_none = True
    return Who(near_none=near_none)


def take_player(c: Clause, f: Fill, slot: str, hits: Sequence[Hit], **kw: Any) -> str | None:
    """Fill a player slot (or refuse it, with the candidates); the name, if one."""
    w = who(c, f, hits, **kw)
    if w.name is not None:
        f.slots[slot] = w.name
        if w.guessed:
            f.guess(slot)
        return w.name
    if w.candidates:
        listed = either(w.candidates, "ou")
        f.refuse(f"de quel joueur parlez-vous : {listed} ?", f"which player do you mean: {either(w.candidates, 'or')}?",
                 candidates=w.candidates)
    elif w.near_none:
        typed = c.words[next(k for k in slot_words(c, f))].raw if slot_words(c, f) else ""
        f.refuse(f"aucun joueur ne s'appelle « {typed} », ni rien d'approchant",
                 f"no player is called '{typed}', nor anything near it", candidates=())
    else:
        f.refuse("de quel joueur s'agit-il ? Nommez-le", "which player? Name them", missing=(slot,))
    return None


def either(names: Sequence[str], word: str) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


# --- steps, moments ------------------------------------------------------------------------------------


def moment_value(v: View, w: When, default: time | None) -> datetime | date:
    """A written moment as a slot value: a date, or (with an hour, or a ``default`` one) an instant."""
    if w.day is None:
        return v.local_now.replace(second=0, microsecond=0)
    at = w.at or default
    return w.day if at is None else when.local_instant(w.day, at, v.tz)


def steps(v: View) -> tuple[StepNoun, StepNoun]:
    """The game's step word in French and in English, for what a refusal says of a step."""
    return StepNoun(v.step_word, "fr"), StepNoun(v.step_word, "en")


def deadline_hour(v: View) -> time:
    return v.deadline.astimezone(v.tz).time() if v.deadline else time(21, 0)



def hours_value(h: float) -> float | int:
    return int(h) if float(h).is_integer() else h



def day_of(x: date | datetime) -> date:
    return x.date() if isinstance(x, datetime) else x


def wished(ws: Sequence[str], k: int, view: View) -> bool:
    """Whether the word at ``k`` is a game's verb of a wish, said as one (« veut tuer », « wants to kill »,
    « fais-lui tuer »): one of the three words before it says the wish."""
    return ws[k] in view.wish_words and any(w in L.WISHERS for w in ws[max(k - 3, 0):k])
