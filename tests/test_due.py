"""A pass decides from the database alone whether the engine has work (`pbem.due`, issue #24): it must never
skip what the engine would have done.

Each game here is swept every half hour over its first steps; at each instant the pass's reading is asked
first, then the engine fires what is due and writes the forum files, as a pass does.  Whenever the reading
said "nothing", the engine did nothing: no line fired, no mail queued, no file written.  The sweep also
shows that things did fire (reminders, grace notices, resolutions, pauses, the MJ's reminder), so the
agreement was put to the test.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from helpers import make_config
from mjseat_helpers import PLAYERS, T0, Table

from pbem.due import engine_work
from pbem.engine import Engine
from pbem.store import Store

HALF_HOUR = timedelta(minutes=30)


def _sweep(cfg, store, engine, start: datetime, days: float) -> list[str]:  # type: ignore[no-untyped-def]
    """Every half hour from ``start``: what fired (the instants the reading said "nothing" fire nothing)."""
    fired: list[str] = []
    at = start
    while at <= start + timedelta(days=days):
        expected = engine_work(cfg, store, at)
        queued = len(store.outbox_items())
        done = engine.due(at)
        written = engine.write_forum("toy1")
        if not expected:
            assert (done, written, len(store.outbox_items())) == ([], [], queued), at
        fired += done
        at += HALF_HOUR
    return fired


def _table_sweep(t: Table, days: float = 7) -> list[str]:
    try:
        return _sweep(t.cfg, t.store, t.engine, T0, days)
    finally:
        t.close()


def test_reminders_and_resolutions_fire_only_when_the_reading_says_so(tmp_path):
    fired = _table_sweep(Table(tmp_path, reminder_hours=[24, 2]))
    assert "toy1: 3 reminders" in fired and any("resolved" in f for f in fired)


def test_the_grace_period_and_its_notice(tmp_path):
    fired = _table_sweep(Table(tmp_path, grace="3h", reminder_hours=[6]))
    assert "toy1: 3 grace notices" in fired and any("resolved" in f for f in fired)


def test_early_resolution_when_every_order_is_in(tmp_path):
    t = Table(tmp_path)
    for address in PLAYERS.values():
        t.mail(address, "GUESS 3")
    early = t.game().early_at
    fired = _table_sweep(t, days=1)
    assert early is not None and early < T0 + timedelta(days=1) and "toy1: turn 1 resolved" in fired


def test_a_pause_that_begins_and_ends(tmp_path):
    t = Table(tmp_path)
    t.engine.pause("toy1", T0 + timedelta(hours=10), T0 + timedelta(days=1, hours=4), "vacances", T0)
    fired = _table_sweep(t, days=5)
    assert {"toy1: pause began", "toy1: play resumed"} <= set(fired)


def test_results_held_for_the_mj_and_his_reminder(tmp_path):
    t = Table(tmp_path, publish="mj", approval_reminder="6h")
    fired = _table_sweep(t, days=5)
    assert "toy1: the MJ reminded that turn 1 waits for approval" in fired


@pytest.mark.parametrize("players", [0, 3])
def test_registration_ends(tmp_path, players):
    """Registration ends at its deadline: the game starts (three players), or registration goes on (none)."""
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0, seed="ab" * 32)
    for name, address in list(PLAYERS.items())[:players]:
        engine.add_player("toy1", name, address, T0)
    try:
        fired = _sweep(cfg, store, engine, T0, 3)
    finally:
        store.close()
    assert fired[0] == "toy1: started" if players else fired[0].startswith("toy1: registration extended")
