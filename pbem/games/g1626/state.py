"""1626: the game state (the characters, the tests asked and rolled) and how a game starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core import Msg, PlayerName, Seat, SetupError
from pbem.games.g1626.character import Character
from pbem.games.g1626.sheet import character_from_seat


@dataclass(frozen=True)
class Side:
    """One side of a test: a character of the game, or a PNJ the MJ gives a score to."""

    player: PlayerName = ""
    """The character's player; "" for a PNJ."""
    talent: str = ""
    """"" for a simple test (characteristic × 2)."""
    carac: str = ""
    modifier: int = 0
    aimed: bool = False
    """Tireur d'élite: the character took at least one turn to aim."""
    foiling: bool = False
    """Tacticien: the tactique militaire test foils an enchaînement or a botte secrète."""
    label: str = ""
    """A PNJ's name as the MJ wrote it."""
    score: int | None = None
    """A PNJ's base (characteristic + talent), rolled with ``dice``; None while the MJ has not given it."""
    dice: str = "d10"

    @property
    def npc(self) -> bool:
        return not self.player


@dataclass(frozen=True)
class Request:
    """A player's test waiting for the MJ's SR (or, for an opposed test, the MJ's go-ahead)."""

    number: int
    actor: Side
    opponent: Side | None = None
    sr: int | None = None
    """The SR the player suggested, if any: the MJ may take it (LANCER) or set another (SR)."""
    secret: bool = False


@dataclass(frozen=True)
class TestRecord:
    """One rolled test, as the history lists it."""

    number: int
    player: PlayerName
    what: str
    """``Escrime/AG`` or ``AG``."""
    total: int
    outcome: str
    """``success`` or ``failure`` against an SR; ``win``, ``loss`` or ``draw`` in an opposed test."""
    margin: int
    sr: int | None = None
    secret: bool = False
    opponent: str = ""
    """The opposing character's player, or the PNJ's name."""
    opponent_what: str = ""
    opponent_total: int | None = None
    critical: bool = False


@dataclass(frozen=True)
class State:
    characters: dict[PlayerName, Character]
    roster: list[PlayerName]
    secret_tests: bool = False
    tests: int = 0
    """How many test numbers were given so far (requests and tests share them): keeps dice purposes unique."""
    sr_by: str = "mj"
    """Who sets the SR of a player's test: ``mj`` (the test is a request) or ``player``."""
    opposed_ties: str = "defender"
    requests: list[Request] = field(default_factory=list)
    history: list[TestRecord] = field(default_factory=list)
    extra_gifts: list[str] = field(default_factory=list)
    """The option ``extra_gifts``: gifts the MJ adds to the rules' list (``DON`` may give them)."""


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
    return State(characters, [s.name for s in roster], bool(options["secret_tests"]), sr_by=str(options["sr_by"]),
                 opposed_ties=str(options["opposed_ties"]), extra_gifts=list(options["extra_gifts"]))


def character_names(state: State) -> dict[str, PlayerName]:
    """Every name a character goes by (player name first, then character name) -> its player."""
    names: dict[str, PlayerName] = {}
    for player in state.roster:
        names.setdefault(player, player)
    for player in state.roster:
        names.setdefault(state.characters[player].name, player)
    return names
