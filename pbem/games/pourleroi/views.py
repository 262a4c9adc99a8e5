"""What each player may see of the game (`view`), for the status part of mails, ETAT and the forum.

Public: the offices and their values, the centre, the card on sale, the sales, King cards played, how
many cards each player holds and how many are left in the deck and the neutral pile, who is asked.
Private to a player: his hand, the card he has just drawn, the cards he put in the neutral pile
that are not sold yet, and his maxima given in advance.  The MJ sees everything.
At the end every hand is shown (the count is made in the open).
"""

from __future__ import annotations

from typing import Any

from pbem.core import JSON, MJ
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi.cards import GOLD, GOV, card_data, ministry_data, ministry_of
from pbem.games.pourleroi.orders import help_for
from pbem.games.pourleroi.state import State, secondary_value
from pbem.serial import to_data


def _cards(state: State, cards: tuple[str, ...] | list[str]) -> list[dict[str, Any]]:
    return [card_data(state.material, c) for c in cards]


def hand_summary(state: State, player: str) -> dict[str, Any]:
    """A hand sorted for reading: per ministry (board order) with its total, then the Gold."""
    hand = state.hands[player]
    m = state.material
    groups = []
    for code in state.ministries:
        mine = sorted(c for c in hand if m.kind(c) == GOV and ministry_of(c) == code)
        if mine:
            groups.append({"ministry": ministry_data(m, code), "cards": _cards(state, mine),
                           "total": sum(m.government[c] for c in mine)})
    gold = sorted((c for c in hand if m.kind(c) == GOLD), key=lambda c: (m.gold[c], c))
    return {"groups": groups, "gold": _cards(state, gold), "gold_total": state.gold_total(player),
            "count": len(hand)}


def public_view(state: State) -> dict[str, JSON]:
    m = state.material
    r, a = state.round, state.auction
    kind = F.step_kind(state)
    out: dict[str, Any] = {
        "game": "pourleroi",
        "phase": state.phase,
        "step": kind,
        "seats": list(state.seats),
        "secondary": state.secondary,
        "offices": [{**ministry_data(m, c), "value": state.offices[c],
                     "secondary": secondary_value(state.offices[c]) if state.secondary else 0}
                    for c in state.ministries],
        "hands": [{"player": p, "count": len(state.hands[p])} for p in state.seats],
        "deck": len(state.deck),
        "neutral": len(state.neutral) if a is None else len(a.pile),
        "removed": len(state.removed),
        "out_of_box": len(state.out_of_box),
        "round": None if r is None else {
            "number": r.number, "donor": r.donor, "placed": r.placed, "of": len(state.seats) + 1,
            "kept": r.kept, "neutral": r.neutral, "centre": _cards(state, r.centre), "drawing": r.drawn is not None},
        "auction": None if a is None else {
            "number": a.number, "total": a.total, "left": len(a.pile), "opener": a.opener,
            "current": None if a.current is None else card_data(m, a.current)},
        "kings_pending": [{"player": k.player, "card": card_data(m, k.card)} for k in state.kings_pending],
        "kings_played": _cards(state, state.kings_played),
        "sales": [{"number": s.number, "card": card_data(m, s.card), "winner": s.winner, "price": s.price,
                   "defaulted": list(s.defaulted)} for s in state.sales],
        "asked": [x.player for x in F.asked(state)],
        "over": state.over,
        "result": None,
    }
    if state.result is not None:
        res = state.result
        out["result"] = {
            "ranking": [{"player": p, "points": res.points[p], "gold": res.gold[p], "primaries": res.primaries[p],
                         "offices": res.offices[p]} for p in res.ranking],
            "winners": list(res.winners), "decided_by": res.decided_by,
            "standings": [{"ministry": ministry_data(m, s.ministry), "value": s.primary_value,
                           "secondary_value": s.secondary_value, "primary": s.primary, "secondary": s.secondary,
                           "totals": [{"player": p, "total": s.totals[p], "letter": s.best_letter[p]}
                                      for p in s.ranking]} for s in res.standings]}
        out["final_hands"] = {p: hand_summary(state, p) for p in state.seats}
    return out


def player_view(state: State, player: str) -> dict[str, JSON]:
    out = public_view(state)
    out["viewer"] = player
    m = state.material
    out["hand"] = hand_summary(state, player)
    r = state.round
    out["drawn"] = card_data(m, r.drawn) if r is not None and r.drawn is not None and r.donor == player else None
    unsold = set(state.neutral) | (set(state.auction.pile) if state.auction else set())
    out["my_neutral"] = _cards(state, [c for c, p in state.neutral_by.items() if p == player and c in unsold])
    out["standing_bids"] = [{"key": k, "maximum": v, "card": F.key_data(state, k)}
                            for k, v in sorted(state.standing_bids.get(player, {}).items())]
    a = state.auction
    out["means"] = state.means(player, a.current) if a is not None and a.current is not None else None
    if a is not None and a.current is not None:
        out["my_standing"] = F.standing_bid(state, player, a.current)
    if state.kings_pending and state.kings_pending[0].player == player:
        out["king_example"] = K.change_text(K.legal_changes(state, state.kings_pending[0].card)[0])
    out["help"] = [{"syntax": h.syntax, "fr": h.description.fr, "en": h.description.en}
                   for h in help_for(state, player)]
    return out


def view(state: State, player: str) -> dict[str, JSON]:
    if player == MJ:
        out = public_view(state)
        out["viewer"] = MJ
        out["all_hands"] = {p: hand_summary(state, p) for p in state.seats}
        out["state"] = to_data(state)
        return out
    if player in state.seats:
        return player_view(state, player)
    out = public_view(state)
    out["viewer"] = player
    return out
