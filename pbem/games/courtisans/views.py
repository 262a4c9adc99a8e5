"""What each viewer may see of the state: the Grand Registre (public), one's own hand and parti, the MJ's all.

Public (the forum, everyone): the Court's place, the sovereigns, the wars, every courtisan's status,
cotes, possessions in front of them, spouse, number of cards in hand, the Maison du Roi, the sizes
of the deck and the discard pile; fortunes unless option ``public_fortunes`` is off; partis only with
option ``public_partis``.  Private: one's own hand and parti.  The MJ sees hands, partis and the deck order.
"""

from __future__ import annotations

from pbem.core import JSON, MJ, PUBLIC
from pbem.games.courtisans.cards import effect_text, listing, restrictions
from pbem.games.courtisans.etiquette import salutation
from pbem.games.courtisans.news import card_data, who
from pbem.games.courtisans.state import CourtState, favorite, lover, power_holder
from pbem.games.courtisans.turns import income_due, ranking


def card_view(state: CourtState, number: int) -> dict[str, JSON]:
    card = state.cards[number]
    line, marks, does = listing(card), restrictions(card), effect_text(card)
    return {**card_data(card), "income": card.income, "listing": line.fr, "listing_en": line.en,
            "restrictions": marks.fr, "restrictions_en": marks.en, "effect": does.fr, "effect_en": does.en,
            "text": card.text}


def courtier_view(state: CourtState, player: str, viewer: str) -> dict[str, JSON]:
    c = state.courtiers[player]
    own = viewer in (MJ, player)
    income = sum(state.cards[n].income for n in c.possessions)
    out: dict[str, JSON] = {
        **who(state, player), "family": c.family, "sex": c.sex, "status": c.status, "generation": c.generation,
        "cote_roi": c.cote_roi, "cote_reine": c.cote_reine,
        "possessions": [card_view(state, n) for n in c.possessions], "income": income,
        "spouse": who(state, c.spouse) if c.spouse else None, "favorite": favorite(state) == player,
        "lover": lover(state) == player, "secret_wife": state.crown.secret_wife == player,
        "poisoner": c.poisoner, "hand_count": len(c.hand),
        "livres": c.livres if state.options.public_fortunes or own else None,
        "parti": c.parti if state.options.public_partis or own else None,
        "fines": c.fines, "warnings": c.warnings,
    }
    if viewer == MJ:
        out["hand"] = [card_view(state, n) for n in c.hand]
        out["next_parti"] = c.next_parti
    return out


def view(state: CourtState, viewer: str, helps: list[dict[str, JSON]]) -> dict[str, JSON]:
    crown = state.crown
    slot = state.slot
    chancellor = power_holder(state, "chancelier")
    out: dict[str, JSON] = {
        "game": "courtisans", "viewer": viewer, "round": state.round, "over": state.over,
        "chamberlain": who(state, state.chamberlain),
        "turn_of": who(state, slot.player) if slot else None, "turn_kind": slot.kind if slot else None,
        "place": state.place, "court": state.court, "wars": list(state.wars),
        "crown": {"king": crown.king, "queen": crown.queen, "nation": crown.queen_nation if crown.queen else None,
                  "regent": crown.regent, "widowed": crown.widowed,
                  "secret_wife": who(state, crown.secret_wife) if crown.secret_wife else None,
                  "regency_until": crown.regency_until if crown.regent else 0, "reign": crown.reign},
        "target": state.options.target, "max_rounds": state.options.max_rounds,
        "public_fortunes": state.options.public_fortunes,
        "courtiers": [courtier_view(state, p, viewer) for p in state.seats],
        "maison": [card_view(state, n) for n in sorted(state.maison)],
        "deck_count": len(state.deck), "discard_count": len(state.discard),
        "chancellor": who(state, chancellor[0]) if chancellor else None,
        "winners": [who(state, p) for p in state.winners],
        "ranking": [{**who(state, p), "livres": state.courtiers[p].livres} for p in ranking(state)]
        if state.options.public_fortunes or viewer == MJ or state.over else [],
    }
    if viewer in state.courtiers:
        c = state.courtiers[viewer]
        closing = slot is not None and slot.player == viewer and slot.kind == "closing"
        amount = income_due(state, viewer, closing)[0]
        out["me"] = {**courtier_view(state, viewer, viewer), "hand": [card_view(state, n) for n in c.hand],
                     "salutation": salutation(state, viewer), "next_parti": c.next_parti,
                     "my_turn": slot is not None and slot.player == viewer, "income_now": amount,
                     "help": helps}
        out["salutation"] = salutation(state, viewer)
    if viewer == MJ:
        out["deck"] = [card_data(state.cards[n]) for n in state.deck]
        out["discard"] = [card_data(state.cards[n]) for n in state.discard]
    if viewer == PUBLIC:
        out["viewer"] = PUBLIC
    return out
