"""Mail that costs too much, and numbers out of every range, through the real engine (issue #19).

A mail over the caps (`pbem.limits`) is stored, answered once « message trop long ou illisible » with
its limit and what to do, and marked done; one whose reading killed passes never finished is set
aside after `MAX_READING_ATTEMPTS`, not read again.  A number out of its range (« ABSENCE 99999999
jours », a year 9999, a step number of twenty digits) is answered with the range, never an error.
"""

from __future__ import annotations

import mailbox
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import MJ_ADDRESS, body, make_mail, outbox_messages, pbem_command, pbem_env, toy_config_toml
from mjseat_helpers import PLAYERS, Table

from pbem import config as configmod
from pbem import limits
from pbem.engine import Engine, intake
from pbem.store import Store

BRAN = PLAYERS["Bran"]


def _raw(headers: str, body: str = "GUESS 3\n", sender: str = BRAN, message_id: str = "<big@pbem.test>") -> bytes:
    return (f"From: {sender}\nTo: jeu@pbem.test\nSubject: [TOY] ordres\nMessage-ID: {message_id}\n{headers}"
            f"Content-Type: text/plain; charset=utf-8\n\n{body}").encode()


def _feed(t: Table, raw: bytes, key: str) -> str:
    t.store.store_raw([(key, raw)], t.now)
    t.engine.process_pending(t.now)
    return next(m.verdict for m in t.store.messages() if m.key == key)


def _answers(t: Table, address: str) -> list[tuple[str, str]]:
    return [(subject, text) for to, kind, subject, text in t.new() if to == address and kind == "ack"]


# --- too long or unreadable


def test_a_mail_whose_headers_pass_the_cap_is_answered_once_with_the_limit(tmp_path: Path) -> None:
    t = Table(tmp_path)
    raw = _raw("X-Filler: " + "a" * (limits.MAX_HEADER_BYTES + 10) + "\n")
    verdict = _feed(t, raw, "big1")
    assert verdict.startswith("unreadable: too big: headers of more than 256000 bytes")
    ((subject, text),) = _answers(t, BRAN)
    assert subject == "Re: [TOY] ordres"
    assert "Votre message est trop long ou illisible : ses en-têtes dépassent 256 Ko. Rien n'en a été enregistré." in text
    assert "renvoyez vos ordres dans un message court, en texte brut" in text and "Au plus 200 lignes" in text
    assert t.store.current_orders("toy1", 1) == {}
    assert _feed(t, raw, "big1-copy") == "duplicate" and _answers(t, BRAN) == []  # the same mail again: once
    t.close()


def test_a_mail_nested_deeper_than_the_cap_is_answered_not_parsed(tmp_path: Path) -> None:
    t = Table(tmp_path)
    depth = limits.MAX_BOUNDARIES + 5
    body = "".join(f'--b{i}\nContent-Type: multipart/mixed; boundary="b{i + 1}"\n\n' for i in range(depth))
    body += f"--b{depth}\nContent-Type: text/plain\n\nGUESS 3\n"
    raw = _raw("MIME-Version: 1.0\n", body).replace(b"text/plain; charset=utf-8", b'multipart/mixed; boundary="b0"', 1)
    assert _feed(t, raw, "deep").startswith("unreadable: too complex: 66 multipart boundaries (at most 60)")
    ((_subject, text),) = _answers(t, BRAN)
    assert "il emboîte plus de 60 parties les unes dans les autres" in text
    t.close()


def test_a_big_mail_whose_text_comes_first_is_read(tmp_path: Path) -> None:
    t = Table(tmp_path)
    attachment = "QUJD" * (limits.MAX_READ_BYTES // 4 + 1000)
    body = (f"--b\nContent-Type: text/plain; charset=utf-8\n\nGUESS 3\n--b\nContent-Type: image/png\n"
            f"Content-Transfer-Encoding: base64\n\n{attachment}\n--b--\n")
    raw = _raw("MIME-Version: 1.0\n", body).replace(b"text/plain; charset=utf-8", b'multipart/mixed; boundary="b"', 1)
    assert len(raw) > limits.MAX_READ_BYTES
    assert _feed(t, raw, "photo") == "ok (1 lines, 0 errors)"
    assert t.store.current_orders("toy1", 1)["Bran"].lines == ["GUESS 3"]
    t.close()


def test_a_mail_that_passes_were_killed_reading_is_set_aside_unread_and_answered(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    t = Table(tmp_path)
    raw = make_mail(BRAN, "GUESS 3", message_id="<poison@pbem.test>")
    t.store.store_raw([("poison", raw)], t.now)
    for _ in range(intake.MAX_READING_ATTEMPTS):  # as many passes began reading it and were killed
        t.store.begin_reading(["poison"])

    def never(raw: bytes) -> None:
        raise AssertionError("the mail set aside was read")
    monkeypatch.setattr(intake, "_read", never)
    assert t.engine.process_pending(t.now) == ["poison"]
    (row,) = [m for m in t.store.messages() if m.key == "poison"]
    assert row.status == "done" and row.verdict == "unreadable: too costly: 5 passes stopped while reading it"
    ((_subject, text),) = _answers(t, BRAN)
    assert "Votre message est trop long ou illisible : sa lecture a été interrompue 5 fois, je ne la tenterai plus." in text
    assert t.store.current_orders("toy1", 1) == {}
    assert t.store.reading_attempts(["poison"]) == {"poison": intake.MAX_READING_ATTEMPTS + 1}
    t.close()


def test_a_mail_read_in_a_batch_is_counted_and_read_alone_after_two_killed_batches(tmp_path: Path) -> None:
    t = Table(tmp_path)
    raws = [make_mail(address, "GUESS 3", message_id=f"<b{i}@pbem.test>") for i, address in enumerate(PLAYERS.values())]
    t.store.store_raw([(f"b{i}", raw) for i, raw in enumerate(raws)], t.now)
    t.store.begin_reading(["b0", "b1", "b2"])  # two passes killed inside the batch
    t.store.begin_reading(["b0", "b1", "b2"])
    assert t.engine.process_pending(t.now) == ["b0", "b1", "b2"]  # each read alone now, counted once more
    assert t.store.reading_attempts(["b0", "b1", "b2"]) == {"b0": 3, "b1": 3, "b2": 3}
    assert set(t.store.current_orders("toy1", 1)) == {"Arya", "ser Schlingue", "Bran"}
    t.close()


def _tick(cfg_path: Path, now: datetime, crash: str | None) -> int:
    env = pbem_env(PBEM_CRASH_AT=crash) if crash else pbem_env()
    proc = subprocess.run(pbem_command(cfg_path, "tick", "--now", now.isoformat()), env=env, capture_output=True,
                          text=True, timeout=120)
    return proc.returncode


def test_a_mail_that_kills_every_pass_reading_it_stops_being_read(tmp_path: Path) -> None:
    """A real `pbem tick` killed while it reads the oldest mail, pass after pass (``reading:1``, as a mail that
    costs too much would have it killed): that mail is read at most `MAX_READING_ATTEMPTS` times, then answered
    unread; the mails after it in its batch go through."""
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(toy_config_toml(tmp_path, top="reply_cap_per_hour = 1000"))
    cfg = configmod.load(cfg_path)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    now = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)
    engine.new_game("toy1", now)
    for name, address in PLAYERS.items():
        engine.add_player("toy1", name, address, now)
    engine.start_game("toy1", now)
    store.close()
    inbox = mailbox.Maildir(str(tmp_path / "inbox"), create=True)
    for i, address in enumerate([BRAN, PLAYERS["Arya"], PLAYERS["ser Schlingue"]]):
        inbox.add(make_mail(address, f"GUESS {i + 3}", subject="[TOY] ordres", message_id=f"<m{i}@pbem.test>"))

    def first() -> dict[str, str]:
        s = Store(cfg.database)
        try:
            return next(m for m in s.messages() if m.message_id in ("<m0@pbem.test>", ""))
        finally:
            s.close()

    kills = 0
    while kills < 10 and (kills == 0 or first().status == "new"):
        assert _tick(cfg_path, now + timedelta(minutes=kills), "reading:1") != 0  # killed reading the oldest mail
        kills += 1
    assert kills == intake.MAX_READING_ATTEMPTS + 1  # 2 in its batch, 3 alone; the 6th pass set it aside
    assert _tick(cfg_path, now + timedelta(minutes=20), None) == 0
    store = Store(cfg.database)
    try:
        rows = {m.message_id: m for m in store.messages()}
        assert all(m.status == "done" for m in rows.values())
        assert rows["<m0@pbem.test>"].verdict == "unreadable: too costly: 5 passes stopped while reading it"
        orders = store.current_orders("toy1", 1)
        assert {p: o.lines for p, o in orders.items()} == {"Arya": ["GUESS 4"], "ser Schlingue": ["GUESS 5"]}
        attempts = store.reading_attempts([m.key for m in rows.values()])
        assert sorted(attempts.values()) == [3, 4, 6]  # the others: 2 in the batches, 1 or 2 alone
        (ack,) = outbox_messages(store, kind="ack", rcpt=BRAN)
        assert "Votre message est trop long ou illisible" in body(ack)
    finally:
        store.close()


# --- numbers out of their range


def test_absence_of_99999999_days_is_answered_with_the_range(tmp_path: Path) -> None:
    t = Table(tmp_path)
    for line, said in [("ABSENCE 99999999 jours", "durée trop longue : 366 jours au plus"),
                       ("ABSENCE pendant 99999999999999999999 heures", "nombre trop grand : « 999999999999… »"),
                       ("ABSENCE jusqu'au 31/12/9999", "année impossible : 9999 (de 2015 à 2035)"),
                       ("ABSENCE du 2025-02-03 au 9999-12-31", "année impossible : 9999 (de 2015 à 2035)"),
                       ("ABSENCE jusqu'au 10/99999999999/2025", "nombre trop grand"),
                       ("ABSENCE jusqu'à demain 99999 h", "heure impossible : 99999 h 00 (de 0 h à 23 h 59)")]:
        verdict = t.mail(BRAN, line)
        assert verdict == "ok (1 lines, 1 errors)", (line, verdict)
        assert said in t.last("ack", BRAN), line
    assert t.store.absences("toy1", player="Bran") == []
    t.close()


@pytest.mark.parametrize(("line", "said"), [
    ("Prolonge de 99999999 jours", "durée trop longue : 366 jours au plus"),
    ("Pause pendant 99999999 jours", "durée trop longue : 366 jours au plus"),
    ("Pause du 3 février au 31/12/9999", "année impossible : 9999 (de 2015 à 2035)"),
    ("Prolonge jusqu'au 31/12/9999", "année impossible : 9999 (de 2015 à 2035)"),
    ("Absence Bran du 3 au 99999999999 février", "nombre trop grand"),
    ("Renvoie les résultats du tour 99999999999999999999 de Bran", "nombre trop grand"),
    ("Prolonge le tour 99999999999999999999 de 24h", "nombre trop grand"),
    ("Recalcule le tour 99999999999999999999", "nombre trop grand"),
])
def test_the_mjs_numbers_out_of_range_are_answered(tmp_path: Path, line: str, said: str) -> None:
    t = Table(tmp_path)
    answer = t.mj(line)
    (row,) = [m for m in t.store.messages() if m.sender == MJ_ADDRESS]
    assert row.status == "done" and not row.verdict.startswith("error"), row.verdict
    assert said in answer
    t.close()


def test_an_mj_line_longer_than_the_cap_is_answered_as_too_long(tmp_path: Path) -> None:
    t = Table(tmp_path)
    deadline = t.game().deadline
    answer = t.mj("Prolonge de 24h " + "x" * 100_000)
    assert "ligne trop longue (500 caractères au plus)" in answer
    assert t.game().deadline == deadline  # (not extended)
    t.close()


def test_a_mail_set_aside_and_requeued_by_the_mj_is_read_again_from_the_start(tmp_path: Path) -> None:
    t = Table(tmp_path)
    raw = make_mail(BRAN, "GUESS 3", message_id="<again@pbem.test>")
    t.store.store_raw([("again", raw)], t.now)
    for _ in range(intake.MAX_READING_ATTEMPTS + 2):  # even setting it aside was killed: kept as an error
        t.store.begin_reading(["again"])
    t.engine.process_pending(t.now)
    assert [m.status for m in t.store.messages() if m.key == "again"] == ["error"]
    assert t.store.requeue_messages(["again"]) == 1  # (pbem mail retry, once the cause is fixed)
    assert t.store.reading_attempts(["again"]) == {"again": 0}
    assert t.engine.process_pending(t.now) == ["again"]
    assert t.store.current_orders("toy1", 1)["Bran"].lines == ["GUESS 3"]
    t.close()
