"""The MJ runs the game from his mail client, through real servers: his commands go by SMTP, pbem reads them
over IMAPS (Dovecot) and answers through SMTP; the MJ and the players read the answers and notices over IMAP."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from helpers import make_config
from test_game_by_mail import PLAYERS, T0, inbox, send, text

from pbem.daemon import tick
from pbem.engine import Engine
from pbem.store import Store

pytestmark = pytest.mark.mail


def _ticks(cfg, store, when, expect: int) -> None:
    """Ticks until ``expect`` more mails were fetched (the sink relays by LMTP within milliseconds)."""
    deadline = time.monotonic() + 60  # (it returns as soon as they are there: generous under load)
    fetched = tick(cfg, store, when).fetched
    while fetched < expect and time.monotonic() < deadline:
        time.sleep(0.1)
        fetched += tick(cfg, store, when).fetched


@pytest.fixture
def table(tmp_path, mail_env):
    for u in ["game", *PLAYERS, "p04", "p05"]:
        mail_env.clear(u)
    cfg = make_config(
        tmp_path,
        top={"address": mail_env.addr("game")},
        mailbox={"kind": "imap", "host": mail_env.host, "port": mail_env.imaps_port, "security": "ssl",
                 "cafile": mail_env.cafile, "user": mail_env.addr("game"), "password_env": "MAIL_PASSWORD"},
        outbox={"kind": "smtp", "host": mail_env.host, "port": mail_env.smtp_port, "security": "none"},
        extra_game={"mj": mail_env.addr("p04")},
    )
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("toy1", T0, seed="ab" * 32)
    for i, u in enumerate(PLAYERS):
        engine.add_player("toy1", f"Joueur {i}", mail_env.addr(u), T0)
    engine.start_game("toy1", T0)
    tick(cfg, store, T0)
    yield cfg, store
    store.close()


def test_the_MJ_extends_asks_who_is_missing_and_replaces_a_player_by_mail(table, mail_env):
    cfg, store = table
    send(mail_env, "p01", "GUESS 4")
    send(mail_env, "p04", "Bonjour,\nProlonge le tour 1 de 24h\nQui manque ?\n\n-- \nLe MJ", "[TOY] commandes")
    _ticks(cfg, store, T0 + timedelta(hours=1), 2)
    answer = next(text(m) for m in inbox(mail_env, "p04", 3) if m["X-PBEM-Kind"] == "ack")
    answer = answer.replace("\u00a0", " ")
    assert "Prolonge le tour 1 de 24h\n    -> OK : date limite de l'étape en cours (Étape 1) repoussée au vendredi " \
           "4 décembre 2026 à 21 h" in answer
    assert "On attend encore : Joueur 1 et Joueur 2." in answer
    for u in PLAYERS:
        assert any(m["Subject"] == "[TOY] nouvelle date limite" for m in inbox(mail_env, u, 2)), u
    send(mail_env, "p04", "Remplace Joueur 2 par Jeanne Dupont <" + mail_env.addr("p05") + ">", "[TOY] relève")
    _ticks(cfg, store, T0 + timedelta(hours=2), 1)
    briefing = [m for m in inbox(mail_env, "p05", 1) if m["X-PBEM-Kind"] == "private"]
    assert briefing and str(briefing[0]["Subject"]).replace("\u00a0", " ") == \
        "[TOY] bienvenue : vous reprenez la place de Joueur 2"  # (French subjects keep their non-breaking space)
    assert text(briefing[0]).startswith("Bonjour Jeanne Dupont,")
    told = [m for m in inbox(mail_env, "p03", 3) if "votre place" in str(m["Subject"])]
    assert told, [str(m["Subject"]) for m in inbox(mail_env, "p03", 3)]
    # the newcomer's orders count; the old address is a stranger now
    send(mail_env, "p05", "GUESS 6")
    _ticks(cfg, store, T0 + timedelta(hours=3), 1)
    assert store.current_orders("toy1", 1)["Joueur 2"].orders[0].args == (6,)
