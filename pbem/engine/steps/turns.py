"""Steps: who must decide now and by when, the orders in force (defaults for the silent), resolution and its record.

A step opens with a deadline from the config (`open_step`), collects orders, and is resolved
once (`resolve`): the record, the new state, the next step and every letter of the step are
one transaction, so a crash leaves all of it or none of it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence, Set
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pbem import serial
from pbem.clock import iso, next_deadline, parse_iso
from pbem.config import GameConfig
from pbem.core import Event, Order, Ruleset
from pbem.dice import Dice
from pbem.engine.desk import absences, approval, pauses
from pbem.engine.steps import actions, letters
from pbem.engine.steps.records import record, sourced_orders_json
from pbem.engine.table import EngineError, Table
from pbem.faults import crashpoint
from pbem.outbox import Letter
from pbem.render import date_fr
from pbem.store import GameRow

# the orders of a step: per player, who got the defaults, and where each player's orders came from
StepOrders = tuple[dict[str, list[Order]], list[str], dict[str, dict[str, Any]]]


def open_step(table: Table, g: GameRow, state: Any, turn: int, now: datetime, phase: str | None = None,
              *, base: datetime | None = None, pauses_apply: bool = True) -> GameRow:
    """Store the new state and open the next step with its deadline (or finish the game).

    The deadline is counted on the game's calendar from ``base`` (the scheduled close of the step
    before, or the scheduled start), not from ``now``: see `pbem.clock.next_deadline`; then a
    pause stops its clock too (`pauses.shift_opened`), unless ``pauses_apply`` is false (a re-run,
    which keeps the deadline already announced).
    """
    ruleset = table.ruleset
    s = table.settings
    prompts = ruleset.prompts(state)
    outcome = ruleset.outcome(state)
    deadline = None
    skipped: list[float] = []
    if outcome is None and prompts:
        key = prompts[0].deadline
        length = s.deadlines.get(key) or s.deadlines["turn"]
        end = next_deadline(base or now, length, table.config.timezone, now)
        deadline = iso(end)
        # a reminder that would fall when the step opens (short steps) is pointless: skip it
        skipped = [h for h in s.reminder_hours if end - timedelta(hours=h) <= now]
    new_phase = "finished" if outcome is not None else (phase or g.phase)
    g = GameRow(**{**g.__dict__, "state": serial.dumps(state), "turn": turn, "deadline": deadline,
                   "early_at": None, "reminders_sent": tuple(skipped), "phase": new_phase,
                   "seed_revealed": g.seed_revealed or outcome is not None, "opened_at": iso(now)})
    table.store.save_game(g)
    return pauses.shift_opened(table, g, now, base) if pauses_apply else g


def grace_of(s: GameConfig) -> timedelta:
    """How long after the deadline a step waits for the orders still missing (njudge's grace)."""
    return s.grace.delta if s.grace is not None else timedelta(0)


def final_close(g: GameRow, s: GameConfig) -> datetime | None:
    """The latest a running step can close: its deadline, plus the grace period if there is one."""
    if g.phase != "running" or g.deadline is None:
        return None
    return parse_iso(g.deadline) + grace_of(s)


def fire_at(g: GameRow, s: GameConfig) -> datetime | None:
    """When the open step of a running game resolves: its deadline (plus grace while orders are missing),
    or earlier when all orders are in."""
    last = final_close(g, s)
    if last is None:
        return None
    return min(last, parse_iso(g.early_at)) if g.early_at else last


def in_grace(g: GameRow, s: GameConfig, when: datetime) -> bool:
    """Is ``when`` past the deadline but inside the grace period of the open step?"""
    last = final_close(g, s)
    return last is not None and g.deadline is not None and parse_iso(g.deadline) < when <= last


def late_for(table: Table, g: GameRow, received: datetime) -> tuple[str, datetime] | None:
    """The step a mail came too late for: it arrived before the open step was opened, so it was
    written for the step before it, which is resolved.  (title of that step, when it closed)."""
    if g.phase != "running" or g.turn < 2 or not g.opened_at or received >= parse_iso(g.opened_at):
        return None
    closed = table.store.step_closed(g.id, g.turn - 1)
    if closed is None:
        return None
    return closed[0], parse_iso(closed[1])


def check_early(table: Table, now: datetime) -> None:
    """All required orders in: resolve early, after the configured delay (never later than the deadline).

    During the grace period (the deadline has passed) the step resolves as soon as the last orders are in.
    """
    s = table.settings
    g = table.row
    if not s.early_resolution or g.phase != "running" or g.deadline is None or g.early_at:
        return
    required = table.required(table.state_of(g)) - absences.silent(table, g)  # away: defaults
    if required and required <= table.store.ordered_players(table.id, g.turn):
        deadline = parse_iso(g.deadline)
        early = now if now >= deadline else min(deadline, now + timedelta(minutes=s.early_delay_minutes))
        table.store.save_game(GameRow(**{**g.__dict__, "early_at": iso(early)}))


def effective_orders(table: Table, turn: int, state: Any) -> StepOrders:
    """Orders for every prompted player (defaults for the silent), the defaulted names, and their sources.

    A player who wrote PASSER gets the rules' defaults too, but as his own choice (source ``pass``):
    he answered, so he is not among the defaulted.  A removed player's orders no longer count.
    """
    ruleset = table.ruleset
    current = table.store.current_orders(table.id, turn)
    removed = {p.name for p in table.store.players(table.id, include_removed=True) if p.status == "removed"}
    orders: dict[str, list[Order]] = {}
    defaults: list[str] = []
    sources: dict[str, dict[str, Any]] = {}
    for prompt in ruleset.prompts(state):
        p = prompt.player
        if p in orders:
            continue
        given = current.get(p) if p not in removed else None
        if given is not None and given.source == "pass":
            orders[p] = ruleset.default_orders(state, p)
            sources[p] = {"source": "pass", "message": given.message_key, "received_at": given.received_at,
                          "lines": given.lines, "applied": [o.text or o.verb for o in orders[p]]}
        elif given is not None:
            orders[p] = list(given.orders)
            sources[p] = {"source": given.source, "message": given.message_key,
                          "received_at": given.received_at, "lines": given.lines}
        else:
            orders[p] = ruleset.default_orders(state, p)
            defaults.append(p)
            sources[p] = {"source": "default", "message": None, "received_at": None,
                          "lines": [o.text or o.verb for o in orders[p]]}
    return orders, defaults, sources


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


def compute_step(table: Table, turn: int, state: Any, seed: str, given: StepOrders | None = None,
                 ) -> tuple[Any, list[Event], Dice, dict[str, list[Order]], list[str], dict[str, Any]]:
    """The pure part of a resolution: (state, orders, seed) -> (new state, events, rolls).

    ``given`` (orders, defaulted players, sources) replaces the orders in force (a re-run).
    """
    orders, defaults, sources = given or effective_orders(table, turn, state)
    dice = Dice(seed, f"step-{turn}")
    new_state, events = run_resolve(table.ruleset, state, orders, dice)
    return new_state, events, dice, orders, defaults, sources


def resolve(table: Table, now: datetime, *, closed_at: datetime | None = None,
            write_forum: bool = True) -> bool:
    """Resolve the open step now.  Idempotent: a step already resolved is left alone (False).

    ``closed_at`` is when the step closed; by default its scheduled close when that has come (a
    tick a few minutes late, or a restart, closes it at its deadline), else ``now`` (the MJ resolves
    it early).  The next deadline follows the calendar (`next_base`), and the results go out now.
    """
    g = table.row
    if g.phase != "running":
        return False
    if table.store.record_for_turn(table.id, g.turn) is not None:
        return False
    held = approval.waiting(table)
    if held is not None:  # the next step's results would go out before the ones the MJ has not approved
        raise EngineError(f"the results of step {held.turn} wait for your approval (pbem turn publish {table.id})",
                          fr=f"les résultats {table.step_noun().of} {held.turn} attendent votre approbation "
                             f"(pbem turn publish {table.id}, ou APPROUVE par courriel)")
    state = table.decode(g)
    ruleset = table.ruleset
    if not ruleset.prompts(state):
        return False
    s = table.settings
    if closed_at is None:
        fire = fire_at(g, s)
        closed_at = fire if fire is not None and fire <= now else now
    title = ruleset.step_title(state).get(s.language)
    new_state, events, dice, orders, defaults, sources = compute_step(table, g.turn, state, g.seed)
    missed = count_missed(table, orders, defaults, excused=absences.excused(table, closed_at))
    before = table.out_of_play()
    try:
        with table.store.atomic():
            seq = table.store.next_seq(table.id)
            rec = record(table.id, seq, "step", g.turn, title, f"step-{g.turn}", state,
                         sourced_orders_json(orders, sources), defaults, dice.rolls, events, new_state, closed_at)
            table.store.add_record(rec)
            table.store.set_missed(table.id, missed)
            table.forget_roster()
            g2 = open_step(table, g, new_state, g.turn + 1, now, base=next_base(g, table.after_early, closed_at))
            mails = letters.step_letters(table, g2, seq, g.turn, events, new_state, now,
                                         missed=missed, abandoned_before=before)
            # publish = "mj": the MJ's mails only, the rest held for his approval (with what NMR said)
            approval.send_or_hold(table, g2, seq, g.turn, mails, now, missed=missed, abandoned_before=before)
            crashpoint("mid-resolution")
    finally:
        table.forget_roster()  # read again after a rollback too
    if write_forum:
        letters.write_forum(table)
    return True


def next_base(g: GameRow, after_early: str, closed_at: datetime) -> datetime:
    """Where the next step's deadline is counted from: the deadline of the step that closed.

    A step that closed before its deadline (all orders in, or the MJ) counts from its deadline too
    (``after_early = "calendar"``: the same slots as if it had run its course), or from when it closed
    (``after_early = "length"``: a full step from then).  The grace period never moves the calendar.
    """
    deadline = parse_iso(g.deadline) if g.deadline else closed_at
    if closed_at < deadline and after_early == "length":
        return closed_at
    return deadline


def immediate(table: Table, g: GameRow, state: Any, player: str, order: Order, now: datetime,
              author: str | None = None) -> tuple[GameRow, Any, str | None] | None:
    """Carry out an order that takes effect at once (`Ruleset.immediate`); record it and mail its results.

    Returns None if the order waits for the step, else the game row, the new state and the text the
    ``author`` of the mail reads in the ack (see `pbem.engine.steps.actions.carry_out`).
    """
    return actions.carry_out(table, g, state, player, order, now, author or player)


# --- the MJ moves a deadline; where a game stands ---


def deadline_plus(table: Table, hours: float) -> datetime:
    """The open deadline moved by ``hours`` (for `pbem game extend --hours`)."""
    g = table.row
    if g.deadline is None:
        raise EngineError(f"game {table.id} has no open deadline", fr=f"la partie {table.id} n'a pas de date limite en cours")
    return parse_iso(g.deadline) + timedelta(hours=hours)


def extend(table: Table, until: datetime, now: datetime, *, allow_earlier: bool = False) -> datetime:
    """Move the deadline; players are told.  Moving it earlier needs ``allow_earlier`` (and is announced too)."""
    g = table.row
    if g.deadline is None:
        raise EngineError(f"game {table.id} has no open deadline", fr=f"la partie {table.id} n'a pas de date limite en cours")
    old = parse_iso(g.deadline)
    if until < old and not allow_earlier:
        raise EngineError(f"{iso(until)} is earlier than the current deadline {g.deadline}: "
                          "pass --earlier to move it earlier (players will be told)",
                          fr=f"{date_fr(until.astimezone(table.config.timezone))} est avant la date limite actuelle "
                             f"({date_fr(old.astimezone(table.config.timezone))}) : pour l'avancer, ajoutez --earlier "
                             "(ou écrivez AVANCE par courriel) ; les joueurs seront prévenus")
    if until <= now:
        raise EngineError("the new deadline is in the past", fr="la nouvelle date limite est déjà passée")
    r = table.renderer
    with table.store.atomic():
        g2 = GameRow(**{**g.__dict__, "deadline": iso(until), "early_at": None,
                        "reminders_sent": tuple(h for h in g.reminders_sent
                                                if until - timedelta(hours=h) <= now)})
        table.store.save_game(g2)
        notices = []
        for p in table.store.players(table.id):
            t = r.mail_text("deadline_changed", tag=table.tag, player=p.name,
                            old=table.local(g.deadline), new=table.local(iso(until)), earlier=until < old,
                            salutation=table.salutation(table.decode(g), p.name))
            notices.append(Letter(f"deadline-{g.turn}-{iso(until)}-{p.name}", table.id, g.turn, "notice",
                                  p.address, t.subject, t.body))
        table.outgoing.queue(notices, now)
        table.store.log(table.id, iso(now), "mj", "deadline", {"old": g.deadline, "new": iso(until)})
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
    missed: dict[str, int] = field(default_factory=dict)  # players silent one step or more in a row (NMR)
    abandoned: list[str] = field(default_factory=list)  # no longer waited for (nmr_abandon)


def status(table: Table) -> GameStatus:
    """Where a game stands, for the MJ: phase, step, deadline, who has ordered and who is awaited."""
    g = table.row
    waiting: list[str] = []
    prompted = 0
    if g.phase == "running":
        required = table.required(table.state_of(g))
        ordered = table.store.ordered_players(table.id, g.turn)
        prompted = len(required)
        waiting = sorted(required - ordered)
    players = table.store.players(table.id)
    s = table.settings
    return GameStatus(ruleset=g.ruleset, phase=g.phase, turn=g.turn, deadline=table.local(g.deadline),
                      early=table.local(g.early_at), commitment=g.commitment,
                      players=len(players), prompted=prompted, waiting=waiting,
                      missed={p.name: p.missed for p in players if p.missed},
                      abandoned=sorted(p.name for p in players if s.nmr_abandon and p.missed >= s.nmr_abandon))


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
