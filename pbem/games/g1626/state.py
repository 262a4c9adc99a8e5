"""1626: the game state (the characters and what happened to them)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core import PlayerName
from pbem.games.g1626.character import Character


@dataclass(frozen=True)
class State:
    characters: dict[PlayerName, Character]
    roster: list[PlayerName]
    secret_tests: bool = False
    tests: int = 0
    """How many tests were rolled so far: numbers tests and keeps dice purposes unique."""
