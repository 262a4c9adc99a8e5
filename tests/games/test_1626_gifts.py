"""1626 rule cases: the gifts whose effect the text gives (I.6), hit points and the MJ's wounds.

Implemented: Héritage, Hargneux, Chance inouïe, Robuste, Spécialiste, Maître, Naturellement doué,
Tireur d'élite, Tacticien.  The others are the MJ's (a modifier, the SR, the story): a case checks
they change nothing by themselves.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from pbem.core import MJ, Audience, OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError, Seat
from pbem.dice import Dice
from pbem.games.g1626 import RULESET, State
from pbem.render import Renderer

from .test_1626_support import CARACS, TALENTS, FakeDice, game, result, run, sheet


def fiche(state: State, player: str = "Armand", lang: str = "fr") -> str:
    return Renderer("1626", lang).event_text(run(state, "FICHE", player=player)[1][0])


# --- Héritage: « Le joueur obtient une somme de 5.000 + (1d6 x 1000) livres. » ---


def test_R6_heritage_le_joueur_obtient_5000_plus_1d6_fois_1000_livres() -> None:
    dice = FakeDice(4)
    state, events = RULESET.setup([Seat("Armand", data=sheet(dons=["Héritage"]))], {}, dice)
    assert state.characters["Armand"].heritage == 9000
    assert [(r.purpose, r.low, r.high) for r in dice.rolls] == [("inheritance (Armand): d6", 1, 6)]
    assert "Héritage\u00a0: 9\u202f000 livres (5\u202f000 + 4 × 1\u202f000)" in Renderer("1626", "fr").event_text(events[0])


def test_R6_heritage_written_on_the_sheet_is_kept_not_rolled_again() -> None:
    dice = FakeDice()
    state, _ = RULESET.setup([Seat("Armand", data=sheet(dons=["Héritage"], heritage=11000))], {}, dice)
    assert state.characters["Armand"].heritage == 11000 and dice.rolls == []


def test_R6_heritage_only_with_the_gift_and_only_a_possible_sum() -> None:
    from pbem.core import SetupError

    for changes in ({"dons": ["Héritage"], "heritage": 5000}, {"dons": ["Héritage"], "heritage": 7500},
                    {"heritage": 8000}):
        with pytest.raises(SetupError):
            RULESET.setup([Seat("Armand", data=sheet(**changes))], {}, FakeDice())


def test_stats_heritage_each_sum_one_time_in_six() -> None:
    n = 6000
    counts: Counter[int] = Counter()
    for i in range(n):
        state, _ = RULESET.setup([Seat("Armand", data=sheet(dons=["Héritage"]))], {}, Dice(f"{i:08x}", "setup"))
        counts[state.characters["Armand"].heritage or 0] += 1
    assert sorted(counts) == [6000, 7000, 8000, 9000, 10000, 11000]
    assert all(abs(c - n / 6) <= 3 * math.sqrt(n * (1 / 6) * (5 / 6)) for c in counts.values()), counts


# --- Hargneux: « La Pugnacité du joueur augmente de 2 » ---


def test_R6_hargneux_la_pugnacite_du_joueur_augmente_de_2() -> None:
    state = game(dons=["Hargneux"], pugnacite=6)
    assert RULESET.view(state, "Armand")["characters"][0]["pugnacity"] == 8
    assert "Pugnacité\u00a0: 8 (6 + 2, hargneux)" in fiche(state)
    assert RULESET.view(game(pugnacite=6), "Armand")["characters"][0]["pugnacity"] == 6


def test_R6_hargneux_without_a_base_pugnacite_shows_the_bonus_ruling() -> None:
    """Pugnacité is computed in the combat rules, not in chapter I: without a base on the sheet, the +2 is shown."""
    assert "Pugnacité\u00a0: + 2 (hargneux), à ajouter à la valeur de base que calcule le MJ" in fiche(game(dons=["Hargneux"]))
    assert "Pugnacité" not in fiche(game())


# --- hit points, wounds and care ---


def test_R6_robuste_PV_and_the_wounds_the_MJ_applies() -> None:
    state = game(dons=["Robuste"])
    assert RULESET.view(state, "Armand")["characters"][0]["pv"] == 5 * 5 + 6
    state, events, _ = run(state, "BLESSURE Armand 7", player=MJ)
    (event,) = events
    assert event.kind == "pv_change" and event.audience == Audience.to("Armand")
    assert (event.data["before"], event.data["pv"], event.data["pv_max"]) == (31, 24, 31)
    assert "Points de vie\u00a0: 24 sur 31 (EN × 5 + BR, robuste)" in fiche(state)
    state, _, _ = run(state, "SOIN Armand de Sillègue 5", player=MJ)
    assert RULESET.view(state, "Armand")["characters"][0]["pv"] == 29
    state, events, _ = run(state, "SOIN 9 Armand", player=MJ)
    assert events[0].data["amount"] == 2 and "Points de vie\u00a0: 31 (EN × 5 + BR, robuste)" in fiche(state)


def test_wounds_may_take_PV_below_zero_and_the_MJ_decides_what_follows() -> None:
    state, events, _ = run(game(), "BLESSURE Armand 30", player=MJ)
    assert events[0].data["pv"] == -4
    assert Renderer("1626", "fr").event_text(events[0]) == (
        "Blessure d'Armand de Sillègue\u00a0: − 30 PV\u00a0; il lui reste −4 PV sur 26. "
        "À 0 PV ou moins, la suite est à l'appréciation du MJ.")


def test_BLESSURE_and_SOIN_are_checked() -> None:
    for line in ("BLESSURE Armand", "BLESSURE Armand 0", "SOIN", "BLESSURE Armand 3 vite"):
        with pytest.raises(OrderSyntaxError):
            RULESET.parse_order(game(), MJ, line, [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "SOIN Armand 3", [])


# --- Chance inouïe: « éviter un coup mortel ou gravissime [...] autant de fois dans la partie qu'il possède ce don » ---


def test_R6_chance_inouie_evite_un_coup_mortel() -> None:
    state = game(dons={"Chance inouïe": 1})
    state, events, _ = run(state, "BLESSURE Armand 30", player=MJ)
    assert "Chance inouïe peut éviter ce coup (1 fois encore dans la partie)\u00a0: le joueur écrit CHANCE." in (
        Renderer("1626", "fr").event_text(events[0]))
    state, events, _ = run(state, "CHANCE")
    assert events[0].audience == Audience.to("Armand") and events[0].data["pv"] == 26
    assert Renderer("1626", "fr").event_text(events[0]) == (
        "Chance inouïe\u00a0: par un incroyable coup du sort, Armand de Sillègue évite le coup qui lui coûtait 30 PV\u00a0; "
        "26 PV sur 26. Plus aucune chance en réserve.")
    assert state.characters["Armand"].chance_used == 1


def test_R6_chance_inouie_autant_de_fois_qu_il_possede_ce_don() -> None:
    state = game(dons={"Chance inouïe": 2})
    for _ in range(2):
        state, _, _ = run(state, "BLESSURE Armand 30", player=MJ)
        state, _, _ = run(state, "CHANCE")
    state, _, _ = run(state, "BLESSURE Armand 30", player=MJ)
    with pytest.raises(OrderNotAllowedError) as caught:
        RULESET.parse_order(state, "Armand", "CHANCE", [])
    assert caught.value.msg.fr == "Armand de Sillègue n'a plus de « Chance inouïe » (ses 2 chances sont employées)"
    assert "Chance inouïe\u00a0: aucune restante sur 2" in fiche(state)
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "CHANCE", [])  # no gift at all


def test_R6_chance_inouie_a_coup_gravissime_is_the_MJs_call_ruling() -> None:
    """The player may avoid the wound that took him to 0 PV or less; any other coup, the MJ judges it grievous."""
    state = game(dons={"Chance inouïe": 1})
    with pytest.raises(OrderNotAllowedError, match="no coup to avoid"):
        RULESET.parse_order(state, "Armand", "CHANCE", [])
    state, _, _ = run(state, "BLESSURE Armand 10", player=MJ)
    with pytest.raises(OrderNotAllowedError, match="not deadly"):
        RULESET.parse_order(state, "Armand", "CHANCE", [])
    state, events, _ = run(state, "CHANCE Armand", player=MJ)
    assert events[0].data["pv"] == 26 and events[0].data["by_mj"]


def test_R6_chance_inouie_outside_hit_points_only_spends_one_use() -> None:
    state, events, _ = run(game(dons={"Chance inouïe": 2}), "CHANCE Armand", player=MJ)
    assert (events[0].data["amount"], events[0].data["chance_left"]) == (0, 1)
    assert "évite un coup mortel ou gravissime. Encore 1 fois dans la partie." in Renderer("1626", "fr").event_text(events[0])


def test_R6_chance_inouie_a_coup_already_cared_for_is_past() -> None:
    state = game(dons={"Chance inouïe": 1})
    state, _, _ = run(state, "BLESSURE Armand 30", player=MJ)
    state, _, _ = run(state, "SOIN Armand 2", player=MJ)
    with pytest.raises(OrderNotAllowedError, match="no coup to avoid"):
        RULESET.parse_order(state, "Armand", "CHANCE", [])


# --- Tireur d'élite and Tacticien: the +2 their text gives ---


def test_R6_tireur_d_elite_plus_2_au_tir_s_il_dispose_d_un_tour_pour_viser() -> None:
    state = game(talents={**TALENTS, "Armes de tir": 5}, dons=["Tireur d'élite"])
    e = result(state, "TEST Armes de tir PE SR 15 VISÉE", 6)
    assert e["total"] == 4 + 5 + 2 + 6 and e["bonuses"] == [{"fr": "tireur d'élite, visée", "en": "marksman, aimed",
                                                             "value": 2}]
    assert result(state, "TEST Armes de tir PE SR 15", 6)["total"] == 4 + 5 + 6
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(state, "Armand", "TEST Escrime AG SR 15 VISÉE", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "TEST Armes de tir PE SR 15 VISÉE", [])


def test_R6_tacticien_plus_2_pour_dejouer_un_enchainement_ou_une_botte() -> None:
    state = game(talents={**TALENTS, "Tactique militaire": 4}, dons=["Tacticien"])
    assert result(state, "TEST Tactique militaire INT SR 15 DÉJOUER", 3)["total"] == 5 + 4 + 2 + 3
    assert result(state, "TEST Tactique militaire INT SR 15", 3)["total"] == 5 + 4 + 3
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(game(), "Armand", "TEST Tactique militaire INT SR 15 DÉJOUER", [])


@pytest.mark.parametrize("gift", ["Ambidextrie", "Combattant multiple", "Combat rapproché", "Botte secrète",
                                  "Détenteur d'un secret", "Relation", "Riche maîtresse ou Riche amant",
                                  "Ancien lignage", "Fils ou Fille de héros"])
def test_R6_the_other_gifts_are_the_MJs_ruling(gift: str) -> None:
    """Their effect depends on the scene (weapons, adversaries, a PNJ): the MJ applies it by the SR or a modifier.
    The prestige of Ancien lignage and Fils de héros is in the sheet's total already (ruling 6)."""
    domains = {"Relation": ["la Cour"], "Botte secrète": ["la botte de Nevers"]}
    gifts = {gift: domains.get(gift, True)}
    changes = {"caracteristiques": {**CARACS, "DEX": 6, "APP": 6, "CH": 6},
               "talents": {**TALENTS, "Stratégie militaire": 6}, "prestige": 150}
    with_gift, without = game(dons=gifts, **changes), game(**changes)
    for line in ("TEST Escrime AG SR 15", "TEST Baratin CH SR 15", "TEST DEX SR 15"):
        assert result(with_gift, line, 5)["total"] == result(without, line, 5)["total"], line
    assert with_gift.characters["Armand"].prestige == 150


# --- the MJ edits a sheet during the campaign ---


def test_R2_les_talents_toujours_perfectibles_TALENT_changes_a_score() -> None:
    state, events, _ = run(game(), "TALENT Armand Escrime +2", player=MJ)
    assert state.characters["Armand"].talents["Escrime"] == 7 and events[0].audience == Audience.to("Armand")
    assert Renderer("1626", "fr").event_text(events[0]) == "Le MJ change un talent d'Armand de Sillègue\u00a0: Escrime 5 → 7."
    state, _, _ = run(state, "TALENT Armand Gascon =4", player=MJ)  # a talent outside the list, with the MJ's accord
    assert state.characters["Armand"].talents["Gascon"] == 4
    state, _, _ = run(state, "TALENT Armand armes à feu 6", player=MJ)
    assert state.characters["Armand"].talents["Armes de tir"] == 6


def test_R2_TALENT_is_refused_when_the_sheet_would_break_a_rule() -> None:
    state = game(talents={**TALENTS, "Escrime": 7}, dons={"Spécialiste": ["Escrime"]})
    with pytest.raises(OrderNotAllowedError) as caught:
        RULESET.parse_order(state, MJ, "TALENT Armand Escrime -1", [])
    assert caught.value.msg.fr == ("la fiche ne le permet pas : « Spécialiste » en Escrime demande Escrime > 6 "
                                   "(la fiche donne 6)")
    for line in ("TALENT Armand Escrime", "TALENT Armand Escrime -9", "TALENT Armand Escrmie +1"):
        with pytest.raises((OrderSyntaxError, OrderNotAllowedError, OrderAmbiguousError)):
            RULESET.parse_order(game(), MJ, line, [])


def test_R6_riche_maitresse_sans_quoi_ce_don_disparait_DON_takes_a_gift_away() -> None:
    state = game(caracteristiques={**CARACS, "APP": 6, "CH": 6}, dons=["Riche maîtresse ou Riche amant"])
    state, events, _ = run(state, "DON Armand -Riche maîtresse ou Riche amant", player=MJ)
    assert "Riche maîtresse ou Riche amant" not in state.characters["Armand"].gifts
    assert Renderer("1626", "fr").event_text(events[0]) == (
        "Le MJ retire à Armand de Sillègue le don «\u00a0Riche maîtresse ou Riche amant\u00a0».")


def test_R6_DON_gives_a_gift_when_its_constraints_hold() -> None:
    state, _, _ = run(game(talents={**TALENTS, "Escrime": 7}), "DON Armand +Spécialiste Escrime", player=MJ)
    assert state.characters["Armand"].gifts["Spécialiste"] == ["Escrime"]
    with pytest.raises(OrderNotAllowedError, match="requires Escrime > 8"):
        RULESET.parse_order(state, MJ, "DON Armand +Maître Escrime", [])
    master = game(talents={**TALENTS, "Escrime": 9},
                  dons={"Spécialiste": ["Escrime"], "Maître": ["Escrime"], "Style d'escrime": ["italien"]})
    with pytest.raises(OrderNotAllowedError, match="also requires 'Spécialiste' in Escrime"):
        RULESET.parse_order(master, MJ, "DON Armand -Spécialiste Escrime", [])
    state, _, _ = run(game(), "DON Armand + Chance inouïe", player=MJ)
    state, _, _ = run(state, "DON Armand +Chance inouïe", player=MJ)
    assert state.characters["Armand"].chance == 2
    with pytest.raises(OrderNotAllowedError, match="already has"):
        RULESET.parse_order(game(dons=["Robuste"]), MJ, "DON Armand +Robuste", [])
    with pytest.raises(OrderNotAllowedError, match="does not have"):
        RULESET.parse_order(game(), MJ, "DON Armand -Robuste", [])


# --- I.7 « Le prestige social devient négatif si le personnage est reconnu par ses ennemis » ---


def test_R7_le_prestige_devient_negatif_si_le_personnage_est_reconnu_par_ses_ennemis() -> None:
    state, events, _ = run(game(prestige=600), "RECONNU Armand ENNEMIS", player=MJ)
    assert Renderer("1626", "fr").event_text(events[0]) == (
        "Le MJ indique qu'Armand de Sillègue est un personnage reconnu par des ennemis\u00a0: "
        "les bonus de prestige (Homme de confiance) deviennent des malus.")
    e = result(state, "TEST Baratin CH SR 15", 5)
    assert e["total"] == 5 + 4 - 1 + 5
    assert e["bonuses"] == [{"fr": "prestige, Homme de confiance, face à des ennemis",
                             "en": "prestige, Trusted man, before enemies", "value": -1}]
    state, _, _ = run(state, "RECONNU Armand", player=MJ)
    assert result(state, "TEST Baratin CH SR 15", 5)["total"] == 5 + 4 + 1 + 5
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(state, MJ, "RECONNU Armand amis", [])
