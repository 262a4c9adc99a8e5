"""A step's state before is kept once (issue #24): the state after the record before it, which the table already
keeps, is not written again; every reader gets it back whole, old databases are compacted when opened, and a
correction of a step keeps whole the state before of the step after it."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from pbem.demo import COURTISANS, COURTISANS_GAME, Demo, play_bot_game
from pbem.games.courtisans.bots import random_orders
from pbem.store import Store


def _game(root: Path) -> Demo:
    return play_bot_game(root, "courtisans", COURTISANS_GAME, COURTISANS, random_orders, 4)


def _whole_befores(path: Path) -> int:
    """How many steps' rows hold a state before of their own."""
    con = sqlite3.connect(path)
    try:
        return int(con.execute("select count(*) from records where kind = 'step' and state_before is not null")
                   .fetchone()[0])
    finally:
        con.close()


def test_a_step_keeps_its_state_before_once_and_every_reader_gets_it_whole(tmp_path: Path) -> None:
    d = _game(tmp_path / "g")
    try:
        recs = d.store.records("courtisans")
        steps = [r for r in recs if r.kind == "step"]
        assert len(steps) == 4
        assert _whole_befores(d.config.database) == 0
        for before, rec in zip(recs, recs[1:], strict=False):
            if rec.kind == "step":
                assert rec.state_before is not None and rec.state_before == before.state_after
        assert [r.state_before for r in d.store.records("courtisans", "step")] == [r.state_before for r in steps]
        assert d.store.record_for_turn("courtisans", 2) == steps[1]
        assert d.store.last_step("courtisans") == steps[-1]
        assert d.store.record("courtisans", steps[0].seq) == steps[0]
        data = d.store.records_data("courtisans")
        assert [x["state_before"] is not None for x in data] == [r.kind == "step" for r in recs]
        assert d.engine.verify("courtisans") == []
    finally:
        d.close()


def test_a_database_of_schema_5_is_compacted_when_opened_and_reads_the_same(tmp_path: Path) -> None:
    d = _game(tmp_path / "g")
    path = d.config.database
    recs, data = d.store.records("courtisans"), d.store.records_data("courtisans")
    d.close()
    con = sqlite3.connect(path)  # as pbem wrote it at schema 5: every step's state before whole
    for rec in recs:
        con.execute("update records set state_before = ? where game = ? and seq = ?",
                    [rec.state_before, rec.game, rec.seq])
    con.execute("drop index journal_by_action")
    con.execute("pragma user_version = 5")
    con.commit()
    con.close()
    assert _whole_befores(path) == 4
    store = Store(path)
    try:
        assert _whole_befores(path) == 0
        assert store.records("courtisans") == recs and store.records_data("courtisans") == data
    finally:
        store.close()


def test_a_step_corrected_leaves_the_state_before_of_the_step_after_it_as_it_was(tmp_path: Path) -> None:
    d = _game(tmp_path / "g")
    try:
        recs = d.store.records("courtisans", "step")
        changed = dataclasses.replace(recs[1], state_after=recs[1].state_after.replace("}", ' }', 1))
        d.store.replace_record(changed, at=datetime(2026, 12, 24, tzinfo=UTC), by="mj")
        again = d.store.records("courtisans", "step")
        assert again[1] == changed and again[2].state_before == recs[2].state_before != changed.state_after
        assert again[0] == recs[0] and again[3] == recs[3]
        replaced = d.store.journal("courtisans", "rerun publish")[0].detail["replaced"]
        assert replaced["state_before"] == recs[1].state_before
    finally:
        d.close()
