"""Simultaneous mode: the round's schedule when everyone plays at once.

Each round is income (automatic), then everyone's placements, then sealed bribes from everyone
for every park they are involved in, then every owner's decisions.  Parks are managed in the
round of the placement, before the next income, so a counsellor placed in round r is paid from
round r+1, as in the sequential reading.  Round 6 has no placement, so nothing is left to manage
and rounds 6 and 7 are income only.  The palace rules themselves are in `settle`, shared with
the sequential mode.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.core import Event, Order, PlayerName, replace
from pbem.games.intrigue.orders import BRIBE, KEEP, POST
from pbem.games.intrigue.placing import place, valid_placements
from pbem.games.intrigue.settle import assign_posts, next_conflict, settle_conflict, settle_duplicates
from pbem.games.intrigue.state import BRIBE_UNIT, LAST_ROUND, MOTIFS, PLACEMENT_ROUNDS, Bribe, IntrigueState
from pbem.games.intrigue.table import (
    absent_pieces,
    affordable,
    collect_income,
    conflict_motifs,
    finish,
    free_values,
    from_left,
    incumbent,
    park_motifs,
    park_owners,
    pay,
    public,
    round_started,
)


@dataclass(frozen=True)
class Situation:
    """One motif in one park, with everyone who may bribe for it."""

    palace: str
    motif: str
    park_owners: tuple[str, ...]
    incumbent: str | None

    @property
    def bidders(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.park_owners + ((self.incumbent,) if self.incumbent else ())))

    @property
    def own_conflict(self) -> bool:
        """A conflict between two counsellors of one player: identical, so no bribe and no decision."""
        return self.park_owners == (self.incumbent,)


def situations(state: IntrigueState, palace_owner: str) -> list[Situation]:
    """Every motif waiting in a palace's park, in motif order."""
    palace = state.palaces[palace_owner]
    out: list[Situation] = []
    for m in park_motifs(palace):
        inc = incumbent(palace, m)
        owners = from_left(state, palace_owner, park_owners(palace, m))
        out.append(Situation(palace_owner, m, owners, inc.holder.owner if inc and inc.holder else None))
    return out


def involvements(state: IntrigueState, player: str) -> list[Situation]:
    """The bribes step: the situations ``player`` may bribe for, palaces in seating order."""
    out: list[Situation] = []
    for owner in state.seats:
        out.extend(s for s in situations(state, owner) if player in s.bidders and not s.own_conflict)
    return out


def owner_has_choice(state: IntrigueState, owner: str) -> bool:
    palace = state.palaces[owner]
    for s in situations(state, owner):
        if len(s.bidders) >= 2:
            return True
    return len(absent_pieces(palace)) >= 1 and len(free_values(palace)) >= 2


def prompted(state: IntrigueState) -> list[tuple[str, str]]:
    """(player, prompt kind) for everyone asked at the open step."""
    if state.step == "placements" and state.round <= PLACEMENT_ROUNDS:
        return [(p, "place") for p in state.seats if state.hands[p]]
    if state.step == "bribes":
        return [(p, "bribe") for p in state.seats if state.money[p] >= BRIBE_UNIT and involvements(state, p)]
    if state.step == "decisions":
        return [(p, "decide") for p in state.seats if state.palaces[p].park and owner_has_choice(state, p)]
    return []


def sealed_bids(state: IntrigueState, palace: str) -> dict[tuple[str, str], int]:
    """The sealed bribes revealed this round for ``palace``, by (payer, motif)."""
    return {
        (b.payer, b.motif): b.amount
        for b in state.bribes
        if b.round == state.round and b.palace == palace and b.stage == "sealed"
    }


def reveal_bribes(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    """Reveal and pay every sealed bribe at once (silent: 0; each player's total clipped to their money)."""
    records: list[Bribe] = []
    budget = dict(state.money)
    for player in state.seats:
        wanted: dict[tuple[str, str], int] = {}
        for o in orders.get(player, ()):
            if o.verb == BRIBE and len(o.args) == 3:
                wanted[(str(o.args[0]), str(o.args[1]))] = int(o.args[2])
        for s in involvements(state, player):
            amount = affordable(state, player, wanted.get((s.palace, s.motif), 0), budget[player])
            budget[player] -= amount
            records.append(Bribe(state.round, s.palace, s.motif, player, amount, "sealed"))
    for b in records:
        state = pay(state, b.payer, b.palace, b.amount)
    state = replace(state, bribes=state.bribes + tuple(records))
    ev.append(
        public(
            "bribes_revealed",
            round=state.round,
            bribes=[{"palace": b.palace, "motif": b.motif, "payer": b.payer, "amount": b.amount} for b in records],
        )
    )
    return replace(state, step="decisions")


def manage(state: IntrigueState, owner: str, orders: Sequence[Order], ev: list[Event]) -> IntrigueState:
    """Apply the rules in order to one palace, with the owner's GARDER/POSTE orders or the defaults."""
    bids = sealed_bids(state, owner)
    keeps: dict[str, str] = {}
    posts: dict[str, tuple[str, int]] = {}
    for o in orders:
        if o.verb == KEEP and len(o.args) == 2:
            keeps[str(o.args[1])] = str(o.args[0])
        elif o.verb == POST and len(o.args) == 3:
            posts[str(o.args[1])] = (str(o.args[0]), int(o.args[2]))
    # 1. same motif several times in the park: keep one, the others go to the island
    for s in situations(state, owner):
        if len(s.park_owners) < 2:
            continue
        wish = keeps.get(s.motif) or (posts[s.motif][0] if s.motif in posts else None)
        motif_bids = {p: bids.get((p, s.motif), 0) for p in s.park_owners}
        state = settle_duplicates(state, owner, s.motif, s.park_owners, wish, motif_bids, "sealed", ev)
    # 2. motifs absent from the palace: each gets a free post
    absent = absent_pieces(state.palaces[owner])
    if absent:
        wanted = [(pc.owner, pc.motif, posts[pc.motif][1]) for pc in absent
                  if pc.motif in posts and posts[pc.motif][0] == pc.owner]
        state = assign_posts(state, owner, wanted, bids, ev)
    # 3. conflicts with counsellors in post, post of least value first
    palace = state.palaces[owner]
    while conflict_motifs(palace):
        m = next_conflict(palace)
        motif_bids = {p: amount for (p, bm), amount in bids.items() if bm == m}
        state, palace = settle_conflict(state, owner, m, keeps.get(m), motif_bids, "sealed", ev)
    return state


def default_decisions(state: IntrigueState, owner: str) -> list[Order]:
    """The owner's default GARDER (final keeper of each contested motif) and POSTE orders."""
    ev: list[Event] = []
    manage(state, owner, [], ev)
    keeps: dict[str, str] = {}
    posts: list[Order] = []
    for e in ev:
        if e.kind == "duplicates_resolved":
            keeps[str(e.data["motif"])] = str(e.data["kept"])
        elif e.kind == "conflict_resolved" and e.data["incumbent"] != e.data["challenger"]:
            keeps[str(e.data["motif"])] = str(e.data["winner"])
        elif e.kind == "post_assigned":
            who, m, v = str(e.data["player"]), str(e.data["motif"]), int(e.data["value"])
            posts.append(Order(POST, (who, m, v), f"{POST} {who} {m} {v}"))
    out = [Order(KEEP, (keeps[m], m), f"{KEEP} {keeps[m]} {m}") for m in MOTIFS if m in keeps]
    return out + posts


def decisions(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    """Every owner manages their park; the round ends."""
    for owner in state.seats:
        if state.palaces[owner].park:
            state = manage(state, owner, orders.get(owner, ()), ev)
    return replace(state, round=state.round + 1, step="income")


def placements(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    for player in state.seats:
        if state.hands[player]:
            state = place(state, player, valid_placements(state, player, orders.get(player, ())), ev)
    return replace(state, step="bribes")


def apply(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    """Resolve the open step with everyone's orders."""
    if state.step == "bribes":
        return reveal_bribes(state, orders, ev)
    if state.step == "decisions":
        return decisions(state, orders, ev)
    if state.step == "placements":
        return placements(state, orders, ev)
    return state


def advance(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    """Run the steps nobody decides (income, steps with no prompt) up to the next prompt or the end."""
    while True:
        if state.step == "income":
            ev.append(round_started(state))
            for p in state.seats:
                state = collect_income(state, p, ev)
            if state.round >= LAST_ROUND:
                return finish(state, ev)
            state = replace(state, step="placements")
        if state.step == "placements":
            if prompted(state):
                return state
            state = replace(state, step="bribes")
        if state.step == "bribes":
            if prompted(state):
                return state
            if any(involvements(state, p) for p in state.seats):
                state = reveal_bribes(state, {}, ev)
            state = replace(state, step="decisions")
        if state.step == "decisions":
            if prompted(state):
                return state
            state = decisions(state, {}, ev)
        if state.step == "over":
            return state
