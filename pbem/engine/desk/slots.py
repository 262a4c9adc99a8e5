"""What an MJ's sentence is made of: its words (folded, with where each stands in the text), and the things
a command needs found among them by type, in any order: players (names, loose spellings, pronouns), steps,
moments and durations, addresses, free text.

Every reader here works on one sentence of a line no longer than `pbem.limits.MAX_LINE_CHARS`, in time
proportional to it: the words are folded once (`words_of`), names are looked up by their first word,
and only the few words standing where a name is expected are compared with the roster (a misspelt name).
Pure: ``now`` and the time zone come from the caller.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pbem.engine import when
from pbem.engine.desk import lexicon as L
from pbem.names import NAME_FILLER, name_words

# --- words ----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Tok:
    """One word, number, address or sign of a sentence: folded (``w``, as `pbem.engine.when.tokens` gives
    it), as written (``raw``), and where it stands in the line (``start``, ``end``)."""

    w: str
    raw: str
    start: int
    end: int
    cap: bool = False  # written with a capital
    joined: bool = False  # joined to the word before by a hyphen or an apostrophe (« sors-la », « l'ajouter »)
    punct: bool = False
    addr: bool = False


_TOKEN = re.compile(
    r"(?P<addr>[a-z0-9._%+\-]{1,64}@[a-z0-9\-]{1,63}(?:\.[a-z0-9\-]{1,63}){1,8})"
    r"|(?P<iso>\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2})?)"
    r"|(?P<num>\d+(?:er|eme|e|st|nd|rd|th)?)"
    r"|(?P<word>[a-z]+)"
    r"|(?P<sign>[/:?!.,;()+\"<>\-'])")
_ORDINAL = re.compile(r"(\d+)(?:er|eme|e|st|nd|rd|th)")


def fold_with_map(text: str) -> tuple[str, Sequence[int]]:
    """`pbem.names.fold` without squeezing spaces, and for each folded character the index of its source."""
    if text.isascii():  # (the usual case: one character for one)
        return text.lower().replace("`", "'"), range(len(text))
    out: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        f = _FOLDED.get(c)
        if f is None:
            f = _fold_char(c)
            if len(_FOLDED) < 4096:
                _FOLDED[c] = f
        out.append(f)
        where.extend([i] * len(f))
    return "".join(out), where


_FOLDED: dict[str, str] = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00a0": " ", "\u202f": " ",
                           "\u00ab": '"', "\u00bb": '"', "\u2026": "...", "`": "'"}


def _fold_char(c: str) -> str:
    if c.isascii():
        return c.lower()
    return "".join(x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x)).casefold()


def words_of(text: str) -> list[Tok]:
    """The tokens of a text (at most a line: the caller caps it), in order."""
    folded, where = fold_with_map(text)
    toks: list[Tok] = []
    glue = -2  # where the last hyphen or apostrophe was
    for m in _TOKEN.finditer(folded):
        a, b = m.span()
        start, end = where[a], where[b - 1] + 1
        kind = m.lastgroup
        w = m.group()
        if kind == "sign":
            if w in "-'":
                glue = a
            toks.append(Tok(w, text[start:end], start, end, False, False, True, False))
            continue
        if kind == "num" and not w.isdigit():
            o = _ORDINAL.fullmatch(w)
            w = o.group(1) if o else w
        raw = text[start:end]
        toks.append(Tok(w, raw, start, end, raw[:1].isupper(), glue == a - 1, False, kind == "addr"))
    return toks


def plain(toks: Sequence[Tok]) -> list[Tok]:
    """The words, numbers and addresses (with ``/`` and ``:``, which dates and hours use), signs left out."""
    return [t for t in toks if not t.punct or t.w in "/:+"]


def has(words: Sequence[str], phrase: str) -> int:
    """Where a phrase of folded words (« tout le monde ») begins among ``words``, or -1."""
    key = phrase.split()
    n = len(key)
    first = key[0]
    for i, w in enumerate(words):
        if w == first and list(words[i:i + n]) == key:
            return i
    return -1


def has_any(words: Sequence[str], phrases: Iterable[str]) -> bool:
    """Does one of the phrases stand among the words?"""
    present = set(words)
    return any(p.partition(" ")[0] in present and has(words, p) >= 0 for p in phrases)


# --- players ----------------------------------------------------------------------------------------------



@dataclass(frozen=True)
class Hit:
    """A player found among the words ``i`` to ``j`` (indices in the plain words): ``name`` when one player
    is meant, else ``candidates`` (a word several names share, a typo as near one as another)."""

    i: int
    j: int
    name: str | None
    candidates: tuple[str, ...] = ()
    loose: bool = False  # a misspelling, initials: a guess


class Roster:
    """The players' names, looked up by their words (exact, a word of one name only, or loosely)."""

    def __init__(self, names: Sequence[str], women: Iterable[str] = (),
                 nicknames: Mapping[str, Sequence[str]] | None = None):
        self.names = tuple(dict.fromkeys(names))
        self.women = frozenset(women)
        # the MJ's nicknames, by their letters run together (« Little-finger », « littlefinger ») and by each word
        # that belongs to one player's nicknames only (« Limier » for « le Limier »); a nickname is a guess: asked
        self.by_nickname: dict[str, str] = {}
        shared: set[str] = set()
        for name, given in (nicknames or {}).items():
            for nick in given:
                for w in name_words(nick):  # (the keys `set_nicknames` keeps apart from every other player's)
                    if self.by_nickname.setdefault(w, name) != name:
                        shared.add(w)
        for w in shared:
            del self.by_nickname[w]
        self.keys: dict[tuple[str, ...], str] = {}
        self.by_word: dict[str, list[str]] = {}
        self.longest = 1
        for name in self.names:
            key = tuple(t.w for t in plain(words_of(name)))
            self.keys[key] = name
            self.longest = max(self.longest, len(key))
            for w in dict.fromkeys(key):
                if w not in NAME_FILLER:
                    self.by_word.setdefault(w, []).append(name)

    def scan(self, words: Sequence[Tok]) -> list[Hit]:
        """Every player named among the words: whole names first, then a word that belongs to names."""
        hits: list[Hit] = []
        i = 0
        ws = [t.w for t in words]
        while i < len(ws):
            found = None
            for n in range(min(self.longest, len(ws) - i), 0, -1):
                name = self.keys.get(tuple(ws[i:i + n]))
                if name is not None:
                    found = Hit(i, i + n, name)
                    break
            if found is None:
                names = self.by_word.get(ws[i])
                word = words[i]
                if names and (word.cap or ws[i] not in L.KNOWN) and not word.addr:
                    found = Hit(i, i + 1, names[0]) if len(names) == 1 else Hit(i, i + 1, None, tuple(names))
            if found is not None:
                hits.append(found)
                i = found.j
            else:
                i += 1
        return hits

    def loose(self, word: Tok) -> tuple[str | None, tuple[str, ...]]:
        """A word that may be a misspelt or shortened name, or initials (« Bertran », « Bert », « PD »): the one
        name it is nearest, or the names it is as near to (none: near no name).  A nickname the MJ gave
        (`pbem player nickname`) is read here too: the name it stands for, as a guess."""
        nicknamed = self.by_nickname.get(word.w)
        if nicknamed is not None:
            return nicknamed, ()
        raw = word.raw
        if 2 <= len(raw) <= 3 and raw.isupper() and raw.isalpha():
            fits = [n for n, key in ((n, self._initials(n)) for n in self.names) if key == raw.lower()]
            return (fits[0], ()) if len(fits) == 1 else (None, tuple(fits))
        w = word.w
        if len(w) < 3 or len(w) > 40 or w in L.KNOWN:
            return None, ()
        # the first letters of a name, or of one of its words (« Bert » for Bertrand, « Mall » for Élise de
        # Mallery), as an MJ in a hurry shortens it; or a misspelling.  Both are guesses (asked about), and a word
        # that fits several names either way (« Bron »: Bronn's first letters, one letter from Bran) names them all
        starts = {name for key, name in self.keys.items()
                  if "".join(key).startswith(w) or any(k.startswith(w) for k in key if k not in NAME_FILLER)}
        best: dict[str, int] = {}
        for key, name in self.keys.items():
            for part in (" ".join(key), *[k for k in key if k not in NAME_FILLER]):
                d = distance(w, part.replace(" ", ""), 2)
                if d <= (1 if len(w) <= 5 else 2):
                    best[name] = min(best.get(name, 9), d)
        low = min(best.values(), default=None)
        nearest = tuple(n for n in self.names if n in starts or (low is not None and best.get(n) == low))
        if not nearest:
            return None, ()
        return (nearest[0], ()) if len(nearest) == 1 else (None, nearest)

    @staticmethod
    def _initials(name: str) -> str:
        return "".join(t.w[0] for t in plain(words_of(name)) if t.w not in NAME_FILLER and not t.w.isdigit())


def distance(a: str, b: str, cap: int) -> int:
    """The edit distance of two short words (letters added, dropped, changed or swapped), at most ``cap`` + 1."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > cap:
            return cap + 1
        prev2, prev = prev, cur
    return min(prev[-1], cap + 1)


# --- steps ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepRef:
    """A step named by a sentence: a number, or « ce tour », « le prochain », « le précédent »."""

    number: int
    how: str  # "number", "open", "next", "last"
    i: int
    j: int


def step_of(words: Sequence[Tok], open_turn: int | None, last: int) -> StepRef | None:
    """The step a sentence names, if it names one (open and last: the open step and the last resolved)."""
    ws = [t.w for t in words]
    for i, w in enumerate(ws):
        nxt = ws[i + 1] if i + 1 < len(ws) else ""
        if w in L.STEP_WORDS and nxt == "n" and i + 2 < len(ws) and ws[i + 2].isdigit():
            return StepRef(when.read_number(ws[i + 2]), "number", i, i + 3)
        if (w in L.STEP_WORDS or (w == "t" and words[i].raw in "tT")) and nxt.isdigit():
            return StepRef(when.read_number(nxt), "number", i, i + 2)
    for phrases, how in ((L.NEXT_STEP, "next"), (L.LAST_STEP, "last"), (L.OPEN_STEP, "open")):
        for p in phrases:
            at = has(ws, p)
            if at >= 0:
                base = open_turn if open_turn is not None else last + 1
                number = {"next": base + 1, "last": last, "open": base}[how]
                return StepRef(number, how, at, at + len(p.split()))
    for i, w in enumerate(ws):  # « le tour d'avant » written « tour … avant », « du dernier »
        if w in L.STEP_WORDS and i > 0 and ws[i - 1] in ("dernier", "precedent"):
            return StepRef(last, "last", i - 1, i + 1)
    return None


# --- moments, periods and durations ---------------------------------------------------------------------


@dataclass(frozen=True)
class When:
    """A moment written in a sentence: its day (None: now), its hour if one was written, and whether it is a
    guess (« ce soir », « ce week-end », « mercredi minuit »), with the other reading."""

    day: date | None
    at: time | None
    i: int
    j: int
    vague: bool = False
    other: tuple[date, time | None] | None = None
    last_day: date | None = None  # a period written as one (« ce week-end », « la semaine prochaine »): its end


DAY_WORDS = frozenset({"du", "au", "le", "jusqu", "jusque", "a", "des", "from", "to", "until", "till", "the", "on",
                       "dimanche", "samedi", "vendredi", "jeudi", "mercredi", "mardi", "lundi", "monday", "tuesday",
                       "wednesday", "thursday", "friday", "saturday", "sunday", "et", "and", "partir", "entre",
                       "between", "avant", "before", "after", "apres", "starting"})
"""Words after which a day number alone is a date (« jusqu'au 20 », « du 15 au 17 »)."""
STARTS = frozenset({"demain", "tomorrow", "aujourd", "aujourdhui", "today", "apres", "ce", "cet", "tonight", "next",
                    "dans", "in", "la", "le", "the", "this", "fin", "end", "midi", "minuit", "noon", "midnight",
                    "weekend", "week", *when.NOW_WORDS, *when.WEEKDAYS})


def moment_at(words: Sequence[Tok], i: int, now: datetime, tz: ZoneInfo) -> When | None:
    """The moment that begins at word ``i``, if one does.  A weekday alone is the next one after today
    (« lundi » said on a Monday is a week later), « mardi prochain » the Tuesday of next week."""
    ws = [t.w for t in words]
    today = now.astimezone(tz).date()
    w = ws[i]
    nxt = ws[i + 1] if i + 1 < len(ws) else ""
    saturday = today + timedelta(days=(5 - today.weekday()) % 7)
    monday = today + timedelta(days=7 - today.weekday())
    if w in ("ce", "this", "le", "the") and nxt in ("week", "weekend"):  # periods written as words
        return When(saturday, None, i, i + (3 if nxt == "week" else 2), vague=True, last_day=saturday + timedelta(1))
    if w == "weekend" or (w == "week" and nxt == "end"):
        return When(saturday, None, i, i + (2 if w == "week" else 1), vague=True, last_day=saturday + timedelta(1))
    if (w == "la" and nxt == "semaine" and i + 2 < len(ws) and ws[i + 2] in ("prochaine", "suivante")) or (
            w == "next" and nxt == "week"):
        return When(monday, None, i, i + (3 if w == "la" else 2), vague=True, last_day=monday + timedelta(6))
    if w in ("fin", "end") and (nxt == "semaine" or ws[i + 1:i + 4] in (["de", "la", "semaine"], ["of", "the",
                                                                                                     "week"])):
        friday = today + timedelta(days=(4 - today.weekday()) % 7)
        return When(friday, None, i, i + (2 if nxt == "semaine" else 4), vague=True, other=(friday + timedelta(2), None))
    if w in ("dans", "in"):
        n, k = _count(ws, i + 1)
        if n is not None and k < len(ws) and ws[k] in ("jours", "jour", "days", "day"):
            return When(today + timedelta(days=n), None, i, k + 1, vague=True)
        return None
    if w in ("ce", "cet", "tonight"):
        if w != "tonight" and nxt not in ("soir", "matin", "apres"):
            return None
        j = i + (1 if w == "tonight" else 3 if nxt == "apres" else 2)
        at, k = _hour(ws, j, now, tz)
        if at is not None:
            return When(today, at, i, k)
        return When(today, time(9, 0) if nxt == "matin" else time(21, 0), i, j, vague=True)
    if w in ("fin", "end", "this", "next") and nxt not in when.WEEKDAYS:
        return None
    bare = w.isdigit() and i > 0 and ws[i - 1] in DAY_WORDS
    explicit = any(x in when.MONTHS or x in when.WEEKDAYS for x in ws[i:i + 3]) and not w.isdigit() or (
        w.isdigit() and (nxt in when.MONTHS or nxt == "/"))
    try:
        m, j = when.read_moment(ws, i, now, tz, bare=bare)
    except when.WhenError:
        if explicit:
            raise
        return None
    if m is None or j <= i:
        return None
    if m.day is None:
        return When(None, None, i, j)
    day, at = m.day, m.at
    if w in when.WEEKDAYS or (w == "next" and nxt in when.WEEKDAYS):
        weekday = when.WEEKDAYS[w if w in when.WEEKDAYS else nxt]
        k = i + (2 if w == "next" else 1)
        dated = k < len(ws) and ws[k].isdigit() and not (k + 1 < len(ws) and ws[k + 1] in ("h", ":", "pm", "am"))
        if not dated:
            ahead = (weekday - today.weekday()) % 7 or 7
            if w == "next" or (k < len(ws) and ws[k] == "prochain"):
                ahead = weekday + 7 - today.weekday()
                if ws[k:k + 1] == ["prochain"] and j <= k:
                    j = k + 1
            day = today + timedelta(days=ahead)
    vague = False
    other: tuple[date, time | None] | None = None
    if at is None and j < len(ws) and ws[j] in ("soir", "matin", "evening", "morning", "night"):
        at, vague, j = (time(9, 0) if ws[j] in ("matin", "morning") else time(21, 0)), True, j + 1
        later, k = _hour(ws, j, now, tz)
        if later is not None:
            at, vague, j = later, False, k
    elif at == time(0, 0) and ws[j - 1] in ("minuit", "midnight"):
        vague, other = True, (day, at)
        day = day + timedelta(days=1)
    return When(day, at, i, j, vague=vague, other=other)


def _hour(ws: Sequence[str], i: int, now: datetime, tz: ZoneInfo) -> tuple[time | None, int]:
    """An hour written at word ``i`` (« 21h », « à 18 h 30 », « midi »), if one is."""
    j = i
    while j < len(ws) and ws[j] in ("a", "at", "vers", "around"):
        j += 1
    if j >= len(ws) or not (ws[j].isdigit() or ws[j] in ("midi", "minuit", "noon", "midnight")):
        return None, i
    try:
        m, k = when.read_moment(list(ws), j, now, tz)
    except when.WhenError:
        return None, i
    return (m.at, k) if m is not None and m.at is not None else (None, i)


def _count(ws: Sequence[str], i: int) -> tuple[int | None, int]:
    if i < len(ws) and ws[i].isdigit():
        return when.read_number(ws[i]), i + 1
    if i < len(ws) and ws[i] in when.NUMBER_WORDS:
        return when.NUMBER_WORDS[ws[i]], i + 1
    return None, i


def moments(words: Sequence[Tok], now: datetime, tz: ZoneInfo, skip: frozenset[int] = frozenset()) -> list[When]:
    """Every moment written in the words, in order, but where ``skip`` (the words of a duration)."""
    out: list[When] = []
    i = 0
    ws = [t.w for t in words]
    while i < len(ws):
        if i not in skip and (ws[i].isdigit() or ws[i] in STARTS or _ISO_WORD.fullmatch(ws[i])):
            found = moment_at(words, i, now, tz)
            if found is not None and not skip & set(range(found.i, found.j)):
                out.append(found)
                i = found.j
                continue
        i += 1
    return out


_ISO_WORD = re.compile(r"\d{4}-\d{2}-\d{2}.*")


@dataclass(frozen=True)
class Length:
    """A duration written in a sentence, in hours; ``vague`` when its unit was left out (« prolonge de 48 ») or
    two were offered (« 24 ou 48 h », ``other``), or it is « un tour »."""

    hours: float
    i: int
    j: int
    vague: bool = False
    other: float | None = None


def lengths(words: Sequence[Tok], step_hours: float | None) -> list[Length]:
    """Every duration in the words (« 24h », « un jour et demi », « d'une semaine », « de 48 », « d'un tour »)."""
    ws = [t.w for t in words]
    out: list[Length] = []
    i = 0
    while i < len(ws):
        d, j = when.read_duration(ws, i)
        if d is not None and j > i and i > 0 and (ws[i - 1] in ("dans", "in") or (
                ws[i + 1] in ("h", "heure", "heures") and _time_before(ws, i))):  # « dans 3 jours », « jeudi 18h »
            i = j
            continue
        if ws[i].isdigit() or ws[i] in when.NUMBER_WORDS:  # « two more days », « 12 heures supplémentaires »
            if i + 2 < len(ws) and ws[i + 1] in ("more", "extra", "de", "additional") and ws[i + 2] in when.UNITS:
                d2, j2 = when.read_duration([ws[i], ws[i + 2]], 0)
                if d2 is not None:
                    out.append(Length(d2.days * 24 + d2.seconds / 3600, i, i + 3))
                    i += 3
                    continue
        if d is not None and j > i:
            hours = d.days * 24 + d.seconds / 3600
            if out and out[-1].j == i - 1 and ws[i - 1] in ("ou", "or") and out[-1].vague:
                first = out.pop()
                out.append(Length(first.hours, first.i, j, vague=True, other=hours))
            else:
                out.append(Length(hours, i, j))
            i = j
            continue
        if ws[i].isdigit() and i > 0 and ws[i - 1] in ("de", "by", "of") and (i + 1 >= len(ws) or ws[i + 1] in (
                "ou", "or", "stp", "svp", "please", "merci")):
            hours = float(when.read_number(ws[i]))
            if hours <= when.MAX_DURATION_DAYS * 24:
                out.append(Length(hours, i, i + 1, vague=True))
        elif (ws[i] in ("un", "une", "one", "a") and i + 1 < len(ws) and ws[i + 1] in ("tour", "etape", "turn")
              and step_hours is not None and i > 0 and ws[i - 1] in ("d", "de", "by")):
            out.append(Length(step_hours, i, i + 2, vague=True))
            i += 2
            continue
        i += 1
    return out


# --- addresses and text -----------------------------------------------------------------------------------


_TIME_BEFORE = frozenset({"a", "vers", "at", "jusqu", "jusque", "until", "till", "soir", "matin", "demain", "hui",
                          "today", "tomorrow", "tonight", "midi", "prochain", *when.WEEKDAYS, *when.MONTHS})


def _time_before(ws: Sequence[str], i: int) -> bool:
    """Is « 18 h » at word ``i`` an hour (after a day, « à », « jusqu'à »), not a duration?"""
    return i > 0 and (ws[i - 1] in _TIME_BEFORE or ws[i - 1].isdigit() or ws[i - 1] == ",")


def addresses(words: Sequence[Tok]) -> list[Tok]:
    return [t for t in words if t.addr]


def text_between(line: str, start: int, end: int) -> str:
    """The line as written between two offsets, its edges trimmed of spaces and punctuation."""
    return line[start:end].strip(" \t:,;.!?-–—()<>\u00a0\u202f\"'«»")


def quoted(line: str) -> str | None:
    """A text written between « » or "" in the line (a chronicle given inline), if any."""
    m = re.search(r"[«\"“]\s*([^«»\"“”]{1,500}?)\s*[»\"”]", line)
    return m.group(1).strip() if m else None
