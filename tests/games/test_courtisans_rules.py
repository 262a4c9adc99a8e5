"""Courtisans: numbered rule cases after the paragraphs of the rule text, §1 to §11 (and the deck).

§1 Etiquette            §5 restrictions, D10, REQUETE (Roi, Reine)     §9 actions possibles à son tour
§2 Partis               §6 ordre des actions                            §10 fin du tour d'un joueur
§3 Préparation          §7 transmettre les actions (délai, pioche auto) §11 ragots / louanges
§4 « Important » : une carte se joue sur n'importe quel personnage     §8 le Chambellan
The expected outcomes come from the rule text (its sentence is quoted in each test's docstring).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.core import MJ, OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError, Seat, SetupError
from pbem.dice import Dice
from pbem.games.courtisans import RULESET as R
from pbem.games.courtisans.cards import DeckError, load_deck, parse_deck
from pbem.games.courtisans.etiquette import address, salutation
from pbem.games.courtisans.state import KING, QUEEN
from pbem.roster import read_roster

from .courtisans_helpers import (
    A,
    B,
    C,
    D,
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
    to_maison,
    turn_of,
)

# ---------------------------------------------------------------- §1 Etiquette


def test_s1_players_choose_name_and_sex_madame_monsieur():
    """« chaque joueur se choisit un nom et le sexe de son personnage (Monsieur de Malveyance, Madame de la Vilenie) »"""
    state = game()
    assert c(state, A).sex == "femme" and c(state, A).family == "de la Vilenie"
    assert c(state, B).sex == "homme" and c(state, B).family == "de la Fourberye"
    assert address(state, A) == "Mme de la Vilenie" and address(state, D) == "M. d'Aubigny"
    seats = [Seat("Malveyance", data={"sexe": "femme"}), Seat("Fourberye"), Seat("x", data={"nom": "Monsieur du Plessis"})]
    state, _ = R.setup(seats, dict(R.default_options), Dice("22" * 32, "setup"))
    assert c(state, "Malveyance").sex == "femme" and c(state, "Malveyance").family == "de Malveyance"
    assert c(state, "x").family == "du Plessis" and c(state, "x").sex == "homme"
    assert c(state, "Fourberye").sex in ("homme", "femme")  # not said: drawn by the MJ's dice


def test_s1_the_sex_given_at_registration_or_in_the_mjs_roster_file_counts():
    """« chaque joueur se choisit … le sexe de son personnage » : without a civility in the name, the sex the player
    gave at registration (« INSCRIPTION Malveyance femme ») or the MJ's roster file (``sexe = "femme"``, which the
    roster reader keeps as the seat's gender, not as data) gives it; before, it was drawn at random."""
    entries = read_roster(tomllib.loads('[[joueur]]\njoueur = "Malveyance"\nsexe = "femme"\n'
                                        '[[joueur]]\njoueur = "Fourberye"\ngenre = "m"\n[[joueur]]\njoueur = "Aubigny"\n'))
    seats = [e.seat() for e in entries]
    assert [s.gender for s in seats] == ["f", "m", None] and "sexe" not in seats[0].data
    state, _ = R.setup(seats, dict(R.default_options), Dice("22" * 32, "setup"))
    assert c(state, "Malveyance").sex == "femme" and c(state, "Fourberye").sex == "homme"
    state, _ = R.setup([Seat("Madame de X", gender="m"), Seat("Y", gender="f"), Seat("Z")], dict(R.default_options),
                       Dice("22" * 32, "setup"))
    assert c(state, "Madame de X").sex == "femme" and c(state, "Y").sex == "femme"  # the civility first


def test_s1_players_cited_by_their_titles_in_every_text():
    """« en citant les joueurs par leurs titres de noblesse adéquats (quand ils en auront acquis) »"""
    state = own(game(), B, 14, 19)
    state = own(state, A, 8)
    assert address(state, B) == "M. le Duc de la Fourberye"
    assert salutation(state, B) == "Monsieur le Duc de la Fourberye"
    assert address(state, A) == "Mme la Comtesse de la Vilenie"
    assert R.salutation(state, A) == "Madame la Comtesse de la Vilenie"
    assert R.salutation(state, MJ) is None
    state = turn_of(state, A)
    _, events = play(state, A, "PIOCHER", "PIOCHER")
    assert "Mme la Comtesse de la Vilenie pioche une carte" in text(events)


def test_s1_mj_fines_1000_livres_by_mail_and_calls_to_order():
    """« Les contrevenants sont punis d'un rappel à l'ordre ou d'une amende (1000 livres), par le MJ »"""
    state = person(game(), B, livres=5000)
    order = R.parse_order(state, MJ, "AMENDE Fourberye", [])
    assert order.args == (B, 1000)
    state, events = R.immediate(state, MJ, order, Rigged())
    assert c(state, B).livres == 4000 and kinds(events) == ["fined"] and events[0].audience.players == (B,)
    assert "amende de 1\u202f000 livres" in text(events)
    state, events = R.immediate(state, MJ, R.parse_order(state, MJ, "AMENDE Vilenie 2500", []), Rigged())
    assert c(state, A).livres == -2500  # a fine is owed even by the penniless (ruling)
    state, events = R.immediate(state, MJ, R.parse_order(state, MJ, "AVERTISSEMENT Aubigny", []), Rigged())
    assert c(state, D).warnings == 1 and "1er rappel" in text(events)
    with pytest.raises(OrderNotAllowedError):
        R.parse_order(state, A, "AMENDE Fourberye", [])
    with pytest.raises(OrderNotAllowedError):
        R.parse_order(state, MJ, "PIOCHER", [])


# ---------------------------------------------------------------- §2 Partis


def test_s2_parti_drawn_at_random_by_the_mj_for_each_player():
    """« le MJ détermine aléatoirement au début du jeu le parti que soutient chaque joueur »"""
    seen = set()
    for seed in range(12):
        state, events = R.setup([Seat(p) for p in (A, B, C)], dict(R.default_options), Dice(f"{seed:064x}", "setup"))
        seen |= {c(state, p).parti for p in state.seats}
        mine = [e for e in events if e.kind == "your_character"]
        assert [e.audience.players for e in mine] == [(p,) for p in state.seats]  # each learns their own only
    assert seen == {"anglais", "hollandais", "espagnol"}


def test_s2_queens_parti_gets_plus_two_with_the_queen():
    """« Un joueur du même parti que la nationalité de la Reine obtient un bonus de +2 à sa cote auprès de la Reine »"""
    from pbem.games.courtisans.court import roll_cote

    state = game()  # the Queen is Spanish; A and D are of the Spanish party, B is English
    for seed in range(20):
        dice = Dice(f"{seed:064x}", "x")
        value, bonus = roll_cote(state, A, "reine", dice)
        assert bonus == 2 and value == min(9, dice.rolls[-1].result + 2 + 2)  # cote dice 1d6+2, then +2
        value, bonus = roll_cote(state, B, "reine", dice)
        assert bonus == 0 and value == dice.rolls[-1].result + 2


def test_s2_cards_that_penalise_a_player_penalise_his_parti():
    """« certaines cartes qui pénalisent un joueur pénalisent également les membres du même parti que lui »"""
    state = deal(turn_of(game(), B), B, 101)  # Cabale: -1 with the Queen, and -1 for the target's parti
    state, events = play(state, B, "JOUER Cabale SUR Vilenie", "PASSER")
    assert c(state, A).cote_reine == 4 and c(state, D).cote_reine == 4  # A and D: Spanish party
    assert c(state, B).cote_reine == 5 and c(state, C).cote_reine == 5


# ---------------------------------------------------------------- §3 Préparation and the box


def test_s3_six_cards_dealt_to_each_player_from_a_deck_of_110():
    """« le MJ distribue 6 cartes aux joueurs » ; the box holds 110 cards"""
    state, events = R.setup([Seat(p) for p in (A, B, C, D)], dict(R.default_options), Dice("33" * 32, "setup"))
    assert len(state.cards) == 110 and sorted(state.cards) == list(range(1, 111))
    assert all(len(c(state, p).hand) == 6 for p in state.seats)
    assert len(state.deck) == 110 - 24
    assert first(events, "setup").data["target"] == 50_000


def test_s3_three_to_six_players_option_for_more():
    with pytest.raises(SetupError):
        R.setup([Seat(p) for p in (A, B)], dict(R.default_options), Dice("00" * 32, "setup"))
    seven = [Seat(f"Joueur {i}") for i in range(7)]
    with pytest.raises(SetupError):
        R.setup(seven, dict(R.default_options), Dice("00" * 32, "setup"))
    state, _ = R.setup(seven, {**R.default_options, "max_players": 8}, Dice("00" * 32, "setup"))
    assert len(state.seats) == 7


# ---------------------------------------------------------------- §4 « Important »


def test_s4_a_card_can_be_played_on_oneself_even_a_poison():
    """« on peut … tenter de faire suicider son propre personnage par le poison »"""
    state = deal(turn_of(game(), B), B, 60)
    state, events = play(state, B, "JOUER Poison SUR moi", "PASSER", dice=Rigged(2))
    assert c(state, B).status == "mort" and "died" in kinds(events)


def test_s4_the_king_and_queen_can_be_targeted_but_their_cote_never_varies():
    """« On peut également tenter de faire disparaître le Roi ou la Reine (mais pas varier leur cote) »"""
    state = deal(turn_of(game(), B), B, 60, 97)
    state, events = play(state, B, "JOUER 60 SUR REINE", "PASSER", dice=Rigged(5))  # Poison 4-6: cote -1 -1
    assert state.crown.queen and not [e for e in events if e.kind == "cote"]
    with pytest.raises(OrderNotAllowedError):
        orders(state, B, "JOUER Calomnie SUR ROI")


# ---------------------------------------------------------------- §5 restrictions


def test_s5_place_versailles_chasse_guerre():
    """« la carte ne peut être jouée que si la Cour se trouve à Versailles, à la Chasse ou à la Guerre »"""
    state = deal(turn_of(game(), B), B, 63, 94, 65)
    with refusal(OrderNotAllowedError, "à la Chasse"):
        orders(state, B, "JOUER Accident de chasse SUR Vilenie")
    orders(state, B, "JOUER Bon mot SUR moi")
    hunt = state.__class__(**{**state.__dict__, "court": "chasse"})
    orders(hunt, B, "JOUER 63 SUR Vilenie")
    with pytest.raises(OrderNotAllowedError):
        orders(hunt, B, "JOUER Bon mot SUR moi")
    war = hunt.__class__(**{**hunt.__dict__, "wars": ("anglais",)})
    orders(war, B, "JOUER 65 SUR Aubigny")
    with pytest.raises(OrderNotAllowedError):
        orders(war, B, "JOUER 63 SUR Vilenie")


def test_s5_homme_femme_is_about_the_target_not_the_player():
    """« pas par un personnage homme ou femme, mais bien sur un personnage homme ou femme »"""
    state = deal(turn_of(game(), A), A, 102)  # Exploit à la chasse (Chasse, homme): a woman may play it on a man
    state = state.__class__(**{**state.__dict__, "court": "chasse"})
    orders(state, A, "JOUER Exploit à la chasse SUR Fourberye")
    with refusal(OrderNotAllowedError, "homme"):
        orders(state, A, "JOUER 102 SUR moi")


def test_s5_favorite_and_amant_cards_need_the_favorite_or_the_lover():
    """« Favorite / Amant de la Reine : ne peut être jouée que sur un personnage qui est devenu la Favorite… »"""
    state = deal(turn_of(game(), B), B, 58, 51)
    with refusal(OrderNotAllowedError, "Favorite"):
        orders(state, B, "JOUER Présent du Roi SUR Vilenie")
    state, events = play(state, B, "JOUER Favorite SUR Vilenie", "JOUER Présent du Roi SUR Vilenie")
    assert 51 in c(state, A).possessions and c(state, A).livres == 5000 + 0
    assert c(state, A).cote_roi == 7 and c(state, A).cote_reine == 3  # the Favorite: +2 King, -2 Queen


def test_s5_double_conditions_homme_titre_cote_and_poisoner():
    """« Homme avec cote Roi minimum 5 / Homme titré / Femme ayant tenté un empoisonnement : conditions doubles »"""
    state = deal(turn_of(game(), B), B, 14, 17, 71, 60)
    with refusal(OrderNotAllowedError, "titré"):
        orders(state, B, "JOUER Duc SUR moi ROI")
    state = own(state, B, 1)
    orders(state, B, "JOUER Duc SUR moi ROI")
    low = person(state, B, cote_roi=4)
    with refusal(OrderNotAllowedError, "cote Roi minimum 5"):
        orders(low, B, "JOUER Chancelier SUR moi")
    with refusal(OrderNotAllowedError, "empoisonnement"):
        orders(state, B, "JOUER Affaire des poisons SUR Vilenie")
    state = person(state, A, poisoner=True)
    orders(state, B, "JOUER Affaire des poisons SUR Vilenie")


def test_s5_poison_marks_the_player_who_tried_it():
    """« que ce soit une femme, et que le joueur ait joué une carte Poison précédemment »"""
    state = deal(turn_of(game(), A), A, 60)
    state, _ = play(state, A, "JOUER Poison SUR Fourberye", "PASSER", dice=Rigged(8))  # 7-9: nothing happens
    assert c(state, A).poisoner and c(state, B).status == "cour"


def test_s5_only_a_woman_may_play():
    """« ne peut être joué que par une femme » : il faut que le joueur qui joue la carte ait un personnage féminin"""
    state = deal(turn_of(game(), B), B, 104)
    with refusal(OrderNotAllowedError, "ne peut être jouée que par un personnage femme"):
        orders(state, B, "JOUER Rumeur d'alcôve SUR Vilenie")
    state = deal(turn_of(game(), A), A, 104)
    state, _ = play(state, A, "JOUER Rumeur d'alcôve SUR Malveyance", "PASSER")
    assert (c(state, C).cote_roi, c(state, C).cote_reine) == (4, 3)


def test_s5_d10_the_effect_depends_on_a_die_rolled_by_the_mj():
    """« D10 : les effets de la carte dépendent du résultat d'un tirage au dé (effectué par le MJ) »"""
    for die in (3, 8):  # Pamphlet: 1-5 target -1 (and parti); 6-10 target -2
        state = deal(turn_of(game(), B), B, 100)
        state, events = play(state, B, "JOUER Pamphlet SUR Aubigny", "PASSER", dice=Rigged(die))
        assert first(events, "d10").data["die"] == die
        assert c(state, D).cote_roi == (4 if die <= 5 else 3)
        assert c(state, A).cote_roi == (4 if die <= 5 else 5)  # A shares D's Spanish party


def test_s5_request_to_the_king_granted_when_the_die_is_at_most_the_cote():
    """« Si le résultat du dé est inférieur ou égal, la requête est acceptée : le joueur sur qui la carte est jouée
    reçoit un titre de noblesse / une charge / une pension »"""
    state = deal(turn_of(game(), B), B, 8)
    state, events = play(state, B, "JOUER Comte SUR Vilenie ROI", "PASSER", dice=Rigged(5))
    assert 8 in c(state, A).possessions and c(state, B).cote_roi == 5
    assert first(events, "request").data["granted"] is True


def test_s5_request_to_the_king_refused_cote_minus_one_card_to_the_maison():
    """« Si le résultat du dé est supérieur à la cote du joueur, la requête est refusée : la cote du joueur diminue
    de 1 point et la carte va dans « la Maison du Roi » »"""
    state = deal(turn_of(game(), B), B, 8)
    state, events = play(state, B, "JOUER Comte SUR moi", "PASSER", dice=Rigged(6))
    assert c(state, B).cote_roi == 4 and 8 in state.maison and 8 not in c(state, B).possessions
    assert "Requête au Roi\u00a0: dé 6 contre une cote de 5\u00a0: refusée." in text(events)


def test_s5_only_the_lettre_de_cachet_comes_back_to_the_hand():
    """« Seule la carte Lettre de cachet est réintégrée dans le jeu du joueur en cas de refus »"""
    state = person(deal(turn_of(game(), B), B, 72), A, cote_roi=0)
    state, _ = play(state, B, "JOUER Lettre de cachet SUR Vilenie", "PASSER", dice=Rigged(9))
    assert 72 in c(state, B).hand and 72 not in state.maison and c(state, B).cote_roi == 4
    state = turn_of(state, B)
    state, _ = play(state, B, "JOUER 72 SUR Vilenie", "PASSER", dice=Rigged(1))
    assert c(state, A).status == "bastille"


def test_s5_request_to_the_queen_first_die_fails_queen_cote_minus_one():
    """« Si le joueur échoue au premier, la cote du joueur auprès de la Reine diminue de 1 point, et sa carte va à la
    Maison du Roi »"""
    state = deal(turn_of(game(), B), B, 41)
    state, events = play(state, B, "JOUER 41 SUR moi REINE", "PASSER", dice=Rigged(7))
    assert (c(state, B).cote_roi, c(state, B).cote_reine) == (5, 4) and 41 in state.maison
    assert len(first(events, "request").data["rolls"]) == 1


def test_s5_request_to_the_queen_second_die_fails_king_cote_minus_one():
    """« Si le premier jet est un succès, mais le second un échec, la cote du joueur auprès du Roi diminue de 1 point »"""
    state = deal(turn_of(game(), B), B, 41)
    state, _ = play(state, B, "JOUER 41 SUR moi à la Reine", "PASSER", dice=Rigged(2, 8))
    assert (c(state, B).cote_roi, c(state, B).cote_reine) == (4, 5) and 41 in state.maison


def test_s5_request_to_the_queen_both_dice_succeed_granted():
    """« Si les 2 jets sont des succès, la requête est accordée »"""
    state = deal(turn_of(game(), B), B, 41)
    state, events = play(state, B, "JOUER 41 SUR moi QUEEN", "PASSER", dice=Rigged(5, 5))
    assert 41 in c(state, B).possessions and (c(state, B).cote_roi, c(state, B).cote_reine) == (5, 5)
    assert "premier dé 5 contre la cote de 5 auprès de la Reine (succès), second dé 5" in text(events)


# ---------------------------------------------------------------- §6 ordre, §7 transmettre


def test_s6_initial_order_drawn_by_the_mj():
    """« le MJ détermine en début de partie l'ordre initial des joueurs »"""
    orders_seen = set()
    for seed in range(8):
        state, _ = R.setup([Seat(p) for p in (A, B, C, D)], dict(R.default_options), Dice(f"{seed:064x}", "setup"))
        orders_seen.add(state.seats)
    assert len(orders_seen) > 1
    assert game().seats == (A, B, C, D)  # option seating = "roster" keeps the registration order


def test_s7_silent_player_draws_two_cards_from_the_general_deck():
    """« Si aucune action n'a été transmise au MJ, les 2 actions seront une « pioche » automatique (… de la pioche
    générale – pas de la Maison du Roi) »"""
    state = to_maison(turn_of(game(), B), 8)
    assert [o.verb for o in R.default_orders(state, B)] == ["PIOCHER", "PIOCHER"]
    assert R.default_orders(state, A) == []
    top = state.deck[:2]
    state, _ = R.resolve(state, {B: R.default_orders(state, B)}, Rigged())
    assert c(state, B).hand == top and state.maison == (8,)


def test_s7_two_days_after_the_previous_player_deadline_key_and_one_prompt():
    """« chaque joueur a un délai de 2 jours maximum … (2 jours après que les actions du joueur précédent aient été
    publiées) » : one prompt, for the player whose turn it is, with the deadline key « tour »"""
    state = game()
    assert [(p.player, p.deadline) for p in R.prompts(state)] == [(A, "tour")]
    with refusal(OrderNotAllowedError, "pas votre tour"):
        R.parse_order(state, B, "PIOCHER", [])


# ---------------------------------------------------------------- §8 le Chambellan


def test_s8_chambellan_plays_first_and_again_after_everyone_then_passes_on():
    """« exemple d'un tour : Joueur A Chambellan, Joueur B, Joueur C, Joueur D, Joueur A Chambellan ; tour suivant :
    Joueur B Chambellan, Joueur C, Joueur D, Joueur A, Joueur B Chambellan »"""
    state = game()
    seen = []
    for _ in range(10):
        slot = state.slot
        seen.append((state.round, slot.player, slot.kind))
        state, _ = R.resolve(state, {slot.player: R.default_orders(state, slot.player)}, Rigged())
    assert seen == [(1, A, "first"), (1, B, "normal"), (1, C, "normal"), (1, D, "normal"), (1, A, "closing"),
                    (2, B, "first"), (2, C, "normal"), (2, D, "normal"), (2, A, "normal"), (2, B, "closing")]


def test_s8_chambellan_decides_versailles_or_chasse_before_playing():
    """« décide avant de jouer si la Cour se trouve à Versailles ou à la Chasse » (for the whole round)"""
    state = deal(game(), A, 63)  # Accident de chasse needs the Hunt: the choice comes before the actions
    state, events = play(state, A, "JOUER 63 SUR Fourberye", "CHASSE", "PASSER", dice=Rigged(9))
    assert state.court == "chasse" and kinds(events).index("chamberlain_choice") < kinds(events).index("card_played")
    with pytest.raises(OrderNotAllowedError):
        orders(state, B, "VERSAILLES")  # only the Chambellan, before playing (or the Maître de la Chasse)


def test_s8_silent_chambellan_court_at_versailles():
    state = game()
    state = state.__class__(**{**state.__dict__, "court": "chasse"})
    state, events = play(state, A, "PIOCHER", "PIOCHER")
    assert state.court == "versailles" and first(events, "chamberlain_choice").data["defaulted"]


# ---------------------------------------------------------------- §9 actions possibles


def test_s9_two_actions_same_or_different_and_no_third():
    """« 2 actions (peuvent être différentes ou identiques) »"""
    state = turn_of(game(), B)
    taken = orders(state, B, "PIOCHER", "PIOCHER")
    with refusal(OrderNotAllowedError, "deux actions"):
        R.parse_order(state, B, "PASSER", taken)
    state2, _ = play(state, B, "PIOCHER", "pioche")
    assert len(c(state2, B).hand) == 2


def test_s9_one_action_given_the_other_is_a_draw():
    """Ruling: a turn with one action only gets a draw for the missing one, like the silent player's."""
    state = turn_of(game(), B)
    state, events = play(state, B, "PASSER")
    assert kinds(events).count("drew") == 1 and len(c(state, B).hand) == 1


def test_s9_take_a_card_of_the_maison_du_roi():
    """« Piocher 1 carte au choix dans celles disponibles à la Maison du Roi »"""
    state = to_maison(turn_of(game(), B), 17, 8)
    state, events = play(state, B, "MAISON Chancelier", "JOUER 17 SUR moi ROI", dice=Rigged(3))
    assert 17 in c(state, B).possessions and state.maison == (8,)
    assert "prend Chancelier (n° 17) dans la Maison du Roi" in text(events)


def test_s9_give_one_or_two_cards_known_to_the_two_players_only():
    """« Donner 1 ou 2 de ses cartes à un autre joueur »"""
    state = deal(turn_of(game(), B), B, 60, 72, 8)
    state, events = play(state, B, "DONNER Poison 72 A Vilenie", "DONNER 8 à Malveyance")
    assert set(c(state, A).hand) == {60, 72} and c(state, C).hand == (8,)
    gifts = [e for e in events if e.kind == "gift"]
    assert [set(e.audience.players) for e in gifts] == [{A, B}, {B, C}]
    assert first(events, "gift_public").data["count"] == 2 and "cards" not in first(events, "gift_public").data


def test_s9_ask_the_king_for_a_charge_held_by_another_not_a_title_nor_the_marechalat():
    """« Demander au Roi la charge (pas un titre de noblesse, ni le maréchalat) détenue par un autre courtisan »"""
    state = own(own(turn_of(game(), B), D, 19, 34), D, 5)
    with pytest.raises(OrderNotAllowedError):
        orders(state, B, "CHARGE Vicomte DE Aubigny")
    with pytest.raises(OrderNotAllowedError):
        orders(state, B, "CHARGE 34")
    state, events = play(state, B, "CHARGE Gouverneur de Normandie DE Aubigny", "PASSER", dice=Rigged(4))
    assert 19 in c(state, B).possessions and 19 not in c(state, D).possessions


def test_s9_the_six_audiences_need_a_die_and_a_refusal_costs_one_point():
    """« Ces 6 dernières actions nécessitent un jet de dé … En cas de refus, la cote du personnage qui a demandé
    l'audience diminue de 1 point »"""
    state = turn_of(game(), B)
    state, events = play(state, B, "MARIAGE Vilenie", "PASSER", dice=Rigged(9))
    assert c(state, B).spouse is None and c(state, B).cote_roi == 4
    assert first(events, "audience").data["granted"] is False


def test_s9_propose_a_foreign_princess_only_to_a_widowed_king():
    """« Proposer au Roi de se remarier avec une princesse étrangère … (uniquement si le Roi est veuf) »"""
    state = turn_of(game(), B)
    with refusal(OrderNotAllowedError, "pas veuf"):
        orders(state, B, "PRINCESSE anglaise")


def test_s9_exile_back_by_king_or_queen_bastille_by_the_king_only():
    """« Demander au Roi de faire revenir de la Bastille … Demander au Roi ou à la Reine de faire revenir d'exil »"""
    state = person(person(turn_of(game(), B), A, status="exil", cote_roi=None, cote_reine=None), C,
                   status="bastille", cote_roi=None, cote_reine=None)
    state, events = play(state, B, "EXIL Vilenie REINE", "BASTILLE Malveyance", dice=Rigged(3, 4, 2))
    assert c(state, A).status == "cour" and c(state, C).status == "cour"
    with refusal(OrderNotAllowedError, "seul le Roi"):
        orders(turn_of(game(), B), B, "BASTILLE Malveyance REINE")


# ---------------------------------------------------------------- §10 fin du tour


def test_s10_maitre_de_la_chasse_moves_the_court_at_the_end_of_his_turn():
    """« le joueur qui a la charge de « Maître de la Chasse » peut décider du changement de localisation de la Cour,
    à la fin de son tour, s'il le souhaite »"""
    state = own(turn_of(game(), B), B, 16)
    state, events = play(state, B, "POUVOIR CHASSE", "PIOCHER", "PIOCHER")
    assert state.court == "chasse" and kinds(events).index("court_moved") > kinds(events).index("drew_public")
    with pytest.raises(OrderNotAllowedError):
        orders(turn_of(state, D), D, "POUVOIR VERSAILLES")


def test_s10_income_from_titles_charges_pensions_held_at_the_end_of_the_turn():
    """« le MJ calcule les revenus du joueur pour ce tour (sur base des titres, charges, pensions, qu'il détient …
    effectivement à la fin de son tour) et les additionne à ses revenus des tours précédents »"""
    state = person(own(deal(turn_of(game(), B), B, 41), B, 8, 20), B, livres=10_000)
    state, events = play(state, B, "JOUER 41 SUR moi", "PASSER", dice=Rigged(1))
    assert c(state, B).livres == 10_000 + 3000 + 4000 + 1000  # Comte, Gouverneur de Bretagne, the new pension
    assert first(events, "income").data["amount"] == 8000


def test_s10_a_charge_taken_from_a_player_who_already_played_pays_nothing_this_round():
    """« si le joueur … est parvenu à se faire transmettre une charge détenue par un joueur ayant joué avant lui, il ne
    touchera pas de revenus pour cette charge à ce tour … le Roi ne paie pas deux fois »"""
    state = own(turn_of(game(), B), B, 19)
    state, _ = play(state, B, "PASSER", "PASSER")
    assert c(state, B).livres == 6000
    state, events = play(state, C, "CHARGE Gouverneur de Normandie", "PASSER", dice=Rigged(2))
    assert 19 in c(state, C).possessions and c(state, C).livres == 0
    assert [x["number"] for x in first(events, "income").data["skipped"]] == [19]
    state, _ = play(state, D, "CHARGE 19", "PASSER", dice=Rigged(1))
    assert 19 in c(state, D).possessions and c(state, D).livres == 0


def test_s10_chambellan_closing_turn_pays_only_what_was_not_paid_this_round():
    """Ruling: « le Roi ne paie pas deux fois » also on the Chambellan's closing turn (option chamberlain_paid_twice)."""
    state = own(game(), A, 8)
    state, _ = play(state, A, "PASSER", "PASSER")
    for p in (B, C, D):
        state, _ = play(state, p, "PASSER", "PASSER")
    state = deal(state, A, 5)
    state, _ = play(state, A, "JOUER 5 SUR moi", "PASSER", dice=Rigged(1))
    assert c(state, A).livres == 3000 + 2000  # the Comte once, the new Vicomte on the closing turn
    twice = own(game(chamberlain_paid_twice=True), A, 8)
    for p in (A, B, C, D, A):
        twice, _ = play(twice, p, "PASSER", "PASSER")
    assert c(twice, A).livres == 6000


def test_s10_discard_down_to_ten_cards_as_the_player_says():
    """« et enfin, s'il a plus de 10 cartes, indiquer au MJ desquelles il se défausse »"""
    state = deal(turn_of(game(), B), B, *range(94, 104))
    state, events = play(state, B, "PIOCHER", "PIOCHER", "DEFAUSSER 94 95 96")
    assert len(c(state, B).hand) == 10 and 94 not in c(state, B).hand and 95 not in c(state, B).hand
    assert 96 in c(state, B).hand  # only as many as needed
    state = deal(turn_of(game(), B), B, *range(94, 104))
    state, events = play(state, B, "PIOCHER", "PIOCHER")
    assert len(c(state, B).hand) == 10 and first(events, "discarded").data["random"] == 2


def test_s10_chancellor_jails_a_player_with_king_cote_zero_or_less_and_judges():
    """« La charge de Chancelier peut envoyer directement à la Bastille, sans requête, le joueur qui a une cote de
    0,-1 ou -2 auprès du Roi » ; « jugement décidé par le joueur qui a la charge de Chancelier »"""
    state = person(own(turn_of(game(), B), B, 17), A, cote_roi=-1)
    with refusal(OrderNotAllowedError, "0, -1 ou -2"):
        orders(state, B, "EMBASTILLER Malveyance")
    state, events = play(state, B, "EMBASTILLER Vilenie", "PASSER", "PASSER")
    assert c(state, A).status == "bastille"
    state = turn_of(state, B)
    with refusal(OrderNotAllowedError, "une fois"):  # once a round
        orders(state, B, "JUGER Vilenie")
    state = state.__class__(**{**state.__dict__, "powers_used": ()})
    state, events = play(state, B, "JUGER Vilenie", "PASSER", "PASSER")
    assert c(state, A).status == "cour" and "chancellor_judges" in kinds(events)


# ---------------------------------------------------------------- §11 ragots / louanges


@pytest.mark.parametrize(("speaker_cote", "die", "points"), [(5, 3, 1), (5, 6, 2), (8, 5, 2), (9, 10, 3)])
def test_s11_ragots_1_to_5_one_point_6_to_10_two_plus_one_at_8_or_more(speaker_cote, die, points):
    """« de 1 à 5 : … diminue de 1 … de 6 à 10 : … de 2 … 1 point de cote supplémentaire est perdu si le courtisan
    qui dit du mal a lui-même une cote de 8,9 ou 10 auprès du souverain concerné »"""
    state = person(turn_of(game(), B), B, cote_roi=speaker_cote)
    state, events = play(state, B, "RAGOTS Vilenie ROI", "PASSER", dice=Rigged(1, die))
    assert c(state, A).cote_roi == 5 - points and c(state, A).cote_reine == 5  # only with the King
    assert first(events, "gossip").data["points"] == points


def test_s11_one_die_to_be_received_even_with_the_queen_louanges_raise():
    """« (1 action, jet de dé (1 seul, même pour la Reine)) » ; « dire du bien … même système »"""
    state = turn_of(game(), B)
    state, events = play(state, B, "LOUANGES Vilenie REINE", "PASSER", dice=Rigged(5, 7))
    assert len(first(events, "audience").data["rolls"]) == 1
    assert c(state, A).cote_reine == 7 and c(state, A).cote_roi == 5


def test_s11_refused_audience_costs_the_asker_a_point_with_that_sovereign():
    state = turn_of(game(), B)
    state, _ = play(state, B, "RAGOTS Vilenie REINE", "PASSER", dice=Rigged(6))
    assert (c(state, B).cote_roi, c(state, B).cote_reine) == (5, 4) and c(state, A).cote_reine == 5


def test_s11_cote_scale_minus_two_to_nine():
    """The box: the cote with each sovereign runs from -2 to 9."""
    state = person(turn_of(game(), B), A, cote_roi=-1)
    state, _ = play(state, B, "RAGOTS Vilenie ROI", "PASSER", dice=Rigged(1, 9))
    assert c(state, A).cote_roi == -2
    state = person(turn_of(game(), B), A, cote_roi=8)
    state, _ = play(state, B, "LOUANGES Vilenie ROI", "PASSER", dice=Rigged(1, 9))
    assert c(state, A).cote_roi == 9


# ---------------------------------------------------------------- the deck as data, and orders


def test_deck_shipped_is_valid_and_the_example_duc_gouverneur_earns_12000():
    cards = {c.number: c for c in load_deck()}
    assert len(cards) == 110
    assert cards[14].name == "Duc" and cards[19].name == "Gouverneur de Normandie"
    assert cards[14].income + cards[19].income == 12_000  # « dont les revenus sont de 12 000 livres »
    assert cards[72].name == "Lettre de cachet" and cards[72].refused_to == "main"


def test_the_documented_income_of_the_whole_deck_is_the_sum_of_its_parts():
    """docs/rules/courtisans.md, « Le jeu livré » : « En tout, si tout était distribué, 139 000 livres par tour (titres
    43 000, charges 59 000, maréchalats 6 000, pensions 26 000, plus une Favorite et un Amant) »."""
    cards = load_deck()
    by_kind: dict[str, int] = {}
    for card in cards:
        by_kind[card.kind] = by_kind.get(card.kind, 0) + card.income
    one_favorite = next(c.income for c in cards if c.kind == "favorite")
    one_lover = next(c.income for c in cards if c.kind == "amant")
    parts = (by_kind["titre"], by_kind["charge"], by_kind["marechalat"], by_kind["pension"])
    assert parts == (43_000, 59_000, 6_000, 26_000)
    total = sum(parts) + one_favorite + one_lover
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "courtisans.md").read_text("utf-8")
    assert total == 139_000 and "139\u202f000 livres par tour (titres 43\u202f000, charges 59\u202f000" in doc


def test_deck_errors_name_the_file_the_card_and_what_is_wrong(tmp_path):
    bad = tmp_path / "jeu.toml"
    bad.write_text('[[carte]]\nnumero = 1\nnom = "Baron"\ntype = "titre"\nrevenu = 1000\n\n'
                   '[[carte]]\nnumeros = [2, 1]\nnom = "Poison"\nd10 = true\n[[carte.resultat]]\ndes = "1-3"\n'
                   'effets = [{ effet = "mort" }]\n\n[[carte]]\nnumero = 3\nnom = "X"\nlieu = "Paris"\n'
                   'effets = [{ effet = "voler" }]\n', encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(bad)
    problems = "\n".join(caught.value.problems)
    assert str(bad) in caught.value.msg.fr
    assert "carte n° 1 (Baron)" in problems and "forme féminine" in problems and "REQUETE" in problems
    assert "carte n° 1 : numéro déjà pris" in problems
    assert "aucun résultat pour 4, 5, 6, 7, 8, 9, 10" in problems
    assert "lieu « Paris » inconnu" in problems and "effet « voler » inconnu" in problems
    with pytest.raises(DeckError, match="illisible"):
        load_deck(tmp_path / "absent.toml")


def test_deck_option_points_to_another_deck_file(tmp_path):
    from pbem.games.courtisans.cards import DEFAULT_DECK

    variant = DEFAULT_DECK.read_text("utf-8").replace('nom = "Baron"', 'nom = "Chevalier"', 1)
    path = tmp_path / "variante.toml"
    path.write_text(variant, encoding="utf-8")
    state, _ = R.setup([Seat(p) for p in (A, B, C)], {**R.default_options, "deck": str(path)}, Dice("00" * 32, "s"))
    assert state.cards[1].name == "Chevalier"
    path.write_text("pas du TOML [", encoding="utf-8")
    with pytest.raises(SetupError, match="variante.toml"):
        R.setup([Seat(p) for p in (A, B, C)], {**R.default_options, "deck": str(path)}, Dice("00" * 32, "s"))
    assert parse_deck('[[carte]]\nnumero = 5\nnom = "Bon mot"\neffets = [{ effet = "cote", roi = 1 }]\n')[0].number == 5


def test_cards_by_number_or_name_fuzzy_with_did_you_mean():
    state = person(deal(turn_of(game(), B), B, 60, 72), A, cote_roi=0)
    assert orders(state, B, "JOUER n°60 SUR Vilenie")[0].args[0] == 60
    assert orders(state, B, "jouer lettre de cachet sur Vilenie")[0].args[0] == 72
    with refusal(OrderAmbiguousError, "vouliez-vous dire Poison"):
        orders(state, B, "JOUER Poisson SUR Vilenie")
    with refusal(OrderNotAllowedError, "pas de carte « Calomnie »"):
        orders(state, B, "JOUER Calomnie SUR Vilenie")
    with refusal(OrderNotAllowedError, "n'est pas dans votre main"):
        orders(state, B, "JOUER 61 SUR Vilenie")
    with pytest.raises(OrderSyntaxError):
        orders(state, B, "JOUER 999 SUR Vilenie")


def test_characters_by_player_name_address_or_family_and_sovereigns():
    state = own(deal(turn_of(game(), B), B, 60, 61, 62), A, 8)
    assert orders(state, B, "JOUER 60 SUR Madame la Comtesse de la Vilenie")[0].args[1] == A
    assert orders(state, B, "JOUER 60 SUR Vilenie")[0].args[1] == A
    assert orders(state, B, "JOUER 60 SUR Aubigny")[0].args[1] == D
    assert orders(state, B, "PLAY 60 ON the King")[0].args[1] == KING
    assert orders(state, B, "JOUER 60 SUR la Régente")[0].args[1] == QUEEN
    with refusal(OrderAmbiguousError, "vouliez-vous dire"):
        orders(state, B, "JOUER 60 SUR Vilenye")


def test_english_aliases():
    state = deal(turn_of(game(), B), B, 41, 60)
    got = orders(state, B, "PLAY 41 ON me KING", "GIVE Poison TO Vilenie")
    assert [o.verb for o in got] == ["JOUER", "DONNER"] and got[0].args[2] == "roi"


def test_help_lists_lines_that_are_accepted_as_written():
    state = own(turn_of(game(), B), B, 16, 17)
    lines = [h.syntax for h in R.help(state, B)]
    assert "PIOCHER" in lines and "PASSER" in lines and "POUVOIR VERSAILLES | POUVOIR CHASSE" in lines
    for line in ("PIOCHER", "PASSER", "POUVOIR CHASSE", "POUVOIR VERSAILLES"):
        orders(state, B, line)
    assert R.help(state, A) == []  # not A's turn


def test_the_examples_of_the_rules_page_are_accepted_as_written():
    """docs/rules/courtisans.md, « Exemples »: every line is accepted as written in the situation the page gives."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "courtisans.md").read_text("utf-8")
    state = own(own(deal(turn_of(game(), B), B, 41, 8, 60, 72, 97), B, 17, 16), A, 20)
    state = person(state, A, cote_roi=0)
    state = person(person(state, C, status="exil", cote_roi=None, cote_reine=None), D, status="bastille",
                   cote_roi=None, cote_reine=None)
    state = to_maison(state, 14)
    examples = ["PIOCHER", "MAISON 14", "MAISON Duc", "JOUER 41 SUR moi ROI", "JOUER Pension de 1000 livres SUR moi REINE",
                "JOUER Comte SUR Mme de la Vilenie", "JOUER Poison SUR le Roi", "JOUER 72 SUR Vilenie",
                "JOUER Calomnie SUR Vilenie", "DONNER 60 97 A Vilenie", "MARIAGE Vilenie",
                "CHARGE Gouverneur de Bretagne DE Vilenie", "BASTILLE Aubigny", "EXIL Malveyance REINE",
                "RAGOTS Vilenie ROI", "LOUANGES Vilenie REINE", "PASSER", "POUVOIR CHASSE", "EMBASTILLER Vilenie",
                "JUGER Aubigny", "DEFAUSSER 97", "PLAY 41 ON me KING", "GIVE Poison TO Vilenie"]
    for line in examples:
        assert f"`{line}`" in doc, line
        orders(state, B, line)
    for line in ("VERSAILLES", "CHASSE"):
        assert f"`{line}`" in doc
        orders(game(), A, line)
    widowed = turn_of(game(), B)
    widowed = widowed.__class__(**{**widowed.__dict__, "crown": widowed.crown.__class__(queen=False)})
    assert "`PRINCESSE anglaise`" in doc
    orders(widowed, B, "PRINCESSE anglaise")
    dead = person(game(), C, status="mort", cote_roi=None, cote_reine=None)
    assert "`PARTI espagnol`" in doc
    orders(dead, C, "PARTI espagnol")
    for line in ("AMENDE Fourberye 1000", "AVERTISSEMENT Fourberye"):
        assert f"`{line}`" in doc
        R.parse_order(state, MJ, line, [])
