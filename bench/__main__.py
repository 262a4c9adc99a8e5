"""``python -m bench [NAME …] [--quick] [--compare CHECKOUT] …``: see the package's doc."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import sys
import time
from pathlib import Path

from bench import FIGURES
from bench.harness import QUICK, Options, Report, machine_load


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"player counts separated by commas, not {text!r}") from None


def parse(argv: list[str]) -> tuple[list[str], Options, Path | None]:
    ap = argparse.ArgumentParser(prog="python -m bench", description=(__doc__ or "").split("\n")[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"figures to run (default all): {', '.join(FIGURES)}")
    ap.add_argument("--quick", action="store_true", help="every figure at small sizes (a smoke run, not figures)")
    ap.add_argument("-n", "--mails", type=int, default=None, help="order mails of figures 1-3 (default 2000)")
    ap.add_argument("--compare", type=Path, default=os.environ.get("PBEM_BENCH_COMPARE") or None,
                    help="another checkout measured alongside by figures 6, 10, 11, 12 (or PBEM_BENCH_COMPARE)")
    ap.add_argument("--profile", action="store_true", help="also cProfile the ingest and print the top items")
    ap.add_argument("--pmb-sizes", type=_ints, default=None, help="player counts of figure 6")
    ap.add_argument("--pmb-seeds", default=None, help="bot seeds of figure 6, four hex digits each, comma-separated")
    ap.add_argument("--pmb-rounds", type=int, default=None)
    ap.add_argument("--turn-sizes", type=_ints, default=None, help="player counts of figure 10")
    ap.add_argument("--turn-rounds", type=int, default=None)
    ap.add_argument("--turn-big", type=int, default=None, help="figure 10's largest game, one round (0: skipped)")
    ap.add_argument("--coldstart-rounds", type=int, default=None)
    ap.add_argument("--archive-steps", type=int, default=None, help="N of figure 14: a publish at N and 2N steps")
    ap.add_argument("--archive-rounds", type=int, default=None)
    ap.add_argument("--rows-json", type=Path, default=None, help="also write the table's rows to this file")
    ap.add_argument("--png-demo", type=Path, default=None, help="a folder `pbem demo all --dir` wrote (figure 13)")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in FIGURES]
    if unknown:
        ap.error(f"unknown figure {', '.join(unknown)}: choose among {', '.join(FIGURES)}")
    chosen: dict[str, object] = dict(QUICK) if args.quick else {}
    given = {"mails": args.mails, "compare": args.compare, "profile": args.profile or None,
             "pmb_sizes": args.pmb_sizes, "pmb_rounds": args.pmb_rounds, "turn_sizes": args.turn_sizes,
             "turn_rounds": args.turn_rounds, "turn_big": args.turn_big, "coldstart_rounds": args.coldstart_rounds, "png_demo": args.png_demo,
             "archive_steps": args.archive_steps, "archive_rounds": args.archive_rounds,
             "pmb_seeds": tuple(s for s in args.pmb_seeds.split(",") if s.strip()) if args.pmb_seeds else None}
    chosen.update({k: v for k, v in given.items() if v is not None})
    return args.names or list(FIGURES), dataclasses.replace(Options(), **chosen), args.rows_json  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    names, opts, rows_json = parse(argv)
    report = Report()
    report.say(f"pbem benchmark{' (--quick: small sizes, not figures to quote)' if opts.quick else ''}: "
               f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; at the start: {machine_load()}")
    modules = {name: importlib.import_module(FIGURES[name]) for name in names}
    for name, module in modules.items():
        report.current = name
        started = time.perf_counter()
        module.run(opts, report)
        report.say(f"    ({name}: {time.perf_counter() - started:.1f} s)")
    report.say(f"\nat the end: {machine_load()}")
    report.table()
    if rows_json is not None:
        report.write_json(rows_json)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
