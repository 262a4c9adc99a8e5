"""The whole hostile/realistic mail corpus through the engine: none crashes, each gets the right answer or silence."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email.policy import default
from pathlib import Path

import pytest
from helpers import body, make_config, outbox_messages

from pbem.engine import Engine
from pbem.engine.orders.intake import RESENT_WITHIN
from pbem.mail.reading import read_message
from pbem.store import Store

CORPUS = Path(__file__).resolve().parent / "fixtures" / "mail"
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
SILENT = {
    "14_empty.eml": "no sender",
    "17_bounce_dsn.eml": "bounce",
    "18_vacation_autoreply.eml": "auto-reply",
    "19_newsletter_bulk.eml": "auto-reply",
    "20_mailing_list.eml": "list",
    "31_own_mail.eml": "own",
    "32_no_from.eml": "no sender",
    "38_garbage.eml": "no sender",
    "43_postmaster_bounce.eml": "bounce",
    "44_outlook_autoreply_en.eml": "auto-reply",
}
GAME = "pourmabelle.lejeu@gmail.com"


def _engine(tmp: Path, **game) -> tuple[Engine, Store]:
    cfg = make_config(tmp, tag="PMB", game_id="pmb1", top={"address": GAME}, extra_game=game)
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    engine.new_game("pmb1", T0, seed="ab" * 32)
    return engine, store


def _feed(engine: Engine, name: str, when: datetime = T0) -> tuple[str, list[dict]]:
    """Process one corpus mail; return the verdict and the outbox items it queued."""
    raw = (CORPUS / name).read_bytes()
    before = {i.id for i in engine.store.outbox_items()}
    engine.store.store_raw([(name, raw)], when)
    verdict = engine.process_message(name, raw, when)
    return verdict, [i for i in engine.store.outbox_items() if i.id not in before]


# the corpus's human senders play in the game (a stranger's mail is not read as orders); these two register by mail
STRANGERS = {"mallory@example.org", "bertrand@example.fr"}


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    engine, store = _engine(tmp_path_factory.mktemp("corpus"))
    senders = sorted({read_message(p.read_bytes()).from_addr for p in CORPUS.glob("*.eml")} - STRANGERS - {"", GAME})
    for i, address in enumerate(senders):
        engine.add_player("pmb1", "Alice Dupont" if address.startswith("alice") else f"Joueur {i:02d}", address, T0)
    # each one some minutes after the one before: two with the same text are two mails, not one sent twice
    apart = RESENT_WITHIN + timedelta(minutes=1)
    out = {p.name: _feed(engine, p.name, T0 + i * apart) for i, p in enumerate(sorted(CORPUS.glob("*.eml")))}
    yield engine, store, out
    store.close()


def test_corpus_is_big_enough():
    assert len(list(CORPUS.glob("*.eml"))) >= 30


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("*.eml")))
def test_each_mail_gets_the_right_answer_or_silence(results, name):
    _, _, out = results
    verdict, queued = out[name]
    mail = read_message((CORPUS / name).read_bytes())
    if name in SILENT:
        assert verdict.startswith("silent") and SILENT[name] in verdict, verdict
        assert queued == []
    elif name == "34_lf.eml":  # the same message as 33 (same Message-ID): processed once
        assert verdict == "duplicate" and queued == []
    else:
        assert verdict.startswith("ok"), (name, verdict)
        assert [(i.kind, i.rcpt) for i in queued] == [("ack", mail.from_addr)]
        ack = body(email.message_from_bytes(results[1].outbox_raw(queued[0].id), policy=default))
        echoed = [line[2:] for line in ack.split("\n")
                  if line.startswith("  ") and not line.startswith("    ") and not line.startswith("  (")]
        # password lines are removed before anything else, never echoed
        expected = [line.strip() for line in mail.text.split("\n")
                    if line.strip() and not line.strip().upper().startswith("MOTDEPASSE")][:200]
        assert "licorne" not in ack
        # the answer echoes exactly the player's own lines (each with its verdict, or among the text it
        # ignored): quoted history and signatures are never orders
        assert sorted(e.strip() for e in echoed) == sorted(x if len(x) <= 500 else x[:80] + "…" for x in expected), name


def test_registration_mails_register_valid_names_only(results):
    _, store, out = results
    assert "Bertrand" in {p.name for p in store.players("pmb1")}  # « Je souhaite participer »: the From name
    assert any("vous avez déjà un personnage dans cette partie : Alice Dupont" in body(m)  # 28_inscription
               for m in outbox_messages(store, kind="ack", rcpt="alice.dupont@gmail.com"))
    assert not any("[" in p.name or "{" in p.name for p in store.players("pmb1"))
    ack = [m for m in outbox_messages(store, kind="ack") if "url=" in body(m)]
    assert ack and "nom invalide" in body(ack[0])


def test_injection_attempts_stay_text(results):
    _, store, _ = results
    for m in outbox_messages(store):
        headers = m.as_string().split("\n\n", 1)[0]
        assert "\nBcc:" not in headers
        assert "49" not in body(m).replace("2049", "")  # {{ 7*7 }} is never evaluated
    echoed = [body(m) for m in outbox_messages(store) if "{{ 7*7 }}" in body(m)]
    assert echoed  # but it is echoed back as typed


def test_forged_mail_is_refused_and_the_registered_player_is_told(tmp_path):
    engine, store = _engine(tmp_path, auth="dkim")
    victim = read_message((CORPUS / "21_forged_from.eml").read_bytes()).from_addr
    engine.add_player("pmb1", "Alice", victim, T0)
    verdict, queued = _feed(engine, "21_forged_from.eml")
    assert verdict.startswith("rejected: authentication failed")
    assert [(i.kind, i.rcpt) for i in queued] == [("notice", victim), ("notice", "mj@pbem.test")]
    told = {m["To"]: body(m) for m in outbox_messages(store, kind="notice")}
    assert "vérification d'authenticité" in told[victim] and "DKIM/SPF" in told[victim]
    assert "Message refusé" in told["mj@pbem.test"] and "au nom de Alice" in told["mj@pbem.test"]
    verdict, queued = _feed(engine, "22_gmail_dkim_pass.eml")
    assert verdict.startswith("ok") and [i.kind for i in queued] == ["ack"]
    store.close()
