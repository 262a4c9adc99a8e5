"""A forged MJ mail through real servers (issue 19): delivered by LMTP into the game's Dovecot box with the
receiving server's tampered Authentication-Results on top, fetched over IMAPS by a tick: the MJ's command does
not run and the MJ is told; the same mail with the genuine header runs it."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from helpers import make_config
from test_game_by_mail import PLAYERS, T0, inbox, text

from pbem.daemon import tick
from pbem.engine import Engine
from pbem.store import Store

pytestmark = pytest.mark.mail


def _raw(mail_env, results: str, number: int) -> bytes:
    mj = mail_env.addr("p04")
    return (f"Authentication-Results: {results}\r\nFrom: {mj}\r\nTo: {mail_env.addr('game')}\r\n"
            f"Subject: [TOY] MJ\r\nMessage-ID: <forged{number}-{time.monotonic_ns()}@evil.example>\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\nProlonge de 24h\r\n").encode()


def test_a_forged_mj_mail_through_real_servers_changes_nothing(tmp_path, mail_env):
    for u in ["game", *PLAYERS, "p04"]:
        mail_env.clear(u)
    cfg = make_config(
        tmp_path,
        top={"address": mail_env.addr("game")},
        mailbox={"kind": "imap", "host": mail_env.host, "port": mail_env.imaps_port, "security": "ssl",
                 "cafile": mail_env.cafile, "user": mail_env.addr("game"), "password_env": "MAIL_PASSWORD",
                 "trusted_authserv": "mx.pbem.test"},
        outbox={"kind": "smtp", "host": mail_env.host, "port": mail_env.smtp_port, "security": "none"},
        extra_game={"mj": mail_env.addr("p04"), "auth": "dkim"},
    )
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0, seed="ab" * 32)
    for i, u in enumerate(PLAYERS):
        engine.add_player("toy1", f"Joueur {i}", mail_env.addr(u), T0)
    engine.start_game("toy1", T0)
    tick(cfg, store, T0)
    before = engine.game("toy1").deadline
    local = '"x) ; dkim=pass header.d=pbem.test (y"@evil.example'
    forged = (f"mx.pbem.test; dkim=none; spf=pass (mx.pbem.test: domain of {local} designates 192.0.2.66 as "
              f"permitted sender) smtp.mailfrom={local}")
    mail_env.deliver("game", _raw(mail_env, forged, 1), mail_from="bounce@evil.example")
    assert tick(cfg, store, T0 + timedelta(hours=1)).fetched == 1
    assert engine.game("toy1").deadline == before
    told = [text(m) for m in inbox(mail_env, "p04", 1) if "Message refusé" in text(m)]
    assert told and "authentification : topmost Authentication-Results unreadable: reads two ways" in told[0], told
    genuine = "mx.pbem.test; dkim=pass header.d=pbem.test header.s=s1; spf=pass smtp.mailfrom=p04@pbem.test"
    mail_env.deliver("game", _raw(mail_env, genuine, 2))
    assert tick(cfg, store, T0 + timedelta(hours=2)).fetched == 1
    assert engine.game("toy1").deadline != before  # (the same command, authenticated, runs)
    store.close()
