"""What the clock makes due: registrations that end, reminders before a deadline, steps whose deadline came."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from pbem.clock import iso, next_deadline
from pbem.due import GRACE_NOTICE, grace_notice_due, registration_over, reminder_hours_due
from pbem.engine.desk import absences, approval, pauses
from pbem.engine.steps import calendar, lifecycle, turns
from pbem.engine.table import EngineError, House, Table
from pbem.outbox import Letter
from pbem.store import GameRow

log = logging.getLogger("pbem")


def due(house: House, now: datetime) -> list[str]:
    """Fire everything due at ``now``: registration ends, reminders, resolutions.  Returns what was done."""
    done: list[str] = []
    for g in house.store.games():
        if g.id not in house.config.games:
            continue
        try:
            done.extend(_due_game(house.table(g.id), g, now))
        except EngineError as e:
            done.append(f"{g.id}: {e}")
        except Exception as e:  # a ruleset bug must not stop the other games or the outbox
            log.exception("game %s: firing due work failed", g.id)
            done.append(f"{g.id}: ERROR {type(e).__name__}: {e}")
    return done


def _due_game(table: Table, g: GameRow, now: datetime) -> list[str]:
    paused, done = pauses.due(table, g, now)  # the MJ's seat: a pause stops the clock, a held step waits for him
    if paused or calendar.held(table) is not None:
        return done + approval.remind(table, now)
    g = table.row
    if registration_over(g, now):
        try:
            lifecycle.start_game(table, now, base=g.deadline)
            done.append(f"{g.id}: started")
        except EngineError as e:
            done.append(_extend_registration(table, g, now, e))
        return done
    fire = calendar.fire_at(g, table.settings)
    if g.deadline is None or fire is None:  # not running, or nothing to decide
        return done
    if now >= fire:
        if absences.hold(table, g, now) is not None:  # absence = "wait": an awaited player is away
            return done + [f"{g.id}: deadline held for an absent player"]
        if turns.resolve(table, now):
            done.append(f"{g.id}: turn {g.turn} resolved")
        return done
    done.extend(_reminders(table, g, g.deadline, now))
    return done


def close_before(table: Table, received: datetime, now: datetime) -> bool:
    """A mail that arrived after the open step's deadline, which no pass fired (an outage): the step closes
    first, at its deadline and without the mail, as the pass would have closed it: not while the clock is
    held (a pause, results waiting for approval), nor while an awaited player's absence holds it back
    (``absence = "wait"``, `absences.hold`, which moves the deadline and tells the players).  The letters go
    now; the forum file is written by the pass.  Returns whether the step was resolved."""
    g = table.row
    fire = calendar.fire_at(g, table.settings)
    if fire is None or fire > received or calendar.clock_held(table, received):
        return False
    if absences.hold(table, g, now) is not None:
        return False
    if not turns.resolve(table, now, closed_at=fire, write_forum=False):
        return False
    table.house.closed_early.append((g.id, g.turn))
    return True


def closed_while_reading(house: House) -> list[str]:
    """The steps `close_before` resolved since the last call, as `due`'s lines: only those whose record
    is stored (a batch rolled back took its resolution back with it)."""
    noted, house.closed_early = dict.fromkeys(house.closed_early), []
    return [f"{game}: turn {turn} resolved" for game, turn in noted
            if house.store.record_for_turn(game, turn) is not None]


def _extend_registration(table: Table, g: GameRow, now: datetime, why: EngineError) -> str:
    """The game cannot start (too few players...): registration goes on for its length again; the MJ is told."""
    s = table.settings
    new_deadline = next_deadline(g.deadline or now, s.registration,
                                 table.config.timezone, now)
    with table.store.atomic():
        table.store.save_game(replace(g, deadline=new_deadline))
        t = table.renderer.mail_text("notice_mj", tag=table.tag, text=str(why),
                                         deadline=table.local(new_deadline))
        table.outgoing.queue([Letter(f"regext-{iso(now)}", g.id, 0, "notice", mj, t.subject, t.body)
                            for mj in s.mj], now)
    return f"{g.id}: registration extended ({why})"


def _reminders(table: Table, g: GameRow, deadline: datetime, now: datetime) -> list[str]:
    """Remind the players still awaited, once per configured hour before the deadline; with a grace
    period, tell them once at the deadline that their orders are still accepted until it ends."""
    s = table.settings
    hours = reminder_hours_due(g, s, deadline, now)
    grace = grace_notice_due(g, s, deadline, now)
    if not hours and not grace:
        return []
    state = table.state_of(g)
    ruleset = table.ruleset
    current = table.store.ordered_players(g.id, g.turn)
    until = calendar.final_close(g, s) if grace else None
    which = "grace" if grace else str(max(hours))
    awaited = table.required(state)  # asked, required: not removed, not abandoned
    reminders = []
    gone = calendar.away(table, now)  # nobody reminds a player who said they are away
    for p in table.store.players(g.id):
        if p.name in awaited and p.name not in current and p.name not in gone:
            t = table.mail_to("reminder", p.name, state, deadline=table.local(g.deadline),
                              title=ruleset.step_title(state).get(s.language), hours=max(hours, default=0),
                              grace_until=table.local(until))
            reminders.append(Letter(f"remind-{g.turn}-{which}-{p.name}", g.id, g.turn, "reminder", p.address,
                                    t.subject, t.body))
    # at the deadline, the reminders of the hours before it are past: only the grace notice goes
    sent = {*g.reminders_sent, *hours, *([GRACE_NOTICE] if grace else [])}
    with table.store.atomic():
        table.store.save_game(replace(g, reminders_sent=tuple(sorted(sent))))
        table.outgoing.queue(reminders, now)
    return [f"{g.id}: {len(reminders)} {'grace notices' if grace else 'reminders'}"]
