"""A game played end to end through real servers: players send by SMTP, pbem reads the game mailbox
over IMAPS (Dovecot), answers through SMTP, and players read their acks and results over IMAP."""

from __future__ import annotations

import email
import smtplib
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import default

import pytest
from helpers import make_config

from pbem.daemon import open_mailbox, tick
from pbem.engine import Engine
from pbem.store import Store

pytestmark = pytest.mark.mail
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
PLAYERS = ["p01", "p02", "p03"]


def _config(tmp_path, env, batch_size=500):
    return make_config(
        tmp_path,
        top={"address": env.addr("game")},
        mailbox={"kind": "imap", "host": env.host, "port": env.imaps_port, "security": "ssl", "cafile": env.cafile,
                 "user": env.addr("game"), "password_env": "MAIL_PASSWORD", "batch_size": batch_size},
        outbox={"kind": "smtp", "host": env.host, "port": env.smtp_port, "security": "none"},
        extra_game={"mj": env.addr("p04")},
    )


def send(env, user: str, body: str, subject: str = "[TOY] ordres") -> None:
    m = EmailMessage()
    m["From"] = env.addr(user)
    m["To"] = env.addr("game")
    m["Subject"] = subject
    m["Message-ID"] = f"<{user}-{time.monotonic_ns()}@pbem.test>"
    m.set_content(body)
    with smtplib.SMTP(env.host, env.smtp_port) as s:
        s.send_message(m)


def inbox(env, user: str, expect: int, timeout: float = 60.0) -> list[email.message.EmailMessage]:
    """The user's INBOX over IMAP, waiting until it holds at least ``expect`` messages."""
    end = time.monotonic() + timeout
    while True:
        with env.imap(user) as c:
            c.select_folder("INBOX", readonly=True)
            uids = c.search(["ALL"])
            msgs = [email.message_from_bytes(d[b"RFC822"], policy=default)
                    for _, d in sorted(c.fetch(uids, ["RFC822"]).items())] if uids else []
        if len(msgs) >= expect or time.monotonic() > end:
            return msgs
        time.sleep(0.1)


def text(m) -> str:
    return m.get_body(("plain",)).get_content().replace("\r\n", "\n").replace("\u00a0", " ").replace("\u202f", " ")


@pytest.fixture
def game(tmp_path, mail_env):
    for u in ["game", *PLAYERS, "p04"]:
        mail_env.clear(u)
    cfg = _config(tmp_path, mail_env)
    store = Store(cfg.database)
    Engine(cfg, store).new_game("toy1", T0, seed="ab" * 32)
    yield cfg, store
    store.close()


def test_register_order_ack_deadline_results_over_real_servers(game, mail_env):
    cfg, store = game
    for i, u in enumerate(PLAYERS):
        send(mail_env, u, f"INSCRIPTION Joueur {i}", "[TOY] inscription")
    deadline = time.monotonic() + 60  # (it returns as soon as they are there: generous under load)
    rep = tick(cfg, store, T0)
    while rep.fetched < 3 and time.monotonic() < deadline:  # the sink relays by LMTP within milliseconds
        time.sleep(0.1)
        rep.fetched += tick(cfg, store, T0).fetched
    assert [p.name for p in store.players("toy1")] == ["Joueur 0", "Joueur 1", "Joueur 2"]
    ack = inbox(mail_env, "p01", 1)[0]
    assert "inscription enregistrée sous le nom Joueur 0" in text(ack) and ack["X-PBEM-Kind"] == "ack"
    assert ack["In-Reply-To"].startswith("<p01-")

    Engine(cfg, store).start_game("toy1", T0)
    tick(cfg, store, T0)
    send(mail_env, "p02", "Bonjour MJ,\nGUESS 8\n\n-- \nJoueur 1")
    time.sleep(0.3)
    tick(cfg, store, T0 + timedelta(minutes=1))
    acks = [m for m in inbox(mail_env, "p02", 3) if m["X-PBEM-Kind"] == "ack"]
    assert "GUESS 8\n    -> OK" in text(acks[-1])
    assert "Texte ignoré, qui n'est pas un ordre :\n  Bonjour MJ," in text(acks[-1])  # listed, not an error

    tick(cfg, store, T0 + timedelta(days=2))  # the deadline fires: defaults for the silent, results mailed
    for u in PLAYERS:
        results = [m for m in inbox(mail_env, u, 3) if m["X-PBEM-Kind"] == "private" and m["X-PBEM-Turn"] == "1"]
        assert len(results) == 1, u
        assert "Étape 1 — vos résultats" in str(results[0]["Subject"])
    digest = [m for m in inbox(mail_env, "p04", 2) if m["X-PBEM-Kind"] == "digest" and m["X-PBEM-Turn"] == "1"]
    assert "Sans ordres à temps (ordres par défaut) : Joueur 0 et Joueur 2." in text(digest[0])
    # the game mailbox is never marked \Seen by pbem: the MJ reads it too
    with mail_env.imap("game") as c:
        c.select_folder("INBOX", readonly=True)
        flags = c.get_flags(c.search(["ALL"]))
        assert flags and not any(b"\\Seen" in f for f in flags.values())


def test_connection_dropped_mid_poll_and_server_restarted_loses_nothing(tmp_path, mail_env):
    for u in ["game", *PLAYERS, "p04"]:
        mail_env.clear(u)
    cfg = _config(tmp_path, mail_env, batch_size=10)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0, seed="ab" * 32)
    for i in range(30):
        raw = (f"From: outsider{i}@pbem.test\r\nTo: {mail_env.addr('game')}\r\nSubject: [TOY] inscription\r\n"
               f"Message-ID: <drop-{i}@pbem.test>\r\n\r\nINSCRIPTION Joueur {i}\r\n").encode()
        mail_env.deliver("game", raw)
    source = open_mailbox(cfg, store)
    original = source.fetch_new
    restarted = []

    def fetch_and_restart(sink):
        def sink_then_restart(batch):
            sink(batch)
            if not restarted:
                restarted.append(True)
                mail_env.restart_dovecot()  # the server goes away between two batches
        return original(sink_then_restart)

    source.fetch_new = fetch_and_restart
    first = tick(cfg, store, T0, source=source)
    assert first.fetched == 10 and first.errors and restarted
    source.close()
    second = tick(cfg, store, T0 + timedelta(minutes=1))
    third = tick(cfg, store, T0 + timedelta(minutes=2))
    assert second.fetched == 20 and third.fetched == 0
    assert store.message_count() == 30
    assert len(store.players("toy1")) == 30
    acks = store.outbox_items()
    assert len(acks) == 30 and len({a.rcpt for a in acks}) == 30
    store.close()
