"""Playing a card: the REQUETE, the D10, then the card's effects in the deck's vocabulary.

A possession (title, charge, pension, maréchalat, Favorite, Amant) lies in front of its target
once in effect; an action card goes to the discard pile.  A refused request sends the card to
the Maison du Roi, or back to the hand (``refus = "main"``: the Lettre de cachet).
"""

from __future__ import annotations

from pbem.core import Event, replace
from pbem.dice import Dice
from pbem.games.courtisans.cards import Card, Effect
from pbem.games.courtisans.court import (
    declare_war,
    discard_status_cards,
    end_war,
    exile,
    imprison,
    kill,
    move_court,
    recall,
    release,
    shift_cote,
)
from pbem.games.courtisans.news import card_data, private, public, who
from pbem.games.courtisans.requests import addressee, ask, penalize
from pbem.games.courtisans.state import (
    KING,
    QUEEN,
    CourtState,
    at_court,
    favorite,
    lover,
    with_courtier,
)


def play_card(state: CourtState, player: str, number: int, target: str, sovereign: str, nation: str,
              dice: Dice, ev: list[Event]) -> CourtState:
    """``player`` plays card ``number`` on ``target`` (asking ``sovereign`` if it is a REQUETE).

    The caller has checked that the play is allowed (`checks.play_refusal`).
    """
    card = state.cards[number]
    c = state.courtiers[player]
    state = with_courtier(state, replace(c, hand=tuple(n for n in c.hand if n != number),
                                         poisoner=c.poisoner or "empoisonneuse" in card.marks))
    asked = addressee(state, sovereign or "roi") if card.request else ""
    ev.append(public("card_played", who=who(state, player), card=card_data(card),
                     target=who(state, target) if target else None, sovereign=asked))
    if card.request:
        verdict = ask(state, player, sovereign or "roi", dice, f"request {card.name} n°{number}")
        ev.append(public("request", who=who(state, player), card=card_data(card), sovereign=asked,
                         target=who(state, target) if target else None, **verdict.data()))
        if not verdict.granted:
            state = penalize(state, player, verdict, ev)
            if card.refused_to == "main":
                c = state.courtiers[player]
                ev.append(public("card_back_to_hand", who=who(state, player), card=card_data(card)))
                return with_courtier(state, replace(c, hand=c.hand + (number,)))
            ev.append(public("card_to_maison", card=card_data(card)))
            return replace(state, maison=state.maison + (number,))
    if card.possession:
        state = _grant(state, target, card, ev)
    die = 0
    effects = card.effects
    if card.d10:
        die = dice.d(10, f"{card.name} n°{number}: D10")
        result = card.result_for(die)
        ev.append(public("d10", card=card_data(card), die=die, text=result.text, text_en=result.text_en or result.text))
        effects = effects + result.effects
    for effect in effects:
        state = apply_effect(state, effect, player, target, die, nation, dice, ev)
    if not card.possession:
        state = replace(state, discard=state.discard + (number,))
    return state


def _grant(state: CourtState, target: str, card: Card, ev: list[Event]) -> CourtState:
    """The possession goes in front of its target; a new Favorite (Amant) takes the place of the old one."""
    if card.kind == "favorite":
        old = favorite(state)
        if old and old != target:
            state = discard_status_cards(state, old, ev, "remplacee", ("favorite",))
    if card.kind == "amant":
        old = lover(state)
        if old and old != target:
            state = discard_status_cards(state, old, ev, "remplace", ("amant",))
    t = state.courtiers[target]
    state = with_courtier(state, replace(t, possessions=t.possessions + (card.number,)))
    ev.append(public("granted", who=who(state, target), card=card_data(card), income=card.income))
    return state


def subjects(state: CourtState, on: str, player: str, target: str) -> list[str]:
    """Who an effect applies to (see `cards.SUBJECTS`), in seating order."""
    if on == "joueur":
        return [player]
    if on == "cible":
        return [target] if target else []
    if on == "cour":
        return at_court(state)
    if on == "armee":
        army = []
        for p in at_court(state):
            kinds = [state.cards[n] for n in state.courtiers[p].possessions]
            if any(k.kind == "marechalat" or k.power == "guerre" for k in kinds):
                army.append(p)
        return army
    if on == "parti":
        if target in (KING, QUEEN, ""):
            return []
        parti = state.courtiers[target].parti
        return [p for p in at_court(state) if p != target and state.courtiers[p].parti == parti]
    parti = on.split(":", 1)[1]
    return [p for p in at_court(state) if state.courtiers[p].parti == parti]


def apply_effect(state: CourtState, effect: Effect, player: str, target: str, die: int, nation: str,
                 dice: Dice, ev: list[Event]) -> CourtState:
    """One effect of the vocabulary (``effet = ...``), on each of its subjects in turn."""
    kind = effect.kind
    if kind == "rien":
        return state
    if kind == "cour":
        return move_court(state, effect.place, ev, "card")
    if kind == "guerre":
        return declare_war(state, effect.nation, ev)
    if kind == "fin_guerre":
        return end_war(state, effect.outcome, ev, nation)
    if kind == "mariage_secret":
        if target in state.courtiers and state.crown.widowed and not state.crown.secret_wife:
            state = replace(state, crown=replace(state.crown, secret_wife=target))
            ev.append(public("secret_marriage", who=who(state, target)))
        return state
    for subject in subjects(state, effect.on, player, target):
        sovereign = subject in (KING, QUEEN)
        if kind == "mort":
            if sovereign or state.courtiers[subject].alive:
                state = kill(state, subject, dice, ev)
            continue
        if sovereign:
            continue  # « on ne peut pas varier leur cote »: only death reaches the sovereigns
        c = state.courtiers[subject]
        if not c.alive:
            continue
        if kind == "exil":
            state = exile(state, subject, ev)
        elif kind == "bastille":
            state = imprison(state, subject, ev)
        elif kind == "liberation":
            state = release(state, subject, dice, ev, "card")
        elif kind == "rappel":
            state = recall(state, subject, dice, ev, "card")
        elif kind == "cote":
            state = shift_cote(state, subject, ev, roi=effect.roi, reine=effect.reine)
        elif kind == "livres":
            amount = effect.amount
            if effect.per_d10:
                die = die or dice.d(10, "amount of livres: D10")
                amount += effect.per_d10 * die
            state = add_livres(state, subject, amount, ev, "card")
        elif kind == "perd_favorite":
            state = discard_status_cards(state, subject, ev, "carte", ("favorite",))
        elif kind == "perd_amant":
            state = discard_status_cards(state, subject, ev, "carte", ("amant",))
    return state


def add_livres(state: CourtState, player: str, amount: int, ev: list[Event], why: str,
               floor: bool = True) -> CourtState:
    """Livres won or lost outside income (never below 0, except a fine: the MJ's fines are owed)."""
    c = state.courtiers[player]
    after = c.livres + amount
    if floor:
        after = max(0, after)
    state = with_courtier(state, replace(c, livres=after))
    data = {"who": who(state, player), "amount": after - c.livres, "livres": after, "why": why}
    if state.options.public_fortunes:
        ev.append(public("livres", **data))
    else:
        ev.append(private([player], "livres", **data))
        ev.append(public("livres_hidden", who=who(state, player), gain=after >= c.livres, why=why))
    return state
