"""What every figure of the bench shares: the options, timing in rounds, the median of per-round ratios,
peak memory, the machine's load, workers in fresh processes, and the report table.

A figure module measures and adds rows to a `Report`; the table printed at the end puts every figure
beside its target (from issue #24, or an earlier issue) with ``ok`` or ``MISSED``.  Ratios are the median
of per-round ratios (pbem and its floor measured one after the other in each round, the order alternating
from round to round), never a best time over another best time: one slow spell then moves one round's
ratio, not the figure.
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the bench belongs to (its ``pbem`` is the one measured, unless a worker is told otherwise)."""


@dataclass(frozen=True)
class Options:
    """What the command line chose; `QUICK` holds the small sizes of ``--quick`` (the smoke test's)."""

    quick: bool = False
    mails: int = 2000
    compare: Path | None = None
    profile: bool = False
    pmb_sizes: tuple[int, ...] = (40, 400, 4000, 40000)
    pmb_seeds: tuple[str, ...] | None = None  # None: bench.pmb.SEEDS
    pmb_rounds: int = 5
    turn_sizes: tuple[int, ...] = (400, 2000, 4000)
    turn_rounds: int = 3
    turn_big: int = 40_000  # figure 10's largest game, one round (0: not measured)
    session_mails: int = 800
    coldstart_rounds: int = 15
    png_demo: Path | None = None
    latency_mails: int = 200
    archive_steps: int = 55
    archive_rounds: int = 9


QUICK: dict[str, Any] = {
    "quick": True, "mails": 60, "pmb_sizes": (40, 400), "pmb_seeds": ("be7c", "0001"), "pmb_rounds": 1,
    "turn_sizes": (40, 80), "turn_rounds": 1, "turn_big": 0, "session_mails": 40, "coldstart_rounds": 1,
    "latency_mails": 2, "archive_steps": 3, "archive_rounds": 1,
}


@dataclass(frozen=True)
class Row:
    section: str
    figure: str
    value: str
    target: str = ""
    met: bool | None = None  # None: no target, shown for information
    source: str = ""  # the figure module's name in `bench.FIGURES`


@dataclass
class Report:
    """The rows and notes of one run; ``say`` prints a line of a figure's own account as it goes."""

    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    current: str = ""  # the figure running (set by `python -m bench`), written into its rows

    def say(self, text: str) -> None:
        print(text, flush=True)

    def row(self, section: str, figure: str, value: str, target: str = "", met: bool | None = None) -> None:
        self.rows.append(Row(section, figure, value, target, met, self.current))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def table(self) -> None:
        self.say("\n" + "=" * 124)
        self.say(f"{'section':<20} {'figure':<44} {'value':<34} {'target':<18} result")
        self.say("-" * 124)
        for r in self.rows:
            verdict = "" if r.met is None else ("ok" if r.met else "MISSED")
            self.say(f"{r.section:<20} {r.figure:<44} {r.value:<34} {r.target:<18} {verdict}")
        self.say("=" * 124)
        for text in self.notes:
            self.say("\n" + text)

    def write_json(self, path: Path) -> None:
        """The rows as JSON (``--rows-json``: what the smoke test reads instead of the table's columns)."""
        path.write_text(json.dumps([dataclasses.asdict(r) for r in self.rows], ensure_ascii=False, indent=1),
                        encoding="utf-8")


# --------------------------------------------------------------------------- the machine


def machine_load() -> str:
    """The load averages and the CPUs this process may use: printed at the start and the end of a run,
    since every figure depends on what else the machine was doing."""
    one, five, fifteen = os.getloadavg()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min), nproc {usable}"


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB: ``VmHWM``, the high-water mark of its own
    address space.  Not ``ru_maxrss``: Linux carries that over an ``exec``, so a worker started by a big
    bench process would report the parent's size (the full turn's 400 players read as 401 MiB)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # (kB)
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # (KiB on Linux; elsewhere, no exec carry-over to fear)


# --------------------------------------------------------------------------- timing


def timed(fn: Callable[[], Any]) -> float:
    """Wall-clock seconds of one call."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def in_rounds(rounds: int, runs: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Each round calls every run once (each returns its seconds), in the given order on even rounds and
    reversed on odd ones, so that a slow spell of the machine favours neither; one list per run."""
    out: dict[str, list[float]] = {name: [] for name in runs}
    for r in range(rounds):
        order = list(runs.items()) if r % 2 == 0 else list(reversed(runs.items()))
        for name, run in order:
            out[name].append(run())
    return out


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


def median_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """The median of the per-round ratios (round k's numerator over round k's denominator)."""
    return median([a / max(b, 1e-12) for a, b in zip(numerators, denominators, strict=True)])


def median_difference(minuends: Sequence[float], subtrahends: Sequence[float]) -> float:
    """The median of the per-round differences."""
    return median([a - b for a, b in zip(minuends, subtrahends, strict=True)])


def rounded(values: Sequence[float], digits: int = 3) -> list[float]:
    return [round(v, digits) for v in values]


# --------------------------------------------------------------------------- workers in fresh processes

_BOOT = """\
import importlib.util, runpy, sys
root, module = sys.argv.pop(1), sys.argv.pop(1)
spec = importlib.util.spec_from_file_location("bench", root + "/bench/__init__.py",
                                              submodule_search_locations=[root + "/bench"])
package = importlib.util.module_from_spec(spec)
sys.modules["bench"] = package
spec.loader.exec_module(package)
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""
"""A worker's start: this checkout's ``bench`` package loaded by its path, so that ``PYTHONPATH`` chooses
only which ``pbem`` is measured (a compared checkout's, which may have a ``bench/`` of its own or none)."""


def worker_argv(module: str, *args: str) -> list[str]:
    """The command running ``python -m <module> <args>`` of this checkout's bench in a fresh process."""
    return [sys.executable, "-c", _BOOT, str(ROOT), module, *args]


def worker_env(pbem_root: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(pbem_root))


def run_worker(pbem_root: Path, module: str, *args: str) -> str:
    """Run a worker with ``pbem_root``'s pbem to its end; its last line of output (JSON, by convention)."""
    done = subprocess.run(worker_argv(module, *args), env=worker_env(pbem_root), cwd=tempfile.gettempdir(),
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench worker {module} ({pbem_root}) failed:\n{done.stderr[-2000:]}")
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


# --------------------------------------------------------------------------- the loopback mail servers

MAIL_KEYS = ("MAIL_HOST", "MAIL_IMAP_PORT", "MAIL_SMTP_PORT", "MAIL_PASSWORD", "MAIL_DOMAIN", "MAIL_LMTP_PORT",
             "MAIL_SINK_MAILDIR")


def mail_env() -> dict[str, str] | None:
    """The loopback servers' addresses (`scripts/mail-test-servers.sh run` exports them), or None."""
    if not all(os.environ.get(k) for k in MAIL_KEYS):
        return None
    return {k: os.environ[k] for k in MAIL_KEYS}


def skipped_without_servers(report: Report, section: str, figure: str) -> None:
    report.say(f"\n[{section}] skipped: the loopback mail servers are not running "
               "(make bench starts them: scripts/mail-test-servers.sh run)")
    report.row(section, figure, "skipped: no MAIL_* environment", "", False)
