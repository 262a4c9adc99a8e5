"""What the rules allow now, and why not: one function per kind of action, each returning None or a `Msg`.

The order parser uses them to refuse a line with a clear reason; the resolution uses them again,
because the first action of a turn can change what the second may do (a target may have died).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core import Msg
from pbem.games.courtisans.cards import Card
from pbem.games.courtisans.court import can_marry
from pbem.games.courtisans.etiquette import address, title_word
from pbem.games.courtisans.requests import can_ask
from pbem.games.courtisans.state import (
    BASTILLE,
    DEAD,
    EXILE,
    KING,
    QUEEN,
    CourtState,
    cote,
    favorite,
    holder,
    interrupted,
    lover,
    power_holder,
)

_COTE = re.compile(r"^cote_(roi|reine)(>=|<=)(-?\d+)$")


def name(state: CourtState, target: str) -> str:
    if target == KING:
        return "le Roi"
    if target == QUEEN:
        return "la Régente" if state.crown.regent else "la Reine"
    return address(state, target)


def _status_msg(state: CourtState, player: str, status: str) -> Msg:
    who = name(state, player)
    f = state.courtiers[player].woman if player in state.courtiers else False
    e = "e" if f else ""
    if status == EXILE:
        return Msg(f"{who} est exilé{e}", f"{who} is in exile")
    if status == BASTILLE:
        return Msg(f"{who} est à la Bastille", f"{who} is in the Bastille")
    if status == DEAD:
        return Msg(f"{who} est mort{e}", f"{who} is dead")
    if status == "no_king":
        return Msg("il n'y a pas de Roi", "there is no King")
    if status == "no_queen":
        return Msg("il n'y a pas de Reine", "there is no Queen")
    return Msg(f"{who} n'a pas de cote auprès de ce souverain", f"{who} has no cote with that sovereign")


def meets(state: CourtState, subject: str, condition: str, player: str) -> bool:
    """Does ``subject`` (a courtisan, the King or the Queen) meet a card's condition?"""
    if subject in (KING, QUEEN):
        return condition == ("homme" if subject == KING else "femme") or (condition == "autre")
    c = state.courtiers[subject]
    found = _COTE.match(condition)
    if found:
        value = cote(state, subject, found.group(1)) if c.at_court else None
        bound = int(found.group(3))
        return value is not None and (value >= bound if found.group(2) == ">=" else value <= bound)
    checks = {
        "homme": not c.woman, "femme": c.woman, "titre": title_word(state, subject) is not None,
        "empoisonneuse": c.poisoner, "favorite": favorite(state) == subject, "amant": lover(state) == subject,
        "exile": c.status == EXILE, "bastille": c.status == BASTILLE, "absent": c.status in (EXILE, BASTILLE),
        "a_la_cour": c.at_court, "marie": c.spouse is not None, "celibataire": c.spouse is None,
        "autre": subject != player,
    }
    return checks[condition]


def _condition_refusal(state: CourtState, subject: str, condition: str, role: str) -> Msg:
    """``role``: ``cible`` (the card's target), ``joueur`` (who plays it) or ``titulaire`` (who asks for a charge)."""
    from pbem.games.courtisans.cards import condition_name

    label = condition_name(condition)
    if condition == "autre":
        return Msg("cette carte se joue sur un autre que vous", "this card is played on someone else")
    who = name(state, subject)
    if role == "joueur":
        return Msg(f"cette carte ne peut être jouée que par un personnage {label.fr} ({who} ne l'est pas)",
                   f"this card can only be played by a character {label.en} ({who} is not)")
    if role == "titulaire":
        return Msg(f"cette charge demande un titulaire {label.fr} ({who} ne l'est pas)",
                   f"this charge needs a holder {label.en} ({who} is not)")
    return Msg(f"cette carte demande une cible {label.fr} ({who} ne l'est pas)",
               f"this card needs a target {label.en} ({who} is not)")


def state_refusal(state: CourtState, card: Card) -> Msg | None:
    crown = state.crown
    for s in card.state:
        if s == "roi" and not crown.king:
            return Msg("il n'y a pas de Roi", "there is no King")
        if s == "reine" and not crown.queen:
            return Msg("il n'y a pas de Reine", "there is no Queen")
        if s == "roi_veuf" and not (crown.widowed and not crown.secret_wife):
            return Msg("le Roi n'est pas veuf (ou il est marié en secret)",
                       "the King is not a widower (or is secretly married)")
        if s == "guerre" and not state.wars:
            return Msg("le royaume n'est pas en guerre", "the kingdom is not at war")
        if s == "paix" and state.wars:
            return Msg("le royaume est en guerre", "the kingdom is at war")
    return None


def play_refusal(state: CourtState, player: str, card: Card, target: str, sovereign: str) -> Msg | None:
    """Why ``player`` may not play ``card`` on ``target`` (asking ``sovereign`` if it is a REQUETE) now."""
    c = state.courtiers[player]
    if card.number not in c.hand:
        return Msg(f"vous n'avez pas la carte {card.label()} en main", f"you do not hold card {card.label()}")
    if c.status == DEAD:
        return _status_msg(state, player, DEAD)
    if c.status == BASTILLE and not card.from_bastille:
        return Msg("à la Bastille, on ne peut jouer que Justice", "in the Bastille, only Justice may be played")
    if c.status == EXILE and card.request:
        return Msg("un exilé ne peut pas jouer de carte REQUETE", "an exile cannot play a REQUEST card")
    if card.place and state.place != card.place:
        where = {"versailles": "à Versailles", "chasse": "à la Chasse", "guerre": "à la Guerre"}
        here = where[state.place]
        where_en = {"versailles": "at Versailles", "chasse": "at the Hunt", "guerre": "at War"}
        return Msg(f"cette carte se joue quand la Cour est {where[card.place]} ; elle est {here}",
                   f"this card is played when the Court is {where_en[card.place]}; it is {where_en[state.place]}")
    refusal = state_refusal(state, card)
    if refusal:
        return refusal
    for condition in card.player:
        if not meets(state, player, condition, player):
            return _condition_refusal(state, player, condition, "joueur")
    refusal = _target_refusal(state, player, card, target)
    if refusal:
        return refusal
    if card.request:
        why = can_ask(state, player, sovereign or "roi")  # a REQUETE goes to the King unless it names the Queen
        if why:
            return _status_msg(state, player, why)
    return None


def _target_refusal(state: CourtState, player: str, card: Card, target: str) -> Msg | None:
    if card.target == "aucune":
        return None if not target else Msg("cette carte ne se joue sur personne : « JOUER <carte> »",
                                           "this card is played on nobody: 'PLAY <card>'")
    if not target:
        return Msg("sur qui ? « JOUER <carte> SUR <personnage> »", "on whom? 'PLAY <card> ON <character>'")
    if target == KING and (card.target not in ("roi", "personnage") or not state.crown.king):
        return Msg("cette carte ne se joue pas sur le Roi" if state.crown.king else "il n'y a pas de Roi",
                   "this card is not played on the King" if state.crown.king else "there is no King")
    if target == QUEEN and (card.target not in ("reine", "personnage") or not state.crown.queen):
        return Msg("cette carte ne se joue pas sur la Reine" if state.crown.queen else "il n'y a pas de Reine",
                   "this card is not played on the Queen" if state.crown.queen else "there is no Queen")
    if target not in (KING, QUEEN):
        if card.target in ("roi", "reine"):
            return Msg("cette carte se joue sur le Roi" if card.target == "roi" else "cette carte se joue sur la Reine",
                       f"this card is played on the {'King' if card.target == 'roi' else 'Queen'}")
        t = state.courtiers[target]
        if not t.alive:
            return _status_msg(state, target, DEAD)
        if card.kind in ("charge", "favorite", "amant") and not t.at_court:
            return Msg(f"{name(state, target)} n'est pas à la Cour", f"{name(state, target)} is not at Court")
    for condition in card.conditions:
        if not meets(state, target, condition, player):
            return _condition_refusal(state, target, condition, "cible")
    if card.kind == "favorite" and favorite(state) == target:
        return Msg(f"{name(state, target)} est déjà la Favorite", f"{name(state, target)} already is the Favourite")
    if card.kind == "amant" and lover(state) == target:
        return Msg(f"{name(state, target)} est déjà l'Amant de la Reine",
                   f"{name(state, target)} already is the Queen's Lover")
    return None


def audience_refusal(state: CourtState, player: str, sovereign: str) -> Msg | None:
    """The six audiences and ragots need the asker at Court with a cote with that sovereign."""
    why = can_ask(state, player, sovereign)
    return _status_msg(state, player, why) if why else None


def marriage_refusal(state: CourtState, player: str, other: str) -> Msg | None:
    if other in (KING, QUEEN):
        return Msg("on ne demande pas la main d'un souverain", "one does not ask for a sovereign's hand")
    refusal = audience_refusal(state, player, "roi")
    if refusal:
        return refusal
    why = can_marry(state, player, other)
    texts = {
        "self": Msg("on ne s'épouse pas soi-même", "you cannot marry yourself"),
        "absent": Msg(f"{name(state, other)} n'est pas à la Cour (un exilé ne peut pas se marier)",
                      f"{name(state, other)} is not at Court (an exile cannot marry)"),
        "same_sex": Msg("le Roi ne consent qu'au mariage d'un homme et d'une femme",
                        "the King only consents to the marriage of a man and a woman"),
        "married": Msg("l'un de vous deux est déjà marié, et il n'y a pas de divorce",
                       "one of you is already married, and there is no divorce"),
        "secret_wife": Msg("la Favorite a épousé le Roi en secret", "the Favourite secretly married the King"),
    }
    return texts[why] if why else None


def charge_refusal(state: CourtState, player: str, number: int) -> Msg | None:
    card = state.cards[number]
    if card.kind != "charge":
        return Msg(f"{card.label()} n'est pas une charge (ni titre ni maréchalat ne se demandent ainsi)",
                   f"{card.label()} is not a charge (titles and marshal's batons cannot be asked for)")
    refusal = audience_refusal(state, player, "roi")
    if refusal:
        return refusal
    owner = holder(state, number)
    if owner is None or owner == player:
        return Msg(f"personne d'autre que vous ne détient {card.label()}", f"nobody else holds {card.label()}")
    if state.options.charge_conditions == "refus":
        return charge_unmet(state, player, number)
    return None


def charge_unmet(state: CourtState, player: str, number: int) -> Msg | None:
    """Which condition of the charge ``player`` does not meet to hold it (« Homme, Femme : … ne peut être jouée que
    sur un personnage masculin, ou féminin »: the conditions of a card say who may hold it), or None."""
    for condition in state.cards[number].conditions:
        if not meets(state, player, condition, player):
            return _condition_refusal(state, player, condition, "titulaire")
    return None


def princess_refusal(state: CourtState, player: str) -> Msg | None:
    crown = state.crown
    if not crown.king:
        return Msg("il n'y a pas de Roi à remarier", "there is no King to marry")
    if crown.queen:
        return Msg("le Roi n'est pas veuf", "the King is not a widower")
    if crown.secret_wife:
        return Msg("le Roi a épousé sa Favorite en secret : plus de princesse étrangère",
                   "the King secretly married his Favourite: no foreign princess any more")
    return audience_refusal(state, player, "roi")


def release_refusal(state: CourtState, player: str, other: str) -> Msg | None:
    if other in (KING, QUEEN) or other == player:
        return Msg("demandez la libération d'un autre courtisan", "ask for another courtier's release")
    if state.courtiers[other].status != BASTILLE:
        return Msg(f"{name(state, other)} n'est pas à la Bastille", f"{name(state, other)} is not in the Bastille")
    return audience_refusal(state, player, "roi")


def recall_refusal(state: CourtState, player: str, other: str, sovereign: str) -> Msg | None:
    if other in (KING, QUEEN) or other == player:
        return Msg("demandez le retour d'un autre courtisan", "ask for another courtier's return")
    if state.courtiers[other].status != EXILE:
        return Msg(f"{name(state, other)} n'est pas en exil", f"{name(state, other)} is not in exile")
    return audience_refusal(state, player, sovereign)


def gossip_refusal(state: CourtState, player: str, other: str, sovereign: str) -> Msg | None:
    if other in (KING, QUEEN):
        return Msg("les souverains n'ont pas de cote", "the sovereigns have no cote")
    if other == player:
        return Msg("on parle d'un autre courtisan, pas de soi", "you speak of another courtier, not of yourself")
    refusal = audience_refusal(state, player, sovereign)
    if refusal:
        return refusal
    if cote(state, other, sovereign) is None or not state.courtiers[other].at_court:
        return Msg(f"{name(state, other)} n'a pas de cote auprès de ce souverain",
                   f"{name(state, other)} has no cote with that sovereign")
    return None


def maison_refusal(state: CourtState, player: str, number: int) -> Msg | None:
    c = state.courtiers[player]
    if not c.at_court:
        return Msg("la Maison du Roi est à Versailles : il faut être à la Cour",
                   "the King's Household is at Versailles: you must be at Court")
    if number not in state.maison:
        return Msg(f"{state.cards[number].label()} n'est pas dans la Maison du Roi",
                   f"{state.cards[number].label()} is not in the King's Household")
    return None


def gift_refusal(state: CourtState, player: str, numbers: list[int], other: str) -> Msg | None:
    if other in (KING, QUEEN) or other == player:
        return Msg("on donne ses cartes à un autre joueur", "cards are given to another player")
    if not state.courtiers[other].alive:
        return _status_msg(state, other, DEAD)
    hand = state.courtiers[player].hand
    for n in numbers:
        if n not in hand:
            return Msg(f"vous n'avez pas la carte {state.cards[n].label()} en main",
                       f"you do not hold card {state.cards[n].label()}")
    return None


# ---------------------------------------------------------------- the powers of the charges


@dataclass(frozen=True)
class PowerRefusal:
    """Why a charge's power cannot be used now: a code (the event's ``reason``) and the words."""

    code: str
    """``not_holder``, ``used``, ``war``, ``sovereign``, ``cote`` or ``not_jailed``."""
    msg: Msg


POWER_OF = {"cour": "maitre_chasse", "embastiller": "chancelier", "juger": "chancelier"}
"""The charge whose power each use is: moving the Court, jailing, judging."""


def power_refusal(state: CourtState, player: str, use: str, target: str = "") -> PowerRefusal | None:
    """Why ``player`` may not use a charge's power on this state, or None.  ``use``: ``cour`` (the Maître de
    la Chasse moves the Court), ``embastiller`` or ``juger`` (the Chancelier, on ``target``).

    « une fois que le joueur a transmis ses deux actions, il peut encore décider le pouvoir de sa charge » :
    the resolution checks it on the state the turn's actions leave, the order parser on every state they
    may leave (`plan`), with this same function.
    """
    power = POWER_OF[use]
    held = power_holder(state, power)
    c = state.courtiers[player]
    if interrupted(state):
        return PowerRefusal("interrupted", Msg("la manche s'est arrêtée : le Roi et la Reine sont morts",
                                               "the round stopped: the King and the Queen are dead"))
    if held is None or held[0] != player or not c.at_court:
        if power == "maitre_chasse":
            return PowerRefusal("not_holder", Msg(
                "seul le Maître de la Chasse, à la Cour, déplace la Cour à la fin de son tour (le Chambellan, lui, "
                "la place avant de jouer : VERSAILLES ou CHASSE à son premier tour)",
                "only the Master of the Hunt, at Court, moves the Court at the end of his turn (the Chambellan "
                "places it before playing: VERSAILLES or CHASSE on his first turn)"))
        return PowerRefusal("not_holder", Msg("seul le Chancelier, à la Cour, embastille ou juge",
                                              "only the Chancellor, at Court, jails or judges"))
    if held[1] in state.powers_used:
        return PowerRefusal("used", Msg("le pouvoir de cette charge sert une fois par manche : il a déjà servi",
                                        "the power of this charge serves once a round: it was used already"))
    if use == "cour":
        if state.wars:
            return PowerRefusal("war", Msg(
                "la Cour est à la Guerre : elle ne rentrera à Versailles qu'à la fin du conflit",
                "the Court is at War: it only comes back to Versailles when the war is over"))
        return None
    if target in (KING, QUEEN):
        return PowerRefusal("sovereign", Msg("les souverains sont au-dessus des lois",
                                             "the sovereigns are above the law"))
    t = state.courtiers[target]
    if use == "juger":
        if t.status == BASTILLE:
            return None
        return PowerRefusal("not_jailed", Msg(f"{name(state, target)} n'est pas à la Bastille",
                                              f"{name(state, target)} is not in the Bastille"))
    # « La charge de Chancelier peut envoyer directement à la Bastille, sans requête, le joueur qui a une cote
    # de 0, -1 ou -2 auprès du Roi »
    value = cote(state, target, "roi") if t.at_court else None
    if value is None or value > 0:
        shown, shown_en = (str(value), str(value)) if value is not None else ("sans cote", "no cote")
        return PowerRefusal("cote", Msg(
            f"le Chancelier n'embastille qu'un courtisan à la Cour de cote Roi 0, -1 ou -2 ({name(state, target)} : "
            f"{shown})", f"the Chancellor only jails a courtier at Court with a King cote of 0, -1 or -2 "
            f"({name(state, target)}: {shown_en})"))
    return None
