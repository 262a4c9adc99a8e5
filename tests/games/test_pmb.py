"""Pour Ma Belle: numbered rule cases, one test per sentence of the rules (after the Diplomacy DATC).

S  set-up                      C  squads and their four outcomes      P  Port-Réal redistribution
O  orders                      L  Lannister powers                    R  rebel powers
D  defeats, conversions, victory

Every expectation comes from the rule text (/work/shared/rules/pour-ma-belle.txt) and the
rulings of docs/rules/pmb.md.  Dice are scripted with `FakeDice` (defaults: every chance
fails, every choice takes the first item, shuffles keep the order).
"""

from __future__ import annotations

from collections import Counter

import pytest

from pbem.core import (
    MJ,
    PUBLIC,
    OrderAmbiguousError,
    OrderNotAllowedError,
    OrderSyntaxError,
    Seat,
    SetupError,
)
from pbem.dice import Dice
from pbem.games import get
from pbem.games.pmb import RULESET
from pbem.games.pmb import roles as R
from pbem.games.pmb.state import Betrayal, State
from pbem.render import Renderer

from .test_pmb_helpers import FakeDice, new_game, play, public, to


def test_registered_as_pmb() -> None:
    assert get("pmb") is RULESET
    assert get("pour-ma-belle") is RULESET
    assert RULESET.step_title(new_game()).fr == "Tour 1"


# ---------------------------------------------------------------- S: set-up


def _auto(n: int, seed: str = "ab") -> State:
    st, _ = RULESET.setup([Seat(f"J{i:02d}") for i in range(n)], {}, Dice(seed * 8, "setup"))
    return st


@pytest.mark.parametrize("seed", ["01", "02", "03", "04", "05", "06", "07", "08"])
def test_S1_forty_players_roles_drawn_at_random(seed: str) -> None:
    """Lannister 7 Gardes (one Lord Commandant) + 3 Conseil; each clan a chef, 3 sergents and 8-11 HM; the rest fidèles."""
    st = _auto(40, seed)
    codes = Counter(p.code for p in st.players.values())
    assert codes["lord_commandant"] == 1 and codes["garde"] == 6
    assert codes["chuchoteurs"] == codes["argentier"] == codes["mestre"] == 1
    for team in ("stark", "tyrell"):
        assert codes[f"{team}_chef"] == 1 and codes[f"{team}_sergent"] == 3
        assert 8 <= codes[f"{team}_hm"] <= 11
        load = Counter(p.sergent for p in st.players.values() if p.code == f"{team}_hm")
        assert len(load) == 3 and max(load.values()) - min(load.values()) <= 1
    assert codes["fidele"] == 40 - 10 - sum(codes[f"{t}_{r}"] for t in ("stark", "tyrell") for r in ("chef", "sergent", "hm"))


def test_S1b_hm_counts_cover_8_to_11() -> None:
    seen = {sum(1 for p in _auto(40, f"{i:02x}").players.values() if p.code == "stark_hm") for i in range(40)}
    assert seen == {8, 9, 10, 11}


def test_S2_donjon_rouge_names_public_roles_private() -> None:
    st, events = RULESET.setup([Seat(f"J{i:02d}") for i in range(40)], {}, Dice("cd" * 8, "setup"))
    started = public(events, "game_started")
    assert len(started) == 1 and sorted(started[0]["donjon"]) == sorted(n for n, p in st.players.items() if p.location == "donjon")
    assert len(started[0]["donjon"]) == 10
    for e in events:
        if e.audience.kind == "public":
            assert "role" not in str(e.data)
    assert RULESET.view(st, PUBLIC)["donjon"] == started[0]["donjon"]
    assert "roles" not in RULESET.view(st, PUBLIC)


def test_S3_initial_knowledge() -> None:
    """An HM knows only his sergent; a sergent his chef and his HMs; a chef all his organisation; the Donjon the nine others."""
    st, events = RULESET.setup([Seat(f"J{i:02d}") for i in range(40)], {}, Dice("ef" * 8, "setup"))
    for name, p in st.players.items():
        known = {f.split("|")[0] for f in p.knowledge if f.split("|")[1] == "role"} - {name}
        mine = to(events, name, "your_role")
        assert len(mine) == 1 and mine[0]["role"] == p.code
        assert {f["player"] for f in mine[0]["known"]} == known
        if p.rank == "hm":
            assert known == {p.sergent}
        elif p.rank == "sergent":
            chef = st.chef(p.team)
            assert chef is not None
            assert known == {chef.name} | {q.name for q in st.players.values() if q.sergent == name}
        elif p.rank == "chef":
            assert known == {q.name for q in st.players.values() if q.team == p.team} - {name}
        elif p.rank == "fidele":
            assert known == set()
        else:
            assert known == set(st.donjon) - {name} and len(known) == 9
            for other in known:
                assert f"{other}|role|{st.players[other].code}" in p.knowledge


def test_S4_starting_places_5_10_rest() -> None:
    st = _auto(40, "aa")
    city = [p for p in st.players.values() if p.location != "donjon"]
    places = Counter(p.location for p in city)
    assert places["visenya"] == 5 and places["fossedragon"] == 10 and places["culpucier"] == len(city) - 15
    assert all(p.location == "donjon" for p in st.players.values() if p.rank in R.DONJON_RANKS)


def test_S5_roles_fixed_by_the_roster() -> None:
    st = new_game()
    assert st.players["Tywin"].code == "lord_commandant"
    assert st.players["ser Schlingue"].sergent == "Bran"
    assert st.players["Robb"].location == "visenya"
    # mixed: a few fixed, the rest drawn
    seats = [Seat("A", "stark_chef"), Seat("B", "mestre")] + [Seat(f"J{i:02d}") for i in range(38)]
    st2, _ = RULESET.setup(seats, {}, Dice("11" * 8, "setup"))
    assert st2.players["A"].code == "stark_chef" and st2.players["B"].code == "mestre"
    codes = Counter(p.code for p in st2.players.values())
    assert codes["stark_chef"] == 1 and codes["mestre"] == 1 and codes["lord_commandant"] == 1


def test_S6_role_counts_scale_option() -> None:
    st = _auto(20)
    codes = Counter(p.code for p in st.players.values())
    assert codes["lord_commandant"] == 1 and codes["stark_chef"] == codes["tyrell_chef"] == 1
    assert sum(codes.values()) == 20
    st400 = _auto(400)
    assert sum(1 for p in st400.players.values() if p.rank in R.GARDES) == 7  # the Donjon Rouge stays at 10
    assert sum(1 for p in st400.players.values() if p.code == "stark_sergent") == 30
    assert st400.capacity == {"visenya": 50, "fossedragon": 100}
    st2, _ = RULESET.setup([Seat(f"J{i:02d}") for i in range(40)], {"roles": {"gardes": 5, "hm_min": 8, "hm_max": 8}},
                           Dice("22" * 8, "setup"))
    codes = Counter(p.code for p in st2.players.values())
    assert codes["garde"] + codes["lord_commandant"] == 5 and codes["stark_hm"] == 8 and codes["fidele"] == 40 - 8 - 24


def test_S7_setup_errors() -> None:
    with pytest.raises(SetupError):
        RULESET.setup([Seat(f"J{i}") for i in range(5)], {}, Dice("00" * 8, "setup"))
    with pytest.raises(SetupError):
        RULESET.setup([Seat("A", "roi")] + [Seat(f"J{i}") for i in range(39)], {}, Dice("00" * 8, "setup"))
    with pytest.raises(SetupError):
        RULESET.setup([Seat(f"J{i}") for i in range(40)], {"inconnue": 1}, Dice("00" * 8, "setup"))


# ---------------------------------------------------------------- O: orders


def test_O1_one_squad_per_player_per_turn() -> None:
    st = new_game()
    first = RULESET.parse_order(st, "Arya", "ESCOUADE Margaery", [])
    assert first.verb == "ESCOUADE" and first.args == ("Margaery",)
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ESCOUADE Loras", [first])


def test_O2_multi_word_names_and_did_you_mean() -> None:
    st = new_game()
    assert RULESET.parse_order(st, "Garlan", "escouade SER SCHLINGUE", []).args == ("ser Schlingue",)
    with pytest.raises(OrderAmbiguousError):
        RULESET.parse_order(st, "Garlan", "ESCOUADE Margeary", [])
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(st, "Garlan", "DANSER", [])


def test_O3_orders_checked_against_role() -> None:
    st = new_game()
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ENQUETE Robb", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Varys", "ESCOUADE Robb", [])  # only rebels and fidèles join squads
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Jaime", "ARRESTATION Robb", [])  # only the Lord Commandant designates
    assert RULESET.parse_order(st, "Jaime", "ARRESTATION", []).args == ()
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Tywin", "ARRESTATION Jaime", [])  # the Donjon Rouge is not Port-Réal
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "TRAHIR", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, MJ, "ESCOUADE Robb", [])


def test_O4_english_aliases() -> None:
    st = new_game()
    assert RULESET.parse_order(st, "Arya", "squad Margaery", []).verb == "ESCOUADE"
    assert RULESET.parse_order(st, "Varys", "investigate Robb", []).verb == "ENQUETE"
    assert RULESET.parse_order(st, "Robb", "discover Loras", []).verb == "DECOUVRIR"
    assert RULESET.parse_order(st, "Tywin", "arrest Robb", []).verb == "ARRESTATION"


def test_O5_help_lists_exactly_the_allowed_orders() -> None:
    st = new_game()
    syntax = lambda n: [h.syntax.split()[0] for h in RULESET.help(st, n)]  # noqa: E731
    assert syntax("Arya") == ["ESCOUADE"]
    assert syntax("Lancel") == []  # a fidèle attacks only the target the Lord Commandant named (none yet)
    assert [h.syntax.split()[0] for h in RULESET.help(new_game(fidele_squads="libre"), "Lancel")] == ["ESCOUADE"]
    assert syntax("Varys") == ["ENQUETE"]
    assert syntax("Petyr") == ["TEMOINS"]
    assert syntax("Pycelle") == []  # nobody in the infirmary yet
    assert syntax("Jaime") == ["PROTECTION", "ARRESTATION"]
    assert syntax("Tywin") == ["PROTECTION", "ARRESTATION", "CIBLE"]
    assert syntax("Robb") == ["ESCOUADE", "DECOUVRIR", "GARDE"]


def test_O6_prompts_every_living_free_player() -> None:
    st = new_game()
    # the Grand Mestre has nobody in the infirmary at the start, and the fidèles have no target from the
    # Lord Commandant yet (fidele_squads = "cible", the merged default): nothing to decide, not asked
    fideles = [n for n in st.order if st.players[n].rank == "fidele"]
    assert fideles == ["Lancel", "Kevan"]
    assert [p.player for p in RULESET.prompts(st)] == [n for n in st.order if n not in ("Pycelle", *fideles)]
    st.players["Arya"].alive = False
    st.players["Bran"].location = "cachots"
    st.players["Varys"].hidden = True
    prompts = {p.player: p for p in RULESET.prompts(st)}
    assert "Arya" not in prompts and "Bran" not in prompts
    assert prompts["Varys"].required is False
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ESCOUADE Robb", [])
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Varys", "ENQUETE Robb", [])
    assert RULESET.parse_order(st, "Varys", "SORTIR", []).verb == "SORTIR"


def test_O6b_only_players_with_an_order_to_give_are_asked() -> None:
    """Who must decide: a player with no order possible this turn is not asked (and never waited for)."""
    st = new_game()
    assert "Pycelle" not in {p.player for p in RULESET.prompts(st)}
    st.infirmary = ["Arya"]  # someone came through the infirmary: the Mestre may give a potion
    assert "Pycelle" in {p.player for p in RULESET.prompts(st)}
    st = new_game()
    st.betrayals.append(Betrayal("Jon", "Robb", "stark", st.turn - 1))  # Jon betrayed last turn
    assert "Jon" not in {p.player for p in RULESET.prompts(st)}  # his squad goes by itself
    st = new_game()
    assert "Lancel" not in {p.player for p in RULESET.prompts(st)}  # no CIBLE yet: nothing to attack
    st.fidele_target = "Robb"  # the Lord Commandant named a target last turn: the fidèles may go for him
    assert {"Lancel", "Kevan"} <= {p.player for p in RULESET.prompts(st)}


# ---------------------------------------------------------------- C: squads


def test_C0_squad_members_learn_names_not_roles() -> None:
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Loras"], "Rickon": ["ESCOUADE Loras"]})  # fails: no revelation
    formed = to(ev, "Arya", "squad_formed")
    assert formed == [{"target": "Loras", "members": ["Arya", "Rickon"], "teams": []}]
    assert to(ev, "Rickon", "squad_formed") == formed
    assert not any(f.startswith("Rickon|") for f in st.players["Arya"].knowledge)


def test_C0b_a_squad_is_at_least_two_players_lone_attacker_not_correct() -> None:
    st, ev = play(new_game(), {"Olenna": ["ESCOUADE Arya"]})  # 7 influence against 1, but alone
    assert st.players["Arya"].alive
    assert to(ev, "Arya", "target_learned") == [{"facts": [{"player": "Olenna", "role": "tyrell_hm"}]}]


def test_C0c_influence_must_exceed_the_target_by_at_least_one() -> None:
    three = {"Arya": ["ESCOUADE Loras"], "Rickon": ["ESCOUADE Loras"], "ser Schlingue": ["ESCOUADE Loras"]}
    st, _ = play(new_game(), three)  # 3 against 3
    assert st.players["Loras"].alive
    st, _ = play(new_game(), {**three, "Bran": ["ESCOUADE Loras"]})  # 4 against 3
    assert not st.players["Loras"].alive


def test_C0d_order_against_own_camp_is_no_squad_and_target_told_of_the_attempt() -> None:
    """« Les ordres d'assassinats contre un joueur de son propre camp ne seront pas pris en compte comme
    escouade, et la cible sera informée de la tentative. »  Default: of the attempt only, not how many attacked
    (option own_camp_attempt); the text does not change with the count."""
    lines = {"Rickon": ["ESCOUADE Jon"], "ser Schlingue": ["ESCOUADE Jon"], "Lancel": ["ESCOUADE Kevan"]}
    st, ev = play(new_game(fidele_squads="libre"), lines)
    assert st.players["Jon"].alive and st.players["Kevan"].alive
    assert to(ev, "Jon", "own_camp_attempt") == [{"attackers": []}]
    assert to(ev, "Kevan", "own_camp_attempt") == [{"attackers": []}]
    texts = [Renderer("pmb", lang).event_text(e) for e in ev if e.kind == "own_camp_attempt" for lang in ("fr", "en")]
    assert texts == ["Une tentative d'assassinat contre vous est venue de votre propre camp. La tentative n'a pas eu lieu.",
                     "An attempt on your life came from your own camp. The attempt did not take place."] * 2
    assert to(ev, "Rickon", "squad_formed") == [] and to(ev, "Rickon") == []  # the attacker is not told
    assert "Rickon|team|stark" not in st.players["Jon"].knowledge and "Lancel" not in st.players["Kevan"].latest


def test_C0f_au_depart_personne_ne_connait_leur_nombre_the_attempt_tells_no_count_by_default() -> None:
    """« Au départ du jeu, personne et même pas les Lannister du Donjon Rouge ne connaissent leur nombre et leurs
    identités » (the fidèles): a fidèle told « 3 of your camp attacked you » would learn there are at least 3
    fidèles.  By default the attempt carries no count; option own_camp_attempt = "nombre" tells it."""
    lines = {"Lancel": ["ESCOUADE Kevan"], "Rickon": ["ESCOUADE Jon"], "ser Schlingue": ["ESCOUADE Jon"]}
    _, ev = play(new_game(fidele_squads="libre"), lines)
    assert [e.data for e in ev if e.kind == "own_camp_attempt"] == [{"attackers": []}, {"attackers": []}]
    _, ev = play(new_game(fidele_squads="libre", own_camp_attempt="nombre"), lines)
    told = {e.audience.players: e for e in ev if e.kind == "own_camp_attempt"}
    assert told[("Kevan",)].data == {"attackers": [], "count": 1} and told[("Jon",)].data == {"attackers": [], "count": 2}
    assert Renderer("pmb", "fr").event_text(told[("Kevan",)]).startswith("Un joueur de votre propre camp a tenté de")
    assert Renderer("pmb", "fr").event_text(told[("Jon",)]).startswith("2 joueurs de votre propre camp ont tenté de")


def test_C0e_option_own_camp_attempt_names_the_attackers() -> None:
    lines = {"Rickon": ["ESCOUADE Jon"], "ser Schlingue": ["ESCOUADE Jon"], "Lancel": ["ESCOUADE Kevan"]}
    st, ev = play(new_game(own_camp_attempt="noms", fidele_squads="libre"), lines)
    assert to(ev, "Jon", "own_camp_attempt") == [{"attackers": [{"player": "Rickon", "team": "stark"},
                                                               {"player": "ser Schlingue", "team": "stark"}], "count": 2}]
    assert to(ev, "Kevan", "own_camp_attempt") == [{"attackers": [{"player": "Lancel", "team": "lannister"}], "count": 1}]
    assert st.players["Jon"].latest["Rickon"] == "stark"


def test_C1_squad_kills_rebel_target_and_reveals_role() -> None:
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]})
    assert not st.players["Garlan"].alive
    killed = to(ev, "Arya", "squad_killed")
    assert killed == [{"target": "Garlan", "fact": {"player": "Garlan", "role": "tyrell_hm"}, "denounced": None}]
    assert to(ev, "Sansa", "squad_killed") == killed
    assert "Garlan|role|tyrell_hm" in st.players["Sansa"].knowledge
    assert "Garlan|team|tyrell" in st.players["Sansa"].knowledge


def test_C1b_fifteen_percent_the_dying_target_denounces_a_known_teammate() -> None:
    dice = FakeDice().force("denounces a teammate", True)
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]}, dice)
    assert dice.rolled("Garlan denounces a teammate (15%)") == 1
    killed = to(ev, "Arya", "squad_killed")[0]
    assert killed["denounced"] == {"player": "Loras", "role": "tyrell_sergent"}  # Garlan only knows his sergent
    assert "Loras|role|tyrell_sergent" in st.players["Arya"].knowledge


def test_C1d_the_dying_target_denounces_the_role_he_was_told_last() -> None:
    """« dénonce le rôle connu d'un co-équipier »: if he was told twice, the latest."""
    st = new_game()
    st.players["Garlan"].learn_role("Loras", "tyrell_hm")  # told (wrongly or not) after the start
    dice = FakeDice().force("denounces a teammate", True)
    _, ev = play(st, {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]}, dice)
    assert to(ev, "Arya", "squad_killed")[0]["denounced"] == {"player": "Loras", "role": "tyrell_hm"}


def test_C1d_the_squad_is_told_a_denunciation_is_what_the_victim_was_told_last() -> None:
    """« dénonce le rôle connu d'un co-équipier » : what he knew, which may be stale (Loras is a sergent, the
    victim was told Homme de Main); the players read it in the message itself, as in docs/rules/pmb.md §5."""
    st = new_game()
    st.players["Garlan"].learn_role("Loras", "tyrell_hm")
    dice = FakeDice().force("denounces a teammate", True)
    _, ev = play(st, {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]}, dice)
    (killed,) = [e for e in ev if e.kind == "squad_killed"]
    assert Renderer("pmb", "fr").event_text(killed) == (
        "Votre escouade a tué Garlan, qui était Homme de Main Tyrell. Avant de mourir, la victime dénonce Loras "
        "(Homme de Main Tyrell), d'après ce qu'on lui en avait dit en dernier\u00a0: cela a pu changer depuis.")
    assert "as the victim was last told: it may have changed since" in Renderer("pmb", "en").event_text(killed)


def test_C1c_fidele_target_case_1() -> None:
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Kevan"], "Sansa": ["ESCOUADE Kevan"]})
    assert not st.players["Kevan"].alive
    assert to(ev, "Arya", "squad_killed")[0]["fact"] == {"player": "Kevan", "role": "fidele"}


def test_C2_incorrect_squad_target_survives_and_learns_one_random_member() -> None:
    dice = FakeDice().force("member of the failed squad seen by Loras", "Rickon")
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Loras"], "Rickon": ["ESCOUADE Loras"]}, dice)
    assert st.players["Loras"].alive
    assert to(ev, "Loras", "target_learned") == [{"facts": [{"player": "Rickon", "role": "stark_hm"}]}]
    assert "Rickon|team|stark" in st.players["Loras"].knowledge
    assert to(ev, "Arya", "squad_failed") == [{"target": "Loras"}]
    assert public(ev, "survived") == [{"player": "Loras"}]


def test_C2b_survivor_goes_to_the_infirmary_and_the_mestre_is_told() -> None:
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Loras"]})
    assert st.infirmary == ["Loras"]
    assert to(ev, "Pycelle", "infirmary") == [{"patients": ["Loras"]}]


GARDE_SQUAD = {"Robb": ["ESCOUADE Jaime"], "Jon": ["ESCOUADE Jaime"], "Sansa": ["ESCOUADE Jaime"]}  # 7+3+3 = 13 > 12


def test_C3_garde_royal_60pct_dies_and_is_denounced_as_garde() -> None:
    dice = FakeDice().force("Garde Royal dies (60%)", True)
    st, ev = play(new_game(), GARDE_SQUAD, dice)
    assert not st.players["Jaime"].alive
    assert to(ev, "Jon", "squad_killed")[0]["fact"] == {"player": "Jaime", "role": "garde"}


def test_C3b_lord_commandant_is_denounced_with_his_title_the_role_he_had() -> None:
    """« d'être dénoncée comme Garde Royal » : the Lord Commandant is a Garde Royal, and his role (« Rôle : … LC,
    GR ») is told as it was when he died; option lord_commandant_revealed = false: as a Garde Royal only."""
    dice = FakeDice().force("Garde Royal dies (60%)", True)
    lines = {n: ["ESCOUADE Tywin"] for n in GARDE_SQUAD}
    st, ev = play(new_game(), lines, dice)
    assert to(ev, "Jon", "squad_killed")[0]["fact"] == {"player": "Tywin", "role": "lord_commandant"}
    assert st.players["Jon"].latest["Tywin"] == "lord_commandant"
    (killed,) = [e for e in ev if e.kind == "squad_killed"]
    assert "qui était Lord Commandant de la Garde Royale." in Renderer("pmb", "fr").event_text(killed)
    dice = FakeDice().force("Garde Royal dies (60%)", True)
    st, ev = play(new_game(lord_commandant_revealed=False), lines, dice)
    assert to(ev, "Jon", "squad_killed")[0]["fact"] == {"player": "Tywin", "role": "garde"}


def test_C3c_garde_royal_40pct_defends_and_kills_a_random_member_nothing_revealed() -> None:
    dice = FakeDice().force("Garde Royal dies", False).force("Garde Jaime kills a member", "Sansa")
    st, ev = play(new_game(), GARDE_SQUAD, dice)
    assert st.players["Jaime"].alive and not st.players["Sansa"].alive
    assert to(ev, "Robb", "squad_repelled") == [{"target": "Jaime", "killed": ["Sansa"]}]
    assert to(ev, "Jaime") == []  # nothing revealed to the Garde
    assert "Jaime|role|garde" not in st.players["Robb"].knowledge
    assert st.infirmary == []  # only rebels and fidèles go to the infirmary


def test_C3d_incorrect_squad_against_garde_loses_one_random_member() -> None:
    dice = FakeDice().force("Garde Jaime kills a member", "Jon")
    st, _ = play(new_game(), {"Robb": ["ESCOUADE Jaime"], "Jon": ["ESCOUADE Jaime"]}, dice)  # 10 < 13
    assert dice.rolled("(60%)") == 0
    assert st.players["Jaime"].alive and not st.players["Jon"].alive and st.players["Robb"].alive


CONSEIL_SQUAD = {"Robb": ["ESCOUADE Varys"], "Margaery": ["ESCOUADE Varys"], "Olenna": ["ESCOUADE Varys"]}  # 21 > 20


def test_C4_conseil_80pct_dies_denounced_with_exact_title() -> None:
    dice = FakeDice().force("Conseil member dies (80%)", True)
    st, ev = play(new_game(), CONSEIL_SQUAD, dice)
    assert not st.players["Varys"].alive
    for m in CONSEIL_SQUAD:
        assert to(ev, m, "squad_killed")[0]["fact"] == {"player": "Varys", "role": "chuchoteurs"}


def test_C4b_conseil_survives_and_learns_every_member() -> None:
    dice = FakeDice().force("Conseil member dies (80%)", False)
    st, ev = play(new_game(), CONSEIL_SQUAD, dice)
    assert st.players["Varys"].alive
    learned = to(ev, "Varys", "target_learned")[0]["facts"]
    assert learned == [{"player": "Robb", "role": "stark_chef"}, {"player": "Margaery", "role": "tyrell_chef"},
                       {"player": "Olenna", "role": "tyrell_hm"}]
    assert all(st.players[m].alive for m in CONSEIL_SQUAD)


def test_C4c_incorrect_squad_against_conseil_target_learns_every_member() -> None:
    st, ev = play(new_game(), {"Robb": ["ESCOUADE Petyr"], "Jon": ["ESCOUADE Petyr"]})
    assert st.players["Petyr"].alive
    assert [f["player"] for f in to(ev, "Petyr", "target_learned")[0]["facts"]] == ["Robb", "Jon"]


def test_C5_stark_and_tyrell_on_same_donjon_target_form_one_alliance_squad() -> None:
    dice = FakeDice().force("Conseil member dies (80%)", True)
    _, ev = play(new_game(), CONSEIL_SQUAD, dice)
    formed = to(ev, "Robb", "squad_formed")
    assert len(formed) == 1 and formed[0]["members"] == ["Robb", "Margaery", "Olenna"]
    # alliance squads also learn affiliations
    assert formed[0]["teams"] == [{"player": "Robb", "team": "stark"}, {"player": "Margaery", "team": "tyrell"},
                                  {"player": "Olenna", "team": "tyrell"}]


def test_C5b_alliance_of_four_two_per_clan_plus_five_succeeds_at_100pct() -> None:
    dice = FakeDice()
    lines = {n: ["ESCOUADE Jaime"] for n in ("Robb", "Jon", "Margaery", "Olenna")}  # 7+3+7+7 = 24 >= 12+5
    st, _ = play(new_game(), lines, dice)
    assert not st.players["Jaime"].alive
    assert dice.rolled("(60%)") == 0


def test_C5c_alliance_not_meeting_the_conditions_garde_kills_one_of_each_clan() -> None:
    dice = FakeDice().force("Garde Royal dies (60%)", False)
    lines = {n: ["ESCOUADE Jaime"] for n in ("Jon", "Sansa", "Loras", "Olenna")}  # 16: correct, but < 17
    st, ev = play(new_game(), lines, dice)
    assert dice.rolled("(60%)") == 1
    assert st.players["Jaime"].alive
    assert not st.players["Jon"].alive and not st.players["Loras"].alive
    assert st.players["Sansa"].alive and st.players["Olenna"].alive
    assert to(ev, "Sansa", "squad_repelled") == [{"target": "Jaime", "killed": ["Jon", "Loras"]}]


def test_C5d_alliance_only_against_donjon_other_targets_separate_squads() -> None:
    lines = {"Arya": ["ESCOUADE Kevan"], "Sansa": ["ESCOUADE Kevan"], "Garlan": ["ESCOUADE Kevan"], "Willas": ["ESCOUADE Kevan"]}
    dice = FakeDice()
    st, ev = play(new_game(), lines, dice)
    assert dice.rolled("order of the squads") >= 1
    assert [f["members"] for f in to(ev, "Arya", "squad_formed")] == [["Arya", "Sansa"]]
    assert [f["members"] for f in to(ev, "Garlan", "squad_formed")] == [["Garlan", "Willas"]]


def test_C6_several_squads_random_order_the_later_finds_the_target_dead() -> None:
    lines = {"Arya": ["ESCOUADE Kevan"], "Sansa": ["ESCOUADE Kevan"], "Olenna": ["ESCOUADE Kevan"], "Willas": ["ESCOUADE Kevan"]}
    st0 = new_game()
    # force the Tyrell squad first
    from pbem.games.pmb.squads import Squad

    dice = FakeDice().force("order of the squads", [Squad("Kevan", "tyrell", ["Olenna", "Willas"]),
                                                     Squad("Kevan", "stark", ["Arya", "Sansa"])])
    st, ev = play(st0, lines, dice)
    assert to(ev, "Olenna", "squad_killed")[0]["target"] == "Kevan"
    assert to(ev, "Arya", "squad_target_gone") == [{"target": "Kevan", "reason": "dead"}]
    assert to(ev, "Arya", "squad_killed") == []


@pytest.mark.parametrize("first", ["Garlan", "Sansa"])
def test_C7_a_target_also_in_a_squad_kills_before_being_killed(first: str) -> None:
    """« Si un joueur est la cible d'une escouade et doit rejoindre une autre escouade, alors on considère
    qu'il a tué avant d'être tué » — whichever squad goes first."""
    from pbem.games.pmb.squads import Squad

    lines = {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"], "Garlan": ["ESCOUADE Sansa"], "Olenna": ["ESCOUADE Sansa"]}
    on_garlan, on_sansa = Squad("Garlan", "stark", ["Arya", "Sansa"]), Squad("Sansa", "tyrell", ["Garlan", "Olenna"])
    order = [on_garlan, on_sansa] if first == "Garlan" else [on_sansa, on_garlan]
    st, ev = play(new_game(), lines, FakeDice().force("order of the squads", order))
    assert not st.players["Garlan"].alive and not st.players["Sansa"].alive
    assert to(ev, "Olenna", "squad_killed")[0]["target"] == "Sansa"
    assert to(ev, "Arya", "squad_killed")[0]["target"] == "Garlan"


def test_C8_when_the_target_dies_a_random_member_learns_another_members_role() -> None:
    dice = FakeDice().force("member who learns a role", "Sansa").force("role learned", "Arya")
    st, ev = play(new_game(), {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]}, dice)
    assert to(ev, "Sansa", "member_learned") == [{"fact": {"player": "Arya", "role": "stark_hm"}}]
    assert to(ev, "Arya", "member_learned") == []
    assert "Arya|role|stark_hm" in st.players["Sansa"].knowledge


def test_C8b_revelations_are_drawn_even_when_already_known() -> None:
    dice = FakeDice()
    st, ev = play(new_game(), {"Jon": ["ESCOUADE Garlan"], "Arya": ["ESCOUADE Garlan"]}, dice)  # Jon already knows Arya
    assert dice.rolled("member who learns a role") == 1
    assert to(ev, "Jon", "member_learned") == [{"fact": {"player": "Arya", "role": "stark_hm"}}]


def test_C9_public_report_names_dead_and_survivors_never_roles() -> None:
    lines = {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"], "Rickon": ["ESCOUADE Loras"]}
    st, ev = play(new_game(), lines)
    assert public(ev, "death") == [{"player": "Garlan"}]
    assert public(ev, "survived") == [{"player": "Loras"}]
    for e in ev:
        if e.audience.kind == "public":
            assert not any(k in e.data for k in ("role", "team", "fact", "facts"))


def test_C10_dead_sergent_replaced_by_the_chef_among_his_hommes_de_main() -> None:
    st, ev = play(new_game(), {"Olenna": ["ESCOUADE Bran"], "Garlan": ["ESCOUADE Bran"]})
    assert not st.players["Bran"].alive
    assert to(ev, "Robb", "vacancy") == [{"dead": "Bran", "anyone": False, "candidates": [
        {"player": "Rickon", "role": "stark_hm"}, {"player": "ser Schlingue", "role": "stark_hm"}]}]
    assert to(ev, "Rickon", "sergent_died") == [{"sergent": "Bran"}]
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Robb", "NOMMER Arya SERGENT", [])  # Arya is Jon's
    st, ev = play(st, {"Robb": ["NOMMER ser Schlingue SERGENT"]})
    assert st.players["ser Schlingue"].code == "stark_sergent"
    assert st.players["Rickon"].sergent == "ser Schlingue"
    assert to(ev, "Rickon", "sergent_named") == [{"sergent": {"player": "ser Schlingue", "role": "stark_sergent"}, "dead": "Bran"}]
    mine = to(ev, "ser Schlingue", "you_are_sergent")[0]
    assert mine["chef"] == {"player": "Robb", "role": "stark_chef"}
    assert mine["hommes"] == [{"player": "Rickon", "role": "stark_hm"}]


def test_C10b_silent_chef_new_sergent_drawn_at_random() -> None:
    st, _ = play(new_game(), {"Olenna": ["ESCOUADE Bran"], "Garlan": ["ESCOUADE Bran"]})
    dice = FakeDice().force("stark new sergent", "Rickon")
    st, _ = play(st, {}, dice)
    assert st.players["Rickon"].rank == "sergent" and st.players["ser Schlingue"].sergent == "Rickon"


def test_C11_lord_commandant_death_passes_the_title_to_a_random_garde() -> None:
    dice = FakeDice().force("Garde Royal dies (60%)", True).force("new Lord Commandant", "Arys")
    st, ev = play(new_game(), {n: ["ESCOUADE Tywin"] for n in GARDE_SQUAD}, dice)
    assert st.players["Arys"].code == "lord_commandant"
    assert to(ev, "Varys", "new_lord_commandant") == [{"lord": {"player": "Arys", "role": "lord_commandant"}}]
    assert to(ev, "Robb", "new_lord_commandant") == []


def test_C12_squad_on_a_prisoner_or_dead_does_nothing() -> None:
    st = new_game()
    with pytest.raises(OrderNotAllowedError):
        st2 = new_game()
        st2.players["Garlan"].alive = False
        RULESET.parse_order(st2, "Arya", "ESCOUADE Garlan", [])
    st.players["Garlan"].location = "cachots"
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(st, "Arya", "ESCOUADE Garlan", [])
    # even if such orders reached the resolution, the squad finds nobody
    from pbem.core import Order

    orders: dict[str, list[Order]] = {n: [] for n in st.order if n != "Garlan"}
    orders["Arya"] = [Order("ESCOUADE", ("Garlan",))]
    orders["Sansa"] = [Order("ESCOUADE", ("Garlan",))]
    st2, ev = RULESET.resolve(st, orders, FakeDice())  # type: ignore[arg-type]
    assert st2.players["Garlan"].alive
    assert to(ev, "Arya", "squad_target_gone") == [{"target": "Garlan", "reason": "unreachable"}]


# ---------------------------------------------------------------- P: Port-Réal


def test_P1_visenya_filled_first_at_random_from_fossedragon_then_fossedragon_from_culpucier() -> None:
    dice = (FakeDice().force("Garde Royal", False).force("Visenya fill from FosseDragon", ["Sansa"])
            .force("FosseDragon fill from Culpucier", ["Arya"]))
    # Olenna (Visenya) dies: a hole at Visenya
    st, ev = play(new_game(), {"Robb": ["ESCOUADE Olenna"], "Jon": ["ESCOUADE Olenna"]}, dice)
    assert not st.players["Olenna"].alive
    assert st.players["Sansa"].location == "visenya" and st.players["Arya"].location == "fossedragon"
    assert to(ev, "Sansa", "moved") == [{"origin": "fossedragon", "to": "visenya"}]
    assert to(ev, "Arya", "moved") == [{"origin": "culpucier", "to": "fossedragon"}]
    assert dice.purposes.index("Visenya fill from FosseDragon") < dice.purposes.index("FosseDragon fill from Culpucier")


def test_P2_two_turns_at_visenya_40pct_down_to_fossedragon_or_culpucier_if_full() -> None:
    dice = FakeDice()
    st, _ = play(new_game(), {}, dice)
    assert dice.rolled("leaves Visenya (40%)") == 0  # one turn only
    dice = FakeDice().force("Robb leaves Visenya", True)
    st2, ev = play(st, {}, dice)
    assert dice.rolled("leaves Visenya (40%)") == 3  # Robb, Margaery, Olenna: two turns there
    assert st2.players["Robb"].location == "culpucier"  # FosseDragon is full
    assert to(ev, "Robb", "moved") == [{"origin": "visenya", "to": "culpucier"}]
    # with room at FosseDragon he goes there
    st.players["Kevan"].alive = False
    dice = FakeDice().force("Robb leaves Visenya", True).force("Visenya fill", [])
    st3, _ = play(st, {}, dice)
    assert st3.players["Robb"].location == "fossedragon"


def test_P2b_a_player_just_arrived_at_visenya_does_not_roll() -> None:
    st = new_game()
    st.players["Olenna"].alive = False
    st.turn = 5
    dice = FakeDice().force("Visenya fill from FosseDragon", ["Sansa"])
    st2, _ = play(st, {}, dice)
    assert "Sansa leaves Visenya (40%)" not in dice.purposes
    assert st2.players["Sansa"].since == 5


def test_P3_holes_can_remain_culpucier_has_no_limit() -> None:
    st = new_game()
    for n in ("Kevan", "Jon", "Sansa", "Loras"):
        st.players[n].location = "culpucier"
    for n in ("Lancel", "Bran", "Arya", "Rickon", "ser Schlingue", "Garlan", "Willas", "Kevan", "Jon", "Sansa", "Loras"):
        assert st.players[n].location == "culpucier"
    st2, _ = play(st, {}, FakeDice())
    # Visenya full, FosseDragon empty: filled from Culpucier (4 places), Visenya not touched
    assert sum(1 for p in st2.players.values() if p.location == "fossedragon") == 4
    assert sum(1 for p in st2.players.values() if p.location == "culpucier") == 7
    st.players["Robb"].alive = False  # hole at Visenya, FosseDragon empty: stays a hole this turn
    st3, _ = play(st, {}, FakeDice())
    assert sum(1 for p in st3.players.values() if p.location == "visenya" and p.alive) == 2


def test_P4_levels_are_private() -> None:
    st = new_game()
    pub = RULESET.view(st, PUBLIC)
    assert "location" not in pub and "visenya" not in str(pub) and "culpucier" not in str(pub)
    mine = RULESET.view(st, "Arya")
    assert mine["location"] == "culpucier" and mine["influence"] == 1
    assert RULESET.view(st, "Robb")["influence"] == 7 and RULESET.view(st, "Jon")["influence"] == 3


def test_P5_places_give_influence_but_never_limit_who_meets_whom() -> None:
    """« L'emplacement sert à déterminer l'influence des escouades, mais ne rentre pas en compte dans les
    possibilités de rencontre entre personnages pendant un tour. »"""
    st = new_game()
    assert st.players["Arya"].location == "culpucier" and st.players["Olenna"].location == "visenya"
    lines = {"Arya": ["ESCOUADE Olenna"], "Rickon": ["ESCOUADE Olenna"]}  # 1 + 1 against 7: allowed, not enough
    st2, ev = play(st, lines)
    assert st2.players["Olenna"].alive and to(ev, "Arya", "squad_failed") == [{"target": "Olenna"}]
    st3, _ = play(st, {**lines, "Robb": ["ESCOUADE Olenna"]})  # + 7 from Visenya: 9 > 7
    assert not st3.players["Olenna"].alive


def test_R4_rebels_may_kill_several_opponents_in_a_turn() -> None:
    """« Chaque rebelle peut participer à une escouade par tour […] Il est possible alors d'assassiner plusieurs
    adversaires par tour. »"""
    lines = {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"], "Jon": ["ESCOUADE Willas"], "Rickon": ["ESCOUADE Willas"]}
    st, ev = play(new_game(), lines)
    assert not st.players["Garlan"].alive and not st.players["Willas"].alive
    assert sorted(d["player"] for d in public(ev, "death")) == ["Garlan", "Willas"]

