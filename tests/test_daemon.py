"""`pbem run` for real: a subprocess on the embedded default answers a dropped .eml, then stops on SIGTERM."""

from __future__ import annotations

import mailbox
import os
import signal
import subprocess
import time

from helpers import make_mail, pbem_command, pbem_env


def test_daemon_answers_mail_dropped_in_the_maildir_and_stops_cleanly(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"""
[pbem]
database = "{tmp_path}/db.sqlite"
address = "jeu@pbem.test"
poll_seconds = 1
[mailbox]
kind = "maildir"
path = "{tmp_path}/inbox"
[outbox]
kind = "maildir"
path = "{tmp_path}/outbox"
[games.toy1]
ruleset = "toy"
tag = "TOY"
mj = "mj@pbem.test"
""")
    subprocess.run(pbem_command(cfg, "game", "new", "toy1"), env=pbem_env(), check=True, capture_output=True)
    proc = subprocess.Popen(pbem_command(cfg, "run"), env=pbem_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(1.5)
        inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
        inbox.add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
        outbox_new = tmp_path / "outbox" / "new"
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not (outbox_new.exists() and any(outbox_new.iterdir())):
            time.sleep(0.2)
        answers = list(outbox_new.iterdir())
        assert len(answers) == 1
        assert b"sous le nom Arya" in answers[0].read_bytes().replace(b"=\n", b"")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert "pbem daemon started" in out


def test_a_cron_pass_after_the_deadline_counts_mail_by_when_it_arrived(tmp_path):
    """Mail that reached the Maildir before the deadline counts for the closing step even if the cron pass
    that reads it comes later; mail that arrived after the deadline counts for the next step."""
    import mailbox
    from datetime import UTC, datetime, timedelta

    from helpers import make_config

    from pbem.core import Order
    from pbem.daemon import tick
    from pbem.engine import Engine
    from pbem.store import Store

    t0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", t0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", t0)
    e.start_game("toy1", t0)
    deadline = t0 + timedelta(days=2)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    on_time = inbox.add(make_mail("p0@pbem.test", "GUESS 7", message_id="<on-time@x>"))
    late = inbox.add(make_mail("p1@pbem.test", "GUESS 2", message_id="<late@x>"))
    for key, when in ((on_time, deadline - timedelta(minutes=2)), (late, deadline + timedelta(minutes=2))):
        path = tmp_path / "inbox" / "new" / key
        os.utime(path, (when.timestamp(), when.timestamp()))
    tick(cfg, store, deadline + timedelta(minutes=5))  # cron ran 5 minutes after the deadline
    rec = store.record_for_turn("toy1", 1)
    assert rec.orders["Arya"].orders == (Order("GUESS", (7,), "GUESS 7"),)  # arrived in time: counted
    assert rec.defaults == ("Bran",)  # arrived late: not for step 1
    store.close()
