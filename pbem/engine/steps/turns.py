"""Steps: who must decide now and by when, the orders in force (defaults for the silent), resolution and its record.

A step opens with a deadline from the config (`open_step`), collects orders, and is resolved
once (`resolve`): the record, the new state, the next step and every letter of the step are
one transaction, so a crash leaves all of it or none of it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence, Set
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pbem.core import Event, Order, Ruleset
from pbem.dice import Dice, Roll
from pbem.engine.steps import actions, calendar, publish
from pbem.engine.table import EngineError, Table
from pbem.faults import crashpoint
from pbem.msg import Msg
from pbem.store import GameRow, Phase, SourcedOrders, StepRecord

# the orders of a step: per player, with where they came from; and who got the defaults
StepOrders = tuple[dict[str, SourcedOrders], list[str]]


def open_step(table: Table, g: GameRow, state: Any, turn: int, now: datetime, phase: Phase | None = None,
              *, base: datetime | None = None, pauses_apply: bool = True, text: str | None = None) -> GameRow:
    """Store the new state and open the next step with its deadline (or finish the game).

    ``text`` is the state's canonical JSON when the caller made it already (the step's record holds it).

    The deadline is counted on the game's calendar from ``base`` (the scheduled close of the step
    before, or the scheduled start), not from ``now`` (`calendar.opening`); then a pause stops its
    clock too (`calendar.shift_opened`), unless ``pauses_apply`` is false (a re-run, which keeps the
    deadline already announced).
    """
    ruleset = table.ruleset
    prompts = ruleset.prompts(state)
    outcome = ruleset.outcome(state)
    deadline = None
    skipped: list[float] = []
    if outcome is None and prompts:
        end, skipped = calendar.opening(table, prompts, base, now)
        deadline = end
    new_phase = Phase.FINISHED if outcome is not None else (phase or g.phase)
    g = replace(g, state=text if text is not None else table.encode(state, like=g.state), turn=turn, deadline=deadline,
                   early_at=None, reminders_sent=tuple(skipped), phase=new_phase,
                   seed_revealed=g.seed_revealed or outcome is not None, opened_at=now)
    table.store.save_game(g)
    return calendar.shift_opened(table, g, now, base) if pauses_apply else g


def effective_orders(table: Table, turn: int, state: Any) -> StepOrders:
    """Orders for every prompted player (defaults for the silent), with where they came from, and the defaulted names.

    A player who wrote PASSER gets the rules' defaults too, but as his own choice (source ``pass``):
    he answered, so he is not among the defaulted.  A removed player's orders no longer count.
    """
    ruleset = table.ruleset
    current = table.store.current_orders(table.id, turn)
    removed = {p.name for p in table.store.players(table.id, include_removed=True) if p.status == "removed"}
    orders: dict[str, SourcedOrders] = {}
    defaults: list[str] = []
    for prompt in ruleset.prompts(state):
        p = prompt.player
        if p in orders:
            continue
        given = current.get(p) if p not in removed else None
        if given is not None and given.source == "pass":
            applied = ruleset.default_orders(state, p)
            orders[p] = SourcedOrders(tuple(applied), "pass", given.message_key, given.received_at, tuple(given.lines),
                                      tuple(o.text or o.verb for o in applied))
        elif given is not None:
            orders[p] = SourcedOrders(tuple(given.orders), given.source, given.message_key, given.received_at,
                                      tuple(given.lines))
        else:
            applied = ruleset.default_orders(state, p)
            orders[p] = SourcedOrders(tuple(applied), "default", lines=tuple(o.text or o.verb for o in applied))
            defaults.append(p)
    return orders, defaults


def count_missed(table: Table, orders: Mapping[str, Any], defaults: Sequence[str],
                 excused: Set[str] = frozenset()) -> dict[str, int]:
    """NMR: each prompted player's steps in a row without orders, after this step (an answer, PASSER
    included, starts the count again; a removed player's count stays).

    A player ``excused`` (away, by a declared absence, when the step closed) missed nothing: their
    count stays where it was, neither a miss nor an answer.
    """
    players = {p.name: p for p in table.store.players(table.id, include_removed=True)}
    missed: dict[str, int] = {}
    for name in orders:
        p = players.get(name)
        if p is None or p.status != "active" or (name in excused and name in defaults):
            continue
        missed[name] = p.missed + 1 if name in defaults else 0
    return missed


@dataclass(frozen=True)
class Computed:
    """A step resolved in memory: the orders it was resolved with (defaults included), who got the defaults,
    the state before (as its canonical JSON) and after (the object and its JSON, encoded once), its events
    and its rolls."""

    orders: dict[str, SourcedOrders]
    defaults: list[str]
    before: str
    state: Any
    text: str
    events: list[Event]
    rolls: list[Roll]

    def record(self, game: str, seq: int, turn: int, title: str, at: datetime,
               context: str | None = None) -> StepRecord:
        """The step's record, resolved at ``at``."""
        return StepRecord(game, seq, "step", turn, title, context or f"step-{turn}", self.before,
                          self.orders, tuple(self.defaults), tuple(self.rolls), tuple(self.events), self.text, at)


def compute_step(table: Table, turn: int, state: Any, seed: str, given: StepOrders | None = None,
                 before: str | None = None) -> Computed:
    """The pure part of a resolution: (state, orders, seed) -> (new state, events, rolls).

    ``given`` (orders, defaulted players) replaces the orders in force (a re-run); ``before`` is the
    state's canonical JSON when the caller holds it (the stored one).
    """
    orders, defaults = given or effective_orders(table, turn, state)
    dice = Dice(seed, f"step-{turn}")
    new_state, events = run_resolve(table.ruleset, state, {p: list(o.orders) for p, o in orders.items()}, dice)
    before = before if before is not None else table.encode(state)
    return Computed(orders, defaults, before, new_state, table.encode(new_state, like=before), events, dice.rolls)


def resolve(table: Table, now: datetime, *, closed_at: datetime | None = None,
            write_forum: bool = True) -> bool:
    """Resolve the open step now.  Idempotent: a step already resolved is left alone (False).

    ``closed_at`` is when the step closed; by default the calendar says (`calendar.closing`: its
    scheduled close when that has come, else ``now``).  The next deadline follows the calendar
    (`calendar.next_base`), and the results go out now.
    """
    g = table.row
    if g.phase != "running":
        return False
    if table.store.record_for_turn(table.id, g.turn) is not None:
        return False
    held = calendar.held(table)
    if held is not None:  # the next step's results would go out before the ones the MJ has not approved
        raise EngineError(Msg(f"les résultats {table.step_noun().of} {held.turn} attendent votre approbation "
                              f"(pbem turn publish {table.id}, ou APPROUVE par courriel)",
                              f"the results of step {held.turn} wait for your approval (pbem turn publish {table.id})"))
    closing = calendar.closing(table, g, now, closed_at)
    state = table.state_of(g)
    before = table.out_of_play()  # (the letters tell who is out of play since this step)
    ruleset = table.ruleset
    if not ruleset.prompts(state):
        return False
    title = ruleset.step_title(state).get(table.settings.language)
    step = compute_step(table, g.turn, state, g.seed, before=g.state)
    missed = count_missed(table, step.orders, step.defaults, excused=closing.excused)
    try:
        with table.store.atomic():
            seq = table.store.next_seq(table.id)
            rec = step.record(table.id, seq, g.turn, title, closing.at)
            table.store.add_record(rec)
            table.store.set_missed(table.id, missed)
            table.forget_roster()
            g2 = open_step(table, g, step.state, g.turn + 1, now, base=closing.base, text=step.text)
            # publish = "mj": the MJ's mails only, the rest held for his approval (with what NMR said)
            publish.resolved(table, g2, rec, step.state, now, missed=missed, abandoned_before=before)
            crashpoint("mid-resolution")
    finally:
        table.forget_roster()  # read again after a rollback too
    if write_forum:
        publish.write_forum(table)
    return True


def immediate(table: Table, g: GameRow, state: Any, player: str, order: Order, now: datetime,
              author: str | None = None) -> tuple[GameRow, Any, str | None] | None:
    """Carry out an order that takes effect at once (`Ruleset.immediate`); record it and mail its results.

    Returns None if the order waits for the step, else the game row, the new state and the text the
    ``author`` of the mail reads in the ack (see `pbem.engine.steps.actions.carry_out`).
    """
    return actions.carry_out(table, g, state, player, order, now, author or player)


# --- where a game stands ---


@dataclass(frozen=True)
class OrderCount:
    """Who has ordered for the open step: the one count the MJ reads, in `pbem game status` and QUI MANQUE."""

    asked: int  # players asked (prompted, neither removed nor abandoned)
    ordered: int  # of them, those whose orders are in
    awaited: list[str]  # the required ones still silent, sorted


def order_count(table: Table) -> OrderCount:
    """`OrderCount` of the open step (nothing asked outside a running game)."""
    g = table.row
    state = table.state
    if g.phase != "running" or state is None:
        return OrderCount(0, 0, [])
    current = table.store.ordered_players(table.id, g.turn)
    asked = table.asked(state)
    return OrderCount(len(asked), len(asked & current), sorted(table.required(state) - current))


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
    missed: dict[str, int] = field(default_factory=dict)  # players silent one step or more in a row (NMR)
    abandoned: list[str] = field(default_factory=list)  # no longer waited for (nmr_abandon)
    ordered: int = 0  # of the players asked (``prompted``), those whose orders are in
    pause: calendar.PauseSaid | None = None  # the pause in force, or the next one announced
    held: int | None = None  # the step whose results wait for the MJ's approval
    dead: list[str] = field(default_factory=list)  # players the rules killed (roster order)
    last_step: int | None = None  # the last step resolved (a finished game ended with it)


def status(table: Table, now: datetime) -> GameStatus:
    """Where a game stands, for the MJ: phase, step, deadline, who has ordered and who is awaited, a pause, results
    waiting for his approval."""
    g = table.row
    count = order_count(table)
    players = table.store.players(table.id)
    s = table.settings
    held = calendar.held(table)
    last = g.turn - 1 if g.turn > 1 and table.store.step_closed(table.id, g.turn - 1) else None
    return GameStatus(ruleset=g.ruleset, phase=g.phase, turn=g.turn, deadline=table.local(g.deadline),
                      early=table.local(g.early_at), commitment=g.commitment,
                      players=len(players), prompted=count.asked, waiting=count.awaited,
                      missed={p.name: p.missed for p in players if p.missed},
                      abandoned=sorted(p.name for p in players if s.nmr_abandon and p.missed >= s.nmr_abandon),
                      ordered=count.ordered, pause=calendar.pause_said(table, now), held=held.turn if held else None,
                      dead=sorted(table.dead(table.state)), last_step=last)


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


def run_resolve(ruleset: Ruleset[Any], state: Any, orders: Mapping[str, Sequence[Order]],
                dice: Dice) -> tuple[Any, list[Event]]:
    """`Ruleset.resolve` with the cyclic garbage collector paused (see `gc_paused`)."""
    with gc_paused():
        return ruleset.resolve(state, orders, dice)
