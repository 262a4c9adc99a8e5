"""Stored mail: its bytes kept apart from its row, read back whole, and databases made before that still read."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from pbem.store import Store

T1 = datetime(2026, 12, 4, 20, 0, tzinfo=UTC)


def test_a_message_is_stored_once_and_read_back_byte_for_byte(tmp_path):
    store = Store(tmp_path / "db.sqlite")
    assert store.store_raw([("k1", b"From: a@b\n\nhi\n"), ("k2", b"\x00\xff")], T1) == 2
    assert store.store_raw([("k1", b"other bytes"), ("k3", b"x")], T1.replace(minute=1)) == 1  # k1 kept
    assert store.pending_messages() == [("k1", b"From: a@b\n\nhi\n", T1), ("k2", b"\x00\xff", T1),
                                        ("k3", b"x", datetime(2026, 12, 4, 20, 1, tzinfo=UTC))]
    store.mark_message("k1", message_id="<m1>", status="done", game="g", sender="a@b", verdict="ok",
                       processed_at=datetime(2026, 12, 4, 20, 2, tzinfo=UTC))
    assert [key for key, _raw, _at in store.pending_messages()] == ["k2", "k3"]
    assert store.message_raw("k1") == b"From: a@b\n\nhi\n"  # processed, the bytes stay (pbem mail retry, export)
    assert store.message_raw("nope") is None


def test_a_database_made_before_the_bytes_had_their_own_table_keeps_every_message(tmp_path):
    path = tmp_path / "db.sqlite"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE [messages] ([key] TEXT PRIMARY KEY, [message_id] TEXT, [received_at] TEXT, [raw] BLOB,
          [size] INTEGER, [status] TEXT, [game] TEXT, [sender] TEXT, [verdict] TEXT, [processed_at] TEXT);
        CREATE INDEX [idx_messages_message_id] ON [messages] ([message_id]);
        CREATE INDEX [idx_messages_status] ON [messages] ([status]);
        INSERT INTO messages VALUES ('z', '', '2026-12-04T20:00:00+00:00', X'01', 1, 'new', '', '', '', '');
        INSERT INTO messages VALUES ('a', '<a>', '2026-12-04T20:00:00+00:00', X'02', 1, 'done', 'g', 's@x', 'ok',
                                     '2026-12-04T20:05:00+00:00');
        INSERT INTO messages VALUES ('m', '', '2026-12-04T20:00:00+00:00', X'03', 1, 'new', '', '', '', '');
    """)
    old.commit()
    old.close()
    store = Store(path)
    # same rows, same order (the rowid breaks ties of receipt time), same indexes, the bytes moved
    assert store.pending_messages() == [("z", b"\x01", T1), ("m", b"\x03", T1)]
    assert store.message_raw("a") == b"\x02"
    assert [m.key for m in store.messages("done")] == ["a"]
    assert "raw" not in store.db.table("messages").columns_dict
    assert {tuple(i.columns) for i in store.db.table("messages").indexes} >= {("message_id",), ("status",)}
    store.close()
    assert Store(path).pending_messages() == [("z", b"\x01", T1), ("m", b"\x03", T1)]  # opened again: as it was
