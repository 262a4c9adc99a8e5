"""The MJ's mail read by meaning: in each sentence, what the MJ wants (a trigger of `lexicon`, anywhere in it)
and about what (the slots `fillers` finds by type, in any order); the rest is his prose.

A mail is read line by line, a line sentence by sentence, and a sentence that asks for two things
(« retire Bertrand et prolonge de 24h ») is cut into two clauses where the second trigger begins,
unless its words belong to the first command (« recalcule et publie »).  What a clause lacks may
come from the sentence before it (« Arya n'a pas reçu ses résultats du tour 3. Tu peux lui
renvoyer ? ») or from the thread the mail answers; « la même chose pour X » repeats the command
before for X; a reply to our confirmation is read for its yes, its no, or its correction.  A line
with no command is the MJ's prose, or a request no command does (a refusal), or a misspelt command.

Every line is read in time proportional to its length (a line is at most
`pbem.limits.MAX_LINE_CHARS`; longer ones are left to the caller, which answers « ligne trop
longue »).  Pure: what the reader knows of the game is its `View`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbem.engine import when
from pbem.engine.desk import lexicon as L
from pbem.engine.desk.clause import FRAME, MINOR, Clause, Context, Found, wished
from pbem.engine.desk.fill_dates import period as fill_span
from pbem.engine.desk.fillers import fill
from pbem.engine.desk.readings import Intent, MailReading, Reading, View
from pbem.engine.desk.slots import Roster, Tok, distance, has, has_any, plain, words_of
from pbem.limits import MAX_LINE_CHARS
from pbem.mail import prose as P
from pbem.msg import Msg

# --- the triggers, compiled once ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    exact: frozenset[str]
    stems: tuple[str, ...]
    optional: bool = False
    gap: bool = False

    def fits(self, w: str) -> bool:
        return w in self.exact or any(w.startswith(s) for s in self.stems)


def _compile(pattern: str) -> tuple[_Item, ...]:
    items = []
    for part in pattern.split():
        if part == "…":
            items.append(_Item(frozenset(), (), gap=True))
            continue
        optional = part.startswith("?")
        alts = part.lstrip("?").split("|")
        items.append(_Item(frozenset(a for a in alts if not a.endswith("*")),
                           tuple(a[:-1] for a in alts if a.endswith("*")), optional))
    return tuple(items)


_COMPILED = [(t, _compile(t.pattern)) for t in L.TRIGGERS]
_BY_WORD: dict[str, list[int]] = {}
_BY_STEM: dict[str, list[int]] = {}
for _n, (_t, _items) in enumerate(_COMPILED):
    for _w in _items[0].exact:
        _BY_WORD.setdefault(_w, []).append(_n)
    for _s in _items[0].stems:
        _BY_STEM.setdefault(_s, []).append(_n)
_STEM_LENGTHS = sorted({len(s) for s in _BY_STEM})
_TYPO_TARGETS = sorted({w for _t, items in _COMPILED for w in items[0].exact if len(w) >= 5}
                       | {s + e for _t, items in _COMPILED for s in items[0].stems for e in ("", "e", "er")
                          if len(s) >= 4} | {"manque"})
_SMS = {"ki": "qui", "koi": "quoi", "ke": "que", "kan": "quand", "pr": "pour", "ds": "dans", "jsuis": "suis",
        "tjs": "toujours", "bcp": "beaucoup", "dl": "dl", "qd": "quand"}


def _match(items: Sequence[_Item], ws: Sequence[str], i: int) -> int:
    """Where a trigger's pattern that begins at word ``i`` ends, or -1."""
    j = i
    k = 0
    while k < len(items):
        item = items[k]
        if item.gap:
            nxt = items[k + 1]
            for d in range(0, 4):
                if j + d < len(ws) and nxt.fits(ws[j + d]):
                    j += d
                    break
            else:
                return -1
            k += 1
            continue
        if j < len(ws) and item.fits(ws[j]):
            j += 1
        elif not item.optional:
            return -1
        k += 1
    return j


def _corrected(t: Tok, roster: Roster) -> str:
    """A word as the MJ meant it: SMS spellings (« ki »), a command word one letter off (« prolnge », « puase »)."""
    w = t.w
    if w in _SMS:
        return _SMS[w]
    if len(w) < 5 or len(w) > 30 or w in L.KNOWN or w in roster.by_word:
        return w
    hit = _TYPOS.get(w)
    if hit is None:
        hit = _typo(w)
        if len(_TYPOS) < 8192:
            _TYPOS[w] = hit
    return hit


_TYPOS: dict[str, str] = {}
_TARGETS_BY_LETTER: dict[str, list[str]] = {}
for _x in _TYPO_TARGETS:
    _TARGETS_BY_LETTER.setdefault(_x[0], []).append(_x)


def _typo(w: str) -> str:
    if _known_trigger_word(w):
        return w
    if "k" in w:
        qu = w.replace("k", "qu")
        if _known_trigger_word(qu):
            return qu
    near = [x for x in _TARGETS_BY_LETTER.get(w[0], ()) if abs(len(x) - len(w)) <= 1 and distance(w, x, 1) <= 1
            and (len(x) != len(w) or sorted(x) == sorted(w) or (len(w) >= 8 and w[:3] == x[:3]))]
    # (a letter missed, added or swapped; one changed only in a long word, past its first three)
    return near[0] if len(near) == 1 or (near and all(n[:5] == near[0][:5] for n in near)) else w


def _known_trigger_word(w: str) -> bool:
    return w in _BY_WORD or any(w[:n] in _BY_STEM for n in _STEM_LENGTHS)


_ASKERS = frozenset({"tell", "me", "dis", "dites", "dire", "moi", "savoir", "show", "list", "liste", "donne",
                     "donner", "et", "bonjour", "salut", "alors", "bon", "est"})


def find_triggers(ws: Sequence[str], view: View, question: bool = True) -> list[Found]:
    """Every trigger in the words, the longest where several begin at one word, in order, none overlapping
    (``question``: the sentence asks, or may: a trigger that only asks is then read)."""
    found: list[Found] = []
    for i, w in enumerate(ws):
        candidates = list(_BY_WORD.get(w, ()))
        for n in _STEM_LENGTHS:
            candidates.extend(_BY_STEM.get(w[:n], ()))
        best: Found | None = None
        for idx in sorted(set(candidates)):
            t, items = _COMPILED[idx]
            if t.needs == "paused" and not view.paused:
                continue
            if t.needs == "held" and view.held is None:
                continue
            if t.needs == "requests" and not view.requests:
                continue
            if t.not_after and i > 0 and ws[i - 1] in t.not_after:
                continue
            if t.context == ("#",):
                near = ws[max(i - 5, 0):i + 5]
                if not any(x.isdigit() or x in when.NUMBER_WORDS and x not in ("a", "an") for x in near):
                    continue
            elif t.context == ("+",):  # « +24h »
                if not (i + 2 < len(ws) and ws[i + 1].isdigit() and ws[i + 2] in when.UNITS):
                    continue
            elif t.context and not any(x in t.context for x in ws):
                continue
            if t.ask and not (question or i == 0 or ws[i - 1] in _ASKERS or ws[:3] == ["est", "ce", "que"]):
                continue
            j = _match(items, ws, i)
            if j > i and (best is None or j - i > best.j - best.i):
                best = Found(t, i, j)
        if best is not None:
            found.append(best)
    out: list[Found] = []
    for f in sorted(found, key=lambda f: (f.i, -(f.j - f.i))):
        if out and f.i < out[-1].j:
            if f.j - f.i > out[-1].j - out[-1].i and f.i == out[-1].i:
                out[-1] = f
            continue
        out.append(f)
    return out


_BY = frozenset({"a", "au", "par", "to", "by"})


def _for_triggers(words: Sequence[Tok], view: View, roster: Roster) -> list[Found]:
    """FOR where a game's order word stands after a player named (« Olenna passe son tour », « Bronn :
    ESCOUADE Arya »), before « pour X » (« Mets PASSER pour Ygritte »), after a pronoun (« mets-lui PASSER »),
    and « pour X » that opens a line."""
    ws = [t.w for t in words]
    if not ws:
        return []
    hits = roster.scan(words)
    if ws[0] in ("pour", "for") and len(ws) > 1 and ((hits and hits[0].i == 1) or (
            ":" in ws[2:4] or any(w in view.order_words for w in ws[2:]))) and ws[1] not in L.KNOWN:
        return [Found(L.Trigger("FOR", "pour|for"), 0, 1)]
    first_named = min((h.j for h in hits), default=len(ws) + 1)
    last_for = max((h.i for h in hits if h.i > 0 and ws[h.i - 1] in ("pour", "for")), default=-1)
    first_pronoun = next((k for k, t in enumerate(words) if t.w in L.PRONOUNS and t.joined), len(ws) + 1)
    for k, w in enumerate(ws):
        if wished(ws, k, view) and any(h.i > k for h in hits) and (
                first_named <= k or first_pronoun < k or any(h.i > k + 1 and ws[h.i - 1] in _BY for h in hits)):
            return [Found(L.Trigger("FOR", w, guess=True), k, k + 1)]
        if w in view.order_words:
            if (first_named <= k or last_for > k or first_pronoun < k) and not (k > 0 and ws[k - 1] in ("pas", "not")):
                return [Found(L.Trigger("FOR", w), k, k + 1)]
        elif w in ("passe", "passent") and k + 2 < len(ws) and ws[k + 1] in ("son", "ce", "leur") and first_named <= k:
            return [Found(L.Trigger("FOR", w), k, k + 1)]
        elif w == "joue" and k > 1 and ws[k - 1] == "ne" and k + 1 < len(ws) and ws[k + 1] == "pas" and hits:
            return [Found(L.Trigger("FOR", "ne joue pas", guess=True), k - 1, k + 2)]
    return []


# --- sentences and clauses ---------------------------------------------------------------------------------

_ENDS = frozenset({".", "!", "?", ";"})
_JOINERS = frozenset({"et", "and", "puis", "then", "aussi", "also", "ah", "ensuite"})


def sentences(line: str, toks: list[Tok] | None = None) -> list[tuple[list[Tok], bool]]:
    """The sentences of a line (its tokens, if already made): their tokens, and whether each asks (« ? »)."""
    out: list[tuple[list[Tok], bool]] = []
    cur: list[Tok] = []
    for t in toks if toks is not None else words_of(line):
        if t.punct and t.w in _ENDS:
            if cur:
                out.append((cur, t.w == "?"))
            cur = []
            continue
        cur.append(t)
    if cur:
        out.append((cur, False))
    return out


def _clauses(toks: list[Tok], words: list[Tok], found: list[Found]) -> list[tuple[int, int, list[Found]]]:
    """The sentence cut before each trigger that starts a command of its own: (first word, after last, triggers)."""
    kept: list[list[Found]] = []
    for f in found:
        if kept:
            head = kept[-1][0].command
            if head == "HELP" or f.command == "HELP" or f.command == head or f.command in L.ABSORBS.get(head, ()):
                kept[-1].append(f)
                continue
        kept.append([f])
    bounds = []
    for n, group in enumerate(kept):
        start = 0 if n == 0 else _clause_start(toks, words, kept[n - 1][-1].j, group[0].i)
        bounds.append(start)
    out = []
    for n, group in enumerate(kept):
        end = bounds[n + 1] if n + 1 < len(kept) else len(words)
        out.append((bounds[n], end, group))
    return out


def _clause_start(toks: list[Tok], words: list[Tok], after: int, trigger: int) -> int:
    """Where the clause of the trigger at word ``trigger`` begins: after the last comma or « et » between it and
    the trigger before (« …du tour et rallonge de 24h », « …Bronn, puis recalcule »)."""
    start = trigger
    k = trigger - 1
    while k >= after and k >= 0:
        w = words[k].w
        if w in _JOINERS:
            return k
        if any(t.punct and t.w in ",:-" and words[k].end <= t.start <= words[k + 1].start for t in toks):
            return k + 1
        if w in ("tu", "peux", "pourrais", "moi", "lui", "le", "la", "l", "me", "dis", "fais", "il", "faut", "faudrait",
                 "je", "voudrais", "on", "se", "s", "te", "vous", "pouvez", "please", "tell", "and", "then", "stp"):
            start = k
            k -= 1
            continue
        break
    return start


# --- the reader -------------------------------------------------------------------------------------------


def _filled(clause: Clause) -> list[Reading]:
    """The clause's readings; a date that cannot be (« samedi 6 février » is a Thursday), or a number longer
    than any date, duration or step has (`when.read_number`), refuses the command."""
    try:
        for t in clause.words[clause.own:]:
            if t.w.isdigit():
                when.read_number(t.w)
        return fill(clause)
    except when.WhenError as e:
        command = clause.head.command
        return [Reading("refuse", "EXTEND" if command == "DEADLINE" else command, {}, clause.text, why=e.msg)]


class _Reader:
    def __init__(self, view: View):
        self.view = view
        self.roster = Roster(view.players, view.women, view.nicknames)
        self.ctx = Context(view, self.roster)
        self.out = MailReading()
        self.prose_before: list[Tok] = []

    def line(self, index: int, line: str, first: bool, toks: list[Tok] | None = None) -> None:
        toks = words_of(line) if toks is None else toks
        sents = sentences(line, toks)
        found_any = False
        before = len(self.out.readings)
        aside: list[str] = []  # the line's sentences without a command (« … ? il ne répond plus »): its prose
        for n, (toks, question) in enumerate(sents):
            words = plain(toks)
            words = [t if (w := _corrected(t, self.roster)) == t.w else replace(t, w=w) for t in words]
            text = line[toks[0].start:toks[-1].end] if toks else ""
            if first and n == 0 and self.view.thread is not None and self.view.thread.kind == "confirmation":
                if self._answer(index, line, toks, words, text, question):
                    found_any = True
                    continue
            readings = self.sentence(line, toks, words, text, question, sents[n + 1:] if n + 1 < len(sents) else [])
            for r in readings:
                r.line = index
            if readings:
                found_any = True
                self.out.readings.extend(readings)
                self.prose_before = []
            else:
                self.prose_before = words
                if any(t.w not in L.FILLER and t.w not in MINOR and t.w not in FRAME and not t.punct for t in words):
                    aside.append(text)
            self._remember(words)
        if not found_any:
            self.out.lines[index] = self._kind(line, toks)
        elif aside and len(self.out.readings) > before:
            last = self.out.readings[-1]
            last.prose = (*last.prose, *aside)

    def _remember(self, words: list[Tok]) -> None:
        for h in self.roster.scan(words):
            if h.name is not None:
                self.ctx.named.append(h.name)

    def sentence(self, line: str, toks: list[Tok], words: list[Tok], text: str, question: bool,
                 after: Sequence[tuple[list[Tok], bool]] = ()) -> list[Reading]:
        ws = [t.w for t in words]
        if not ws:
            return []
        same = self._same(line, toks, words, text)
        if same is not None:
            return same
        found = find_triggers(ws, self.view, question)
        found = sorted(found + [f for f in _for_triggers(words, self.view, self.roster)
                                if not any(g.i <= f.i < g.j for g in found)], key=lambda f: f.i)
        if not found:
            return []
        if has_any(ws, L.HOW) and not has_any(ws, ("comment ca", "comment va")):
            return [Reading("do", "HELP", {}, text)]
        if self._musing(words, found):
            return []
        out: list[Reading] = []
        for start, end, group in _clauses(toks, words, found):
            own = words[start:end]
            head = group[0]
            shift = 0
            ctx_words = []
            if start == 0 and self.prose_before and self._wants_context(head, own, start):
                ctx_words = self.prose_before
            follow = [t for s in after[:1] for t in plain(s[0])] if end == len(words) and after else []
            if follow and any(x for x in find_triggers([t.w for t in follow], self.view)):
                follow = []
            clause_words = ctx_words + own
            shift = len(ctx_words) - start
            clause = Clause(clause_words, [Found(f.trigger, f.i + shift, f.j + shift) for f in group], line, text,
                            question, self.ctx, own=len(ctx_words), toks=toks)
            readings = _filled(clause)
            if follow and readings and readings[0].verdict == "refuse" and readings[0].missing:
                retry = Clause(clause_words + follow, clause.found, line, text, question, self.ctx,
                               own=len(ctx_words), toks=toks)
                readings = _filled(retry) or readings
            if after and readings and readings[0].command == "PAUSE" and "reason" not in readings[0].slots:
                nxt = plain(after[0][0])
                if nxt and nxt[0].w in ("motif", "raison", "reason"):  # « … ? Motif : week-end de mariage. »
                    colon = line.find(":", nxt[0].end)
                    if colon >= 0:
                        readings[0].slots["reason"] = line[colon + 1:nxt[-1].end].strip()
            for r in readings:
                self._adjust(r, head, ws, question)
            out.extend(r for r in readings if r.verdict != "none")
            for r in readings:
                if r.command is not None and r.verdict != "refuse":
                    self.ctx.previous = r
                if r.slots.get("player"):
                    self.ctx.named.append(r.slots["player"])
        return out

    def _wants_context(self, head: Found, own: list[Tok], start: int) -> bool:
        """Does this command take what the sentence before said (a player, a step)?"""
        return head.command in ("RESEND", "REMOVE", "CORRECT", "FOR", "ABSENCE", "REPLACE")

    def _musing(self, words: Sequence[Tok], found: list[Found]) -> bool:
        """A thought, a plan, thanks or a past event, not a request (« je pense retirer Bertrand s'il… »)."""
        ws = [t.w for t in words]
        raw = [t.raw.lower() for t in words]
        if has_any(ws, L.REQUEST) and not has_any(ws, ("je me demande",)):
            return False
        if has_any(ws, L.MUSING):
            return True
        head = found[0]
        for k in range(max(head.i - 2, 0), head.i):
            if ws[k] in ("je", "j", "on") or (k == head.i - 1 and ws[k] in ("le", "la", "les", "lui")):
                w = ws[head.i]
                if w.endswith(("rai", "rais")) and not w.endswith(("voudrais", "pourrais", "aimerais")):
                    return True  # « je prolongerai », « je le retirerai »: a plan
        noun = head.trigger.noun or ws[head.i] in ("pause", "prolongation", "report")
        if noun:
            before = " ".join(ws[max(head.i - 3, 0):head.i])
            if any(before.endswith(t) or (t + " ") in before + " " for t in L.THANKS):
                return True
            for k in range(head.j, min(head.j + 4, len(ws) - 1)):
                if ws[k] in L.PAST_AUX and ws[k - 1] not in ("jusqu", "jusque") and (
                        ws[k + 1] in L.PARTICIPLES or raw[k + 1].endswith(("é", "ée", "és"))):
                    return True
            if has(ws, "semaine derniere") >= 0 or has(ws, "la derniere fois") >= 0:
                return True
        return False

    def _adjust(self, r: Reading, head: Found, ws: Sequence[str], question: bool) -> None:
        """What the sentence as a whole says of a reading: « On retire Bronn du jeu ? » is thinking aloud."""
        if r.verdict not in ("do",) or r.command in ("MISSING", "HELP", "PREVIEW"):
            return
        if question and head.i > 0 and ws[head.i - 1] == "on" and not has_any(ws, L.REQUEST + ("on peut",)):
            r.verdict = "ask"
            r.guessed = (*r.guessed, "intent")

    def _same(self, line: str, toks: list[Tok], words: list[Tok], text: str) -> list[Reading] | None:
        """« La même chose pour X », « pareil pour X »: the command before, for X."""
        ws = [t.w for t in words]
        at = next((has(ws, p) for p in L.SAME if has(ws, p) >= 0), -1)
        prev = self.ctx.previous
        if at < 0 or prev is None or prev.command is None:
            return None
        hits = [h for h in self.roster.scan(words) if h.i > at]
        slot = "to" if prev.command == "RESEND" and "to" in prev.slots and "player" not in prev.slots else "player"
        if not hits:
            return None
        h = hits[0]
        if h.name is None:
            return [Reading("refuse", prev.command, {}, text, candidates=h.candidates,
                            why=Msg("de quel joueur parlez-vous ?", "which player do you mean?"))]
        slots = {**prev.slots, slot: h.name}
        if prev.command == "RESEND" and prev.slots.get("whose") == prev.slots.get("to"):
            slots["whose"] = h.name
        r = Reading("do" if prev.verdict == "do" else prev.verdict, prev.command, slots, text,
                    guessed=tuple(g for g in prev.guessed if g != "player"))
        self.ctx.named.append(h.name)
        return [r]

    def _answer(self, index: int, line: str, toks: list[Tok], words: list[Tok], text: str, question: bool) -> bool:
        """A reply to our confirmation: yes (carry out what it echoed), no (drop it), maybe (leave it), or a
        correction of one of its slots (the corrected command, read anew)."""
        ws = [t.w for t in words]
        thread = self.view.thread
        assert thread is not None
        folded = " ".join(ws)
        said = None
        for kind, words_ in (("no", L.NO), ("maybe", L.MAYBE), ("yes", L.YES)):
            for p in words_:
                if folded == p or folded.startswith(p + " "):
                    said, rest_at = kind, len(p.split())
                    break
            if said:
                break
        if said is None:
            if "\U0001f44d" in line:
                said, rest_at = "yes", 0
            else:
                return False
        rest = words[rest_at:]
        while rest and rest[0].w in ("merci", "mais", "but", "pour", "moi", "et", "and", "please", "stp", "svp",
                                     "vas", "y", "go", "c", "est", "bon", "attends", "pas", "lui"):
            if rest[0].w in ("et", "and") and len(rest) > 1 and find_triggers([t.w for t in rest[1:]], self.view):
                break
            rest = rest[1:]
        pending = thread.pending[0] if thread.pending else None
        correction = self._correction(pending, line, toks, rest, text) if pending and rest else None
        if correction is not None:
            correction.line = index
            self.out.readings.append(correction)
            self.out.answer = "corrected"
            self.out.answer_line = index
            return True
        if said == "yes":
            self.out.readings.append(Reading("do", "CONFIRM", {}, text, line=index))
            self.out.answer = "yes"
            self.out.answer_line = index
            if rest and rest[0].w in ("et", "and"):
                more = self.sentence(line, toks, rest[1:], text, question)
                for r in more:
                    r.line = index
                self.out.readings.extend(more)
            return True
        self.out.answer = said
        self.out.answer_line = index
        self.out.lines[index] = "answer"
        return True

    def _correction(self, pending: Intent, line: str, toks: list[Tok], rest: list[Tok], text: str) -> Reading | None:
        """The pending command with the slots a reply gives (« non, pas lui, Bronn », « oui mais maintenant »)."""
        ws = [t.w for t in rest]
        if not ws or find_triggers(ws, self.view) and not any(
                f.command == pending.command for f in find_triggers(ws, self.view)):
            return None
        slots = dict(pending.slots)
        guessed: list[str] = []
        changed = False
        if "player" in slots:
            hits = [h for h in self.roster.scan(rest)]
            if hits and hits[0].name is not None and hits[0].name != slots["player"]:
                slots["player"], changed = hits[0].name, True
            elif "autre" in ws:
                same_word = [n for n in self.view.players if n != slots["player"] and set(n.lower().split()) & set(
                    str(slots["player"]).lower().split())]
                if len(same_word) == 1:
                    slots["player"], changed = same_word[0], True
                    guessed.append("player")
        if "when" in slots:
            if has_any(ws, L.NOW) and not has_any(ws, ("pas maintenant",)):
                slots["when"], changed = "now", True
            elif has_any(ws, L.END_OF_STEP):
                slots["when"], changed = "end_of_step", True
        if "secret" in slots and any(w in L.SECRET for w in ws):
            slots["secret"], changed = True, True
        trigger = L.Trigger(pending.command, "")
        if pending.command in ("EXTEND", "EARLIER", "PAUSE", "RESUME", "ABSENCE") and not changed:
            words = plain(rest)
            clause = Clause(words, [Found(trigger, 0, 0)], line, text, False, self.ctx, toks=toks)
            readings = fill(clause) if pending.command != "EARLIER" else fill(
                Clause(words, [Found(L.Trigger("EXTEND", ""), 0, 0)], line, text, False, self.ctx, toks=toks))
            r = readings[0] if readings else None
            if r is not None and r.verdict != "refuse":
                new = {k: v for k, v in r.slots.items() if k in ("until", "by_hours", "start", "end", "for_hours", "at")}
                if new:
                    if pending.command == "PAUSE" and "end" in new and "start" not in new:
                        new = {**{k: v for k, v in slots.items() if k != "end"}, **new}
                    else:
                        new = {**{k: v for k, v in slots.items() if k not in ("until", "by_hours")}, **new}
                    return Reading(r.verdict, r.command, new, text, guessed=r.guessed)
        if not changed:
            return None
        return Reading("ask" if guessed else "do", pending.command, slots, text, guessed=tuple(guessed))

    def _kind(self, line: str, toks: list[Tok]) -> str:
        """A line without a command: the MJ's prose, a request no command does, or a misspelt command word."""
        words = plain(toks)
        ws = [t.w for t in words]
        if not ws or P.is_chatter(line):
            return "prose"
        if any(w in ("je", "j") for w in ws[:1]) and not has_any(ws, L.REQUEST):
            return "prose"  # (the MJ's own plans: « je veux relancer les traînards sur le forum »)
        if has_any(ws, L.REQUEST) or ws[0] in L.REQUEST_VERBS or (len(ws) > 1 and ws[0] in (
                "bon", "alors", "ok") and ws[1] in L.REQUEST_VERBS):
            return "request"
        if len(ws) == 1 and len(ws[0]) >= 5 and ws[0] not in L.KNOWN and ws[0] not in self.roster.by_word \
                and not words[0].cap:  # (a capitalised word alone is a signature)
            return "typo"
        return "prose"


_END_LINES = ("fin", "end", "fin de la chronique", "fin chronique", "end of chronicle", "fin de chronique",
              "fin du texte")


MAX_READ_LINES = 1_000
"""Lines of a mail the reader looks at (the engine refuses a mail of more than ``max_order_lines``, 200 by
default, before it gets here): a megabyte of short lines costs what 1,000 do."""


def read(text: str, view: View, subject: str = "") -> MailReading:
    """Every command of an MJ's mail, in order, with its verdict; what each other line is (the first
    `MAX_READ_LINES` lines)."""
    r = _Reader(view)
    lines = text.splitlines()[:MAX_READ_LINES]
    first = True
    chronicle: list[int] | None = None
    for index, raw in enumerate(lines):
        line = raw.strip()
        if chronicle is not None:
            if len(line) <= 30 and " ".join(t.w for t in plain(words_of(line))) in _END_LINES:
                _close_chronicle(r.out, chronicle, lines)
                chronicle = None
                r.out.lines[index] = "chronicle_end"
                continue
            chronicle.append(index)
            continue
        if not line:
            continue
        if len(line) > MAX_LINE_CHARS:
            r.out.lines[index] = "long"
            continue
        toks = words_of(line)
        if len(toks) <= 2 and " ".join(t.w for t in plain(toks)) in ("fin", "end"):
            r.out.end = index
            break
        before = len(r.out.readings)
        r.line(index, line, first, toks)
        first = False
        new = r.out.readings[before:]
        chron = next((x for x in new if x.command == "CHRONICLE" and "text" not in x.slots), None)
        if chron is None and any(x.command == "APPROVE" for x in new) and line.rstrip().endswith(":"):
            chron = Reading("do", "CHRONICLE", {}, line, line=index)
            r.out.readings.append(chron)
        if chron is not None:
            chronicle = []
            chron.verdict = "do"
    if chronicle is not None:
        _close_chronicle(r.out, chronicle, lines)
    seen: set[str] = set()
    kept = []
    for x in r.out.readings:  # « qui manque ? … les traînards »: one list is enough
        if x.command in ("MISSING", "HELP", "PREVIEW") and x.verdict == "do":
            if x.command in seen:
                continue
            seen.add(x.command)
        kept.append(x)
    r.out.readings = kept
    for x in r.out.readings:
        if x.command == "CHRONICLE" and "text" not in x.slots and x.verdict != "refuse":
            x.verdict = "refuse"
            x.missing = ("text",)
            x.why = Msg("le texte de la chronique suit la ligne « Chronique : », jusqu'à « Fin »",
                        "the chronicle's text follows the line 'Chronicle:', up to 'End'")
    if not r.out.readings and subject:
        _subject(r, subject, text)
    return r.out


def _close_chronicle(out: MailReading, indices: list[int], lines: list[str]) -> None:
    text = "\n".join(lines[k].rstrip() for k in indices).strip("\n")
    chron = next(x for x in reversed(out.readings) if x.command == "CHRONICLE")
    for k in indices:
        out.chronicle[k] = lines[k]
    if text.strip():
        chron.slots["text"] = text


_REPLY = re.compile(r"^\s*(?:re|tr|fwd?|aw|wg)\s*:", re.IGNORECASE)


def _subject(r: _Reader, subject: str, text: str) -> None:
    """A mail whose body asks nothing: its subject may (« [PMB] qui manque ? »), unless it answers a mail."""
    if _REPLY.match(subject):
        return
    topic = re.sub(r"\[[^\]]{0,64}\]", " ", subject[:MAX_LINE_CHARS]).strip()
    if not topic:
        return
    body = " ".join(x.strip() for x in text.splitlines() if x.strip())
    line = f"{topic} : {body}" if body else topic
    if len(line) > MAX_LINE_CHARS:
        return
    before = len(r.out.readings)
    r.line(-1, line, False)
    r.out.lines.pop(-1, None)
    for x in r.out.readings[before:]:
        x.line = -1


def intent_text(intent: Intent) -> str:
    """A short, stable key of an intent (for tests and the journal)."""
    return f"{intent.command} " + " ".join(f"{k}={v}" for k, v in sorted(intent.slots.items()))



# --- a player's common commands in a sentence -------------------------------------------------------------

_PLAYER = [(t, _compile(t.pattern)) for t in L.PLAYER_TRIGGERS]


def common(line: str, view: View) -> tuple[str, str] | None:
    """A player's common command written as a sentence, when nothing in it is a guess: ``("AWAY", "du 2025-02-15
    au 2025-02-20")`` (the dates as `pbem.engine.when` reads them), ``("PASS", "")``, ``("HELP", "")``,
    ``("STATUS", "")``; None for his prose (and for a line too long to be a command)."""
    if len(line) > MAX_LINE_CHARS:
        return None
    toks = words_of(line)
    words = plain(toks)
    ws = [t.w for t in words]
    if not ws or has_any(ws, L.MUSING) or has_any(ws, ("peut etre",)):
        return None
    for t, items in _PLAYER:
        hit = next((i for i in range(len(ws)) if _match(items, ws, i) > i), None)
        if hit is None:
            continue
        if t.command != "AWAY":
            return (t.command, "") if len(ws) <= 12 else None
        roster = Roster(())
        clause = Clause(words, [Found(t, hit, _match(items, ws, hit))], line, line, False,
                        Context(view, roster), toks=toks)
        r = fill_span(clause)
        if r is None or r.verdict != "do" or "end" not in r.slots:
            return None
        start, end = r.slots.get("start"), r.slots["end"]
        return "AWAY", (f"du {start.isoformat()} au {end.isoformat()}" if start is not None
                        else f"jusqu'au {end.isoformat()}")
    return None
