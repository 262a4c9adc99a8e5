"""Building Courtisans situations for the numbered rule cases: a game, hands, cotes, rigged d10s, a turn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

import pytest

from pbem.core import Event, Order, Seat
from pbem.dice import Dice, Roll
from pbem.games.courtisans import RULESET as R
from pbem.games.courtisans.state import Courtier, CourtState
from pbem.games.courtisans.turns import round_queue
from pbem.render import Renderer

A, B, C, D = "Madame de la Vilenie", "Monsieur de la Fourberye", "Madame de Malveyance", "Monsieur d'Aubigny"
PARTIS = {A: "espagnol", B: "anglais", C: "hollandais", D: "espagnol"}


class Rigged(Dice):
    """Dice whose d10s come in the order given (a test says every one it expects); other draws as usual."""

    def __init__(self, *d10s: int, context: str = "step-1"):
        super().__init__("00" * 32, context)
        self.queue = list(d10s)

    def _uniform(self, purpose: str, low: int, high: int) -> int:
        if (low, high) != (1, 10):
            return super()._uniform(purpose, low, high)
        if not self.queue:
            raise AssertionError(f"a d10 the test did not script: {purpose}")
        value = self.queue.pop(0)
        self.rolls.append(Roll(purpose, low, high, value))
        return value


def game(players: Sequence[str] = (A, B, C, D), *, cotes: tuple[int, int] = (5, 5), **options: object) -> CourtState:
    """A game at the start of round 1 (seating in roster order: the first player is Chambellan),
    every hand empty (the cards back in the deck), every cote ``cotes``, the Queen Spanish."""
    seats = [Seat(p, data={"parti": PARTIS.get(p, "anglais")}) for p in players]
    state, _ = R.setup(seats, {**R.default_options, "seating": "roster", **options}, Dice("11" * 32, "setup"))
    deck = list(state.deck)
    courtiers = {}
    for p in state.seats:
        deck += state.courtiers[p].hand
        courtiers[p] = replace(state.courtiers[p], hand=(), cote_roi=cotes[0], cote_reine=cotes[1])
    return replace(state, deck=tuple(sorted(deck)), courtiers=courtiers,
                   crown=replace(state.crown, queen_nation="espagnol"))


def person(state: CourtState, player: str, **changes: object) -> CourtState:
    return replace(state, courtiers={**state.courtiers, player: replace(state.courtiers[player], **changes)})


def c(state: CourtState, player: str) -> Courtier:
    return state.courtiers[player]


def _take(state: CourtState, numbers: Sequence[int]) -> CourtState:
    """Take cards out of wherever they are (deck, discard, Maison, hands, possessions)."""
    gone = set(numbers)
    courtiers = {p: replace(x, hand=tuple(n for n in x.hand if n not in gone),
                            possessions=tuple(n for n in x.possessions if n not in gone))
                 for p, x in state.courtiers.items()}
    return replace(state, courtiers=courtiers, deck=tuple(n for n in state.deck if n not in gone),
                   discard=tuple(n for n in state.discard if n not in gone),
                   maison=tuple(n for n in state.maison if n not in gone))


def deal(state: CourtState, player: str, *numbers: int) -> CourtState:
    """These cards go into ``player``'s hand."""
    state = _take(state, numbers)
    return person(state, player, hand=state.courtiers[player].hand + tuple(numbers))


def own(state: CourtState, player: str, *numbers: int) -> CourtState:
    """These cards lie in front of ``player`` (titles, charges, pensions…)."""
    state = _take(state, numbers)
    return person(state, player, possessions=state.courtiers[player].possessions + tuple(numbers))


def to_maison(state: CourtState, *numbers: int) -> CourtState:
    state = _take(state, numbers)
    return replace(state, maison=state.maison + tuple(numbers))


def turn_of(state: CourtState, player: str, kind: str | None = None) -> CourtState:
    """The open turn is ``player``'s (their first of the round, or of this kind), the rest of the round after it."""
    queue = round_queue(state)
    index = next(i for i, s in enumerate(queue) if s.player == player and kind in (None, s.kind))
    return replace(state, queue=queue[index:])


def orders(state: CourtState, player: str, *lines: str) -> list[Order]:
    accepted: list[Order] = []
    for line in lines:
        accepted.append(R.parse_order(state, player, line, accepted))
    return accepted


def play(state: CourtState, player: str, *lines: str, dice: Dice | None = None) -> tuple[CourtState, list[Event]]:
    """``player``'s open turn with these order lines (checked by the parser), resolved."""
    given = orders(state, player, *lines)
    rigged = dice or Rigged()
    state, events = R.resolve(state, {player: given or R.default_orders(state, player)}, rigged)
    if isinstance(rigged, Rigged):
        assert rigged.queue == [], f"d10s left unused: {rigged.queue}"
    return state, events


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: Sequence[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def text(events: Sequence[Event], lang: str = "fr") -> str:
    r = Renderer("courtisans", lang)
    return "\n".join(r.event_text(e) for e in events)


@contextmanager
def refusal(kind: type[Exception], fr: str) -> Iterator[None]:
    """The order is refused with this kind of error, and its French wording says ``fr``."""
    with pytest.raises(kind) as caught:
        yield
    said = caught.value.msg.fr  # type: ignore[attr-defined]
    assert fr in said, said
