"""Figure 11: a 1626 session's cost per mail, early and late (issue #24).

A 1626 session is a stream of immediate tests: each mail's test appends one record to a history that
keeps growing.  The cost of a mail must stay flat: mail 800 within 1.5x of mail 1.  Here the MJ sends
``N`` mails of one test each, through the real engine (`Engine.process_pending`: parse, store, the
test rolled, the records, the state written, the answers queued); each mail's CPU time is taken
(`time.process_time`).  The figure is the median of the last 20 mails' times over the median of the
first 20 (single mails are too short to time alone on a shared machine).  ``--compare`` runs
another checkout in the same run, alternating: before and after side by side.

    .venv/bin/python -m bench 1626 [--compare ../main]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from bench.harness import ROOT, Options, Report, run_worker

TARGET = 1.5
WINDOW = 20


def session(n: int, root: Path) -> list[float]:
    """The CPU seconds of each of ``n`` one-test mails of a 1626 session."""
    from bench.records_1626 import MJ, PLAYERS, T0, TESTS, mail
    from pbem import config as configmod
    from pbem.engine import Engine
    from pbem.folder import DATA
    from pbem.store import Store

    cfg = configmod.parse({
        "pbem": {"database": str(root / "db.sqlite"), "address": "jeu@example.org", "forum_dir": str(root / "forum"),
                 "reply_cap_per_hour": 1_000_000},
        "mailbox": {"kind": "maildir", "path": str(root / "in")}, "outbox": {"kind": "maildir", "path": str(root / "out")},
        "games": {"gant": {"ruleset": "1626", "tag": "1626", "mj": MJ,
                           "roster": str(DATA / "1626" / "personnages.toml")}}}, root)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    now = T0
    e.new_game("gant", now, seed="5eed" * 16)
    for i, (name, address) in enumerate(PLAYERS.items()):
        store.store_raw([(f"reg{i}", mail(address, f"INSCRIPTION {name}", i))], now)
    e.process_pending(now)
    e.start_game("gant", now)
    names = list(PLAYERS)
    times = []
    for k in range(n):
        now += timedelta(minutes=1)
        raw = mail(MJ, f"TEST {names[k % len(names)]} {TESTS[k % len(TESTS)]}", 100 + k)
        t0 = time.process_time()
        store.store_raw([(f"mj{k}", raw)], now)
        e.process_pending(now)
        times.append(time.process_time() - t0)
    store.close()
    return times


def _run(pbem_root: Path, n: int) -> list[float]:
    times: list[float] = json.loads(run_worker(pbem_root, "bench.mail_1626", "--worker", "-n", str(n)))
    return times


def growth(times: list[float]) -> tuple[float, float, float]:
    first = statistics.median(times[:WINDOW])
    last = statistics.median(times[-WINDOW:])
    return first, last, last / max(first, 1e-9)


def section(n: int, compare: Path | None, say: Callable[[str], None], row: Callable[..., None]) -> None:
    say(f"\n[11] a 1626 session: the CPU time of a one-test mail, mails 1-{WINDOW} against the last {WINDOW} of {n}"
        f"{'' if compare is None else f', beside {compare}'}")
    roots = {"this": ROOT, **({"base": compare.resolve()} if compare is not None else {})}
    res = {name: growth(_run(root, n)) for name, root in roots.items()}
    for name, (first, last, g) in res.items():
        say(f"    {name}: mail 1: {first * 1000:.1f} ms, mail {n}: {last * 1000:.1f} ms, x{g:.2f}")
    first, last, g = res["this"]
    base = f" (base x{res['base'][2]:.2f})" if "base" in res else ""
    row("11 1626 per mail", f"mail {n} / mail 1 (CPU)", f"x{g:.2f}{base}", f"<= x{TARGET:g}", g <= TARGET)


def run(opts: Options, report: Report) -> None:
    section(opts.session_mails, opts.compare, report.say, report.row)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="a worker of bench.mail_1626 (python -m bench 1626 runs the figure)")
    ap.add_argument("-n", type=int, default=800)
    ap.add_argument("--worker", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(session(args.n, Path(tmp))))
