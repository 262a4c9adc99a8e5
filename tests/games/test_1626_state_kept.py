"""A 1626 session's state is written once per mail, in the test's record (its change, or at a checkpoint the
whole state): the game row names that record instead of holding the whole text again (issue #24), and a fresh
process reads the very same text back."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

from pbem.demo import MJ_ADDRESS, SEED, Demo
from pbem.store import Store
from pbem.store.records import ACTION_CHECKPOINT

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"Armand": "joueur0@example.org", "Isaac": "joueur1@example.org"}
TESTS = ["Escrime AG SR 15", "Vigilance PE SR 17", "Baratin CH SR 12 SECRET", "FO SR 14"]


def _session(tmp_path: Path, tests: int) -> Demo:
    d = Demo(tmp_path / "1626", "gant", {"ruleset": "1626", "tag": "1626", "registration": "1d",
                                         "roster": str(ROOT / "data/1626/personnages.toml")})
    d.engine.new_game("gant", d.now, seed=SEED)
    for name, address in PLAYERS.items():
        d.mail(address, f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.engine.start_game("gant", d.now)
    d.tick()
    names = list(PLAYERS)
    for k in range(tests):
        d.mail(MJ_ADDRESS, f"TEST {names[k % len(names)]} {TESTS[k % len(TESTS)]}", f"test {k}")
        d.tick()
    return d


def _row(database: Path) -> tuple[str | None, int | None]:
    con = sqlite3.connect(database)
    try:
        state, state_from = con.execute("select state, state_from from games where id = 'gant'").fetchone()
    finally:
        con.close()
    return state, state_from


def test_the_game_row_names_the_last_test_and_a_fresh_store_reads_the_same_state(tmp_path: Path) -> None:
    d = _session(tmp_path, ACTION_CHECKPOINT + 7)  # (past a checkpoint: a whole state, then changes again)
    here = d.store.game("gant")
    assert here is not None and here.state is not None
    last = max(r.seq for r in d.store.records("gant"))
    assert _row(d.config.database) == (None, last)  # the state is in the record, not written whole again
    fresh = Store(d.config.database)
    try:
        there = fresh.game("gant")
        assert there is not None and there.state == here.state  # byte for byte
        assert there.state == json.dumps(json.loads(here.state), sort_keys=True, ensure_ascii=False,
                                         separators=(",", ":"))
        assert len(json.loads(there.state)["history"]) >= ACTION_CHECKPOINT + 7
    finally:
        fresh.close()
    # a state changed otherwise (not by an immediate order) is written whole, and read back as written
    other = json.dumps({**json.loads(here.state), "note": "é"}, sort_keys=True, ensure_ascii=False,
                       separators=(",", ":"))
    with d.store.atomic():
        d.store.save_game(dataclasses.replace(here, state=other))
    assert _row(d.config.database) == (other, None)
    fresh = Store(d.config.database)
    try:
        again = fresh.game("gant")
        assert again is not None and again.state == other
    finally:
        fresh.close()
    d.close()


def test_a_fresh_process_goes_on_with_the_session(tmp_path: Path) -> None:
    """The next mail's test, read by a store that never saw the state's text (the next cron pass), gives the
    state one store gives."""
    from pbem.engine import Engine

    whole = _session(tmp_path / "one", 13)
    split = _session(tmp_path / "two", 12)
    split.store.close()
    split.store = Store(split.config.database)
    split.engine = Engine(split.config, split.store)
    split.mail(MJ_ADDRESS, f"TEST Armand {TESTS[12 % len(TESTS)]}", "test 12")
    split.tick()
    a, b = whole.store.game("gant"), split.store.game("gant")
    assert a is not None and b is not None and a.state == b.state
    assert _row(split.config.database)[0] is None
    whole.close()
    split.close()
