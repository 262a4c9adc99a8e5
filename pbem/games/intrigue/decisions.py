"""Who is asked what now, in either mode, what they may name in their answer, and what silence means."""

from __future__ import annotations

from pbem.core import Audience, Event, Order
from pbem.games.intrigue import sequential, simultaneous
from pbem.games.intrigue.orders import BRIBE, CONFLICT, KEEP, PLACE, POST
from pbem.games.intrigue.placing import default_placements
from pbem.games.intrigue.settle import default_keep, default_posts
from pbem.games.intrigue.state import IntrigueState
from pbem.games.intrigue.table import absent_pieces, duplicate_motifs, incumbent


def awaited(state: IntrigueState) -> list[tuple[str, str]]:
    """(player, prompt kind) for everyone who must decide now."""
    if state.over:
        return []
    if state.sequential:
        a = sequential.awaiting(state)
        return [a] if a else []
    return simultaneous.prompted(state)


def asked_events(state: IntrigueState) -> list[Event]:
    """One private event per player who must decide now, saying what is asked (only they are told to answer)."""
    out: list[Event] = []
    for player, kind in awaited(state):
        data: dict[str, object] = {"player": player, "kind": kind, "round": state.round}
        if kind == "bribe":
            data["targets"] = [{"palace": pal, "motif": m} for pal, m in bribe_targets(state, player)]
        elif kind == "conflict":
            data["motifs"] = duplicate_motifs(state.palaces[player])
        elif kind in ("keep", "post") and state.pending is not None:
            data["motif"] = state.pending.motif
        out.append(Event("decision_asked", Audience.to(player), data))
    return out


def kind_for(state: IntrigueState, player: str) -> str | None:
    """What ``player`` is asked now (None: nothing)."""
    for p, kind in awaited(state):
        if p == player:
            return kind
    return None


def bribe_targets(state: IntrigueState, player: str) -> list[tuple[str, str]]:
    """(palace, motif) pairs ``player`` may bribe for now (when asked for a bribe)."""
    if state.sequential:
        pend = state.pending
        if pend is None or pend.next_bidder != player:
            return []
        return [(pend.palace, sequential.bribe_motif(state, pend, player))]
    if state.step != "bribes":
        return []
    return [(s.palace, s.motif) for s in simultaneous.involvements(state, player)]


def keep_candidates(state: IntrigueState, player: str) -> dict[str, list[str]]:
    """Motif -> the players whose counsellor the owner ``player`` may name in GARDER now."""
    if state.sequential:
        pend = state.pending
        if pend is None or pend.palace != player or pend.awaiting != "keep":
            return {}
        return {pend.motif: list(pend.bidders)}
    if state.step != "decisions":
        return {}
    return {s.motif: list(s.bidders) for s in simultaneous.situations(state, player) if len(s.bidders) >= 2}


def default_orders(state: IntrigueState, player: str) -> list[Order]:
    """What a silent player does, spelled out as the orders they could have written."""
    kind = kind_for(state, player)
    if kind is None:
        return []
    if kind == "bribe":
        if state.sequential:  # an open announcement: silence is no bribe (or the minimum), and is told as such
            return []
        least = state.options.minimum_bribe
        return [Order(BRIBE, (pal, m, least), f"{BRIBE} {pal} {m} {least}") for pal, m in bribe_targets(state, player)]
    if kind == "conflict":
        m = duplicate_motifs(state.palaces[player])[0]
        return [Order(CONFLICT, (m,), f"{CONFLICT} {m}")]
    if kind == "place":
        return [Order(PLACE, (m, t), f"{PLACE} {m} CHEZ {t}") for m, t in default_placements(state, player)]
    if kind == "keep":
        pend = state.pending
        assert pend is not None
        bids = dict(zip(pend.bidders, pend.bids, strict=True))
        inc = None
        if pend.stage == "conflict":
            post = incumbent(state.palaces[player], pend.motif)
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
            for pc, v in default_posts(state, palace, absent_pieces(palace), bids)
        ]
    # simultaneous "decide": the documented defaults, spelled out as orders
    return simultaneous.default_decisions(state, player)
