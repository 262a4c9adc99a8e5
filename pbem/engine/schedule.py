"""What the clock makes due: registrations that end, reminders before a deadline, steps whose deadline came."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from pbem.clock import add_duration, iso, parse_iso
from pbem.engine import lifecycle, turns
from pbem.engine.context import Context, EngineError
from pbem.outbox import Letter
from pbem.store import GameRow

log = logging.getLogger("pbem")


def due(ctx: Context, now: datetime) -> list[str]:
    """Fire everything due at ``now``: registration ends, reminders, resolutions.  Returns what was done."""
    done: list[str] = []
    for g in ctx.store.games():
        if g.id not in ctx.config.games:
            continue
        try:
            done.extend(_due_game(ctx, g, now))
        except EngineError as e:
            done.append(f"{g.id}: {e}")
        except Exception as e:  # a ruleset bug must not stop the other games or the outbox
            log.exception("game %s: firing due work failed", g.id)
            done.append(f"{g.id}: ERROR {type(e).__name__}: {e}")
    return done


def _due_game(ctx: Context, g: GameRow, now: datetime) -> list[str]:
    done: list[str] = []
    if g.phase == "registration" and g.deadline and parse_iso(g.deadline) <= now:
        try:
            lifecycle.start_game(ctx, g.id, now)
            done.append(f"{g.id}: started")
        except EngineError as e:
            done.append(_extend_registration(ctx, g, now, e))
        return done
    fire = turns.fire_at(g)
    if g.deadline is None or fire is None:  # not running, or nothing to decide
        return done
    if now >= fire:
        if turns.resolve(ctx, g.id, now):
            done.append(f"{g.id}: turn {g.turn} resolved")
        return done
    done.extend(_reminders(ctx, g, parse_iso(g.deadline), now))
    return done


def _extend_registration(ctx: Context, g: GameRow, now: datetime, why: EngineError) -> str:
    """The game cannot start (too few players...): registration goes on for its length again; the MJ is told."""
    s = ctx.settings(g.id)
    new_deadline = add_duration(now, s.registration, ctx.config.timezone)
    with ctx.store.atomic():
        ctx.store.save_game(GameRow(**{**g.__dict__, "deadline": iso(new_deadline)}))
        t = ctx.renderer(g.id).mail_text("notice_mj", tag=ctx.tag(g.id), text=str(why),
                                         deadline=ctx.local(iso(new_deadline)))
        ctx.outgoing.queue([Letter(f"regext-{iso(now)}", g.id, 0, "notice", mj, t.subject, t.body)
                            for mj in s.mj], now)
    return f"{g.id}: registration extended ({why})"


def _reminders(ctx: Context, g: GameRow, deadline: datetime, now: datetime) -> list[str]:
    """Remind the players still awaited, once per configured hour before the deadline."""
    s = ctx.settings(g.id)
    hours = [h for h in s.reminder_hours if now >= deadline - timedelta(hours=h) and h not in g.reminders_sent]
    if not hours:
        return []
    state = ctx.state(g)
    ruleset = ctx.ruleset(g.id)
    current = ctx.store.current_orders(g.id, g.turn)
    r = ctx.renderer(g.id)
    reminders = []
    for p in ctx.store.players(g.id):
        prompts = [pr for pr in ruleset.prompts(state) if pr.player == p.name and pr.required]
        if prompts and p.name not in current:
            t = r.mail_text("reminder", tag=ctx.tag(g.id), player=p.name, deadline=ctx.local(g.deadline),
                            title=ruleset.step_title(state).get(s.language), hours=max(hours),
                            salutation=ctx.salutation(g.id, state, p.name))
            reminders.append(Letter(f"remind-{g.turn}-{max(hours)}-{p.name}", g.id, g.turn, "reminder", p.address,
                                    t.subject, t.body))
    with ctx.store.atomic():
        ctx.store.save_game(GameRow(**{**g.__dict__, "reminders_sent": tuple(sorted({*g.reminders_sent, *hours}))}))
        ctx.outgoing.queue(reminders, now)
    return [f"{g.id}: {len(reminders)} reminders"]
