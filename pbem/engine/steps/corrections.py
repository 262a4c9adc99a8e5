"""The MJ's corrections: orders set by hand, and resolved steps recomputed from their record (re-runs)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pbem.clock import iso
from pbem.core import Event, Order, OrderError
from pbem.engine import words
from pbem.engine.answers import LineVerdict
from pbem.engine.steps import calendar, letters, turns
from pbem.engine.steps.publish import rectified, write_forum_now
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg
from pbem.store import GameRow, OrderSet, OrderSource, SourcedOrders, StepRecord
from pbem.wording import join_list


def set_orders_mj(table: Table, player: str, lines: Sequence[str], now: datetime,
                  turn: int | None = None) -> list[LineVerdict]:
    """The MJ sets a player's orders (for the open step, or a resolved one before a re-run); logged."""
    g = table.row
    turn = g.turn if turn is None else turn
    ruleset = table.ruleset
    s = table.settings
    if turn == g.turn:
        state = table.state_of(g)  # (decoded once per stored state: the MJ sets many players' orders in a row)
    else:
        rec = table.store.record_for_turn(table.id, turn)
        if rec is None:
            st = table.step_noun()
            raise EngineError(Msg(f"pas {st.of_bare} {turn} résolu{st.e} dans {table.id}",
                                  f"no step {turn} in {table.id}"))
        state = table.decode_json(rec.state_before)
    name = table.player_named(player).name
    verdicts: list[LineVerdict] = []
    orders: list[Order] = []
    if len(lines) == 1 and words.is_pass(table, lines[0]):  # PASSER: the defaults, as his own answer
        return _set_pass(table, g, name, lines[0], turn, state, now)
    for line in lines:
        try:
            orders.append(ruleset.parse_order(state, name, line, orders))
            verdicts.append(LineVerdict(line, True))
        except OrderError as e:
            verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
    if any(not v.ok for v in verdicts):
        return verdicts
    with table.store.atomic():
        # a correction of a resolved step is marked as such: `rerun` applies it over the record
        source: OrderSource = "mj" if turn == g.turn else "correction"
        table.store.set_orders(OrderSet(table.id, turn, name, orders, list(lines), source, None, now))
        table.store.log(table.id, now, "mj", "orders set", {"player": name, "turn": turn, "lines": list(lines)})
        told = letters.for_you_letter(table, name, lines, f"set-{iso(now)}") if source == "mj" else None
        if told is not None:  # the player is told which orders the MJ gave for them
            table.outgoing.queue([told], now)
    return verdicts


def _set_pass(table: Table, g: GameRow, name: str, line: str, turn: int, state: Any,
              now: datetime) -> list[LineVerdict]:
    """``PASSER`` set by the MJ: for the open step as if the player had written it (source ``pass``: he
    answered, no missed step); for a resolved one, a correction whose orders are the rules' defaults."""
    say = table.renderer.message
    if turn == g.turn and name not in table.prompted(state):
        return [LineVerdict(line, False, say("not_your_step"))]
    source: OrderSource = "pass" if turn == g.turn else "correction"
    with table.store.atomic():
        table.store.set_orders(OrderSet(table.id, turn, name, [], [line], source, None, now))
        table.store.log(table.id, now, "mj", "orders set", {"player": name, "turn": turn, "lines": [line]})
        told = letters.for_you_letter(table, name, [line], f"set-{iso(now)}") if source == "pass" else None
        if told is not None:
            table.outgoing.queue([told], now)
        if source == "pass":
            calendar.check_early(table, now)
    applied = [o.text or o.verb for o in table.ruleset.default_orders(state, name)]
    return [LineVerdict(line, True, say("pass_for", player=name, applied=applied, past=turn != g.turn, turn=turn))]


def recorded_orders(table: Table, rec: StepRecord) -> turns.StepOrders:
    """The orders a step was resolved with (defaults included), overlaid with the MJ's later corrections.

    A re-run starts from the record, not from today's roster: removing a player later changes nothing.
    """
    ruleset = table.ruleset
    # the record keeps its orders key-sorted: give them back in prompt order, as the resolution saw them
    before = table.decode_json(rec.state_before)
    ranked = list(dict.fromkeys(p.player for p in ruleset.prompts(before)))
    orders = {p: rec.orders[p] for p in sorted(rec.orders, key=lambda p: (ranked.index(p) if p in ranked
                                                                           else len(ranked), p))}
    defaults = list(rec.defaults)
    for p, o in table.store.current_orders(table.id, rec.turn).items():
        if o.source == "correction" and p in orders:
            passed = not o.orders and len(o.lines) == 1 and words.is_pass(table, o.lines[0])
            chosen = ruleset.default_orders(before, p) if passed else list(o.orders)
            orders[p] = SourcedOrders(tuple(chosen), "correction", None, o.received_at, tuple(o.lines),
                                      tuple(x.text or x.verb for x in chosen) if passed else None)
            if p in defaults:
                defaults.remove(p)
    return orders, defaults


@dataclass(frozen=True)
class RerunResult:
    turn: int
    diff: list[str]
    state_changed: bool
    published: bool


def rerun(table: Table, turn: int, now: datetime, *, publish: bool = False,
          announce: bool = True) -> RerunResult:
    """Recompute a resolved step from its record and the current orders; diff it; optionally publish.

    ``announce=False`` replaces the record and the state without mailing the RECTIFICATIF (results
    held for approval, not sent yet: `approval.publish` sends them).
    """
    g = table.row
    rec = table.store.record_for_turn(table.id, turn)
    if rec is None:
        raise EngineError(Msg(f"{table.step_noun().the} {turn} de {table.id} n'a pas été résolu{table.step_noun().e}",
                              f"step {turn} of {table.id} has not been resolved"))
    before = table.decode_json(rec.state_before)
    step = turns.compute_step(table, turn, before, g.seed, recorded_orders(table, rec), before=rec.state_before)
    new_rec = step.record(table.id, rec.seq, turn, rec.title, now, rec.dice_context)
    r = table.renderer

    def lines(evs: Sequence[Event]) -> list[str]:
        return [f"[{e.audience.kind}{':' + ','.join(e.audience.players) if e.audience.players else ''}] "
                f"{r.event_text(e)}" for e in evs]

    diff = list(difflib.unified_diff(lines(rec.events), lines(step.events), f"turn {turn} (published)",
                                     f"turn {turn} (re-run)", lineterm=""))
    state_changed = rec.state_after != new_rec.state_after
    if publish and (diff or state_changed):
        later = [x for x in table.store.records(table.id, "step") if x.seq > rec.seq]
        if later:
            noun, en = table.step_noun(), table.step_noun("en")
            numbers = [str(x.turn) for x in later]
            last = "la dernière" if noun.word.feminine else "le dernier"
            several = len(later) > 1
            left = (f"les {noun.plural} {join_list(numbers, 'fr')}" if several else f"{noun.the} {numbers[0]}")
            raise EngineError(Msg(
                f"{noun.the} {turn} n'est pas {last} {noun.noun} résolu{noun.e}\u00a0: en publier une correction "
                f"laisserait {left} calculé{noun.e}{'s' if several else ''} à partir de l'ancien état\u00a0; "
                f"ne corrigez que {last}.",
                f"{en.noun} {turn} is not the last resolved {en.noun}; publishing a correction of it would leave "
                f"{en.plural if several else en.noun} {join_list(numbers, 'en')} computed from the old state. "
                f"Correct the last {en.noun} only."))
        with table.store.atomic():
            version = len(table.store.journal(table.id, "rerun publish")) + 2
            table.store.replace_record(new_rec, at=now, by="mj")  # (the record it replaces kept in the journal)
            g2 = turns.open_step(table, g, step.state, turn + 1, rec.resolved_at, pauses_apply=False, text=step.text)
            # keep the deadline already announced for the next step
            g2 = replace(g2, deadline=g.deadline if g2.phase == g.phase else g2.deadline, opened_at=g.opened_at)
            table.store.save_game(g2)
            if announce:
                rectified(table, g2, new_rec, step.state, now, version=version)
        if announce:  # (by mail, the tick writes it after the commit)
            write_forum_now(table)
    return RerunResult(turn=turn, diff=diff, state_changed=state_changed,
                       published=publish and bool(diff or state_changed))
