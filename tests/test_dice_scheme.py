"""The rolls of a real game recomputed from the documented SHA-256 recipe (README, `pbem.dice`), without pbem.

`pbem verify` re-derives rolls with `pbem.dice.derive`, the very function that made them: it
would agree with itself even if it drifted from what is published.  Here the recipe is written
again from its documentation with `hashlib` alone and checked against what a game recorded.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from helpers import make_config, make_mail

from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
SEED = "5eed" * 16


def documented_roll(seed: str, context: str, purpose: str, n: int, low: int, high: int) -> int:
    """The README's recipe, line by line."""
    span = high - low + 1
    bound = 2 ** 64 - (2 ** 64 % span)
    attempt = 0
    while True:
        data = "\0".join([seed, context, purpose, str(n), str(attempt)]).encode("utf-8")
        v = int.from_bytes(hashlib.sha256(data).digest()[:8], "big")
        if v < bound:
            return low + v % span
        attempt += 1


def test_recorded_rolls_match_the_documented_recipe(tmp_path):
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    g = eng.new_game("toy1", T0, seed=SEED)
    assert g.commitment == hashlib.sha256(SEED.encode("ascii")).hexdigest()
    for i in range(4):
        eng.add_player("toy1", f"Joueur {i + 1}", f"p{i + 1:02d}@pbem.test", T0)
    eng.start_game("toy1", T0)
    store.store_raw([(f"k{i}", make_mail(f"p{i + 1:02d}@pbem.test", f"GUESS {i + 2}")) for i in range(4)],
                    T0)
    eng.process_pending(T0)
    for day in (2, 4, 6):
        eng.due(T0 + timedelta(days=day, minutes=1))
    export = eng.export("toy1", include_seed=True)
    store.close()
    checked = 0
    for rec in export["records"]:
        counts: dict[str, int] = {}
        for purpose, low, high, result, *_what in rec["rolls"]:  # (kind and what it drew after)
            n = counts.get(purpose, 0)
            counts[purpose] = n + 1
            assert documented_roll(export["seed"], rec["dice_context"], purpose, n, low, high) == result, \
                (rec["dice_context"], purpose, n)
            checked += 1
    assert checked >= 3 and len({r['dice_context'] for r in export['records'] if r['rolls']}) >= 2

