"""1626 rule cases on the character sheet: the cap of 9 (I.1) and the gifts' constraints (I.6).

A sheet that breaks a rule is refused when it is loaded, with every reason and, read from a
TOML file, the line of each.
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core import Seat, SetupError
from pbem.games.g1626 import RULESET, seats_from_toml
from pbem.games.g1626.sheet import character_from_seat, key_lines

from .test_1626_support import CARACS, ROOT, TALENTS, FakeDice, game, sheet


def refusal(**changes: Any) -> str:
    """The French reason a sheet is refused for (every reason, one per line)."""
    with pytest.raises(SetupError) as caught:
        character_from_seat(Seat("Armand", data=sheet(**changes)))
    return caught.value.msg.fr


# --- I.1 « Le score maximum d'une caractéristique atteignable par un personnage est de 9. » ---


def test_R1_le_score_maximum_d_une_caracteristique_est_de_9() -> None:
    assert game(caracteristiques={**CARACS, "AG": 9}).characters["Armand"].caracs["AG"] == 9
    reason = refusal(caracteristiques={**CARACS, "AG": 10})
    assert reason == "fiche d'Armand : AG vaut 10 : une caractéristique de personnage ne dépasse pas 9"


def test_R1_a_negative_characteristic_is_refused() -> None:
    assert "AG ne peut être inférieur à 0" in refusal(caracteristiques={**CARACS, "AG": -1})


def test_R1_a_characteristic_must_be_a_whole_number() -> None:
    assert "AG doit être un nombre entier" in refusal(caracteristiques={**CARACS, "AG": "six"})


def test_R6_naturellement_doue_ne_fait_pas_depasser_9() -> None:
    """« +1 dans la caractéristique choisie »: with the cap of I.1, an 8 may become 9, a 9 may not become 10."""
    state = game(caracteristiques={**CARACS, "AG": 8}, dons={"Naturellement doué": ["AG"]})
    assert state.characters["Armand"].caracs["AG"] == 8
    reason = refusal(caracteristiques={**CARACS, "AG": 9}, dons={"Naturellement doué": ["AG"]})
    assert "« Naturellement doué » en AG porterait AG de 9 à 10, au-delà du maximum de 9" in reason


def test_R6_naturellement_doue_ne_peut_se_prendre_qu_une_fois_par_caracteristique() -> None:
    reason = refusal(dons={"Naturellement doué": ["AG", "Agilité"]})
    assert "« Naturellement doué » en AG est pris 2 fois : une fois au plus par caractéristique" in reason
    assert game(dons={"Naturellement doué": ["AG", "EN"]}).characters["Armand"].gifts["Naturellement doué"] == ["AG", "EN"]


# --- I.6 the gifts' constraints ---


def test_R6_specialiste_demande_talent_superieur_a_6() -> None:
    assert game(talents={"Escrime": 7}, dons={"Spécialiste": ["Escrime"]}).characters["Armand"].gifts
    reason = refusal(talents={"Escrime": 6}, dons={"Spécialiste": ["Escrime"]})
    assert reason == "fiche d'Armand : « Spécialiste » en Escrime demande Escrime > 6 (la fiche donne 6)"


def test_R6_specialiste_must_name_a_talent_of_the_sheet() -> None:
    assert "« Spécialiste » : le talent « Latin » n'est pas sur la fiche" in refusal(dons={"Spécialiste": ["Latin"]})


def test_R6_maitre_demande_talent_superieur_a_8_et_specialiste() -> None:
    """« Maître* : Talent > 8 & Spécialiste »: Spécialiste in the same talent."""
    ok = {"talents": {"Latin": 9}, "dons": {"Spécialiste": ["Latin"], "Maître": ["Latin"]}}
    assert game(**ok).characters["Armand"].gifts["Maître"] == ["Latin"]
    low = refusal(talents={"Latin": 8}, dons={"Spécialiste": ["Latin"], "Maître": ["Latin"]})
    assert "« Maître » en Latin demande Latin > 8 (la fiche donne 8)" in low
    # Spécialiste in another talent does not count
    other = refusal(talents={"Latin": 9, "Théologie": 7}, dons={"Spécialiste": ["Théologie"], "Maître": ["Latin"]})
    assert "« Maître » en Latin demande aussi « Spécialiste » en Latin" in other


def test_R6_maitre_pour_l_escrime_posseder_au_moins_1_style() -> None:
    gifts = {"Spécialiste": ["Escrime"], "Maître": ["Escrime"]}
    reason = refusal(talents={"Escrime": 9}, dons=gifts)
    assert reason == "fiche d'Armand : « Maître » en Escrime demande au moins un « Style d'escrime »"
    state = game(talents={"Escrime": 9}, dons={**gifts, "Style d'escrime": ["espagnol"]})
    assert state.characters["Armand"].gifts["Style d'escrime"] == ["espagnol"]


@pytest.mark.parametrize(("gift", "changes", "wanted"), [
    ("Ambidextrie", {"caracteristiques": {**CARACS, "DEX": 5}}, "« Ambidextrie » demande DEX > 5 (la fiche donne DEX 5)"),
    ("Combattant multiple", {"talents": {**TALENTS, "Stratégie militaire": 5}},
     "« Combattant multiple » demande Stratégie militaire > 5 (la fiche donne Stratégie militaire 5)"),
    ("Riche maîtresse ou Riche amant", {"caracteristiques": {**CARACS, "APP": 6, "CH": 5}},
     "« Riche maîtresse ou Riche amant » demande APP > 5 et CH > 5 (la fiche donne CH 5)"),
    ("Tireur d'élite", {"talents": {**TALENTS, "Armes de tir": 4}},
     "« Tireur d'élite » demande Armes de tir > 4 (la fiche donne Armes de tir 4)"),
])
def test_R6_contraintes_des_dons(gift: str, changes: dict[str, Any], wanted: str) -> None:
    assert refusal(dons=[gift], **changes) == f"fiche d'Armand : {wanted}"


@pytest.mark.parametrize(("gift", "changes"), [
    ("Ambidextrie", {"caracteristiques": {**CARACS, "DEX": 6}}),
    ("Combattant multiple", {"talents": {**TALENTS, "Stratégie militaire": 6}}),
    ("Riche maîtresse ou Riche amant", {"caracteristiques": {**CARACS, "APP": 6, "CH": 6}}),
    ("Tireur d'élite", {"talents": {**TALENTS, "Armes de tir": 5}}),
])
def test_R6_contraintes_des_dons_satisfied(gift: str, changes: dict[str, Any]) -> None:
    assert gift in game(dons=[gift], **changes).characters["Armand"].gifts


def test_R6_a_constraint_reads_the_characteristic_with_naturellement_doue_ruling() -> None:
    state = game(caracteristiques={**CARACS, "DEX": 5}, dons={"Ambidextrie": True, "Naturellement doué": ["DEX"]})
    assert "Ambidextrie" in state.characters["Armand"].gifts


def test_R6_les_dons_suivis_d_une_etoile_peuvent_etre_pris_plusieurs_fois() -> None:
    """Only star gifts repeat; the others are taken once."""
    assert "« Robuste » ne se prend qu'une fois" in refusal(dons=["Robuste", "Robuste"])
    state = game(dons={"Relation": ["la Cour", "les protestants"], "Chance inouïe": 3})
    assert state.characters["Armand"].gifts["Relation"] == ["la Cour", "les protestants"]
    assert state.characters["Armand"].chance == 3
    assert game(dons=["Chance inouïe", "Chance inouïe"]).characters["Armand"].chance == 2


def test_R6_mais_le_joueur_doit_choisir_un_domaine() -> None:
    reason = refusal(dons=["Relation"])
    assert reason == 'fiche d\'Armand : « Relation » : précisez le domaine choisi, par exemple "Relation" = ["la Cour"]'


def test_R6_style_d_escrime_une_fois_par_style_different() -> None:
    assert "« Style d'escrime » en français est pris deux fois" in refusal(dons={"Style d'escrime": ["français", "Français"]})
    state = game(dons={"Style d'escrime": ["français", "italien"]})
    assert state.characters["Armand"].gifts["Style d'escrime"] == ["français", "italien"]


def test_R6_style_d_escrime_cavalerie_francais_italien_ou_espagnol() -> None:
    assert "style inconnu « allemand » (cavalerie, français, italien ou espagnol)" in refusal(
        dons={"Style d'escrime": ["allemand"]})


def test_R6_style_d_escrime_escrime_uniquement_ruling() -> None:
    talents = {k: v for k, v in TALENTS.items() if k != "Escrime"}
    assert "demande le talent Escrime sur la fiche" in refusal(talents=talents, dons={"Style d'escrime": ["italien"]})


def test_R6_chance_inouie_is_true_or_a_count() -> None:
    assert "« Chance inouïe » vaut true ou le nombre de fois" in refusal(dons={"Chance inouïe": 0})
    assert "« Chance inouïe » vaut true ou le nombre de fois" in refusal(dons={"Chance inouïe": ["duel"]})


def test_R6_voici_les_dons_qu_un_personnage_peut_posseder_unknown_gift_ruling() -> None:
    """The gift table is the list of gifts: a typo gets a suggestion; the MJ may add gifts with an option."""
    assert "don inconnu « Robsute » : vouliez-vous dire Robuste ?" in refusal(dons=["Robsute"])
    roster = [Seat("Armand", data=sheet(dons=["Duelliste"]))]
    with pytest.raises(SetupError) as caught:
        RULESET.setup(roster, {}, FakeDice())
    assert caught.value.msg.fr == ("fiche d'Armand : don inconnu « Duelliste » (les dons des règles, "
                                   "ou ceux que le MJ ajoute par l'option extra_gifts)")
    state, _ = RULESET.setup(roster, {"extra_gifts": ["Duelliste"]}, FakeDice())
    assert "Duelliste" in state.characters["Armand"].gifts


def test_R6_unknown_keys_of_a_sheet_are_refused_with_a_suggestion() -> None:
    assert "clé inconnue « prestig » : vouliez-vous dire « prestige » ?" in refusal(prestig=500)


def test_R6_every_reason_is_given_at_once() -> None:
    reason = refusal(caracteristiques={**CARACS, "AG": 10, "FO": 11})
    assert reason.splitlines() == [
        "fiche d'Armand : FO vaut 11 : une caractéristique de personnage ne dépasse pas 9",
        "fiche d'Armand : AG vaut 10 : une caractéristique de personnage ne dépasse pas 9",
    ]


def test_R6_every_sheet_of_the_roster_is_checked_at_setup() -> None:
    roster = [Seat("Armand", data=sheet(caracteristiques={**CARACS, "AG": 10})),
              Seat("Isaac", data=sheet(dons=["Robuste", "Robuste"]))]
    with pytest.raises(SetupError) as caught:
        RULESET.setup(roster, {}, FakeDice())
    assert [line.split(" : ")[0] for line in caught.value.msg.fr.splitlines()] == ["fiche d'Armand", "fiche d'Isaac"]


# --- the TOML file: refused at load, with the line and the reason ---

BAD_FILE = """\
# two sheets
[[personnage]]
joueur = "Armand"
nom = "Armand de Sillègue"

[personnage.caracteristiques]
FO = 6
EN = 6
AG = 10
DEX = 5
PE = 5
INT = 5
EDU = 6
CH = 6
APP = 5
BR = 7

[personnage.talents]
Escrime = 9

[personnage.dons]
"Spécialiste" = ["Escrime"]
"Maître" = ["Escrime"]

[[personnage]]
joueur = "Charles"
caracteristiques = { FO = 5, EN = 5, AG = 7, DEX = 6, PE = 6, INT = 6, EDU = 4, CH = 6, APP = 6, BR = 8 }
talents = { "Armes de tir" = 3 }
dons = ["Tireur d'élite"]
prestig = 40
"""


def test_R6_a_sheet_file_breaking_the_rules_is_refused_with_the_line_and_the_reason() -> None:
    with pytest.raises(SetupError) as caught:
        seats_from_toml(BAD_FILE)
    assert caught.value.msg.fr.splitlines() == [
        "ligne 9 : fiche d'Armand : AG vaut 10 : une caractéristique de personnage ne dépasse pas 9",
        "ligne 23 : fiche d'Armand : « Maître » en Escrime demande au moins un « Style d'escrime »",
        "ligne 30 : fiche de Charles : clé inconnue « prestig » : vouliez-vous dire « prestige » ?",
        "ligne 29 : fiche de Charles : « Tireur d'élite » demande Armes de tir > 4 (la fiche donne Armes de tir 3)",
    ]
    fixed = BAD_FILE.replace("AG = 10", "AG = 9").replace("prestig", "prestige")
    with pytest.raises(SetupError) as caught:
        seats_from_toml(fixed)
    assert caught.value.msg.fr.splitlines() == [
        "ligne 23 : fiche d'Armand : « Maître » en Escrime demande au moins un « Style d'escrime »",
        "ligne 29 : fiche de Charles : « Tireur d'élite » demande Armes de tir > 4 (la fiche donne Armes de tir 3)",
    ]
    assert caught.value.msg.en.splitlines()[0] == (
        "line 23: sheet of Armand: 'Maître' in Escrime requires at least one 'Style d'escrime'")


def test_R6_a_sheet_without_joueur_names_its_line() -> None:
    with pytest.raises(SetupError) as caught:
        seats_from_toml("\n[[personnage]]\nnom = 'X'\n")
    assert caught.value.msg.fr == "ligne 2 : personnage sans « joueur » (le nom d'inscription du joueur)"


def test_R6_an_unreadable_sheet_file_is_refused_with_the_toml_error() -> None:
    with pytest.raises(SetupError) as caught:
        seats_from_toml("[[personnage]\n")
    assert caught.value.msg.fr.startswith("fichier de fiches illisible : ")


def test_key_lines_finds_headers_quoted_keys_and_inline_tables() -> None:
    starts, lines = key_lines(BAD_FILE)
    assert starts == [2, 25]
    assert lines[(0, ("caracteristiques", "AG"))] == 9
    assert lines[(0, ("dons", "Maître"))] == 23
    assert lines[(1, ("caracteristiques",))] == 27


def test_the_sample_sheets_satisfy_every_check() -> None:
    seats = seats_from_toml((ROOT / "data/1626/personnages.toml").read_text(encoding="utf-8"))
    state, _ = RULESET.setup(seats, RULESET.default_options, FakeDice(3))  # Armand's Héritage
    assert set(state.characters) == {"Armand", "Isaac", "Henri", "Charles"}
    assert state.characters["Armand"].heritage == 8000
