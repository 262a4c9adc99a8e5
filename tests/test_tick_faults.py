"""Passes under faults (issue 12, defects 1, 2, 6 and 7): registration checks, one pass at a time,
safe `mail retry`, From headers without angle brackets, and tick exit codes.

Real `pbem tick` processes (with the toy ruleset) where the lock or the exit code is the point;
the engine and the CLI in-process elsewhere.  Mail goes through local Maildirs.
"""

from __future__ import annotations

import mailbox
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import body, make_config, make_mail, outbox_messages, pbem_command, pbem_env, toy_config_toml

from pbem.cli import main
from pbem.clock import iso, utcnow
from pbem.engine import Engine
from pbem.mail.addresses import address_problem
from pbem.mail.reading import read_message
from pbem.passlock import STUCK_AFTER, PassLock
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)

def _setup(tmp: Path, *, wait: float = 10, players: int = 3) -> Path:
    cfg_path = tmp / "config.toml"
    cfg_path.write_text(toy_config_toml(tmp, top=f"lock_wait_seconds = {wait}", game="early_resolution = false"))
    from pbem import config as configmod

    cfg = configmod.load(cfg_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    for i in range(players):
        eng.add_player("toy1", f"Joueur {i + 1}", f"p{i + 1:02d}@pbem.test", T0)
    eng.start_game("toy1", T0)
    store.close()
    return cfg_path


def _tick(cfg_path: Path, now: datetime) -> subprocess.Popen[str]:
    return subprocess.Popen(pbem_command(cfg_path, "tick", "--now", now.isoformat()), env=pbem_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# ---------------------------------------------------------------- defect 1: addresses at registration


@pytest.mark.parametrize("address,fault,readable", [
    ("josé@exemple.fr", "« é » avant le @", True),
    ("jean.dupont", "il manque le @", False),
    ("jean@exemple", "incomplet", True),
    ("jean dupont@exemple.fr", "une espace", False),
    ("jean..dupont@exemple.fr", "doublé", True),
    ("jean@exem_ple.fr", "mal formé", True),
])
def test_defect1_registration_by_mail_refuses_an_unusable_address_with_the_reason(tmp_path, address, fault,
                                                                                  readable):
    """An address that can be read is answered with what is wrong with it; one that cannot be read as an
    address at all (no @, a space) leaves nobody to answer: the mail is kept, marked, and not answered."""
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    raw = (f"From: Jose <{address}>\r\nTo: jeu@pbem.test\r\nSubject: [TOY] inscription\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nINSCRIPTION Jose\r\n").encode()
    store.store_raw([("k", raw)], T0)
    eng.process_pending(T0)
    assert store.players("toy1") == []
    problem = address_problem(address)
    assert problem is not None and fault in problem.fr.replace("\u00a0", " ")
    sent = outbox_messages(store)
    (stored,) = store.messages()
    assert stored.status == "done"
    assert bool(read_message(raw).from_addr) is readable
    if readable:  # the answer says what is wrong with the address, to that address
        assert len(sent) == 1 and sent[0]["X-PBEM-Kind"] == "ack" and sent[0]["To"] == address
        text = body(sent[0])
        assert "adresse refusée" in text and fault in text
    else:
        assert sent == []
        assert stored.verdict == "silent: no sender address" and stored.sender == ""
    store.close()


def test_defect1_player_add_refuses_an_unusable_address(tmp_path):
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(toy_config_toml(tmp_path, top="lock_wait_seconds = 1", game="early_resolution = false"))
    runner = CliRunner()
    assert runner.invoke(main, ["--config", str(cfg_path), "game", "new", "toy1"]).exit_code == 0
    result = runner.invoke(main, ["--config", str(cfg_path), "player", "add", "toy1", "José", "josé@exemple.fr"])
    assert result.exit_code != 0 and "adresse refusée" in result.output and "avant le @" in result.output
    ok = runner.invoke(main, ["--config", str(cfg_path), "player", "add", "toy1", "José", "jose+pbem@exemple.fr"])
    assert ok.exit_code == 0, ok.output


def test_defect1_ordinary_addresses_pass():
    for address in ("p01@pbem.test", "Jean.Dupont+pmb@mail.exemple.fr", "o'neil@exemple.ie", "x_y-z@a-b.co.uk"):
        assert address_problem(address) is None, address


# ---------------------------------------------------------------- defect 2: one pass at a time


def test_defect2_two_ticks_at_once_process_every_mail_once(tmp_path):
    cfg_path = _setup(tmp_path, players=30)
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    for i in range(30):
        inbox.add(make_mail(f"p{i + 1:02d}@pbem.test", f"GUESS {i % 10 + 1}", message_id=f"<o{i}@x.test>"))
    procs = [_tick(cfg_path, T0 + timedelta(minutes=1)) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert "Traceback" not in err and "database is locked" not in err
    store = Store(tmp_path / "db.sqlite")
    try:
        assert store.message_count("done") == 30 and store.message_count("error") == 0
        assert len([i for i in store.outbox_items() if i.kind == "ack"]) == 30
        assert len(store.current_orders("toy1", 1)) == 30
    finally:
        store.close()
    box = mailbox.Maildir(str(tmp_path / "outbox"), create=False)
    ids = [box.get_message(k)["Message-ID"] for k in box.keys()]
    assert len(ids) == len(set(ids))  # no mail sent twice


def test_defect2_a_tick_steps_aside_with_one_line_while_another_pass_runs(tmp_path):
    cfg_path = _setup(tmp_path, wait=0.2)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("p01@pbem.test", "GUESS 3"))
    lock = PassLock(tmp_path / "db.sqlite")
    assert lock.acquire(who="pbem run")
    try:
        proc = _tick(cfg_path, T0 + timedelta(minutes=1))
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0
        assert len(err.strip().splitlines()) == 1 and "cette passe s'efface" in err and f"pid {os.getpid()}" in err
        assert out == ""
        # the pass holding the lock for hours looks stuck: then the tick says so and exits non-zero (hours
        # before the wall clock, which the tick reads: a date written in the test goes stale or lies ahead)
        since = iso(utcnow() - STUCK_AFTER - timedelta(hours=2))
        lock.path.write_text(f"{os.getpid()} {since} pbem run\n")
        proc = _tick(cfg_path, T0 + timedelta(minutes=2))
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 1 and "semble bloqué" in err
    finally:
        lock.release()
    store = Store(tmp_path / "db.sqlite")
    assert store.message_count() == 0  # nothing was even fetched while the lock was held
    store.close()
    proc = _tick(cfg_path, T0 + timedelta(minutes=3))
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err


def test_defect2_mail_retry_never_processes_mail_already_processed(tmp_path):
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    for i in range(2):
        eng.add_player("toy1", f"Joueur {i + 1}", f"p{i + 1:02d}@pbem.test", T0)
    eng.start_game("toy1", T0)
    store.store_raw([("old", make_mail("p01@pbem.test", "GUESS 2", message_id="<old@x>"))], T0)
    eng.process_pending(T0)
    later = T0 + timedelta(hours=1)
    store.store_raw([("new", make_mail("p01@pbem.test", "GUESS 9", message_id="<new@x>"))], later)
    eng.process_pending(later)
    # an overlapping pass used to mark processed mail "error" afterwards: it no longer can
    store.mark_message("old", message_id="<old@x>", status="error", game="toy1", sender="p01@pbem.test",
                       verdict="error: database is locked", processed_at=later)
    assert {m.key: m.status for m in store.messages()} == {"old": "done", "new": "done"}
    # and even mail marked error whose orders were recorded is not processed again
    store.db.execute("update messages set status = 'error' where key = 'old'")
    refusals = store.requeue_refusals(["old", "new", "nothing"])
    assert "orders were recorded" in refusals["old"].en and "already processed" in refusals["new"].en
    assert "no such" in refusals["nothing"].en and "déjà traité" in refusals["new"].fr
    assert store.requeue_messages(["old", "new"]) == 0
    eng.process_pending(later)
    assert store.current_orders("toy1", 1)["Joueur 1"].orders[0].args == (9,)  # the newer orders stand
    store.close()


def test_defect2_cli_mail_retry_says_why_it_leaves_mail_alone(tmp_path):
    cfg_path = _setup(tmp_path)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("p01@pbem.test", "GUESS 3"))
    runner = CliRunner()
    result = runner.invoke(main, ["--config", str(cfg_path), "tick", "--now", T0.isoformat()])
    assert result.exit_code == 0, result.output
    store = Store(tmp_path / "db.sqlite")
    (key,) = [m.key for m in store.messages()]
    store.close()
    result = runner.invoke(main, ["--config", str(cfg_path), "mail", "retry", key])
    output = result.output.replace("\u00a0", " ")  # (the CLI speaks the configured language: French here)
    assert result.exit_code == 0 and "déjà traité" in output and "0 courriel sera traité à nouveau" in output


# ---------------------------------------------------------------- defect 6: From without angle brackets


def test_defect6_from_without_angle_brackets_registers_the_name_and_the_address(tmp_path):
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    raw = (b"From: Jean Dupont jean@example.org\r\nTo: jeu@pbem.test\r\nSubject: [TOY] inscription\r\n\r\n"
           b"INSCRIPTION\r\n")
    store.store_raw([("k1", raw)], T0)
    raw2 = (b"From: =?utf-8?B?SsOpcsO0bWU=?= x@host.example\r\nTo: jeu@pbem.test\r\nSubject: [TOY] aide\r\n\r\n"
            b"AIDE\r\n")
    store.store_raw([("k2", raw2)], T0)
    eng.process_pending(T0)
    (p,) = store.players("toy1")
    assert (p.name, p.address) == ("Jean Dupont", "jean@example.org")
    assert {m.key: m.status for m in store.messages()} == {"k1": "done", "k2": "done"}
    # the answer is queued, to the address (an unregistered sender's AIDE gets the short « how to join » answer)
    assert outbox_messages(store, kind="stranger", rcpt="x@host.example")
    mail = read_message(raw2)
    assert (mail.from_name, mail.from_addr) == ("Jérôme", "x@host.example")
    store.close()


# ---------------------------------------------------------------- defect 7: tick exit codes


def test_defect7_a_tick_whose_resolution_fails_exits_non_zero_and_says_why(tmp_path, monkeypatch):
    cfg_path = _setup(tmp_path)
    runner = CliRunner()
    ok = runner.invoke(main, ["--config", str(cfg_path), "tick", "--now", (T0 + timedelta(hours=1)).isoformat()])
    assert ok.exit_code == 0, ok.output

    from pbem.games import get

    def broken(*args, **kwargs):
        raise RuntimeError("ruleset bug")

    # on the class, not the registry's one instance: undoing an instance's patch leaves the old bound method
    # stuck on the instance, where later tests' patches of the class do not reach (test_engine's did not)
    monkeypatch.setattr(type(get("toy")), "resolve", broken)
    result = runner.invoke(main, ["--config", str(cfg_path), "tick", "--now", (T0 + timedelta(days=3)).isoformat()])
    assert result.exit_code == 1
    # in the configured language (French), the engine's line inside said too
    assert result.stderr == "pbem tick\u00a0: résolution en échec\u00a0: toy1\u00a0: ERREUR RuntimeError: ruleset bug\n"
    assert "traité" in result.stdout  # the summary still goes to stdout


def test_defect7_a_tick_with_a_mail_it_cannot_process_exits_non_zero(tmp_path, monkeypatch):
    cfg_path = _setup(tmp_path)
    mailbox.Maildir(str(tmp_path / "inbox"), create=True).add(make_mail("p01@pbem.test", "GUESS 3"))
    from pbem.games import get

    def broken(*args, **kwargs):
        raise RuntimeError("parser bug")

    monkeypatch.setattr(type(get("toy")), "parse_order", broken)  # (on the class: see defect 6's test)
    result = CliRunner().invoke(main, ["--config", str(cfg_path), "tick", "--now", T0.isoformat()])
    assert result.exit_code == 1 and "n'a pas pu être traité" in result.stderr


def test_defect7_a_tick_that_cannot_read_the_mailbox_exits_non_zero(tmp_path):
    cfg_path = _setup(tmp_path)
    (tmp_path / "inbox").mkdir(exist_ok=True)
    (tmp_path / "inbox" / "new").write_text("not a folder")  # a broken Maildir
    result = CliRunner().invoke(main, ["--config", str(cfg_path), "tick", "--now", T0.isoformat()])
    assert result.exit_code == 1 and "relève du courrier en échec" in result.stderr
