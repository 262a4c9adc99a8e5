"""Figure 12: the cold start of an empty-inbox `pbem tick` (issue #24).

A cron runs `pbem tick` every few minutes, and most passes find nothing: what they cost is the start of a
Python process and pbem's imports.  The folder is the one `pbem init` writes (local Maildirs, an example
of each game, the database made by a first tick); each round runs, in fresh processes and alternately,
`python -m pbem tick` in that folder, the same in a folder where a game is running and nothing is due (a
deadline days away, no reminder owed: the usual cron pass of a live game), the floor `python -c 'import email, sqlite3, jinja2'` (what any
mail tool in Python with templates loads) and `python -c pass`.  The figure is the CPU time (user + system)
of each child (``getrusage(RUSAGE_CHILDREN)`` deltas), the median over rounds, and the median of the
per-round ratios tick / floor; the target is 2.  ``--compare`` runs another checkout's tick (its ``pbem``
package first on ``PYTHONPATH``) in the same rounds: before and after side by side.

    .venv/bin/python -m bench coldstart [--coldstart-rounds 15] [--compare ../other-checkout]
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.harness import ROOT, Options, Report

TARGET = 2.0  # an empty-inbox tick costs at most twice the floor (issue #24)
FLOOR = "import email, sqlite3, jinja2"


def _child_cpu(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one child process run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env(checkout: Path | None) -> dict[str, str]:
    # bytecode written and read, as an installed pbem has it (pip compiles it at install; a checkout run
    # with PYTHONDONTWRITEBYTECODE would compile every module at every start and measure that instead)
    env = {k: v for k, v in os.environ.items() if k not in ("PBEM_CONFIG", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    return env


GAME = """
[games.pmb1]
ruleset = "pmb"
mj = "mj@example.org"
reminder_hours = [24]
[games.pmb1.deadlines]
turn = "7d@21:00"
"""
"""The running game's table: a step of a week, its reminder a day before the deadline (none is owed)."""

_START = """
import sys
from pbem.cli import main

def run(*args):
    try:
        main(list(args))
    except SystemExit as e:
        if e.code:
            raise

run("game", "new", "pmb1")
for i in range(12):
    run("player", "add", "pmb1", f"p{i}", f"p{i}@example.org")
run("game", "start", "pmb1")
run("tick")
"""
"""A game of Pour Ma Belle registered and started, its first letters sent, in one process (12 players)."""


def measure(rounds: int, compare: Path | None) -> dict[str, list[float]]:
    """CPU seconds of each kind of run, one list per kind, the rounds alternating between them."""
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="pbem-coldstart-") as tmp:
        env = _env(None)
        this = _env(ROOT)  # this checkout's pbem, whichever one the venv was installed from

        def init(name: str, checkout_env: dict[str, str]) -> Path:
            """A `pbem init` folder of the checkout's own (a newer pbem's database is not an older one's)."""
            folder = Path(tmp) / name
            subprocess.run([py, "-m", "pbem", "init", str(folder)], env=checkout_env, check=True,
                           stdout=subprocess.DEVNULL)
            return folder

        def running(name: str, checkout_env: dict[str, str]) -> Path:
            """An init folder with a game running, nothing due for days."""
            folder = init(name, checkout_env)
            with (folder / "config.toml").open("a", encoding="utf-8") as f:
                f.write(GAME)
            subprocess.run([py, "-c", _START], cwd=folder, env=checkout_env, check=True, stdout=subprocess.DEVNULL)
            return folder

        tick = [py, "-m", "pbem", "tick"]
        folder = init("jeu", this)
        runs: dict[str, tuple[list[str], dict[str, str], Path]] = {"tick": (tick, this, folder)}
        runs["tick, a game"] = (tick, this, running("jeu-partie", this))
        if compare is not None:
            runs["tick (compared)"] = (tick, _env(compare), init("compared", _env(compare)))
            runs["tick, a game (compared)"] = (tick, _env(compare), running("compared-partie", _env(compare)))
        runs["floor"] = ([py, "-c", FLOOR], env, folder)
        runs["python -c pass"] = ([py, "-c", "pass"], env, folder)
        for argv, e, where in runs.values():  # the database, the bytecode caches: a cron's pass is never the first
            _child_cpu(argv, where, e)
            _child_cpu(argv, where, e)
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(rounds):
            for name, (argv, e, where) in runs.items():
                cpu[name].append(_child_cpu(argv, where, e))
    return cpu


def section(rounds: int, compare: Path | None, say: Callable[[str], None],
            row: Callable[..., None]) -> None:
    say(f"\n[12] cold start: an empty-inbox `pbem tick` in a `pbem init` folder (and with a game running, "
        f"nothing due), CPU of the child, median of {rounds} rounds")
    cpu = measure(rounds, compare)
    floor = cpu["floor"]
    for name, values in cpu.items():
        ratios = [v / f for v, f in zip(values, floor, strict=True)]
        say(f"  {name:<23} {statistics.median(values) * 1000:7.1f} ms CPU   ×{statistics.median(ratios):.2f} "
            f"the floor (per-round ratios {min(ratios):.2f}–{max(ratios):.2f})")
    for name, what in (("tick", "empty-inbox tick / import floor"),
                       ("tick, a game", "the same, a game running, nothing due")):
        ratio = statistics.median(t / f for t, f in zip(cpu[name], floor, strict=True))
        row("12 cold start", what,
            f"{statistics.median(cpu[name]) * 1000:.0f} ms vs {statistics.median(floor) * 1000:.0f} ms: ×{ratio:.2f}",
            f"≤ ×{TARGET:g}", ratio <= TARGET)
        if compare is not None:
            before = statistics.median(t / f for t, f in zip(cpu[f"{name} (compared)"], floor, strict=True))
            row("12 cold start", "the same, compared checkout",
                f"{statistics.median(cpu[f'{name} (compared)']) * 1000:.0f} ms: ×{before:.2f}", "", None)


def run(opts: Options, report: Report) -> None:
    section(opts.coldstart_rounds, opts.compare, report.say, report.row)
