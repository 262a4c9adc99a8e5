"""Shared material of the 1626 rule cases: scripted dice, a model sheet, one-order runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pbem.core import Event, Seat
from pbem.dice import Dice, Roll
from pbem.games.g1626 import RULESET, State

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]


class FakeDice:
    """A `Dice` double: returns queued values in order and records every draw with its purpose."""

    def __init__(self, *values: int, context: str = "test") -> None:
        self.context = context
        self.queue = list(values)
        self.rolls: list[Roll] = []

    def _next(self, purpose: str, low: int, high: int) -> int:
        assert self.queue, f"no scripted value left for {purpose!r}"
        value = self.queue.pop(0)
        assert low <= value <= high, f"scripted {value} outside {low}..{high} for {purpose!r}"
        self.rolls.append(Roll(purpose, low, high, value))
        return value

    def randint(self, low: int, high: int, purpose: str) -> int:
        return self._next(purpose, low, high)

    def d(self, sides: int, purpose: str) -> int:
        return self._next(purpose, 1, sides)

    def chance(self, percent: float, purpose: str) -> bool:
        return self._next(purpose, 1, 100) <= percent

    def choice(self, items: Sequence[T], purpose: str) -> T:
        return items[self._next(purpose, 0, len(items) - 1)]

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self._next(purpose, 0, i)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int, purpose: str) -> list[T]:
        pool = list(items)
        return [pool.pop(self._next(purpose, 0, len(pool) - 1)) for _ in range(k)]


def test_fake_dice_has_the_methods_of_dice() -> None:
    public = {n for n in vars(Dice) if not n.startswith("_")}
    assert public <= {n for n in vars(FakeDice) if not n.startswith("_")}


CARACS = {"FO": 5, "EN": 5, "AG": 6, "DEX": 5, "PE": 4, "INT": 5, "EDU": 4, "CH": 5, "APP": 5, "BR": 6}


def sheet(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "nom": "Armand de Sillègue",
        "caracteristiques": dict(CARACS),
        "talents": dict(TALENTS),
        "dons": [],
        "prestige": 0,
    }
    data.update(changes)
    return data


TALENTS = {"Escrime": 5, "Baratin": 4, "Eloquence": 3, "Stratégie militaire": 2, "Armes de tir": 3}


def specialist(**gifts: Any) -> dict[str, Any]:
    """Sheet changes for a specialist in Escrime (« Spécialiste : Talent > 6 »: Escrime 7)."""
    return {"talents": {**TALENTS, "Escrime": 7}, "dons": {"Spécialiste": ["Escrime"], **gifts}}


PLAYERS_SET_SR = {"sr_by": "player"}
"""The rule cases of the roll itself let the player set the SR, so one order rolls at once."""


def game(**changes: Any) -> State:
    """Armand (the sheet with ``changes``) and Isaac; options default to `PLAYERS_SET_SR` plus ``options``.

    ``setup_faces``: the dice of the setup (the Héritage roll).
    """
    options = {**PLAYERS_SET_SR, **changes.pop("options", {})}
    setup_dice = FakeDice(*changes.pop("setup_faces", ()))
    roster = [Seat("Armand", data=sheet(**changes)), Seat("Isaac", data=sheet(nom="Isaac de Porthau"))]
    state, _ = RULESET.setup(roster, options, setup_dice)
    assert isinstance(state, State) and not setup_dice.queue
    return state


def run(state: State, line: str, *faces: int, player: str = "Armand",
        author: str | None = None) -> tuple[State, list[Event], FakeDice]:
    """Parse and carry out one order with scripted dice; every scripted face must be used."""
    dice = FakeDice(*faces)
    parsed = RULESET.parse_order(state, player, line, [], author=author)  # type: ignore[call-arg]
    done = RULESET.immediate(state, player, parsed, dice)
    assert done is not None
    assert not dice.queue, f"unused scripted faces {dice.queue}"
    new, events = done
    return new, events, dice


def result(state: State, line: str, *faces: int, player: str = "Armand") -> Mapping[str, Any]:
    _, events, _ = run(state, line, *faces, player=player)
    (event,) = [e for e in events if e.kind == "test_result"]
    return event.data


