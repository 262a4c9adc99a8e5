"""A pass killed while writing to the Maildir outbox leaves a half-written file in tmp/: the next pass removes it
as it starts (never a file being written, never one elsewhere), and says so."""

from __future__ import annotations

import os
import time

from helpers import make_config

from pbem.daemon import STALE_OUTBOX_SECONDS, tick
from pbem.store import Store


def test_a_pass_starts_by_removing_what_a_killed_pass_left_half_written(tmp_path):
    cfg = make_config(tmp_path)
    tmp = tmp_path / "outbox" / "tmp"
    tmp.mkdir(parents=True)
    for d in ("new", "cur"):
        (tmp_path / "outbox" / d).mkdir()
    stale = tmp / "1700000000.M1P1.host"
    fresh = tmp / "1700000001.M2P2.host"
    stale.write_bytes(b"From: half")
    fresh.write_bytes(b"From: being written")
    old = time.time() - 2 * STALE_OUTBOX_SECONDS  # twenty minutes: killed during the last pass
    os.utime(stale, (old, old))
    (tmp_path / "outbox" / "new" / "1699999999.M0P0.host").write_bytes(b"From: sent")
    os.utime(tmp_path / "outbox" / "new" / "1699999999.M0P0.host", (old, old))
    store = Store(cfg.database)
    report = tick(cfg, store)
    store.close()
    assert report.cleaned == 1 and not stale.exists() and fresh.exists()
    assert (tmp_path / "outbox" / "new" / "1699999999.M0P0.host").exists()  # mail sent stays
    assert "1 half-written outbox file of a killed pass removed" in report.summary()
