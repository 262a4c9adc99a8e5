"""Durations, dates and periods as people write them in a mail, French first, English too.

« 24h », « 24 heures », « 2 jours », « une semaine », « 1j12h », « 48 h » are durations;
« samedi 8 février », « le 17/02 à 21 h », « lundi prochain 21h30 », « demain », « 2026-02-17 21:00 »
are moments; « du samedi 8 au dimanche 16 février inclus », « jusqu'au lundi 17 février à 21 h »,
« à partir de samedi », « pendant 3 jours », « jusqu'à nouvel ordre » are periods.  Everything is
read against ``now`` in the game's time zone: a date without a year is the nearest one that is
not long past (a weekday written beside it must agree), a day without an hour is left to the
caller (a period's last day counts whole: « jusqu'au 16 » runs to the end of the 16th).

Pure: no clock of its own (``now`` is given), no database.  Every number has a range, said when it is
left (a duration of a year at most, a year within ten of now, an hour of the day), and a text longer
than a line (`pbem.limits.MAX_LINE_CHARS`) is not read: nothing written can overflow a date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pbem.config import Duration
from pbem.core import Msg
from pbem.limits import MAX_DIGITS, MAX_LINE_CHARS
from pbem.msg import PbemError
from pbem.names import fold, french_number


class WhenError(PbemError, ValueError):
    """A date or a duration that cannot be read; ``msg`` says what is wrong and how to write it."""


MAX_DURATION_DAYS = 366
"""The longest duration read (« pendant 3 jours », « de 24 h »): a year, and a day for a leap year."""
YEARS_AROUND = 10
"""A written year is at most this many years from now (the caller's ``now``)."""


def _too_long(text: str) -> None:
    """`WhenError` for a text longer than a line: no date or duration is that long."""
    if len(text) > MAX_LINE_CHARS:
        raise WhenError(Msg(f"texte trop long pour une date ou une durée ({french_number(MAX_LINE_CHARS)} caractères "
                            "au plus)", f"text too long for a date or a duration ({MAX_LINE_CHARS} characters at most)"))


def read_number(t: str) -> int:
    """A token of digits as a number; `WhenError` past `MAX_DIGITS` digits (no date or duration has them)."""
    if len(t) > MAX_DIGITS:
        raise WhenError(Msg(f"nombre trop grand : « {t[:12]}… »", f"number too large: '{t[:12]}…'"))
    return int(t)


MONTHS = {
    "janvier": 1, "janv": 1, "jan": 1, "january": 1,
    "fevrier": 2, "fevr": 2, "fev": 2, "february": 2, "feb": 2,
    "mars": 3, "march": 3, "mar": 3,
    "avril": 4, "avr": 4, "april": 4, "apr": 4,
    "mai": 5, "may": 5,
    "juin": 6, "june": 6, "jun": 6,
    "juillet": 7, "juil": 7, "july": 7, "jul": 7,
    "aout": 8, "august": 8, "aug": 8,
    "septembre": 9, "sept": 9, "sep": 9, "september": 9,
    "octobre": 10, "oct": 10, "october": 10,
    "novembre": 11, "nov": 11, "november": 11,
    "decembre": 12, "dec": 12, "december": 12,
}
WEEKDAYS = {
    "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
}
DAY_NAMES_FR = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
NUMBER_WORDS = {
    "un": 1, "une": 1, "one": 1, "a": 1, "an": 1, "deux": 2, "two": 2, "trois": 3, "three": 3, "quatre": 4,
    "four": 4, "cinq": 5, "five": 5, "six": 6, "sept": 7, "seven": 7, "huit": 8, "eight": 8, "neuf": 9,
    "nine": 9, "dix": 10, "ten": 10, "onze": 11, "eleven": 11, "douze": 12, "twelve": 12, "quinze": 15,
    "fifteen": 15, "vingt": 20, "twenty": 20, "trente": 30, "thirty": 30, "quarante": 40, "forty": 40,
}
UNITS = {
    "h": "h", "heure": "h", "heures": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "j": "d", "jour": "d", "jours": "d", "journee": "d", "journees": "d", "d": "d", "day": "d", "days": "d",
    "semaine": "w", "semaines": "w", "sem": "w", "week": "w", "weeks": "w",
    "min": "m", "mins": "m", "minute": "m", "minutes": "m", "mn": "m",
}
NOW_WORDS = ("maintenant", "now", "immediatement", "immediately", "aussitot", "desormais")
OPEN_END = (("nouvel", "ordre"), ("further", "notice"), ("indefiniment",), ("indefinitely",), ("nouvel", "avis"))
# words that carry no meaning for a date or a period (articles, « inclus », « à », « at »)
FILLER = {"le", "la", "les", "l", "au", "aux", "a", "at", "on", "the", "inclus", "incluse", "inclusivement",
          "included", "inclusive", "compris", "y", "of", "et", "and", "heure", "vers", "soir", "matin", "ce",
          "cette", "pour", "for", "pendant", "durant", "during", "de", "d", "du", "des", "en", "by", "date",
          "limite", "deadline", "echeance", "partie", "game", "jeu"}

_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[t ](\d{1,2}):(\d{2}))?")
_TOKEN = re.compile(r"\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2})?|\d+(?:er|e|eme|st|nd|rd|th)?|[a-z]+|[/:]")


def tokens(text: str) -> list[str]:
    """The words and numbers of a text, folded (lower case, no accents, apostrophes split off)."""
    folded = fold(text).replace("'", " ")
    return [_ordinal(t) for t in _TOKEN.findall(folded)]


def _ordinal(token: str) -> str:
    """``1er`` -> ``1``, ``2e`` -> ``2``, ``3rd`` -> ``3``."""
    m = re.fullmatch(r"(\d+)(?:er|e|eme|st|nd|rd|th)", token)
    return m.group(1) if m else token


# --- durations ---


def _number(tok: list[str], i: int) -> tuple[int | None, int]:
    """A whole number at ``tok[i]`` (digits or words like « deux », « vingt-quatre »), and where it ends."""
    if i >= len(tok):
        return None, i
    t = tok[i]
    if t.isdigit():
        return read_number(t), i + 1
    if t in NUMBER_WORDS:
        value, j = NUMBER_WORDS[t], i + 1
        if value >= 20 and j < len(tok) and tok[j] in NUMBER_WORDS and NUMBER_WORDS[tok[j]] < 10:
            value, j = value + NUMBER_WORDS[tok[j]], j + 1
        elif value >= 20 and j + 1 < len(tok) and tok[j] == "et" and tok[j + 1] in ("un", "une"):
            value, j = value + 1, j + 2
        return value, j
    return None, i


def read_duration(tok: list[str], i: int = 0) -> tuple[Duration | None, int]:
    """A duration starting at ``tok[i]`` (« 2 jours et 12 heures », « 1j12h », « 36 h », « une heure et demie »)."""
    days = seconds = 0
    found = False
    j = i
    while j < len(tok):
        n, k = _number(tok, j)
        if n is None or k >= len(tok) or tok[k] not in UNITS:
            break
        unit = UNITS[tok[k]]
        k += 1
        half = k + 1 < len(tok) and tok[k] == "et" and tok[k + 1] in ("demi", "demie")
        if half:
            k += 2
        if unit == "d":
            days += n
            seconds += 12 * 3600 if half else 0
        elif unit == "w":
            days += 7 * n + (3 if half else 0)
        elif unit == "h":
            seconds += n * 3600 + (1800 if half else 0)
            if k < len(tok) and tok[k].isdigit() and (k + 1 >= len(tok) or tok[k + 1] not in UNITS):
                seconds += read_number(tok[k]) * 60  # 1h30
                k += 1
        else:
            seconds += n * 60
        found = True
        if days * 86400 + seconds > MAX_DURATION_DAYS * 86400:
            raise WhenError(Msg(f"durée trop longue : {MAX_DURATION_DAYS} jours au plus",
                                f"duration too long: {MAX_DURATION_DAYS} days at most"))
        j = k
        if j < len(tok) and tok[j] in ("et", "and") and j + 1 < len(tok) and _number(tok, j + 1)[0] is not None:
            j += 1
    return (Duration(days=days, seconds=seconds) if found else None), j


def parse_duration(text: str) -> Duration:
    """A whole text that is a duration, or `WhenError`."""
    _too_long(text)
    tok = [t for t in tokens(text) if t not in ("de", "d", "by", "pendant", "for", "durant")]
    duration, end = read_duration(tok)
    if duration is None or end != len(tok) or not (duration.days or duration.seconds):
        raise WhenError(Msg(f"durée illisible : « {text.strip()} » (écrivez par exemple 24h, 2 jours ou 36 heures)",
                            f"unreadable duration: '{text.strip()}' (write e.g. 24h, 2 days or 36 hours)"))
    return duration


def duration_text(d: Duration, lang: str = "fr") -> str:
    """« 2 jours et 12 heures » / "2 days and 12 hours"."""
    hours, rest = divmod(d.seconds, 3600)
    parts: list[str] = []
    names = {"fr": (("jour", "jours"), ("heure", "heures"), ("minute", "minutes")),
             "en": (("day", "days"), ("hour", "hours"), ("minute", "minutes"))}[lang if lang == "en" else "fr"]
    for n, (one, many) in zip((d.days, hours, rest // 60), names, strict=True):
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    joiner = " and " if lang == "en" else " et "
    return joiner.join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts) or "0"


# --- moments ---


@dataclass(frozen=True)
class Moment:
    """A point in time as written: a day (or now), and an hour if one was given."""

    day: date | None
    """None for « maintenant »."""
    at: time | None = None


def _time(tok: list[str], i: int) -> tuple[time | None, int]:
    """« 21 h », « 21h30 », « 21 h 30 », « 21:30 », « midi », « minuit », « 9 pm »."""
    if i < len(tok) and tok[i] in ("midi", "noon"):
        return time(12, 0), i + 1
    if i < len(tok) and tok[i] in ("minuit", "midnight"):
        return time(0, 0), i + 1
    if i >= len(tok) or not tok[i].isdigit():
        return None, i
    hour = int(tok[i]) if len(tok[i]) <= 2 else 99  # (out of range below, however many its digits)
    j = i + 1
    minute = 0
    if j < len(tok) and tok[j] in ("h", ":"):
        j += 1
        if j < len(tok) and tok[j].isdigit() and len(tok[j]) == 2:
            minute, j = int(tok[j]), j + 1
    elif j < len(tok) and tok[j] in ("pm", "am"):
        pass
    else:
        return None, i
    if j < len(tok) and tok[j] in ("pm", "am"):
        if tok[j] == "pm" and hour < 12:
            hour += 12
        if tok[j] == "am" and hour == 12:
            hour = 0
        j += 1
    if not (0 <= hour < 24 and 0 <= minute < 60):
        said = tok[i][:12]
        raise WhenError(Msg(f"heure impossible : {said} h {minute:02d} (de 0 h à 23 h 59)",
                            f"impossible time: {said}:{minute:02d} (from 0:00 to 23:59)"))
    return time(hour, minute), j


def _skip(tok: list[str], i: int, words: set[str] | tuple[str, ...] = ("le", "la", "l", "a", "at", "on", "the",
                                                                      "vers", "around")) -> int:
    while i < len(tok) and tok[i] in words:
        i += 1
    return i


def read_moment(tok: list[str], i: int, now: datetime, tz: ZoneInfo, bare: bool = False) -> tuple[Moment | None, int]:
    """A moment starting at ``tok[i]``: the day (weekday, day and month, dd/mm, ISO, demain…) then the hour.

    ``bare``: a day number alone (« jusqu'au 16 ») is a day of this month, or of the next once past.
    """
    i = _skip(tok, i)
    if i >= len(tok):
        return None, i
    today = now.astimezone(tz).date()
    t = tok[i]
    if t in NOW_WORDS or (t == "tout" and i + 1 < len(tok) and tok[i + 1] == "suite"):
        return Moment(None), i + (2 if t == "tout" else 1)
    iso = _ISO.fullmatch(t)
    if iso:
        year, month, number, hour, minute = (int(g) if g else None for g in iso.groups())
        _check_year(year or 0, today)
        try:
            written = date(year or 0, month or 0, number or 0)
            at = time(hour, minute or 0) if hour is not None else None
        except ValueError:
            raise WhenError(Msg(f"date impossible : {t}", f"impossible date: {t}")) from None
        j = i + 1
        if at is None:
            at, j = _time(tok, _skip(tok, j))
            j = j if at is not None else i + 1
        return Moment(written, at), j
    weekday: int | None = None
    day: date | None = None
    j = i
    if t in ("aujourd", "aujourdhui", "today"):
        day, j = today, i + (2 if i + 1 < len(tok) and tok[i + 1] == "hui" else 1)
    elif t in ("demain", "tomorrow"):
        day, j = today + timedelta(days=1), i + 1
    elif t == "apres" and i + 1 < len(tok) and tok[i + 1] == "demain":
        day, j = today + timedelta(days=2), i + 2
    else:
        if t in WEEKDAYS:
            weekday, j = WEEKDAYS[t], i + 1
            if j < len(tok) and tok[j] in ("prochain", "next"):
                j += 1
        elif t == "next" and i + 1 < len(tok) and tok[i + 1] in WEEKDAYS:
            weekday, j = WEEKDAYS[tok[i + 1]], i + 2
        day, k = _calendar_day(tok, _skip(tok, j), today, weekday, bare)
        j = k if day is not None else j
        if day is None and weekday is not None:
            ahead = (weekday - today.weekday()) % 7
            day = today + timedelta(days=ahead)
    if day is None:
        at, k = _time(tok, i)
        if at is None:
            return None, i
        return Moment(today, at), k
    at, k = _time(tok, _skip(tok, j))
    if at is None:
        return Moment(day), j
    return Moment(day, at), k


def _calendar_day(tok: list[str], i: int, today: date, weekday: int | None,
                  bare: bool = False) -> tuple[date | None, int]:
    """« 8 février [2026] » or « 8/02[/2026] »; the year, when not written, is the nearest that fits."""
    if i >= len(tok) or not tok[i].isdigit() or len(tok[i]) > 2:
        return None, i
    number = int(tok[i])
    j = i + 1
    month: int | None = None
    year: int | None = None
    if (bare or weekday is not None) and not (j < len(tok) and (tok[j] in MONTHS or tok[j] in ("/", "h", ":", "pm", "am"))):
        month = today.month if number >= today.day - 7 else today.month % 12 + 1  # a start a few days past stays
        year = today.year if month >= today.month else today.year + 1
        return _pick_year(number, month, None if weekday is not None else year, today, weekday), j
    if j < len(tok) and tok[j] in MONTHS:
        month, j = MONTHS[tok[j]], j + 1
    elif j + 1 < len(tok) and tok[j] == "/" and tok[j + 1].isdigit():
        month, j = read_number(tok[j + 1]), j + 2
        if j + 1 < len(tok) and tok[j] == "/" and tok[j + 1].isdigit():
            year, j = read_number(tok[j + 1]), j + 2
            year = year + 2000 if year < 100 else year
    else:
        return None, i
    if year is None and j < len(tok) and tok[j].isdigit() and len(tok[j]) == 4:
        year, j = int(tok[j]), j + 1
    if not 1 <= month <= 12:
        raise WhenError(Msg(f"mois impossible : {month} (de 1 à 12)", f"impossible month: {month} (1 to 12)"))
    if year is not None:
        _check_year(year, today)
    return _pick_year(number, month, year, today, weekday), j


def _check_year(year: int, today: date) -> None:
    """`WhenError` for a year more than `YEARS_AROUND` years from today's."""
    low, high = today.year - YEARS_AROUND, today.year + YEARS_AROUND
    if not low <= year <= high:
        raise WhenError(Msg(f"année impossible : {year} (de {low} à {high})", f"impossible year: {year} ({low} to {high})"))


def _pick_year(number: int, month: int, year: int | None, today: date, weekday: int | None) -> date:
    years = [year] if year is not None else [today.year, today.year + 1, today.year - 1]
    candidates = []
    for y in years:
        try:
            candidates.append(date(y, month, number))
        except ValueError:
            continue
    if not candidates:
        raise WhenError(Msg(f"date impossible : {number}/{month}", f"impossible date: {number}/{month}"))
    if weekday is not None:
        fits = [c for c in candidates if c.weekday() == weekday]
        if not fits:
            c = candidates[0]
            raise WhenError(Msg(f"le {_fr_day(c)} est un {DAY_NAMES_FR[c.weekday()]}, pas un {DAY_NAMES_FR[weekday]}",
                                f"{c:%d %B %Y} is a {c:%A}, not a {date(2024, 1, 1 + weekday):%A}"))
        candidates = fits
    if year is not None:
        return candidates[0]
    # the nearest date not more than two weeks past: « du 2 au 16 février » written on the 9th began a week ago
    recent = [c for c in candidates if c >= today - timedelta(days=14)]
    return min(recent or candidates, key=lambda c: abs((c - today).days))


def _fr_day(d: date) -> str:
    months = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
              "novembre", "décembre")
    return f"{'1er' if d.day == 1 else d.day} {months[d.month - 1]} {d.year}"


def local_instant(day: date, at: time, tz: ZoneInfo) -> datetime:
    """A wall-clock day and hour in the game's zone as an aware instant (in a DST gap: the hour after it)."""
    wall = datetime.combine(day, at)
    aware = wall.replace(tzinfo=tz)
    if aware.astimezone(ZoneInfo("UTC")).astimezone(tz).replace(tzinfo=None) != wall:
        aware = (wall + timedelta(hours=1)).replace(tzinfo=tz)
    return aware


def moment_at(m: Moment, now: datetime, tz: ZoneInfo, default: time, *, day_end: bool = False) -> datetime:
    """The instant a moment means: its hour, or ``default`` (``day_end``: a day without an hour runs to its end)."""
    if m.day is None:
        return now
    if m.at is None and day_end:
        return local_instant(m.day + timedelta(days=1), time(0, 0), tz)
    return local_instant(m.day, m.at or default, tz)


def parse_moment(text: str, now: datetime, tz: ZoneInfo, default: time, *, day_end: bool = False) -> datetime:
    """A whole text that is a moment (« lundi 17 février à 21 h »), or `WhenError`."""
    _too_long(text)
    tok = [t for t in tokens(text) if t not in ("jusqu", "jusque", "until", "till", "au", "a", "le", "to")]
    m, end = read_moment(tok, 0, now, tz)
    rest = [t for t in tok[end:] if t not in FILLER]
    if m is None or rest:
        raise WhenError(Msg(f"date illisible : « {text.strip()} » (écrivez par exemple « lundi 17 février à 21 h »)",
                            f"unreadable date: '{text.strip()}' (write e.g. 'Monday 17 February at 21:00')"))
    return moment_at(m, now, tz, default, day_end=day_end)


# --- periods ---


@dataclass(frozen=True)
class Span:
    """A period: from ``start`` (None: now) to ``end`` (None: until further notice)."""

    start: datetime | None
    end: datetime | None


def _open_end(tok: list[str], i: int) -> int | None:
    for words in OPEN_END:
        if tuple(tok[i:i + len(words)]) == words:
            return i + len(words)
    return None


def read_span(tok: list[str], now: datetime, tz: ZoneInfo) -> tuple[Span | None, list[str]]:
    """A period somewhere in the tokens, and the tokens left around it.

    « du X au Y », « de X à Y », « entre X et Y », « from X to Y », « X au Y »; « jusqu'au Y »,
    « until Y »; « à partir de X », « dès X », « from X »; « pendant 3 jours », « for 3 days »,
    « 3 jours »; « jusqu'à nouvel ordre », « until further notice ».  A last day without an hour counts whole.
    """
    rest: list[str] = []
    start: datetime | None = None
    end: datetime | None = None
    found = False
    i = 0
    midnight = time(0, 0)
    while i < len(tok):
        t = tok[i]
        if t in ("jusqu", "jusque", "until", "till") or (t == "a" and _open_end(tok, _skip(tok, i + 1)) is not None):
            j = _skip(tok, i + 1, ("a", "au", "aux", "la", "le", "l", "the"))
            closed = _open_end(tok, j)
            if closed is not None:
                i, found, end = closed, True, None
                continue
            m, k = read_moment(tok, j, now, tz, bare=True)
            if m is None:
                raise WhenError(Msg("après « jusqu'au », une date : « jusqu'au lundi 17 février à 21 h »",
                                    "after 'until', a date: 'until Monday 17 February at 21:00'"))
            end, i, found = moment_at(m, now, tz, midnight, day_end=True), k, True
            continue
        if t in ("du", "de", "des", "from", "entre", "between", "partir", "starting") or (
                t == "a" and i + 1 < len(tok) and tok[i + 1] == "partir"):
            j = i + (2 if t == "a" else 1)
            j = _skip(tok, j, ("de", "du", "d", "le", "la", "l", "the", "on"))
            m, k = read_moment(tok, j, now, tz, bare=t in ("du", "from", "entre", "between"))
            if m is not None:
                start, i, found = moment_at(m, now, tz, midnight), k, True
                k = _skip(tok, i, ("inclus",))
                if k < len(tok) and tok[k] in ("au", "a", "to", "et", "and", "jusqu", "until", "till"):
                    j = _skip(tok, k + 1, ("au", "a", "le", "la", "l", "the"))
                    m2, k2 = read_moment(tok, j, now, tz, bare=True)
                    if m2 is not None:
                        end, i = moment_at(m2, now, tz, midnight, day_end=True), k2
                        if end <= start and m2.day is not None and m2.day.month == start.astimezone(tz).month:
                            end = _next_month(end, tz)  # « du 28 au 3 »: the 3 of the month after
                continue
        if t in ("pendant", "durant", "during", "for", "pour") or _number(tok, i)[0] is not None:
            j = i + 1 if t in ("pendant", "durant", "during", "for", "pour") else i
            duration, k = read_duration(tok, j)
            if duration is not None:
                begin = start or now
                end = (datetime.combine(begin.astimezone(tz).date(), begin.astimezone(tz).time())
                       + timedelta(days=duration.days, seconds=duration.seconds))
                end, i, found = local_instant(end.date(), end.time(), tz), k, True
                continue
        rest.append(t)
        i += 1
    if not found:
        return None, rest
    return Span(start, end), rest


def _next_month(when: datetime, tz: ZoneInfo) -> datetime:
    local = when.astimezone(tz)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    try:
        return local_instant(local.date().replace(year=year, month=month), local.time(), tz)
    except ValueError:
        raise WhenError(Msg("date impossible", "impossible date")) from None


def parse_span(text: str, now: datetime, tz: ZoneInfo) -> tuple[Span | None, list[str]]:
    """The period a text names, and its other words; « du 8 au 16 février » gives the 8 its month."""
    _too_long(text)
    tok = tokens(text)
    tok = _lend_month(tok)
    return read_span(tok, now, tz)


def _lend_month(tok: list[str]) -> list[str]:
    """« du [samedi] 8 au [dimanche] 16 février [2026] »: copy the month (and year) after the first day number."""
    out = list(tok)
    for i, t in enumerate(out):
        if t not in ("du", "de", "from", "entre", "between"):
            continue
        j = i + 1
        if j < len(out) and out[j] in ("le", "la", "the"):
            j += 1
        if j < len(out) and out[j] in WEEKDAYS:
            j += 1
        if j >= len(out) or not out[j].isdigit() or len(out[j]) > 2:
            continue
        k = j + 1
        if k < len(out) and (out[k] in MONTHS or out[k] == "/"):
            continue
        if k < len(out) and out[k] in ("au", "a", "to", "et", "and"):
            m = k + 1
            if m < len(out) and out[m] in ("le", "la", "the"):
                m += 1
            if m < len(out) and out[m] in WEEKDAYS:
                m += 1
            if m + 1 < len(out) and out[m].isdigit() and out[m + 1] in MONTHS:
                lent = [out[m + 1]]
                if m + 2 < len(out) and out[m + 2].isdigit() and len(out[m + 2]) == 4:
                    lent.append(out[m + 2])
                return out[:k] + lent + out[k:]
    return out


# --- saying them back ---


def moment_text(when: datetime, tz: ZoneInfo, lang: str = "fr") -> str:
    """« samedi 8 février 2025 à 21 h » (at midnight, the day alone: « samedi 8 février 2025 »)."""
    from pbem.render import date_en, date_fr

    local = when.astimezone(tz)
    text = date_en(local) if lang == "en" else date_fr(local)
    if local.hour == 0 and local.minute == 0:
        text = text.split(" à ")[0] if lang != "en" else text.split(" at ")[0]
    return text


def period_text(start: datetime | None, end: datetime | None, tz: ZoneInfo, lang: str = "fr") -> str:
    """« du samedi 8 février 2025 au dimanche 16 février 2025 inclus », « jusqu'à nouvel ordre »…

    An end at midnight is said as the day before, inclusive: that is how it was written.
    """
    en = lang == "en"
    parts = []
    if start is not None:
        first = moment_text(start, tz, lang)
        if end is not None and end.astimezone(tz).year == start.astimezone(tz).year:
            first = first.replace(f" {start.astimezone(tz).year}", "", 1)  # the year is said once, at the end
        parts.append(("from " if en else "du ") + first if end is not None
                     else ("from " if en else "à partir du ") + first + ",")
    if end is None:
        parts.append("until further notice" if en else "jusqu'à nouvel ordre")
    else:
        local = end.astimezone(tz)
        if local.hour == 0 and local.minute == 0:
            last = moment_text(local - timedelta(days=1), tz, lang)
            parts.append((f"to {last} inclusive" if start else f"until {last} inclusive") if en
                         else (f"au {last} inclus" if start else f"jusqu'au {last} inclus"))
        else:
            moment = moment_text(local, tz, lang)
            parts.append((f"to {moment}" if start else f"until {moment}") if en
                         else (f"au {moment}" if start else f"jusqu'au {moment}"))
    return " ".join(parts)
