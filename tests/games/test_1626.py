"""1626, le gant et l'épée: numbered rule cases (R<section>), named after the rule sentence they check.

Expected numbers come from the rules text (/work/shared/rules/1626-le-gant-et-l-epee.txt) and the
rulings written in docs/rules/1626.md.  Scripted dice (`FakeDice`) fix the faces; the statistical
cases at the end use the real seeded `Dice`.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

import jinja2
import pytest
from fresh import digest, replay

from pbem import serial
from pbem.core import (
    MJ,
    PUBLIC,
    Audience,
    Event,
    OrderAmbiguousError,
    OrderNotAllowedError,
    OrderSyntaxError,
    Seat,
    SetupError,
    replace,
)
from pbem.dice import Dice
from pbem.games import get
from pbem.games.g1626 import RULESET, State, seats_from_toml
from pbem.games.g1626.orders import decode
from pbem.games.g1626.tables import difficulty, mastery, title, title_bonuses
from pbem.render import Renderer
from pbem.render import install_vocabulary as vocabulary

from .test_1626_support import CARACS, ROOT, FakeDice, game, result, run, sheet, specialist

# --- R1 characteristics and sheets ---


def test_R1_the_ten_characteristics_are_required() -> None:
    caracs = dict(CARACS)
    del caracs["BR"]
    with pytest.raises(SetupError, match="BR"):
        RULESET.setup([Seat("Armand", data=sheet(caracteristiques=caracs))], {}, FakeDice())


def test_R1_characteristics_may_sit_at_the_top_level_with_english_keys() -> None:
    data = {**CARACS, "talents": {"escrime": 5}, "gifts": ["Robuste"], "prestige": 10, "name": "A"}
    state, events = RULESET.setup([Seat("Armand", data=data)], {}, FakeDice())
    char = state.characters["Armand"]
    assert char.talents == {"Escrime": 5} and "Robuste" in char.gifts and char.name == "A"
    assert [e.kind for e in events] == ["sheet"] and events[0].audience == Audience.to("Armand")


def test_R1_setup_refuses_an_empty_roster_and_duplicate_players() -> None:
    with pytest.raises(SetupError):
        RULESET.setup([], {}, FakeDice())
    with pytest.raises(SetupError):
        RULESET.setup([Seat("A", data=sheet()), Seat("A", data=sheet())], {}, FakeDice())


def test_R1_specialist_gift_must_name_a_talent_of_the_sheet() -> None:
    with pytest.raises(SetupError, match="Latin"):
        game(dons={"Spécialiste": ["Latin"]})


# --- R2 talents ---


@pytest.mark.parametrize(("score", "label"), [
    (0, "non appris"), (1, "aucune maîtrise, béotien ou débutant"), (2, "aucune maîtrise, béotien ou débutant"),
    (3, "amateur"), (4, "amateur"), (5, "amateur averti ou professionnel"), (6, "amateur averti ou professionnel"),
    (7, "professionnel d'excellent niveau"), (8, "professionnel d'excellent niveau"), (9, "maître incontesté"),
    (10, "maître incontesté"), (11, "rarissime, légendaire"), (14, "rarissime, légendaire")])
def test_R2_plus_le_score_du_talent_est_eleve_degres_de_maitrise(score: int, label: str) -> None:
    assert mastery(score).fr == label


def test_R2_un_talent_ne_figurant_pas_dans_cette_liste_en_accord_avec_le_MJ() -> None:
    state = game(talents={"Gascon": 6})
    e = result(state, "TEST Gascon CH SR 12", 4)
    assert (e["talent"], e["talent_score"], e["total"]) == ("Gascon", 6, 5 + 6 + 4)
    with pytest.raises(OrderSyntaxError):  # outside the list and not on Isaac's sheet
        RULESET.parse_order(state, "Isaac", "TEST Gascon CH SR 12", [])


# --- R3 making a test ---


def test_R3_double_test_is_carac_plus_talent_plus_d10() -> None:
    e = result(game(), "TEST Escrime AG SR 15", 7)
    assert (e["carac_score"], e["talent_score"], e["faces"], e["total"]) == (6, 5, [7], 18)
    assert e["success"] and e["margin"] == 3 and e["double"] and not e["critical"]


def test_R3_simple_test_is_carac_times_two_plus_d10() -> None:
    e = result(game(), "TEST AG SR 20", 7)
    assert (e["base"], e["total"], e["talent"], e["double"]) == (12, 19, "", False)
    assert not e["success"] and e["margin"] == -1


def test_R3_success_when_result_greater_or_equal_to_SR() -> None:
    assert result(game(), "TEST Escrime AG SR 18", 7)["success"] is True
    assert result(game(), "TEST Escrime AG SR 19", 7)["success"] is False


def test_R3_missing_talent_counts_zero_ruling() -> None:
    e = result(game(), "TEST Médecine INT SR 10", 4)
    assert (e["talent"], e["talent_score"], e["has_talent"], e["total"]) == ("Médecine", 0, False, 9)


def test_R3_the_characteristic_may_follow_a_slash_or_come_first() -> None:
    state = game()
    for line in ("TEST Escrime/AG SR 15", "TEST escrime / ag sr 15", "TEST AG Escrime SR 15", "test ESCRIME agilité SR15"):
        parsed = RULESET.parse_order(state, "Armand", line, [])
        assert decode(parsed.args) == {"player": "Armand", "talent": "Escrime", "carac": "AG", "sr": 15,
                                       "secret": False}, line


def test_R3_english_aliases_roll_check_and_dc() -> None:
    state = game()
    for line in ("ROLL Escrime AG DC 15", "check escrime/dex dc 15", "JET Escrime AG SR 15"):
        parsed = RULESET.parse_order(state, "Armand", line, [])
        assert parsed.verb == "TEST" and decode(parsed.args)["talent"] == "Escrime" and decode(parsed.args)["sr"] == 15


def test_R3_multi_word_talents_accents_and_case_ignored() -> None:
    state = game()
    for line, talent in [("TEST strategie MILITAIRE INT SR 14", "Stratégie militaire"),
                         ("TEST Armes de tir/PE SR 14", "Armes de tir"), ("TEST armes à feu PE SR 14", "Armes de tir")]:
        assert decode(RULESET.parse_order(state, "Armand", line, []).args)["talent"] == talent


@pytest.mark.parametrize(("line", "talent", "carac"), [
    ("test double d'armes à feu / perception", "Armes de tir", "PE"),  # the text's own words
    ("test d'armes à feu / éducation", "Armes de tir", "EDU"),
    ("test d'étiquette / apparence", "Etiquette", "APP"),
    ("test simple d'apparence", "", "APP"),
    ("jet de discrétion/ag secret", "Discrétion", "AG"),
    ("Je fais un jet de Discrétion/AG", "Discrétion", "AG"),
    ("je tente un test d’escrime AG", "Escrime", "AG"),
    ("jet de AG", "", "AG"),
    ("JET de discretion/agi", "Discrétion", "AG"),
    ("TEST Escrime endu", "Escrime", "EN"),
    ("TEST intel", "", "INT"),
    ("TEST Baratin cha", "Baratin", "CH"),
    ("TEST Eloquence brav", "Eloquence", "BR"),
])
def test_R3_on_effectuera_un_test_double_d_armes_a_feu_perception_written_as_players_write_it(
        line: str, talent: str, carac: str) -> None:
    """« on effectuera un test double d'armes à feu / perception », « un test simple d'apparence » : « jet de »,
    « test de », « je fais un jet de », a slash between talent and characteristic, the usual abbreviations."""
    values = decode(RULESET.parse_order(game(), "Armand", line, []).args)
    assert (values.get("talent", ""), values["carac"]) == (talent, carac), line
    assert values["secret"] == ("secret" in line)


def test_R3_a_simple_test_has_no_talent_and_a_double_test_has_one() -> None:
    with pytest.raises(OrderSyntaxError, match="simple"):
        RULESET.parse_order(game(), "Armand", "test simple d'escrime/AG", [])
    with pytest.raises(OrderSyntaxError, match="double"):
        RULESET.parse_order(game(), "Armand", "test double d'AG", [])


def test_R3_a_modifier_may_follow_the_SR() -> None:
    e = result(game(), "TEST Escrime AG SR 15 -2", 7)
    assert e["total"] == 16 and e["bonuses"] == [{"fr": "modificateur", "en": "modifier", "value": -2}]
    assert decode(RULESET.parse_order(game(), "Armand", "TEST AG SR 15 + 3", []).args)["modifier"] == 3


def test_R3_une_caracteristique_appropriee_qui_peut_varier_selon_les_circonstances() -> None:
    """« test d'armes à feu / perception pour tirer », « armes à feu / éducation » pour l'histoire du mousquet."""
    assert result(game(), "TEST armes à feu PE SR 12", 5)["total"] == 4 + 3 + 5
    assert result(game(), "TEST armes à feu EDU SR 12", 5)["total"] == 4 + 3 + 5
    assert result(game(), "TEST Etiquette APP SR 12", 5)["carac"] == "APP"


# --- R3 parse errors: the three kinds ---


def test_R3_unknown_characteristic_is_a_syntax_error_listing_valid_ones() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        RULESET.parse_order(game(), "Armand", "TEST Escrime XY SR 15", [])
    assert "FO, EN, AG, DEX, PE, INT, EDU, CH, APP, BR" in caught.value.msg.fr and "XY" in caught.value.msg.fr


def test_R3_missing_characteristic_is_a_syntax_error() -> None:
    with pytest.raises(OrderSyntaxError, match="characteristic"):
        RULESET.parse_order(game(), "Armand", "TEST Escrime SR 15", [])


def test_R3_a_malformed_SR_is_a_syntax_error_with_an_example() -> None:
    for line in ("TEST Escrime AG SR", "TEST Escrime AG SR quinze", "TEST AG SR 0", "TEST AG SR -3"):
        with pytest.raises(OrderSyntaxError) as caught:
            RULESET.parse_order(game(), "Armand", line, [])
        assert "TEST Escrime AG SR 15" in caught.value.msg.fr, line


def test_R3_stray_words_after_the_SR_are_refused() -> None:
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(game(), "Armand", "TEST AG SR 15 vite", [])


def test_R3_misspelt_talent_gets_did_you_mean() -> None:
    with pytest.raises(OrderAmbiguousError) as caught:
        RULESET.parse_order(game(), "Armand", "TEST Escrmie AG SR 15", [])
    assert "Escrime" in caught.value.msg.fr and "vouliez-vous dire" in caught.value.msg.fr


def test_R3_ambiguous_talent_prefix_lists_the_candidates() -> None:
    with pytest.raises(OrderAmbiguousError) as caught:
        RULESET.parse_order(game(), "Armand", "TEST Armes AG SR 15", [])
    assert "Armes de tir" in caught.value.msg.fr and "Armes d'hast" in caught.value.msg.fr


def test_R3_unknown_verb_is_a_syntax_error_and_typo_an_ambiguity() -> None:
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(game(), "Armand", "DANSER", [])
    with pytest.raises(OrderAmbiguousError):
        RULESET.parse_order(game(), "Armand", "TETS AG SR 15", [])


def test_R3_a_player_without_a_character_is_not_allowed() -> None:
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Zorro", "TEST AG SR 15", [])


def test_R3_the_MJ_names_the_character_who_tests() -> None:
    with pytest.raises(OrderSyntaxError) as caught:
        RULESET.parse_order(game(), MJ, "TEST AG SR 15", [])
    assert caught.value.msg.fr == "le MJ nomme le personnage qui teste : « TEST Armand Escrime AG SR 15 »"
    e = result(game(), "TEST Isaac Escrime AG SR 15", 7, player=MJ)
    assert (e["player"], e["name"], e["total"]) == ("Isaac", "Isaac de Porthau", 18)


# --- R4 the success threshold table, at every boundary ---


@pytest.mark.parametrize(
    ("sr", "label"),
    [(1, "Dérisoire"), (9, "Dérisoire"), (10, "Très facile"), (11, "Très facile"), (12, "Facile"), (13, "Facile"),
     (14, "Moyen"), (15, "Assez difficile"), (16, "Assez difficile"), (17, "Difficile"), (18, "Difficile"),
     (19, "Très difficile"), (20, "Très difficile"), (21, "Extrêmement difficile"),
     (22, "Extrêmement difficile"), (23, "Impossible"), (40, "Impossible")],
)
def test_R4_SR_difficulty_labels(sr: int, label: str) -> None:
    assert difficulty(sr).fr == label
    assert result(game(), f"TEST AG SR {sr}", 1)["difficulty_fr"] == label


# --- R5 critical successes ---


def test_R5_a_natural_10_is_a_critical_success_rerolled_and_added() -> None:
    e = result(game(), "TEST Escrime AG SR 15", 10, 4)
    assert (e["faces"], e["reroll"], e["dice_total"], e["total"], e["critical"]) == ([10], 4, 14, 25, True)


def test_R5_only_one_reroll_even_if_it_is_10_again() -> None:
    _, events, dice = run(game(), "TEST Escrime AG SR 15", 10, 10)
    e = events[0].data
    assert (e["reroll"], e["dice_total"], e["total"]) == (10, 20, 31)
    assert len(dice.rolls) == 2 and "critical re-roll" in dice.rolls[1].purpose


def test_R5_no_critical_failure_a_1_is_just_1() -> None:
    e = result(game(), "TEST Escrime AG SR 12", 1)
    assert (e["total"], e["success"], e["critical"]) == (12, True, False)


def test_R5_a_critical_still_fails_when_the_total_is_below_SR_ruling() -> None:
    e = result(game(), "TEST AG SR 40", 10, 1)
    assert e["critical"] and e["total"] == 23 and not e["success"]


@pytest.mark.parametrize(("lang", "wanted"), [
    ("fr", "— raté de 17, malgré le 10 relancé et ajouté au total."),
    ("en", "— failure by 17, despite the 10 re-rolled and added to the total."),
])
def test_R5_a_critical_that_fails_does_not_read_as_a_success(lang: str, wanted: str) -> None:
    """« c'est une réussite critique » names the roll, not the outcome: a failed test never says « Réussite critique »."""
    text = Renderer("1626", lang).event_text(run(game(), "TEST AG SR 40", 10, 1)[1][0])
    assert text.endswith(wanted), text
    assert "critique" not in text.lower() and "critical" not in text.lower()
    success = Renderer("1626", lang).event_text(run(game(), "TEST AG SR 20", 10, 1)[1][0])
    assert ("Réussite critique" if lang == "fr" else "Critical success") in success


def test_R5_specialist_rolls_2d6_instead_of_d10() -> None:
    e = result(game(**specialist()), "TEST Escrime AG SR 15", 3, 4)
    assert (e["dice"], e["faces"], e["reroll"], e["total"], e["critical"]) == ("2d6", [3, 4], None, 20, False)


def test_R5_specialist_rerolls_a_6_and_adds_it() -> None:
    _, events, dice = run(game(**specialist()), "TEST Escrime AG SR 15", 6, 2, 5)
    e = events[0].data
    assert (e["faces"], e["reroll"], e["dice_total"], e["total"], e["critical"]) == ([6, 2], 5, 13, 26, True)
    assert [r.high for r in dice.rolls] == [6, 6, 6]


def test_R5_specialist_double_6_still_one_reroll_in_all_ruling() -> None:
    _, events, dice = run(game(**specialist()), "TEST Escrime AG SR 15", 6, 6, 6)
    e = events[0].data
    assert (e["reroll"], e["dice_total"], e["total"]) == (6, 18, 31) and len(dice.rolls) == 3


def test_R5_specialist_only_in_that_talent() -> None:
    state = game(**specialist())
    assert result(state, "TEST Baratin CH SR 10", 5)["dice"] == "d10"
    assert result(state, "TEST AG SR 10", 5)["dice"] == "d10"


def test_R6_master_rolls_2d6_plus_2_with_the_same_reroll() -> None:
    state = game(talents={"Escrime": 9}, dons={"Spécialiste": ["Escrime"], "Maître": ["Escrime"], "Style d'escrime": ["italien"]})
    e = result(state, "TEST Escrime AG SR 20", 1, 2)
    assert (e["dice"], e["dice_total"], e["total"], e["critical"]) == ("2d6+2", 5, 20, False)
    e = result(state, "TEST Escrime AG SR 20", 6, 1, 6)
    assert (e["reroll"], e["dice_total"], e["total"], e["critical"]) == (6, 15, 30, True)


# --- R6 gifts on characteristics and hit points ---


def test_R6_hit_points_are_EN_times_4_plus_BR() -> None:
    view = RULESET.view(game(), "Armand")
    assert view["characters"][0]["pv"] == 5 * 4 + 6


def test_R6_robuste_gives_EN_times_5_plus_BR() -> None:
    view = RULESET.view(game(dons=["Robuste"]), "Armand")
    assert view["characters"][0]["pv"] == 5 * 5 + 6 and view["characters"][0]["robust"]


def test_R6_naturellement_doue_adds_1_to_the_chosen_characteristic() -> None:
    state = game(dons={"Naturellement doué": ["AG", "Endurance"]})
    e = result(state, "TEST Escrime AG SR 15", 4)
    assert (e["carac_score"], e["natural"], e["total"]) == (7, True, 16)
    assert result(state, "TEST AG SR 15", 4)["total"] == 7 * 2 + 4
    assert RULESET.view(state, "Armand")["characters"][0]["pv"] == 6 * 4 + 6


def test_R6_gifts_accept_a_list_with_tables() -> None:
    state = game(talents={"Escrime": 7}, dons=["Robuste", {"Spécialiste": "Escrime"}, "hargneux"])
    assert state.characters["Armand"].gifts == {"Robuste": [], "Spécialiste": ["Escrime"], "Hargneux": []}


# --- R7 prestige ---


@pytest.mark.parametrize(
    ("prestige", "name", "eloquence", "etiquette"),
    [(-50, "Inconnu", 0, 0), (0, "Inconnu", 0, 0), (99, "Inconnu", 0, 0), (100, "Bon camarade", 1, 0),
     (499, "Bon camarade", 1, 0), (500, "Homme de confiance", 1, 0), (999, "Homme de confiance", 1, 0),
     (1000, "Gentilhomme", 1, 0), (2999, "Gentilhomme", 1, 0), (3000, "Gentilhomme admiré", 1, 1),
     (5999, "Gentilhomme admiré", 1, 1), (6000, "Grand nom du royaume", 2, 2), (9999, "Grand nom du royaume", 2, 2),
     (10000, "Héros", 3, 3), (14999, "Héros", 3, 3), (15000, "Légende", 4, 4), (90000, "Légende", 4, 4)],
)
def test_R7_prestige_titles_lower_bound_inclusive(prestige: int, name: str, eloquence: int, etiquette: int) -> None:
    assert title(prestige).fr == name
    bonuses = title_bonuses(prestige)
    assert (bonuses.get("Eloquence", 0), bonuses.get("Etiquette", 0)) == (eloquence, etiquette)


def test_R7_titles_bonus_lists_match_the_table() -> None:
    assert title_bonuses(500) == {"Eloquence": 1, "Baratin": 1}
    assert title_bonuses(1000) == {"Eloquence": 1, "Baratin": 1, "Intimidation": 1}
    assert title_bonuses(3000) == {"Eloquence": 1, "Baratin": 1, "Intimidation": 1, "Etiquette": 1}


def test_R7_prestige_bonus_applies_only_when_recognised() -> None:
    state = game(prestige=600)
    assert result(state, "TEST Baratin CH SR 15", 5)["total"] == 5 + 4 + 5
    state, events, _ = run(state, "RECONNU Armand", player=MJ)
    assert state.characters["Armand"].recognised and events[0].kind == "mj_note"
    assert events[0].audience == Audience.to("Armand")
    e = result(state, "TEST Baratin CH SR 15", 5)
    assert e["total"] == 5 + 4 + 1 + 5 and e["bonuses"][0]["value"] == 1
    state, _, _ = run(state, "INCONNU armand", player=MJ)
    assert result(state, "TEST Baratin CH SR 15", 5)["total"] == 14


def test_R7_prestige_bonus_only_on_the_four_social_talents() -> None:
    state = game(prestige=20000, reconnu=True)
    assert result(state, "TEST Escrime AG SR 15", 5)["bonuses"] == []
    assert result(state, "TEST CH SR 15", 5)["bonuses"] == []
    assert result(state, "TEST Eloquence CH SR 15", 5)["total"] == 5 + 3 + 4 + 5
    assert result(state, "TEST Intimidation FO SR 15", 5)["total"] == 5 + 0 + 4 + 5


def test_R7_MJ_adjusts_prestige_and_the_player_is_told() -> None:
    state, events, _ = run(game(prestige=80), "PRESTIGE Armand +20", player=MJ)
    assert state.characters["Armand"].prestige == 100
    note = events[0].data
    assert (note["before"], note["delta"], note["title_fr"], note["old_title_fr"]) == (80, 20, "Bon camarade", "Inconnu")
    state, _, _ = run(state, "PRESTIGE Armand de Sillègue -150", player=MJ)
    assert state.characters["Armand"].prestige == -50
    state, _, _ = run(state, "PRESTIGE Isaac =3000", player=MJ)
    assert state.characters["Isaac"].prestige == 3000


def test_R7_MJ_orders_are_refused_to_players_and_checked() -> None:
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "RECONNU Armand", [])
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(game(), MJ, "PRESTIGE Armand 50", [])
    with pytest.raises(OrderAmbiguousError):
        RULESET.parse_order(game(), MJ, "RECONNU Isac", [])


# --- secret tests, sheets, views, help ---


def test_secret_flag_sends_the_result_to_the_MJ_only() -> None:
    state, events, _ = run(game(), "TEST Escrime AG SR 15 SECRET", 7)
    assert [(e.kind, e.audience) for e in events] == [
        ("test_result", Audience.mj()), ("test_secret", Audience.to("Armand"))]
    assert "total" not in events[1].data and state.tests == 1


def test_secret_tests_option_makes_every_test_secret() -> None:
    _, events, _ = run(game(options={"secret_tests": True}), "TEST AG SR 15", 7)
    assert events[0].audience == Audience.mj() and events[0].data["secret"]


def test_FICHE_sends_the_sheet_to_the_player_and_the_MJ_may_ask_any() -> None:
    _, events, _ = run(game(), "FICHE")
    assert events[0].kind == "sheet" and events[0].audience == Audience.to("Armand")
    assert run(game(), "fiche armand")[1][0].data["player"] == "Armand"
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "FICHE Isaac", [])
    _, events, _ = run(game(), "SHEET Isaac", player=MJ)
    assert events[0].data["player"] == "Isaac" and events[0].audience == Audience.mj()


def test_views_player_own_sheet_MJ_all_public_names_only() -> None:
    state = game()
    assert [c["player"] for c in RULESET.view(state, "Armand")["characters"]] == ["Armand"]
    assert [c["player"] for c in RULESET.view(state, MJ)["characters"]] == ["Armand", "Isaac"]
    public = RULESET.view(state, PUBLIC)
    assert public["characters"] == [] and [n["name"] for n in public["names"]] == ["Armand de Sillègue", "Isaac de Porthau"]


def test_help_MJ_includes_MJ_orders() -> None:
    player = [h.syntax for h in RULESET.help(game(), "Armand")]
    mj = [h.syntax for h in RULESET.help(game(), MJ)]
    assert any(s.startswith("TEST") for s in player) and not any("PRESTIGE" in s for s in player)
    assert any("PRESTIGE" in s for s in mj) and any("RECONNU" in s for s in mj)


def test_no_turns_no_outcome_and_registered() -> None:
    state = game()
    assert get("1626") is RULESET and get("gant") is RULESET
    assert RULESET.prompts(state) == [] and RULESET.outcome(state) is None
    assert RULESET.resolve(state, {}, FakeDice()) == (state, [])
    assert RULESET.step_title(state).fr == "Partie en cours"
    assert RULESET.players(state) == ["Armand", "Isaac"]


def test_state_round_trips_through_serial_and_is_not_mutated() -> None:
    state = game(**specialist(), prestige=300)
    before = serial.dumps(state)
    new, _, _ = run(state, "TEST Escrime AG SR 15", 3, 3)
    run(state, "RECONNU Armand", player=MJ)
    assert serial.dumps(state) == before
    assert serial.loads(State, serial.dumps(new)) == new


def test_dice_purposes_are_unique_per_test() -> None:
    state = game()
    state, _, first = run(state, "TEST AG SR 15", 3)
    _, _, second = run(state, "TEST AG SR 15", 3)
    assert first.rolls[0].purpose != second.rolls[0].purpose
    assert first.rolls[0].purpose.startswith("test #1 AG (Armand)")


def test_example_sheets_load() -> None:
    seats = seats_from_toml((ROOT / "data/1626/personnages.toml").read_text(encoding="utf-8"))
    assert 3 <= len(seats) <= 4
    state, events = RULESET.setup(seats, RULESET.default_options, FakeDice(3))
    assert len(events) == len(seats)
    assert all(len(c.caracs) == 10 for c in state.characters.values())


# --- statistics with the real dice ---

N = 20_000


def _three_sigma(count: int, n: int, p: float) -> bool:
    return abs(count - n * p) <= 3 * math.sqrt(n * p * (1 - p))


def _many(state: State, line: str) -> list[Mapping[str, Any]]:
    parsed = RULESET.parse_order(state, "Armand", line, [])
    out = []
    for i in range(N):
        done = RULESET.immediate(state, "Armand", parsed, Dice(f"{i:08x}", "step-1"))
        assert done is not None
        out.append(done[1][0].data)
    return out


def test_stats_d10_faces_uniform_and_critical_rate_10_percent() -> None:
    results = _many(game(), "TEST Escrime AG SR 15")
    faces = Counter(r["faces"][0] for r in results)
    assert sorted(faces) == list(range(1, 11))
    assert all(_three_sigma(faces[f], N, 0.1) for f in range(1, 11)), faces
    assert _three_sigma(sum(r["critical"] for r in results), N, 0.1)
    assert all((r["faces"] == [10]) == r["critical"] for r in results)


def test_stats_specialist_reroll_rate_is_11_in_36() -> None:
    results = _many(game(**specialist()), "TEST Escrime AG SR 15")
    assert _three_sigma(sum(r["critical"] for r in results), N, 11 / 36)
    assert all((6 in r["faces"]) == r["critical"] for r in results)
    assert max(r["dice_total"] for r in results) == 18


def _determinism_play(seed: str) -> list[Event]:
    state = game(**specialist())
    events: list[Event] = []
    for i, line in enumerate(["TEST Escrime AG SR 15", "TEST AG SR 12", "TEST Baratin CH SR 14 SECRET"] * 5):
        parsed = RULESET.parse_order(state, "Armand", line, [])
        done = RULESET.immediate(state, "Armand", parsed, Dice(seed, f"order-{i % 2}"))
        assert done is not None
        state, new = done
        events += new
    return events


def determinism_events(seed: str) -> str:
    """(also run by `fresh.replay` in another process) the digest of the events of 15 tests with ``seed``."""
    return digest(json.dumps([[e.kind, e.audience.kind, list(e.audience.players), serial.to_data(e.data)]
                              for e in _determinism_play(seed)], sort_keys=True))


def test_determinism_same_seed_same_events() -> None:
    """The same seed gives the same events, in another process too (other string hashes); another seed does not."""
    assert replay("games.test_1626:determinism_events", "abcd") == determinism_events("abcd")
    assert _determinism_play("abcd") == _determinism_play("abcd")
    assert _determinism_play("abcd") != _determinism_play("abce")


# --- templates ---


def _all_events() -> list[Event]:
    """Every event kind the ruleset emits, in the situations that change its wording."""
    state = game(**specialist(**{"Naturellement doué": ["AG"], "Chance inouïe": 2, "Héritage": True}),
                 prestige=600, pugnacite=5, setup_faces=(3,))
    events: list[Event] = list(RULESET.setup([Seat("Armand", data=sheet())], {}, FakeDice())[1])
    for line, faces, player in [
        ("TEST Escrime AG SR 15", (6, 6, 2), "Armand"), ("TEST Escrime AG SR 30 -2", (1, 2), "Armand"),
        ("TEST AG SR 12", (10, 3), "Armand"), ("TEST AG SR 40", (10, 3), "Armand"),
        ("TEST Médecine INT SR 14 SECRET", (5,), "Armand"),
        ("RECONNU Armand", (), MJ), ("TEST Baratin CH SR 10", (1,), "Armand"), ("INCONNU Armand", (), MJ),
        ("PRESTIGE Armand +500", (), MJ), ("PRESTIGE Armand -20", (), MJ), ("FICHE", (), "Armand"),
        ("TEST Escrime AG CONTRE Isaac", (3, 4, 5), "Armand"), ("TEST Escrime AG CONTRE Isaac Vigilance PE", (6, 1, 4, 9), "Armand"),
        ("TEST Isaac AG CONTRE Rochefort 14 2d6+2 SECRET", (3, 6, 6, 2), MJ),
        ("BLESSURE Armand 40", (), MJ), ("CHANCE", (), "Armand"), ("BLESSURE Armand 3", (), MJ),
        ("SOIN Armand 2", (), MJ), ("SOIN Armand 5", (), MJ), ("CHANCE Armand", (), MJ), ("FICHE", (), "Armand"),
        ("HISTORIQUE", (), "Armand"), ("HISTORIQUE", (), MJ), ("DEMANDES", (), MJ),
        ("RECONNU Armand ENNEMIS", (), MJ), ("TEST Baratin CH SR 10", (1,), "Armand"), ("FICHE", (), "Armand"),
        ("TALENT Armand Latin =3", (), MJ), ("TALENT Armand Latin -3", (), MJ),
        ("DON Armand +Relation la Cour", (), MJ), ("DON Armand -Relation", (), MJ),
    ]:
        state, new, _ = run(state, line, *faces, player=player)
        events += new
    state = replace(state, sr_by="mj")
    for line, player in [("TEST Escrime AG SR 15", "Armand"), ("TEST Baratin CH SECRET", "Armand"),
                         ("TEST Escrime AG CONTRE Isaac", "Armand"), ("TEST Escrime AG CONTRE Rochefort", "Isaac"),
                         ("DEMANDES", MJ), ("DEMANDES", "Armand"), ("REFUSER n° 12 pas maintenant", MJ),
                         ("REFUSER n° 11", MJ)]:
        state, new, _ = run(state, line, player=player)
        events += new
    return events


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_templates_render_every_event_kind(lang: str) -> None:
    env = vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined))
    module = env.get_template(f"1626/events.{lang}.j2").module
    events = _all_events()
    assert {e.kind for e in events} == {"sheet", "test_result", "test_secret", "mj_note", "opposed_result",
                                        "pv_change", "history", "requests", "test_request", "test_requested",
                                        "request_refused"}
    for event in events:
        text = str(getattr(module, event.kind)(dict(event.data)))
        assert text.strip() and "{{" not in text, event
    first = next(e for e in events if e.kind == "test_result")
    if lang == "fr":
        assert str(module.test_result(dict(first.data))).startswith(
            "Armand de Sillègue, test n° 1 d'Escrime / Agilité (SR 15, Assez difficile) : 7 + 7 + 2d6 = 6 + 6 + relance 2 = 14 → total 28 — réussi de 13.")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("viewer", ["Armand", MJ, PUBLIC])
def test_status_templates_render_views(lang: str, viewer: str) -> None:
    env = vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined))
    state = game(options={"secret_tests": True})
    text = env.get_template(f"1626/status.{lang}.j2").render(view=RULESET.view(state, viewer))
    assert "Isaac de Porthau" in text
    assert ("PV" in text or "Points de vie" in text or "Hit points" in text) == (viewer != PUBLIC)


def test_events_hold_json_data_only() -> None:
    for event in _all_events():
        assert json.loads(json.dumps(dict(event.data))) == dict(event.data)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_templates_give_the_same_text_with_trim_blocks(lang: str) -> None:
    """The mail renderer uses trim_blocks/lstrip_blocks: the texts must not depend on it."""
    plain, trimmed = (
        vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined,
                           **options))
        for options in ({}, {"trim_blocks": True, "lstrip_blocks": True})
    )
    for event in _all_events():
        texts = [str(getattr(env.get_template(f"1626/events.{lang}.j2").module, event.kind)(dict(event.data)))
                 for env in (plain, trimmed)]
        assert texts[0] == texts[1]
    state = game(options={"secret_tests": True})
    state, _, _ = run(state, "TEST AG SR 10", 5)
    for viewer in ("Armand", MJ, PUBLIC):
        texts = [env.get_template(f"1626/status.{lang}.j2").render(view=RULESET.view(state, viewer))
                 for env in (plain, trimmed)]
        assert texts[0] == texts[1]
        assert "\n\n\n" not in texts[0]
