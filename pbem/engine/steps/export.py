"""A game's whole record as data (`pbem export`), the part of it anyone may have (`public_export`: what
`pbem verify` needs, nothing else), and its dice re-derived from the seed (`pbem verify`)."""

from __future__ import annotations

from typing import Any

from pbem import serial
from pbem.clock import iso
from pbem.dice import Dice, commitment
from pbem.dice import verify as verify_rolls
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg
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


PUBLIC_RECORD_KEYS = ("seq", "kind", "turn", "title", "dice_context", "rolls")
"""What a public export keeps of each record: where its rolls came from and the rolls themselves."""


def public_export(table: Table) -> dict[str, Any]:
    """What `pbem verify` needs to check every roll of a finished game, and nothing else: the commitment, the
    revealed seed, and each published record's dice context and rolls (purpose, range, result).  No address,
    no state, no order, no event, no journal, and no record still held for the MJ's approval.  Refused
    before the seed is revealed (nothing could be verified, and the rolls would tell what is still hidden)."""
    known = table.known()
    g = known.row
    if not g.seed_revealed:
        raise EngineError(Msg(f"la graine de {table.id} n'est pas encore révélée\u00a0: un export public ne sert à "
                              "pbem verify qu'une fois la partie finie (par ses règles, ou pbem game finish)\u00a0; "
                              "avant, ses jets dévoileraient ce qui est encore caché",
                              f"the seed of {table.id} is not revealed yet: a public export serves pbem verify only "
                              "once the game is over (by its rules, or pbem game finish); before, its rolls would "
                              "tell what is still hidden"))
    records = [{k: rec[k] for k in PUBLIC_RECORD_KEYS} for rec in table.store.records_data(table.id)
               if rec["published"]]
    return {"game": table.id, "ruleset": g.ruleset, "phase": g.phase.value, "turn": g.turn, "public": True,
            "commitment": g.commitment, "seed": g.seed, "records": records}
