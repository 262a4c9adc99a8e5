"""`pbem run` for real: a subprocess on the embedded default answers a dropped .eml, then stops on SIGTERM."""

from __future__ import annotations

import mailbox
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import make_mail

TESTS = Path(__file__).resolve().parent


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
    env = dict(os.environ, PYTHONPATH=str(TESTS))
    code = "import helpers; from pbem.cli import main; main()"
    subprocess.run([sys.executable, "-c", code, "--config", str(cfg), "game", "new", "toy1"], env=env, check=True,
                   capture_output=True)
    proc = subprocess.Popen([sys.executable, "-c", code, "--config", str(cfg), "run"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
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
        assert b"inscrit sous le nom Arya" in answers[0].read_bytes().replace(b"=\n", b"")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert "pbem daemon started" in out
