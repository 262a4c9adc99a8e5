"""`make bench`, section 6: Pour Ma Belle, the time of one turn's resolution by player count.

Measured the way the engine resolves a turn: the state read back from its stored JSON
(`pbem.serial.loads`, as `Context.state` does) and the orders keyed by the prompted players with
arguments decoded from JSON (as `effective_orders` gives them), then `run_resolve` (the cyclic
collector paused, as the engine does) and the freeing of what it returned.

Robust on a shared, noisy machine: CPU time of this process (`time.process_time`), not the wall
clock; each figure the best of several runs; the runs made in rounds, each round a fresh process
(memory laid out as in a new tick) going through the sizes in alternate directions, so that a burst
of load elsewhere hits every size alike.  ``--compare`` measures another checkout's code (its
``pbem`` package) in the same rounds, alternating with this one: before/after figures side by side.

The bot orders are made once (setup and `pbem.games.pmb.bots`) and written to a temporary folder
as JSON that both checkouts read.

    .venv/bin/python scripts/bench_pmb.py [--sizes 40,400,4000,40000] [--rounds 5] [--compare ../main]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = "be7c" * 16
PREP_BUDGET = 240  # seconds allowed to build one size's bot orders
GROWTH_TARGET = 12.0  # per ×10 players, from 4,000 to 40,000 (issue 12)
SMALL_TARGET_MS = 10.0  # 40 players


def make_fixtures(sizes: list[int], folder: Path, names: Callable[[int], list[str]],
                  say: Callable[[str], None]) -> dict[int, dict[str, Any]]:
    """Set-up and bot orders for each size, written as ``<n>.json``; returns what each holds."""
    from pbem import serial
    from pbem.core import OrderError, Seat
    from pbem.dice import Dice
    from pbem.games import get
    from pbem.games.pmb.bots import random_orders

    rs = get("pmb")
    info: dict[int, dict[str, Any]] = {}
    for n in sizes:
        t0 = time.perf_counter()
        try:
            state, _events = rs.setup([Seat(name) for name in names(n)], {}, Dice(SEED, "setup"))
        except Exception as e:  # noqa: BLE001
            info[n] = {"error": f"setup refused: {e}"}
            continue
        orders: dict[str, list[list[Any]]] = {}
        accepted = rejected = 0
        for i, prompt in enumerate(rs.prompts(state)):
            if time.perf_counter() - t0 > PREP_BUDGET:
                info[n] = {"error": f"bot orders took over {PREP_BUDGET} s ({len(orders)} of {len(state.order)} players)"}
                break
            p = prompt.player
            if p in orders:
                continue
            mine: list[Any] = []
            for line in random_orders(state, p, i):
                try:
                    mine.append(rs.parse_order(state, p, line, mine))
                    accepted += 1
                except OrderError:
                    rejected += 1
            orders[p] = [[o.verb, list(o.args), o.text] for o in (mine or rs.default_orders(state, p))]
        else:
            (folder / f"{n}.json").write_text(json.dumps({"state": serial.dumps(state), "orders": orders},
                                                         ensure_ascii=False), encoding="utf-8")
            info[n] = {"accepted": accepted, "rejected": rejected, "prep": time.perf_counter() - t0}
            say(f"    {n:>6} players: {accepted} order lines accepted, {rejected} refused "
                f"(setup and bots {info[n]['prep']:.1f} s)")
    return info


def worker(folder: Path, sizes: list[int], reps: int, descending: bool) -> dict[str, dict[str, list[float]]]:
    """In a fresh process: for each size, ``reps`` resolutions of a freshly loaded state."""
    from pbem import serial
    from pbem.core import Order
    from pbem.dice import Dice
    from pbem.engine.steps.turns import run_resolve
    from pbem.games import get

    rs = get("pmb")
    data = {n: json.loads((folder / f"{n}.json").read_text(encoding="utf-8")) for n in sizes}
    out: dict[str, dict[str, list[float]]] = {str(n): {"resolve": [], "load": []} for n in sizes}
    for _ in range(reps):
        for n in sorted(sizes, reverse=descending):
            text, stored = data[n]["state"], data[n]["orders"]
            t0 = time.process_time()
            state = serial.loads(rs.state_type, text)
            out[str(n)]["load"].append(time.process_time() - t0)
            # as `effective_orders`: keyed by the prompted players, arguments as decoded from the store
            decoded = json.loads(json.dumps(stored, ensure_ascii=False))
            orders = {p.player: [Order(v, tuple(a), t) for v, a, t in decoded[p.player]]
                      for p in rs.prompts(state) if p.player in decoded}
            gc.collect()
            t0 = time.process_time()
            result = run_resolve(rs, state, orders, Dice(SEED, "step-1"))
            del result  # freeing what the turn made is part of its cost
            out[str(n)]["resolve"].append(time.process_time() - t0)
            del state, orders, decoded
    return out


def _run_worker(pbem_root: Path, folder: Path, sizes: list[int], reps: int, descending: bool) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(pbem_root))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(folder), "--sizes",
           ",".join(map(str, sizes)), "--reps", str(reps)] + (["--descending"] if descending else [])
    done = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"PMB bench worker ({pbem_root}) failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def growth(t_small: float, t_big: float, n_small: int, n_big: int) -> float:
    """The time ratio per ×10 players between two sizes."""
    return float((t_big / t_small) ** (1 / math.log10(n_big / n_small)))


def measure(sizes: list[int], rounds: int, reps: int, compare: Path | None,
            say: Callable[[str], None], names: Callable[[int], list[str]]) -> dict[str, Any]:
    """Fixtures, then ``rounds`` rounds of workers (this checkout and ``compare`` alternating);
    returns {"info": per-size fixture info, "trees": {label: {size: {"resolve": best, "load": best}}}}."""
    trees = {"this": ROOT} | ({"compare": compare.resolve()} if compare is not None else {})
    with tempfile.TemporaryDirectory(prefix="pbem-bench-pmb-") as tmp:
        folder = Path(tmp)
        info = make_fixtures(sizes, folder, names, say)
        ok = [n for n in sizes if "error" not in info[n]]
        runs: dict[str, dict[str, dict[str, list[float]]]] = {label: {} for label in trees}
        for r in range(rounds):
            labels = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for label in labels:
                got = _run_worker(trees[label], folder, ok, reps, descending=r % 2 == 1)
                for n, figures in got.items():
                    for key, values in figures.items():
                        runs[label].setdefault(n, {}).setdefault(key, []).extend(values)
    best = {label: {int(n): {k: min(v) for k, v in fig.items()} for n, fig in per.items()} for label, per in runs.items()}
    return {"info": info, "trees": best, "runs": rounds * reps}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="40,400,4000,40000")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=1, help="resolutions per size in each round")
    ap.add_argument("--compare", type=Path, help="another checkout whose pbem is measured alongside")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--descending", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    if args.worker is not None:
        print(json.dumps(worker(args.worker, sizes, args.reps, args.descending)))
        return 0
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench import player_names  # noqa: PLC0415

    result = measure(sizes, args.rounds, args.reps, args.compare, print, player_names)
    print(json.dumps(result["trees"], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
