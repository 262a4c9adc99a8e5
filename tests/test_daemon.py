"""`pbem run` for real: a subprocess on the embedded default answers a dropped .eml, then stops on SIGTERM."""

from __future__ import annotations

import mailbox
import os
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from helpers import make_mail, pbem_command, pbem_env, toy_config_toml

from pbem.passlock import PassLock
from pbem.store import Store


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
    d = Daemon(tmp_path, verbose=True)  # (this config.toml)
    try:
        d.wait_for("executed successfully")  # its first pass has ended: a later one reads the mail
        inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
        inbox.add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
        outbox_new = tmp_path / "outbox" / "new"
        deadline = time.monotonic() + 60  # (it returns as soon as the answer is there: generous under load)
        while time.monotonic() < deadline and not (outbox_new.exists() and any(outbox_new.iterdir())):
            time.sleep(0.2)
        answers = list(outbox_new.iterdir())
        assert len(answers) == 1
        assert b"sous le nom Arya" in answers[0].read_bytes().replace(b"=\n", b"")
        d.proc.send_signal(signal.SIGTERM)
        assert d.ended(timeout=20) == 0, "".join(d.seen)
    finally:
        d.kill()
    assert "démon pbem lancé" in "".join(d.seen) + d.lines_left()


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


# ---------------------------------------------------------------- stopping: SIGTERM during a pass, a second signal


class Daemon:
    """A real `pbem run` on local Maildirs whose output is read line by line as it comes."""

    def __init__(self, tmp_path: Path, *, top: str = "poll_seconds = 60", verbose: bool = False, **env: str) -> None:
        self.tmp = tmp_path
        self.cfg = tmp_path / "config.toml"
        if not self.cfg.exists():
            self.cfg.write_text(toy_config_toml(tmp_path, top=top))
            subprocess.run(pbem_command(self.cfg, "game", "new", "toy1"), env=pbem_env(), check=True,
                           capture_output=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        args = ("run", "-v") if verbose else ("run",)  # (-v: the scheduler's own lines too)
        self.proc = subprocess.Popen(pbem_command(self.cfg, *args), env=pbem_env(**env), stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")  # end of output

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """The first line holding ``text`` (fails after ``timeout`` s, a generous bound, or at the end of output)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                pytest.fail(f"no line with {text!r} within {timeout} s; output so far: {''.join(self.seen)}")
            if not line:
                pytest.fail(f"pbem run ended without {text!r}: {''.join(self.seen)}")
            self.seen.append(line)
            if text in line:
                return line

    def ended(self, timeout: float) -> int:
        """The exit status, waiting at most ``timeout`` s (the test fails if the daemon is still running)."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"pbem run still running {timeout} s after it was told to stop: {''.join(self.seen)}")

    def lines_left(self) -> str:
        """What the daemon wrote after the last line read (once it has ended)."""
        rest = []
        while True:
            try:
                line = self.lines.get(timeout=5)
            except queue.Empty:
                break
            if not line:
                break
            rest.append(line)
        self.seen += rest
        return "".join(rest)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _answers(tmp_path: Path) -> list[bytes]:
    new = tmp_path / "outbox" / "new"
    return [p.read_bytes().replace(b"=\n", b"") for p in new.iterdir()] if new.exists() else []


def _tick_once(tmp_path: Path) -> None:
    done = subprocess.run(pbem_command(tmp_path / "config.toml", "tick"), env=pbem_env(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_sigterm_during_a_pass_ends_the_daemon_and_the_next_pass_does_the_rest(tmp_path):
    """SIGTERM while a pass is long (here 3 s at « after-fetch »): the pass stops at its next stage, the daemon
    exits 0 instead of hanging in APScheduler's shutdown, and the mail it had stored is answered next time."""
    mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    d = Daemon(tmp_path, PBEM_PAUSE_AT="after-fetch:3")
    try:
        mailbox.Maildir(str(tmp_path / "inbox")).add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
        d.wait_for("pause point after-fetch")  # the first pass has fetched the mail and now takes its time
        d.proc.send_signal(signal.SIGTERM)
        assert d.ended(timeout=30) == 0, "".join(d.seen)
    finally:
        d.kill()
    out = "".join(d.seen) + d.lines_left()
    assert "démon pbem\u00a0: arrêt demandé (SIGTERM)" in out and "démon pbem arrêté" in out
    assert "Traceback" not in out
    assert _answers(tmp_path) == []  # stopped before processing: nothing answered yet...
    store = Store(tmp_path / "db.sqlite")
    try:
        assert store.message_count() == 1  # ...but the mail is stored, not lost
    finally:
        store.close()
    _tick_once(tmp_path)
    (answer,) = _answers(tmp_path)
    assert b"sous le nom Arya" in answer


@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGINT])
def test_a_second_signal_ends_the_daemon_at_once(tmp_path, second):
    """A pass stuck for ten minutes: the first SIGTERM waits for it, the second signal ends the process now
    (as a kill would: the next pass finishes the work, nothing is lost)."""
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
    d = Daemon(tmp_path, PBEM_PAUSE_AT="after-fetch:600")
    try:
        d.wait_for("pause point after-fetch")
        d.proc.send_signal(signal.SIGTERM)
        d.wait_for("arrêt demandé")
        time.sleep(0.5)
        assert d.proc.poll() is None  # the first signal waits for the pass
        d.proc.send_signal(second)
        assert d.ended(timeout=20) == 128 + second
    finally:
        d.kill()
    assert f"second {second.name}, arrêt immédiat" in "".join(d.seen) + d.lines_left()
    _tick_once(tmp_path)
    (answer,) = _answers(tmp_path)
    assert b"sous le nom Arya" in answer


def test_pbem_run_steps_aside_while_another_pass_holds_the_lock_then_works(tmp_path):
    """The pass lock held by a `pbem tick` (here this test): each pass of the daemon says who holds it and
    touches nothing; once it is free, the next timer's pass answers the mail."""
    tmp_path.joinpath("config.toml").write_text(toy_config_toml(tmp_path, top="poll_seconds = 1\nlock_wait_seconds = 0.2"))
    subprocess.run(pbem_command(tmp_path / "config.toml", "game", "new", "toy1"), env=pbem_env(), check=True,
                   capture_output=True)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
    lock = PassLock(tmp_path / "db.sqlite")
    assert lock.acquire(who="pbem tick")
    d = Daemon(tmp_path)
    try:
        line = d.wait_for("passe sautée")
        assert f"pbem tick (pid {os.getpid()}" in line and "le prochain minuteur réessaie" in line
        d.wait_for("passe sautée")  # and again at the next timer: still nothing done
        assert _answers(tmp_path) == []
        store = Store(tmp_path / "db.sqlite")
        assert store.message_count() == 0  # not even fetched
        store.close()
        lock.release()
        deadline = time.monotonic() + 30
        while not _answers(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.2)
        (answer,) = _answers(tmp_path)
        assert b"sous le nom Arya" in answer
        d.proc.send_signal(signal.SIGTERM)
        assert d.ended(timeout=30) == 0
    finally:
        lock.release()
        d.kill()


def test_sigterm_while_a_pass_waits_for_the_lock_does_not_wait_for_it(tmp_path):
    """A pass waiting up to ten minutes for another pass's lock gives up at once when the daemon stops."""
    tmp_path.joinpath("config.toml").write_text(toy_config_toml(tmp_path, top="lock_wait_seconds = 600"))
    subprocess.run(pbem_command(tmp_path / "config.toml", "game", "new", "toy1"), env=pbem_env(), check=True,
                   capture_output=True)
    lock = PassLock(tmp_path / "db.sqlite")
    assert lock.acquire(who="pbem tick")
    d = Daemon(tmp_path, verbose=True)
    try:
        d.wait_for('Running job "run.<locals>.job')  # (APScheduler's line) the first pass has begun...
        time.sleep(1)  # ...and waits for the lock (it would for ten minutes)
        d.proc.send_signal(signal.SIGTERM)
        assert d.ended(timeout=20) == 0
    finally:
        lock.release()
        d.kill()
    assert "passe sautée" not in "".join(d.seen) + d.lines_left()


@pytest.mark.parametrize(("checks", "stopped_before"), [(1, "processing"), (2, "deadlines"), (3, "sending")])
def test_a_pass_told_to_stop_ends_at_the_next_stage_and_the_next_pass_does_the_rest(tmp_path, checks,
                                                                                    stopped_before):
    """`tick(should_stop=…)` (what the daemon passes): the pass ends before the stage where it is first told
    to stop, having committed the ones before; the next pass finishes the work as if nothing happened."""
    from datetime import UTC, datetime

    from helpers import make_config, outbox_messages

    from pbem.daemon import tick
    from pbem.engine import Engine

    t0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    Engine(cfg, store).new_game("toy1", t0, seed="ab" * 32)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("arya@pbem.test", "INSCRIPTION Arya"))
    asked = []

    def should_stop() -> bool:
        asked.append(1)
        return len(asked) >= checks

    rep = tick(cfg, store, t0, should_stop=should_stop)
    assert rep.stopped_before == stopped_before and f"stopped before {stopped_before}" in rep.summary()
    assert rep.fetched == 1 and store.message_count() == 1  # stored whatever happens next
    assert rep.processed == (0 if stopped_before == "processing" else 1)
    assert rep.sent is None and not list((tmp_path / "outbox").glob("new/*"))  # nothing sent yet
    rep = tick(cfg, store, t0)
    assert rep.stopped_before is None and rep.sent is not None and rep.sent.sent == 1
    (ack,) = outbox_messages(store, kind="ack")
    assert "sous le nom Arya" in ack.get_body(("plain",)).get_content()
    store.close()


def test_the_daemon_refreshes_a_live_calendar_after_its_pass(tmp_path):
    """The live files (`pbem.published`) are refreshed by the daemon's pass too, not only by `pbem tick`."""
    ics = tmp_path / "www" / "toy1.ics"
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, top="poll_seconds = 1", game=f'calendar_file = "{ics}"'),
                   encoding="utf-8")
    subprocess.run(pbem_command(cfg, "game", "new", "toy1"), env=pbem_env(), check=True, capture_output=True)
    proc = subprocess.Popen(pbem_command(cfg, "run"), env=pbem_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60  # (it returns as soon as the file is there: generous under load)
        while time.monotonic() < deadline and not ics.exists():
            time.sleep(0.2)
        assert b"toy1-registration@" in ics.read_bytes()
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
