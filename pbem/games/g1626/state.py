"""1626: the game state (the characters and what happened to them) and how a game starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core import Msg, PlayerName, Seat, SetupError
from pbem.games.g1626.character import Character
from pbem.games.g1626.sheet import character_from_seat


@dataclass(frozen=True)
class State:
    characters: dict[PlayerName, Character]
    roster: list[PlayerName]
    secret_tests: bool = False
    tests: int = 0
    """How many tests were rolled so far: numbers tests and keeps dice purposes unique."""


def new_state(roster: Sequence[Seat], options: Mapping[str, Any]) -> State:
    """The characters of the roster, every sheet checked (`SetupError` with each reason)."""
    if not roster:
        raise SetupError(Msg("aucun personnage dans la partie", "no character in the game"))
    characters: dict[PlayerName, Character] = {}
    refused: list[Msg] = []
    for seat in roster:
        if seat.name in characters:
            raise SetupError(Msg(f"joueur en double : {seat.name}", f"duplicate player: {seat.name}"))
        try:
            characters[seat.name] = character_from_seat(seat, options["extra_gifts"])
        except SetupError as e:
            refused.append(e.msg)
    if refused:
        raise SetupError(Msg("\n".join(m.fr for m in refused), "\n".join(m.en for m in refused)))
    return State(characters, [s.name for s in roster], bool(options["secret_tests"]))
