"""French that reads like French (/work/shared/FRENCH.md): no « (s) », lists with « et », agreement with a
player's gender and neutral phrasing without one, one step word per game, non-breaking spaces."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.core import Audience, Event, StepWord
from pbem.engine import Engine
from pbem.render import TEMPLATES, Renderer, french_spaces
from pbem.store import Store
from pbem.wording import StepNoun, de, gender_of, join_list, plural

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


# --- the vocabulary ---

def test_lists_are_joined_with_et_and_alternatives_with_ou():
    assert join_list(["ser Schlingue"]) == "ser Schlingue"
    assert join_list(["ser Schlingue", "Olenna"]) == "ser Schlingue et Olenna"
    assert join_list(["A", "B", "C"]) == "A, B et C"
    assert join_list(["A", "B", "C"], word="ou") == "A, B ou C"
    assert join_list(["A", "B"], "en") == "A and B"


def test_plurals_take_the_singular_for_zero_and_one_in_french():
    assert plural(0, "erreur") == "0 erreur" and plural(1, "erreur") == "1 erreur"
    assert plural(5, "ligne lue", "lignes lues") == "5 lignes lues"
    assert plural(0, "error", lang="en") == "0 errors" and plural(1, "error", lang="en") == "1 error"


@pytest.mark.parametrize(("word", "the", "this", "of", "to", "e"), [
    (StepWord("tour", "turn", False), "le tour", "ce tour", "du tour", "au tour", ""),
    (StepWord("manche", "round", True), "la manche", "cette manche", "de la manche", "à la manche", "e"),
    (StepWord("étape", "step", True), "l'étape", "cette étape", "de l'étape", "à l'étape", "e"),
])
def test_the_step_word_takes_its_article_and_agreement(word, the, this, of, to, e):
    n = StepNoun(word, "fr")
    assert (n.the, n.this, n.of, n.to, n.e) == (the, this, of, to, e)


def test_a_step_title_is_named_in_running_text():
    assert StepNoun(StepWord("tour", "turn", False)).name("Tour 3") == "le tour 3"
    assert StepNoun(StepWord()).name("Étape 2") == "l'étape 2"
    # a title quoted by code gets its non-breaking spaces inside « » (FRENCH.md), as templates get theirs
    assert StepNoun(StepWord()).name("Manche 2 — pots-de-vin") == "l'étape «\u00a0Manche 2 — pots-de-vin\u00a0»"
    assert StepNoun(StepWord("tour", "turn", False), "en").name("Turn 3") == "turn 3"


def test_elision_and_genders():
    assert de("Olenna") == "d'Olenna" and de("Fitz") == "de Fitz" and de("Île") == "d'Île"
    assert gender_of("(femme)") == "f" and gender_of("Homme") == "m" and gender_of("sergent") is None


def test_no_template_writes_a_parenthesised_plural():
    tags = re.compile(r"{{.*?}}|{%.*?%}|{#.*?#}", re.DOTALL)  # the text of a template, not its code
    found = [(p.name, m.group(0)) for p in TEMPLATES.rglob("*.j2")
             for m in re.finditer(r"\w\((?:s|e|es)\)", tags.sub("", p.read_text("utf-8")))]
    assert found == []


def test_french_subjects_keep_their_non_breaking_spaces():
    """Subjects are one line, but « rappel\u00a0: » keeps its space (str.split would make it a plain one)."""
    from pbem.outbox.compose import _clean_header

    assert _clean_header("[PMB] rappel\u00a0: vos ordres\r\n pour  le tour 3\u2028") == "[PMB] rappel\u00a0: vos ordres pour le tour 3"


def test_refusals_written_by_code_quote_the_french_way():
    from pbem.core import OrderAmbiguousError
    from pbem.names import match_name

    with pytest.raises(OrderAmbiguousError) as caught:
        match_name("Fiz", ["Fitz", "Arya"])
    assert "«\u00a0Fiz\u00a0»\u00a0: vouliez-vous dire Fitz\u00a0?" in caught.value.msg.fr


def test_french_templates_get_non_breaking_spaces_but_values_are_left_alone():
    assert french_spaces("Date limite : {{ d }}") == "Date limite\u00a0: {{ d }}"
    assert french_spaces("« {{ x }} » ?") == "«\u00a0{{ x }}\u00a0»\u00a0?"
    assert french_spaces('{% if a %}{{ "x : y" }}{% endif %}') == '{% if a %}{{ "x : y" }}{% endif %}'


def test_spaces_typed_by_hand_are_never_doubled():
    """Pour le Roi's and Intrigue's templates carry their non-breaking spaces already: nothing is added to them."""
    assert french_spaces("Donneur\u00a0: {{ d }} «\u00a0x\u00a0»") == "Donneur\u00a0: {{ d }} «\u00a0x\u00a0»"
    typed = [p for p in TEMPLATES.rglob("*.fr.j2") if "\u00a0" in p.read_text("utf-8")]
    assert {p.parent.name for p in typed} >= {"pourleroi", "intrigue"}
    for path in TEMPLATES.rglob("*.fr.j2"):
        loaded = french_spaces(path.read_text("utf-8"))
        assert not re.search("[\u00a0\u202f][ \u00a0]| \u00a0", loaded), path


# --- genders through the engine ---

@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    yield e
    e.store.close()


def feed(e: Engine, sender: str, text: str, key: str) -> str:
    raw = make_mail(sender, text, message_id=f"<{key}@x>")
    e.store.store_raw([(key, raw)], T0)
    return e.process_message(key, raw, T0)


def test_a_gender_given_at_registration_is_kept_and_the_answer_agrees(eng):
    feed(eng, "olenna@pbem.test", "INSCRIPTION Olenna (femme)", "o")
    feed(eng, "fitz@pbem.test", "INSCRIPTION Fitz, homme", "f")
    feed(eng, "arya@pbem.test", "INSCRIPTION Arya", "a")
    players = {p.name: p.gender for p in eng.store.players("toy1")}
    assert players == {"Olenna": "f", "Fitz": "m", "Arya": None}
    assert "OK : inscrite sous le nom Olenna" in body(outbox_messages(eng.store, rcpt="olenna@pbem.test")[-1])
    assert "OK : inscrit sous le nom Fitz" in body(outbox_messages(eng.store, rcpt="fitz@pbem.test")[-1])
    assert "OK : inscription enregistrée sous le nom Arya" in body(outbox_messages(eng.store, rcpt="arya@pbem.test")[-1])
    feed(eng, "olenna@pbem.test", "INSCRIPTION Olenna", "o2")
    assert "vous êtes déjà inscrite sous le nom Olenna" in body(outbox_messages(eng.store, rcpt="olenna@pbem.test")[-1])


def test_a_parenthesis_that_is_no_gender_stays_in_the_name(eng):
    feed(eng, "jon@pbem.test", "INSCRIPTION Jon (sergent)", "j")
    assert eng.store.players("toy1") == [] and "nom invalide" in body(outbox_messages(eng.store)[-1])


def test_the_roster_can_give_genders(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text('[[joueur]]\njoueur = "Olenna"\ngenre = "femme"\n\n[[joueur]]\njoueur = "Fitz"\ngenre = "m"\n')
    cfg = make_config(tmp_path, extra_game={"roster": str(roster)})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Olenna", "Fitz", "Arya"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    assert {p.name: p.gender for p in e.store.players("toy1")} == {"Olenna": "f", "Fitz": "m", "Arya": None}
    e.store.close()


def test_event_texts_agree_with_the_gender_or_say_it_neutrally():
    r = Renderer("pmb", "fr")
    r.set_genders({"Olenna": "f", "Fitz": "m"})
    death = [r.event_text(Event("death", Audience.public(), {"player": n})) for n in ("Olenna", "Fitz", "Arya")]
    assert death == ["Olenna est morte.", "Fitz est mort.", "Arya a perdu la vie."]
    executed = r.event_text(Event("verdict_executed", Audience.public(), {"prisoner": "Olenna", "defaulted": False}))
    neutral = r.event_text(Event("verdict_executed", Audience.public(), {"prisoner": "Arya", "defaulted": False}))
    # without a gender, the neutral wording of the merged PMB rule pass (docs/rules/pmb.md, deviation 16)
    assert executed == "Olenna est exécutée." and neutral == "Verdict du Lord Commandant pour Arya\u00a0: la mort."
    released = r.event_text(Event("verdict_released", Audience.public(), {"prisoner": "Fitz", "defaulted": True}))
    assert released == "Fitz est relâché à Culpucier (verdict par défaut)."
    squad = r.event_text(Event("squad_repelled", Audience.public(), {"target": "Fitz", "killed": ["A", "B", "C"]}))
    assert squad == "Fitz a riposté et a tué A, B et C."
    report = r.event_text(Event("mission_report", Audience.public(),
                                {"mission": "protection", "target": "Fitz", "count": 3, "effective": True}))
    assert "3 Gardes engagés" in report and "(s)" not in report


# --- one step word per game, in every text ---

def test_each_game_names_its_steps_with_its_own_word(tmp_path):
    cfg = make_config(tmp_path, ruleset="intrigue", game_id="g", tag="G")
    e = Engine(cfg, Store(cfg.database))
    e.new_game("g", T0, seed="ab" * 32)
    for i, name in enumerate(["Lorenzo", "Isabella", "Cesare"]):
        e.add_player("g", name, f"p{i}@pbem.test", T0)
    e.start_game("g", T0)
    raw = make_mail("p0@pbem.test", "AIDE", subject="[G] aide", message_id="<h@x>")
    e.store.store_raw([("h", raw)], T0)
    e.process_message("h", raw, T0)
    ack = body(outbox_messages(e.store, kind="ack")[-1])
    assert "vos ordres enregistrés pour l'étape en cours" in ack and " tour " not in ack
    assert "Nous attendons encore vos ordres pour l'étape « Manche 1" in ack
    e.store.close()


def test_french_answers_carry_non_breaking_spaces_and_echo_the_players_lines_exactly(eng):
    feed(eng, "arya@pbem.test", "INSCRIPTION Arya", "a")
    feed(eng, "bran@pbem.test", "INSCRIPTION Bran", "b")
    eng.start_game("toy1", T0)
    feed(eng, MJ_ADDRESS, "POUR Bran : GUESS 6", "m")
    raw_ack = body(outbox_messages(eng.store, kind="ack", rcpt=MJ_ADDRESS)[-1], nbsp=True)
    # the MJ's answer (his seat's, where the game stands at its end) carries them too
    assert "date limite\u00a0: jeudi 3 décembre 2026 à 21\u00a0h." in raw_ack
    assert "  [→ Bran] POUR Bran : GUESS 6\n" in raw_ack  # the MJ's own line, as typed (tagged with its player)
