"""The state of a game of Pour le Roi (et Moi): frozen dataclasses of JSON-friendly fields (`pbem.serial`).

Every card of the box is in exactly one place at every moment (`card_places`, `conservation_problems`):
out of the box for this player count, removed at set-up, the deck, the card the donor has just drawn,
a hand, the centre, the neutral pile (then the auction pile and the card on sale), a King card waiting
to be played, the King cards played, or one of the two discard piles (face up: paid Gold and unsold
cards; face down: cards given to buy a Gold card and cards lost after a failed payment).

Players are always iterated in seating order (``State.seats``, clockwise: a player's left is the next seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.pourleroi.cards import GOLD, GOV, Material

GIFT, AUCTION, OVER = "gift", "auction", "over"
"""The phases."""

KEEP, NEUTRAL, CENTRE = "garder", "neutre", "centre"
"""Where the donor may place a drawn card."""

PRIMARY_START = 3
"""« Les fonctions primaires commencent à trois points. »"""
PRIMARY_MIN, PRIMARY_MAX = 1, 6
"""« Les fonctions primaires restent entre un et six. »"""


def secondary_value(primary: int) -> int:
    """« Elle vaut la moitié de la fonction primaire correspondante, arrondie à l'inférieur. »"""
    return primary // 2


@dataclass(frozen=True)
class Options:
    """The game's options, checked at set-up (see `pbem.games.pourleroi.options.DEFAULT_OPTIONS`)."""

    cards: str = ""
    seating: str = "draw"
    default_placement: tuple[str, ...] = (CENTRE, NEUTRAL, KEEP)
    unpayable_bids: str = "refuse"
    auction_prompts: str = "everyone"


@dataclass(frozen=True)
class Round:
    """One donor's turn of the gift phase."""

    number: int
    donor: str
    drawn: str | None = None
    """The card the donor has drawn and must place now (he alone has seen it)."""
    kept: bool = False
    neutral: bool = False
    centre: tuple[str, ...] = ()
    """Face up, in the order the donor placed them."""
    placed: int = 0
    done: bool = False
    """The opponents have taken their centre cards: the deck passes to the left."""


@dataclass(frozen=True)
class KingToPlay:
    """A King card obtained, whose effect its new owner chooses now."""

    player: str
    card: str
    how: str
    """``keep`` (kept by the donor), ``centre`` or ``auction``."""


@dataclass(frozen=True)
class Sale:
    """The public result of one auction."""

    number: int
    card: str
    winner: str | None
    price: int
    defaulted: tuple[str, ...] = ()


@dataclass(frozen=True)
class Auction:
    """The auction phase: the shuffled neutral pile, the card on sale and who opens the bidding."""

    pile: tuple[str, ...]
    """Cards still to sell, top first (the order is secret)."""
    total: int
    number: int = 0
    current: str | None = None
    opener: str = ""
    """First in seat order for ties (the seat left of the last donor, then one seat left per card)."""


@dataclass(frozen=True)
class Standing:
    """A ministry's result at the end: totals of support, and who takes the offices."""

    ministry: str
    primary_value: int
    secondary_value: int
    totals: dict[str, int]
    best_letter: dict[str, str]
    ranking: tuple[str, ...]
    primary: str | None
    secondary: str | None


@dataclass(frozen=True)
class FinalResult:
    standings: tuple[Standing, ...]
    points: dict[str, int]
    gold: dict[str, int]
    primaries: dict[str, int]
    offices: dict[str, int]
    ranking: tuple[str, ...]
    winners: tuple[str, ...]
    decided_by: str
    """What separated the first from the second: ``points``, ``gold``, ``primaries``, ``offices`` or ``shared``."""


@dataclass(frozen=True)
class State:
    seats: tuple[str, ...]
    options: Options
    material: Material
    ministries: tuple[str, ...]
    """Ministry codes on the board, in board order."""
    secondary: bool
    """Secondary offices are used (more than two players)."""
    offices: dict[str, int]
    """Primary office values."""
    deck: tuple[str, ...] = ()
    out_of_box: tuple[str, ...] = ()
    """Printed player count above the game's, and the Gold cards the set-up table removes (public)."""
    removed: tuple[str, ...] = ()
    """Removed at random at set-up, face down (nobody knows them)."""
    hands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    neutral: tuple[str, ...] = ()
    neutral_by: dict[str, str] = field(default_factory=dict)
    """Neutral card -> the donor who placed it (he alone knows it)."""
    round: Round | None = None
    kings_pending: tuple[KingToPlay, ...] = ()
    kings_played: tuple[str, ...] = ()
    auction: Auction | None = None
    standing_bids: dict[str, dict[str, int]] = field(default_factory=dict)
    """Player -> card key -> maximum given in advance (0: pass).  Key: a card id, or ``OR:<value>``."""
    discard_up: tuple[str, ...] = ()
    discard_down: tuple[str, ...] = ()
    sales: tuple[Sale, ...] = ()
    phase: str = GIFT
    decisions: int = 0
    """Steps resolved so far (a decision asked by mail)."""
    result: FinalResult | None = None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def left_of(self, player: str) -> str:
        return self.seats[(self.seats.index(player) + 1) % len(self.seats)]

    def clockwise_from(self, player: str) -> list[str]:
        """Every player, starting with ``player``."""
        i = self.seats.index(player)
        return [self.seats[(i + k) % len(self.seats)] for k in range(len(self.seats))]

    def opponents_from_left(self, player: str) -> list[str]:
        """The other players clockwise, starting at ``player``'s left."""
        return self.clockwise_from(player)[1:]

    def gold_total(self, player: str) -> int:
        return sum(self.material.gold[c] for c in self.hands[player] if c in self.material.gold)

    def gold_cards(self, player: str) -> list[str]:
        return [c for c in self.hands[player] if c in self.material.gold]

    def means(self, player: str, card: str) -> int:
        """The highest bid ``player`` can pay for ``card``: his Gold, or his hand's size for a Gold card."""
        if self.material.kind(card) == GOLD:
            return len(self.hands[player])
        return self.gold_total(player)

    def support(self, player: str, ministry: str) -> int:
        return sum(v for c in self.hands[player] if (v := self.material.government.get(c)) is not None
                   and c.startswith(ministry + "-"))


def card_places(state: State) -> dict[str, list[str]]:
    """Card id -> every place it is found in (a sound state has exactly one place per card)."""
    places: dict[str, list[str]] = {c: [] for c in state.material.all_cards()}

    def put(cards: tuple[str, ...] | list[str], where: str) -> None:
        for c in cards:
            places.setdefault(c, []).append(where)

    put(state.deck, "deck")
    put(state.out_of_box, "out of the box")
    put(state.removed, "removed")
    for p in state.seats:
        put(state.hands[p], f"hand of {p}")
    if state.round is not None:
        if state.round.drawn is not None:
            put([state.round.drawn], "drawn")
        put(state.round.centre, "centre")
    put(state.neutral, "neutral pile")
    if state.auction is not None:
        put(state.auction.pile, "auction pile")
        if state.auction.current is not None:
            put([state.auction.current], "on sale")
    put([k.card for k in state.kings_pending], "King to play")
    put(state.kings_played, "King played")
    put(state.discard_up, "discard face up")
    put(state.discard_down, "discard face down")
    return places


def conservation_problems(state: State) -> list[str]:
    """Every card not in exactly one place, and every broken bound, as text (empty: all good)."""
    out = [f"{c}: {len(w)} places {w}" for c, w in card_places(state).items() if len(w) != 1]
    for m, v in state.offices.items():
        if not PRIMARY_MIN <= v <= PRIMARY_MAX:
            out.append(f"office {m} at {v}")
    r = state.round
    if r is not None:
        if len(r.centre) > len(state.seats) - 1:
            out.append(f"centre holds {len(r.centre)} cards")
        if state.phase != GIFT:
            out.append("a gift round outside the gift phase")
    if state.phase == AUCTION and state.neutral:
        out.append("neutral pile not moved to the auction")
    for c, p in state.neutral_by.items():
        if p not in state.seats:
            out.append(f"neutral card {c} placed by unknown {p}")
    for p in state.seats:
        if any(state.material.kind(c) not in (GOV, GOLD) for c in state.hands[p]):
            out.append(f"{p} holds a King card in hand")
    return out
