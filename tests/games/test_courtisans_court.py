"""Courtisans: numbered rule cases for « Les situations en cours de jeu », §12 to §19, the wars and the victory.

§12 MARIAGES        §14 EXIL       §16 MORT D'UN COURTISAN (et du Chambellan)   §18 MORT DU ROI
§13 MARIAGE DU ROI  §15 BASTILLE   §17 MORT DE LA REINE                          §19 MORT DU ROI ET DE LA REINE
§20 la guerre et la Cour à la Guerre (« La Cour se déplace à la Guerre tant qu'une guerre est en cours »)
§21 la victoire : le premier à 50 000 livres (la boîte)
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.core import OrderAmbiguousError, OrderNotAllowedError
from pbem.games.courtisans import RULESET as R
from pbem.games.courtisans.etiquette import address

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

ABSENT = {"cote_roi": None, "cote_reine": None}


def married(state, husband=B, wife=A):
    state = person(state, husband, spouse=wife)
    return person(state, wife, spouse=husband, married_name=c(state, husband).family)


def dead_king(state):
    return replace(state, crown=replace(state.crown, king=False, regency_until=state.round + 2),
                   courtiers={p: replace(x, cote_roi=None) for p, x in state.courtiers.items()})


# ---------------------------------------------------------------- §12 MARIAGES


def test_s12_marriage_asked_of_the_king_and_the_spouse_cannot_refuse():
    """« on peut se marier avec un autre personnage, en adressant sa demande au Roi (1 action, jet de dé …).
    Le futur conjoint ne peut pas refuser. »"""
    state = turn_of(game(), B)
    state, events = play(state, B, "MARIAGE Vilenie", "PASSER", dice=Rigged(5))
    assert c(state, B).spouse == A and c(state, A).spouse == B
    assert "Le Roi consent\u00a0: M. de la Fourberye épouse Mme de la Vilenie, désormais Mme de la Fourberye" in text(events)


def test_s12_the_wife_takes_the_name_and_titles_and_the_couple_shares_7000_livres():
    """« le Roi accepte la demande de Mme de la Vilenie (… pension de 2000 livres) d'épouser le Duc de la Fourberye
    (… gouverneur de Normandie, … revenus de 12 000 livres). Mme de la Vilenie doit maintenant être désignée sous le
    nom de Mme la Duchesse de la Fourberye, et touche à son tour (12 000 + 2000)/2 = 7000 livres de revenus, comme
    son mari désormais. »"""
    state = own(own(game(), A, 43), B, 14, 19)
    assert state.cards[43].income == 2000 and state.cards[14].income + state.cards[19].income == 12_000
    state, events = play(state, A, "MARIAGE Duc de la Fourberye", "PASSER", dice=Rigged(5))
    assert address(state, A) == "Mme la Duchesse de la Fourberye"
    assert c(state, A).livres == 7000
    state, events = play(state, B, "PASSER", "PASSER")
    assert c(state, B).livres == 7000
    assert "revenus du couple avec Mme la Duchesse de la Fourberye mis en commun et partagés" in text(events)


def test_s12_no_divorce():
    """« Il n'y a pas de divorce. Seule la disparition d'un des époux met fin au mariage. »"""
    state = married(turn_of(game(), B))
    with refusal(OrderNotAllowedError, "pas de divorce"):
        orders(state, B, "MARIAGE Malveyance")
    with refusal(OrderNotAllowedError, "pas de divorce"):
        orders(turn_of(state, D), D, "MARIAGE Vilenie")


def test_s12_the_wife_dies_the_husband_inherits_nothing_and_earns_his_own_again():
    """« Si l'épouse meurt, le mari n'hérite rien (mais revient à sa situation initiale, et re-touche ses revenus
    initiaux). »"""
    state = deal(married(own(own(turn_of(game(), C), A, 8, 43), B, 19)), C, 60)
    state, events = play(state, C, "JOUER Poison SUR Vilenie", "PASSER", dice=Rigged(1))
    assert c(state, A).status == "mort" and c(state, B).spouse is None
    assert set(state.maison) == {8, 43} and c(state, B).possessions == (19,)
    state, _ = play(state, D, "PASSER", "PASSER")  # then A's closing turn is skipped: A is dead
    assert (state.round, state.slot.player, state.slot.kind) == (2, B, "first")
    state, _ = play(state, B, "PASSER", "PASSER")
    assert c(state, B).livres == 6000  # his own Normandie, not halved


def test_s12_the_husband_dies_the_wife_takes_his_titles_not_his_charges_nor_pensions():
    """« Si le mari meurt, l'épouse récupère ses titres (pas ses charges ni ses pensions) et les revenus qui en
    découlent. » ; « MORT D'UN COURTISAN : ses titres de noblesse vont à son épouse »"""
    state = deal(married(own(own(turn_of(game(), C), A, 43), B, 14, 19, 37)), C, 60)
    with refusal(OrderAmbiguousError, "écrivez le nom du joueur"):  # husband and wife: both « de la Fourberye »
        orders(state, C, "JOUER Poison SUR Fourberye")
    state, events = play(state, C, "JOUER Poison SUR M. le Duc de la Fourberye", "PASSER", dice=Rigged(2))
    assert c(state, B).status == "mort" and set(c(state, A).possessions) == {43, 14}
    assert set(state.maison) == {19, 37}
    assert address(state, A) == "Mme la Duchesse de la Fourberye"  # a widow keeps the name and now holds the title
    assert "Ses titres vont à son épouse, Mme la Duchesse de la Fourberye\u00a0: Duc (n° 14)" in text(events)


def test_s12_a_spouse_in_the_bastille_earns_nothing_the_other_earns_all_of_his_own():
    """« Si un des époux est embastillé, ses revenus sont bloqués ; l'époux non-embastillé touche l'intégralité de ses
    propres revenus. »"""
    state = married(own(own(turn_of(game(), B), A, 43), B, 19))
    state = person(state, A, status="bastille", **ABSENT)
    state, _ = play(state, B, "PASSER", "PASSER")
    assert c(state, B).livres == 6000
    state = turn_of(state, A, "closing")
    state, events = play(state, A, "PIOCHER", "PIOCHER")
    assert c(state, A).livres == 0 and first(events, "income").data["jailed"]


def test_s12_an_exile_cannot_marry():
    """« EXIL : … il ne peut pas se marier »"""
    state = person(turn_of(game(), B), A, status="exil", **ABSENT)
    with refusal(OrderNotAllowedError, "un exilé ne peut pas se marier"):
        orders(state, B, "MARIAGE Vilenie")


# ---------------------------------------------------------------- §13 MARIAGE DU ROI


def test_s13_widowed_king_remarries_a_foreign_princess_cotes_with_her_drawn_again():
    """« si la Reine meurt, le Roi reste veuf, tant qu'un courtisan ne lui propose pas d'épouser une princesse
    étrangère … la nouvelle Reine arrive immédiatement (le MJ tire à nouveau un dé pour déterminer la cote de chacun
    des courtisans auprès de la Reine ; bonus de +2 aux courtisans du même parti que la Reine) »"""
    state = deal(turn_of(game(), B), B, 68)
    state, events = play(state, B, "JOUER Mort de la Reine SUR la Reine", "PRINCESSE anglaise", dice=Rigged(2, 4))
    assert state.crown.queen and state.crown.queen_nation == "anglais"
    assert kinds(events).index("queen_died") < kinds(events).index("king_remarried")
    cotes = [e for e in events if e.kind == "cotes"]
    assert [e.data["who"]["player"] for e in cotes] == [A, B, C, D]
    bonus = [e for e in events if e.kind == "cote_bonus"]
    assert [e.audience.players for e in bonus] == [(B,)]  # B alone is of the English party, and alone is told
    assert all(c(state, p).cote_reine is not None for p in state.seats)


def test_s13_no_foreign_princess_after_the_secret_marriage_with_the_favorite():
    """« Le mariage du Roi avec une princesse étrangère est impossible s'il s'est marié avec la Favorite à la suite
    de la carte Mariage secret. »"""
    state = deal(own(turn_of(game(), B), A, 51), B, 68, 55)
    state, _ = play(state, B, "JOUER 68 SUR REINE", "JOUER Mariage secret SUR Vilenie", dice=Rigged(1))
    assert state.crown.secret_wife == A
    state = turn_of(state, D)
    with refusal(OrderNotAllowedError, "épousé sa Favorite en secret"):
        orders(state, D, "PRINCESSE espagnole")
    with refusal(OrderNotAllowedError, "Favorite a épousé le Roi en secret"):
        orders(state, D, "MARIAGE Vilenie")


# ---------------------------------------------------------------- §14 EXIL


def test_s14_exile_no_cote_charges_to_the_maison_not_favorite_keeps_titles_and_marechalat():
    """« il n'a plus de cote auprès du Roi et de la Reine … ses charges lui sont retirées (vont à la Maison du Roi) ;
    n'est plus Favorite ou Amant de la Reine (cartes défaussées) - il conserve ses titres (+ le maréchalat) et les
    revenus qui vont avec »"""
    state = person(own(deal(turn_of(game(), B), B, 79), A, 8, 20, 51, 43), A, cote_roi=3)
    state, events = play(state, B, "JOUER Disgrâce SUR Vilenie", "PASSER", dice=Rigged(2))
    assert c(state, A).status == "exil" and c(state, A).cote_roi is None and c(state, A).cote_reine is None
    assert 20 in state.maison and 51 in state.discard
    assert set(c(state, A).possessions) == {8, 43}  # title, and the pension (option exile_keeps_pensions)
    state = turn_of(state, A, "closing")
    state, events = play(state, A, "PIOCHER", "PIOCHER")
    assert c(state, A).livres == 3000 + 2000


def test_s14_exile_may_draw_give_and_play_a_card_but_not_a_request_nor_an_audience():
    """« les actions qu'il peut faire : tirer une carte de la pioche générale / donner 1 ou 2 cartes à un autre joueur
    / jouer une carte (sauf celles portant la condition REQUETE) »"""
    state = to_maison(deal(person(turn_of(game(), B), B, status="exil", **ABSENT), B, 97, 8, 60), 9)
    orders(state, B, "PIOCHER", "DONNER 8 A Vilenie")
    orders(state, B, "JOUER Calomnie SUR Vilenie")
    with refusal(OrderNotAllowedError, "REQUETE"):
        orders(state, B, "JOUER Comte SUR moi")
    with refusal(OrderNotAllowedError, "à la Cour"):
        orders(state, B, "MAISON 9")
    for line in ("RAGOTS Vilenie ROI", "MARIAGE Vilenie", "CHARGE 19"):
        with pytest.raises(OrderNotAllowedError):
            orders(state, B, line)


def test_s14_end_of_exile_gloire_aux_colonies_by_himself_or_another():
    """« Fin de l'exil : carte Gloire aux colonies (jouée par lui-même, ou sur lui par un autre joueur) »"""
    for player in (A, B):
        state = person(deal(turn_of(game(), player), player, 77), A, status="exil", **ABSENT)
        target = "moi" if player == A else "Vilenie"
        state, events = play(state, player, f"JOUER Gloire aux colonies SUR {target}", "PASSER")
        assert c(state, A).status == "cour" and c(state, A).cote_roi is not None  # cotes drawn again (ruling)


def test_s14_end_of_exile_by_the_audience_of_another_player_not_his_own():
    """« audience réussie d'un autre joueur auprès du Roi ou de la Reine pour le faire revenir »"""
    state = person(turn_of(game(), B), A, status="exil", **ABSENT)
    state, _ = play(state, B, "EXIL Vilenie ROI", "PASSER", dice=Rigged(5))
    assert c(state, A).status == "cour"
    state = person(turn_of(game(), A), A, status="exil", **ABSENT)
    with pytest.raises(OrderNotAllowedError):
        orders(state, A, "EXIL moi ROI")


def test_s14_end_of_exile_by_death_of_his_own_character():
    """« mort de son propre personnage (par une carte jouée sur lui-même, ou jouée à son encontre …) »"""
    state = deal(person(turn_of(game(), B), B, status="exil", **ABSENT), B, 60)
    state, _ = play(state, B, "JOUER Poison SUR moi", "PASSER", dice=Rigged(1))
    assert c(state, B).status == "mort"


def test_s14_cote_on_return_option_keep():
    state = person(own(deal(turn_of(game(cote_on_return="keep"), B), B, 79), A, 8), A, cote_roi=3, cote_reine=7)
    state, _ = play(state, B, "JOUER 79 SUR Vilenie", "PASSER", dice=Rigged(1))
    state = turn_of(state, C)
    state, _ = play(state, C, "EXIL Vilenie REINE", "PASSER", dice=Rigged(1, 1))
    assert (c(state, A).cote_roi, c(state, A).cote_reine) == (3, 7)


# ---------------------------------------------------------------- §15 BASTILLE


def test_s15_lettre_de_cachet_sends_a_victim_of_cote_zero_or_less_to_the_bastille():
    """« notamment de la Lettre de cachet (si le courtisan 'victime' a une cote de 0, -1 ou -2 auprès du Roi, et si le
    courtisan qui joue la carte réussit sa requête auprès du Roi ou de la Reine) »"""
    state = person(own(deal(turn_of(game(), B), B, 72), A, 19, 8), A, cote_roi=0)
    state, events = play(state, B, "JOUER Lettre de cachet SUR Vilenie REINE", "PASSER", dice=Rigged(3, 4))
    assert c(state, A).status == "bastille" and 19 in state.maison and 8 in c(state, A).possessions
    with refusal(OrderNotAllowedError, "cote Roi maximum 0"):
        orders(deal(turn_of(state, C), C, 73), C, "JOUER 73 SUR Aubigny")


def test_s15_in_the_bastille_no_income_only_justice_may_be_played():
    """« idem que pour l'exil mais en plus : ne touche plus ses revenus et ne peut plus jouer de carte … les actions
    qu'il peut faire : tirer une carte … donner 1 ou 2 cartes … + 1 seule carte qu'il peut jouer : Justice »"""
    state = own(deal(person(turn_of(game(), B), B, status="bastille", **ABSENT), B, 75, 97, 77), B, 8)
    with refusal(OrderNotAllowedError, "que Justice"):
        orders(state, B, "JOUER Calomnie SUR Vilenie")
    orders(state, B, "PIOCHER", "DONNER 97 77 A Vilenie")
    state, events = play(state, B, "JOUER Justice SUR moi", "PASSER")
    assert c(state, B).status == "cour" and c(state, B).livres == 3000  # freed before the end of the turn


def test_s15_end_of_bastille_by_audience_with_the_king_or_the_chancellors_judgement():
    """« audience réussie d'un autre joueur auprès du Roi pour le faire revenir / … jugement décidé par le joueur qui a
    la charge de Chancelier »"""
    state = person(turn_of(game(), B), A, status="bastille", **ABSENT)
    state, events = play(state, B, "BASTILLE Vilenie", "PASSER", dice=Rigged(4))
    assert c(state, A).status == "cour" and first(events, "released").data["how"] == "audience"


def test_s15_death_in_the_bastille_by_a_card_of_another_player():
    """« mort de son propre personnage (par une carte jouée par un autre joueur à son encontre) »"""
    state = deal(person(turn_of(game(), B), A, status="bastille", **ABSENT), B, 60)
    state, _ = play(state, B, "JOUER Poison SUR Vilenie", "PASSER", dice=Rigged(3))
    assert c(state, A).status == "mort"


# ---------------------------------------------------------------- §16 MORT D'UN COURTISAN


def test_s16_death_everything_to_the_maison_favorite_discarded_livres_kept():
    """« pour tous les autres cas (titres de noblesse si femme, homme non-marié + charges, pensions, maréchalat) :
    elles vont à la Maison du Roi - si Favorite ou Amant de la Reine : carte défaussées - conserve ses revenus acquis »"""
    state = person(own(deal(turn_of(game(), B), B, 60), A, 8, 19, 43, 51), A, livres=12_000)
    state, events = play(state, B, "JOUER Poison SUR Vilenie", "PASSER", dice=Rigged(1))
    assert set(state.maison) == {8, 19, 43} and 51 in state.discard and c(state, A).livres == 12_000
    assert kinds(events).index("died") < kinds(events).index("to_maison")


def test_s16_comes_back_after_the_new_chambellan_opposite_sex_chosen_parti_new_cotes():
    """« rentre dans le jeu à la phase de présentation des nouveaux courtisans : c'est-à-dire juste après qu'un nouveau
    joueur soit devenu Chambellan - revient avec le sexe opposé, peut choisir librement son parti, le MJ détermine aux
    dés ses nouvelles cotes - rejoue à son tour normal »"""
    state = deal(turn_of(game(), B), B, 60)
    state, _ = play(state, B, "JOUER Poison SUR Malveyance", "PASSER", dice=Rigged(1))
    order = R.parse_order(state, C, "PARTI anglais", [])
    state, told = R.immediate(state, C, order, Rigged())
    assert told[0].audience.players == (C,)
    with pytest.raises(OrderNotAllowedError):
        R.parse_order(state, B, "PARTI anglais", [])  # the living keep their parti
    assert R.prompts(state)[0].player == D  # C's turn of this round is skipped
    for p in (D, A):
        state, events = play(state, p, "PASSER", "PASSER")
    assert state.round == 2 and c(state, C).status == "cour" and c(state, C).sex == "homme"
    assert c(state, C).parti == "anglais" and c(state, C).generation == 2
    ks = kinds(events)
    assert ks.index("round_started") < ks.index("newcomer") < ks.index("cotes")
    assert address(state, C) == "M. de Malveyance"
    assert [s.player for s in state.queue] == [B, C, D, A, B]


def test_s16_death_of_the_chambellan_loses_his_closing_turn_keeps_his_income():
    """« Cas de la mort du Chambellan : il perd le tour de jeu supplémentaire … Il touche quand même ses revenus liés à
    son tour « normal », mais ne peut pas utiliser un pouvoir lié à sa charge, qu'il n'aurait pas utilisé »"""
    state = own(game(), A, 8)
    state, _ = play(state, A, "PASSER", "PASSER")
    assert c(state, A).livres == 3000
    state = deal(state, B, 60)
    state, _ = play(state, B, "JOUER Poison SUR Vilenie", "PASSER", dice=Rigged(1))
    for p in (C, D):
        state, events = play(state, p, "PASSER", "PASSER")
    assert state.round == 2 and "turn_skipped" in kinds(events) and c(state, A).livres == 3000


# ---------------------------------------------------------------- §17 MORT DE LA REINE


def test_s17_queen_dies_no_cote_no_request_to_her_no_lover_king_widowed():
    """« plus de Reine (donc plus de cote auprès de la Reine, donc plus de requête possible auprès d'elle) - plus
    d'Amant de la Reine (carte défaussée) - le roi est veuf et peut se remarier »"""
    state = own(deal(turn_of(game(), B), B, 63, 41), D, 53)
    state = replace(state, court="chasse")
    state, events = play(state, B, "JOUER Accident de chasse SUR REINE", "PASSER", dice=Rigged(2))
    assert not state.crown.queen and state.crown.widowed and 53 in state.discard
    assert all(c(state, p).cote_reine is None for p in state.seats)
    state = turn_of(state, B)
    with refusal(OrderNotAllowedError, "pas de Reine"):
        orders(state, B, "JOUER 41 SUR moi REINE")


# ---------------------------------------------------------------- §18 MORT DU ROI


def test_s18_king_dies_no_favorite_white_peace_back_to_versailles_regency():
    """« plus de Roi … plus de Favorite (carte défaussée) - toutes les guerres en cours sont conclues par une paix
    blanche (pas de variation de cote pour les maréchaux et le secrétaire d'état à la guerre) et la Cour revient
    immédiatement à Versailles - … la Reine devient Régente »"""
    state = own(own(deal(turn_of(game(), B), B, 67), A, 51), D, 34, 1)
    state = replace(state, wars=("espagnol",))
    state, events = play(state, B, "JOUER Mort du Roi SUR ROI", "PASSER", dice=Rigged(3))
    assert not state.crown.king and state.crown.regent and state.crown.regency_until == 3
    assert 51 in state.discard and state.wars == () and state.place == "versailles"
    assert c(state, D).cote_roi is None and c(state, D).cote_reine == 5  # white peace: no cote change
    assert all(c(state, p).cote_roi is None for p in state.seats)


def test_s18_during_the_regency_requests_go_to_the_regent_on_the_queen_cote():
    """« toutes les requêtes devant être en temps normal adressées au Roi sont adressées à elle, sur base de la cote des
    joueurs auprès de la Reine »"""
    state = person(deal(dead_king(turn_of(game(), B)), B, 41), B, cote_reine=3)
    state, events = play(state, B, "JOUER 41 SUR moi ROI", "PASSER", dice=Rigged(3))
    request = first(events, "request").data
    assert request["sovereign"] == "regente" and request["rolls"] == [{"sovereign": "regente", "die": 3, "cote": 3,
                                                                       "ok": True}]
    assert 41 in c(state, B).possessions
    state = turn_of(state, C)
    state, _ = play(state, C, "RAGOTS Vilenie ROI", "PASSER", dice=Rigged(9))
    assert c(state, C).cote_reine == 4  # refused by the Régente: the cote with her


def test_s18_the_regency_lasts_to_the_end_of_the_next_round_then_two_new_sovereigns():
    """« jusqu'à la fin du tour (jusqu'à la désignation du nouveau chambellan) + tout le tour suivant … à la fin de la
    Régence : deux nouveaux souverains montent sur le trône : les courtisans en exil ou embastillés reviennent à la
    Cour, de même que les nouveaux courtisans, on re-détermine les cotes de chacun »"""
    state = deal(turn_of(game(), B), B, 67)
    state = person(person(state, C, status="exil", **ABSENT), A, status="bastille", **ABSENT)
    state, _ = play(state, B, "JOUER Mort du Roi SUR le Roi", "PASSER", dice=Rigged(1))
    for _ in range(3 + 5):  # the rest of round 1, then all of round 2
        assert state.crown.regent
        player = state.slot.player
        state, events = play(state, player, "PASSER", "PASSER")
    assert state.round == 3 and state.crown.king and state.crown.queen and state.crown.reign == 2
    assert all(c(state, p).status == "cour" and c(state, p).cote_roi is not None for p in state.seats)
    assert "new_sovereigns" in kinds(events)


# ---------------------------------------------------------------- §19 MORT DU ROI ET DE LA REINE


def test_s19_widowed_king_dies_the_round_stops_at_once_new_chambellan_new_sovereigns():
    """« le tour de jeu cesse immédiatement. Les joueurs qui devaient encore jouer durant ce tour ne le peuvent pas, et
    ne toucheront pas de revenus pour ce tour. … Les guerres en cours se terminent par une paix blanche, la Cour
    revient à Versailles. Le tour passe au nouveau chambellan, deux nouveaux souverains montent sur le trône »"""
    state = own(deal(turn_of(game(), B), B, 67, 41), D, 19)
    state = replace(state, crown=replace(state.crown, queen=False), wars=("anglais",))
    state = person(state, D, status="exil", **ABSENT)
    state, events = play(state, B, "JOUER Mort du Roi SUR ROI", "JOUER 41 SUR moi", dice=Rigged(2))
    ks = kinds(events)
    assert "round_stops" in ks and ks.count("action_lost") == 1 and "income" in ks  # B's own turn income (ruling)
    assert state.round == 2 and state.slot.player == B and state.slot.kind == "first"
    assert c(state, D).livres == 0 and c(state, D).status == "cour" and state.wars == ()
    assert state.crown.king and state.crown.queen
    assert [p["player"] for p in first(events, "round_stops").data["skipped"]] == [C, D, A]
    assert "Le tour de jeu cesse immédiatement\u00a0: Mme de Malveyance, M. d'Aubigny et Mme de la Vilenie ne joueront pas " \
           "et ne toucheront pas de revenus cette manche." in text(events)


def test_s19_the_regent_dies_same_as_both_sovereigns():
    """« MORT DU ROI ET DE LA REINE (= MORT D'UNE REGENTE …) »"""
    state = deal(dead_king(turn_of(game(), B)), B, 60)
    state, events = play(state, B, "JOUER Poison SUR la Régente", "PASSER", dice=Rigged(1))
    assert "round_stops" in kinds(events) and state.round == 2 and state.crown.king and state.crown.queen


def test_s19_king_secretly_married_to_the_favorite_dies_same_as_both():
    """« (= … MORT D'UN ROI VEUF ou MARIE SECRETEMENT A LA FAVORITE) »"""
    state = own(deal(turn_of(game(), B), B, 60), A, 51)
    state = replace(state, crown=replace(state.crown, queen=False, secret_wife=A))
    state, events = play(state, B, "JOUER Poison SUR ROI", "PASSER", dice=Rigged(1))
    assert first(events, "king_died").data["secret"] and "round_stops" in kinds(events)
    assert state.crown.secret_wife is None and state.round == 2


# ---------------------------------------------------------------- §20 wars


def test_s20_a_declared_war_sends_the_court_to_war_until_won_or_lost():
    """« La Cour se déplace à la Guerre tant qu'une guerre est en cours, et ne rentre à Versailles qu'une fois le conflit
    fini (par une carte La guerre est gagnée/perdue) »"""
    state = own(own(deal(turn_of(game(), B), B, 84, 85), D, 34, 1), A, 18)
    state, events = play(state, B, "JOUER Déclaration de guerre à l'Espagne", "JOUER La guerre est gagnée")
    assert state.place == "versailles" and state.wars == ()
    assert (c(state, D).cote_roi, c(state, A).cote_roi) == (6, 6)  # Spanish party -1 at the declaration, army +2
    assert (c(state, D).livres, c(state, A).livres) == (2000, 2000)
    assert "La guerre contre l'Espagne est gagnée. La Cour rentre à Versailles." in text(events)


def test_s20_at_war_neither_the_chambellan_nor_the_maitre_de_la_chasse_moves_the_court():
    state = replace(own(game(), A, 16), wars=("anglais",))
    with refusal(OrderNotAllowedError, "la Cour est à la Guerre"):
        orders(state, A, "CHASSE")
    state, events = play(state, A, "PASSER", "PASSER")
    assert state.place == "guerre" and "court_at_war" in kinds(events)


def test_s20_a_lost_war_costs_the_army_two_points():
    state = own(deal(turn_of(game(), B), B, 88), D, 34, 1)
    state = replace(state, wars=("hollandais",))
    state, _ = play(state, B, "JOUER La guerre est perdue", "PASSER")
    assert c(state, D).cote_roi == 3 and state.place == "versailles"


# ---------------------------------------------------------------- §21 victory


def test_s21_the_first_to_50000_livres_at_the_end_of_a_turn_wins():
    """The box: « be the first to amass 50,000 livres »."""
    state = person(own(turn_of(game(), B), B, 19), B, livres=44_000)
    state, events = play(state, B, "PASSER", "PASSER")
    assert state.over and state.winners == (B,) and R.prompts(state) == []
    outcome = R.outcome(state)
    assert outcome is not None and outcome.winners == (B,)
    assert outcome.summary.fr == "M. de la Fourberye a amassé 50\u202f000 livres et remporte la partie."


def test_s21_reached_outside_ones_turn_counts_at_the_end_of_that_turn_richest_wins_ties_shared():
    """Ruling: checked at the end of every player turn; the richest of those at 50 000 or more wins; ties share."""
    state = person(deal(turn_of(game(), B), B, 105), A, livres=49_000)
    state, events = play(state, B, "JOUER Héritage SUR Vilenie", "PASSER", dice=Rigged(4))  # +4 × 500
    assert state.over and state.winners == (A,) and c(state, A).livres == 51_000
    state = person(person(deal(turn_of(game(), B), B, 105), A, livres=49_000), D, livres=52_000)
    state, events = play(state, B, "JOUER Héritage SUR Vilenie", "PASSER", dice=Rigged(4))
    assert state.winners == (D,)
    state = person(person(turn_of(game(), B), A, livres=60_000), D, livres=60_000)
    state, events = play(state, B, "PASSER", "PASSER")
    assert state.winners == (A, D) and "Victoire partagée" in text(events)


def test_s21_round_limit_the_richest_wins():
    state = person(game(max_rounds=1), C, livres=9000)
    for p in (A, B, C, D, A):
        state, events = play(state, p, "PASSER", "PASSER")
    assert state.over and state.winners == (C,) and first(events, "game_over").data["reason"] == "rounds"


def test_option_public_fortunes_off_keeps_incomes_and_fortunes_private():
    from pbem.core import PUBLIC

    state = own(turn_of(game(public_fortunes=False), B), B, 19)
    state, events = play(state, B, "PASSER", "PASSER")
    income = first(events, "income")
    assert income.audience.players == (B,) and c(state, B).livres == 6000
    assert all(x["livres"] is None for x in R.view(state, PUBLIC)["courtiers"])
    assert [x["livres"] for x in R.view(state, B)["courtiers"] if x["player"] == B] == [6000]


def test_option_public_partis_shows_every_parti():
    from pbem.core import PUBLIC

    assert [x["parti"] for x in R.view(game(public_partis=True), PUBLIC)["courtiers"]] == \
        ["espagnol", "anglais", "hollandais", "espagnol"]
    assert all(x["parti"] is None for x in R.view(game(), PUBLIC)["courtiers"])
