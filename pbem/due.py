"""What the clock makes due, read from the stored rows alone: when a step closes, which reminders are owed,
which pauses begin or end, whether the MJ is owed an approval reminder, whether forum files wait.

The engine fires these (`pbem.engine.schedule`, `pbem.engine.desk`) with the conditions written here; a
pass (`pbem.daemon.tick`) asks `engine_work` first, so that a cron's pass with a game running and nothing
due, no mail in, decides it with a few queries and never loads the engine, the rulesets or Jinja (issue
#24, the cold start).  One set of conditions for both: a pass that skipped the engine skipped nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.config import Config, GameConfig
from pbem.store import GameRow, HeldRow, PauseRow, Phase, Store

GRACE_NOTICE = 0.0
"""The mark in ``reminders_sent`` of the notice sent at the deadline during a grace period (hours are > 0)."""


# --- when the open step closes


def grace_of(s: GameConfig) -> timedelta:
    """How long after the deadline a step waits for the orders still missing (njudge's grace)."""
    return s.grace.delta if s.grace is not None else timedelta(0)


def final_close(g: GameRow, s: GameConfig) -> datetime | None:
    """The latest a running step can close: its deadline, plus the grace period if there is one."""
    if g.phase != "running" or g.deadline is None:
        return None
    return g.deadline + grace_of(s)


def fire_at(g: GameRow, s: GameConfig) -> datetime | None:
    """When the open step of a running game resolves: its deadline (plus grace while orders are missing),
    or earlier when all orders are in."""
    last = final_close(g, s)
    if last is None:
        return None
    return min(last, g.early_at) if g.early_at else last


def registration_over(g: GameRow, now: datetime) -> bool:
    """Registration has come to its end: the game starts (or registration is extended)."""
    return g.phase == Phase.REGISTRATION and g.deadline is not None and g.deadline <= now


# --- the reminders before a deadline


def reminder_hours_due(g: GameRow, s: GameConfig, deadline: datetime, now: datetime) -> list[float]:
    """The configured hours before ``deadline`` that have come and whose reminder was not sent yet."""
    return [h for h in s.reminder_hours if now >= deadline - timedelta(hours=h) and h not in g.reminders_sent]


def grace_notice_due(g: GameRow, s: GameConfig, deadline: datetime, now: datetime) -> bool:
    """With a grace period, the deadline has come and the players still awaited were not told yet."""
    return s.grace is not None and now >= deadline and GRACE_NOTICE not in g.reminders_sent


# --- the MJ's seat


def pause_begins(p: PauseRow, now: datetime) -> bool:
    """An announced pause whose start has come and that has not begun yet."""
    return p.started_at is None and p.starts_at <= now


def pause_ends(p: PauseRow, now: datetime) -> bool:
    """A pause whose end has come (the pauses read are those not ended yet)."""
    return p.ends_at is not None and p.ends_at <= now


def pause_in_force(pauses: list[PauseRow], when: datetime) -> PauseRow | None:
    """The pause in force at ``when``, if any."""
    for p in pauses:
        if p.starts_at <= when and (p.ends_at is None or when < p.ends_at):
            return p
    return None


def approval_reminder_due(held: HeldRow | None, s: GameConfig, now: datetime) -> bool:
    """Results have waited for the MJ's approval longer than ``approval_reminder``, and he was not reminded."""
    return held is not None and not held.reminded_at and now - held.held_at >= s.approval_reminder.delta


# --- a pass


def game_work(store: Store, g: GameRow, s: GameConfig, now: datetime) -> bool:
    """Has the engine something to do for this game at ``now``: fire a step, a registration's end, a reminder,
    a pause's start or end, an approval reminder (`pbem.engine.schedule.due`), or forum files to write?"""
    if store.records_to_post(g.id):
        return True
    pauses = store.pauses(g.id)
    if any(pause_begins(p, now) or pause_ends(p, now) for p in pauses):
        return True
    held = store.held(g.id)
    if pause_in_force(pauses, now) is not None or held:  # the clock is held: only the MJ may be reminded
        return approval_reminder_due(held[0] if held else None, s, now)
    if g.phase == Phase.REGISTRATION:
        return registration_over(g, now)
    fire = fire_at(g, s)
    if g.deadline is None or fire is None:
        return False
    return (now >= fire or bool(reminder_hours_due(g, s, g.deadline, now))
            or grace_notice_due(g, s, g.deadline, now))


def engine_work(config: Config, store: Store, now: datetime) -> bool:
    """Has a pass at ``now`` work for the engine: stored mail to read, or, in a game of config.toml that is
    in the database, something due (`game_work`)?"""
    if store.pending_messages(limit=1):
        return True
    for game_id, settings in config.games.items():
        g = store.game(game_id)
        if g is not None and game_work(store, g, settings, now):
            return True
    return False
