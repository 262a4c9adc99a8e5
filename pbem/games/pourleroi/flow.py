"""Where the game stands and what happens next: everything automatic is done at once, up to the next decision.

The decisions asked by mail (`step_kind`):

* ``place``: the donor places the card he has just drawn (GARDER, NEUTRE or CENTRE);
* ``centre``: the opponents who have a choice send a ranked list of the centre cards (CHOIX);
* ``king``: the player who has just obtained a King card chooses its changes (ROI);
* ``auction``: every player gives his maximum for the card on sale (ENCHERE or PASSE).

`advance` draws cards, places the cards the limits force, hands out centre cards nobody has to
choose, plays King cards that leave no choice, reveals the next card on sale and sells it at once
when every bid is already known, and counts the points after the last sale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.core import Audience, Event, Order, replace
from pbem.dice import Dice
from pbem.games.pourleroi import auction as A
from pbem.games.pourleroi import gift as G
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi.cards import card_data, in_file_order, ministry_data
from pbem.games.pourleroi.scoring import final_result
from pbem.games.pourleroi.state import GIFT, OVER, State

PLACE, PICK, KING, BID = "place", "centre", "king", "auction"

DEADLINES = {PLACE: "card", PICK: "centre", KING: "card", BID: "auction"}
"""The deadline key (``[games.<id>.deadlines]``) of each kind of step."""

# canonical order verbs (French keywords)
KEEP_V, NEUTRAL_V, CENTRE_V = "GARDER", "NEUTRE", "CENTRE"
CHOOSE_V, KING_V, BID_V, PASS_V = "CHOIX", "ROI", "ENCHERE", "PASSE"
PLACE_VERBS = {KEEP_V: "garder", NEUTRAL_V: "neutre", CENTRE_V: "centre"}


@dataclass(frozen=True)
class Asked:
    player: str
    kind: str
    required: bool = True


def step_kind(state: State) -> str | None:
    """What the open step asks (None: the game is over).  Valid on states returned by `advance`."""
    if state.over:
        return None
    if state.kings_pending:
        return KING
    if state.phase == GIFT:
        r = state.round
        if r is None:  # only before the set-up's `advance`
            return None
        return PLACE if r.drawn is not None else PICK
    return BID


def standing_bid(state: State, player: str, card: str) -> int | None:
    """The maximum ``player`` gave in advance for ``card`` (by id, or any Gold card of its value)."""
    bids = state.standing_bids.get(player, {})
    if card in bids:
        return bids[card]
    return bids.get(G.card_key(state.material, card)) if card in state.material.gold else None


def can_bid(state: State, player: str, card: str) -> bool:
    """Has ``player`` something to decide about ``card``?  Not if he cannot pay even 1 (bids refused)."""
    return state.options.unpayable_bids == "accept" or state.means(player, card) >= 1


def asked(state: State) -> list[Asked]:
    """Who must decide now.

    At an auction (option ``auction_prompts``): ``everyone`` is asked, so that nobody learns who could not
    bid, and those who can bid and gave no maximum in advance are waited for; ``everyone_waited`` waits for
    everyone without a maximum given in advance; ``bidders`` asks only those who can bid (or gave a maximum).
    """
    kind = step_kind(state)
    if kind is None:
        return []
    if kind == KING:
        return [Asked(state.kings_pending[0].player, KING)]
    if kind == PLACE:
        assert state.round is not None
        return [Asked(state.round.donor, PLACE)]
    if kind == PICK:
        return [Asked(p, PICK) for p in G.choosers(state)]
    a = state.auction
    assert a is not None and a.current is not None
    mode = state.options.auction_prompts
    out = []
    for p in state.clockwise_from(a.opener):
        advance_bid = standing_bid(state, p, a.current) is not None
        able = can_bid(state, p, a.current)
        if mode == "bidders" and not able and not advance_bid:
            continue
        out.append(Asked(p, BID, not advance_bid and (able or mode == "everyone_waited")))
    return out


def advance(state: State, dice: Dice, ev: list[Event]) -> State:
    """Do everything that needs nobody's decision, up to the next decision or the end of the game."""
    while not state.over:
        if state.kings_pending:
            head = state.kings_pending[0]
            choices = K.legal_changes(state, head.card)
            if len(choices) > 1:
                ev.append(Event("king_to_play", Audience.public(), {
                    "player": head.player, "card": card_data(state.material, head.card), "how": head.how}))
                return state
            state = K.play(state, head, choices[0], ev, chosen=False)
            continue
        if state.phase == GIFT:
            state, decision = _gift_step(state, dice, ev)
            if decision:
                return state
            continue
        a = state.auction
        assert a is not None
        if a.current is None:
            if not a.pile:
                state = finish(state, ev)
                continue
            state = A.reveal(state, ev)
            continue
        if any(x.required for x in asked(state)):
            return state
        bids = {p: A.Bid(standing_bid(state, p, a.current) or 0) for p in state.seats}
        state = A.settle(state, bids, dice, ev)
    return state


def _gift_step(state: State, dice: Dice, ev: list[Event]) -> tuple[State, bool]:
    """One automatic move of the gift phase, or (state, True) at a decision."""
    r = state.round
    if r is None:
        return G.start_round(state, 1, state.seats[0], ev), False
    if r.done:
        return G.next_round_or_auction(state, dice, ev), False
    if r.drawn is not None:
        dests = G.legal_destinations(state)
        if len(dests) > 1:
            G.announce_choices(state, ev)
            return state, True
        return G.place(state, dests[0], ev, forced=True), False
    if not G.round_complete(state):
        return G.draw(state, ev), False
    if r.centre and G.choosers(state):
        ev.append(Event("centre_open", Audience.public(), {
            "round": r.number, "choosers": G.choosers(state), "pickers": G.pickers(state),
            "cards": [card_data(state.material, c) for c in r.centre]}))
        return state, True
    if r.centre:
        return G.take_from_centre(state, {}, ev), False
    return replace(state, round=replace(r, done=True)), False


def finish(state: State, ev: list[Event]) -> State:
    """Count the offices after the last sale; hands are shown to everyone."""
    result = final_result(state)
    ev.append(Event("final_scores", Audience.public(), {
        "standings": [{
            "ministry": ministry_data(state.material, s.ministry), "value": s.primary_value,
            "secondary_value": s.secondary_value, "primary": s.primary, "secondary": s.secondary,
            "totals": [{"player": p, "total": s.totals[p], "letter": s.best_letter[p]} for p in s.ranking]}
            for s in result.standings],
        "players": [{"player": p, "points": result.points[p], "gold": result.gold[p],
                     "primaries": result.primaries[p], "offices": result.offices[p]} for p in result.ranking],
        "winners": list(result.winners), "decided_by": result.decided_by, "secondary": state.secondary,
        "hands": [{"player": p, "cards": [card_data(state.material, c) for c in in_file_order(state.material, state.hands[p])]}
                  for p in state.seats]}))
    return replace(state, phase=OVER, result=result)


# ---------------------------------------------------------------- resolving a step


def _last(orders: Sequence[Order], verbs: Sequence[str]) -> Order | None:
    found = [o for o in orders if o.verb in verbs]
    return found[-1] if found else None


def resolve(state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
    """Apply the answers to the open step, then `advance`."""
    ev: list[Event] = []
    kind = step_kind(state)
    if kind is None:
        return state, ev
    if kind == KING:
        head = state.kings_pending[0]
        legal = K.legal_changes(state, head.card)
        o = _last(orders.get(head.player, ()), (KING_V,))
        change = tuple(str(x) for x in o.args) if o is not None else legal[0]
        state = K.play(state, head, change if change in legal else legal[0], ev, chosen=True)
    elif kind == PLACE:
        assert state.round is not None
        o = _last(orders.get(state.round.donor, ()), tuple(PLACE_VERBS))
        dest = PLACE_VERBS[o.verb] if o is not None else ""
        state = G.place(state, dest if dest in G.legal_destinations(state) else default_destination(state), ev)
    elif kind == PICK:
        wishes = {}
        for p in G.choosers(state):
            o = _last(orders.get(p, ()), (CHOOSE_V,))
            wishes[p] = [str(x) for x in o.args] if o is not None else []
        state = G.take_from_centre(state, wishes, ev)
    else:
        state = _resolve_bids(state, orders, dice, ev)
    state = replace(state, decisions=state.decisions + 1)
    return advance(state, dice, ev), ev


def default_destination(state: State) -> str:
    """Where a silent donor's card goes: the first free place in the option's order."""
    dests = G.legal_destinations(state)
    return next(d for d in state.options.default_placement if d in dests)


def _resolve_bids(state: State, orders: Mapping[str, Sequence[Order]], dice: Dice, ev: list[Event]) -> State:
    a = state.auction
    assert a is not None and a.current is not None
    bids: dict[str, A.Bid] = {}
    standing = {p: dict(b) for p, b in state.standing_bids.items()}
    for p in state.seats:
        current = standing_bid(state, p, a.current) or 0
        discard: tuple[str, ...] = ()
        for o in orders.get(p, ()):
            if o.verb not in (BID_V, PASS_V):
                continue
            key, amount = str(o.args[0]), int(o.args[1])
            given = tuple(str(o.args[2]).split()) if len(o.args) > 2 and o.args[2] else ()
            if key in ("", a.current):
                current, discard = amount, given
            else:
                standing.setdefault(p, {})[key] = amount
                ev.append(Event("standing_bid", Audience.to(p), {"key": key, "maximum": amount,
                                                                "card": key_data(state, key)}))
        bids[p] = A.Bid(current, discard)
    state = replace(state, standing_bids={p: b for p, b in standing.items() if b})
    return A.settle(state, bids, dice, ev)


def key_data(state: State, key: str) -> dict[str, object]:
    if key.startswith("OR:"):
        value = int(key[3:])
        return {"id": key, "kind": "gold", "fr": f"Or {value}", "en": f"Gold {value}", "value": value}
    return card_data(state.material, key)
