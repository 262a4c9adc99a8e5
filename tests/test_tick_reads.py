"""A pass's reads do not grow with how long a game has run (issue #24): a pass with nothing due, and one that
answers a mail, read as many rows on a game after 12 steps as after 2, a live archive configured."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from pbem import published
from pbem.daemon import tick
from pbem.demo import COURTISANS, COURTISANS_GAME, Demo, play_bot_game
from pbem.games.courtisans.bots import random_orders


def _rows_read(conn: sqlite3.Connection, statements: list[str]) -> int:
    """How many rows the pass's reads gave, run again once it is over (the pass read what they give now)."""
    return sum(len(conn.execute(sql).fetchall()) for sql in statements if sql.lstrip().lower().startswith("select")
               and "sqlite_master" not in sql)


def _pass_reads(d: Demo, mail: str | None) -> tuple[int, int]:
    """(statements, rows read) of one pass and the live files' refresh after it, a minute on."""
    if mail is not None:
        d.mail("joueur01@example.org", mail, "ordres")
    statements: list[str] = []
    conn = d.store.db.conn
    conn.set_trace_callback(statements.append)
    d.now += timedelta(minutes=1)
    try:
        tick(d.config, d.store, d.now)
        published.refresh(d.config, d.store, d.now)
    finally:
        conn.set_trace_callback(None)
    return len(statements), _rows_read(conn, statements)


def _game(root: Path, steps: int) -> Demo:
    d = play_bot_game(root, "courtisans", {**COURTISANS_GAME, "archive_dir": str(root / "archive")}, COURTISANS,
                      random_orders, steps)
    assert d.engine.game("courtisans").turn == steps + 1
    _pass_reads(d, None)  # (the archive written: the passes measured find it up to date)
    return d


def test_a_pass_reads_as_much_after_twelve_steps_as_after_two(tmp_path: Path) -> None:
    short, long = _game(tmp_path / "short", 2), _game(tmp_path / "long", 12)
    try:
        assert _pass_reads(long, None) == _pass_reads(short, None)
        assert _pass_reads(long, "AIDE") == _pass_reads(short, "AIDE")
    finally:
        short.close()
        long.close()
