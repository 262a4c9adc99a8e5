"""How Courtisans' events are made: their audiences and the data they carry about people and cards.

What is public and what is private is decided here and in the callers, following the rulings of
docs/rules/courtisans.md (« Ce que chacun voit »): cards played, dice, requests, marriages, deaths,
exile and the Bastille are public; hands, draws, gifts and the deck are private.
"""

from __future__ import annotations

from pbem.core import JSON, Audience, Event
from pbem.games.courtisans.cards import Card
from pbem.games.courtisans.etiquette import person
from pbem.games.courtisans.state import KING, QUEEN, CourtState


def public(kind: str, **data: JSON) -> Event:
    return Event(kind, Audience.public(), data)


def private(players: list[str] | tuple[str, ...], kind: str, **data: JSON) -> Event:
    return Event(kind, Audience.to(*players), data)


def mj(kind: str, **data: JSON) -> Event:
    return Event(kind, Audience.mj(), data)


def card_data(card: Card) -> dict[str, JSON]:
    return {"number": card.number, "name": card.name, "name_en": card.name_en, "kind": card.kind}


def cards_data(state: CourtState, numbers: tuple[int, ...] | list[int]) -> list[JSON]:
    return [card_data(state.cards[n]) for n in numbers]


def who(state: CourtState, target: str) -> dict[str, JSON]:
    """A courtisan, the King or the Queen (« la Régente » while she rules alone), for an event."""
    if target == KING:
        return {"player": KING, "who": "le Roi", "who_en": "the King", "f": False, "sovereign": True}
    if target == QUEEN:
        regent = state.crown.regent
        return {"player": QUEEN, "who": "la Régente" if regent else "la Reine",
                "who_en": "the Regent" if regent else "the Queen", "f": True, "sovereign": True}
    return {**person(state, target), "sovereign": False}
