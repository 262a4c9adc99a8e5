"""Sequential mode: one decision at a time, in the order of the rules, bribes announced openly in turn.

The player whose turn it is collects, manages their palace (one `Pending` decision after another),
then places.  The palace rules themselves are in `settle`, shared with the simultaneous mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Event, Order, PlayerName, replace
from pbem.games.intrigue.orders import BRIBE, CONFLICT, KEEP, POST
from pbem.games.intrigue.placing import place, valid_placements
from pbem.games.intrigue.settle import assign_posts, next_conflict, settle_conflict, settle_duplicates
from pbem.games.intrigue.state import BRIBE_UNIT, LAST_ROUND, PLACEMENT_ROUNDS, Bribe, IntrigueState, Pending
from pbem.games.intrigue.table import (
    absent_pieces,
    affordable,
    collect_income,
    conflict_motifs,
    duplicate_motifs,
    finish,
    free_values,
    from_left,
    incumbent,
    park_owners,
    pay,
    public,
    round_started,
)


def awaiting(state: IntrigueState) -> tuple[str, str] | None:
    """(player, prompt kind) awaited now."""
    if state.over:
        return None
    if state.step == "place":
        return state.current, "place"
    if state.step == "manage" and state.pending is not None:
        pend = state.pending
        if pend.awaiting == "bribe":
            bidder = pend.next_bidder
            assert bidder is not None
            return bidder, "bribe"
        return pend.palace, pend.awaiting
    return None


def bribe_motif(state: IntrigueState, pend: Pending, bidder: str) -> str:
    """The motif ``bidder`` bribes for in the decision under way (at the post stage: their waiting counsellor's)."""
    if pend.stage == "post":
        return next(pc.motif for pc in absent_pieces(state.palaces[pend.palace]) if pc.owner == bidder)
    return pend.motif


def open_decision(state: IntrigueState) -> Pending | None:
    """The next management decision in the current player's palace, or None when the park is empty.

    The rule's order: duplicates in the park (« conflits externes », in the owner's order: several
    are a ``choose`` decision), then the motifs absent from the palace, then the conflicts with a
    counsellor in post (« conflits internes »), the post of least value first: that order is fixed.
    """
    owner = state.current
    palace = state.palaces[owner]
    duplicates = duplicate_motifs(palace)
    if len(duplicates) >= 2:
        return Pending(owner, "choose")
    if duplicates:
        return duplicate_decision(state, duplicates[0])
    absent = absent_pieces(palace)
    if absent:
        return Pending(owner, "post", "", from_left(state, owner, [pc.owner for pc in absent]))
    if conflict_motifs(palace):
        return conflict_decision(state, next_conflict(palace))
    return None


def duplicate_decision(state: IntrigueState, motif: str) -> Pending:
    owner = state.current
    return Pending(owner, "duplicate", motif, from_left(state, owner, park_owners(state.palaces[owner], motif)))


def conflict_decision(state: IntrigueState, motif: str) -> Pending:
    owner = state.current
    palace = state.palaces[owner]
    post = incumbent(palace, motif)
    assert post is not None and post.holder is not None
    bidders = from_left(state, owner, [post.holder.owner, park_owners(palace, motif)[0]])
    return Pending(owner, "conflict", motif, bidders)


def announce(state: IntrigueState, amount: int, ev: list[Event], auto: bool = False, silent: bool = False) -> IntrigueState:
    """The next bidder announces and pays their bribe (clipped to what they have).

    ``auto``: they could not afford any bribe and were not asked; ``silent``: they were asked and
    gave no bribe (0, or the game's minimum).
    """
    pend = state.pending
    assert pend is not None
    bidder = pend.next_bidder
    assert bidder is not None
    amount = affordable(state, bidder, amount)
    motif = bribe_motif(state, pend, bidder)
    state = pay(state, bidder, pend.palace, amount)
    state = replace(
        state,
        bribes=state.bribes + (Bribe(state.round, pend.palace, motif, bidder, amount, pend.stage),),
        pending=replace(pend, bids=pend.bids + (amount,)),
    )
    ev.append(
        public("bribe_announced", palace=pend.palace, motif=motif, player=bidder, amount=amount, stage=pend.stage,
               auto=auto, silent=silent, money=state.money[bidder])
    )
    return state


def keep(state: IntrigueState, kept: str | None, ev: list[Event]) -> IntrigueState:
    """The owner's GARDER for the duplicates or the conflict under way."""
    pend = state.pending
    assert pend is not None
    bids = dict(zip(pend.bidders, pend.bids, strict=False))  # a conflict of one player's counsellors has none
    if pend.stage == "duplicate":
        state = settle_duplicates(state, pend.palace, pend.motif, list(pend.bidders), kept, bids, "duplicate", ev)
    else:
        state, _ = settle_conflict(state, pend.palace, pend.motif, kept, bids, "conflict", ev)
    return replace(state, pending=None)


def give_posts(state: IntrigueState, wanted: Sequence[tuple[str, str, int]], ev: list[Event]) -> IntrigueState:
    """The owner's POSTE orders for the counsellors waiting for a free post."""
    pend = state.pending
    assert pend is not None
    bids = {(p, bribe_motif(state, pend, p)): amount for p, amount in zip(pend.bidders, pend.bids, strict=True)}
    state = assign_posts(state, pend.palace, wanted, bids, ev)
    return replace(state, pending=None)


def choose_duplicate(state: IntrigueState, motif: str | None, ev: list[Event]) -> IntrigueState:
    """The owner's CONFLIT: which of several duplicates to settle now (silent: the first in motif order)."""
    palace = state.palaces[state.current]
    duplicates = duplicate_motifs(palace)
    if motif not in duplicates:
        motif = duplicates[0]
    assert motif is not None
    ev.append(public("conflict_chosen", palace=state.current, motif=motif, others=[m for m in duplicates if m != motif]))
    return replace(state, pending=duplicate_decision(state, motif))


def next_turn(state: IntrigueState) -> IntrigueState:
    if state.turn + 1 < len(state.seats):
        return replace(state, turn=state.turn + 1, step="income", pending=None)
    return replace(state, turn=0, round=state.round + 1, step="income", pending=None)


def apply(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    """Carry out the one decision awaited, with the awaited player's orders (or the default)."""
    awaited = awaiting(state)
    if awaited is None:
        return state
    player, kind = awaited
    given = list(orders.get(player, ()))
    if kind == "bribe":
        amounts = [int(o.args[2]) for o in given if o.verb == BRIBE and len(o.args) == 3]
        return announce(state, amounts[-1] if amounts else 0, ev, silent=not amounts)
    if kind == "keep":
        keeps = [str(o.args[0]) for o in given if o.verb == KEEP and len(o.args) == 2]
        return keep(state, keeps[-1] if keeps else None, ev)
    if kind == "post":
        wanted = [(str(o.args[0]), str(o.args[1]), int(o.args[2])) for o in given if o.verb == POST and len(o.args) == 3]
        return give_posts(state, wanted, ev)
    if kind == "conflict":
        picks = [str(o.args[0]) for o in given if o.verb == CONFLICT and o.args]
        return choose_duplicate(state, picks[-1] if picks else None, ev)
    state = place(state, player, valid_placements(state, player, given), ev)
    return next_turn(state)


def advance(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    """Run what nobody decides (income, forced choices) up to the next prompt or the end."""
    while not state.over:
        if state.step == "income":
            if state.turn == 0:
                ev.append(round_started(state))
            ev.append(public("turn_started", round=state.round, player=state.current))
            state = collect_income(state, state.current, ev)
            if state.round >= LAST_ROUND:
                if state.turn + 1 == len(state.seats):
                    return finish(state, ev)
                state = next_turn(state)
                continue
            state = replace(state, step="manage", pending=None)
        if state.step == "manage":
            if state.pending is None:
                pend = open_decision(state)
                if pend is None:
                    state = replace(state, step="place")
                    continue
                state = replace(state, pending=pend)
            pend = state.pending
            assert pend is not None
            if pend.stage == "conflict" and len(pend.bidders) < 2:
                # both counsellors are one player's: identical, so nothing to bribe for or decide
                state = keep(state, None, ev)
                continue
            kind = pend.awaiting
            if kind == "bribe":
                bidder = pend.next_bidder
                assert bidder is not None
                if state.money[bidder] < BRIBE_UNIT:
                    state = announce(state, 0, ev, auto=True)
                    continue
                return state
            if kind == "keep":
                if len(set(pend.bidders)) < 2:
                    state = keep(state, None, ev)
                    continue
                return state
            if kind == "post":
                if len(free_values(state.palaces[pend.palace])) < 2:
                    state = give_posts(state, [], ev)
                    continue
                return state
            return state  # "conflict": the owner chooses which duplicate to settle first
        if state.step == "place":
            if state.round <= PLACEMENT_ROUNDS and state.hands[state.current]:
                return state
            state = next_turn(state)
    return state
