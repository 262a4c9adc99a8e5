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
from datetime import UTC, datetime, time, timedelta
from typing import Any

from pbem.clock import iso, parse_iso
from pbem.config import Duration
from pbem.engine.table import Context, EngineError
from pbem.engine.when import local_instant, period_text
from pbem.outbox import Letter
from pbem.render import date_fr
from pbem.store import GameRow, PauseRow


def shifted(deadline: datetime, start: datetime, end: datetime, ctx: Context, at: tuple[int, int] | None,
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
    tz = ctx.config.timezone
    wall = lambda dt: dt.astimezone(tz).replace(tzinfo=None)  # noqa: E731
    moved = wall(deadline) + (wall(end) - wall(start))
    result = local_instant(moved.date(), moved.time(), tz)
    if at is not None:
        target = local_instant(moved.date(), time(*at), tz)
        if target < result:
            target = local_instant(moved.date() + timedelta(days=1), time(*at), tz)
        result = target
    return result.astimezone(UTC).replace(microsecond=0)


def grace_of(ctx: Context, game_id: str) -> timedelta:
    """The game's grace period after a deadline (none: zero)."""
    grace = ctx.settings(game_id).grace
    return grace.delta if grace is not None else timedelta(0)


def step_length(ctx: Context, g: GameRow) -> Duration:
    """The length of the open step (registration's during registration)."""
    s = ctx.settings(g.id)
    if g.phase == "registration" or g.state is None:
        return s.registration
    prompts = ctx.prompts_cached(g.id, ctx.state_cached(g))
    key = prompts[0].deadline if prompts else "turn"
    return s.deadlines.get(key) or s.deadlines["turn"]


def active(ctx: Context, game_id: str, when: datetime) -> PauseRow | None:
    """The pause in force at ``when``, if any."""
    for p in ctx.store.pauses(game_id):
        if parse_iso(p.starts_at) <= when and (p.ends_at is None or when < parse_iso(p.ends_at)):
            return p
    return None


def upcoming(ctx: Context, game_id: str, now: datetime) -> PauseRow | None:
    """The pause in force now, else the next one announced."""
    pending = ctx.store.pauses(game_id)
    return active(ctx, game_id, now) or next((p for p in pending if parse_iso(p.starts_at) > now), None)


@dataclass(frozen=True)
class PauseNews:
    """What a pause command did: the pause, the deadline before and after (None when there is none)."""

    pause: PauseRow
    what: str  # announced | started | resumed | cancelled | moved
    old_deadline: datetime | None
    new_deadline: datetime | None


def schedule(ctx: Context, game_id: str, start: datetime | None, end: datetime | None, reason: str,
             now: datetime) -> PauseNews:
    """Pause the game from ``start`` (None: now) to ``end`` (None: until the MJ resumes); players are told."""
    g = ctx.game(game_id)
    if g.phase == "finished":
        raise EngineError(f"game {game_id} is finished", fr=f"la partie {game_id} est terminée")
    begin = max(start or now, now)
    if end is not None and end <= begin:
        raise EngineError("the pause must end after it begins", fr="la pause doit finir après avoir commencé "
                          f"(elle commencerait le {_fr(ctx, begin)} et finirait le {_fr(ctx, end)})")
    for other in ctx.store.pauses(game_id):
        other_end = parse_iso(other.ends_at) if other.ends_at else None
        if (other_end is None or begin < other_end) and (end is None or parse_iso(other.starts_at) < end):
            until = f"au {_fr(ctx, other_end)}" if other_end else "jusqu'à nouvel ordre"
            raise EngineError("another pause is planned at that time: resume it first (REPRISE)",
                              fr=f"une pause est déjà prévue du {_fr(ctx, parse_iso(other.starts_at))} {until} : "
                                 "REPRISE la termine (ou l'annule), puis donnez d'autres dates")
    old = parse_iso(g.deadline) if g.deadline else None
    with ctx.store.atomic():
        p = ctx.store.add_pause(game_id, iso(begin), iso(end) if end else None, reason, iso(now))
        new = old
        if old is not None and end is not None:
            new = shifted(old, begin, end, ctx, step_length(ctx, g).at, grace_of(ctx, g.id))
            save_deadline(ctx, g, new, now, quiet_until=end, quiet_from=begin)
            ctx.store.update_pause(p.id, shifted_turn=g.turn, deadline_before=g.deadline)
        what = "announced"
        if begin <= now:
            ctx.store.update_pause(p.id, started_at=iso(now), frozen_from=iso(begin))
            what = "started"
        p = _reload(ctx, p)
        _tell(ctx, game_id, p, what, new, now)
        ctx.store.log(game_id, iso(now), "mj", "pause", {"start": p.starts_at, "end": p.ends_at, "reason": reason,
                                                           "deadline": iso(new) if new else None})
    return PauseNews(p, what, old, new)


def resume(ctx: Context, game_id: str, now: datetime, at: datetime | None = None) -> PauseNews:
    """End the pause in force now (or call off the one announced); ``at`` in the future sets its end instead."""
    g = ctx.game(game_id)
    p = upcoming(ctx, game_id, now)
    if p is None:
        raise EngineError(f"game {game_id} is not paused", fr=f"la partie {game_id} n'est pas en pause")
    old = parse_iso(g.deadline) if g.deadline else None
    start = parse_iso(p.starts_at)
    when = max(at or now, now)
    with ctx.store.atomic():
        if start > now and when <= start:  # not begun: called off, the deadline it moved comes back
            new = parse_iso(p.deadline_before) if p.deadline_before and p.shifted_turn == g.turn else old
            if new is not None and new != old:
                save_deadline(ctx, g, new, now)
            ctx.store.update_pause(p.id, ended_at=iso(now))
            what = "cancelled"
        elif when > now:  # a new end for the pause: the deadline is moved from where it stood before the pause
            new = _moved(ctx, g, p, when)
            if new is not None:
                save_deadline(ctx, g, new, now, quiet_until=when, quiet_from=start)
                ctx.store.update_pause(p.id, shifted_turn=g.turn,
                                       deadline_before=p.deadline_before if p.shifted_turn == g.turn else g.deadline)
            ctx.store.update_pause(p.id, ends_at=iso(when))
            what = "moved"
        else:
            new = _moved(ctx, g, p, now)
            if new is not None:
                save_deadline(ctx, g, new, now, quiet_until=now, quiet_from=start)
            ctx.store.update_pause(p.id, ends_at=iso(now), ended_at=iso(now))
            what = "resumed"
        p = _reload(ctx, p)
        _tell(ctx, game_id, p, what, new, now)
        ctx.store.log(game_id, iso(now), "mj", f"pause {what}", {"pause": p.id, "deadline": iso(new) if new else None})
    if what == "resumed":
        _after_resume(ctx, game_id, now)
    return PauseNews(p, what, old, new)


def _moved(ctx: Context, g: GameRow, p: PauseRow, end: datetime) -> datetime | None:
    """The open step's deadline for a pause that ends at ``end``, from the deadline it had before the pause."""
    if g.deadline is None:
        return None
    base = (parse_iso(p.deadline_before) if p.deadline_before and p.shifted_turn == g.turn
            else parse_iso(g.deadline))
    frozen = parse_iso(p.frozen_from or p.starts_at)
    return shifted(base, frozen, end, ctx, step_length(ctx, g).at, grace_of(ctx, g.id))


def due(ctx: Context, g: GameRow, now: datetime) -> tuple[bool, list[str]]:
    """Begin and end the pauses whose time has come; is the game paused now?  (for `schedule.due`)."""
    done: list[str] = []
    for p in ctx.store.pauses(g.id):
        over = p.ends_at is not None and parse_iso(p.ends_at) <= now
        if p.started_at is None and parse_iso(p.starts_at) <= now:
            with ctx.store.atomic():
                ctx.store.update_pause(p.id, started_at=iso(now), frozen_from=p.frozen_from or p.starts_at)
                if not over:  # (a pause wholly past, the daemon being down: only its end is told)
                    _tell(ctx, g.id, _reload(ctx, p), "started", _deadline(ctx, g.id), now, mj=True)
            done.append(f"{g.id}: pause began")
        if over:
            with ctx.store.atomic():
                ctx.store.update_pause(p.id, ended_at=p.ends_at)
                _tell(ctx, g.id, _reload(ctx, p), "resumed", _deadline(ctx, g.id), now, mj=True)
            _after_resume(ctx, g.id, now)
            done.append(f"{g.id}: play resumed")
    return active(ctx, g.id, now) is not None, done


def shift_opened(ctx: Context, g: GameRow, now: datetime, base: datetime | None = None) -> GameRow:
    """A step opened during a pause, or before one announced with its dates: the pause stops its clock too.

    Called once by `turns.open_step` on the deadline it computed from ``base`` (`turns.next_base`);
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
    for p in ctx.store.pauses(g.id):
        start = parse_iso(p.starts_at)
        if p.ends_at is None:
            if start <= now:  # in force: moved when the MJ resumes, from when this step's clock stopped
                stopped = (p.frozen_from or p.starts_at) if on_calendar else iso(now)
                ctx.store.update_pause(p.id, frozen_from=stopped, shifted_turn=None, deadline_before=None)
            continue  # (one to come stops the clock from its start)
        end = parse_iso(p.ends_at)
        if end <= now:
            continue
        if on_calendar and p.shifted_turn == g.turn - 1:
            # the slot after a deadline this pause moved already; a new end moves it from the old one
            ctx.store.update_pause(p.id, frozen_from=p.ends_at, shifted_turn=None, deadline_before=None)
            continue
        deadline = parse_iso(g.deadline)
        frozen = max(start, now)
        new = shifted(deadline, frozen, end, ctx, step_length(ctx, g).at, grace_of(ctx, g.id))
        ctx.store.update_pause(p.id, shifted_turn=g.turn, deadline_before=g.deadline)
        if new != deadline:
            g = save_deadline(ctx, g, new, now, quiet_until=end, quiet_from=frozen)
    return g


def _after_resume(ctx: Context, game_id: str, now: datetime) -> None:
    """All orders in during the pause: the step resolves early after the resume, not during the pause."""
    from pbem.engine.steps import turns

    turns.check_early(ctx, game_id, now)


def save_deadline(ctx: Context, g: GameRow, new: datetime, now: datetime, *, quiet_until: datetime | None = None,
                   quiet_from: datetime | None = None) -> GameRow:
    """The open step's new deadline; reminders that fall in the past or inside the pause are not sent."""
    s = ctx.settings(g.id)

    def silent(h: float) -> bool:
        at = new - timedelta(hours=h)
        return at <= now or (quiet_from is not None and quiet_until is not None and quiet_from <= at < quiet_until)

    sent = {h for h in s.reminder_hours if silent(h)}
    if 0.0 in g.reminders_sent and quiet_until is not None:  # the grace notice went: the pause's notices say the rest
        sent.add(0.0)
    g2 = GameRow(**{**g.__dict__, "deadline": iso(new), "early_at": None, "reminders_sent": tuple(sorted(sent))})
    ctx.store.save_game(g2)
    return g2


def _deadline(ctx: Context, game_id: str) -> datetime | None:
    g = ctx.game(game_id)
    return parse_iso(g.deadline) if g.deadline else None


def _reload(ctx: Context, p: PauseRow) -> PauseRow:
    row = ctx.store.pause(p.id)
    assert row is not None
    return row


def _fr(ctx: Context, when: datetime | None) -> str:
    return date_fr(when.astimezone(ctx.config.timezone)) if when else ""


def _tell(ctx: Context, game_id: str, p: PauseRow, what: str, deadline: datetime | None, now: datetime, *,
          mj: bool = False) -> None:
    """Every player is told of the pause: announced, begun, over; the MJ too (``mj``) for what the clock did
    (what he did himself, he reads in his answer)."""
    g = ctx.game(game_id)
    r = ctx.renderer(game_id)
    s = ctx.settings(game_id)
    state = ctx.state_cached(g)
    title = ctx.ruleset(game_id).step_title(state).get(s.language) if state is not None else ""
    tz = ctx.config.timezone
    end = parse_iso(p.ends_at) if p.ends_at else None
    context: dict[str, Any] = dict(
        tag=ctx.tag(game_id), what=what, period=period_text(parse_iso(p.starts_at), end, tz, s.language),
        until=period_text(None, end, tz, s.language), reason=p.reason, title=title, phase=g.phase,
        deadline=ctx.local(iso(deadline)) if deadline else None)
    letters = []
    for player in ctx.store.players(game_id):
        t = r.mail_text("pause", player=player.name, salutation=ctx.salutation(game_id, state, player.name), **context)
        letters.append(Letter(f"pause-{p.id}-{what}-{player.name}", game_id, g.turn, "notice", player.address,
                              t.subject, t.body))
    if mj:
        t = r.mail_text("pause", player=None, salutation=None, **context)
        letters += [Letter(f"pause-{p.id}-{what}-mj", game_id, g.turn, "notice", mj, t.subject, t.body)
                    for mj in s.mj]
    ctx.outgoing.queue(letters, now)
