"""The table: questions about seats, palaces and parks, and the small pure updates both modes make.

"Left" of a player is the next player in seating order, who also plays next.  Every function
returns a new state or palace; nothing here knows about mail modes or decisions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core import JSON, Audience, Event, replace
from pbem.games.intrigue.state import (
    BRIBE_UNIT,
    LAST_ROUND,
    MOTIFS,
    PLACEMENT_ROUNDS,
    Bribe,
    IntrigueState,
    Palace,
    Piece,
    Post,
)


def public(kind: str, **data: JSON) -> Event:
    """An event everyone may read (everything at Intrigue is public once revealed)."""
    return Event(kind, Audience.public(), data)


# ---------------------------------------------------------------- seats


def left_of(state: IntrigueState, owner: str) -> list[str]:
    """The other players, starting with the one at ``owner``'s left (the next in seating order)."""
    i = state.seats.index(owner)
    n = len(state.seats)
    return [state.seats[(i + k) % n] for k in range(1, n)]


def left_rank(state: IntrigueState, owner: str, player: str) -> int:
    """How far ``player`` sits from ``owner``'s left (0: just left); ``owner`` himself comes last."""
    order = left_of(state, owner)
    return order.index(player) if player in order else len(order)


def from_left(state: IntrigueState, owner: str, players: Sequence[str]) -> tuple[str, ...]:
    """``players`` without repeats, in the order they sit starting left of ``owner``."""
    wanted = set(players)
    return tuple(p for p in left_of(state, owner) if p in wanted)


# ---------------------------------------------------------------- palaces


def incumbent(palace: Palace, motif: str) -> Post | None:
    """The post held by a counsellor of ``motif``, if any."""
    for post in palace.posts:
        if post.holder is not None and post.holder.motif == motif:
            return post
    return None


def free_values(palace: Palace) -> list[int]:
    """Values of the posts nobody holds, lowest first."""
    return [post.value for post in palace.posts if post.holder is None]


def park_motifs(palace: Palace) -> list[str]:
    """Motifs waiting in the park, in the fixed motif order."""
    return [m for m in MOTIFS if any(pc.motif == m for pc in palace.park)]


def park_owners(palace: Palace, motif: str) -> list[str]:
    """Owners of the park's counsellors of ``motif``, in park order."""
    return [pc.owner for pc in palace.park if pc.motif == motif]


def conflict_motifs(palace: Palace) -> list[str]:
    """Motifs waiting in the park that a counsellor already holds in post (the rule's « conflits internes »)."""
    return [m for m in park_motifs(palace) if incumbent(palace, m) is not None]


def duplicate_motifs(palace: Palace) -> list[str]:
    """Motifs that several players' counsellors wait for in the park (the rule's « conflits externes »)."""
    return [m for m in park_motifs(palace) if len(set(park_owners(palace, m))) >= 2]


def absent_pieces(palace: Palace) -> list[Piece]:
    """Park counsellors whose motif nobody holds in post (each will get a free post)."""
    return [pc for pc in palace.park if incumbent(palace, pc.motif) is None]


def value_of(palace: Palace, motif: str) -> int:
    """The value of the post held by ``motif`` (0 when nobody holds it)."""
    post = incumbent(palace, motif)
    return post.value if post is not None else 0


def remove_from_park(palace: Palace, pieces: Sequence[Piece]) -> Palace:
    park = list(palace.park)
    for pc in pieces:
        park.remove(pc)
    return replace(palace, park=tuple(park))


def put_in_post(palace: Palace, value: int, piece: Piece | None) -> Palace:
    posts = tuple(replace(p, holder=piece) if p.value == value else p for p in palace.posts)
    return replace(palace, posts=posts)


def set_palace(state: IntrigueState, palace: Palace) -> IntrigueState:
    palaces = dict(state.palaces)
    palaces[palace.owner] = palace
    return replace(state, palaces=palaces)


def banish(state: IntrigueState, pieces: Sequence[Piece]) -> IntrigueState:
    """Send counsellors to the island for the rest of the game."""
    return replace(state, island=state.island + tuple(pieces))


# ---------------------------------------------------------------- money


def pay(state: IntrigueState, payer: str, payee: str, amount: int) -> IntrigueState:
    if amount == 0:
        return state
    money = dict(state.money)
    money[payer] -= amount
    money[payee] += amount
    return replace(state, money=money)


def affordable(state: IntrigueState, player: str, amount: int, budget: int | None = None) -> int:
    """The bribe ``player`` pays for ``amount``: raised to the game's minimum, then clipped to what
    they have (or to ``budget``, what is left of it), in whole multiples of 10,000."""
    left = state.money[player] if budget is None else budget
    amount = max(0, min(max(amount, state.options.minimum_bribe), left))
    return amount - amount % BRIBE_UNIT


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


def collect_income(state: IntrigueState, player: str, ev: list[Event]) -> IntrigueState:
    """The bank pays ``player`` their income (rule action 1)."""
    amount, detail = income_of(state, player)
    money = dict(state.money)
    money[player] += amount
    state = replace(state, money=money, income_paid=state.income_paid + amount)
    ev.append(public("income", round=state.round, player=player, amount=amount, detail=detail, money=money[player]))
    return state


# ---------------------------------------------------------------- the game's course and its public record


def round_started(state: IntrigueState) -> Event:
    """A new round; ``management`` is False when no park can hold anyone (simultaneous round 6)."""
    return public(
        "round_started",
        round=state.round,
        placement=state.round <= PLACEMENT_ROUNDS,
        management=state.sequential or state.round <= PLACEMENT_ROUNDS,
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


def finish(state: IntrigueState, ev: list[Event]) -> IntrigueState:
    state = replace(state, step="over", pending=None)
    ev.append(public("game_over", winners=winners(state), ranking=ranking(state)))
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


def bribe_data(b: Bribe) -> dict[str, JSON]:
    return {
        "round": b.round,
        "palace": b.palace,
        "motif": b.motif,
        "player": b.payer,
        "amount": b.amount,
        "stage": b.stage,
        "refunded": b.refunded,
    }
