"""Real-looking player mails (tests/fixtures/mail/players/) through a Pour Ma Belle game: each answer
counts exactly the wrong order lines as errors; greetings, sign-offs, signatures and prose are listed
as ignored text, never as errors."""

from __future__ import annotations

import email
import re
import sys
from datetime import UTC, datetime
from email.policy import default
from pathlib import Path

import pytest
from helpers import body, make_config

from pbem.engine import Engine
from pbem.mail.reading import read_message
from pbem.store import Store

PLAYERS = Path(__file__).resolve().parent / "fixtures" / "mail" / "players"
sys.path.insert(0, str(PLAYERS))
from make_players import ADDRESSES, CORPUS  # noqa: E402

T0 = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)
# name, role, location, sergent (the roster of tests/games/test_pmb_helpers.py)
ROSTER = [
    ("Tywin", "lord_commandant", None, None), ("Jaime", "garde", None, None), ("Arys", "garde", None, None),
    ("Boros", "garde", None, None), ("Varys", "chuchoteurs", None, None), ("Petyr", "argentier", None, None),
    ("Pycelle", "mestre", None, None), ("Lancel", "fidele", "culpucier", None),
    ("Kevan", "fidele", "fossedragon", None), ("Robb", "stark_chef", "visenya", None),
    ("Jon", "stark_sergent", "fossedragon", None), ("Bran", "stark_sergent", "culpucier", None),
    ("Arya", "stark_hm", "culpucier", "Jon"), ("Sansa", "stark_hm", "fossedragon", "Jon"),
    ("Rickon", "stark_hm", "culpucier", "Bran"), ("ser Schlingue", "stark_hm", "culpucier", "Bran"),
    ("Margaery", "tyrell_chef", "visenya", None), ("Loras", "tyrell_sergent", "fossedragon", None),
    ("Garlan", "tyrell_hm", "culpucier", "Loras"), ("Olenna", "tyrell_hm", "visenya", "Loras"),
    ("Willas", "tyrell_hm", "culpucier", "Loras"),
]
VERDICT = re.compile(r"^    -> (\S+)")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("players")
    cfg = make_config(tmp, ruleset="pmb", game_id="pmb1", tag="PMB", top={"address": "pourmabelle.lejeu@gmail.com"},
                      # fidele_squads = "libre": the fidèle Lancel may name his own target (the default, since the
                      # merged PMB rules, is the Lord Commandant's CIBLE only), so an error is only a player's mistake
                      extra_game={"options": {"places": {"visenya": 3, "fossedragon": 4}, "fidele_squads": "libre"},
                                  "early_resolution": False})
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("pmb1", T0, seed="ab" * 32)
    for name, role, location, sergent in ROSTER:
        data = {k: v for k, v in (("location", location), ("sergent", sergent)) if v}
        e.add_player("pmb1", name, ADDRESSES.get(name, f"{name.lower()}@example.org"), T0, role=role, data=data)
    e.start_game("pmb1", T0)
    yield e
    store.close()


def answer(e: Engine, name: str) -> tuple[str, str]:
    raw = (PLAYERS / name).read_bytes()
    mail = read_message(raw)
    e.store.store_raw([(name, raw)], T0)
    verdict = e.process_message(name, raw, T0)
    acks = [i for i in e.store.outbox_items() if i.kind == "ack" and i.rcpt == mail.from_addr]
    ack = email.message_from_bytes(e.store.outbox_raw(acks[-1].id), policy=default)
    return verdict, body(ack)


def test_the_corpus_covers_the_usual_clients():
    assert len(CORPUS) >= 15
    assert len(list(PLAYERS.glob("*.eml"))) == len(CORPUS)  # make_players.py was run after its last change


@pytest.mark.parametrize(("name", "wrong"), [(name, wrong) for name, _d, wrong, _b in CORPUS])
def test_each_ack_counts_exactly_the_wrong_order_lines(game, name, wrong):
    verdict, ack = answer(game, name)
    marks = [m.group(1) for line in ack.split("\n") if (m := VERDICT.match(line))]
    errors = [m for m in marks if m != "OK"]
    assert len(errors) == wrong, (name, ack)
    lines = len(marks)
    assert verdict == f"ok ({lines} lines, {wrong} errors)", (name, verdict)
    if lines:
        assert (", aucune erreur." if wrong == 0 else f", {wrong} erreur{'s' if wrong > 1 else ''}.") in ack, ack
    assert "(s)" not in ack and "erreur(s)" not in ack


def test_greetings_signatures_and_prose_are_listed_as_ignored_text(game):
    _verdict, ack = answer(game, "p01_gmail_fr_greeting_signature.eml")
    ignored = ack.split("Texte ignoré, qui n'est pas un ordre :\n", 1)[1].split("\n\n", 1)[0]
    assert ignored.split("\n") == ["  Bonjour,", "  Voici mes ordres pour ce tour :", "  Merci et bonne soirée !",
                                   "  Robb"]
    assert "pourmabelle.lejeu@gmail.com" not in ack  # the attribution and the quoted turn are not the player's


def test_prose_that_begins_with_pour_is_not_the_mj_command(game):
    _verdict, ack = answer(game, "p07_prose_beginning_with_pour.eml")
    assert "seul le MJ" not in ack
    assert "  Pour les Gardes : je propose qu'on protège Varys cette fois." in ack.split("Texte ignoré")[1]


def test_an_english_player_is_understood(game):
    verdict, ack = answer(game, "p13_iphone_en.eml")
    assert "KILL Lancel\n    -> OK" in ack and verdict == "ok (1 lines, 0 errors)"
    assert game.store.current_orders("pmb1", 1)["Loras"].orders[0].verb == "ESCOUADE"


def test_a_mail_of_prose_only_says_it_found_no_order(game):
    verdict, ack = answer(game, "p14_only_prose.eml")
    assert verdict == "ok (0 lines, 0 errors)"
    assert "Je n'ai trouvé aucun ordre dans votre message, seulement ce texte, ignoré :" in ack
    assert "Écrivez un ordre par ligne ; AIDE donne la liste des ordres." in ack


def test_ordres_in_the_same_mail_answers_with_that_mails_orders(game):
    _verdict, ack = answer(game, "p12_orders_then_ordres.eml")
    assert "Vos ordres pour le tour 1 :\n  ESCOUADE Lancel" in ack
