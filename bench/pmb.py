"""Figure 6: Pour Ma Belle, the time of one turn's resolution by player count, for several bot seeds.

Measured the way the engine resolves a turn: the state read back from its stored JSON
(`pbem.serial.loads`, as `Context.state` does) and the orders keyed by the prompted players with
arguments decoded from JSON (as `effective_orders` gives them), then `run_resolve` (the cyclic
collector paused, as the engine does) and the freeing of what it returned.

Several seeds, because the cost of a turn depends on what happens in it: the bots of a clan
converge on one target, so at 40,000 players a turn holds squads of thousands, and whether such a
squad fails against a Conseil member (who then learns every member's role), or is joined by one
member of the other clan (an alliance squad, whose members all learn each other's affiliation),
is a matter of seed.  The default seeds were searched for those cases (`SEEDS`): the figure
judged is the worst seed's.  A seed is four hex digits: the set-up and resolution dice are seeded
with it, and the bots with ``int(seed, 16) * 1_000_000 + their prompt's index``.

Robust on a shared, noisy machine: CPU time of this process (`time.process_time`), not the wall
clock; the runs made in rounds, each round a fresh process (memory laid out as in a new tick)
going through the seeds and sizes in alternate directions, so that a burst of load elsewhere hits
every size alike.  Each time printed is the median over the rounds, and each growth figure the
median of the rounds' own ratios (the two sizes measured in the same process, one after the
other), not a ratio of two best times.  ``--compare`` measures another checkout's code (its
``pbem`` package) in the same rounds, alternating with this one: before/after figures side by side.

A worker runs with its address space capped (`MEMORY_CAP`) and each resolution with a time budget
(`TIME_BUDGET`): a turn that would need more is reported as not resolved, with what stopped it,
rather than taking the machine down; a (seed, size) stopped once is not tried again in later rounds.

The bot orders are made once (set-up and `pbem.games.pmb.bots`, by this checkout) and written to a
temporary folder as JSON that both checkouts read.

    .venv/bin/python -m bench pmb [--pmb-sizes 40,400,4000,40000] [--pmb-seeds be7c,0001,...] [--pmb-rounds 5]
        [--compare ../main]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import resource
import signal
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.harness import ROOT, Options, Report, run_worker
from bench.names import player_names

SEEDS = ("be7c", "0001", "0002", "0003", "0004", "0005")
"""be7c: the fixture of the earlier benches.  0001 and 0003: at 40,000 players the Stark crowd fails
against a Conseil member, who learns the roles of its 7,191 and 8,191 members.  0004: one Tyrell
bot joins the 8,776 Stark on a Garde, so the squad is an alliance and its 8,777 members each learn
the affiliation of all 8,777 (77 million facts).  0002 and 0005: a Stark crowd on a Garde, the
usual turn.  (Found by resolving the first 24 seeds at 40,000 players: 2 of them like 0001, 4 like
0004.)"""
SIZES = (40, 400, 4000, 40000)
PREP_BUDGET = 240  # seconds allowed to build one fixture's bot orders
GROWTH_TARGET = 12.0  # per ×10 players, from 4,000 to 40,000 (issues 12 and 24), for the worst seed
SMALL_TARGET_MS = 10.0  # 40 players
MEMORY_CAP = 2 << 30
"""Bytes of address space a worker may use (a 40,000-player turn normally needs about 0.2 GiB)."""
TIME_BUDGET = 30.0
"""Seconds (wall clock) one resolution may take before it is stopped.  Wall clock, not CPU: a CPU
timer (``ITIMER_PROF``) makes `time.process_time` read in whole ticks on Linux, 0 for a short turn."""


def dice_seed(seed: str) -> str:
    """The 64 hex digits of the set-up and resolution dice for a bench seed of four hex digits."""
    if len(seed) != 4 or any(c not in "0123456789abcdef" for c in seed):
        raise SystemExit(f"bench pmb: a seed is four lowercase hex digits, not {seed!r} (e.g. --seeds be7c,0001)")
    return seed * 16


def bot_base(seed: str) -> int:
    return int(seed, 16) * 1_000_000


def fixture_name(seed: str, n: int) -> str:
    return f"{seed}-{n}.json"


def make_fixtures(seeds: list[str], sizes: list[int], folder: Path, names: Callable[[int], list[str]],
                  say: Callable[[str], None]) -> dict[str, dict[int, dict[str, Any]]]:
    """Set-up and bot orders for each seed and size, written as ``<seed>-<n>.json``; returns what each holds."""
    from pbem import serial
    from pbem.core import OrderError, Seat
    from pbem.dice import Dice
    from pbem.games import get
    from pbem.games.pmb.bots import random_orders

    rs = get("pmb")
    info: dict[str, dict[int, dict[str, Any]]] = {}
    for seed in seeds:
        info[seed] = {}
        for n in sizes:
            t0 = time.perf_counter()
            try:
                state, _events = rs.setup([Seat(name) for name in names(n)], {}, Dice(dice_seed(seed), "setup"))
            except Exception as e:  # noqa: BLE001
                info[seed][n] = {"error": f"setup refused: {e}"}
                continue
            orders: dict[str, list[list[Any]]] = {}
            accepted = rejected = 0
            for i, prompt in enumerate(rs.prompts(state)):
                if time.perf_counter() - t0 > PREP_BUDGET:
                    info[seed][n] = {"error": f"bot orders took over {PREP_BUDGET} s "
                                              f"({len(orders)} of {len(state.order)} players)"}
                    break
                p = prompt.player
                if p in orders:
                    continue
                mine: list[Any] = []
                for line in random_orders(state, p, bot_base(seed) + i):
                    try:
                        mine.append(rs.parse_order(state, p, line, mine))
                        accepted += 1
                    except OrderError:
                        rejected += 1
                orders[p] = [[o.verb, list(o.args), o.text] for o in (mine or rs.default_orders(state, p))]
            else:
                (folder / fixture_name(seed, n)).write_text(
                    json.dumps({"state": serial.dumps(state), "orders": orders}, ensure_ascii=False), encoding="utf-8")
                info[seed][n] = {"accepted": accepted, "rejected": rejected, "prep": time.perf_counter() - t0}
        made = [n for n in sizes if "error" not in info[seed][n]]
        say(f"    seed {seed}: bot orders for {', '.join(f'{n:,}' for n in made)} players "
            f"({sum(info[seed][n]['prep'] for n in made):.1f} s)")
    return info


class _OverBudget(Exception):
    pass


def _over_budget(_signum: int, _frame: Any) -> None:
    raise _OverBudget


def worker(folder: Path, jobs: list[tuple[str, int]]) -> dict[str, dict[str, Any]]:
    """In a fresh process: one resolution of a freshly loaded state for each (seed, size), in that order.

    Returns {"<seed>/<n>": {"resolve": CPU s or None, "load": CPU s, "error": why it was stopped or None}}."""
    from pbem import serial
    from pbem.core import Order
    from pbem.dice import Dice
    from pbem.games import get

    try:
        from pbem.engine.steps.turns import run_resolve
    except ImportError:  # a checkout compared from before the engine's reorganisation
        from pbem.engine.turns import run_resolve  # type: ignore[no-redef]

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    signal.signal(signal.SIGALRM, _over_budget)
    rs = get("pmb")
    out: dict[str, dict[str, Any]] = {}
    for seed, n in jobs:
        data = json.loads((folder / fixture_name(seed, n)).read_text(encoding="utf-8"))
        t0 = time.process_time()
        state = serial.loads(rs.state_type, data["state"])
        load = time.process_time() - t0
        # as `effective_orders`: keyed by the prompted players, arguments as decoded from the store
        stored = data["orders"]
        orders = {p.player: [Order(v, tuple(a), t) for v, a, t in stored[p.player]]
                  for p in rs.prompts(state) if p.player in stored}
        del data, stored
        gc.collect()
        error: str | None = None
        t0 = time.process_time()
        try:
            signal.setitimer(signal.ITIMER_REAL, TIME_BUDGET)
            result = run_resolve(rs, state, orders, Dice(dice_seed(seed), "step-1"))
            del result  # freeing what the turn made is part of its cost
        except MemoryError:
            error = f"over {MEMORY_CAP >> 30} GiB"
        except _OverBudget:
            error = f"over {TIME_BUDGET:g} s"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        spent = time.process_time() - t0
        out[f"{seed}/{n}"] = {"resolve": None if error else spent, "load": load, "error": error}
        del state, orders
        gc.collect()
    return out


def _run_worker(pbem_root: Path, folder: Path, jobs: list[tuple[str, int]]) -> dict[str, Any]:
    out = run_worker(pbem_root, "bench.pmb", "--worker", str(folder),
                     "--jobs", ",".join(f"{seed}/{n}" for seed, n in jobs))
    result: dict[str, Any] = json.loads(out)
    return result


def growth(t_small: float, t_big: float, n_small: int, n_big: int) -> float:
    """The time ratio per ×10 players between two sizes."""
    return float((t_big / t_small) ** (1 / math.log10(n_big / n_small)))


def measure(seeds: list[str], sizes: list[int], rounds: int, compare: Path | None,
            say: Callable[[str], None], names: Callable[[int], list[str]]) -> dict[str, Any]:
    """Fixtures, then ``rounds`` rounds of workers (this checkout and ``compare`` alternating).

    Returns {"info": fixture info by seed and size, "runs": {label: {seed: {n: {"resolve": [s by round],
    "load": [s by round], "error": str | None}}}}}; a (seed, size) stopped once is not run again."""
    trees = {"this": ROOT} | ({"compare": compare.resolve()} if compare is not None else {})
    with tempfile.TemporaryDirectory(prefix="pbem-bench-pmb-") as tmp:
        folder = Path(tmp)
        info = make_fixtures(seeds, sizes, folder, names, say)
        runs: dict[str, dict[str, dict[int, dict[str, Any]]]] = {
            label: {s: {n: {"resolve": [], "load": [], "error": None} for n in sizes if "error" not in info[s][n]}
                    for s in seeds} for label in trees}
        for r in range(rounds):
            labels = list(trees) if r % 2 == 0 else list(trees)[::-1]
            for label in labels:
                order = [(s, n) for s in (seeds if r % 2 == 0 else seeds[::-1])
                         for n in (sizes if r % 2 == 0 else sizes[::-1])]
                jobs = [(s, n) for s, n in order if n in runs[label][s] and runs[label][s][n]["error"] is None]
                got = _run_worker(trees[label], folder, jobs)
                for key, fig in got.items():
                    s, n = key.split("/")[0], int(key.split("/")[1])
                    cell = runs[label][s][n]
                    cell["load"].append(fig["load"])
                    if fig["error"] is not None:
                        cell["error"] = fig["error"]
                    else:
                        cell["resolve"].append(fig["resolve"])
            say(f"    round {r + 1} of {rounds} done")
    return {"info": info, "runs": runs}


def summary(runs: dict[str, dict[int, dict[str, Any]]], sizes: list[int]) -> dict[str, dict[str, Any]]:
    """For one checkout's runs: by seed, the median resolve and load time by size, and the median of
    the rounds' growth per ×10 players between consecutive sizes (None where a size was not resolved)."""
    out: dict[str, dict[str, Any]] = {}
    for seed, per in runs.items():
        times: dict[int, float | None] = {}
        loads: dict[int, float] = {}
        errors: dict[int, str] = {}
        for n, cell in per.items():
            times[n] = None if cell["error"] or not cell["resolve"] else statistics.median(cell["resolve"])
            if cell["load"]:
                loads[n] = statistics.median(cell["load"])
            if cell["error"]:
                errors[n] = cell["error"]
        growths: dict[tuple[int, int], float | None] = {}
        done = [n for n in sizes if n in per]
        for a, b in zip(done, done[1:], strict=False):
            ra, rb = per[a]["resolve"], per[b]["resolve"]
            if per[a]["error"] or per[b]["error"] or not ra or not rb:
                growths[(a, b)] = None
                continue
            growths[(a, b)] = statistics.median(growth(x, y, a, b) for x, y in zip(ra, rb, strict=False))
        out[seed] = {"times": times, "loads": loads, "errors": errors, "growths": growths}
    return out


def _ms(t: float | None) -> str:
    return "not resolved" if t is None else f"{t * 1000:.1f} ms"


def report_rows(result: dict[str, Any], seeds: list[str], sizes: list[int], say: Callable[[str], None],
           row: Callable[[str, str, str, str, bool | None], None]) -> None:
    """Print each seed's figures, and add the section's rows (worst seed beside the target) with ``row``."""
    sec = "6 PMB resolve"
    for seed in seeds:
        for n in sizes:
            if "error" in result["info"][seed][n]:
                row(sec, f"seed {seed}, {n} players", f"not measured: {result['info'][seed][n]['error']}", "", False)
    this = summary(result["runs"]["this"], sizes)
    other = summary(result["runs"]["compare"], sizes) if "compare" in result["runs"] else None
    judged = (4000, 40000) if 4000 in sizes and 40000 in sizes else None
    for seed in seeds:
        s = this[seed]
        parts = []
        for n in sizes:
            if n not in s["times"]:
                continue
            was = f" (compared {_ms(other[seed]['times'].get(n))})" if other else ""
            why = f" [{s['errors'][n]}]" if n in s["errors"] else ""
            parts.append(f"{n:,}: {_ms(s['times'][n])}{why}{was}")
        say(f"    seed {seed}: " + "; ".join(parts))
        for (a, b), g in s["growths"].items():
            was = ""
            if other:
                og = other[seed]["growths"].get((a, b))
                was = f" (compared {'not measured' if og is None else f'x{og:.1f}'})"
            say(f"        {a:,} -> {b:,}: {'not measured' if g is None else f'x{g:.1f}'} per 10x players{was}")
    # the rows: the worst seed at each size, and the worst growth
    for n in sizes:
        measured = [(s, this[s]["times"][n]) for s in seeds if n in this[s]["times"]]
        if not measured:
            continue
        missing = [s for s, t in measured if t is None]
        if missing:
            row(sec, f"{n:,} players, worst of {len(measured)} seeds",
                f"not resolved (seed {missing[0]}: {this[missing[0]]['errors'][n]})", "", False if n == 40 else None)
            continue
        seed, t = max(measured, key=lambda st: st[1] or 0.0)
        was = ""
        if other and other[seed]["times"].get(n) is not None:
            was = f" (compared {other[seed]['times'][n] * 1000:.1f})"
        target, met = (f"<= {SMALL_TARGET_MS:g} ms", t * 1000 <= SMALL_TARGET_MS) if n == 40 else ("", None)
        row(sec, f"{n:,} players, worst of {len(measured)} seeds", f"{t * 1000:.1f} ms{was}, seed {seed}", target, met)
    if judged is not None:
        rated = [(s, this[s]["growths"].get(judged)) for s in seeds if judged in this[s]["growths"]]
        unrated = [s for s, g in rated if g is None]
        target = f"<= x{GROWTH_TARGET:g} per 10x"
        label = f"growth 4,000 -> 40,000, worst of {len(rated)} seeds"
        if unrated:
            why = this[unrated[0]]["errors"].get(40000) or this[unrated[0]]["errors"].get(4000) or "not resolved"
            ok = [g for s, g in rated if g is not None]
            best = f"; the {len(ok)} others up to x{max(ok):.1f}" if ok else ""
            row(sec, label, f"seed {unrated[0]}: 40,000 {why}{best}", target, False)
        elif rated:
            seed, g = max(rated, key=lambda sg: sg[1] or 0.0)
            assert g is not None
            was = ""
            if other:
                og = [x for _s, x in ((s, other[s]["growths"].get(judged)) for s in seeds) if x is not None]
                was = f" (compared x{max(og):.1f})" if og else " (compared: not measured)"
            row(sec, label, f"x{g:.1f}, seed {seed}{was}", target, g <= GROWTH_TARGET)
    big = max(sizes)
    loads = [(s, this[s]["loads"][big]) for s in seeds if big in this[s]["loads"]]
    if loads:
        seed, t = max(loads, key=lambda st: st[1])
        was = ""
        if other and big in other[seed]["loads"]:
            was = f" (compared {other[seed]['loads'][big] * 1000:.0f})"
        row(sec, f"state load at {big:,} players", f"{t * 1000:.0f} ms{was}, seed {seed}", "", None)


def run(opts: Options, report: Report) -> None:
    """The figure (see the module's doc)."""
    seeds = [x.strip().lower() for x in opts.pmb_seeds] if opts.pmb_seeds else list(SEEDS)
    for seed in seeds:
        dice_seed(seed)
    sizes, rounds, compare = list(opts.pmb_sizes), opts.pmb_rounds, opts.compare
    vs = f", side by side with {compare}" if compare is not None else ""
    report.say(f"\n[6] Pour Ma Belle: resolve() of one turn by player count, for {len(seeds)} bot seeds (default "
               f"options; state loaded from its JSON as the engine does; CPU time, median of {rounds} rounds in fresh "
               f"processes, growth the median of the rounds' ratios{vs})")
    result = measure(seeds, sizes, rounds, compare, report.say, player_names)
    report_rows(result, seeds, sizes, report.say, report.row)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="a worker of bench.pmb (python -m bench pmb runs the figure)")
    ap.add_argument("--worker", type=Path, required=True)
    ap.add_argument("--jobs", required=True)
    args = ap.parse_args()
    print(json.dumps(worker(args.worker, [(j.split("/")[0], int(j.split("/")[1])) for j in args.jobs.split(",") if j])))
