"""Placing counsellors (rule action 3): two from one's hand, in the parks of two different opponents."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core import Event, Order, replace
from pbem.games.intrigue.orders import PLACE
from pbem.games.intrigue.state import MOTIFS, IntrigueState, Piece
from pbem.games.intrigue.table import incumbent, left_of, park_owners, public, set_palace


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
                inc = incumbent(pal, m)
                waiting = park_owners(pal, m)
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


def valid_placements(state: IntrigueState, player: str, orders: Sequence[Order]) -> list[tuple[str, str]]:
    """The player's PLACER orders that still hold, completed by the default up to two."""
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


def place(state: IntrigueState, player: str, placements: Sequence[tuple[str, str]], ev: list[Event]) -> IntrigueState:
    """Move the counsellors from the player's hand to the parks."""
    hand = list(state.hands[player])
    for m, t in placements:
        hand.remove(m)
        palace = state.palaces[t]
        state = set_palace(state, replace(palace, park=palace.park + (Piece(player, m),)))
        ev.append(public("placed", round=state.round, player=player, motif=m, palace=t))
    hands = dict(state.hands)
    hands[player] = tuple(hand)
    return replace(state, hands=hands)
