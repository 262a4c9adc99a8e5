"""Pour Ma Belle: numbered cases for the powers (L: Lannister, R: rebels) and the defeats (D).

Expectations come from the rule text and the rulings in docs/rules/pmb.md.
"""

from __future__ import annotations

import pytest

from pbem.core import PUBLIC, OrderNotAllowedError
from pbem.games.pmb import RULESET
from pbem.games.pmb.state import State

from .test_pmb_helpers import FakeDice, kinds_to, new_game, play, public, to

MISSION = ["Jaime", "Arys", "Boros"]


def gardes(verb: str, n: int = 3) -> dict[str, list[str]]:
    return {g: [verb] for g in MISSION[:n]}


def patient(name: str = "Loras", **options: object) -> State:
    """A game after a turn where ``name`` survived a lone attack (he is in the infirmary) and the
    Lord Commandant named Garlan to the fidèles."""
    attacker = "Arya" if name != "Arya" else "Garlan"
    st, _ = play(new_game(**options), {attacker: [f"ESCOUADE {name}"], "Tywin": ["CIBLE Garlan"]})
    assert st.infirmary == [name]
    return st


# ---------------------------------------------------------------- L: Lannister


def test_L1_maitre_des_chuchoteurs_learns_role_and_affiliation() -> None:
    st, ev = play(new_game(), {"Varys": ["ENQUETE Robb"]})
    assert to(ev, "Varys", "enquete_result") == [{"fact": {"player": "Robb", "role": "stark_chef"}}]
    assert {"Robb|role|stark_chef", "Robb|team|stark"} <= st.players["Varys"].knowledge


def test_L2_chuchoteurs_warned_when_a_chef_scans_the_donjon_told_member_and_clan_only() -> None:
    st, ev = play(new_game(), {"Margaery": ["DECOUVRIR Jaime"]})
    assert to(ev, "Margaery", "scan_result") == [{"fact": {"player": "Jaime", "role": "garde"}}]
    assert to(ev, "Varys", "scan_warning") == [{"member": "Jaime", "clan": "tyrell"}]
    assert not any(f.startswith("Margaery|") for f in st.players["Varys"].knowledge)
    _, ev = play(new_game(), {"Margaery": ["DECOUVRIR Arya"]})
    assert to(ev, "Varys", "scan_warning") == []


def test_L2b_chuchoteurs_warned_when_a_chef_scans_him_too() -> None:
    """« Il est également averti lorsqu'un chef rebelle a scanné un joueur du Donjon Rouge » — himself included."""
    _, ev = play(new_game(), {"Margaery": ["DECOUVRIR Varys"]})
    assert to(ev, "Margaery", "scan_result") == [{"fact": {"player": "Varys", "role": "chuchoteurs"}}]
    assert to(ev, "Varys", "scan_warning") == [{"member": "Varys", "clan": "tyrell"}]


def test_L3_grand_argentier_learns_the_composition_of_a_squad_on_a_named_player() -> None:
    _, ev = play(new_game(), {"Petyr": ["TEMOINS Garlan"], "Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]})
    assert to(ev, "Petyr", "temoins_result") == [{"target": "Garlan", "members": ["Arya", "Sansa"]}]
    _, ev = play(new_game(), {"Petyr": ["TEMOINS Willas"]})
    assert to(ev, "Petyr", "temoins_result") == [{"target": "Willas", "members": None}]


def test_L4_potion_only_to_a_patient_of_last_turns_infirmary() -> None:
    st = patient()
    assert [h.syntax.split()[0] for h in RULESET.help(st, "Pycelle")] == ["POTION"]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Pycelle", "POTION poison Arya", [])
    ok = RULESET.parse_order(st, "Pycelle", "POTION poison Loras", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Pycelle", "POTION vigilance Loras", [ok])  # one potion per turn
    st2, _ = play(st, {})  # the infirmary of turn 1 is over
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st2, "Pycelle", "POTION poison Loras", [])


def test_L4a_poison_patient_dies_at_the_end_of_the_turn_not_told() -> None:
    st, ev = play(patient(), {"Pycelle": ["POTION poison Loras"], "Loras": ["ESCOUADE Arya"], "Olenna": ["ESCOUADE Arya"]})
    assert not st.players["Loras"].alive and not st.players["Arya"].alive  # he acted before dying
    assert {"player": "Loras"} in public(ev, "death")
    assert to(ev, "Pycelle", "potion_given") == [{"potion": "poison", "patient": "Loras"}]
    assert not any("potion" in e.kind for e in ev if e.audience.kind == "players" and "Loras" in e.audience.players)


def test_L4b_confusion_orders_replaced_acts_as_fidele_never_told() -> None:
    """« le MJ va ignorer ses consignes pendant ce tour, et les remplacer par les indications du Grand Mestre.
    Après le tour, le joueur ne se souvient pas qu'il était en fait à son insu un fidèle Lannister. »"""
    lines = {"Pycelle": ["POTION confusion Loras ESCOUADE Garlan"], "Loras": ["ESCOUADE Arya"], "Kevan": ["ESCOUADE Garlan"]}
    before = patient()
    dice = FakeDice().force("member who learns a role", "Kevan")
    st, ev = play(before, lines, dice)
    assert not st.players["Garlan"].alive and st.players["Arya"].alive  # his own ESCOUADE Arya is ignored
    assert to(ev, "Kevan", "squad_formed") == [{"target": "Garlan", "members": ["Kevan", "Loras"], "teams": []}]
    # the fidèle sees him as the fidèle Lannister he unknowingly is
    assert to(ev, "Kevan", "member_learned") == [{"fact": {"player": "Loras", "role": "fidele"}}]
    assert st.players["Loras"].team == "tyrell"  # after the turn he is himself again
    # he is told nothing of the squad he went with, and learns nothing from it
    assert kinds_to(ev, "Loras") == []
    assert st.players["Loras"].knowledge == before.players["Loras"].knowledge


def test_L4b2_a_confused_member_is_never_the_one_who_learns_a_role() -> None:
    lines = {"Pycelle": ["POTION confusion Loras ESCOUADE Garlan"], "Kevan": ["ESCOUADE Garlan"]}
    dice = FakeDice()
    st, ev = play(patient(), lines, dice)
    assert dice.rolled("squad on Garlan: member who learns a role") == 1
    assert to(ev, "Kevan", "member_learned") == [{"fact": {"player": "Loras", "role": "fidele"}}]


def test_L4b3_confused_rebel_sent_against_a_lannister_shows_as_lannister() -> None:
    """Sent against his (unknowing) own camp, the attempt is told to the target as coming from a Lannister."""
    lines = {"Pycelle": ["POTION confusion Loras ESCOUADE Lancel"]}
    st, ev = play(patient(own_camp_attempt="noms"), lines)
    assert to(ev, "Lancel", "own_camp_attempt") == [{"attackers": [{"player": "Loras", "team": "lannister"}], "count": 1}]
    assert "Loras|team|tyrell" not in st.players["Lancel"].knowledge
    st, ev = play(patient(), lines)
    assert to(ev, "Lancel", "own_camp_attempt") == [{"attackers": []}]


def test_L4b4_failed_squad_target_sees_the_confused_member_as_fidele() -> None:
    lines = {"Pycelle": ["POTION confusion Loras ESCOUADE Robb"]}  # alone: not a correct squad
    st, ev = play(patient(), lines, FakeDice().force("member of the failed squad seen by Robb", "Loras"))
    assert to(ev, "Robb", "target_learned") == [{"facts": [{"player": "Loras", "role": "fidele"}]}]
    assert "Loras|role|tyrell_sergent" not in st.players["Robb"].knowledge


def test_L4b5_a_confused_chefs_appointments_and_scans_are_ignored() -> None:
    """His NOMMER is ignored (the new sergent is drawn as for a silent chef), and so are DECOUVRIR and GARDE."""
    st, _ = play(new_game(), {"Olenna": ["ESCOUADE Bran"], "Garlan": ["ESCOUADE Bran"], "Margaery": ["ESCOUADE Robb"]})
    assert not st.players["Bran"].alive and st.infirmary == ["Robb"]
    lines = {"Pycelle": ["POTION confusion Robb"], "Robb": ["NOMMER ser Schlingue SERGENT", "DECOUVRIR Loras", "GARDE Arya"]}
    dice = FakeDice().force("stark new sergent (chef silent)", "Rickon")
    st2, ev = play(st, lines, dice)
    assert st2.players["Rickon"].rank == "sergent" and st2.players["ser Schlingue"].rank == "hm"
    assert dice.rolled("stark new sergent (chef silent)") == 1
    assert to(ev, "Robb", "scan_result") == [] and to(ev, "Arya", "bodyguard_assigned") == []


def test_L4b6_a_confused_chefs_assignments_are_ignored() -> None:
    st = new_game()
    st.players["Kevan"].team, st.players["Kevan"].rank = "stark", "hm"  # a new Homme de Main to assign
    st.infirmary = ["Robb"]
    dice = FakeDice().force("stark sergent for Kevan", "Bran")
    st2, _ = play(st, {"Pycelle": ["POTION confusion Robb"], "Robb": ["AFFECTER Kevan Jon"]}, dice)
    assert st2.players["Kevan"].sergent == "Bran"
    st3, _ = play(st, {"Robb": ["AFFECTER Kevan Jon"]}, FakeDice().force("stark sergent for Kevan", "Bran"))
    assert st3.players["Kevan"].sergent == "Jon"


def test_L4c_revelation_patient_reveals_self_and_the_affiliation_of_another_and_is_told() -> None:
    """« le joueur révèle son rôle, son affiliation ainsi que celle d'un autre joueur au hasard » (celle : l'affiliation)."""
    dice = FakeDice().force("revelation potion: player named by Loras", "Olenna")
    st, ev = play(patient(), {"Pycelle": ["POTION revelation Loras"]}, dice)
    facts = to(ev, "Pycelle", "potion_revelation")[0]["facts"]
    assert facts == [{"player": "Loras", "role": "tyrell_sergent"}, {"player": "Olenna", "team": "tyrell"}]
    assert dice.rolled("revelation potion: player named by Loras") == 1
    assert to(ev, "Loras", "you_spoke") == [{"facts": facts}]
    assert "Loras|role|tyrell_sergent" in st.players["Pycelle"].knowledge
    assert "Olenna|role|tyrell_hm" not in st.players["Pycelle"].knowledge


def test_L4c2_option_revelation_role_names_the_others_role_as_the_patient_knows_it() -> None:
    dice = FakeDice().force("revelation potion: player named by Loras", "Olenna")
    st, ev = play(patient(revelation="role"), {"Pycelle": ["POTION revelation Loras"]}, dice)
    facts = to(ev, "Pycelle", "potion_revelation")[0]["facts"]
    assert facts == [{"player": "Loras", "role": "tyrell_sergent"}, {"player": "Olenna", "role": "tyrell_hm"}]


def test_L4c3_revelation_tells_what_the_patient_was_told_last() -> None:
    st = patient(revelation="role")
    st.players["Loras"].learn_role("Olenna", "stark_hm")  # told later that Olenna went over to the Stark
    dice = FakeDice().force("revelation potion: player named by Loras", "Olenna")
    _, ev = play(st, {"Pycelle": ["POTION revelation Loras"]}, dice)
    assert to(ev, "Pycelle", "potion_revelation")[0]["facts"][1] == {"player": "Olenna", "role": "stark_hm"}


def test_L4d_puissance_plus_five_influence_for_the_rest_of_the_game_told() -> None:
    st, ev = play(patient(), {"Pycelle": ["POTION puissance Loras"]})
    assert to(ev, "Loras", "potion_puissance") == [{"bonus": 5}]
    assert RULESET.view(st, "Loras")["influence"] == 3 + 5
    # Loras (8) + Garlan (1) now kill Robb (7)
    st2, _ = play(st, {"Loras": ["ESCOUADE Robb"], "Garlan": ["ESCOUADE Robb"]})
    assert not st2.players["Robb"].alive


def test_L4e_vigilance_50pct_flees_told_only_then() -> None:
    """« Le joueur n'est averti qu'à ce moment là de son pouvoir de vigilance. »"""
    st, ev = play(patient(), {"Pycelle": ["POTION vigilance Loras"]})
    assert st.players["Loras"].vigilance
    assert kinds_to(ev, "Loras") == []  # not told when he drinks it
    attack = {"Robb": ["ESCOUADE Loras"], "Jon": ["ESCOUADE Loras"]}
    st2, ev2 = play(st, attack, FakeDice().force("vigilance of Loras", True))
    assert st2.players["Loras"].alive
    assert to(ev2, "Loras", "vigilance_awakened") == [{"attackers": 2}]
    assert to(ev2, "Robb", "vigilance_fled") == [{"target": "Loras"}]
    st3, ev3 = play(st, attack, FakeDice().force("vigilance of Loras", False))
    assert not st3.players["Loras"].alive
    assert to(ev3, "Loras", "vigilance_awakened") == []


def test_L4f_one_vial_each_one_potion_per_player_three_uses() -> None:
    st = patient()
    st, _ = play(st, {"Pycelle": ["POTION puissance Loras"], "Arya": ["ESCOUADE Garlan"]})
    assert st.infirmary == ["Garlan"]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Pycelle", "POTION puissance Garlan", [])  # vial empty
    st.infirmary = ["Loras", "Garlan"]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Pycelle", "POTION vigilance Loras", [])  # one potion per player
    st.potions_used = ["puissance", "poison", "revelation"]
    assert "POTION" not in [h.syntax.split()[0] for h in RULESET.help(st, "Pycelle")]  # three uses at most


def _protect(target: str, n: int = 3) -> dict[str, list[str]]:
    return {"Tywin": [f"PROTECTION {target}"], **gardes("PROTECTION", n)}


CONSEIL_SQUAD = {"Robb": ["ESCOUADE Varys"], "Margaery": ["ESCOUADE Varys"], "Olenna": ["ESCOUADE Varys"]}


def test_L5_protection_needs_three_gardes_makes_the_squad_flee_public_once_only() -> None:
    dice = FakeDice().force("Conseil member dies", True)
    st, ev = play(new_game(), {**_protect("Varys"), **CONSEIL_SQUAD}, dice)
    assert st.players["Varys"].alive
    assert public(ev, "protection_effective") == [{"player": "Varys"}]
    assert to(ev, "Robb", "squad_fled_guards") == [{"target": "Varys"}]
    assert dice.rolled("(80%)") == 0
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Tywin", "PROTECTION Varys", [])  # never again


def test_L5b_protection_with_two_gardes_is_not_effective() -> None:
    dice = FakeDice().force("Conseil member dies", True)
    st, ev = play(new_game(), {**_protect("Varys", 2), **CONSEIL_SQUAD}, dice)
    assert not st.players["Varys"].alive
    assert to(ev, "Jaime", "mission_report")[0]["effective"] is False


def test_L5c_protection_of_a_conseil_member_or_a_port_real_player_only() -> None:
    st = new_game()
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Tywin", "PROTECTION Jaime", [])
    assert RULESET.parse_order(st, "Tywin", "PROTECTION Arya", []).args[0] == "Arya"


def test_L5d_protecting_a_rebel_bars_his_whole_team_afterwards() -> None:
    st, ev = play(new_game(), _protect("Robb"))
    assert to(ev, "Jaime", "mission_report")[0]["effective"] is True
    attack = {"Margaery": ["ESCOUADE Jon"], "Olenna": ["ESCOUADE Jon"]}
    st2, ev2 = play(st, {**_protect("Jon"), **attack})
    assert not st2.players["Jon"].alive  # his team is barred: not protected
    assert public(ev2, "protection_effective") == []
    assert to(ev2, "Jaime", "mission_report")[0]["effective"] is True  # in silence: the Gardes learn no affiliation
    st3, ev3 = play(st, {**_protect("Robb"), "Margaery": ["ESCOUADE Robb"], "Olenna": ["ESCOUADE Robb"]})
    assert st3.players["Robb"].alive  # Robb himself may be protected again until it works once


def _in_cells(st: State, turns: int) -> State:
    """The same state, with the option prison_turns set to ``turns``."""
    out = st.clone()
    out.options["prison_turns"] = turns
    return out


def _arrest(target: str, n: int = 3) -> dict[str, list[str]]:
    return {"Tywin": [f"ARRESTATION {target}"], **gardes("ARRESTATION", n)}


def test_L6_arrest_public_prisoner_cannot_act_nor_be_targeted() -> None:
    dice = FakeDice()
    st, ev = play(new_game(), _arrest("Loras"), dice)
    assert public(ev, "arrested") == [{"player": "Loras"}]
    assert to(ev, "Loras", "you_are_arrested") == [{}]
    assert dice.rolled("torturer") == 0  # the interrogation is in the turn he spends in the cells
    assert "Loras" not in [p.player for p in RULESET.prompts(st)]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ESCOUADE Loras", [])
    assert RULESET.view(st, PUBLIC)["prisoners"] == ["Loras"]
    dice = FakeDice()
    play(st, {}, dice)
    assert dice.rolled("torturer makes Loras name a teammate (50%)") == 1


def test_L6b_arrest_needs_three_gardes_and_a_garde_takes_one_mission() -> None:
    st, ev = play(new_game(), _arrest("Loras", 2))
    assert st.players["Loras"].location != "cachots" and public(ev, "arrested") == []
    st = new_game()
    first = RULESET.parse_order(st, "Jaime", "PROTECTION", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Jaime", "ARRESTATION", [first])


def test_L6c_confession_to_the_surviving_lord_commandant_then_verdict_death() -> None:
    dice = FakeDice().force("torturer makes Loras name a teammate", True).force("teammate named by Loras", "Margaery")
    st, _ = play(new_game(), _arrest("Loras"))
    st, ev = play(st, {}, dice)
    conf = to(ev, "Tywin", "confession")
    assert conf == [{"prisoner": "Loras", "facts": [{"player": "Loras", "role": "tyrell_sergent"},
                                                     {"player": "Margaery", "role": "tyrell_chef"}]}]
    assert "Loras" not in [p.player for p in RULESET.prompts(_in_cells(st, 2))]
    assert "Loras" in [p.player for p in RULESET.prompts(st)]  # prison_turns = 1: he plays, his orders count if released
    assert [h.syntax.split()[0] for h in RULESET.help(st, "Tywin")][-1] == "VERDICT"
    st, ev = play(st, {"Tywin": ["VERDICT Loras MORT"]})
    assert not st.players["Loras"].alive and {"player": "Loras"} in public(ev, "death")
    assert st.torturer == 60


def test_L6d_no_verdict_means_release_to_culpucier_option_death() -> None:
    st, _ = play(new_game(), _arrest("Loras"))
    st, _ = play(st, {})
    assert RULESET.default_orders(st, "Tywin")[0].args == ("Loras", "LIBERE", "defaut")
    st2, ev = play(st, {})
    assert st2.players["Loras"].alive and st2.players["Loras"].location in ("culpucier", "fossedragon")
    assert to(ev, "Loras", "verdict_released")[0]["prisoner"] == "Loras"
    assert st2.torturer == 50
    st.options["verdict_default"] = "mort"
    st3, _ = play(st, {})
    assert not st3.players["Loras"].alive


def test_L6m_a_silent_lord_commandants_verdict_is_told_as_the_default() -> None:
    """The engine gives a silent player his `default_orders`: the verdict they carry is still « par défaut »
    (found by a scenario case: it read « defaulted = false » for a Lord Commandant who said nothing)."""
    st, _ = play(new_game(), _arrest("Loras"))
    st, _ = play(st, {})
    _, ev = play(st, {})  # silent: his default_orders, as the engine sends them
    assert to(ev, "Loras", "verdict_released") == [{"prisoner": "Loras", "defaulted": True}]
    _, ev = play(st, {"Tywin": ["VERDICT Loras LIBERE"]})
    assert to(ev, "Loras", "verdict_released") == [{"prisoner": "Loras", "defaulted": False}]
    _, ev = play(st, {"Tywin": ["CIBLE Garlan"]})  # orders, but no verdict: the default, said so
    assert to(ev, "Loras", "verdict_released") == [{"prisoner": "Loras", "defaulted": True}]


def test_L6e_lord_commandant_killed_prisoner_kills_the_torturer_and_escapes() -> None:
    st, _ = play(new_game(), _arrest("Loras"))
    dice = FakeDice().force("Garde Royal dies", True)
    st, ev = play(st, {"Robb": ["ESCOUADE Tywin"], "Jon": ["ESCOUADE Tywin"], "Sansa": ["ESCOUADE Tywin"]}, dice)
    assert not st.players["Tywin"].alive
    assert to(ev, "Loras", "escaped") == [{}]
    assert st.players["Loras"].location in ("culpucier", "fossedragon") and st.prisoners == []
    assert st.torturer == 40
    assert not any(e.kind == "confession" for e in ev)


def test_L6f_torturer_percentage_kept_within_10_and_90() -> None:
    st, _ = play(new_game(), _arrest("Loras"))
    st, _ = play(st, {})
    st.torturer = 90
    st2, _ = play(st, {"Tywin": ["VERDICT Loras MORT"]})
    assert st2.torturer == 90
    st, _ = play(new_game(), _arrest("Loras"))
    st.torturer = 10
    st3, _ = play(st, {n: ["ESCOUADE Tywin"] for n in ("Robb", "Jon", "Sansa")}, FakeDice().force("Garde Royal dies", True))
    assert st3.torturer == 10


def test_L6g_torturer_draws_a_teammate_the_prisoner_knows() -> None:
    st, _ = play(new_game(), _arrest("Arya"))
    st, ev = play(st, {}, FakeDice().force("torturer makes Arya", True))
    assert st.prisoners[0].confession == ["Arya|role|stark_hm", "Jon|role|stark_sergent"]
    assert to(ev, "Tywin", "confession")[0]["facts"][1] == {"player": "Jon", "role": "stark_sergent"}


def test_L6h_confession_names_the_role_the_prisoner_was_told_last() -> None:
    """« il révèle le rôle et l'identité d'un autre joueur de son équipe »: what he was told last."""
    st, _ = play(new_game(), _arrest("Arya"))
    st.players["Arya"].learn_role("Jon", "stark_hm")  # told since that Jon is an Homme de Main
    st, ev = play(st, {}, FakeDice().force("torturer makes Arya", True))
    assert to(ev, "Tywin", "confession")[0]["facts"] == [{"player": "Arya", "role": "stark_hm"},
                                                         {"player": "Jon", "role": "stark_hm"}]


def test_L6k_interrogation_in_the_turn_in_the_cells_after_that_turns_defeat() -> None:
    """« Ce joueur sera pendant le tour suivant dans les cachots […] Il est soumis à un interrogatoire »: the
    confession is drawn in that turn; a defeat of his team in it converts him first, and he confesses what he is."""
    st, _ = play(new_game(), _arrest("Arya"))
    dice = FakeDice().force("torturer makes Arya", True)
    st, ev = play(st, {"Margaery": ["ESCOUADE Robb"], "Olenna": ["ESCOUADE Robb"]}, dice)  # Robb dies: Stark defeated
    assert "stark" in st.defeated and st.players["Arya"].code == "tyrell_hm"
    assert to(ev, "Tywin", "confession") == [{"prisoner": "Arya", "facts": [{"player": "Arya", "role": "tyrell_hm"}]}]
    assert dice.rolled("torturer makes Arya") == 0  # she knows no Tyrell's role: nobody to name


def test_L8_lord_commandant_names_the_fideles_target_they_form_a_squad() -> None:
    st, ev = play(new_game(), {"Tywin": ["CIBLE Garlan"]})
    assert to(ev, "Lancel", "fidele_order") == [{"target": "Garlan"}] == to(ev, "Kevan", "fidele_order")
    assert to(ev, "Arya", "fidele_order") == [] and to(ev, "Jaime", "fidele_order") == []
    st, ev = play(st, {"Lancel": ["ESCOUADE Garlan"], "Kevan": ["ESCOUADE Garlan"]})
    assert not st.players["Garlan"].alive
    assert to(ev, "Lancel", "squad_killed")[0]["fact"] == {"player": "Garlan", "role": "tyrell_hm"}


# ---------------------------------------------------------------- R: rebels


def test_R1_each_chef_discovers_the_role_of_one_opponent_per_turn() -> None:
    st, ev = play(new_game(), {"Robb": ["DECOUVRIR Margaery"], "Margaery": ["DECOUVRIR Kevan"]})
    assert to(ev, "Robb", "scan_result") == [{"fact": {"player": "Margaery", "role": "tyrell_chef"}}]
    assert to(ev, "Margaery", "scan_result") == [{"fact": {"player": "Kevan", "role": "fidele"}}]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Robb", "DECOUVRIR Loras", [RULESET.parse_order(st, "Robb", "DECOUVRIR Kevan", [])])


def test_R2_bodyguard_learns_the_chef_squad_turned_onto_him_influence_rechecked() -> None:
    # Garlan + Willas (2) could not kill Robb (7) but are enough against Arya (1)
    st, ev = play(new_game(), {"Robb": ["GARDE Arya"], "Garlan": ["ESCOUADE Robb"], "Willas": ["ESCOUADE Robb"],
                               "Petyr": ["TEMOINS Robb"]})
    assert to(ev, "Petyr", "temoins_result") == [{"target": "Robb", "members": ["Garlan", "Willas"]}]
    assert to(ev, "Arya", "bodyguard_assigned") == [{"chef": {"player": "Robb", "role": "stark_chef"}}]
    assert to(ev, "Garlan", "squad_redirected") == [{"target": "Robb", "bodyguard": "Arya"}]
    assert st.players["Robb"].alive and not st.players["Arya"].alive
    assert to(ev, "Robb", "chef_warned") == []


def test_R2e_chef_names_as_bodyguard_a_converted_homme_de_main_he_once_scanned() -> None:
    """What a chef knows of a player is what he was told last: Garlan, scanned as a Tyrell, then announced as
    his new Homme de Main, can guard him."""
    lines = {"Robb": ["DECOUVRIR Garlan", "ESCOUADE Margaery"], "Jon": ["ESCOUADE Margaery"]}  # 7 + 3 > 7
    st, ev = play(new_game(), lines)
    assert "tyrell" in st.defeated and st.players["Garlan"].code == "stark_hm"
    assert to(ev, "Robb", "scan_result") == [{"fact": {"player": "Garlan", "role": "tyrell_hm"}}]
    assert {"homme": {"player": "Garlan", "role": "stark_hm"}} in to(ev, "Robb", "new_homme_de_main")
    assert RULESET.parse_order(st, "Robb", "GARDE Garlan", []).args == ("Garlan",)
    assert RULESET.view(st, "Robb")["known"][[k["player"] for k in RULESET.view(st, "Robb")["known"]].index("Garlan")] == \
        {"player": "Garlan", "role": "stark_hm"}


def test_R2b_fifty_pct_the_chef_is_warned_and_flees() -> None:
    """« 50 % de chances que l'assassinat ou l'arrestation de l'Homme de Main fait suffisamment de bruit pour que le
    chef soit averti et s'enfuit »: the arrest that comes after the squads does not find him."""
    lines = {"Robb": ["GARDE Arya"], "Garlan": ["ESCOUADE Robb"], "Willas": ["ESCOUADE Robb"],
             "Loras": ["ESCOUADE Robb"], "Olenna": ["ESCOUADE Robb"], **_arrest("Robb")}
    dice = FakeDice().force("chef Robb warned", True)
    st, ev = play(new_game(), lines, dice)
    assert to(ev, "Robb", "chef_warned") == [{"bodyguard": "Arya", "event": "squad"}]
    assert st.players["Robb"].alive and st.players["Robb"].location == "visenya"
    assert to(ev, "Jaime", "arrest_failed") == [{"target": "Robb", "reason": "absent"}]  # not why: that would tell he is a chef


def test_R2c_arrest_of_a_guarded_chef_takes_the_bodyguard() -> None:
    st, ev = play(new_game(), {"Robb": ["GARDE Sansa"], **_arrest("Robb")}, FakeDice().force("chef Robb warned", True))
    assert st.players["Sansa"].location == "cachots" and st.players["Robb"].location == "visenya"
    assert public(ev, "arrested") == [{"player": "Sansa"}]
    assert to(ev, "Robb", "chef_warned") == [{"bodyguard": "Sansa", "event": "arrest"}]


def test_R2d_neither_chef_nor_bodyguard_in_a_squad() -> None:
    st = new_game()
    sq = RULESET.parse_order(st, "Robb", "ESCOUADE Kevan", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Robb", "GARDE Arya", [sq])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Robb", "GARDE Garlan", [])  # not his
    st2, ev = play(st, {"Robb": ["GARDE Arya"], "Arya": ["ESCOUADE Kevan"]})
    assert to(ev, "Robb", "bodyguard_refused") == [{"homme": "Arya"}]
    assert to(ev, "Arya", "bodyguard_assigned") == []


def _lone_original(st: State) -> State:
    """Bran (original sergent) died and Rickon replaced him: Jon is the only original sergent left."""
    st.players["Bran"].alive = False
    st.players["Rickon"].rank = "sergent"
    st.players["ser Schlingue"].sergent = "Rickon"
    st.players["Lancel"].location = "fossedragon"
    return st


def test_R3_betrayal_only_when_a_single_original_sergent_remains() -> None:
    st = new_game()
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Jon", "TRAHIR", [])
    st = _lone_original(new_game())  # states are immutable by contract: build a new one
    assert RULESET.parse_order(st, "Jon", "TRAHIR", []).verb == "TRAHIR"
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Rickon", "TRAHIR", [])


def test_R3b_betrayal_loyalists_learn_the_chef_squad_succeeds_sergent_becomes_recruit_then_garde() -> None:
    st, ev = play(_lone_original(new_game()), {"Jon": ["TRAHIR"]})
    known = to(ev, "Tywin", "betrayal_known")
    assert known == [{"chef": {"player": "Robb", "role": "stark_chef"}, "sergent": {"player": "Jon", "role": "stark_sergent"}}]
    assert to(ev, "Varys", "betrayal_known") == known
    assert to(ev, "Lancel", "fidele_order") == [{"target": "Robb"}]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Jon", "ESCOUADE Kevan", [])  # he joins the squad against his chef
    st, ev = play(st, {"Lancel": ["ESCOUADE Robb"], "Kevan": ["ESCOUADE Robb"]})  # 3 + 3 + Jon 3 = 9 > 7
    assert not st.players["Robb"].alive
    assert to(ev, "Lancel", "squad_formed")[0]["members"] == ["Lancel", "Kevan", "Jon"]
    assert st.players["Jon"].code == "fidele" and st.players["Jon"].recruit
    assert to(ev, "Tywin", "recruit_available") == [{"recruit": {"player": "Jon", "role": "fidele"}}]
    st.players["Jaime"].alive = False  # a free place in the Garde
    st, ev = play(st, {"Tywin": ["PROMOUVOIR Jon"]})
    assert st.players["Jon"].code == "garde" and st.players["Jon"].location == "donjon"
    assert "Jon|role|garde" in st.players["Varys"].knowledge


def test_R3c_betrayal_fails_if_the_chef_survives_sergent_dies_chef_names_any_hm() -> None:
    st, _ = play(_lone_original(new_game()), {"Jon": ["TRAHIR"]})
    st, ev = play(st, {})  # Jon alone (3) against Robb (7): not correctly formed
    assert st.players["Robb"].alive and not st.players["Jon"].alive
    assert to(ev, "Robb", "vacancy")[0]["anyone"] is True
    st, _ = play(st, {"Robb": ["NOMMER ser Schlingue SERGENT"]})
    assert st.players["ser Schlingue"].code == "stark_sergent"
    assert st.players["Arya"].sergent == "ser Schlingue"


# ---------------------------------------------------------------- D: defeats and victory


def _kill(st: State, *names: str) -> State:
    for n in names:
        st.players[n].alive = False
    return st


def test_R3d_a_betrayal_the_turn_the_chef_dies_is_void_and_told_even_to_a_converted_sergent() -> None:
    """TRAHIR is decided after the defeats (docs/rules/pmb.md §7): Robb killed the same turn, Jon betrays nobody and is
    told, also when the defeat made him a Tyrell (found by the scenario case R3d: he was told nothing then)."""
    lines = {"Jon": ["TRAHIR"], "Margaery": ["ESCOUADE Robb"], "Olenna": ["ESCOUADE Robb"]}  # 7 + 7 > 7
    for first, team in (("Jon", "tyrell"), ("Arya", "lannister")):
        survivors = [first] + [n for n in ("Jon", "Arya", "Sansa", "Rickon", "ser Schlingue") if n != first]
        if team == "lannister":  # Jon last of the draw: the quarter that goes to the Lannister
            survivors = [n for n in survivors if n != "Jon"] + ["Jon"]
        dice = FakeDice().force("denounces a teammate", False).force("stark survivors split", survivors)
        st, ev = play(_lone_original(new_game()), lines, dice)
        assert st.players["Jon"].team == team
        assert to(ev, "Jon", "betrayal_void") == [{"reason": "chef"}], team
        assert st.betrayals == [] and to(ev, "Tywin", "betrayal_known") == []


def test_R3e_a_betrayal_void_because_the_lannister_fell_says_so() -> None:
    st = _lone_original(_kill(new_game(), "Varys", "Petyr"))
    dice = FakeDice().force("Conseil member dies", True)
    lines = {"Jon": ["TRAHIR"], "Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"]}
    _, ev = play(st, lines, dice)
    assert to(ev, "Jon", "betrayal_void") == [{"reason": "lannister"}]


def test_D1_third_conseil_death_lannister_defeat_gardes_join_the_clan_of_their_choice() -> None:
    st = _kill(new_game(), "Varys", "Petyr")
    dice = FakeDice().force("Conseil member dies", True)
    st, ev = play(st, {"Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"]}, dice)
    assert public(ev, "team_defeated") == [{"team": "lannister", "cause": "conseil", "chef": None}]
    assert "lannister" in st.defeated
    for g in ("Tywin", "Jaime", "Arys", "Boros"):
        assert st.players[g].rally and st.players[g].location in ("visenya", "fossedragon", "culpucier")
        assert to(ev, g, "must_rally")
    assert [h.syntax.split()[0] for h in RULESET.help(st, "Jaime")] == ["RALLIER"]
    st, ev = play(st, {"Jaime": ["RALLIER Arya"], "Tywin": ["RALLIER Olenna"], "Boros": ["RALLIER Lancel"]},
                  FakeDice().force("rebel met by Arys", "Loras").force("rebel met by Boros", "Bran"))
    assert st.players["Boros"].code == "stark_hm"  # Lancel is no rebel: a random rebel instead
    assert st.players["Jaime"].code == "stark_hm" and st.players["Tywin"].code == "tyrell_hm"
    assert to(ev, "Arya", "rally_contact") == [{"newcomer": {"player": "Jaime", "role": "stark_hm"}}]
    assert to(ev, "Jaime", "rallied")[0]["contact"] == {"player": "Arya", "team": "stark"}
    assert to(ev, "Robb", "new_homme_de_main") == [{"homme": {"player": "Jaime", "role": "stark_hm"}},
                                                   {"homme": {"player": "Boros", "role": "stark_hm"}}]
    assert st.players["Arys"].team == "tyrell"  # silent: met a random rebel (Loras)
    st, ev = play(st, {"Robb": ["AFFECTER Jaime Bran"]})
    assert st.players["Jaime"].sergent == "Bran"
    assert to(ev, "Bran", "hm_assigned") == [{"homme": {"player": "Jaime", "role": "stark_hm"}}]
    assert to(ev, "Jaime", "sergent_assigned") == [{"sergent": {"player": "Bran", "role": "stark_sergent"}}]


def test_D1b_lannister_defeat_frees_the_prisoners() -> None:
    st, _ = play(_kill(new_game(), "Varys", "Petyr"), _arrest("Loras"))
    assert st.players["Loras"].location == "cachots"
    dice = FakeDice().force("Conseil member dies", True)
    st, ev = play(st, {"Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"]}, dice)
    assert st.prisoners == [] and st.players["Loras"].location in ("culpucier", "fossedragon")
    assert to(ev, "Loras", "escaped") == [{}]


def test_D2_seventh_garde_death_conseil_hides_fideles_rally() -> None:
    st = _kill(new_game(), "Tywin", "Arys", "Boros")
    dice = FakeDice().force("Garde Royal dies", True)
    st, ev = play(st, {"Robb": ["ESCOUADE Jaime"], "Jon": ["ESCOUADE Jaime"], "Sansa": ["ESCOUADE Jaime"]}, dice)
    assert public(ev, "team_defeated") == [{"team": "lannister", "cause": "garde", "chef": None}]
    assert st.players["Varys"].hidden and st.players["Varys"].location == "culpucier"
    assert st.players["Lancel"].rally and st.players["Kevan"].rally
    prompts = {p.player: p for p in RULESET.prompts(st)}
    assert prompts["Varys"].required is False and prompts["Varys"].kind == "hiding"
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Varys", "ENQUETE Robb", [])
    # hidden: cannot be killed
    from pbem.core import Order

    orders: dict[str, list[Order]] = {p: [] for p in prompts}
    orders["Robb"] = [Order("ESCOUADE", ("Varys",))]
    orders["Jon"] = [Order("ESCOUADE", ("Varys",))]
    st2, ev2 = RULESET.resolve(st, orders, FakeDice())  # type: ignore[arg-type]
    assert st2.players["Varys"].alive
    st3, ev3 = play(st, {"Varys": ["SORTIR"]})
    assert not st3.players["Varys"].hidden and to(ev3, "Varys", "left_hiding") == [{}]
    assert [h.syntax.split()[0] for h in RULESET.help(st3, "Varys")] == ["ENQUETE"]


def test_D3_rebel_chef_death_defeat_public_75pct_to_the_responsible_team() -> None:
    st, ev = play(new_game(), {"Robb": ["ESCOUADE Margaery"], "Jon": ["ESCOUADE Margaery"]})  # 10 > 7
    assert public(ev, "team_defeated") == [{"team": "tyrell", "cause": "chef", "chef": "Margaery"}]
    teams = {n: st.players[n].code for n in ("Loras", "Garlan", "Olenna", "Willas")}
    assert list(teams.values()).count("stark_hm") == 3 and list(teams.values()).count("fidele") == 1
    for n, code in teams.items():
        assert to(ev, n, "converted")[0]["role"] == {"player": n, "role": code}
    news = [d["homme"]["player"] for d in to(ev, "Robb", "new_homme_de_main")]
    assert sorted(news) == sorted(n for n, c in teams.items() if c == "stark_hm")


def test_D3b_players_take_what_they_know_with_them() -> None:
    """« Les joueurs emmènent avec eux les infos dont ils disposent à ce stade du jeu. »"""
    st = _kill(new_game(), "Varys", "Petyr")
    dice = FakeDice().force("Conseil member dies", True)
    st, _ = play(st, {"Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"]}, dice)
    st, _ = play(st, {"Jaime": ["RALLIER Arya"]})
    assert st.players["Jaime"].code == "stark_hm"
    known = {f["player"]: f.get("role") for f in RULESET.view(st, "Jaime")["known"]}
    assert known["Tywin"] == "lord_commandant" and known["Varys"] == "chuchoteurs" and known["Arya"] is None
    assert {"player": "Arya", "team": "stark"} in RULESET.view(st, "Jaime")["known"]  # his contact's affiliation


def test_D4_lannister_win_when_both_rebel_chefs_are_dead() -> None:
    st = new_game()
    st.players["Robb"].alive = False
    st.defeated.append("stark")
    st.players["Lancel"].location = "visenya"
    st.fidele_target = "Margaery"  # named by the Lord Commandant last turn
    st, ev = play(st, {"Lancel": ["ESCOUADE Margaery"], "Kevan": ["ESCOUADE Margaery"]})  # 7 + 3 > 7
    assert st.finished and st.winner == "lannister"
    out = RULESET.outcome(st)
    assert out is not None and "Tywin" in out.winners and "Kevan" in out.winners
    assert "Loras" in out.winners  # Tyrell survivors joined the only team left standing
    assert "Robb" not in out.winners and "Margaery" not in out.winners
    over = public(ev, "game_over")[0]
    assert over["winner"] == "lannister" and {"player": "Margaery", "role": "tyrell_chef", "alive": False} in over["reveal"]
    assert RULESET.prompts(st) == []
    assert RULESET.view(st, PUBLIC)["roles"]["Robb"] == "stark_chef"  # final reveal


def test_D5_stark_win_when_lannister_defeated_and_tyrell_chef_dead() -> None:
    st = _kill(new_game(), "Varys", "Petyr")
    st.players["Sansa"].location = "visenya"
    dice = FakeDice().force("Conseil member dies", True)
    lines = {"Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"],
             "Jon": ["ESCOUADE Margaery"], "Sansa": ["ESCOUADE Margaery"]}  # 3 + 7 > 7; Margaery kills before dying
    st, ev = play(st, lines, dice)
    assert not st.players["Pycelle"].alive and not st.players["Margaery"].alive
    assert st.finished and st.winner == "stark"
    out = RULESET.outcome(st)
    assert out is not None and "Robb" in out.winners and "Tywin" not in out.winners
    assert [d["team"] for d in public(ev, "team_defeated")] == ["lannister", "tyrell"]


def test_D6_no_winner_when_every_team_falls_the_same_turn() -> None:
    st = _kill(new_game(), "Varys", "Petyr")
    dice = FakeDice().force("Conseil member dies", True)
    st.players["Sansa"].location = "visenya"
    st.players["Loras"].location = "visenya"
    lines = {"Robb": ["ESCOUADE Pycelle"], "Margaery": ["ESCOUADE Pycelle"], "Olenna": ["ESCOUADE Pycelle"],
             "Jon": ["ESCOUADE Margaery"], "Sansa": ["ESCOUADE Margaery"],
             "Loras": ["ESCOUADE Robb"], "Willas": ["ESCOUADE Robb"], "Garlan": ["ESCOUADE Robb"]}
    st, _ = play(st, lines, dice)
    assert st.finished and st.winner is None
    out = RULESET.outcome(st)
    assert out is not None and out.winners == ()
