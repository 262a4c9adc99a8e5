"""Intrigue's state: palaces, parks, the island, money, and where the game stands.

Everything is a frozen dataclass of JSON-friendly fields (`pbem.serial`).  Players are
always iterated in seating order (``IntrigueState.seats``), never over a dict or set.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core import Msg

MOTIFS: tuple[str, ...] = ("balance", "bourse", "livre", "epee", "eveque")
"""The five motifs, in the fixed order used for listings and ties between motifs."""

MOTIF_NAMES: dict[str, Msg] = {
    "balance": Msg("balance", "scales"),
    "bourse": Msg("bourse", "purse"),
    "livre": Msg("livre", "book"),
    "epee": Msg("écu et épée", "shield and sword"),
    "eveque": Msg("évêque", "bishop"),
}

START_MONEY = 320_000
"""Each player's money at the start (2 notes each of 100,000, 50,000 and 10,000)."""

BRIBE_UNIT = 10_000
"""Bribes are multiples of this amount."""

DEFAULT_POST_VALUES: tuple[int, ...] = (10_000, 20_000, 30_000, 50_000, 100_000)
"""Post values per round.  Not in the rule text: the 1994 edition's five posts run from 10,000 to
100,000; the three middle values are pbem's choice (see ``docs/rules/intrigue.md``, option ``post_values``)."""

PLACEMENT_ROUNDS = 5
"""Rounds with placements (10 counsellors, 2 a round)."""

LAST_ROUND = 7
"""Round 6: management without placement; round 7: income only."""

MODES: tuple[str, ...] = ("simultaneous", "sequential")

REFUND_CONFLICTS: tuple[str, ...] = ("internal", "all")
"""Variant ``refund_loser``: which lost conflicts are refunded: with a counsellor in post only, or duplicates too."""

MINIMUM_BRIBES: tuple[int, ...] = (0, BRIBE_UNIT)
"""Option ``minimum_bribe``: 0 (the text: any multiple of 10,000) or 10,000 (the 1994 German rules)."""


@dataclass(frozen=True)
class Piece:
    """One counsellor: its owner (colour) and motif.  A player's two counsellors of a motif are identical."""

    owner: str
    motif: str


@dataclass(frozen=True)
class Post:
    """One of the five posts (towers) of a palace, with its value per round and its holder."""

    value: int
    holder: Piece | None = None


@dataclass(frozen=True)
class Palace:
    """A player's palace: five posts (lowest value first) and the park where opponents place counsellors."""

    owner: str
    posts: tuple[Post, ...]
    park: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class Bribe:
    """A bribe paid to a palace owner (kept whatever they decide, unless refunded by the variant).

    ``stage``: ``"duplicate"`` (same motif twice in the park), ``"post"`` (motif absent from the
    palace), ``"conflict"`` (motif already in post), or ``"sealed"`` (simultaneous mode: one sealed
    bribe per palace and motif covers every stage for that motif).
    """

    round: int
    palace: str
    motif: str
    payer: str
    amount: int
    stage: str
    refunded: bool = False


@dataclass(frozen=True)
class Pending:
    """Sequential mode: the management decision in progress in ``palace``.

    ``stage`` is ``"duplicate"``, ``"post"``, ``"conflict"`` (bribes then a decision) or
    ``"choose"`` (the owner picks which of several park duplicates to settle first).  ``bidders`` announce in order starting
    left of the owner; ``bids`` are the amounts announced so far (open).
    """

    palace: str
    stage: str
    motif: str = ""
    bidders: tuple[str, ...] = ()
    bids: tuple[int, ...] = ()

    @property
    def awaiting(self) -> str:
        """``"conflict"``, ``"bribe"``, ``"keep"`` or ``"post"``: what is asked next."""
        if self.stage == "choose":
            return "conflict"
        if len(self.bids) < len(self.bidders):
            return "bribe"
        return "post" if self.stage == "post" else "keep"

    @property
    def next_bidder(self) -> str | None:
        return self.bidders[len(self.bids)] if len(self.bids) < len(self.bidders) else None


@dataclass(frozen=True)
class Options:
    """The game's options (see `IntrigueRuleset.default_options`)."""

    mode: str = "simultaneous"
    refund_loser: bool = False
    post_values: tuple[int, ...] = DEFAULT_POST_VALUES
    seating: str = "draw"
    minimum_bribe: int = 0
    refund_conflicts: str = "internal"


@dataclass(frozen=True)
class IntrigueState:
    """The whole game.

    ``step`` in simultaneous mode: ``"income"``, ``"placements"``, ``"bribes"``, ``"decisions"``;
    in sequential mode: ``"income"``, ``"manage"``, ``"place"`` for the player at ``turn``;
    ``"over"`` when the game has ended.
    """

    seats: tuple[str, ...]
    options: Options
    money: dict[str, int]
    hands: dict[str, tuple[str, ...]]
    palaces: dict[str, Palace]
    island: tuple[Piece, ...] = ()
    bribes: tuple[Bribe, ...] = ()
    income_paid: int = 0
    start_total: int = 0
    round: int = 1
    step: str = "income"
    turn: int = 0
    pending: Pending | None = None

    @property
    def sequential(self) -> bool:
        return self.options.mode == "sequential"

    @property
    def over(self) -> bool:
        return self.step == "over"

    @property
    def current(self) -> str:
        """The player whose turn it is (sequential mode)."""
        return self.seats[self.turn]


# --- pure helpers used by the rules and by the tests ---


def total_money(state: IntrigueState) -> int:
    """The money held by all players together."""
    return sum(state.money[p] for p in state.seats)


def money_conserved(state: IntrigueState) -> bool:
    """Total money = start total + income paid by the bank (bribes only move money between players)."""
    return total_money(state) == state.start_total + state.income_paid


def counsellor_counts(state: IntrigueState) -> dict[str, int]:
    """Counsellors of each player found in hand + parks + posts + island (must be 10 each)."""
    counts = {p: len(state.hands[p]) for p in state.seats}
    for owner in state.seats:
        palace = state.palaces[owner]
        for post in palace.posts:
            if post.holder is not None:
                counts[post.holder.owner] += 1
        for piece in palace.park:
            counts[piece.owner] += 1
    for piece in state.island:
        counts[piece.owner] += 1
    return counts


def invariant_problems(state: IntrigueState) -> list[str]:
    """Every broken invariant, as text (empty: all good)."""
    problems: list[str] = []
    if not money_conserved(state):
        problems.append(
            f"money {total_money(state)} != start {state.start_total} + income {state.income_paid}"
        )
    for p in state.seats:
        if state.money[p] < 0:
            problems.append(f"{p} has negative money {state.money[p]}")
    for p, n in counsellor_counts(state).items():
        if n != 2 * len(MOTIFS):
            problems.append(f"{p} has {n} counsellors in play, not 10")
    for owner in state.seats:
        palace = state.palaces[owner]
        if len(palace.posts) != len(MOTIFS):
            problems.append(f"palace of {owner} has {len(palace.posts)} posts")
        motifs = [post.holder.motif for post in palace.posts if post.holder is not None]
        if len(motifs) != len(set(motifs)):
            problems.append(f"palace of {owner} has a motif twice in post: {motifs}")
        holders = [post.holder for post in palace.posts if post.holder is not None]
        if any(h.owner == owner for h in holders) or any(pc.owner == owner for pc in palace.park):
            problems.append(f"palace of {owner} holds one of its owner's counsellors")
    for p in state.seats:
        for m in MOTIFS:
            n = sum(1 for x in state.hands[p] if x == m)
            n += sum(1 for x in state.island if x.owner == p and x.motif == m)
            for owner in state.seats:
                palace = state.palaces[owner]
                n += sum(1 for post in palace.posts if post.holder == Piece(p, m))
                n += sum(1 for x in palace.park if x == Piece(p, m))
            if n != 2:
                problems.append(f"{p} has {n} counsellors of motif {m}, not 2")
    return problems
