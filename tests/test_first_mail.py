"""A new player's first mail is read as he writes it (#22): a name or a signature after INSCRIPTION is his text,
a near miss gets « vouliez-vous dire INSCRIPTION ? » with the line to send, and INSCRIPTION inside a sentence is
understood; names match without hyphens or capitals, and the answer says the whole name it matched."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import body, make_config, make_mail, outbox_messages

from pbem.engine import Engine
from pbem.engine.words import join_near_miss, join_sentence
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    e.add_player("toy1", "Arya", "arya@pbem.test", T0)
    yield e
    e.store.close()


def feed(e: Engine, sender: str, text: str, name: str | None = "Jean Dupont") -> tuple[str, str]:
    n = len(e.store.messages())
    raw = make_mail(sender, text, message_id=f"<m{n}@x>", name=name)
    e.store.store_raw([(f"k{n}", raw)], T0)
    verdict = e.process_message(f"k{n}", raw, T0)
    answers = outbox_messages(e.store, rcpt=sender)
    return verdict, body(answers[-1]) if answers else ""


def registered(e: Engine) -> dict[str, str | None]:
    return {p.name: p.gender for p in e.store.players("toy1")}


def test_a_name_and_a_signature_after_inscription_are_the_players_text(eng):
    verdict, ack = feed(eng, "olenna@pbem.test", "INSCRIPTION Olenna\nOlenna Tyrell\n06 12 34 56 78\nHautjardin")
    assert verdict == "ok (1 lines, 0 errors)"
    assert "ERREUR" not in ack and "pas encore commencé" not in ack
    assert "Texte ignoré, qui n'est pas un ordre :\n  Olenna Tyrell\n  06 12 34 56 78\n  Hautjardin" in ack
    assert "Olenna" in registered(eng)


def test_a_registered_players_orders_before_the_start_still_get_their_answer(eng):
    verdict, ack = feed(eng, "arya@pbem.test", "GUESS 3")
    assert "GUESS 3\n    -> ERREUR : la partie n'a pas encore commencé" in ack


@pytest.mark.parametrize("typed", ["INSCRITPION", "inscirption", "Incription", "INSCRIPTIN"])
def test_a_near_miss_of_inscription_is_asked_about_with_the_line_to_send(eng, typed):
    verdict, ack = feed(eng, "olenna@pbem.test", f"{typed} Olenna")
    assert verdict == "ok (1 lines, 1 errors)"
    assert f"« {typed} » : vouliez-vous dire INSCRIPTION ? Écrivez la ligne : INSCRIPTION Olenna" in \
        ack.replace("\u00a0", " ")
    assert "Olenna" not in registered(eng)  # nothing done on a guess
    assert "Votre adresse n'est inscrite dans aucune partie" not in ack


@pytest.mark.parametrize(("word", "near"), [("INSCRITPION", True), ("inscriptions", True), ("description", False),
                                            ("instruction", False), ("inspiration", False), ("INSCRIPTION", False)])
def test_what_is_a_near_miss(word, near):
    assert join_near_miss(word) is near


@pytest.mark.parametrize(("line", "name"), [
    ("Bonjour, je voudrais m'inscrire, mon nom est Olenna Tyrell.", "Olenna Tyrell"),
    ("J'aimerais rejoindre la partie, je m'appelle Petit-Doigt.", "Petit-Doigt"),
    ("je voudrais jouer sous le nom d'Élise de Mallery, merci !", "Élise de Mallery"),
    ("Inscrivez-moi svp", ""),
    ("Je souhaite participer à ce jeu", ""),
    ("Hello, I would like to join, my name is Bob.", "Bob"),
    ("Je pense que Arya a raison.", None),
    ("Mon nom est Olenna", None),
])
def test_a_sentence_that_asks_to_register(line, name):
    assert join_sentence(line) == name


def test_inscription_inside_a_sentence_is_understood(eng):
    verdict, ack = feed(eng, "olenna@pbem.test", "Bonjour, je voudrais m'inscrire, mon nom est Olenna Tyrell "
                                                 "(femme).\nBien à vous")
    assert verdict == "ok (1 lines, 0 errors)"
    assert "-> OK : inscrite sous le nom Olenna Tyrell" in ack
    assert registered(eng)["Olenna Tyrell"] == "f"
    # without a name in it, the From header's, as « Je souhaite participer » does
    verdict, ack = feed(eng, "jean@pbem.test", "Inscrivez-moi, s'il vous plaît")
    assert "inscription enregistrée sous le nom Jean Dupont" in ack
    # INSCRIPTION followed by a sentence that says the name
    verdict, ack = feed(eng, "elise@pbem.test", "INSCRIPTION je m'appelle Élise")
    assert "sous le nom Élise" in ack and "Élise" in registered(eng)


def test_a_sentence_that_asks_to_register_without_a_name_anywhere_gets_the_line_to_send(eng):
    verdict, ack = feed(eng, "anon@pbem.test", "Je voudrais m'inscrire", name=None)
    assert "indiquez votre nom de personnage : INSCRIPTION <nom>" in ack.replace("\u00a0", " ")
    assert len(registered(eng)) == 1


# --- names as people write them


def _playing(tmp_path, names: list[str]) -> Engine:
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(names):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    e.resolve("toy1", T0)  # step 2: one player gives a point to another (GIFT <player>)
    return e


def _giver(e: Engine) -> tuple[str, str]:
    giver = e.ruleset("toy1").prompts(e.state(e.game("toy1")))[0].player
    assert giver == "Arya Stark"  # (registered first, she is seated first: she gives to Bronn or Petit-Doigt)
    return giver, next(p.address for p in e.store.players("toy1") if p.name == giver)


@pytest.mark.parametrize("typed", ["petit doigt", "PETIT DOIGT", "Petit Doigt", "petit-doigt"])
def test_a_name_matches_without_its_hyphen_or_its_capitals(tmp_path, typed):
    e = _playing(tmp_path, ["Arya Stark", "Petit-Doigt", "Bronn"])
    giver, address = _giver(e)
    verdict, ack = feed(e, address, f"GIFT {typed}")
    assert verdict == "ok (1 lines, 0 errors)", ack
    assert e.store.current_orders("toy1", 2)[giver].orders[0].args == ("Petit-Doigt",)
    assert "→" not in ack  # written whole: nothing to say about it
    e.store.close()


def test_the_answer_says_the_whole_name_it_matched(tmp_path):
    e = _playing(tmp_path, ["Arya Stark", "Petit-Doigt", "Bronn"])
    giver, address = _giver(e)
    verdict, ack = feed(e, address, "GIFT Bron")
    assert verdict == "ok (1 lines, 0 errors)"
    assert "  GIFT Bron\n    -> OK : Bron → Bronn\n" in ack.replace("\u00a0", " ")
    assert e.store.current_orders("toy1", 2)[giver].orders[0].args == ("Bronn",)
    e.store.close()


# --- the start mail and AIDE


def test_the_start_mail_lists_the_orders_with_an_example_each_that_is_accepted(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran", "Cersei"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    start = body(outbox_messages(e.store, kind="private", rcpt="p0@pbem.test")[0])
    assert "Voici ceux que vous pouvez donner :\n\n  GUESS <1-10> : deviner\n      exemple : GUESS 5\n" in start
    assert "  PASSER : ne rien faire cette étape-ci, exprès (les ordres par défaut s'appliquent)\n" \
           "      exemple : PASSER\n" in start
    assert "  ABSENCE <durée>, ou ABSENCE du <date> au <date> : annoncer une absence\n" \
           "      exemple : ABSENCE 3 jours\n" in start
    # every example is a line pbem accepts as written
    shown = [line.split("exemple : ", 1)[1] for line in start.splitlines() if "exemple : " in line]
    assert shown == ["GUESS 5", "PASSER", "ABSENCE 3 jours"]
    for line in shown:
        verdict, ack = feed(e, "p0@pbem.test", line)
        assert verdict == "ok (1 lines, 0 errors)", (line, ack)
    e.store.close()


def test_aide_mentions_absence(eng):
    verdict, ack = feed(eng, "arya@pbem.test", "AIDE")
    assert "  ABSENCE <durée>     annoncer une absence (AWAY) : « ABSENCE 3 jours »" in ack.replace("\u00a0", " ")
