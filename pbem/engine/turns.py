"""Steps: who must decide now and by when, the orders in force (defaults for the silent), resolution and its record.

A step opens with a deadline from the config (`open_step`), collects orders, and is resolved
once (`resolve`): the record, the new state, the next step and every letter of the step are
one transaction, so a crash leaves all of it or none of it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem import serial
from pbem.clock import add_duration, iso, parse_iso
from pbem.core import Event, Order, Ruleset
from pbem.dice import Dice
from pbem.engine import letters
from pbem.engine.context import Context, EngineError
from pbem.engine.records import record, sourced_orders_json
from pbem.faults import crashpoint
from pbem.outbox import Letter
from pbem.store import GameRow

# the orders of a step: per player, who got the defaults, and where each player's orders came from
StepOrders = tuple[dict[str, list[Order]], list[str], dict[str, dict[str, Any]]]


def open_step(ctx: Context, g: GameRow, state: Any, turn: int, now: datetime, phase: str | None = None) -> GameRow:
    """Store the new state and open the next step with its deadline (or finish the game)."""
    ruleset = ctx.ruleset(g.id)
    s = ctx.settings(g.id)
    prompts = ruleset.prompts(state)
    outcome = ruleset.outcome(state)
    deadline = None
    skipped: list[float] = []
    if outcome is None and prompts:
        key = prompts[0].deadline
        length = s.deadlines.get(key) or s.deadlines["turn"]
        end = add_duration(now, length, ctx.config.timezone)
        deadline = iso(end)
        # a reminder that would fall when the step opens (short steps) is pointless: skip it
        skipped = [h for h in s.reminder_hours if end - timedelta(hours=h) <= now]
    new_phase = "finished" if outcome is not None else (phase or g.phase)
    g = GameRow(**{**g.__dict__, "state": serial.dumps(state), "turn": turn, "deadline": deadline,
                   "early_at": None, "reminders_sent": tuple(skipped), "phase": new_phase,
                   "seed_revealed": g.seed_revealed or outcome is not None})
    ctx.store.save_game(g)
    return g


def fire_at(g: GameRow) -> datetime | None:
    """When the open step of a running game resolves (its deadline, or earlier when all orders are in)."""
    if g.phase != "running" or g.deadline is None:
        return None
    deadline = parse_iso(g.deadline)
    return min(deadline, parse_iso(g.early_at)) if g.early_at else deadline


def check_early(ctx: Context, game_id: str, now: datetime) -> None:
    """All required orders in: resolve early, after the configured delay (never later than the deadline)."""
    s = ctx.settings(game_id)
    g = ctx.game(game_id)
    if not s.early_resolution or g.phase != "running" or g.deadline is None or g.early_at:
        return
    required = ctx.required_cached(game_id, ctx.state_cached(g))
    if required and required <= ctx.store.ordered_players(game_id, g.turn):
        early = min(parse_iso(g.deadline), now + timedelta(minutes=s.early_delay_minutes))
        ctx.store.save_game(GameRow(**{**g.__dict__, "early_at": iso(early)}))


def effective_orders(ctx: Context, game_id: str, turn: int, state: Any) -> StepOrders:
    """Orders for every prompted player (defaults for the silent), the defaulted names, and their sources."""
    ruleset = ctx.ruleset(game_id)
    current = ctx.store.current_orders(game_id, turn)
    removed = {p.name for p in ctx.store.players(game_id, include_removed=True) if p.status == "removed"}
    orders: dict[str, list[Order]] = {}
    defaults: list[str] = []
    sources: dict[str, dict[str, Any]] = {}
    for prompt in ruleset.prompts(state):
        p = prompt.player
        if p in orders:
            continue
        if p in current and p not in removed:
            orders[p] = list(current[p].orders)
            sources[p] = {"source": current[p].source, "message": current[p].message_key,
                          "received_at": current[p].received_at, "lines": current[p].lines}
        else:
            orders[p] = ruleset.default_orders(state, p)
            defaults.append(p)
            sources[p] = {"source": "default", "message": None, "received_at": None,
                          "lines": [o.text or o.verb for o in orders[p]]}
    return orders, defaults, sources


def compute_step(ctx: Context, game_id: str, turn: int, state: Any, seed: str, given: StepOrders | None = None,
                 ) -> tuple[Any, list[Event], Dice, dict[str, list[Order]], list[str], dict[str, Any]]:
    """The pure part of a resolution: (state, orders, seed) -> (new state, events, rolls).

    ``given`` (orders, defaulted players, sources) replaces the orders in force (a re-run).
    """
    orders, defaults, sources = given or effective_orders(ctx, game_id, turn, state)
    dice = Dice(seed, f"step-{turn}")
    new_state, events = run_resolve(ctx.ruleset(game_id), state, orders, dice)
    return new_state, events, dice, orders, defaults, sources


def resolve(ctx: Context, game_id: str, now: datetime, *, closed_at: datetime | None = None,
            write_forum: bool = True) -> bool:
    """Resolve the open step now.  Idempotent: a step already resolved is left alone (False).

    ``closed_at`` records when the step really closed (its deadline) when it is resolved late;
    the next step still opens from ``now``, so players always get a full step after their results.
    """
    g = ctx.game(game_id)
    if g.phase != "running":
        return False
    if ctx.store.record_for_turn(game_id, g.turn) is not None:
        return False
    state = ctx.state(g)
    ruleset = ctx.ruleset(game_id)
    if not ruleset.prompts(state):
        return False
    s = ctx.settings(game_id)
    title = ruleset.step_title(state).get(s.language)
    new_state, events, dice, orders, defaults, sources = compute_step(ctx, game_id, g.turn, state, g.seed)
    with ctx.store.atomic():
        seq = ctx.store.next_seq(game_id)
        rec = record(game_id, seq, "step", g.turn, title, f"step-{g.turn}", state,
                     sourced_orders_json(orders, sources), defaults, dice.rolls, events, new_state, closed_at or now)
        ctx.store.add_record(rec)
        g2 = open_step(ctx, g, new_state, g.turn + 1, now)
        ctx.outgoing.queue(letters.step_letters(ctx, g2, seq, g.turn, events, new_state, now), now)
        crashpoint("mid-resolution")
    if write_forum:
        letters.write_forum(ctx, game_id)
    return True


def immediate(ctx: Context, g: GameRow, state: Any, player: str, order: Order, now: datetime,
              author: str | None = None) -> tuple[GameRow, Any, str | None] | None:
    """Carry out an order that takes effect at once (`Ruleset.immediate`); record it and mail its results.

    Returns None if the order waits for the step, else the game row, the new state and the text the
    ``author`` of the mail reads in the ack.  ``player`` is who acts (the MJ's ``POUR`` names someone
    else than the author); every other player concerned gets a private mail; the MJ gets a digest
    unless he wrote the mail himself.
    """
    author = author or player
    game_id = g.id
    seq = ctx.store.next_seq(game_id)
    dice = Dice(g.seed, f"action-{seq}")
    done = ctx.ruleset(game_id).immediate(state, player, order, dice)
    if done is None:
        return None
    new_state, events = done
    ctx.store.add_record(record(game_id, seq, "action", g.turn, order.text, f"action-{seq}", state,
                                {player: [[order.verb, list(order.args), order.text]]}, [], dice.rolls,
                                events, new_state, now))
    g = GameRow(**{**g.__dict__, "state": serial.dumps(new_state)})
    ctx.store.save_game(g)
    share = letters.author_share(ctx, game_id, events, author)
    ctx.outgoing.queue(letters.action_letters(ctx, g, seq, order.text, events, author, new_state), now)
    return g, new_state, share


# --- the MJ moves a deadline; where a game stands ---


def deadline_plus(ctx: Context, game_id: str, hours: float) -> datetime:
    """The open deadline moved by ``hours`` (for `pbem game extend --hours`)."""
    g = ctx.game(game_id)
    if g.deadline is None:
        raise EngineError(f"game {game_id} has no open deadline")
    return parse_iso(g.deadline) + timedelta(hours=hours)


def extend(ctx: Context, game_id: str, until: datetime, now: datetime, *, allow_earlier: bool = False) -> datetime:
    """Move the deadline; players are told.  Moving it earlier needs ``allow_earlier`` (and is announced too)."""
    g = ctx.game(game_id)
    if g.deadline is None:
        raise EngineError(f"game {game_id} has no open deadline")
    old = parse_iso(g.deadline)
    if until < old and not allow_earlier:
        raise EngineError(f"{iso(until)} is earlier than the current deadline {g.deadline}: "
                          "pass --earlier to move it earlier (players will be told)")
    if until <= now:
        raise EngineError("the new deadline is in the past")
    r = ctx.renderer(game_id)
    with ctx.store.atomic():
        g2 = GameRow(**{**g.__dict__, "deadline": iso(until), "early_at": None,
                        "reminders_sent": tuple(h for h in g.reminders_sent
                                                if until - timedelta(hours=h) <= now)})
        ctx.store.save_game(g2)
        notices = []
        for p in ctx.store.players(game_id):
            t = r.mail_text("deadline_changed", tag=ctx.tag(game_id), player=p.name,
                            old=ctx.local(g.deadline), new=ctx.local(iso(until)), earlier=until < old,
                            salutation=ctx.salutation(game_id, ctx.state(g), p.name))
            notices.append(Letter(f"deadline-{g.turn}-{iso(until)}-{p.name}", game_id, g.turn, "notice",
                                  p.address, t.subject, t.body))
        ctx.outgoing.queue(notices, now)
        ctx.store.log(game_id, iso(now), "mj", "deadline", {"old": g.deadline, "new": iso(until)})
    return until


@dataclass(frozen=True)
class GameStatus:
    ruleset: str
    phase: str
    turn: int
    deadline: datetime | None
    early: datetime | None
    commitment: str
    players: int
    prompted: int
    waiting: list[str]


def status(ctx: Context, game_id: str) -> GameStatus:
    """Where a game stands, for the MJ: phase, step, deadline, who has ordered and who is awaited."""
    g = ctx.game(game_id)
    waiting: list[str] = []
    prompted = 0
    if g.phase == "running":
        prompts = [p for p in ctx.ruleset(game_id).prompts(ctx.state(g)) if p.required]
        ordered = ctx.store.ordered_players(game_id, g.turn)
        prompted = len({p.player for p in prompts})
        waiting = sorted({p.player for p in prompts if p.player not in ordered})
    return GameStatus(ruleset=g.ruleset, phase=g.phase, turn=g.turn, deadline=ctx.local(g.deadline),
                      early=ctx.local(g.early_at), commitment=g.commitment,
                      players=len(ctx.store.players(game_id)), prompted=prompted, waiting=waiting)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a burst of allocation-heavy work.

    Resolving a turn or interpreting a batch of mail builds many short-lived objects and no cyclic
    garbage; the collector's full passes over a large heap then cost more than the work itself
    (about 300 ms a turn at 40,000 players, a quarter of mail ingest).  Reference counting still frees
    everything; the collector resumes afterwards.  This is the engine's business (the edge), so
    rulesets stay free of process-wide switches.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def run_resolve(ruleset: Ruleset, state: Any, orders: Mapping[str, Sequence[Order]],
                dice: Dice) -> tuple[Any, list[Event]]:
    """`Ruleset.resolve` with the cyclic garbage collector paused (see `gc_paused`)."""
    with gc_paused():
        return ruleset.resolve(state, orders, dice)
