"""The rows the store hands out: a game, a player, a player's orders for a step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.core import Order


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    phase: str  # registration | running | finished
    seed: str
    commitment: str
    turn: int  # number of the open step (0 during registration)
    deadline: str | None  # UTC ISO
    early_at: str | None  # UTC ISO: all orders are in, resolve then
    state: str | None  # canonical JSON of the ruleset state
    reminders_sent: tuple[float, ...]
    created_at: str
    seed_revealed: bool
    opened_at: str | None = None  # UTC ISO: when the open step was opened (its results mailed); late mail is older


@dataclass(frozen=True)
class PlayerRow:
    game: str
    name: str
    address: str
    status: str  # active | removed
    seat: dict[str, Any]  # role / data fixed by the MJ
    password: str | None
    registered_at: str
    missed: int = 0  # steps in a row this player was asked and sent nothing (NMR)
    gender: str | None = None  # "f" or "m" when the player gave one: texts agree with it, else they are neutral


@dataclass(frozen=True)
class OrderSet:
    """The orders a player gave for one step: the latest mail (or MJ correction) wins."""

    game: str
    turn: int
    player: str
    orders: list[Order]
    lines: list[str]
    source: str  # mail | mj | pass | correction | default
    message_key: str | None
    received_at: str
