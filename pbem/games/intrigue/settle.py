"""Managing one palace: the rule's three cases (duplicates, free posts, conflicts) and the refund variant.

One function per case, shared by both mail modes: the modes differ only in how the bribes were
collected (sealed or open) and when the owner is asked, not in what a decision does.  The
``default_*`` functions say what a silent owner decides (documented in ``docs/rules/intrigue.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Event, replace
from pbem.games.intrigue.state import IntrigueState, Palace, Piece
from pbem.games.intrigue.table import (
    absent_pieces,
    banish,
    conflict_motifs,
    free_values,
    incumbent,
    left_rank,
    park_owners,
    pay,
    public,
    put_in_post,
    remove_from_park,
    set_palace,
    value_of,
)

# ---------------------------------------------------------------- what a silent owner decides


def default_keep(
    state: IntrigueState, palace: str, candidates: Sequence[str], bids: Mapping[str, int], in_post: str | None
) -> str:
    """Who stays: the highest bribe; ties to the incumbent, then to the player nearest the owner's left."""
    return min(
        candidates,
        key=lambda c: (-bids.get(c, 0), 0 if c == in_post else 1, left_rank(state, palace, c)),
    )


def default_posts(
    state: IntrigueState, palace: Palace, pieces: Sequence[Piece], bids: Mapping[str, int]
) -> list[tuple[Piece, int]]:
    """Free posts: the highest bribe gets the highest-value free post (ties: nearest the owner's left)."""
    ranked = sorted(pieces, key=lambda pc: (-bids.get(pc.owner, 0), left_rank(state, palace.owner, pc.owner)))
    values = sorted(free_values(palace), reverse=True)
    return list(zip(ranked, values, strict=False))


def next_conflict(palace: Palace) -> str:
    """The conflict the rules resolve first when the owner says nothing: the post of least value."""
    conflicts = conflict_motifs(palace)
    return min(conflicts, key=lambda m: value_of(palace, m))


# ---------------------------------------------------------------- the three cases


def settle_duplicates(
    state: IntrigueState,
    owner: str,
    motif: str,
    candidates: Sequence[str],
    choice: str | None,
    bids: Mapping[str, int],
    refund_stage: str,
    ev: list[Event],
) -> IntrigueState:
    """Several ``motif`` counsellors in the park: the owner keeps one (``choice`` or the default), the others go to the island.

    With the refund variant extended to every conflict (``refund_conflicts = "all"``), the losers
    get back their bribes of ``refund_stage``.
    """
    kept = choice if choice in candidates else default_keep(state, owner, candidates, bids, None)
    assert kept is not None
    gone = [Piece(p, motif) for p in candidates if p != kept]
    palace = remove_from_park(state.palaces[owner], gone)
    state = banish(set_palace(state, palace), gone)
    ev.append(public("duplicates_resolved", palace=owner, motif=motif, kept=kept, banished=[g.owner for g in gone]))
    if state.options.refund_loser and state.options.refund_conflicts == "all":
        for loser in gone:
            state = refund(state, owner, motif, loser.owner, refund_stage, ev)
    return state


def assign_posts(
    state: IntrigueState,
    owner: str,
    wanted: Sequence[tuple[str, str, int]],
    bids: Mapping[tuple[str, str], int],
    ev: list[Event],
) -> IntrigueState:
    """Every park counsellor whose motif is absent from the palace gets a free post.

    ``wanted`` is the owner's (player, motif, value) choices, honoured in order while the piece waits
    and the post is free; the others get the default (``bids`` by (player, motif)).  Posts are
    announced in seating order from the owner's left.
    """
    palace = state.palaces[owner]
    absent = absent_pieces(palace)
    free = free_values(palace)
    chosen: list[tuple[Piece, int]] = []
    for player, m, v in wanted:
        pc = Piece(player, m)
        if pc in absent and v in free and pc not in [c[0] for c in chosen]:
            chosen.append((pc, v))
            free.remove(v)
    rest = [pc for pc in absent if pc not in [c[0] for c in chosen]]
    taken = palace
    for _, v in chosen:  # the posts already given are not free for the default
        taken = put_in_post(taken, v, Piece(owner, "?"))
    chosen += default_posts(state, taken, rest, {pc.owner: bids.get((pc.owner, pc.motif), 0) for pc in rest})
    for pc, v in sorted(chosen, key=lambda c: left_rank(state, owner, c[0].owner)):
        palace = put_in_post(remove_from_park(palace, [pc]), v, pc)
        ev.append(public("post_assigned", palace=owner, player=pc.owner, motif=pc.motif, value=v))
    return set_palace(state, palace)


def settle_conflict(
    state: IntrigueState,
    owner: str,
    motif: str,
    choice: str | None,
    bids: Mapping[str, int],
    refund_stage: str,
    ev: list[Event],
) -> tuple[IntrigueState, Palace]:
    """A park counsellor of a motif already in post: one keeps the post, the other goes to the island.

    ``choice`` is the player the owner keeps (or None: the default); ``bids`` by player for this
    motif; ``refund_stage`` names the bribes the variant refunds.  Returns the new state and the
    owner's palace in it, which the caller's next conflict starts from.
    """
    palace = state.palaces[owner]
    post = incumbent(palace, motif)
    assert post is not None and post.holder is not None
    inc = post.holder.owner
    newcomer = park_owners(palace, motif)[0]
    if inc == newcomer:
        winner = inc
    elif choice in (inc, newcomer):
        assert choice is not None
        winner = choice
    else:
        winner = default_keep(state, owner, [inc, newcomer], bids, inc)
    loser = newcomer if winner == inc else inc
    palace = remove_from_park(palace, [Piece(newcomer, motif)])
    palace = put_in_post(palace, post.value, Piece(winner, motif))
    state = banish(set_palace(state, palace), [Piece(loser, motif)])
    ev.append(
        public("conflict_resolved", palace=owner, motif=motif, value=post.value, incumbent=inc, challenger=newcomer,
               winner=winner, loser=loser)
    )
    if state.options.refund_loser:
        state = refund(state, owner, motif, loser, refund_stage, ev)
    return state, palace


def refund(state: IntrigueState, palace: str, motif: str, loser: str, stage: str, ev: list[Event]) -> IntrigueState:
    """Variant: the owner of the counsellor who lost a conflict gets their bribe for it back."""
    bribes = list(state.bribes)
    for i in range(len(bribes) - 1, -1, -1):
        b = bribes[i]
        if (b.round, b.palace, b.motif, b.payer, b.stage) == (state.round, palace, motif, loser, stage):
            if b.refunded or b.amount == 0:
                return state
            bribes[i] = replace(b, refunded=True)
            state = replace(state, bribes=tuple(bribes))
            state = pay(state, palace, loser, b.amount)
            ev.append(public("bribe_refunded", palace=palace, motif=motif, player=loser, amount=b.amount))
            return state
    return state
