"""The auction phase: one card on sale at a time, sold by proxy bid, paid in Gold or in cards.

Each player sends a maximum for the card (``ENCHERE <n>``, or ``PASSE``: 0).  `proxy_result` gives what
the auction round the table gives with those private maxima (docs/rules/pourleroi.md, « Enchère par
mandat »): from the player with priority, clockwise, each player in turn bids one more than the price
standing, or passes and leaves for good (« Passer retire définitivement de l'enchère en cours »); it
ends when every other player has passed, and the last bidder buys at his bid.  So the winner holds
the highest maximum and pays the second highest, or one more, depending on who reached that price
first; between equal highest maxima, the one who bids that maximum first wins.

Payment: « Une carte Gouvernement ou Roi se paie avec des cartes Or ; une carte Or se paie en
défaussant un nombre de cartes de sa main. »  No change is given for Gold.  A winner who cannot pay
pays nothing; the player at his left takes one of his cards at random and discards it face down; the
same card is sold again without him (here: at once, from the other players' maxima, which did not change).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from pbem.core import Audience, Event, replace
from pbem.dice import Dice
from pbem.games.pourleroi.cards import GOLD, GOV, KING, card_data
from pbem.games.pourleroi.state import Auction, KingToPlay, Sale, State


@dataclass(frozen=True)
class Bid:
    """A player's maximum for the card on sale, and for a Gold card the cards he would rather give."""

    maximum: int
    discard: tuple[str, ...] = ()


def proxy_result(maxima: Mapping[str, int], priority: Sequence[str]) -> tuple[str, int] | None:
    """(winner, price) of the auction round the table with these maxima, or None when nobody bids.

    ``priority``: the seats in order from the player with priority (who speaks first).  Each bid is one
    more than the price, made by the next seat after the last bidder whose maximum reaches it (the
    others have passed for good).  Between two maxima in a row, the set of those who can still bid does
    not change, so its bids go round it in seat order: the price is followed stage by stage, from the
    lowest maximum to the highest, instead of bid by bid.
    """
    seats = [i for i, p in enumerate(priority) if maxima.get(p, 0) >= 1]
    if not seats:
        return None
    price, last = 0, -1  # the price standing, and the seat (index in ``priority``) of who bid it (-1: nobody)
    for level in sorted({maxima[priority[i]] for i in seats}):
        live = [i for i in seats if maxima[priority[i]] >= level]  # who may bid every price up to ``level``
        if len(live) == 1:  # the highest maximum alone: he outbids the price once, unless he holds it
            (top,) = live
            return priority[top], price if top == last else price + 1
        first = next((k for k, i in enumerate(live) if i > last), 0)  # the next live seat after the last bidder
        last = live[(first + level - price - 1) % len(live)]  # who bids ``level`` (one bid per price)
        price = level
    return priority[last], price  # equal highest maxima: whoever bid that maximum keeps it


def reveal(state: State, ev: list[Event]) -> State:
    """The next card of the shuffled neutral pile goes on sale."""
    a = state.auction
    assert a is not None and a.current is None and a.pile
    card = a.pile[0]
    placed_by = state.neutral_by.get(card)
    ev.append(Event("auction_opened", Audience.public(), {
        "number": a.number + 1, "total": a.total, "card": card_data(state.material, card), "opener": a.opener,
        "left": len(a.pile) - 1}))
    if placed_by is not None:
        ev.append(Event("your_neutral_card", Audience.to(placed_by), {"card": card_data(state.material, card)}))
    return replace(state, auction=replace(a, pile=a.pile[1:], current=card, number=a.number + 1))


def gold_payment(state: State, player: str, price: int) -> list[str] | None:
    """The Gold cards to pay ``price`` with, or None if the player's Gold does not reach it.

    Chosen to waste the least (smallest sum reaching the price, no change is given), then to give the
    fewest cards (more cards left means more ways to pay exactly later, and more cards to give for a Gold card).
    """
    cards = state.gold_cards(player)
    values = sorted({state.material.gold[c] for c in cards}, reverse=True)
    by_value = {v: [c for c in cards if state.material.gold[c] == v] for v in values}
    best: tuple[int, int, tuple[int, ...]] | None = None
    for counts in product(*(range(len(by_value[v]) + 1) for v in values)):
        total = sum(v * n for v, n in zip(values, counts, strict=True))
        if total < price:
            continue
        key = (total, sum(counts), tuple(-n for n in counts))
        if best is None or key < best:
            best = key
    if best is None:
        return None
    counts = tuple(-n for n in best[2])
    return [c for v, n in zip(values, counts, strict=True) for c in by_value[v][:n]]


def discard_order(state: State, player: str, preferred: Sequence[str]) -> list[str]:
    """The player's hand in the order he gives cards for a Gold card: his list first, then the default.

    Default (ruling): the lowest-valued cards first (a Government card's support, a Gold card's value),
    Gold before Government at equal value, then the order of the card file.
    """
    hand = list(state.hands[player])
    first = [c for c in dict.fromkeys(preferred) if c in hand]
    order = {c: i for i, c in enumerate(state.material.all_cards())}

    def worth(c: str) -> tuple[int, int, int]:
        kind = state.material.kind(c)
        value = state.material.gold[c] if kind == GOLD else state.material.government.get(c, 0)
        return (value, 0 if kind == GOLD else 1, order[c])

    return first + sorted((c for c in hand if c not in first), key=worth)


def _others(maxima: Mapping[str, int], priority: Sequence[str], winner: str | None) -> list[dict[str, object]]:
    """What the open auction shows of the others: where each one left (his maximum), or that he passed."""
    return [{"player": p, "maximum": maxima.get(p, 0)} for p in priority if p != winner]


def settle(state: State, bids: Mapping[str, Bid], dice: Dice, ev: list[Event]) -> State:
    """Sell the card on sale to the bids given (the defaulters, one after another, left out)."""
    a = state.auction
    assert a is not None and a.current is not None
    card = a.current
    kind = state.material.kind(card)
    data = card_data(state.material, card)
    maxima = {p: b.maximum for p, b in bids.items() if b.maximum >= 1}
    defaulted: list[str] = []
    while True:
        priority = [p for p in state.clockwise_from(a.opener) if p not in defaulted]
        result = proxy_result({p: maxima[p] for p in priority if p in maxima}, priority)
        if result is None:
            ev.append(Event("auction_unsold", Audience.public(), {
                "number": a.number, "card": data, "defaulted": list(defaulted),
                "others": _others(maxima, priority, None)}))
            state = replace(state, discard_up=(*state.discard_up, card))
            return _close(state, Sale(a.number, card, None, 0, tuple(defaulted)))
        winner, price = result
        if kind == GOLD:
            pay = discard_order(state, winner, bids[winner].discard)[:price]
            can_pay = len(state.hands[winner]) >= price
        else:
            gold = gold_payment(state, winner, price)
            pay, can_pay = gold or [], gold is not None
        if not can_pay:
            state = _default(state, winner, price, dice, ev)
            defaulted.append(winner)
            continue
        hands = dict(state.hands)
        hands[winner] = tuple(c for c in hands[winner] if c not in pay)
        ev.append(Event("auction_won", Audience.public(), {
            "number": a.number, "card": data, "winner": winner, "price": price,
            "others": _others(maxima, priority, winner), "defaulted": list(defaulted),
            "tie": sum(1 for p in priority if maxima.get(p, 0) == maxima[winner]) > 1}))
        if kind == GOLD:
            ev.append(Event("cards_given", Audience.public(), {"player": winner, "count": price, "card": data}))
            ev.append(Event("you_gave", Audience.to(winner), {
                "cards": [card_data(state.material, c) for c in pay], "card": data}))
            state = replace(state, discard_down=(*state.discard_down, *pay))
        else:
            paid = sum(state.material.gold[c] for c in pay)
            ev.append(Event("gold_paid", Audience.public(), {
                "player": winner, "price": price, "paid": paid, "lost": paid - price,
                "cards": [card_data(state.material, c) for c in pay]}))
            state = replace(state, discard_up=(*state.discard_up, *pay))
        if kind == KING:
            state = replace(state, hands=hands, kings_pending=(*state.kings_pending, KingToPlay(winner, card, "auction")))
        else:
            assert kind in (GOV, GOLD)
            hands[winner] = (*hands[winner], card)
            state = replace(state, hands=hands)
        return _close(state, Sale(a.number, card, winner, price, tuple(defaulted)))


def _default(state: State, player: str, price: int, dice: Dice, ev: list[Event]) -> State:
    """« Il ne paie rien, mais le joueur à sa gauche lui prend une carte au hasard et la défausse face cachée. »"""
    taker = state.left_of(player)
    hand = state.hands[player]
    lost = dice.choice(hand, f"card taken from {player}") if hand else None
    ev.append(Event("payment_failed", Audience.public(), {
        "player": player, "price": price, "taker": taker, "lost": lost is not None}))
    if lost is None:
        return state
    ev.append(Event("you_lost_card", Audience.to(player), {"card": card_data(state.material, lost), "taker": taker}))
    hands = {**state.hands, player: tuple(c for c in hand if c != lost)}
    return replace(state, hands=hands, discard_down=(*state.discard_down, lost))


def _close(state: State, sale: Sale) -> State:
    a = state.auction
    assert a is not None and a.current is not None
    key = f"OR:{state.material.gold[a.current]}" if a.current in state.material.gold else a.current
    standing = {p: {k: v for k, v in bids.items() if k != key} for p, bids in state.standing_bids.items()}
    return replace(state, sales=(*state.sales, sale), standing_bids=standing,
                   auction=Auction(a.pile, a.total, a.number, None, state.left_of(a.opener)))
