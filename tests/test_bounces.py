"""Bounces (tests/fixtures/mail/bounces/: Gmail, Exchange Online, Postfix, a French provider's plain NDR, a
delay notice) are read, matched to the mail pbem sent, shown on its outbox row and told to the MJ once."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import body, make_config, outbox_messages

from pbem.engine import Engine
from pbem.mail.bounces import read_bounce
from pbem.mail.transport import MaildirTransport
from pbem.outbox import send_due
from pbem.store import Store

BOUNCES = Path(__file__).resolve().parent / "fixtures" / "mail" / "bounces"
sys.path.insert(0, str(BOUNCES))
from make_bounces import PLAYERS, start_mail_id  # noqa: E402

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def raw(name: str) -> bytes:
    return (BOUNCES / name).read_bytes()


@pytest.mark.parametrize(("name", "recipient", "status", "kind", "by_id"), [
    ("gmail_mailbox_full.eml", "arya.stark@gmail.com", "5.2.2", "mailbox-full", True),
    ("exchange_recipient_not_found.eml", "bran.stark@outlook.fr", "5.1.10", "unknown-user", True),
    ("postfix_user_unknown.eml", "cersei@example-isp.fr", "5.1.1", "unknown-user", True),
    ("orange_plain_mailbox_full.eml", "jaime.lannister@orange.fr", "5.2.2", "mailbox-full", False),
])
def test_each_report_says_who_failed_and_why(name, recipient, status, kind, by_id):
    b = read_bounce(raw(name), ("jeu@pbem.test",))
    assert b is not None and b.permanent
    assert b.recipients == (recipient,) and b.status == status and b.kind == kind
    player = next(p for p, a in PLAYERS.items() if a == recipient)
    assert b.message_ids == ((start_mail_id(player),) if by_id else ())


def test_a_delay_notice_is_no_failure():
    b = read_bounce(raw("postfix_delayed.eml"), ("jeu@pbem.test",))
    assert b is not None and b.action == "delayed" and not b.permanent


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for name, address in PLAYERS.items():
        e.add_player("toy1", name, address, T0)
    e.start_game("toy1", T0)
    send_due(e.store, MaildirTransport(str(tmp_path / "sent")), sender=cfg.address, now=T0)
    yield e
    e.store.close()


def feed(e: Engine, name: str) -> str:
    e.store.store_raw([(name, raw(name))], T0)
    return e.process_message(name, raw(name), T0 + timedelta(minutes=5))


@pytest.mark.parametrize(("name", "player"), [
    ("gmail_mailbox_full.eml", "Arya"), ("exchange_recipient_not_found.eml", "Bran"),
    ("postfix_user_unknown.eml", "Cersei"), ("orange_plain_mailbox_full.eml", "Jaime"),
])
def test_a_bounce_marks_the_mail_it_is_about_and_the_next_digest_names_the_player(eng, name, player):
    before = len(eng.store.outbox_items())
    verdict = feed(eng, name)
    assert verdict.startswith("silent: bounce") and start_mail_id(player) in verdict
    assert len(eng.store.outbox_items()) == before  # never answered
    row = eng.store.outbox_row(start_mail_id(player))
    assert row is not None and row.status == "bounced"
    assert [i.id for i in eng.store.outbox_items("bounced")] == [start_mail_id(player)]
    eng.resolve("toy1", T0 + timedelta(days=2))
    digest = body(outbox_messages(eng.store, kind="digest")[-1])
    line = next(x for x in digest.split("\n") if x.startswith(f"  {player} ({PLAYERS[player]})"))
    line = line.replace("\u00a0", " ")  # (the digest's spacing is its template's)
    assert "« [TOY] Début de partie », revenu en erreur (5." in line
    # said in the digest's French, the remote server's reply quoted as it came (issue #22)
    assert f"{'boîte pleine' if 'full' in name else 'adresse inconnue'} ; le serveur distant a répondu" in line
    assert "mailbox full" not in line and "no such address" not in line
    eng.resolve("toy1", T0 + timedelta(days=3))
    assert PLAYERS[player] not in body(outbox_messages(eng.store, kind="digest")[-1])  # told once


def test_a_delayed_delivery_is_not_reported(eng):
    assert feed(eng, "postfix_delayed.eml").endswith("delivery delayed, not reported")
    assert eng.store.outbox_items("bounced") == []


def test_a_bounce_about_a_mail_we_never_sent_changes_nothing(eng):
    from helpers import GAME_ADDRESS

    fixture = Path(__file__).resolve().parent / "fixtures" / "mail" / "17_bounce_dsn.eml"
    data = fixture.read_bytes().replace(b"pourmabelle.lejeu@gmail.com", GAME_ADDRESS.encode())
    eng.store.store_raw([("17", data)], T0)
    assert eng.process_message("17", data, T0).endswith("names no mail we sent")
    assert eng.store.outbox_items("bounced") == []


def test_a_report_in_a_charset_python_lacks_is_still_read() -> None:
    raw = (b"From: MAILER-DAEMON@example.org\nSubject: Undelivered Mail Returned to Sender\nMIME-Version: 1.0\n"
           b"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\n\n"
           b"--b\nContent-Type: text/plain; charset=\"x-bogus\"\n\nuser unknown: bob@example.org\n--b--\n")
    bounce = read_bounce(raw)
    assert bounce is not None and bounce.recipients == ("bob@example.org",) and bounce.kind == "unknown-user"
