"""The real `pbem tick` killed with SIGKILL at several points, then run again.

Checks: every order is kept, the turn is resolved once, each mail is sent at least once and
every copy of a mail (same Message-ID) has the same content.  Mail goes out through the real
SMTP sink, so duplicates are counted where a recipient would see them.
"""

from __future__ import annotations

import email
import mailbox
import signal
import subprocess
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import make_mail, pbem_command, pbem_env

from pbem import config as configmod
from pbem.engine import Engine
from pbem.store import Store

pytestmark = pytest.mark.mail
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def _tick(cfg_path: Path, now: datetime, crash: str | None) -> int:
    env = pbem_env(PBEM_CRASH_AT=crash) if crash else pbem_env()
    proc = subprocess.run(pbem_command(cfg_path, "tick", "--now", now.isoformat()), env=env, capture_output=True,
                          text=True, timeout=120)
    if crash:
        assert proc.returncode == -signal.SIGKILL, (crash, proc.returncode, proc.stdout, proc.stderr)
    else:
        assert proc.returncode == 0, proc.stderr
    return proc.returncode


def _sink_copies(mail_env, game_id: str) -> dict[str, list[bytes]]:
    copies: dict[str, list[bytes]] = {}
    box = mailbox.Maildir(mail_env.sink_maildir, create=False)
    for key in box.keys():
        raw = box.get_bytes(key)
        msg = email.message_from_bytes(raw)
        if msg["X-PBEM-Game"] != game_id:
            continue
        # the sink prepends its own two X-Sink-* lines: compare what pbem sent
        body = b"\n".join(line for line in raw.split(b"\n") if not line.startswith(b"X-Sink-"))
        copies.setdefault(msg["Message-ID"], []).append(body)
    return copies


def test_sigkill_at_every_stage_loses_nothing_and_changes_nothing(tmp_path, mail_env):
    game_id = "crash" + uuid.uuid4().hex[:8]
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(f"""
[pbem]
database = "{tmp_path}/db.sqlite"
address = "game@{mail_env.domain}"
forum_dir = "{tmp_path}/forum"
[mailbox]
kind = "maildir"
path = "{tmp_path}/inbox"
[outbox]
kind = "smtp"
host = "{mail_env.host}"
port = {mail_env.smtp_port}
security = "none"
[games.{game_id}]
ruleset = "toy"
tag = "TOY"
mj = "mj@{mail_env.domain}"
registration = "1d"
early_resolution = false
[games.{game_id}.deadlines]
turn = "2d"
""")
    cfg = configmod.load(cfg_path)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game(game_id, T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran", "Cersei"]):
        engine.add_player(game_id, name, f"p0{i + 1}@{mail_env.domain}", T0)
    engine.start_game(game_id, T0)
    store.close()
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    for i in range(3):
        inbox.add(make_mail(f"p0{i + 1}@{mail_env.domain}", f"GUESS {i + 3}", message_id=f"<o{i}@{game_id}>"))

    _tick(cfg_path, T0, "after-fetch")           # mail stored, nothing processed
    _tick(cfg_path, T0, "between-messages:2")    # inside the batch, after its 2nd message: nothing committed
    _tick(cfg_path, T0, "batch-before-commit")   # answers queued and messages marked, but not committed
    store = Store(cfg.database)
    try:  # both kills inside the batch rolled it back whole
        assert store.message_count("new") == 3 and not [i for i in store.outbox_items() if i.kind == "ack"]
        assert store.current_orders(game_id, 1) == {}
    finally:
        store.close()
    _tick(cfg_path, T0, "after-message:1")       # the batch processed and committed, then killed
    _tick(cfg_path, T0, "mid-send:2")            # killed after the 2nd SMTP send, before its bookkeeping
    _tick(cfg_path, T0 + timedelta(days=2), "mid-resolution")  # killed inside the resolution transaction
    _tick(cfg_path, T0 + timedelta(days=2), "mid-send:4")
    _tick(cfg_path, T0 + timedelta(days=2), None)
    _tick(cfg_path, T0 + timedelta(days=2, minutes=5), None)

    store = Store(cfg.database)
    try:
        assert store.message_count() == 3 and store.message_count("new") == 0
        recs = store.records(game_id, "step")
        assert [r.turn for r in recs] == [1]  # resolved exactly once
        orders = recs[0].orders
        assert {p: o.orders[0].args for p, o in orders.items()} == {"Arya": (3,), "Bran": (4,), "Cersei": (5,)}
        assert all(o.source == "mail" for o in orders.values())
        items = store.outbox_items(game=game_id)
        assert items and all(i.status == "sent" for i in items)
        acks = [i for i in items if i.kind == "ack"]
        assert len(acks) == 3
        copies = _sink_copies(mail_env, game_id)
        assert set(copies) == {i.id for i in items}  # each mail sent at least once
        assert all(len(set(c)) == 1 for c in copies.values())  # and never with a different content
        # a mail goes twice only when a kill falls between its SMTP send and its bookkeeping: each of the two
        # mid-send kills re-sends exactly the mail it interrupted, and no other kill re-sends anything
        duplicated = sum(len(c) - 1 for c in copies.values())
        assert duplicated == 2, {mid: len(c) for mid, c in copies.items() if len(c) > 1}
        assert max(len(c) for c in copies.values()) == 2
    finally:
        store.close()
