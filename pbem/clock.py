"""Time at the edges: UTC instants in the database, local wall-clock times for players.

Deadlines are stored as UTC ISO strings.  A step length in whole days keeps the
local wall-clock time across a DST change (a Friday 21 h deadline two days later
is Sunday 21 h, summer or winter), and ``@HH:MM`` rounds up to a local time.
Deadlines follow a calendar (`next_deadline`): each one is counted from the
scheduled close of the step before, never from when a tick happened to run.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from pbem.config import Duration


def utcnow() -> datetime:
    """The real clock; everything else takes ``now`` as an argument."""
    return datetime.now(UTC).replace(microsecond=0)


def iso(dt: datetime) -> str:
    """UTC ISO text, second precision: the database format (cached: a tick formats the same instants often)."""
    return _iso(dt, dt.utcoffset())


@lru_cache(maxsize=1024)
def _iso(dt: datetime, offset: timedelta | None) -> str:
    # the offset is part of the key: the two 02:30 of an autumn night compare equal but are an hour apart
    return dt.astimezone(UTC).replace(microsecond=0).isoformat()


@lru_cache(maxsize=1024)
def parse_iso(text: str, tz: ZoneInfo | None = None) -> datetime:
    """Parse an ISO time; a naive one is read in ``tz`` (the game's zone), else UTC (cached: deadlines are read often)."""
    dt = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=tz or UTC)
    return dt.astimezone(UTC)


def local(dt: datetime, tz: ZoneInfo) -> datetime:
    return dt.astimezone(tz)


def add_duration(start: datetime, length: Duration, tz: ZoneInfo) -> datetime:
    """``start`` plus a step length, DST-safe, optionally rounded up to a local time of day."""
    wall = start.astimezone(tz).replace(tzinfo=None) + timedelta(days=length.days)
    # hours and minutes are real time: added in UTC (an aware datetime adds them to its wall clock)
    end = _localize(wall, tz).astimezone(UTC) + timedelta(seconds=length.seconds)
    if length.at is not None:
        hour, minute = length.at
        wall_end = end.astimezone(tz).replace(tzinfo=None)
        target = wall_end.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if target < wall_end:
            target += timedelta(days=1)
        end = _localize(target, tz)
    return end.astimezone(UTC).replace(microsecond=0)


def _localize(wall: datetime, tz: ZoneInfo) -> datetime:
    """A naive local time made aware; in a DST gap, the time after the gap; in a fold, the first one."""
    aware = wall.replace(tzinfo=tz, fold=0)
    back = aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    if back != wall:  # non-existent (spring forward): move past the gap
        aware = (wall + timedelta(hours=1)).replace(tzinfo=tz)
    return aware


def next_slot(after: datetime, length: Duration, tz: ZoneInfo) -> datetime:
    """The first calendar slot strictly after ``after``: ``after`` plus the length (``"@21:00"`` alone: the next 21 h)."""
    end = add_duration(after, length, tz)
    if end <= after:  # a time of day alone, from that very time: the same time the next day
        end = add_duration(after + timedelta(seconds=1), length, tz)
    if end <= after:
        raise ValueError(f"a step length must last some time: {length}")
    return end


def next_deadline(base: datetime, length: Duration, tz: ZoneInfo, now: datetime) -> datetime:
    """The deadline of a step opened at ``now`` whose calendar's previous slot is ``base``.

    The calendar: ``base`` (the scheduled close of the step before, or the start) plus the step
    length, in the game's time zone.  A late tick or a restart changes nothing, since ``now`` is
    not the starting point.  Only a slot that would leave the players less than half a step after
    ``now`` (the daemon was down for long) is skipped for the one after it.
    """
    end = next_slot(base, length, tz)
    span = end - base
    while end - now < span / 2:
        end = next_slot(end, length, tz)
    return end
