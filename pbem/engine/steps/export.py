"""A game's whole record as data (`pbem export`), and its dice re-derived from the seed (`pbem verify`)."""

from __future__ import annotations

from typing import Any

from pbem import serial
from pbem.clock import iso
from pbem.dice import Dice, commitment
from pbem.dice import verify as verify_rolls
from pbem.engine.table import Table
from pbem.store import StepRecord
from pbem.store.records import same_events, state_after_json


def verify(table: Table, seed: str | None = None) -> list[str]:
    """Check the seed against the published commitment, re-derive every recorded roll, and replay every
    immediate order from the state before it: it must give the same events and the same state after."""
    g = table.row
    seed = seed or g.seed
    problems = []
    if commitment(seed) != g.commitment:
        problems.append(f"the seed does not match the published commitment {g.commitment}")
    records = table.store.records(table.id)
    for rec in records:
        problems.extend(verify_rolls(seed, rec.dice_context, rec.rolls))
    if not problems:
        problems.extend(replay_actions(table, seed, records))
    return problems


def replay_actions(table: Table, seed: str, records: list[StepRecord]) -> list[str]:
    """Each immediate order carried out again on the state before it (rebuilt from the records)."""
    ruleset = table.ruleset
    problems = []
    for i, rec in enumerate(records):
        if rec.kind != "action" or i == 0:
            continue
        before = serial.loads(ruleset.state_type, state_after_json(records, records[i - 1].seq))
        (player, given), = rec.orders.items()
        order = given.orders[0]
        done = ruleset.immediate(before, player, order, Dice(seed, rec.dice_context))
        if done is None:
            problems.append(f"record {rec.seq}: the order {order.text!r} no longer acts at once")
            continue
        after, events = done
        if not same_events(rec, events):
            problems.append(f"record {rec.seq}: replaying {order.text!r} gives other events")
        if serial.dumps(after) != state_after_json(records, rec.seq):
            problems.append(f"record {rec.seq}: replaying {order.text!r} gives another state")
    return problems


def export(table: Table, *, include_seed: bool | None = None) -> dict[str, Any]:
    """Everything about a game as JSON-compatible data (the seed only once revealed, unless asked).

    An immediate order's record gives its change of state (``state_patch``, `pbem.statediff`)
    instead of a whole state, except at checkpoints (see `pbem.store.records`).
    """
    g = table.row
    reveal = g.seed_revealed if include_seed is None else include_seed
    return {
        "game": table.id, "ruleset": g.ruleset, "phase": g.phase.value, "turn": g.turn,
        "deadline": iso(g.deadline) if g.deadline else None,
        "commitment": g.commitment, "seed": g.seed if reveal else None,
        "players": [{"name": p.name, "address": p.address, "status": p.status}
                    for p in table.store.players(table.id, include_removed=True)],
        "records": table.store.records_data(table.id),
        "journal": table.store.journal_data(table.id),
    }
