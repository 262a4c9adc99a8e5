"""Pour Ma Belle: the options (every value checked; each debatable ruling with both values) and the
refusal of impossible fixed rosters (S8…).

Expectations come from the rule text and docs/rules/pmb.md (« Options »).
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.core import OrderNotAllowedError, Seat, SetupError
from pbem.dice import Dice
from pbem.games.pmb import RULESET
from pbem.games.pmb.options import CHOICES, DEFAULT_OPTIONS, check_options
from pbem.games.pmb.squads import Squad
from pbem.games.pmb.state import State

from .test_pmb_helpers import ROSTER, FakeDice, new_game, play, public, roster, to

# ---------------------------------------------------------------- option values


def refused(options: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as err:
        check_options(options)
    return err.value


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_S9_every_option_value_is_checked_and_the_error_names_the_allowed_values(key: str) -> None:
    err = refused({key: "n'importe quoi"})
    for value in CHOICES[key]:
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        assert shown in err.msg.fr and shown in err.msg.en, (key, err.msg)
    assert key in err.msg.fr and "n'est pas une valeur possible" in err.msg.fr and "not an allowed value" in err.msg.en
    for value in CHOICES[key]:
        assert check_options({key: value})[key] == value


def test_S9b_booleans_and_numbers_are_not_confused() -> None:
    assert "true" in refused({"prison_turns": True}).msg.en  # True == 1 in Python, but not a number of turns
    refused({"lord_commandant_counts": 1})
    refused({"max_turns": -1})
    refused({"max_turns": "60"})
    assert check_options({"max_turns": 0})["max_turns"] == 0


def test_S9c_unknown_option_names_the_options() -> None:
    err = refused({"prison": 1})
    assert "prison_turns" in err.msg.fr and "option inconnue « prison »" in err.msg.fr


def test_S9d_roles_and_places_tables_are_checked() -> None:
    assert "clé inconnue « garde »" in refused({"roles": {"garde": 5}}).msg.fr
    assert "gardes" in refused({"roles": {"gardes": 8}}).msg.fr
    assert "hm_min (9) dépasse hm_max (8)" in refused({"roles": {"hm_min": 9, "hm_max": 8}}).msg.fr
    assert "fossedragon" in refused({"places": {"visenya": 5}}).msg.fr
    assert "nombre entier" in refused({"places": {"visenya": "5", "fossedragon": 10}}).msg.fr
    assert "« auto » ou un tableau" in refused({"places": "beaucoup"}).msg.fr
    with pytest.raises(SetupError) as err:  # hm_min alone above the automatic maximum
        RULESET.setup([Seat(f"J{i:02d}") for i in range(40)], {"roles": {"hm_min": 12}}, Dice("00" * 8, "setup"))
    assert "hm_max" in err.value.msg.fr


def test_S9e_defaults_are_the_documented_ones() -> None:
    assert DEFAULT_OPTIONS == {"roles": "auto", "places": "auto", "max_turns": 60, "verdict_default": "liberer",
                               "prison_turns": 1, "lord_commandant_counts": False, "own_camp_attempt": "anonyme",
                               "lord_commandant_revealed": True,
                               "fidele_squads": "cible", "squad_order": "tirage", "revelation": "affiliation"}
    assert dict(RULESET.default_options) == DEFAULT_OPTIONS
    with pytest.raises(SetupError):
        RULESET.check_options({"squad_order": "alphabétique"})
    with pytest.raises(SetupError):  # setup checks them too
        new_game(squad_order="nom")


# ---------------------------------------------------------------- S8: impossible fixed rosters


def setup_error(rows: list[tuple[str, str | None, str | None, str | None]] | list[Seat], **options: Any) -> SetupError:
    seats = rows if rows and isinstance(rows[0], Seat) else roster(rows)  # type: ignore[arg-type]
    opts: dict[str, Any] = {"places": {"visenya": 3, "fossedragon": 4}, **options}
    with pytest.raises(SetupError) as err:
        RULESET.setup(seats, opts, FakeDice())  # type: ignore[arg-type]
    return err.value


def rows_with(**changes: tuple[str | None, str | None, str | None]) -> list[tuple[str, Any, Any, Any]]:
    """ROSTER with some lines changed: name=(role, location, sergent)."""
    return [(n, *changes[n]) if n in changes else (n, r, lo, sg) for n, r, lo, sg in ROSTER]


def test_S8_more_players_placed_at_visenya_than_its_places() -> None:
    """« Niveau 3 – Colline de Visenya – 5 joueurs de départ »: 15 players fixed there are refused."""
    seats = [Seat(f"V{i:02d}", "fidele", {"location": "visenya"}) for i in range(15)] + [Seat(f"J{i:02d}") for i in range(25)]
    with pytest.raises(SetupError) as err:
        RULESET.setup(seats, {}, Dice("00" * 8, "setup"))
    assert err.value.msg.fr == ("15 joueurs placés à la Colline de Visenya, qui n'a que 5 places : retirez "
                                "location = \"visenya\" à 10 d'entre eux dans la liste des joueurs, ou portez "
                                "l'option places.visenya à 15")
    assert "raise the option places.visenya to 15" in err.value.msg.en


def test_S8b_fossedragon_too_and_one_player_too_many() -> None:
    rows = rows_with(Lancel=("fidele", "fossedragon", None))  # 5 at FosseDragon for 4 places
    err = setup_error(rows)
    assert err.msg.fr.startswith("5 joueurs placés à FosseDragon, qui n'a que 4 places : retirez location = \"fossedragon\" à l'un d'entre eux")


def test_S8c_nine_hommes_de_main_on_one_sergent() -> None:
    """« Un sergent ne peut avoir au plus qu'un seul Homme de Main de plus que les autres sergents. »"""
    seats = [Seat("Robb", "stark_chef"), Seat("Jon", "stark_sergent"), Seat("Bran", "stark_sergent"), Seat("Rickon", "stark_sergent")]
    seats += [Seat(f"H{i}", "stark_hm", {"sergent": "Jon"}) for i in range(9)]
    seats += [Seat(f"J{i:02d}") for i in range(27)]
    with pytest.raises(SetupError) as err:
        RULESET.setup(seats, {}, Dice("00" * 8, "setup"))
    assert err.value.msg.fr == ("Stark : Jon a 9 Hommes de Main et Bran n'en a aucun ; un sergent a au plus un Homme de "
                                "Main de plus que les autres : donnez un autre sergent (sergent = …) à 6 des Hommes de "
                                "Main de Jon, ou retirez leur sergent pour qu'il soit tiré au sort")
    assert err.value.msg.en.startswith("Stark: Jon has 9 Hommes de Main and Bran has none;")


def test_S8d_hommes_de_main_spread_by_the_draw_around_the_fixed_ones_are_accepted() -> None:
    seats = [Seat("Robb", "stark_chef"), Seat("Jon", "stark_sergent"), Seat("Bran", "stark_sergent"), Seat("Rickon", "stark_sergent")]
    seats += [Seat(f"H{i}", "stark_hm", {"sergent": "Jon"}) for i in range(3)] + [Seat(f"K{i}", "stark_hm") for i in range(6)]
    seats += [Seat(f"J{i:02d}") for i in range(27)]
    st, _ = RULESET.setup(seats, {}, Dice("00" * 8, "setup"))
    loads = sorted(sum(1 for p in st.players.values() if p.sergent == s and p.team == "stark") for s in ("Jon", "Bran", "Rickon"))
    assert loads == [3, 3, 3]


@pytest.mark.parametrize(("change", "expected"), [
    ({"Varys": ("chuchoteurs", "visenya", None)}, "Varys (chuchoteurs) habite le Donjon Rouge : retirez location = \"visenya\""),
    ({"Lancel": ("fidele", "donjon", None)}, "Lancel : emplacement « donjon » inconnu (visenya, fossedragon ou culpucier)"),
    ({"Lancel": (None, "visenya", None)}, "Lancel : un emplacement est fixé mais pas le rôle ; fixez aussi son rôle"),
    ({"Arya": ("stark_hm", "culpucier", "Loras")}, "Arya : son sergent « Loras » doit être un joueur de la liste au rôle fixé stark_sergent"),
    ({"Arya": ("stark_hm", "culpucier", "Robb")}, "Arya : son sergent « Robb » doit être un joueur de la liste au rôle fixé stark_sergent"),
    ({"Jon": ("stark_sergent", "fossedragon", "Bran")}, "Jon : un sergent n'est donné qu'à un Homme de Main au rôle fixé"),
    ({"Tywin": ("roi", None, None)}, "Tywin : rôle inconnu « roi » (rôles possibles : garde, lord_commandant"),
    ({"Jaime": ("lord_commandant", None, None)}, "un seul Lord Commandant, pas 2 (Tywin et Jaime) : donnez aux autres le rôle garde"),
    ({"Petyr": ("chuchoteurs", None, None)}, "le rôle chuchoteurs est unique, il est fixé pour Varys et Petyr : gardez-le à un seul joueur"),
])
def test_S8e_each_impossible_line_is_refused_saying_what_to_change(change: dict[str, Any], expected: str) -> None:
    err = setup_error(rows_with(**change))
    assert err.msg.fr.startswith(expected), err.msg.fr
    assert err.msg.en and err.msg.en != err.msg.fr


def test_S8f_unknown_key_eight_gardes_and_hommes_de_main_without_sergent() -> None:
    seats = roster()
    seats[7] = Seat("Lancel", "fidele", {"lieu": "visenya"})
    assert setup_error(seats).msg.fr.startswith("Lancel : clé inconnue « lieu » dans la liste des joueurs")
    rows = rows_with(**{n: ("garde", None, None) for n in ("Lancel", "Kevan", "Varys", "Petyr")})
    assert setup_error(rows).msg.fr.startswith("8 Gardes Royaux fixés dans la liste des joueurs, la Garde en compte 7 au plus")
    rows = rows_with(Jon=("stark_hm", "fossedragon", None), Bran=("stark_hm", "culpucier", None),
                     Arya=("stark_hm", "culpucier", None), Sansa=("stark_hm", "fossedragon", None),
                     Rickon=("stark_hm", "culpucier", None), **{"ser Schlingue": ("stark_hm", "culpucier", None)})
    assert setup_error(rows).msg.fr == "Stark : 6 Hommes de Main mais aucun sergent ; fixez le rôle stark_sergent d'au moins un joueur"


def test_S8g_two_players_with_one_name() -> None:
    err = setup_error(roster() + [Seat("Robb")])
    assert err.msg.fr == "deux joueurs s'appellent Robb : renommez l'un d'eux"


# ---------------------------------------------------------------- option prison_turns


def _arrest(target: str) -> dict[str, list[str]]:
    return {"Tywin": [f"ARRESTATION {target}"], "Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"], "Boros": ["ARRESTATION"]}


def _confessed(**options: Any) -> State:
    """Loras arrested at turn 1, in the cells at turn 2 (confession at its end): turn 3 is the verdict's."""
    st, _ = play(new_game(**options), _arrest("Loras"))
    st, _ = play(st, {})
    assert st.prisoners[0].awaiting_verdict
    return st


def test_L6i_prison_one_turn_released_prisoner_plays_the_turn_of_his_verdict() -> None:
    """« Ce joueur sera pendant le tour suivant dans les cachots » (default prison_turns = 1)."""
    st = _confessed()
    assert "Loras" in [p.player for p in RULESET.prompts(st)]
    assert RULESET.view(st, "Loras")["awaiting_verdict"] is True
    lines = {"Tywin": ["VERDICT Loras LIBERE"], "Loras": ["ESCOUADE Arya"], "Olenna": ["ESCOUADE Arya"]}
    st2, ev = play(st, lines)
    assert not st2.players["Arya"].alive  # his squad of this turn went
    assert to(ev, "Loras", "squad_killed")[0]["target"] == "Arya"
    # executed instead: his orders of the turn count for nothing
    st3, ev3 = play(st, {**lines, "Tywin": ["VERDICT Loras MORT"]})
    assert not st3.players["Loras"].alive and st3.players["Arya"].alive
    # and a squad may go for him in that turn
    assert RULESET.parse_order(st, "Arya", "ESCOUADE Loras", []).args == ("Loras",)
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Tywin", "ARRESTATION Loras", [])


def test_L6j_option_prison_two_turns_released_prisoner_back_the_turn_after() -> None:
    st = _confessed(prison_turns=2)
    assert "Loras" not in [p.player for p in RULESET.prompts(st)]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ESCOUADE Loras", [])
    st2, _ = play(st, {"Tywin": ["VERDICT Loras LIBERE"]})
    assert st2.players["Loras"].location != "cachots" and "Loras" in [p.player for p in RULESET.prompts(st2)]


# ---------------------------------------------------------------- option lord_commandant_counts


def test_L7_lord_commandant_designation_is_not_participation_by_default() -> None:
    lines = {"Tywin": ["ARRESTATION Loras"], "Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"]}
    st, ev = play(new_game(), lines)
    assert st.players["Loras"].location != "cachots"
    assert to(ev, "Jaime", "mission_report")[0]["count"] == 2
    st, _ = play(new_game(), {**lines, "Tywin": ["ARRESTATION Loras", "ARRESTATION"]})
    assert st.players["Loras"].location == "cachots"


def test_L7b_option_lord_commandant_counts_his_designation_makes_him_take_part() -> None:
    lines = {"Tywin": ["ARRESTATION Loras"], "Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"]}
    st, ev = play(new_game(lord_commandant_counts=True), lines)
    assert st.players["Loras"].location == "cachots"
    assert to(ev, "Jaime", "mission_report")[0]["count"] == 3


def test_L7c_option_lord_commandant_counts_in_one_mission_only() -> None:
    """« un Garde Royal pourra participer à une arrestation ou à une protection mais pas aux deux »: he counts in
    the first he designated, or in the one of his bare word."""
    both = {"Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"], "Boros": ["PROTECTION"]}
    st, ev = play(new_game(lord_commandant_counts=True), {**both, "Tywin": ["ARRESTATION Loras", "PROTECTION Varys"]})
    reports = {r["mission"]: r["count"] for r in to(ev, "Jaime", "mission_report")}
    assert reports == {"arrestation": 3, "protection": 1}
    st, ev = play(new_game(lord_commandant_counts=True), {**both, "Tywin": ["ARRESTATION Loras", "PROTECTION Varys", "PROTECTION"]})
    reports = {r["mission"]: r["count"] for r in to(ev, "Jaime", "mission_report")}
    assert reports == {"arrestation": 2, "protection": 2}


# ---------------------------------------------------------------- option fidele_squads


def test_L8b_fideles_attack_only_the_target_the_lord_commandant_named() -> None:
    """« peuvent assassiner un joueur par tour s'ils ont des fidèles » ; « le Lord Commandant peut désigner une cible
    à assassiner par tour, et les fidèles doivent alors constituer une escouade »."""
    st = new_game()
    with pytest.raises(OrderNotAllowedError) as err:
        RULESET.parse_order(st, "Lancel", "ESCOUADE Garlan", [])
    assert "aucune cible" in err.value.msg.fr
    st, _ = play(st, {"Tywin": ["CIBLE Garlan"]})
    assert RULESET.view(st, "Lancel")["fidele_targets"] == ["Garlan"]
    assert RULESET.view(st, "Arya")["fidele_targets"] == []
    with pytest.raises(OrderNotAllowedError) as err:
        RULESET.parse_order(st, "Lancel", "ESCOUADE Robb", [])
    assert err.value.msg.fr == "les fidèles n'attaquent que la cible désignée par le Lord Commandant : ESCOUADE Garlan"
    assert RULESET.parse_order(st, "Lancel", "ESCOUADE Garlan", []).args == ("Garlan",)


def test_L8c_option_fidele_squads_libre_anywhere_several_squads() -> None:
    st = new_game(fidele_squads="libre")
    lancel_kevan = {"Lancel": ["ESCOUADE Garlan"], "Kevan": ["ESCOUADE Garlan"]}
    st2, _ = play(st, lancel_kevan)
    assert not st2.players["Garlan"].alive


def test_L8d_the_lord_commandant_killed_in_the_turn_still_named_the_target() -> None:
    """Orders are simultaneous (docs §4): his CIBLE of the turn he dies in reaches the fidèles."""
    dice = FakeDice().force("Garde Royal dies", True)
    lines = {"Tywin": ["CIBLE Garlan"], "Robb": ["ESCOUADE Tywin"], "Jon": ["ESCOUADE Tywin"], "Sansa": ["ESCOUADE Tywin"]}
    st, ev = play(new_game(), lines, dice)
    assert not st.players["Tywin"].alive
    assert to(ev, "Lancel", "fidele_order") == [{"target": "Garlan"}]


def test_L8e_new_fideles_of_the_turn_hear_the_order() -> None:
    """The CIBLE is told after the defeats: a rebel who became a fidèle this turn hears it."""
    lines = {"Tywin": ["CIBLE Garlan"], "Margaery": ["ESCOUADE Robb"], "Olenna": ["ESCOUADE Robb"]}  # 14 > 7
    dice = FakeDice().force("stark survivors split 75/25", ["Jon", "Bran", "Sansa", "Rickon", "ser Schlingue", "Arya"])
    st, ev = play(new_game(), lines, dice)
    assert st.players["Arya"].code == "fidele"  # (3·6+2)//4 = 5 to the Tyrell, the last to the Lannister
    assert to(ev, "Arya", "fidele_order") == [{"target": "Garlan"}]


# ---------------------------------------------------------------- option squad_order


LINES = {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"], "Olenna": ["ESCOUADE Jon"], "Willas": ["ESCOUADE Jon"],
         "Robb": ["ESCOUADE Loras"], "Bran": ["ESCOUADE Loras"]}


def test_C13_squads_on_different_targets_go_in_one_seeded_recorded_order() -> None:
    dice = Dice("ab" * 8, "step-1")
    st, ev = RULESET.resolve(new_game(), _orders(new_game(), LINES), dice)
    assert sum(1 for r in dice.rolls if r.purpose == "order of the squads") == 2  # three squads: two swaps
    order = [e.data for e in ev if e.kind == "squad_order"]
    assert len(order) == 1 and sorted(s["target"] for s in order[0]["squads"]) == ["Garlan", "Jon", "Loras"]
    assert all(e.audience.kind == "mj" for e in ev if e.kind == "squad_order")


def test_C13b_the_order_does_not_depend_on_the_names() -> None:
    """Same roster order, same seed, names changed so that their alphabetical order is reversed: the squads go
    in the same order (the draw is made on a list in roster order, by a purpose naming nobody)."""
    rename = {n: f"{chr(ord('Z') - i)}-{n}" for i, (n, *_) in enumerate(ROSTER)}
    rows = [(rename[n], r, lo, rename[sg] if sg else None) for n, r, lo, sg in ROSTER]
    lines = {rename[n]: [f"ESCOUADE {rename[o.split()[1]]}"] for n, (o,) in LINES.items()}
    seen = []
    for st, ls in ((new_game(), LINES), (new_game(rows), lines)):
        _, ev = RULESET.resolve(st, _orders(st, ls), Dice("cd" * 8, "step-1"))
        seen.append([s["target"] for e in ev if e.kind == "squad_order" for s in e.data["squads"]])
    assert seen[1] == [rename[t] for t in seen[0]]


def test_C13c_option_squad_order_alphabetique_by_target_name() -> None:
    st = new_game(squad_order="alphabetique")
    dice = FakeDice()
    _, ev = play(st, LINES, dice)
    assert [e.data["target"] for e in ev if e.kind == "squad_formed"] == ["Garlan", "Jon", "Loras"]
    assert dice.rolled("order of the squads") == 0 and not [e for e in ev if e.kind == "squad_order"]


def _orders(st: State, lines: dict[str, list[str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for prompt in RULESET.prompts(st):
        acc: list[Any] = []
        for line in lines.get(prompt.player, []):
            acc.append(RULESET.parse_order(st, prompt.player, line, acc))
        out[prompt.player] = acc
    return out


def test_C13d_forced_order_changes_who_finds_the_target_dead() -> None:
    """Several squads on one target: « traitées avec un ordre de passage tiré au sort »."""
    lines = {"Arya": ["ESCOUADE Kevan"], "Sansa": ["ESCOUADE Kevan"], "Olenna": ["ESCOUADE Kevan"], "Willas": ["ESCOUADE Kevan"]}
    stark, tyrell = Squad("Kevan", "stark", ["Arya", "Sansa"]), Squad("Kevan", "tyrell", ["Olenna", "Willas"])
    _, ev = play(new_game(), lines, FakeDice().force("order of the squads", [stark, tyrell]))
    assert to(ev, "Arya", "squad_killed") and to(ev, "Olenna", "squad_target_gone") == [{"target": "Kevan", "reason": "dead"}]
    assert public(ev, "death") == [{"player": "Kevan"}]
