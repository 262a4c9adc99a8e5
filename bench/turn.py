"""Figure 10: the full engine turn of Pour Ma Belle by player count (issue #24).

Not the resolution alone (section 6): what a tick does when a turn's deadline passes — the state
read back, the resolution, every player's letter, the MJ digest, the forum post and its picture,
the step record, the next step opened, the outbox rows — in one process that opened the game's
database and did nothing else first, as a tick does.

For each size a game is set up in a temporary folder (the players added, the game started, each
player's bot orders given as the MJ would: `pbem.games.pmb.bots`), by the checkout measured; then a
fresh process opens it and resolves the turn (`Engine.resolve`, then `Engine.write_forum`).  It
prints the CPU time of the turn (`time.process_time`) and the process's peak resident memory
(``ru_maxrss``: the imports, the store and the turn, all of it).  ``--compare`` measures another
checkout (its ``pbem`` package) in the same run, each size alternating between the two: before and
after side by side.  Each figure is the median over ``--rounds`` rounds (a fresh turn process each).

    .venv/bin/python -m bench turn [--turn-sizes 400,2000,4000] [--turn-rounds 3] [--compare ../main]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.harness import ROOT, Options, Report, peak_rss_mib, run_worker
from bench.names import player_names as names_of

SIZES = (400, 2000, 4000)
CPU_TARGET = 2.0  # seconds of CPU for the whole turn at 4,000 players (issue #24)
MEMORY_TARGET = 150.0  # MiB of peak resident memory at 4,000 players (issue #24)
BIG_MEMORY_TARGET = 2048.0  # MiB: a 40,000-player turn completes within 2 GiB (issue #24)
START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
SEED = "be7c" * 16
FIRST = ["Arya", "Bran", "Cersei", "Davos", "Edmure", "Gendry", "Hodor", "Ilyn", "Jaime", "Kevan"]
LAST = ["Flowers", "Hill", "Pyke", "Rivers", "Sand", "Snow", "Stone", "Waters"]


def player_names(n: int) -> list[str]:
    return names_of(n, FIRST, LAST)


def _config(root: Path) -> Any:
    from pbem import config as configmod

    data = {
        "pbem": {"database": str(root / "db.sqlite"), "address": "jeu@pbem.test", "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000},
        "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
        "outbox": {"kind": "maildir", "path": str(root / "outbox")},
        "games": {"jeu1": {"ruleset": "pmb", "tag": "PMB", "title": "Pour Ma Belle", "mj": "mj@pbem.test",
                           "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00"}}},
    }
    return configmod.parse(data, root)


def setup(root: Path, n: int) -> None:
    """A started game of ``n`` players with every player's bot orders for turn 1, in ``root``.

    The players and orders are written through the store in one transaction each (what registration
    and order mails store, without the per-mail work: that is not what is measured here)."""
    from pbem.core import OrderError
    from pbem.engine import Engine
    from pbem.games.pmb.bots import random_orders
    from pbem.store import OrderSet, PlayerRow, Store

    cfg = _config(root)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("jeu1", START, seed=SEED)
    with store.atomic():
        for i, name in enumerate(player_names(n)):
            store.add_player(PlayerRow(game="jeu1", name=name, address=f"p{i + 1}@pbem.test", status="active",
                                       seat={}, password=None, registered_at=START))
    eng.start_game("jeu1", START + timedelta(minutes=1))
    rs = eng.ruleset("jeu1")
    g = eng.game("jeu1")
    state = eng.state(g)
    rng = random.Random(2026)
    now = START + timedelta(hours=1)
    with store.atomic():
        for p in rs.prompts(state):
            orders: list[Any] = []
            lines = []
            for line in random_orders(state, p.player, rng.randrange(1 << 30)):
                try:
                    orders.append(rs.parse_order(state, p.player, line, orders))
                    lines.append(line)
                except OrderError:
                    pass
            if orders:
                store.set_orders(OrderSet("jeu1", g.turn, p.player, orders, lines, "mj", None, now))
    store.close()


def turn(root: Path) -> dict[str, float]:
    """Resolve the open turn of the game in ``root``: the turn's CPU seconds and the process's peak RSS."""
    from pbem.engine import Engine
    from pbem.store import Store

    cfg = _config(root)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    now = START + timedelta(days=3)
    t0 = time.process_time()
    eng.resolve("jeu1", now)
    eng.write_forum("jeu1")
    cpu = time.process_time() - t0
    store.close()
    return {"cpu": cpu, "peak_mib": peak_rss_mib()}


def _run(pbem_root: Path, *args: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(run_worker(pbem_root, "bench.turn", *args) or "{}")
    return result


def measure(sizes: list[int], rounds: int, compare: Path | None,
            say: Callable[[str], None]) -> dict[str, dict[int, list[dict[str, float]]]]:
    """{"this"/"base": {size: [per round {cpu, peak_mib}]}}, every size set up once per checkout."""
    roots = {"this": ROOT, **({"base": compare.resolve()} if compare is not None else {})}
    out: dict[str, dict[int, list[dict[str, float]]]] = {k: {n: [] for n in sizes} for k in roots}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-turn-") as tmp:
        for n in sizes:
            for name, root in roots.items():
                t0 = time.perf_counter()
                folder = Path(tmp) / f"{name}-{n}"
                folder.mkdir()
                _run(root, "--setup", str(folder), "--n", str(n))
                say(f"    {name}: {n:,} players set up ({time.perf_counter() - t0:.0f} s)")
            for r in range(rounds):
                order = list(roots.items()) if r % 2 == 0 else list(reversed(roots.items()))
                for name, root in order:
                    work = Path(tmp) / f"{name}-{n}-r{r}"
                    subprocess.run(["cp", "-a", str(Path(tmp) / f"{name}-{n}"), str(work)], check=True)
                    out[name][n].append(_run(root, "--turn", str(work)))
                    subprocess.run(["rm", "-rf", str(work)], check=True)
    return out


def run(opts: Options, report: Report) -> None:
    section(list(opts.turn_sizes), opts.turn_rounds, opts.compare, report.say, report.row)
    if opts.turn_big:
        big(opts.turn_big, report.say, report.row)


def big(n: int, say: Callable[[str], None], row: Callable[..., None]) -> None:
    """One turn of a game of ``n`` players (set-up alone takes about a minute at 40,000): its CPU and peak
    memory, the memory judged against 2 GiB."""
    say("    the largest game, one round:")
    (result,) = measure([n], 1, None, say)["this"][n]
    say(f"    {n:>6,} players: {result['cpu']:6.2f} s CPU, peak {result['peak_mib']:6.1f} MiB")
    row("10 PMB turn", f"full turn, {n:,} players", f"{result['cpu']:.1f} s CPU, {result['peak_mib']:.0f} MiB",
        f"<= {BIG_MEMORY_TARGET:g} MiB", result["peak_mib"] <= BIG_MEMORY_TARGET)


def section(sizes: list[int], rounds: int, compare: Path | None, say: Callable[[str], None],
            row: Callable[..., None]) -> None:
    say(f"\n[10] the full engine turn of Pour Ma Belle (resolution, letters, digest, picture, record, outbox), "
        f"{rounds} rounds{'' if compare is None else f', beside {compare}'}")
    runs = measure(sizes, rounds, compare, say)
    med = {name: {n: (statistics.median(x["cpu"] for x in rs), statistics.median(x["peak_mib"] for x in rs))
                  for n, rs in by_size.items() if rs} for name, by_size in runs.items()}
    for n in sizes:
        cpu, peak = med["this"][n]
        line = f"    {n:>6,} players: {cpu:6.2f} s CPU, peak {peak:6.1f} MiB"
        if "base" in med:
            bcpu, bpeak = med["base"][n]
            line += f"   (base: {bcpu:6.2f} s, {bpeak:6.1f} MiB; x{bcpu / max(cpu, 1e-6):.1f} faster)"
        say(line)
    if len(sizes) > 1:
        small, big = sizes[0], sizes[-1]
        ratios = [b["cpu"] / max(a["cpu"], 1e-6) for a, b in zip(runs["this"][small], runs["this"][big], strict=False)]
        growth = statistics.median(ratios)
        say(f"    growth {small:,} -> {big:,} players: x{growth:.1f} CPU (x{big / small:g} players; linear)")
        row("10 PMB turn", f"full turn CPU growth {small:,}->{big:,}", f"x{growth:.1f}",
            f"<= x{big / small * 1.5:g} (linear)", growth <= big / small * 1.5)
    last = sizes[-1]
    cpu, peak = med["this"][last]
    base = med.get("base", {}).get(last)
    before = f" (base {base[0]:.2f} s)" if base else ""
    row("10 PMB turn", f"full turn CPU, {last:,} players", f"{cpu:.2f} s{before}",
        f"<= {CPU_TARGET:g} s" if last == 4000 else "", cpu <= CPU_TARGET if last == 4000 else None)
    before = f" (base {base[1]:.0f} MiB)" if base else ""
    row("10 PMB turn", f"full turn peak RSS, {last:,} players", f"{peak:.0f} MiB{before}",
        f"<= {MEMORY_TARGET:g} MiB" if last == 4000 else "", peak <= MEMORY_TARGET if last == 4000 else None)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="a worker of bench.turn (python -m bench turn runs the figure)")
    ap.add_argument("--setup", type=Path)
    ap.add_argument("--n", type=int)
    ap.add_argument("--turn", type=Path)
    args = ap.parse_args()
    if args.setup is not None:
        setup(args.setup, args.n)
        print("{}")
    elif args.turn is not None:
        print(json.dumps(turn(args.turn)))
