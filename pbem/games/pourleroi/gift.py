"""The gift phase: the donor draws and places one card at a time, then the opponents take the centre cards.

« À son tour de donneur, on pioche une carte, on la regarde puis on décide immédiatement de sa
destination. Une carte peut être gardée face cachée pour soi, une autre placée face cachée dans le
paquet neutre, et autant de cartes que d'adversaires doivent être proposées face visible au centre. »

A round has ``players + 1`` places: one kept, one neutral, one per opponent in the centre.  A drawn
card that has only one place left is placed there without asking (the limits force it).  When the
deck runs out during a round, the cards drawn so far are placed under the same limits, the centre
(possibly short) is taken as usual, and the gift phase ends (ruling).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Audience, Event, replace
from pbem.dice import Dice
from pbem.games.pourleroi.cards import KING, Material, card_data, in_file_order
from pbem.games.pourleroi.state import AUCTION, CENTRE, KEEP, NEUTRAL, Auction, KingToPlay, Round, State


def card_key(material: Material, card: str) -> str:
    """What a player names when any copy will do: ``OR:<value>`` for Gold, the id otherwise."""
    return f"OR:{material.gold[card]}" if card in material.gold else card


def legal_destinations(state: State) -> list[str]:
    """Where the drawn card may go, in the order GARDER, NEUTRE, CENTRE."""
    r = state.round
    assert r is not None
    out = []
    if not r.kept:
        out.append(KEEP)
    if not r.neutral:
        out.append(NEUTRAL)
    if len(r.centre) < len(state.seats) - 1:
        out.append(CENTRE)
    return out


def round_complete(state: State) -> bool:
    """Every place of the round is filled, or the deck ran out with the last card placed."""
    r = state.round
    assert r is not None
    if r.drawn is not None:
        return False
    return not legal_destinations(state) or not state.deck


def start_round(state: State, number: int, donor: str, ev: list[Event]) -> State:
    ev.append(Event("round_started", Audience.public(), {
        "round": number, "donor": donor, "deck": len(state.deck), "cards": len(state.seats) + 1,
        "centre": len(state.seats) - 1}))
    return replace(state, round=Round(number, donor))


def draw(state: State, ev: list[Event]) -> State:
    """The donor draws the top card and looks at it (he alone)."""
    r = state.round
    assert r is not None and r.drawn is None and state.deck
    card = state.deck[0]
    ev.append(Event("card_drawn", Audience.to(r.donor), {
        "card": card_data(state.material, card), "round": r.number, "place": r.placed + 1,
        "deck": len(state.deck) - 1, "choices": []}))
    return replace(state, deck=state.deck[1:], round=replace(r, drawn=card))


def announce_choices(state: State, ev: list[Event]) -> None:
    """Tell the donor where his card may go (the last `card_drawn` event gets the list)."""
    dests = legal_destinations(state)
    for i in range(len(ev) - 1, -1, -1):
        if ev[i].kind == "card_drawn":
            ev[i] = Event("card_drawn", ev[i].audience, {**ev[i].data, "choices": dests})
            return


def place(state: State, dest: str, ev: list[Event], *, forced: bool = False) -> State:
    """Put the drawn card where the donor said (or where it must go)."""
    r = state.round
    assert r is not None and r.drawn is not None and dest in legal_destinations(state)
    card, donor = r.drawn, r.donor
    data = card_data(state.material, card)
    r2 = replace(r, drawn=None, placed=r.placed + 1)
    if dest == KEEP:
        r2 = replace(r2, kept=True)
        if state.material.kind(card) == KING:
            state = replace(state, kings_pending=(*state.kings_pending, KingToPlay(donor, card, "keep")))
        else:
            state = replace(state, hands={**state.hands, donor: (*state.hands[donor], card)})
    elif dest == NEUTRAL:
        r2 = replace(r2, neutral=True)
        state = replace(state, neutral=(*state.neutral, card), neutral_by={**state.neutral_by, card: donor})
    else:
        r2 = replace(r2, centre=(*r.centre, card))
    public = dest == CENTRE or state.material.kind(card) == KING and dest == KEEP
    ev.append(Event("card_placed", Audience.public(), {
        "donor": donor, "dest": dest, "card": data if public else None, "forced": forced,
        "place": r2.placed, "round": r.number}))
    if not public:
        ev.append(Event("you_placed", Audience.to(donor), {"dest": dest, "card": data, "forced": forced}))
    return replace(state, round=r2)


def pickers(state: State) -> list[str]:
    """Who takes a centre card, in order: the opponents clockwise from the donor's left (as many as cards)."""
    r = state.round
    assert r is not None
    return state.opponents_from_left(r.donor)[: len(r.centre)]


def choosers(state: State) -> list[str]:
    """The pickers with a choice to send: all but the last one, unless every centre card is alike."""
    r = state.round
    assert r is not None
    if len({card_key(state.material, c) for c in r.centre}) < 2:
        return []
    return pickers(state)[:-1]


def take_from_centre(state: State, wishes: Mapping[str, Sequence[str]], ev: list[Event],
                     defaulted: Sequence[str] = ()) -> State:
    """Each picker in turn takes the first card of his list still there (a key: id or ``OR:<value>``).

    A picker whose list names nothing left takes the first card left in the centre's order (ruling).
    This is exactly what picking one after the other gives, in one step.
    """
    r = state.round
    assert r is not None
    left = list(r.centre)
    order = pickers(state)
    asked = set(choosers(state))
    hands = dict(state.hands)
    kings = list(state.kings_pending)
    for p in order:
        card = None
        for key in wishes.get(p, ()):
            card = next((c for c in left if c == key or card_key(state.material, c) == key), None)
            if card is not None:
                break
        if p not in asked:
            how = "last" if len(left) == 1 else "alike"
        else:
            how = "choice" if card is not None and p not in defaulted else "default"
        if card is None:
            card = left[0]
        left.remove(card)
        if state.material.kind(card) == KING:
            kings.append(KingToPlay(p, card, "centre"))
        else:
            hands[p] = (*hands[p], card)
        ev.append(Event("centre_taken", Audience.public(), {
            "player": p, "card": card_data(state.material, card), "how": how, "round": r.number}))
    short = state.opponents_from_left(r.donor)[len(order):]
    if short:
        ev.append(Event("centre_short", Audience.public(), {"players": short, "round": r.number}))
    return replace(state, hands=hands, kings_pending=tuple(kings), round=replace(r, centre=(), done=True))


def next_round_or_auction(state: State, dice: Dice, ev: list[Event]) -> State:
    """The deck passes to the left; or, when it is empty, the neutral pile is shuffled for the auctions."""
    r = state.round
    assert r is not None
    if state.deck:
        return start_round(state, r.number + 1, state.left_of(r.donor), ev)
    pile = tuple(dice.shuffle(list(state.neutral), "shuffle the neutral pile"))
    opener = state.left_of(r.donor)
    ev.append(Event("gift_over", Audience.public(), {
        "rounds": r.number, "neutral": len(pile), "opener": opener,
        "hands": [{"player": p, "count": len(state.hands[p])} for p in state.seats]}))
    ev.extend(Event("your_hand", Audience.to(p), {"cards": [card_data(state.material, c) for c in in_file_order(state.material, state.hands[p])]})
              for p in state.seats)
    return replace(state, round=None, neutral=(), phase=AUCTION, auction=Auction(pile, len(pile), opener=opener))

