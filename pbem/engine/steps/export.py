"""A game's whole record as data (`pbem export`), and its dice re-derived from the seed (`pbem verify`)."""

from __future__ import annotations

import json
from typing import Any

from pbem import serial
from pbem.core import Order
from pbem.dice import Dice, commitment
from pbem.dice import verify as verify_rolls
from pbem.engine.steps.records import events_json, rolls_from_json, state_after_json
from pbem.engine.table import Table

_STATES = ("state_before", "state_after", "state_patch", "orders", "rolls", "events", "defaults", "titles", "changed")


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
        problems.extend(verify_rolls(seed, rec["dice_context"], rolls_from_json(json.loads(rec["rolls"]))))
    if not problems:
        problems.extend(replay_actions(table, seed, records))
    return problems


def replay_actions(table: Table, seed: str, records: list[dict[str, Any]]) -> list[str]:
    """Each immediate order carried out again on the state before it (rebuilt from the records)."""
    ruleset = table.ruleset
    problems = []
    for i, rec in enumerate(records):
        if rec["kind"] != "action" or i == 0:
            continue
        before = serial.loads(ruleset.state_type, state_after_json(records, records[i - 1]["seq"]))
        (player, given), = json.loads(rec["orders"]).items()
        verb, args, text = given[0]
        done = ruleset.immediate(before, player, Order(verb, tuple(args), text), Dice(seed, rec["dice_context"]))
        if done is None:
            problems.append(f"record {rec['seq']}: the order {text!r} no longer acts at once")
            continue
        after, events = done
        if json.dumps(events_json(events), ensure_ascii=False) != rec["events"]:
            problems.append(f"record {rec['seq']}: replaying {text!r} gives other events")
        if serial.dumps(after) != state_after_json(records, rec["seq"]):
            problems.append(f"record {rec['seq']}: replaying {text!r} gives another state")
    return problems


def export(table: Table, *, include_seed: bool | None = None) -> dict[str, Any]:
    """Everything about a game as JSON-compatible data (the seed only once revealed, unless asked).

    An immediate order's record gives its change of state (``state_patch``, `pbem.statediff`)
    instead of a whole state, except at checkpoints (see `pbem.engine.steps.records`).
    """
    g = table.row
    reveal = g.seed_revealed if include_seed is None else include_seed

    def loaded(text: str | None) -> Any:
        return json.loads(text) if text else None

    return {
        "game": table.id, "ruleset": g.ruleset, "phase": g.phase, "turn": g.turn, "deadline": g.deadline,
        "commitment": g.commitment, "seed": g.seed if reveal else None,
        "players": [{"name": p.name, "address": p.address, "status": p.status}
                    for p in table.store.players(table.id, include_removed=True)],
        "records": [{**{k: v for k, v in rec.items() if k not in _STATES},
                     "orders": json.loads(rec["orders"]), "defaults": json.loads(rec["defaults"]),
                     "rolls": json.loads(rec["rolls"]), "events": json.loads(rec["events"]),
                     "state_before": loaded(rec["state_before"]), "state_after": loaded(rec["state_after"]),
                     **({"state_patch": loaded(rec.get("state_patch"))} if rec.get("state_patch") else {}),
                     **({"titles": loaded(rec.get("titles"))} if rec.get("titles") else {})}
                    for rec in table.store.records(table.id)],
        "journal": [{**j, "detail": json.loads(j["detail"])} for j in table.store.journal(table.id)],
    }
