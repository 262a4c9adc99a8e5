"""Pauses: the game's clock stopped between two dates, or until the MJ resumes it.

While a pause is on, nothing the clock makes happen happens: no reminder, no resolution, no end
of registration.  Players are told when a pause is announced, when it begins and when play resumes.

The deadline of the open step moves by the time the pause took out of it: from the start of the
pause (or the opening of a step opened during it) to its end, counted on the wall clock of the
game's zone (a pause over a change of summer time moves a 21 h deadline to another 21 h), then
rounded up to the step's time of day when its length has one (``2d@21:00``).  So the next deadline
after a pause is counted from the resume, and the time left when it began is given back whole.
A pause with an end moves the deadline at once (players see the new one in the announcement); a
pause « until further notice » moves it when the MJ resumes.  The deadlines computed elsewhere
(`turns.open_step`) go through `shift_opened` once, so a step that opens during a pause keeps its
full length after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem.due import pause_begins, pause_ends
from pbem.engine.steps import calendar
from pbem.engine.table import EngineError, Table
from pbem.engine.when import period_text
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.render import date_fr
from pbem.store import GameRow, PauseRow


@dataclass(frozen=True)
class PauseNews:
    """What a pause command did: the pause, the deadline before and after (None when there is none)."""

    pause: PauseRow
    what: str  # announced | started | resumed | cancelled | moved
    old_deadline: datetime | None
    new_deadline: datetime | None


def schedule(table: Table, start: datetime | None, end: datetime | None, reason: str,
             now: datetime) -> PauseNews:
    """Pause the game from ``start`` (None: now) to ``end`` (None: until the MJ resumes); players are told."""
    g = table.row
    if g.phase == "finished":
        raise EngineError(Msg(f"la partie {table.id} est terminée",
                              f"game {table.id} is finished"))
    begin = max(start or now, now)
    if end is not None and end <= begin:
        raise EngineError(Msg("la pause doit finir après avoir commencé "
                              f"(elle commencerait le {_fr(table, begin)} et finirait le {_fr(table, end)})",
                              "the pause must end after it begins"))
    for other in table.store.pauses(table.id):
        other_end = other.ends_at
        if (other_end is None or begin < other_end) and (end is None or other.starts_at < end):
            until = f"au {_fr(table, other_end)}" if other_end else "jusqu'à nouvel ordre"
            raise EngineError(Msg(f"une pause est déjà prévue du {_fr(table, other.starts_at)} {until} : "
                                  "REPRISE la termine (ou l'annule), puis donnez d'autres dates",
                                  "another pause is planned at that time: resume it first (REPRISE)"))
    old = g.deadline
    with table.store.atomic():
        p = table.store.add_pause(table.id, begin, end, reason, now)
        new = old
        if old is not None and end is not None:
            new = calendar.shifted(old, begin, end, table, calendar.step_length(table, g).at,
                                   calendar.grace_of(table.settings))
            calendar.save_deadline(table, g, new, now, quiet_until=end, quiet_from=begin)
            table.store.update_pause(p.id, shifted_turn=g.turn, deadline_before=g.deadline)
        what = "announced"
        if begin <= now:
            table.store.update_pause(p.id, started_at=now, frozen_from=begin)
            what = "started"
        p = _reload(table, p)
        _tell(table, p, what, new, now)
        table.store.log(table.id, now, "mj", "pause", {"start": p.starts_at, "end": p.ends_at, "reason": reason,
                                                       "deadline": new})
    return PauseNews(p, what, old, new)


def resume(table: Table, now: datetime, at: datetime | None = None) -> PauseNews:
    """End the pause in force now (or call off the one announced); ``at`` in the future sets its end instead."""
    g = table.row
    p = calendar.upcoming_pause(table, now)
    if p is None:
        raise EngineError(Msg(f"la partie {table.id} n'est pas en pause",
                              f"game {table.id} is not paused"))
    old = g.deadline
    start = p.starts_at
    when = max(at or now, now)
    with table.store.atomic():
        if start > now and when <= start:  # not begun: called off, the deadline it moved comes back
            new = p.deadline_before if p.deadline_before and p.shifted_turn == g.turn else old
            if new is not None and new != old:
                calendar.save_deadline(table, g, new, now)
            table.store.update_pause(p.id, ended_at=now)
            what = "cancelled"
        elif when > now:  # a new end for the pause: the deadline is moved from where it stood before the pause
            new = _moved(table, g, p, when)
            if new is not None:
                calendar.save_deadline(table, g, new, now, quiet_until=when, quiet_from=start)
                table.store.update_pause(p.id, shifted_turn=g.turn,
                                       deadline_before=p.deadline_before if p.shifted_turn == g.turn else g.deadline)
            table.store.update_pause(p.id, ends_at=when)
            what = "moved"
        else:
            new = _moved(table, g, p, now)
            if new is not None:
                calendar.save_deadline(table, g, new, now, quiet_until=now, quiet_from=start)
            table.store.update_pause(p.id, ends_at=now, ended_at=now)
            what = "resumed"
        p = _reload(table, p)
        _tell(table, p, what, new, now)
        table.store.log(table.id, now, "mj", f"pause {what}", {"pause": p.id, "deadline": new})
    if what == "resumed":
        _after_resume(table, now)
    return PauseNews(p, what, old, new)


def _moved(table: Table, g: GameRow, p: PauseRow, end: datetime) -> datetime | None:
    """The open step's deadline for a pause that ends at ``end``, from the deadline it had before the pause."""
    if g.deadline is None:
        return None
    base = p.deadline_before if p.deadline_before and p.shifted_turn == g.turn else g.deadline
    frozen = p.frozen_from or p.starts_at
    return calendar.shifted(base, frozen, end, table, calendar.step_length(table, g).at,
                            calendar.grace_of(table.settings))


def due(table: Table, g: GameRow, now: datetime) -> tuple[bool, list[str]]:
    """Begin and end the pauses whose time has come; is the game paused now?  (for `schedule.due`)."""
    done: list[str] = []
    for p in table.store.pauses(g.id):
        over = pause_ends(p, now)
        if pause_begins(p, now):
            with table.store.atomic():
                table.store.update_pause(p.id, started_at=now, frozen_from=p.frozen_from or p.starts_at)
                if not over:  # (a pause wholly past, the daemon being down: only its end is told)
                    _tell(table, _reload(table, p), "started", _deadline(table), now, mj=True)
            done.append(f"{g.id}: pause began")
        if over:
            with table.store.atomic():
                table.store.update_pause(p.id, ended_at=p.ends_at)
                _tell(table, _reload(table, p), "resumed", _deadline(table), now, mj=True)
            _after_resume(table, now)
            done.append(f"{g.id}: play resumed")
    return calendar.pause_at(table, now) is not None, done


def _after_resume(table: Table, now: datetime) -> None:
    """All orders in during the pause: the step resolves early after the resume, not during the pause."""
    calendar.check_early(table, now)


def _deadline(table: Table) -> datetime | None:
    g = table.row
    return g.deadline


def _reload(table: Table, p: PauseRow) -> PauseRow:
    row = table.store.pause(p.id)
    assert row is not None
    return row


def _fr(table: Table, when: datetime | None) -> str:
    return date_fr(when.astimezone(table.config.timezone)) if when else ""


def _tell(table: Table, p: PauseRow, what: str, deadline: datetime | None, now: datetime, *,
          mj: bool = False) -> None:
    """Every player is told of the pause: announced, begun, over; the MJ too (``mj``) for what the clock did
    (what he did himself, he reads in his answer)."""
    g = table.row
    r = table.renderer
    s = table.settings
    state = table.state
    title = table.ruleset.step_title(state).get(s.language) if state is not None else ""
    tz = table.config.timezone
    end = p.ends_at
    context: dict[str, Any] = dict(
        tag=table.tag, what=what, period=period_text(p.starts_at, end, tz, s.language),
        until=period_text(None, end, tz, s.language), reason=p.reason, title=title, phase=g.phase,
        deadline=table.local(deadline) if deadline else None)
    letters = []
    for player in table.players_told():  # (not the dead, nor the removed)
        t = table.mail_to("pause", player.name, state, **context)
        letters.append(Letter(f"pause-{p.id}-{what}-{player.name}", table.id, g.turn, "notice", player.address,
                              t.subject, t.body))
    if mj:
        t = r.mail_text("pause", player=None, salutation=None, **context)
        letters += [Letter(f"pause-{p.id}-{what}-mj", table.id, g.turn, "notice", mj, t.subject, t.body)
                    for mj in s.mj]
    table.outgoing.queue(letters, now)
