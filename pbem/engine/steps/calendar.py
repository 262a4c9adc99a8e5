"""When the open step closes, and why: its deadline, the grace period, pauses, absences, results held for approval.

A step's deadline is counted on the game's calendar: from the scheduled close of the step before
(`next_base`), never from when a tick happened to run (`pbem.clock.next_deadline`).  Then the
MJ's seat may move it:

* a pause stops the clock: the deadline moves by the time the pause took from it, counted on the
  wall clock of the game's zone and rounded up to the step's time of day when its length has one
  (`shifted`); a step that opens during a pause, or before one announced with its dates, loses no
  time to it (`shift_opened`);
* with ``absence = "wait"``, an awaited player away without orders holds the deadline back until
  their return, ``absence_wait`` at most (`absence_wait`); with ``absence = "defaults"`` the players
  away get their defaults silently and are not waited for (`silent`);
* results held for the MJ's approval hold the next step's clock too (`clock_held`); once they go
  out, its deadline stays on the calendar if half a step is left, else it moves by the time the
  MJ took (`after_wait`);
* the MJ moves it himself (`extend`).

The step closes at its deadline, plus the grace period while orders are missing (`final_close`),
or earlier once every required order is in (`check_early`, `fire_at`).  `save_deadline` is the
one way a deadline is moved, with the reminders that no longer make sense marked as sent.

When a step closes (`fire_at`, `final_close`, `grace_of`) is read from the stored row alone: it lives in
`pbem.due`, re-exported here, so that a pass with nothing due knows it without loading the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta

from pbem.clock import iso, next_deadline, parse_iso
from pbem.config import Duration, GameConfig
from pbem.core import Prompt
from pbem.due import GRACE_NOTICE as GRACE_NOTICE
from pbem.due import final_close as final_close
from pbem.due import fire_at as fire_at
from pbem.due import grace_of as grace_of
from pbem.due import pause_in_force
from pbem.engine.table import EngineError, Table
from pbem.engine.when import local_instant, period_text
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.render import date_fr
from pbem.store import AbsenceRow, GameRow, HeldRow, PauseRow

# --- the deadline of a step that opens


def opening(table: Table, prompts: list[Prompt], base: datetime | None, now: datetime) -> tuple[datetime, list[float]]:
    """The deadline of a step opened at ``now`` whose calendar counts from ``base`` (None: from now), and the
    reminders it skips: one that would fall when the step opens (short steps) is pointless."""
    s = table.settings
    key = prompts[0].deadline
    length = s.deadlines.get(key) or s.deadlines["turn"]
    end = next_deadline(base or now, length, table.config.timezone, now)
    return end, [h for h in s.reminder_hours if end - timedelta(hours=h) <= now]


def next_base(g: GameRow, after_early: str, closed_at: datetime) -> datetime:
    """Where the next step's deadline is counted from: the deadline of the step that closed.

    A step that closed before its deadline (all orders in, or the MJ) counts from its deadline too
    (``after_early = "calendar"``: the same slots as if it had run its course), or from when it closed
    (``after_early = "length"``: a full step from then).  The grace period never moves the calendar.
    """
    deadline = g.deadline or closed_at
    if closed_at < deadline and after_early == "length":
        return closed_at
    return deadline


def step_length(table: Table, g: GameRow) -> Duration:
    """The length of the open step (registration's during registration)."""
    s = table.settings
    if g.phase == "registration" or g.state is None:
        return s.registration
    prompts = table.prompts(table.state_of(g))
    key = prompts[0].deadline if prompts else "turn"
    return s.deadlines.get(key) or s.deadlines["turn"]


# --- when the open step closes


@dataclass(frozen=True)
class Closing:
    """How a step that is resolved closes: when (``at``), who was away then and is excused (`excused`), and
    where the next step's deadline counts from (`next_base`)."""

    at: datetime
    excused: set[str]
    base: datetime


def closing(table: Table, g: GameRow, now: datetime, closed_at: datetime | None = None) -> Closing:
    """The close of the open step of ``g`` resolved at ``now``: at ``closed_at`` when the caller knows it,
    else at its scheduled close when that has come (a tick a few minutes late, or a restart, closes it at
    its deadline), else now (the MJ resolves it early)."""
    if closed_at is None:
        fire = fire_at(g, table.settings)
        closed_at = fire if fire is not None and fire <= now else now
    return Closing(closed_at, excused(table, closed_at), next_base(g, table.after_early, closed_at))


def in_grace(g: GameRow, s: GameConfig, when: datetime) -> bool:
    """Is ``when`` past the deadline but inside the grace period of the open step?"""
    last = final_close(g, s)
    return last is not None and g.deadline is not None and g.deadline < when <= last


def late_for(table: Table, g: GameRow, received: datetime) -> tuple[str, datetime] | None:
    """The step a mail came too late for: it arrived before the open step was opened, so it was
    written for the step before it, which is resolved.  (title of that step, when it closed)."""
    if g.phase != "running" or g.turn < 2 or not g.opened_at or received >= g.opened_at:
        return None
    return table.store.step_closed(g.id, g.turn - 1)


def check_early(table: Table, now: datetime) -> None:
    """All required orders in: resolve early, after the configured delay (never later than the deadline).

    During the grace period (the deadline has passed) the step resolves as soon as the last orders are in.
    """
    s = table.settings
    g = table.row
    if not s.early_resolution or g.phase != "running" or g.deadline is None or g.early_at:
        return
    required = table.required(table.state) - silent(table, g)  # away: defaults
    if required and required <= table.store.ordered_players(table.id, g.turn):
        deadline = g.deadline
        early = now if now >= deadline else min(deadline, now + timedelta(minutes=s.early_delay_minutes))
        table.store.save_game(replace(g, early_at=early))


# --- what holds the clock: pauses, results waiting for approval


def pause_at(table: Table, when: datetime) -> PauseRow | None:
    """The pause in force at ``when``, if any."""
    return pause_in_force(table.store.pauses(table.id), when)


def upcoming_pause(table: Table, now: datetime) -> PauseRow | None:
    """The pause in force now, else the next one announced."""
    pending = table.store.pauses(table.id)
    return pause_at(table, now) or next((p for p in pending if p.starts_at > now), None)


@dataclass(frozen=True)
class PauseSaid:
    """A pause as the texts tell it (answers, the MJ's status and digest)."""

    now: bool  # in force now (else announced, to come)
    open_end: bool  # until the MJ resumes the game
    until: str  # « jusqu'au lundi 31 mars 2025 à 9 h », « jusqu'à nouvel ordre »
    period: str  # « du … au … », « à partir du …, jusqu'à nouvel ordre »


def pause_said(table: Table, now: datetime) -> PauseSaid | None:
    """The pause in force now, or else the next one announced, as the texts tell it."""
    p = upcoming_pause(table, now)
    if p is None:
        return None
    tz, lang = table.config.timezone, table.settings.language
    return PauseSaid(p.starts_at <= now, p.ends_at is None, period_text(None, p.ends_at, tz, lang),
                     period_text(p.starts_at, p.ends_at, tz, lang))


def held(table: Table) -> HeldRow | None:
    """The step whose results wait for the MJ's approval, if any."""
    rows = table.store.held(table.id)
    return rows[0] if rows else None


def clock_held(table: Table, when: datetime) -> bool:
    """Is the game's clock held at ``when`` (a pause, or results waiting for approval)?"""
    return pause_at(table, when) is not None or held(table) is not None


def shifted(deadline: datetime, start: datetime, end: datetime, table: Table, at: tuple[int, int] | None,
            grace: timedelta = timedelta(0)) -> datetime:
    """``deadline`` moved by the wall-clock time from ``start`` to ``end`` (nothing if the pause starts after it).

    A pause that starts during the ``grace`` period after the deadline moves the deadline too, so the
    grace left when it began is given back (without rounding to the step's time of day: the
    deadline is past already).
    """
    if start >= deadline + grace or end <= start:
        return deadline
    if start > deadline:
        at = None
    tz = table.config.timezone

    def wall(dt: datetime) -> datetime:
        return dt.astimezone(tz).replace(tzinfo=None)

    moved = wall(deadline) + (wall(end) - wall(start))
    result = local_instant(moved.date(), moved.time(), tz)
    if at is not None:
        target = local_instant(moved.date(), time(*at), tz)
        if target < result:
            target = local_instant(moved.date() + timedelta(days=1), time(*at), tz)
        result = target
    return result.astimezone(UTC).replace(microsecond=0)


def shift_opened(table: Table, g: GameRow, now: datetime, base: datetime | None = None) -> GameRow:
    """A step opened during a pause, or before one announced with its dates: the pause stops its clock too.

    Called once by `turns.open_step` on the deadline it computed from ``base`` (`next_base`);
    returns the row as saved.  Counted from ``now`` (``after_early = "length"``, or a step that
    closed at its deadline), the step loses no time to the pause: a dated pause moves its deadline
    by the part of the pause still to come, one « until further notice » at the resume.  Counted
    on the calendar of the step before (``base`` after ``now``: a step closed early with
    ``after_early = "calendar"``), the step keeps the slot that follows that step's deadline as the
    pause moves it: a dated pause that moved that deadline already moves nothing more, and one
    « until further notice » moves the new deadline at the resume as it would have moved the old one.
    """
    if g.deadline is None:
        return g
    on_calendar = base is not None and base > now
    for p in table.store.pauses(g.id):
        start = p.starts_at
        if p.ends_at is None:
            if start <= now:  # in force: moved when the MJ resumes, from when this step's clock stopped
                stopped = (p.frozen_from or p.starts_at) if on_calendar else now
                table.store.update_pause(p.id, frozen_from=stopped, shifted_turn=None, deadline_before=None)
            continue  # (one to come stops the clock from its start)
        end = p.ends_at
        if end <= now:
            continue
        if on_calendar and p.shifted_turn == g.turn - 1:
            # the slot after a deadline this pause moved already; a new end moves it from the old one
            table.store.update_pause(p.id, frozen_from=p.ends_at, shifted_turn=None, deadline_before=None)
            continue
        deadline = g.deadline
        frozen = max(start, now)
        new = shifted(deadline, frozen, end, table, step_length(table, g).at, grace_of(table.settings))
        table.store.update_pause(p.id, shifted_turn=g.turn, deadline_before=g.deadline)
        if new != deadline:
            g = save_deadline(table, g, new, now, quiet_until=end, quiet_from=frozen)
    return g


def after_wait(table: Table, g: GameRow, waited: HeldRow, now: datetime) -> GameRow:
    """Held results go out: the next step keeps its calendar deadline if half a step is left; else it gets
    the time the MJ took."""
    if g.deadline is None or g.phase != "running":
        return g
    deadline = g.deadline
    length = step_length(table, g)
    if deadline - now >= length.delta / 2:
        return g
    return save_deadline(table, g, shifted(deadline, waited.held_at, now, table, length.at), now)


# --- players away (declared absences)


def away(table: Table, when: datetime) -> dict[str, AbsenceRow]:
    """The players away at an instant, with their absence."""
    return {a.player: a for a in table.store.absences(table.id, at=when)}


def silent(table: Table, g: GameRow) -> set[str]:
    """With ``absence = "defaults"``: the players away at the deadline, whose defaults apply silently."""
    if table.settings.absence != "defaults" or g.deadline is None:
        return set()
    return set(away(table, g.deadline))


def excused(table: Table, closed_at: datetime) -> set[str]:
    """The players away (a declared absence) when a step closed, whatever the policy: if their defaults
    applied, they apply silently (no « we did not get your orders ») and count no missed step (NMR).

    With ``absence = "wait"`` the deadline waited for their return, so a player back by then and still
    silent is not excused; one still away when the wait ran out (``absence_wait``) is.
    """
    return set(away(table, closed_at))


def absence_wait(table: Table, g: GameRow, now: datetime) -> tuple[datetime, datetime, list[str]] | None:
    """With ``absence = "wait"``, at the deadline: how long awaited players away without orders hold it back.

    The deadline moves to the latest return among them, never more than ``absence_wait`` past the
    deadline the step had before the first hold.  Returns (that first deadline, the new one, who is
    away), or None when nothing holds it.
    """
    s = table.settings
    if s.absence != "wait" or g.deadline is None or g.phase != "running":
        return None
    state = table.state_of(g)
    awaited = table.required(state) - table.store.ordered_players(g.id, g.turn)
    gone = {p: a for p, a in away(table, now).items() if p in awaited}
    if not gone:
        return None
    first = _first_deadline(table, g)
    limit = first + s.absence_wait.delta
    target = min(max(a.ends_at for a in gone.values()), limit)
    if target <= g.deadline or target <= now:
        return None
    return first, target, sorted(gone)


def _first_deadline(table: Table, g: GameRow) -> datetime:
    for entry in table.store.journal(g.id, "absence hold"):
        if entry.detail.get("turn") == g.turn:
            return parse_iso(entry.detail["from"])
    assert g.deadline is not None
    return g.deadline


# --- the deadline moved


def save_deadline(table: Table, g: GameRow, new: datetime, now: datetime, *, quiet_until: datetime | None = None,
                  quiet_from: datetime | None = None) -> GameRow:
    """The open step's new deadline; reminders that fall in the past or inside the pause are not sent."""
    s = table.settings

    def silent(h: float) -> bool:
        at = new - timedelta(hours=h)
        return at <= now or (quiet_from is not None and quiet_until is not None and quiet_from <= at < quiet_until)

    sent = {h for h in s.reminder_hours if silent(h)}
    if GRACE_NOTICE in g.reminders_sent and quiet_until is not None:  # the grace notice went: the pause's say the rest
        sent.add(GRACE_NOTICE)
    g2 = replace(g, deadline=new, early_at=None, reminders_sent=tuple(sorted(sent)))
    table.store.save_game(g2)
    return g2


def deadline_plus(table: Table, hours: float) -> datetime:
    """The open deadline moved by ``hours`` (for `pbem game extend --hours`)."""
    g = table.row
    if g.deadline is None:
        raise EngineError(Msg(f"la partie {table.id} n'a pas de date limite en cours",
                              f"game {table.id} has no open deadline"))
    return g.deadline + timedelta(hours=hours)


def extend(table: Table, until: datetime, now: datetime, *, allow_earlier: bool = False) -> datetime:
    """The MJ moves the deadline; players are told.  Moving it earlier needs ``allow_earlier`` (and is announced too)."""
    g = table.row
    if g.deadline is None:
        raise EngineError(Msg(f"la partie {table.id} n'a pas de date limite en cours",
                              f"game {table.id} has no open deadline"))
    old = g.deadline
    if until < old and not allow_earlier:
        raise EngineError(Msg(f"{date_fr(until.astimezone(table.config.timezone))} est avant la date limite actuelle "
                              f"({date_fr(old.astimezone(table.config.timezone))}) : pour l'avancer, ajoutez --earlier "
                              "(ou écrivez AVANCE par courriel) ; les joueurs seront prévenus",
                              f"{iso(until)} is earlier than the current deadline {iso(old)}: "
                              "pass --earlier to move it earlier (players will be told)"))
    if until <= now:
        raise EngineError(Msg("la nouvelle date limite est déjà passée",
                              "the new deadline is in the past"))
    with table.store.atomic():
        g2 = replace(g, deadline=until, early_at=None,
                        reminders_sent=tuple(h for h in g.reminders_sent
                                                if until - timedelta(hours=h) <= now))
        table.store.save_game(g2)
        notices = []
        for p in table.players_told():
            t = table.mail_to("deadline_changed", p.name, table.decode(g),
                              old=table.local(old), new=table.local(until), earlier=until < old)
            notices.append(Letter(f"deadline-{g.turn}-{iso(until)}-{p.name}", table.id, g.turn, "notice",
                                  p.address, t.subject, t.body))
        table.outgoing.queue(notices, now)
        table.store.log(table.id, now, "mj", "deadline", {"old": old, "new": until})
    return until
