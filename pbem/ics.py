"""A game's calendar as iCalendar (RFC 5545): its future deadlines and pauses, for `pbem calendar`.

What goes in (`game_entries`): the end of registration, the open step's deadline (not while an open-ended
pause holds the clock: it will move when the MJ resumes), and every pause to come or under way.  All of it
is public: players are told each of these dates by mail.

How it is written (`calendar_text`): times in UTC (``…Z``), so no VTIMEZONE is needed and a client shows
them in its own zone; TEXT values escaped (backslash, ``;``, ``,``, new lines); lines folded at 75 octets
without cutting a UTF-8 character; CRLF line ends.  Each entry has a stable UID (the game, what it is, the
step or the pause number, at the game address's domain), so a client that subscribed to the file updates
its events instead of doubling them, and a ``SEQUENCE`` that grows by one each time the entry's dates
change, read from the file written before (`previous_sequences`).
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pbem.engine.table import Table
from pbem.msg import Msg

MAX_TEXT = 500
"""The longest summary or description written (an MJ's pause reason is his own words: capped)."""
MAX_PREVIOUS_BYTES = 1 << 20
"""A previous calendar file longer than this is not read back (its sequences start again from 0)."""


@dataclass(frozen=True)
class Entry:
    """One event of the calendar: an instant (``end`` None) or a span."""

    uid: str
    start: datetime
    end: datetime | None
    summary: Msg
    description: Msg

    def dates(self) -> tuple[str, str]:
        """What a change of makes the SEQUENCE grow: its DTSTART and DTEND."""
        return _utc(self.start), _utc(self.end) if self.end is not None else ""


def _utc(dt: datetime) -> str:
    return dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def escape(text: str) -> str:
    """A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and new lines escaped, other controls dropped."""
    text = text[:MAX_TEXT].replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(c for c in text if c == "\n" or c == "\t" or ord(c) >= 0x20 and c != "\x7f")
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def fold(line: str) -> str:
    """One content line folded (§3.1): at most 75 octets a line, continuation lines begin with a space, a
    UTF-8 character never cut."""
    out: list[str] = []
    current: list[str] = []
    size, limit = 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append("".join(current))
            current, size, limit = [" "], 1, 75
        current.append(char)
        size += width
    out.append("".join(current))
    return "\r\n".join(out)


_PROPERTY = re.compile(r"^([A-Z-]+)(?:;[^:]*)?:(.*)$")


def unfold(text: str) -> list[str]:
    """The content lines of a calendar, unfolded (a line starting with a space or a tab continues the last)."""
    lines: list[str] = []
    for raw in re.split(r"\r?\n", text):
        if raw[:1] in (" ", "\t") and lines:
            lines[-1] += raw[1:]
        elif raw:
            lines.append(raw)
    return lines


def previous_sequences(text: str) -> dict[str, tuple[int, tuple[str, str]]]:
    """From a calendar written before: each UID's SEQUENCE and dates (DTSTART, DTEND)."""
    found: dict[str, tuple[int, tuple[str, str]]] = {}
    event: dict[str, str] | None = None
    for line in unfold(text):
        if line == "BEGIN:VEVENT":
            event = {}
        elif line == "END:VEVENT" and event is not None:
            if "UID" in event:
                try:
                    sequence = int(event.get("SEQUENCE", "0"))
                except ValueError:
                    sequence = 0
                found[event["UID"]] = (sequence, (event.get("DTSTART", ""), event.get("DTEND", "")))
            event = None
        elif event is not None:
            m = _PROPERTY.match(line)
            if m:
                event[m.group(1)] = m.group(2)
    return found


def calendar_text(name: str, entries: list[Entry], lang: str, now: datetime, previous: str = "") -> str:
    """The whole VCALENDAR, its SEQUENCEs carried on from ``previous`` (the file written before)."""
    before = previous_sequences(previous)
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//pbem//pbem {_version()}//{lang.upper()}",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{escape(name)}"]
    for entry in entries:
        old = before.get(entry.uid)
        sequence = 0 if old is None else old[0] + (1 if old[1] != entry.dates() else 0)
        start, end = entry.dates()
        lines += ["BEGIN:VEVENT", f"UID:{entry.uid}", f"DTSTAMP:{_utc(now)}", f"DTSTART:{start}",
                  *([f"DTEND:{end}"] if end else []), f"SEQUENCE:{sequence}",
                  f"SUMMARY:{escape(entry.summary.get(lang))}", f"DESCRIPTION:{escape(entry.description.get(lang))}",
                  "TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def _version() -> str:
    try:
        return version("pbem")
    except PackageNotFoundError:  # (run from a source tree that was never installed)
        return "0"


def _same_but_stamp(a: str, b: str) -> bool:
    """The same calendar but for its DTSTAMPs (when it was written)?"""
    def strip(text: str) -> list[str]:
        return [line for line in unfold(text) if not line.startswith("DTSTAMP:")]
    return strip(a) == strip(b)


def write_calendar(path: Path, name: str, entries: list[Entry], lang: str, now: datetime, *,
                   only_if_changed: bool = False) -> str | None:
    """Write the calendar to ``path`` (whole or not at all: a web server serving it never sees half a file),
    reading the sequences of the one already there.  Returns the text written; with ``only_if_changed``,
    None when nothing but the time of writing would change (the pass's live calendar)."""
    previous = ""
    try:
        if path.stat().st_size <= MAX_PREVIOUS_BYTES:
            previous = path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        pass
    text = calendar_text(name, entries, lang, now, previous)
    if only_if_changed and previous and _same_but_stamp(previous, text):
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    # a fresh file of our own (never a name planted in advance, nor a link followed), renamed over the old one
    # (a rename replaces a link, not what it points to)
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "wb") as out:
        out.write(text.encode("utf-8"))
    os.replace(partial, path)
    return text


# --- what a game's calendar holds ---


def game_entries(table: Table, now: datetime) -> list[Entry]:
    """The game's future deadlines and pauses (`pbem.engine.table.Table`), in order of time."""
    g = table.row
    domain = table.config.address.rpartition("@")[2] or "pbem.invalid"
    tag = table.tag
    entries: list[Entry] = []
    pauses = [p for p in table.store.pauses(g.id) if p.ended_at is None and (p.ends_at is None or p.ends_at > now)]
    held = any(p.ends_at is None and p.starts_at <= now for p in pauses)  # the clock stopped until the MJ resumes
    if g.phase == "registration" and g.deadline is not None and g.deadline > now:
        entries.append(Entry(f"{g.id}-registration@{domain}", g.deadline, None,
                             Msg(f"{tag} Fin des inscriptions", f"{tag} Registration ends"),
                             Msg("La partie commence à la fin des inscriptions.",
                                 "The game starts when registration ends.")))
    elif g.phase == "running" and g.deadline is not None and g.deadline > now and not held:
        title = table.ruleset.step_title(table.state)
        entries.append(Entry(f"{g.id}-step-{g.turn}-deadline@{domain}", g.deadline, None,
                             Msg(f"{tag} {title.fr}\u00a0: date limite des ordres",
                                 f"{tag} {title.en}: orders deadline"),
                             Msg(f"{title.fr}\u00a0: vos ordres sont attendus avant cette heure.",
                                 f"{title.en}: your orders are due before this time.")))
    for p in pauses:
        reason = p.reason.strip()
        until = Msg("", "") if p.ends_at is not None else Msg(" Jusqu'à ce que le MJ la lève.",
                                                               " Until the MJ resumes the game.")
        entries.append(Entry(f"{g.id}-pause-{p.id}@{domain}", p.starts_at, p.ends_at,
                             Msg(f"{tag} Pause", f"{tag} Pause"),
                             Msg((f"{reason}." if reason and not reason.endswith(".") else reason) + until.fr,
                                 (f"{reason}." if reason and not reason.endswith(".") else reason) + until.en)))
    return sorted(entries, key=lambda e: e.start)
