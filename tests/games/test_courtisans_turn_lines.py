"""Courtisans: each line of a turn judged on the state the lines before it leave, in the ack as in the resolution.

« Une fois que le joueur a transmis ses deux actions, il peut encore décider le pouvoir de sa charge » ;
« Ces 6 dernières actions nécessitent un jet de dé … En cas de refus, la cote … diminue de 1 point » ;
« Le futur conjoint ne peut pas refuser ».  The order parser judges a line with the resolution's own check
on every state the lines before may leave (`pbem.games.courtisans.plan`): « OK » when it holds in all, a
refusal when in none, « OK » with a note when in some.  These tests check it, and that the ack never says
a plain « OK » to a line the resolution then drops (in many bot games).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pbem.core import Order, OrderAmbiguousError, OrderNotAllowedError, Seat
from pbem.dice import Dice
from pbem.games.courtisans import RULESET as R
from pbem.games.courtisans import plan
from pbem.games.courtisans.bots import random_orders
from pbem.games.courtisans.state import CourtState
from pbem.games.courtisans.turns import COURT

from .courtisans_helpers import (
    A,
    B,
    C,
    Rigged,
    c,
    deal,
    first,
    game,
    kinds,
    orders,
    own,
    person,
    play,
    refusal,
    text,
    turn_of,
)
from .test_courtisans_games import NAMES, bot_game


def chancellor_b(cote_a: int = 2) -> CourtState:
    """B's turn; B is Chancelier (n° 17), A at Court with a King cote of ``cote_a``."""
    return person(own(turn_of(game(), B), B, 17), A, cote_roi=cote_a)


# ---------------------------------------------------------------- the power after the two actions


def test_s10_une_fois_ses_deux_actions_transmises_the_chancellor_jails_on_the_cote_the_actions_leave():
    """A Calomnie (cote Roi -2) drops Vilenie from 2 to 0: the Chancelier may then embastiller her, in the ack
    and in the resolution (it was refused in the ack, judged on the cote before the turn)."""
    state = deal(chancellor_b(2), B, 97)
    lines = orders(state, B, "JOUER Calomnie SUR Vilenie", "PASSER", "EMBASTILLER Vilenie")
    assert [o.note for o in lines] == [None, None, None]  # certain: no die on the way
    state, events = play(state, B, "JOUER Calomnie SUR Vilenie", "PASSER", "EMBASTILLER Vilenie")
    assert c(state, A).status == "bastille" and first(events, "chancellor_jails").data["cote"] == 0


def test_s10_a_power_written_before_the_second_action_is_judged_on_what_is_written_above_it():
    state = deal(chancellor_b(2), B, 97)
    lines = orders(state, B, "JOUER Calomnie SUR Vilenie", "EMBASTILLER Vilenie", "PASSER")
    assert lines[1].note is not None and "une action écrite plus bas peut encore le changer" in lines[1].note.fr
    state2, _ = play(state, B, "JOUER Calomnie SUR Vilenie", "EMBASTILLER Vilenie", "PASSER")
    assert c(state2, A).status == "bastille"
    # written first, it is judged on the state before the turn: refused, saying where to write it
    with refusal(OrderNotAllowedError, "écrivez-le après vos deux actions"):
        orders(state, B, "EMBASTILLER Vilenie", "JOUER Calomnie SUR Vilenie")


def test_s10_an_action_that_makes_a_power_written_above_impossible_says_so():
    state = deal(chancellor_b(0), B, 94)  # Bon mot: cote Roi +1
    lines = orders(state, B, "PASSER", "EMBASTILLER Vilenie", "JOUER Bon mot SUR Vilenie")
    assert lines[2].note is not None and "ne pourra plus servir" in lines[2].note.fr
    state, events = play(state, B, "PASSER", "EMBASTILLER Vilenie", "JOUER Bon mot SUR Vilenie")
    assert c(state, A).status == "cour" and first(events, "power_failed").data["reason"] == "cote"


def test_s10_le_maitre_de_la_chasse_whose_first_action_ends_the_war_may_move_the_court():
    """« La Cour se déplace à la Guerre tant qu'une guerre est en cours » : once « La guerre est gagnée » ends it,
    the Maître de la Chasse may send the Court to the Hunt at the end of his turn."""
    state = replace(deal(own(turn_of(game(), B), B, 16), B, 85), wars=("anglais",))
    with refusal(OrderNotAllowedError, "la Cour est à la Guerre"):
        orders(state, B, "PASSER", "PASSER", "POUVOIR CHASSE")
    assert [o.note for o in orders(state, B, "JOUER La guerre est gagnée", "PASSER", "POUVOIR CHASSE")] == [None] * 3
    state, events = play(state, B, "JOUER La guerre est gagnée", "PASSER", "POUVOIR CHASSE")
    assert state.wars == () and state.court == "chasse" and "court_moved" in kinds(events)


@pytest.mark.parametrize(("dice", "jailed"), [((1, 3), False), ((1, 7), True), ((9,), False)])
def test_s10_a_power_that_depends_on_the_dice_of_an_action_is_accepted_with_a_note(dice, jailed):
    """« RAGOTS » (one die to be received, then 1 or 2 points) on Vilenie at cote 2, then EMBASTILLER: possible only
    if the gossip takes 2 points; the ack says it depends on the dice, the resolution decides."""
    state = chancellor_b(2)
    lines = orders(state, B, "RAGOTS Vilenie ROI", "PASSER", "EMBASTILLER Vilenie")
    assert lines[2].note is not None and "selon ce que donneront les lignes au-dessus" in lines[2].note.fr
    assert "n'embastille qu'un courtisan" in lines[2].note.fr  # what happens otherwise
    state, events = play(state, B, "RAGOTS Vilenie ROI", "PASSER", "EMBASTILLER Vilenie", dice=Rigged(*dice))
    assert (c(state, A).status == "bastille") is jailed
    assert ("power_failed" in kinds(events)) is not jailed


# ---------------------------------------------------------------- no « OK » for what the resolution drops


def test_s12_le_roi_ne_consent_a_a_same_sex_marriage_after_a_first_action_refused_in_the_ack():
    """A same-sex MARIAGE after a JOUER was acked « OK » and then lost: no action can change anyone's sex."""
    state = deal(turn_of(game(), B), B, 97)
    with refusal(OrderNotAllowedError, "homme et d'une femme"):
        orders(state, B, "JOUER Calomnie SUR Vilenie", "MARIAGE Aubigny")


def test_s9_a_second_audience_after_a_first_action_is_judged_on_what_the_first_leaves():
    state = deal(turn_of(game(), B), B, 94)
    with refusal(OrderNotAllowedError, "n'est pas à la Bastille"):
        orders(state, B, "JOUER Bon mot SUR moi", "BASTILLE Malveyance")
    # after a Lettre de cachet on Malveyance (cote 0: to the Bastille if the request is granted), it depends
    state = person(deal(turn_of(game(), B), B, 72), C, cote_roi=0)
    lines = orders(state, B, "JOUER Lettre de cachet SUR Malveyance", "BASTILLE Malveyance")
    assert lines[1].note is not None and "selon ce que donneront les lignes au-dessus" in lines[1].note.fr


def test_an_ack_never_says_a_plain_ok_to_a_line_the_resolution_drops_in_many_bot_games():
    """Every action the resolution drops (action_failed, action_lost) and every power it does not use
    (power_failed) was acked with a note: over 40 bot games, with the bots' lines and extra second actions."""
    dropped = noted = 0
    for seed in range(40):
        state, _ = R.setup([Seat(n) for n in NAMES], {**R.default_options}, Dice(f"{seed:064x}", "setup"))
        rng = random.Random(seed)
        for step in range(1, 120):
            prompts = R.prompts(state)
            if not prompts:
                break
            player = prompts[0].player
            accepted: list[Order] = []
            for line in random_orders(state, player, seed * 1000 + step) + _extra_lines(state, player, rng):
                try:
                    accepted.append(R.parse_order(state, player, line, accepted))
                except (OrderNotAllowedError, OrderAmbiguousError, ValueError):
                    pass
                except Exception as e:  # a syntax error is fine too; anything else is a bug
                    assert type(e).__name__ == "OrderSyntaxError", (line, e)
            with_note = {o.text for o in accepted if o.note is not None}
            noted += len(with_note)
            state, events = R.resolve(state, {player: accepted or R.default_orders(state, player)},
                                      Dice(f"{seed:064x}", f"step-{step}"))
            for e in events:
                if e.kind == "action_failed":
                    dropped += 1
                    assert e.data["line"] in with_note, (seed, step, e.data)
                if e.kind == "power_failed":
                    dropped += 1
                    assert any(o.verb in ("EMBASTILLER", "JUGER", COURT) for o in accepted if o.note), (seed, step)
            lost = sum(1 for e in events if e.kind == "action_lost") - sum(1 for e in events if e.kind == "action_failed")
            if lost > 0:
                dropped += lost
                assert any(o.note for o in accepted), (seed, step)
    assert dropped >= 10 and noted >= 50, (dropped, noted)  # the games did meet lines that depend on the dice


def _extra_lines(state: CourtState, player: str, rng: random.Random) -> list[str]:
    """Second actions and powers a player might write whatever the first did (to test the ack, not to play well)."""
    others = [p for p in NAMES if p != player]
    target = rng.choice(others)
    return rng.sample([f"EMBASTILLER {target}", f"BASTILLE {target}", f"EXIL {target}", f"MARIAGE {target}",
                       f"RAGOTS {target} ROI", "POUVOIR CHASSE", "PIOCHER"], 2)


# ---------------------------------------------------------------- what the ack may not tell


def test_the_ack_reads_the_same_whatever_the_others_partis_are():
    """A Pamphlet (D10 1-5: cote Roi -1 to the target and to her parti) on Vilenie, then EMBASTILLER Malveyance (cote
    Roi 1): possible only if Malveyance is of Vilenie's parti, which B does not know: the ack must not tell it."""
    notes = []
    for parti in ("espagnol", "anglais"):  # Vilenie is espagnole
        state = person(deal(chancellor_b(5), B, 100), C, cote_roi=1, parti=parti)
        lines = orders(state, B, "JOUER Pamphlet SUR Vilenie", "PASSER", "EMBASTILLER Malveyance")
        notes.append(lines[2].note)
    assert notes[0] is not None and notes[0] == notes[1]


def test_the_ack_does_not_tell_the_card_a_draw_will_give():
    """« PIOCHER » then « JOUER <the top card of the deck> » is refused, whatever the deck holds."""
    state = turn_of(game(), B)
    top = state.deck[0]
    with refusal(OrderNotAllowedError, "n'est pas dans votre main"):
        orders(state, B, "PIOCHER", f"JOUER {top} SUR moi")


def test_the_representative_results_reach_every_state_every_result_reaches():
    """`plan.representatives` tries one result of each kind per draw; on many bot turns it finds exactly the states
    that trying every result finds."""
    compared = 0
    for seed in range(12):
        for before, _, _ in bot_game(seed):
            slot = before.slot
            if slot is None:
                continue
            player = slot.player
            accepted: list[Order] = []
            for line in random_orders(before, player, seed):
                accepted.append(R.parse_order(before, player, line, accepted))
            actions = plan.actions_of(accepted)[:1]
            first_states = plan.starts(before, player, accepted, COURT)
            quick = plan.after(first_states, player, actions)
            full = plan.after(first_states, player, actions, every_result=True)
            if not full.complete:
                continue
            assert {plan.fingerprint(s) for s in quick.states()} == {plan.fingerprint(s) for s in full.states()}
            compared += 1
    assert compared > 200


# ---------------------------------------------------------------- « Demander au Roi la charge … détenue par un autre »


def test_s9_demander_la_charge_a_refusal_costs_a_point_even_when_the_charge_does_not_admit_the_asker():
    """« Ces 6 dernières actions nécessitent un jet de dé … En cas de refus, la cote … diminue de 1 point » : Vilenie
    (a woman) asks for the Maître de la Chasse (« homme »): the audience is held, the King refuses it whatever the
    die, and she loses a point (option charge_conditions = "audience", the default)."""
    state = own(turn_of(game(), A), B, 16)
    (line,) = orders(state, A, "CHARGE Maître de la Chasse DE Fourberye")
    assert line.note is not None and "le Roi refusera cette charge quel que soit le dé" in line.note.fr
    state, events = play(state, A, "CHARGE Maître de la Chasse DE Fourberye", "PASSER", dice=Rigged(1))
    audience = first(events, "audience")
    assert audience.data["granted"] is False and audience.data["rolls"][0]["die"] == 1
    assert 16 in c(state, B).possessions and c(state, A).cote_roi == 4
    assert "demande refusée, le Roi ne donne pas cette charge\u00a0: cette charge demande un titulaire" in text(events)


def test_option_charge_conditions_refus_refuses_the_request_in_the_ack():
    state = own(turn_of(game(charge_conditions="refus"), A), B, 16)
    with refusal(OrderNotAllowedError, "cette charge demande un titulaire"):
        orders(state, A, "CHARGE Maître de la Chasse DE Fourberye")


# ---------------------------------------------------------------- marriages: the words of the spouse, the names


@pytest.mark.parametrize("line", ["je refuse", "Je refuse ce mariage", "REFUSER", "non", "I refuse"])
def test_s12_le_futur_conjoint_ne_peut_pas_refuser(line):
    state = turn_of(game(), B)
    with refusal(OrderNotAllowedError, "Le futur conjoint ne peut pas refuser"):
        orders(state, A, line)


def test_s12_after_a_marriage_a_players_exact_name_still_means_that_player():
    """« L'épouse prend le nom … de son mari » : Sévigné, married to Lauzun, is « Mme de Lauzun »; « Lauzun », the
    player's own name, still means him (« de Lauzun » alone names both and is asked again)."""
    seats = [Seat("Lauzun", data={"sexe": "homme"}), Seat("Sévigné", data={"sexe": "femme"}),
             Seat("Colbert", data={"sexe": "homme"})]
    state, _ = R.setup(seats, {**R.default_options, "seating": "roster"}, Dice("11" * 32, "setup"))
    state, _ = play(turn_of(state, "Lauzun"), "Lauzun", "MARIAGE Sévigné", "PASSER", dice=Rigged(1))
    assert c(state, "Sévigné").spouse == "Lauzun"
    state = turn_of(state, "Colbert")
    assert orders(state, "Colbert", "RAGOTS Lauzun ROI")[0].args == ("Lauzun", "roi")
    with refusal(OrderAmbiguousError, "écrivez le nom du joueur"):
        orders(state, "Colbert", "RAGOTS de Lauzun ROI")

