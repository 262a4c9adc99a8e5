"""Intrigue (Stefan Dorra, 1994): the ruleset.

Two ways to play by mail (option ``mode``):

* ``sequential`` (faithful): one decision at a time, in the order of the rules; bribes are
  announced openly in turn starting left of the palace owner.  `prompts` returns one prompt.
* ``simultaneous`` (default): each round is income (automatic), then sealed bribes from everyone
  for every park they are involved in, then every owner's decisions, then everyone's placements.

"Left" of a player is the next player in seating order, who also plays next.
See ``docs/rules/intrigue.md`` for the rulings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.core import (
    JSON,
    MJ,
    PUBLIC,
    Audience,
    Event,
    Msg,
    Order,
    OrderHelp,
    OrderNotAllowedError,
    OrderSyntaxError,
    Outcome,
    PlayerName,
    Prompt,
    Seat,
    SetupError,
    StepWord,
    replace,
)
from pbem.dice import Dice
from pbem.games.intrigue.orders import (
    BRIBE,
    CONFLICT,
    ENGLISH,
    KEEP,
    PLACE,
    PLACE_LINKS,
    POST,
    fmt,
    parse_amount,
    split_verb,
    starts_with_motif,
    take_motif,
)
from pbem.games.intrigue.state import (
    BRIBE_UNIT,
    DEFAULT_POST_VALUES,
    LAST_ROUND,
    MODES,
    MOTIF_NAMES,
    MOTIFS,
    PLACEMENT_ROUNDS,
    START_MONEY,
    Bribe,
    IntrigueState,
    Options,
    Palace,
    Pending,
    Piece,
    Post,
)
from pbem.names import fold, take_name

# ---------------------------------------------------------------- small helpers


def _pub(kind: str, **data: JSON) -> Event:
    return Event(kind, Audience.public(), data)


def left_of(state: IntrigueState, owner: str) -> list[str]:
    """The other players, starting with the one at ``owner``'s left (the next in seating order)."""
    i = state.seats.index(owner)
    n = len(state.seats)
    return [state.seats[(i + k) % n] for k in range(1, n)]


def _left_rank(state: IntrigueState, owner: str, player: str) -> int:
    order = left_of(state, owner)
    return order.index(player) if player in order else len(order)


def _from_left(state: IntrigueState, owner: str, players: Sequence[str]) -> tuple[str, ...]:
    wanted = set(players)
    return tuple(p for p in left_of(state, owner) if p in wanted)


def _set_palace(state: IntrigueState, palace: Palace) -> IntrigueState:
    palaces = dict(state.palaces)
    palaces[palace.owner] = palace
    return replace(state, palaces=palaces)


def _pay(state: IntrigueState, payer: str, payee: str, amount: int) -> IntrigueState:
    if amount == 0:
        return state
    money = dict(state.money)
    money[payer] -= amount
    money[payee] += amount
    return replace(state, money=money)


def _affordable(state: IntrigueState, player: str, amount: int) -> int:
    """``amount`` clipped to what ``player`` has, in whole multiples of 10,000."""
    amount = max(0, min(amount, state.money[player]))
    return amount - amount % BRIBE_UNIT


def _incumbent(palace: Palace, motif: str) -> Post | None:
    for post in palace.posts:
        if post.holder is not None and post.holder.motif == motif:
            return post
    return None


def _free_values(palace: Palace) -> list[int]:
    return [post.value for post in palace.posts if post.holder is None]


def _park_motifs(palace: Palace) -> list[str]:
    return [m for m in MOTIFS if any(pc.motif == m for pc in palace.park)]


def _park_owners(palace: Palace, motif: str) -> list[str]:
    return [pc.owner for pc in palace.park if pc.motif == motif]


def _remove_from_park(palace: Palace, pieces: Sequence[Piece]) -> Palace:
    park = list(palace.park)
    for pc in pieces:
        park.remove(pc)
    return replace(palace, park=tuple(park))


def _put_in_post(palace: Palace, value: int, piece: Piece | None) -> Palace:
    posts = tuple(replace(p, holder=piece) if p.value == value else p for p in palace.posts)
    return replace(palace, posts=posts)


def income_of(state: IntrigueState, player: str) -> tuple[int, list[dict[str, JSON]]]:
    """The income ``player`` collects now: the value of every post one of their counsellors holds."""
    total = 0
    detail: list[dict[str, JSON]] = []
    for owner in state.seats:
        for post in state.palaces[owner].posts:
            if post.holder is not None and post.holder.owner == player:
                total += post.value
                detail.append({"palace": owner, "motif": post.holder.motif, "value": post.value})
    return total, detail


def _collect_income(state: IntrigueState, player: str, ev: list[Event]) -> IntrigueState:
    amount, detail = income_of(state, player)
    money = dict(state.money)
    money[player] += amount
    state = replace(state, money=money, income_paid=state.income_paid + amount)
    ev.append(_pub("income", round=state.round, player=player, amount=amount, detail=detail, money=money[player]))
    return state


def _banish(state: IntrigueState, pieces: Sequence[Piece]) -> IntrigueState:
    return replace(state, island=state.island + tuple(pieces))


def _bids_this_round(state: IntrigueState, palace: str) -> dict[tuple[str, str], int]:
    """Simultaneous mode: the sealed bribes revealed this round for ``palace``, by (payer, motif)."""
    return {
        (b.payer, b.motif): b.amount
        for b in state.bribes
        if b.round == state.round and b.palace == palace and b.stage == "sealed"
    }


def _refund(state: IntrigueState, palace: str, motif: str, loser: str, stage: str, ev: list[Event]) -> IntrigueState:
    """Variant: the owner of the counsellor who lost a conflict gets their bribe for it back."""
    bribes = list(state.bribes)
    for i in range(len(bribes) - 1, -1, -1):
        b = bribes[i]
        if (b.round, b.palace, b.motif, b.payer, b.stage) == (state.round, palace, motif, loser, stage):
            if b.refunded or b.amount == 0:
                return state
            bribes[i] = replace(b, refunded=True)
            state = replace(state, bribes=tuple(bribes))
            state = _pay(state, palace, loser, b.amount)
            ev.append(_pub("bribe_refunded", palace=palace, motif=motif, player=loser, amount=b.amount))
            return state
    return state


# ---------------------------------------------------------------- default decisions (documented)


def default_keep(
    state: IntrigueState, palace: str, candidates: Sequence[str], bids: Mapping[str, int], incumbent: str | None
) -> str:
    """Who stays: the highest bribe; ties to the incumbent, then to the player nearest the owner's left."""
    return min(
        candidates,
        key=lambda c: (-bids.get(c, 0), 0 if c == incumbent else 1, _left_rank(state, palace, c)),
    )


def default_posts(
    state: IntrigueState, palace: Palace, pieces: Sequence[Piece], bids: Mapping[str, int]
) -> list[tuple[Piece, int]]:
    """Free posts: the highest bribe gets the highest-value free post (ties: nearest the owner's left)."""
    ranked = sorted(pieces, key=lambda pc: (-bids.get(pc.owner, 0), _left_rank(state, palace.owner, pc.owner)))
    values = sorted(_free_values(palace), reverse=True)
    return list(zip(ranked, values, strict=False))


def default_placements(state: IntrigueState, player: str, taken: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """Two (motif, palace owner) placements for a silent player, completing ``taken``.

    Among the counsellors still in hand and the opponents not used this round, the first of:
    (1) a palace whose posts and park lack the motif (a free post, no conflict), (2) a palace where
    that motif is held or waited for by someone else, (3) anything else; ties go to motifs of which
    two are still in hand (the cheapest to lose), then the fixed motif order, then the opponent
    nearest the player's left.
    """
    hand = list(state.hands[player])
    for m, _ in taken:
        hand.remove(m)
    used = {t for _, t in taken}
    out = list(taken)
    while len(out) < 2 and hand:
        targets = [t for t in left_of(state, player) if t not in used]
        if not targets:
            break
        best: tuple[tuple[int, int, int, int], str, str] | None = None
        for m in dict.fromkeys(hand):
            for rank, t in enumerate(targets):
                pal = state.palaces[t]
                inc = _incumbent(pal, m)
                waiting = _park_owners(pal, m)
                if inc is None and not waiting:
                    category = 0
                elif (inc is None or inc.holder is None or inc.holder.owner != player) and player not in waiting:
                    category = 1
                else:
                    category = 2
                key = (category, -hand.count(m), MOTIFS.index(m), rank)
                if best is None or key < best[0]:
                    best = (key, m, t)
        assert best is not None
        out.append((best[1], best[2]))
        hand.remove(best[1])
        used.add(best[2])
    return out


def next_conflict(palace: Palace) -> str:
    """The conflict the rules resolve first when the owner says nothing: the post of least value."""
    conflicts = _conflict_motifs(palace)
    return min(conflicts, key=lambda m: _value_of(palace, m))


def _value_of(palace: Palace, motif: str) -> int:
    post = _incumbent(palace, motif)
    return post.value if post is not None else 0


def _conflict_motifs(palace: Palace) -> list[str]:
    return [m for m in _park_motifs(palace) if _incumbent(palace, m) is not None]


def _absent_pieces(palace: Palace) -> list[Piece]:
    return [pc for pc in palace.park if _incumbent(palace, pc.motif) is None]


# ---------------------------------------------------------------- simultaneous mode


@dataclass(frozen=True)
class Situation:
    """Simultaneous mode: one motif in one park, with everyone who may bribe for it."""

    palace: str
    motif: str
    park_owners: tuple[str, ...]
    incumbent: str | None

    @property
    def bidders(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.park_owners + ((self.incumbent,) if self.incumbent else ())))


def situations(state: IntrigueState, palace_owner: str) -> list[Situation]:
    """Every motif waiting in a palace's park, in motif order."""
    palace = state.palaces[palace_owner]
    out: list[Situation] = []
    for m in _park_motifs(palace):
        inc = _incumbent(palace, m)
        owners = _from_left(state, palace_owner, _park_owners(palace, m))
        out.append(Situation(palace_owner, m, owners, inc.holder.owner if inc and inc.holder else None))
    return out


def involvements(state: IntrigueState, player: str) -> list[Situation]:
    """Simultaneous bribes step: the situations ``player`` may bribe for, palaces in seating order."""
    out: list[Situation] = []
    for owner in state.seats:
        out.extend(s for s in situations(state, owner) if player in s.bidders)
    return out


def _owner_has_choice(state: IntrigueState, owner: str) -> bool:
    palace = state.palaces[owner]
    for s in situations(state, owner):
        if len(s.bidders) >= 2:
            return True
    return len(_absent_pieces(palace)) >= 1 and len(_free_values(palace)) >= 2


def _sim_prompted(state: IntrigueState) -> list[tuple[str, str]]:
    if state.step == "bribes":
        return [(p, "bribe") for p in state.seats if state.money[p] >= BRIBE_UNIT and involvements(state, p)]
    if state.step == "decisions":
        return [(p, "decide") for p in state.seats if state.palaces[p].park and _owner_has_choice(state, p)]
    if state.step == "placements" and state.round <= PLACEMENT_ROUNDS:
        return [(p, "place") for p in state.seats if state.hands[p]]
    return []


def _sim_bribes(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    """Reveal and pay every sealed bribe at once (silent: 0; each player's total clipped to their money)."""
    records: list[Bribe] = []
    budget = dict(state.money)
    for player in state.seats:
        wanted: dict[tuple[str, str], int] = {}
        for o in orders.get(player, ()):
            if o.verb == BRIBE and len(o.args) == 3:
                wanted[(str(o.args[0]), str(o.args[1]))] = int(o.args[2])
        for s in involvements(state, player):
            amount = wanted.get((s.palace, s.motif), 0)
            amount = max(0, min(amount, budget[player]))
            amount -= amount % BRIBE_UNIT
            budget[player] -= amount
            records.append(Bribe(state.round, s.palace, s.motif, player, amount, "sealed"))
    for b in records:
        state = _pay(state, b.payer, b.palace, b.amount)
    state = replace(state, bribes=state.bribes + tuple(records))
    ev.append(
        _pub(
            "bribes_revealed",
            round=state.round,
            bribes=[{"palace": b.palace, "motif": b.motif, "payer": b.payer, "amount": b.amount} for b in records],
        )
    )
    return replace(state, step="decisions")


def _sim_manage(state: IntrigueState, owner: str, orders: Sequence[Order], ev: list[Event]) -> IntrigueState:
    """Apply the rules in order to one palace, with the owner's GARDER/POSTE orders or the defaults."""
    bids = _bids_this_round(state, owner)
    keeps: dict[str, str] = {}
    posts: dict[str, tuple[str, int]] = {}
    for o in orders:
        if o.verb == KEEP and len(o.args) == 2:
            keeps[str(o.args[1])] = str(o.args[0])
        elif o.verb == POST and len(o.args) == 3:
            posts[str(o.args[1])] = (str(o.args[0]), int(o.args[2]))
    palace = state.palaces[owner]
    # 1. same motif several times in the park: keep one, the others go to the island
    for s in situations(state, owner):
        if len(s.park_owners) < 2:
            continue
        mb = {p: bids.get((p, s.motif), 0) for p in s.park_owners}
        wish = keeps.get(s.motif) or (posts[s.motif][0] if s.motif in posts else None)
        kept = wish if wish in s.park_owners else default_keep(state, owner, s.park_owners, mb, None)
        gone = [Piece(p, s.motif) for p in s.park_owners if p != kept]
        palace = _remove_from_park(palace, gone)
        state = _banish(_set_palace(state, palace), gone)
        ev.append(_pub("duplicates_resolved", palace=owner, motif=s.motif, kept=kept, banished=[g.owner for g in gone]))
    # 2. motifs absent from the palace: each gets a free post
    absent = _absent_pieces(palace)
    if absent:
        chosen: list[tuple[Piece, int]] = []
        free = _free_values(palace)
        for pc in absent:
            want = posts.get(pc.motif)
            if want and want[0] == pc.owner and want[1] in free:
                chosen.append((pc, want[1]))
                free.remove(want[1])
        rest = [pc for pc in absent if pc not in [c[0] for c in chosen]]
        tmp = palace
        for _, v in chosen:
            tmp = _put_in_post(tmp, v, Piece(owner, "?"))
        chosen += default_posts(state, tmp, rest, {pc.owner: bids.get((pc.owner, pc.motif), 0) for pc in rest})
        for pc, v in sorted(chosen, key=lambda c: _left_rank(state, owner, c[0].owner)):
            palace = _put_in_post(_remove_from_park(palace, [pc]), v, pc)
            ev.append(_pub("post_assigned", palace=owner, player=pc.owner, motif=pc.motif, value=v))
        state = _set_palace(state, palace)
    # 3. conflicts with counsellors in post, post of least value first
    while _conflict_motifs(palace):
        m = next_conflict(palace)
        post = _incumbent(palace, m)
        assert post is not None and post.holder is not None
        inc = post.holder.owner
        newcomer = _park_owners(palace, m)[0]
        if inc == newcomer:
            winner = inc
        else:
            wish = keeps.get(m)
            winner = wish if wish in (inc, newcomer) else default_keep(
                state, owner, [inc, newcomer], {inc: bids.get((inc, m), 0), newcomer: bids.get((newcomer, m), 0)}, inc
            )
        loser = newcomer if winner == inc else inc
        palace = _remove_from_park(palace, [Piece(newcomer, m)])
        palace = _put_in_post(palace, post.value, Piece(winner, m))
        state = _banish(_set_palace(state, palace), [Piece(loser, m)])
        ev.append(
            _pub("conflict_resolved", palace=owner, motif=m, value=post.value, incumbent=inc, challenger=newcomer,
                 winner=winner, loser=loser)
        )
        if state.options.refund_loser:
            state = _refund(state, owner, m, loser, "sealed", ev)
    return state


def _sim_default_decisions(state: IntrigueState, owner: str) -> list[Order]:
    """The owner's default GARDER (final keeper of each contested motif) and POSTE orders."""
    ev: list[Event] = []
    _sim_manage(state, owner, [], ev)
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


def _sim_decisions(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    for owner in state.seats:
        if state.palaces[owner].park:
            state = _sim_manage(state, owner, orders.get(owner, ()), ev)
    return replace(state, step="placements")


def _valid_placements(state: IntrigueState, player: str, orders: Sequence[Order]) -> list[tuple[str, str]]:
    hand = list(state.hands[player])
    out: list[tuple[str, str]] = []
    for o in orders:
        if o.verb != PLACE or len(o.args) != 2 or len(out) >= 2:
            continue
        m, t = str(o.args[0]), str(o.args[1])
        if m in hand and t in state.seats and t != player and t not in [x[1] for x in out]:
            hand.remove(m)
            out.append((m, t))
    return default_placements(state, player, out)


def _place(state: IntrigueState, player: str, placements: Sequence[tuple[str, str]], ev: list[Event]) -> IntrigueState:
    hand = list(state.hands[player])
    for m, t in placements:
        hand.remove(m)
        palace = state.palaces[t]
        state = _set_palace(state, replace(palace, park=palace.park + (Piece(player, m),)))
        ev.append(_pub("placed", round=state.round, player=player, motif=m, palace=t))
    hands = dict(state.hands)
    hands[player] = tuple(hand)
    return replace(state, hands=hands)


def _sim_placements(state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
    for player in state.seats:
        if state.hands[player]:
            state = _place(state, player, _valid_placements(state, player, orders.get(player, ())), ev)
    return replace(state, round=state.round + 1, step="income")


def _sim_advance(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    while True:
        if state.step == "income":
            ev.append(_round_started(state))
            for p in state.seats:
                state = _collect_income(state, p, ev)
            if state.round >= LAST_ROUND:
                return _finish(state, ev)
            state = replace(state, step="bribes")
        if state.step == "bribes":
            if _sim_prompted(state):
                return state
            if any(involvements(state, p) for p in state.seats):
                state = _sim_bribes(state, {}, ev)
            state = replace(state, step="decisions")
        if state.step == "decisions":
            if _sim_prompted(state):
                return state
            state = _sim_decisions(state, {}, ev)
        if state.step == "placements":
            if state.round <= PLACEMENT_ROUNDS:
                return state
            state = replace(state, round=state.round + 1, step="income")
        if state.step == "over":
            return state


# ---------------------------------------------------------------- sequential mode


def _seq_awaiting(state: IntrigueState) -> tuple[str, str] | None:
    """(player, prompt kind) awaited now in sequential mode."""
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


def _seq_open(state: IntrigueState) -> Pending | None:
    """The next management decision in the current player's palace, or None when the park is empty."""
    owner = state.current
    palace = state.palaces[owner]
    for s in situations(state, owner):
        if len(s.park_owners) >= 2:
            return Pending(owner, "duplicate", s.motif, s.park_owners)
    absent = _absent_pieces(palace)
    if absent:
        return Pending(owner, "post", "", _from_left(state, owner, [pc.owner for pc in absent]))
    conflicts = _conflict_motifs(palace)
    if len(conflicts) >= 2:
        return Pending(owner, "choose")
    if conflicts:
        return _conflict_pending(state, conflicts[0])
    return None


def _conflict_pending(state: IntrigueState, motif: str) -> Pending:
    owner = state.current
    palace = state.palaces[owner]
    post = _incumbent(palace, motif)
    assert post is not None and post.holder is not None
    bidders = _from_left(state, owner, [post.holder.owner, _park_owners(palace, motif)[0]])
    return Pending(owner, "conflict", motif, bidders)


def _seq_bid(state: IntrigueState, amount: int, ev: list[Event], auto: bool = False) -> IntrigueState:
    pend = state.pending
    assert pend is not None
    bidder = pend.next_bidder
    assert bidder is not None
    amount = _affordable(state, bidder, amount)
    motif = pend.motif
    if pend.stage == "post":
        motif = next(pc.motif for pc in _absent_pieces(state.palaces[pend.palace]) if pc.owner == bidder)
    state = _pay(state, bidder, pend.palace, amount)
    state = replace(
        state,
        bribes=state.bribes + (Bribe(state.round, pend.palace, motif, bidder, amount, pend.stage),),
        pending=replace(pend, bids=pend.bids + (amount,)),
    )
    ev.append(
        _pub("bribe_announced", palace=pend.palace, motif=motif, player=bidder, amount=amount, stage=pend.stage,
             auto=auto, money=state.money[bidder])
    )
    return state


def _seq_keep(state: IntrigueState, kept: str | None, ev: list[Event]) -> IntrigueState:
    pend = state.pending
    assert pend is not None
    owner, m = pend.palace, pend.motif
    palace = state.palaces[owner]
    bids = dict(zip(pend.bidders, pend.bids, strict=True))
    if pend.stage == "duplicate":
        cands = list(pend.bidders)
        if kept not in cands:
            kept = default_keep(state, owner, cands, bids, None)
        gone = [Piece(p, m) for p in cands if p != kept]
        palace = _remove_from_park(palace, gone)
        state = _banish(_set_palace(state, palace), gone)
        ev.append(_pub("duplicates_resolved", palace=owner, motif=m, kept=kept, banished=[g.owner for g in gone]))
        return replace(state, pending=None)
    post = _incumbent(palace, m)
    assert post is not None and post.holder is not None
    inc = post.holder.owner
    newcomer = _park_owners(palace, m)[0]
    if inc == newcomer:
        kept = inc
    elif kept not in (inc, newcomer):
        kept = default_keep(state, owner, [inc, newcomer], bids, inc)
    loser = newcomer if kept == inc else inc
    palace = _remove_from_park(palace, [Piece(newcomer, m)])
    palace = _put_in_post(palace, post.value, Piece(kept, m))
    state = _banish(_set_palace(state, palace), [Piece(loser, m)])
    ev.append(
        _pub("conflict_resolved", palace=owner, motif=m, value=post.value, incumbent=inc, challenger=newcomer,
             winner=kept, loser=loser)
    )
    if state.options.refund_loser:
        state = _refund(state, owner, m, loser, "conflict", ev)
    return replace(state, pending=None)


def _seq_posts(state: IntrigueState, wanted: Sequence[tuple[str, str, int]], ev: list[Event]) -> IntrigueState:
    pend = state.pending
    assert pend is not None
    owner = pend.palace
    palace = state.palaces[owner]
    absent = _absent_pieces(palace)
    free = _free_values(palace)
    chosen: list[tuple[Piece, int]] = []
    for player, m, v in wanted:
        pc = Piece(player, m)
        if pc in absent and v in free and pc not in [c[0] for c in chosen]:
            chosen.append((pc, v))
            free.remove(v)
    rest = [pc for pc in absent if pc not in [c[0] for c in chosen]]
    tmp = palace
    for _, v in chosen:
        tmp = _put_in_post(tmp, v, Piece(owner, "?"))
    bids = dict(zip(pend.bidders, pend.bids, strict=True))
    chosen += default_posts(state, tmp, rest, bids)
    for pc, v in sorted(chosen, key=lambda c: _left_rank(state, owner, c[0].owner)):
        palace = _put_in_post(_remove_from_park(palace, [pc]), v, pc)
        ev.append(_pub("post_assigned", palace=owner, player=pc.owner, motif=pc.motif, value=v))
    return replace(_set_palace(state, palace), pending=None)


def _seq_choose(state: IntrigueState, motif: str | None, ev: list[Event]) -> IntrigueState:
    palace = state.palaces[state.current]
    if motif not in _conflict_motifs(palace):
        motif = next_conflict(palace)
    assert motif is not None
    ev.append(_pub("conflict_chosen", palace=state.current, motif=motif, value=_value_of(palace, motif)))
    return replace(state, pending=_conflict_pending(state, motif))


def _next_turn(state: IntrigueState) -> IntrigueState:
    if state.turn + 1 < len(state.seats):
        return replace(state, turn=state.turn + 1, step="income", pending=None)
    return replace(state, turn=0, round=state.round + 1, step="income", pending=None)


def _seq_advance(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    while not state.over:
        if state.step == "income":
            if state.turn == 0:
                ev.append(_round_started(state))
            ev.append(_pub("turn_started", round=state.round, player=state.current))
            state = _collect_income(state, state.current, ev)
            if state.round >= LAST_ROUND:
                if state.turn + 1 == len(state.seats):
                    return _finish(state, ev)
                state = _next_turn(state)
                continue
            state = replace(state, step="manage", pending=None)
        if state.step == "manage":
            if state.pending is None:
                pend = _seq_open(state)
                if pend is None:
                    state = replace(state, step="place")
                    continue
                state = replace(state, pending=pend)
            pend = state.pending
            assert pend is not None
            kind = pend.awaiting
            if kind == "bribe":
                bidder = pend.next_bidder
                assert bidder is not None
                if state.money[bidder] < BRIBE_UNIT:
                    state = _seq_bid(state, 0, ev, auto=True)
                    continue
                return state
            if kind == "keep":
                if len(set(pend.bidders)) < 2:
                    state = _seq_keep(state, None, ev)
                    continue
                return state
            if kind == "post":
                if len(_free_values(state.palaces[pend.palace])) < 2:
                    state = _seq_posts(state, [], ev)
                    continue
                return state
            return state  # "conflict": the owner chooses the next conflict
        if state.step == "place":
            if state.round <= PLACEMENT_ROUNDS and state.hands[state.current]:
                return state
            state = _next_turn(state)
    return state


# ---------------------------------------------------------------- shared


def _round_started(state: IntrigueState) -> Event:
    return _pub(
        "round_started",
        round=state.round,
        placement=state.round <= PLACEMENT_ROUNDS,
        income_only=state.round >= LAST_ROUND,
        last_round=LAST_ROUND,
    )


def ranking(state: IntrigueState) -> list[dict[str, JSON]]:
    """Players by money, richest first (ties in seating order)."""
    order = sorted(state.seats, key=lambda p: (-state.money[p], state.seats.index(p)))
    return [{"player": p, "money": state.money[p]} for p in order]


def winners(state: IntrigueState) -> list[str]:
    """The richest player(s); a tie is a shared victory."""
    best = max(state.money[p] for p in state.seats)
    return [p for p in state.seats if state.money[p] == best]


def _finish(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    state = replace(state, step="over", pending=None)
    ev.append(_pub("game_over", winners=winners(state), ranking=ranking(state)))
    return state


def board(state: IntrigueState) -> dict[str, JSON]:
    """The public board: palaces (posts and parks), money, hands, island, bribes paid."""
    players: list[dict[str, JSON]] = []
    for p in state.seats:
        palace = state.palaces[p]
        players.append(
            {
                "name": p,
                "money": state.money[p],
                "hand": list(state.hands[p]),
                "income": income_of(state, p)[0],
                "posts": [
                    {
                        "value": post.value,
                        "player": post.holder.owner if post.holder else None,
                        "motif": post.holder.motif if post.holder else None,
                    }
                    for post in palace.posts
                ],
                "park": [{"player": pc.owner, "motif": pc.motif} for pc in palace.park],
            }
        )
    return {
        "round": state.round,
        "players": players,
        "island": [{"player": pc.owner, "motif": pc.motif} for pc in state.island],
    }


def _bribe_data(b: Bribe) -> dict[str, JSON]:
    return {
        "round": b.round,
        "palace": b.palace,
        "motif": b.motif,
        "player": b.payer,
        "amount": b.amount,
        "stage": b.stage,
        "refunded": b.refunded,
    }


def _awaited(state: IntrigueState) -> list[tuple[str, str]]:
    if state.over:
        return []
    if state.sequential:
        a = _seq_awaiting(state)
        return [a] if a else []
    return _sim_prompted(state)


def bribe_targets(state: IntrigueState, player: str) -> list[tuple[str, str]]:
    """(palace, motif) pairs ``player`` may bribe for now (when asked for a bribe)."""
    if state.sequential:
        pend = state.pending
        if pend is None or pend.next_bidder != player:
            return []
        motif = pend.motif
        if pend.stage == "post":
            motif = next(pc.motif for pc in _absent_pieces(state.palaces[pend.palace]) if pc.owner == player)
        return [(pend.palace, motif)]
    if state.step != "bribes":
        return []
    return [(s.palace, s.motif) for s in involvements(state, player)]


def keep_candidates(state: IntrigueState, player: str) -> dict[str, list[str]]:
    """Motif -> the players whose counsellor the owner ``player`` may name in GARDER now."""
    if state.sequential:
        pend = state.pending
        if pend is None or pend.palace != player or pend.awaiting != "keep":
            return {}
        return {pend.motif: list(pend.bidders)}
    if state.step != "decisions":
        return {}
    return {s.motif: list(s.bidders) for s in situations(state, player) if len(s.bidders) >= 2}


# ---------------------------------------------------------------- order parsing


def _not_now() -> OrderNotAllowedError:
    return OrderNotAllowedError(Msg("aucune décision n'est attendue de vous maintenant", "no decision is expected from you now"))


def _motif_label(m: str) -> str:
    return MOTIF_NAMES[m].fr


def _de(name: str) -> str:
    """French "de Bob" / "d'Alice"."""
    return ("d'" if fold(name)[:1] in "aeiouyh" else "de ") + name


class IntrigueRuleset:
    """Intrigue for play by mail: see the module docstring and ``docs/rules/intrigue.md``."""

    name = "intrigue"
    title = "Intrigue"
    state_type = IntrigueState
    step_word = StepWord("étape", "step", feminine=True)  # a manche has several steps (bribes, decisions...)
    default_options: Mapping[str, JSON] = {
        "mode": "simultaneous",
        "refund_loser": False,
        "post_values": list(DEFAULT_POST_VALUES),
        "seating": "draw",
    }

    # ----- setup

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[IntrigueState, list[Event]]:
        unknown = sorted(set(options) - set(self.default_options))
        if unknown:
            raise SetupError(Msg(f"options inconnues : {', '.join(unknown)}", f"unknown options: {', '.join(unknown)}"))
        opts = {**self.default_options, **options}
        mode = opts["mode"]
        if mode not in MODES:
            raise SetupError(Msg(f"mode inconnu « {mode} »", f"unknown mode '{mode}'"))
        values = opts["post_values"]
        if (
            not isinstance(values, (list, tuple))
            or len(values) != len(MOTIFS)
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)
            or len(set(values)) != len(values)
        ):
            raise SetupError(Msg("post_values : 5 valeurs entières positives, distinctes",
                                 "post_values: 5 distinct positive whole numbers"))
        if not isinstance(opts["refund_loser"], bool):
            raise SetupError(Msg("refund_loser : vrai ou faux", "refund_loser: true or false"))
        if opts["seating"] not in ("draw", "roster"):
            raise SetupError(Msg("seating : draw ou roster", "seating: draw or roster"))
        names = [s.name for s in roster]
        if not 3 <= len(names) <= 5:
            raise SetupError(Msg(f"Intrigue se joue de 3 à 5 joueurs (ici {len(names)})",
                                 f"Intrigue needs 3 to 5 players (got {len(names)})"))
        if len({fold(n) for n in names}) != len(names) or any(n.startswith("@") or not n.strip() for n in names):
            raise SetupError(Msg("noms de joueurs en double ou invalides", "duplicate or invalid player names"))
        seats = tuple(dice.shuffle(names, "seating order") if opts["seating"] == "draw" else names)
        posts = tuple(Post(v) for v in sorted(int(v) for v in values))
        state = IntrigueState(
            seats=seats,
            options=Options(str(mode), bool(opts["refund_loser"]), tuple(p.value for p in posts), str(opts["seating"])),
            money={p: START_MONEY for p in seats},
            hands={p: tuple(m for m in MOTIFS for _ in range(2)) for p in seats},
            palaces={p: Palace(p, posts) for p in seats},
            start_total=START_MONEY * len(seats),
        )
        ev = [
            _pub("setup", seats=list(seats), money=START_MONEY, post_values=list(state.options.post_values),
                 mode=state.options.mode, refund_loser=state.options.refund_loser)
        ]
        state = self._advance(state, ev)
        ev.append(_pub("board", **board(state)))
        return state, ev

    def _advance(self, state: IntrigueState, ev: list[Event]) -> IntrigueState:
        return _seq_advance(state, ev) if state.sequential else _sim_advance(state, ev)

    # ----- who decides

    def prompts(self, state: IntrigueState) -> list[Prompt]:
        deadline = "short" if state.sequential else "turn"
        return [Prompt(p, kind, deadline) for p, kind in _awaited(state)]

    def step_title(self, state: IntrigueState) -> Msg:
        if state.over:
            return Msg("Partie terminée", "Game over")
        r = state.round
        if not state.sequential:
            names = {
                "bribes": ("pots-de-vin", "bribes"),
                "decisions": ("décisions", "decisions"),
                "placements": ("placements", "placements"),
                "income": ("revenus", "income"),
            }
            fr, en = names.get(state.step, (state.step, state.step))
            return Msg(f"Manche {r} — {fr}", f"Round {r} — {en}")
        awaited = _seq_awaiting(state)
        if awaited is None:
            return Msg(f"Manche {r}", f"Round {r}")
        player, kind = awaited
        pend = state.pending
        where_fr = where_en = ""
        if pend is not None:
            where_fr = f" (palais {_de(pend.palace)}" + (f", {_motif_label(pend.motif)})" if pend.motif else ")")
            where_en = f" ({pend.palace}'s palace" + (f", {MOTIF_NAMES[pend.motif].en})" if pend.motif else ")")
        labels = {
            "bribe": ("pot-de-vin", "bribe"),
            "keep": ("décision", "decision"),
            "post": ("postes", "posts"),
            "conflict": ("choix du conflit", "next conflict"),
            "place": ("placement", "placement"),
        }
        fr, en = labels[kind]
        return Msg(f"Manche {r} — {player} : {fr}{where_fr}", f"Round {r} — {player}: {en}{where_en}")

    def players(self, state: IntrigueState) -> list[PlayerName]:
        return list(state.seats)

    def outcome(self, state: IntrigueState) -> Outcome | None:
        if not state.over:
            return None
        win = winners(state)
        best, best_en = fmt(state.money[win[0]]), f"{state.money[win[0]]:,}"
        if len(win) == 1:
            return Outcome(tuple(win), Msg(f"{win[0]} a la plus grosse fortune : {best}.",
                                           f"{win[0]} is the richest with {best_en}."))
        both_fr = f"{', '.join(win[:-1])} et {win[-1]}"
        both_en = f"{', '.join(win[:-1])} and {win[-1]}"
        return Outcome(tuple(win), Msg(f"Victoire partagée entre {both_fr}, avec {best} chacun.",
                                       f"Shared victory between {both_en}, with {best_en} each."))

    def immediate(self, state: IntrigueState, player: PlayerName, order: Order, dice: Dice) -> None:
        return None

    # ----- orders

    def _kind_for(self, state: IntrigueState, player: str) -> str:
        for p, kind in _awaited(state):
            if p == player:
                return kind
        raise _not_now()

    def parse_order(self, state: IntrigueState, player: PlayerName, line: str, accepted: Sequence[Order]) -> Order:
        verb, rest = split_verb(line)  # first: a line without an order word is no order (the engine's prose)
        if player == MJ or player not in state.seats:
            raise OrderNotAllowedError(Msg("le MJ n'a pas d'ordre de jeu à Intrigue (utilisez POUR <joueur> : ...)",
                                           "the MJ has no game orders in Intrigue (use POUR <player>: ...)"))
        text = line.strip()
        if state.over:
            raise OrderNotAllowedError(Msg("la partie est terminée", "the game is over"))
        kind = self._kind_for(state, player)
        expected = {"bribe": (BRIBE,), "keep": (KEEP,), "post": (POST,), "conflict": (CONFLICT,),
                    "place": (PLACE,), "decide": (KEEP, POST)}[kind]
        if verb not in expected:
            want = " / ".join(expected)
            raise OrderNotAllowedError(Msg(f"{verb} n'est pas possible maintenant (attendu : {want})",
                                           f"{verb} is not possible now (expected: {want})"))
        if verb == BRIBE:
            return self._parse_bribe(state, player, rest, accepted, text)
        if verb == KEEP:
            return self._parse_keep(state, player, rest, accepted, text)
        if verb == POST:
            return self._parse_post(state, player, rest, accepted, text)
        if verb == CONFLICT:
            motif, extra = take_motif(rest)
            if extra:
                raise OrderSyntaxError(Msg("syntaxe : CONFLIT <motif>", "syntax: CONFLICT <motif>"))
            if motif not in _conflict_motifs(state.palaces[player]):
                raise OrderNotAllowedError(Msg(f"pas de conflit pour le motif {_motif_label(motif)}",
                                               f"no conflict for motif {motif}"))
            return Order(CONFLICT, (motif,), text)
        return self._parse_place(state, player, rest, accepted, text)

    def _parse_bribe(self, state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
        targets = bribe_targets(state, player)
        syntax = Msg("syntaxe : POT-DE-VIN <propriétaire du palais> <motif> <montant>",
                     "syntax: BRIBE <palace owner> <motif> <amount>")
        if not rest:
            raise OrderSyntaxError(syntax)
        if rest[0][0].isdigit() and not starts_with_motif(rest):
            # short form: only the amount, when the situation is unique
            if len(targets) != 1:
                raise OrderSyntaxError(Msg("précisez le palais et le motif : POT-DE-VIN <propriétaire> <motif> <montant>",
                                           "give the palace and motif: BRIBE <palace owner> <motif> <amount>"))
            palace, motif = targets[0]
            amount = parse_amount(rest)
        else:
            if starts_with_motif(rest):
                palaces = list(dict.fromkeys(t[0] for t in targets))
                if len(palaces) != 1:
                    raise OrderSyntaxError(syntax)
                palace = palaces[0]
                motif, tail = take_motif(rest)
            else:
                palace, tail = take_name(rest, list(state.seats))
                if not tail:
                    raise OrderSyntaxError(syntax)
                if tail[0][0].isdigit() and not starts_with_motif(tail):
                    motifs = [m for pal, m in targets if pal == palace]
                    if len(motifs) != 1:
                        raise OrderSyntaxError(syntax)
                    motif = motifs[0]
                else:
                    motif, tail = take_motif(tail)
            amount = parse_amount(tail)
        if (palace, motif) not in targets:
            raise OrderNotAllowedError(Msg(
                f"vous n'êtes pas concerné par le motif {_motif_label(motif)} dans le parc {_de(palace)}",
                f"you are not involved with motif {motif} in {palace}'s park"))
        if amount % BRIBE_UNIT:
            raise OrderNotAllowedError(Msg(f"un pot-de-vin est un multiple de 10 000 (pas {fmt(amount)})",
                                           f"a bribe is a multiple of 10,000 (not {amount:,})"))
        others = sum(
            int(o.args[2]) for o in accepted
            if o.verb == BRIBE and len(o.args) == 3 and (o.args[0], o.args[1]) != (palace, motif)
        )
        if amount + others > state.money[player]:
            raise OrderNotAllowedError(Msg(
                f"vous n'avez que {fmt(state.money[player])}" + (f" (dont {fmt(others)} déjà promis)" if others else ""),
                f"you only have {state.money[player]:,}" + (f" ({others:,} already promised)" if others else "")))
        return Order(BRIBE, (palace, motif, amount), text)

    def _parse_keep(self, state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
        sits = keep_candidates(state, player)
        if not sits:
            raise _not_now()
        if not rest:
            raise OrderSyntaxError(Msg("syntaxe : GARDER <joueur> <motif>", "syntax: KEEP <player> <motif>"))
        kept, tail = take_name(rest, list(state.seats))
        if tail:
            motif, tail = take_motif(tail)
            if tail:
                raise OrderSyntaxError(Msg("syntaxe : GARDER <joueur> <motif>", "syntax: KEEP <player> <motif>"))
        else:
            motifs = [m for m, c in sits.items() if kept in c]
            if len(motifs) != 1:
                raise OrderSyntaxError(Msg("précisez le motif : GARDER <joueur> <motif>", "give the motif: KEEP <player> <motif>"))
            motif = motifs[0]
        if motif not in sits:
            raise OrderNotAllowedError(Msg(f"rien à décider pour le motif {_motif_label(motif)}",
                                           f"nothing to decide for motif {motif}"))
        if kept not in sits[motif]:
            listed = ", ".join(sits[motif])
            raise OrderNotAllowedError(Msg(f"{kept} n'a pas de conseiller {_motif_label(motif)} en jeu ici ({listed})",
                                           f"{kept} has no {motif} counsellor at stake here ({listed})"))
        for o in accepted:
            if o.verb == POST and o.args[1] == motif and o.args[0] != kept:
                raise OrderNotAllowedError(Msg(f"contredit « {o.text} »", f"contradicts '{o.text}'"))
        return Order(KEEP, (kept, motif), text)

    def _post_candidates(self, state: IntrigueState, player: str) -> list[Piece]:
        palace = state.palaces[player]
        return _absent_pieces(palace)

    def _parse_post(self, state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
        palace = state.palaces[player]
        cands = self._post_candidates(state, player)
        syntax = Msg("syntaxe : POSTE <joueur> <motif> <valeur du poste>", "syntax: POST <player> <motif> <post value>")
        if not cands:
            raise OrderNotAllowedError(Msg("aucun conseiller n'attend de poste libre", "no counsellor is waiting for a free post"))
        if not rest:
            raise OrderSyntaxError(syntax)
        if starts_with_motif(rest):
            motif, tail = take_motif(rest)
            owners = [pc.owner for pc in cands if pc.motif == motif]
            if len(owners) > 1:
                raise OrderSyntaxError(Msg(f"plusieurs conseillers {_motif_label(motif)} : précisez le joueur",
                                           f"several {motif} counsellors: name the player"))
            if not owners:
                raise OrderNotAllowedError(Msg(f"aucun conseiller {_motif_label(motif)} n'attend de poste libre",
                                               f"no {motif} counsellor waits for a free post"))
            who = owners[0]
        else:
            who, tail = take_name(rest, list(state.seats))
            if tail and not tail[0][0].isdigit() or starts_with_motif(tail):
                motif, tail = take_motif(tail)
            else:
                mine = [pc.motif for pc in cands if pc.owner == who]
                if len(mine) != 1:
                    raise OrderSyntaxError(syntax)
                motif = mine[0]
        if Piece(who, motif) not in cands:
            raise OrderNotAllowedError(Msg(f"{who} n'a pas de conseiller {_motif_label(motif)} attendant un poste libre",
                                           f"{who} has no {motif} counsellor waiting for a free post"))
        value = parse_amount(tail)
        free = _free_values(palace)
        if value not in free:
            listed = ", ".join(fmt(v) for v in free)
            raise OrderNotAllowedError(Msg(f"pas de poste libre de valeur {fmt(value)} (libres : {listed})",
                                           f"no free post worth {value:,} (free: {', '.join(f'{v:,}' for v in free)})"))
        for o in accepted:
            if o.verb == POST and o.args[2] == value and o.args[1] != motif:
                raise OrderNotAllowedError(Msg(f"ce poste est déjà donné par « {o.text} »", f"that post is already given by '{o.text}'"))
            if o.verb == KEEP and o.args[1] == motif and o.args[0] != who:
                raise OrderNotAllowedError(Msg(f"contredit « {o.text} »", f"contradicts '{o.text}'"))
        return Order(POST, (who, motif, value), text)

    def _parse_place(self, state: IntrigueState, player: str, rest: list[str], accepted: Sequence[Order], text: str) -> Order:
        syntax = Msg("syntaxe : PLACER <motif> CHEZ <joueur>", "syntax: PLACE <motif> AT <player>")
        if not rest:
            raise OrderSyntaxError(syntax)
        motif, tail = take_motif(rest)
        if tail and fold(tail[0]) in PLACE_LINKS and len(tail) > 1:
            tail = tail[1:]
        if not tail:
            raise OrderSyntaxError(syntax)
        target, extra = take_name(tail, list(state.seats))
        if extra:
            raise OrderSyntaxError(syntax)
        if target == player:
            raise OrderNotAllowedError(Msg("on place ses conseillers dans les palais adverses, pas dans le sien",
                                           "counsellors go to opponents' palaces, not your own"))
        earlier = [o for o in accepted if o.verb == PLACE]
        if len(earlier) >= 2:
            raise OrderNotAllowedError(Msg("deux conseillers par manche seulement", "only two counsellors a round"))
        if any(o.args[1] == target for o in earlier):
            raise OrderNotAllowedError(Msg(f"déjà un conseiller placé chez {target} cette manche : deux palais différents",
                                           f"already one counsellor placed at {target} this round: two different palaces"))
        hand = list(state.hands[player])
        for o in earlier:
            if o.args[0] in hand:
                hand.remove(str(o.args[0]))
        if motif not in hand:
            raise OrderNotAllowedError(Msg(f"plus de conseiller {_motif_label(motif)} en main",
                                           f"no {motif} counsellor left in hand"))
        return Order(PLACE, (motif, target), text)

    # ----- defaults

    def default_orders(self, state: IntrigueState, player: PlayerName) -> list[Order]:
        kinds = [k for p, k in _awaited(state) if p == player]
        if not kinds:
            return []
        kind = kinds[0]
        if kind == "bribe":
            return [Order(BRIBE, (pal, m, 0), f"{BRIBE} {pal} {m} 0") for pal, m in bribe_targets(state, player)]
        if kind == "conflict":
            m = next_conflict(state.palaces[player])
            return [Order(CONFLICT, (m,), f"{CONFLICT} {m}")]
        if kind == "place":
            return [Order(PLACE, (m, t), f"{PLACE} {m} CHEZ {t}") for m, t in default_placements(state, player)]
        if kind == "keep":
            pend = state.pending
            assert pend is not None
            bids = dict(zip(pend.bidders, pend.bids, strict=True))
            inc = None
            if pend.stage == "conflict":
                post = _incumbent(state.palaces[player], pend.motif)
                inc = post.holder.owner if post and post.holder else None
            kept = default_keep(state, player, pend.bidders, bids, inc)
            return [Order(KEEP, (kept, pend.motif), f"{KEEP} {kept} {pend.motif}")]
        if kind == "post":
            pend = state.pending
            assert pend is not None
            bids = dict(zip(pend.bidders, pend.bids, strict=True))
            palace = state.palaces[player]
            return [
                Order(POST, (pc.owner, pc.motif, v), f"{POST} {pc.owner} {pc.motif} {v}")
                for pc, v in default_posts(state, palace, _absent_pieces(palace), bids)
            ]
        # simultaneous "decide": the documented defaults, spelled out as orders
        return _sim_default_decisions(state, player)

    # ----- resolution

    def resolve(
        self, state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], dice: Dice
    ) -> tuple[IntrigueState, list[Event]]:
        ev: list[Event] = []
        if state.over:
            return state, ev
        if state.sequential:
            state = self._seq_apply(state, orders, ev)
        elif state.step == "bribes":
            state = _sim_bribes(state, orders, ev)
        elif state.step == "decisions":
            state = _sim_decisions(state, orders, ev)
        elif state.step == "placements":
            state = _sim_placements(state, orders, ev)
        state = self._advance(state, ev)
        ev.append(_pub("board", **board(state)))
        return state, ev

    def _seq_apply(self, state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], ev: list[Event]) -> IntrigueState:
        awaited = _seq_awaiting(state)
        if awaited is None:
            return state
        player, kind = awaited
        given = list(orders.get(player, ()))
        if kind == "bribe":
            amounts = [int(o.args[2]) for o in given if o.verb == BRIBE and len(o.args) == 3]
            return _seq_bid(state, amounts[-1] if amounts else 0, ev)
        if kind == "keep":
            keeps = [str(o.args[0]) for o in given if o.verb == KEEP and len(o.args) == 2]
            return _seq_keep(state, keeps[-1] if keeps else None, ev)
        if kind == "post":
            wanted = [(str(o.args[0]), str(o.args[1]), int(o.args[2])) for o in given if o.verb == POST and len(o.args) == 3]
            return _seq_posts(state, wanted, ev)
        if kind == "conflict":
            picks = [str(o.args[0]) for o in given if o.verb == CONFLICT and o.args]
            return _seq_choose(state, picks[-1] if picks else None, ev)
        state = _place(state, player, _valid_placements(state, player, given), ev)
        return _next_turn(state)

    # ----- views and help

    def view(self, state: IntrigueState, player: PlayerName) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "game": self.name,
            "viewer": player,
            "mode": state.options.mode,
            "refund_loser": state.options.refund_loser,
            "post_values": list(state.options.post_values),
            "round": state.round,
            "last_round": LAST_ROUND,
            "step": state.step,
            "seats": list(state.seats),
            "over": state.over,
            "waiting_for": [{"player": p, "kind": k} for p, k in _awaited(state)],
            "board": board(state),
            "bribes": [_bribe_data(b) for b in state.bribes],
            "bribes_this_round": [_bribe_data(b) for b in state.bribes if b.round == state.round],
            "start_total": state.start_total,
            "income_paid": state.income_paid,
            "total_money": sum(state.money[p] for p in state.seats),
            "winners": winners(state) if state.over else [],
            "ranking": ranking(state),
        }
        pend = state.pending
        out["pending"] = None if pend is None else {
            "palace": pend.palace,
            "stage": pend.stage,
            "motif": pend.motif,
            "bidders": list(pend.bidders),
            "bids": [{"player": p, "amount": a} for p, a in zip(pend.bidders, pend.bids, strict=False)],
            "awaiting": pend.awaiting,
        }
        if player != PUBLIC and player in state.seats or player == MJ:
            viewers = list(state.seats) if player == MJ else [player]
            out["involvements"] = {
                v: [{"palace": s.palace, "motif": s.motif, "with": [b for b in s.bidders if b != v]}
                    for s in involvements(state, v)]
                for v in viewers
            } if not state.sequential and state.step == "bribes" else {}
            if player in state.seats:
                out["money"] = state.money[player]
                out["hand"] = list(state.hands[player])
                out["help"] = [{"syntax": h.syntax, "fr": h.description.fr, "en": h.description.en}
                               for h in self.help(state, player)]
        return out

    def help(self, state: IntrigueState, player: PlayerName) -> list[OrderHelp]:
        if state.over or player not in state.seats:
            return []
        kinds = [k for p, k in _awaited(state) if p == player]
        if not kinds:
            return []
        kind = kinds[0]
        out: list[OrderHelp] = []
        money, money_en = fmt(state.money[player]), f"{state.money[player]:,}"
        if kind == "bribe":
            for pal, m in bribe_targets(state, player):
                out.append(OrderHelp(
                    f"POT-DE-VIN {pal} {m} <montant>",
                    Msg(f"pot-de-vin au propriétaire {pal} pour votre conseiller {_motif_label(m)} (multiple de 10 000, "
                        f"0 permis, au plus {money} en tout)",
                        f"bribe {pal} for your {MOTIF_NAMES[m].en} counsellor (multiple of 10,000, 0 allowed, "
                        f"at most {money_en} in all)")))
        elif kind in ("keep", "decide"):
            for m, cands in keep_candidates(state, player).items():
                out.append(OrderHelp(
                    f"GARDER <{' | '.join(cands)}> {m}",
                    Msg(f"le conseiller {_motif_label(m)} de ce joueur reste (les autres vont sur l'île)",
                        f"that player's {MOTIF_NAMES[m].en} counsellor stays (the others go to the island)")))
        if kind in ("post", "decide"):
            palace = state.palaces[player]
            free = " | ".join(str(v) for v in _free_values(palace))
            for pc in _absent_pieces(palace):
                out.append(OrderHelp(
                    f"POSTE {pc.owner} {pc.motif} <{free}>",
                    Msg(f"donne ce poste libre au conseiller {_motif_label(pc.motif)} {_de(pc.owner)}",
                        f"give that free post to {pc.owner}'s {MOTIF_NAMES[pc.motif].en} counsellor")))
        if kind == "conflict":
            ms = " | ".join(_conflict_motifs(state.palaces[player]))
            out.append(OrderHelp(f"CONFLIT <{ms}>", Msg("le conflit à résoudre maintenant",
                                                        "the conflict to resolve now")))
        if kind == "place":
            hand = " | ".join(dict.fromkeys(state.hands[player]))
            others = " | ".join(p for p in left_of(state, player))
            out.append(OrderHelp(
                f"PLACER <{hand}> CHEZ <{others}>",
                Msg("deux ordres, dans deux palais adverses différents", "two orders, in two different opponents' palaces")))
        return [replace(h, aliases=ENGLISH.get(h.syntax.split()[0], ())) for h in out]
