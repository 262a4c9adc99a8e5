"""Figure 14: what a live archive costs a pass that publishes a step, early and late in a game (issue #24).

A game of Pour le Roi (et Moi) whose five players stay silent (every step resolved on its defaults at its
deadline, so it runs past a hundred steps) is played through the real engine; with ``archive_dir`` the
pass after each published step refreshes the archive (`pbem.archive.live.refresh`).  At ``N`` and ``2N``
steps, ``--archive-rounds`` steps are each published and followed by that refresh, timed (CPU time, median):
the per-publish cost and its growth from ``N`` to ``2N`` steps (target: at most ×1.2), and the pictures it drew
(target: the new step's alone).  Beside it, a build into an empty folder at ``2N`` steps: what each refresh cost before the archive
kept the pictures whose inputs had not changed (it drew every step's picture again).

    .venv/bin/python -m bench archive [--archive-steps 55]

``--quick`` plays 3 and 6 steps, one round each.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from bench.harness import Options, Report

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
GROWTH_TARGET = 1.2  # the cost at 2N steps over the cost at N (issue #24: "the same, however long the game")
NAMES = ["Colbert", "Fouquet", "Louvois", "Séguier", "Vauban"]


class Silent:
    """A game of Pour le Roi through the real engine, its players silent, its archive kept live."""

    def __init__(self, root: Path) -> None:
        from pbem import config as configmod
        from pbem.engine import Engine
        from pbem.store import Store

        cfg = configmod.parse({
            "pbem": {"database": str(root / "db.sqlite"), "address": "jeu@example.org", "forum_dir": str(root / "forum")},
            "mailbox": {"kind": "maildir", "path": str(root / "in")},
            "outbox": {"kind": "maildir", "path": str(root / "out")},
            "games": {"roi": {"ruleset": "pourleroi", "tag": "ROI", "mj": "mj@example.org", "registration": "1d",
                              "deadlines": {"turn": "1d"}}}}, root)
        self.store = Store(cfg.database)
        self.engine = Engine(cfg, self.store)
        self.www = root / "www"
        self.now = T0
        self.engine.new_game("roi", T0, seed="5eed" * 16)
        for i, name in enumerate(NAMES):
            m = EmailMessage()
            m["From"], m["To"], m["Subject"] = f"joueur{i}@example.org", "jeu@example.org", "[ROI] inscription"
            m["Message-ID"] = f"<bench-archive-{i}@example.org>"
            m.set_content(f"INSCRIPTION {name}")
            self.store.store_raw([(f"r{i}", m.as_bytes())], T0)
        self.engine.process_pending(T0)
        self.engine.start_game("roi", T0)

    def steps(self) -> int:
        return sum(1 for r in self.store.records("roi") if r.kind != "action" and r.published)

    def step(self) -> None:
        g = self.engine.game("roi")
        if g.phase != "running" or g.deadline is None:
            raise RuntimeError(f"the benchmark's game ended after {self.steps()} steps")
        self.now = max(self.now + timedelta(minutes=5), g.deadline.astimezone(UTC))
        self.engine.due(self.now)

    def refresh(self) -> tuple[float, int]:
        """One pass's refresh of the live archive: (seconds, pictures drawn)."""
        from pbem import pictures
        from pbem.archive import live

        drawn = [0]
        real = pictures.board_picture

        def counted(*args: Any) -> Any:
            drawn[0] += 1
            return real(*args)

        pictures.board_picture = counted  # type: ignore[assignment]
        try:
            t0 = time.process_time()  # (the CPU of this process: the early and late rounds are minutes apart, and
            live.refresh(self.engine, "roi", self.www)  # a shared machine's load changes meanwhile)
            return time.process_time() - t0, drawn[0]
        finally:
            pictures.board_picture = real

    def publishes(self, rounds: int) -> tuple[float, int]:
        """``rounds`` steps, each published then refreshed: (median seconds of a refresh, most pictures drawn)."""
        times, drawn = [], []
        for _ in range(rounds):
            self.step()
            seconds, n = self.refresh()
            times.append(seconds)
            drawn.append(n)
        return statistics.median(times), max(drawn)

    def from_scratch(self, folder: Path) -> float:
        from pbem.archive import build

        t0 = time.process_time()
        build(self.engine, "roi", folder)
        return time.process_time() - t0


def measure(n: int, rounds: int, root: Path) -> dict[str, float]:
    game = Silent(root)
    try:
        out: dict[str, float] = {}
        for label, size in (("early", n), ("late", 2 * n)):
            while game.steps() < size - 1:
                game.step()
            game.refresh()  # (the archive as the pass before left it)
            out[f"{label}_steps"] = game.steps() + 1
            out[label], out[f"{label}_drawn"] = game.publishes(rounds)
        out["scratch"] = game.from_scratch(root / "scratch")
        out["scratch_steps"] = game.steps()
        return out
    finally:
        game.store.close()


def run(opts: Options, report: Report) -> None:
    n, rounds = opts.archive_steps, opts.archive_rounds
    with tempfile.TemporaryDirectory(prefix="pbem-archive-") as tmp:
        m = measure(n, rounds, Path(tmp))
    growth = m["late"] / m["early"]
    report.say(f"\n[14] live archive: a step published, then the pass's refresh (median of {rounds}), "
               "Pour le Roi, five silent players")
    report.say(f"  at {m['early_steps']:.0f} steps: {m['early'] * 1000:7.1f} ms, {m['early_drawn']:.0f} picture(s) drawn")
    report.say(f"  at {m['late_steps']:.0f} steps: {m['late'] * 1000:7.1f} ms, {m['late_drawn']:.0f} picture(s) drawn "
               f"(×{growth:.2f})")
    report.say(f"  a build into an empty folder at {m['scratch_steps']:.0f} steps (every picture drawn, as each "
               f"refresh did before): {m['scratch'] * 1000:7.1f} ms")
    report.row("14 live archive", f"a publish at {m['late_steps']:.0f} vs {m['early_steps']:.0f} steps, CPU",
               f"{m['late'] * 1000:.0f} / {m['early'] * 1000:.0f} ms ×{growth:.2f}",
               f"<= ×{GROWTH_TARGET:g}", growth <= GROWTH_TARGET)
    report.row("14 live archive", "pictures drawn by a publish, early / late",
               f"{m['early_drawn']:.0f} / {m['late_drawn']:.0f}", "1 / 1", m["early_drawn"] == m["late_drawn"] == 1)
    report.row("14 live archive", f"empty-folder build at {m['scratch_steps']:.0f} steps",
               f"{m['scratch'] * 1000:.0f} ms (×{m['scratch'] / m['late']:.1f} a publish)")
