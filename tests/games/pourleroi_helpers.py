"""Building Pour le Roi (et Moi) situations for the scenario tests, and playing steps through the ruleset."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem import serial
from pbem.core import MJ, PUBLIC, Event, Order, OrderError, Seat, replace
from pbem.dice import Dice
from pbem.games.pourleroi import RULESET, conservation_problems
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi.bots import random_orders
from pbem.games.pourleroi.state import AUCTION, Auction, State

NAMES = ["Anne", "Blaise", "Claude", "Diane", "Emile"]
SEED = "42" * 32


def fresh(n: int = 3, **options: Any) -> State:
    """A game just set up (seats in roster order: Anne, Blaise, ...), before anything is drawn."""
    from pbem.games.pourleroi.setup import setup

    state, _ = setup([Seat(p) for p in NAMES[:n]], {"seating": "roster", **options}, Dice(SEED, "setup"))
    return state


def arrange(n: int = 3, *, deck: Sequence[str] = (), hands: Mapping[str, Sequence[str]] | None = None,
            neutral: Sequence[str] = (), neutral_by: Mapping[str, str] | None = None,
            offices: Mapping[str, int] | None = None, **options: Any) -> State:
    """A game with exactly these cards in play; every other card is out of the box (so conservation holds)."""
    st = fresh(n, **options)
    hands = {p: tuple(hands.get(p, ())) if hands else () for p in st.seats}
    used = {*deck, *neutral, *(c for h in hands.values() for c in h)}
    rest = tuple(c for c in st.material.all_cards() if c not in used)
    return replace(st, deck=tuple(deck), hands=hands, neutral=tuple(neutral), neutral_by=dict(neutral_by or {}),
                   removed=(), out_of_box=rest, offices={**st.offices, **(offices or {})})


def begin(st: State) -> tuple[State, list[Event]]:
    """Let the game run up to its first decision."""
    ev: list[Event] = []
    return F.advance(st, Dice(SEED, "begin"), ev), ev


def auction_of(st: State, pile: Sequence[str], opener: str | None = None) -> tuple[State, list[Event]]:
    """The auction phase with this pile (top first), up to its first decision."""
    st = replace(st, phase=AUCTION, round=None, neutral=(),
                 auction=Auction(tuple(pile), len(pile), opener=opener or st.seats[0]),
                 out_of_box=tuple(c for c in st.out_of_box if c not in pile))
    return begin(st)


def step(st: State, lines: Mapping[str, Sequence[str]] | None = None, seed: str = SEED,
         context: str = "step") -> tuple[State, list[Event]]:
    """Resolve the open step: the given lines (parsed as by mail), defaults for the silent players."""
    lines = lines or {}
    asked = {p.player for p in RULESET.prompts(st)}
    assert set(lines) <= asked, f"lines for players not asked: {sorted(set(lines) - asked)} (asked: {sorted(asked)})"
    orders: dict[str, list[Order]] = {}
    for prompt in RULESET.prompts(st):
        accepted: list[Order] = []
        for line in lines.get(prompt.player, ()):
            accepted.append(RULESET.parse_order(st, prompt.player, line, accepted))
        orders[prompt.player] = accepted or RULESET.default_orders(st, prompt.player)
    new, ev = RULESET.resolve(st, orders, Dice(seed, context))
    assert conservation_problems(new) == []
    return new, ev


def refused(st: State, player: str, line: str, error: type[OrderError], fragment: str,
            accepted: Sequence[Order] = ()) -> None:
    """The line is refused with this kind of error, and its French reason contains ``fragment``."""
    try:
        RULESET.parse_order(st, player, line, list(accepted))
    except error as e:
        assert fragment in e.msg.fr, e.msg.fr
        assert e.msg.en
        return
    raise AssertionError(f"{line!r} was accepted")


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def play_game(n: int, seed: int, options: Mapping[str, Any] | None = None, max_steps: int = 600,
              bot: Any = random_orders) -> list[tuple[State, list[Event], State]]:
    """A whole game through the ruleset API with the bots; (state before, events, state after) per step.

    The first entry is the set-up (state before: None).
    """
    seed_hex = f"{seed:064x}"
    st, ev = RULESET.setup([Seat(p) for p in NAMES[:n]], {**RULESET.default_options, **(options or {})},
                           Dice(seed_hex, "setup"))
    out: list[tuple[Any, list[Event], State]] = [(None, ev, st)]
    rng = random.Random(seed)
    for i in range(1, max_steps + 1):
        prompts = RULESET.prompts(st)
        if not prompts:
            break
        orders: dict[str, list[Order]] = {}
        for p in dict.fromkeys(x.player for x in prompts):
            accepted: list[Order] = []
            if rng.random() < 0.9:  # some players are silent: their defaults apply
                for line in bot(st, p, seed * 1000 + i):
                    accepted.append(RULESET.parse_order(st, p, line, accepted))
            orders[p] = accepted or RULESET.default_orders(st, p)
        before = st
        st, ev = RULESET.resolve(st, orders, Dice(seed_hex, f"step-{i}"))
        out.append((before, ev, st))
    return out


def card_ids(data: Any, ids: set[str]) -> set[str]:
    """Every card id found anywhere in event or view data."""
    found: set[str] = set()
    if isinstance(data, str):
        if data in ids:
            found.add(data)
    elif isinstance(data, Mapping):
        for k, v in data.items():
            found |= card_ids(k, ids) | card_ids(v, ids)
    elif isinstance(data, (list, tuple)):
        for v in data:
            found |= card_ids(v, ids)
    return found


def viewers(st: State) -> list[str]:
    return [*st.seats, PUBLIC]


def round_trip(st: State) -> State:
    return serial.loads(State, serial.dumps(st))


__all__ = ["MJ", "NAMES", "PUBLIC", "SEED", "arrange", "auction_of", "begin", "card_ids", "fresh", "kinds",
           "of_kind", "play_game", "refused", "round_trip", "step", "viewers"]


class Knowledge:
    """Who may know which card, followed from the true states only (an oracle independent of the events).

    Secret to a player: the cards he kept (from the deck into his own hand during his gift round), the
    card he has just drawn, the cards he put into the neutral pile.  Secret to everyone: the cards
    removed at set-up.  Public: every card seen in the centre, on sale, paid in Gold, played as a King
    card, taken from the centre or bought (a card entering a hand any other way), and every hand at the end.
    """

    def __init__(self, first: State):
        self.public: set[str] = set()
        self.secret: dict[str, set[str]] = {p: set() for p in first.seats}
        self.hidden: set[str] = set(first.removed)
        self.update(None, first)

    def update(self, before: State | None, after: State) -> None:
        r, a = after.round, after.auction
        self.public |= set(r.centre) if r is not None else set()
        self.public |= {a.current} if a is not None and a.current is not None else set()
        self.public |= {*after.kings_played, *(k.card for k in after.kings_pending), *after.discard_up,
                        *(s.card for s in after.sales)}
        if before is not None:
            donor = before.round.donor if before.round is not None else None
            for p in after.seats:
                for c in set(after.hands[p]) - set(before.hands[p]):
                    from_deck = c in before.deck or (before.round is not None and before.round.drawn == c)
                    (self.secret[p] if p == donor and from_deck else self.public).add(c)
        if r is not None and r.drawn is not None:
            self.secret[r.donor].add(r.drawn)
        for c, p in after.neutral_by.items():
            self.secret[p].add(c)
        if after.over:
            self.public |= {c for p in after.seats for c in after.hands[p]}

    def forbidden(self, viewer: str) -> set[str]:
        """The cards ``viewer`` (a player, or PUBLIC for the forum) must not be told about now."""
        out = set(self.hidden)
        for p, cards in self.secret.items():
            if p != viewer:
                out |= cards
        return out - self.public


def leaks(steps: Sequence[tuple[State | None, list[Event], State]]) -> list[str]:
    """Every card an event or a view tells a player (or the forum) who may not know it."""
    ruleset = RULESET
    first = steps[0][2]
    ids = set(first.material.all_cards())
    know = Knowledge(first)
    out: list[str] = []
    for i, (before, ev, after) in enumerate(steps):
        if before is not None:
            know.update(before, after)
        for w in [*after.seats, PUBLIC]:
            banned = know.forbidden(w)
            for e in ev:
                if e.kind == "final_scores" or e.audience.kind == "mj" or not (
                        e.audience.kind == "public" or w in e.audience.players):
                    continue
                bad = card_ids(dict(e.data), ids) & banned
                if bad:
                    out.append(f"step {i}: {e.kind} tells {w} about {sorted(bad)}")
            if not after.over:
                bad = card_ids(ruleset.view(after, w), ids) & banned
                if bad:
                    out.append(f"step {i}: the view of {w} shows {sorted(bad)}")
    return out
