"""A game's whole record as data (`pbem export`), and its dice re-derived from the seed (`pbem verify`)."""

from __future__ import annotations

import json
from typing import Any

from pbem.dice import commitment
from pbem.dice import verify as verify_rolls
from pbem.engine.context import Context
from pbem.engine.records import rolls_from_json


def verify(ctx: Context, game_id: str, seed: str | None = None) -> list[str]:
    """Check the seed against the published commitment and re-derive every recorded roll."""
    g = ctx.game(game_id)
    seed = seed or g.seed
    problems = []
    if commitment(seed) != g.commitment:
        problems.append(f"the seed does not match the published commitment {g.commitment}")
    for rec in ctx.store.records(game_id):
        problems.extend(verify_rolls(seed, rec["dice_context"], rolls_from_json(json.loads(rec["rolls"]))))
    return problems


def export(ctx: Context, game_id: str, *, include_seed: bool | None = None) -> dict[str, Any]:
    """Everything about a game as JSON-compatible data (the seed only once revealed, unless asked)."""
    g = ctx.game(game_id)
    reveal = g.seed_revealed if include_seed is None else include_seed
    return {
        "game": game_id, "ruleset": g.ruleset, "phase": g.phase, "turn": g.turn, "deadline": g.deadline,
        "commitment": g.commitment, "seed": g.seed if reveal else None,
        "players": [{"name": p.name, "address": p.address, "status": p.status}
                    for p in ctx.store.players(game_id, include_removed=True)],
        "records": [{**{k: v for k, v in rec.items() if k not in ("state_before", "state_after", "orders",
                                                                   "rolls", "events", "defaults")},
                     "orders": json.loads(rec["orders"]), "defaults": json.loads(rec["defaults"]),
                     "rolls": json.loads(rec["rolls"]), "events": json.loads(rec["events"]),
                     "state_before": json.loads(rec["state_before"]) if rec["state_before"] else None,
                     "state_after": json.loads(rec["state_after"])} for rec in ctx.store.records(game_id)],
        "journal": [{**j, "detail": json.loads(j["detail"])} for j in ctx.store.journal(game_id)],
    }
