"""The rows the store hands out: a game, a player, a player's orders for a step, a step's record, a journal entry,
a stored inbound mail, an outgoing one.

Times are aware UTC datetimes, phases and kinds named values: what the database keeps as text (UTC
ISO instants, JSON) is read and written by the store alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pbem.core import Event, Order
from pbem.dice import Roll


class Phase(StrEnum):
    """Where a game stands."""

    REGISTRATION = "registration"
    """Players register; no step is open yet (``turn`` 0, the deadline ends registration)."""
    RUNNING = "running"
    """A step is open (or only immediate orders are left, a 1626 campaign)."""
    FINISHED = "finished"
    """Over: nothing is resolved any more, the seed is revealed."""


PlayerStatus = Literal["active", "removed"]
OrderSource = Literal["mail", "mj", "pass", "correction", "default"]
"""Where a player's orders came from: their mail, the MJ (POUR, `pbem orders set`), PASSER, the MJ's
correction of a resolved step, the rules' defaults for the silent."""
RecordKind = Literal["setup", "step", "action"]
"""A record is the game's start, a resolved step, or an immediate order (a 1626 test)."""
MailStatus = Literal["new", "done", "error"]
"""A stored inbound mail is waiting to be read, was processed, or its processing failed (kept to retry)."""
OutboxStatus = Literal["queued", "sent", "failed", "bounced"]
"""An outgoing mail waits to be sent (or retried), went, could not be sent, or came back."""


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    phase: Phase
    seed: str
    commitment: str
    turn: int  # number of the open step (0 during registration)
    deadline: datetime | None
    early_at: datetime | None  # all orders are in: resolve then
    state: str | None  # canonical JSON of the ruleset state (`pbem.serial`), decoded by the engine's table
    reminders_sent: tuple[float, ...]
    created_at: datetime
    seed_revealed: bool
    opened_at: datetime | None = None  # when the open step was opened (its results mailed); late mail is older


@dataclass(frozen=True)
class PlayerRow:
    game: str
    name: str
    address: str
    status: PlayerStatus
    seat: dict[str, Any]  # role / data fixed by the MJ
    password: str | None
    registered_at: datetime
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
    source: OrderSource
    message_key: str | None
    received_at: datetime


@dataclass(frozen=True)
class SourcedOrders:
    """One player's orders as a step's record keeps them: the orders, and where they came from.

    ``applied`` names the rules' defaults a PASSER stood for.  A record of an immediate order keeps
    the order alone (its source and lines are None), as do records older than the sources.
    """

    orders: tuple[Order, ...]
    source: OrderSource | None = None
    message: str | None = None
    received_at: datetime | None = None
    lines: tuple[str, ...] | None = None
    applied: tuple[str, ...] | None = None


@dataclass(frozen=True)
class StepRecord:
    """What a step was (diplomacy's phase record): the state before, the orders with their sources, who got
    the defaults, every roll, every event with its audience, and the state after.

    Re-runs, reports, digests and exports all read a step back from here.  An immediate order's record
    (``kind = "action"``) keeps the change of state from the record before it (``state_patch``, see
    `pbem.store.records`) instead of two whole states, except at checkpoints; its ``titles`` say what
    each reader concerned calls it (the MJ under `pbem.core.MJ`), ``changed`` whether it changed the game.
    """

    game: str
    seq: int
    kind: RecordKind
    turn: int
    title: str
    dice_context: str
    state_before: str | None  # canonical JSON of the state (`pbem.serial`); None for the setup and actions
    orders: Mapping[str, SourcedOrders]
    defaults: tuple[str, ...]
    rolls: tuple[Roll, ...]
    events: tuple[Event, ...]
    state_after: str | None  # None for an action record that keeps its change only
    resolved_at: datetime
    published: bool = True  # False while the results wait for the MJ's approval
    forum_written: bool = False
    state_patch: str | None = None
    titles: Mapping[str, str] | None = None
    changed: bool | None = None


@dataclass(frozen=True)
class JournalEntry:
    """One line of a game's journal: who did what, when, with its details."""

    id: int
    game: str
    at: datetime
    who: str
    action: str
    detail: Any = field(default=None)


@dataclass(frozen=True)
class MessageRow:
    """A stored inbound mail without its bytes, and its verdict once processed.

    Until it is processed (``new``) its Message-ID, game, sender and verdict are empty and ``processed_at``
    is None; ``game`` stays empty for a mail that concerned no game.
    """

    key: str  # the mailbox's name for it (unique)
    message_id: str
    received_at: datetime  # when the mailbox received it (what deadlines are judged by)
    status: MailStatus
    game: str
    sender: str
    verdict: str
    processed_at: datetime | None


@dataclass(frozen=True)
class OutboxRow:
    """An outgoing mail as queued, without its bytes (`Store.outbox_raw`)."""

    id: str  # its Message-ID
    game: str
    turn: int
    kind: str  # "private", "ack", "digest"...: `pbem.outbox.compose.said_kind`
    rcpt: str
    subject: str
    status: OutboxStatus
    attempts: int
    next_attempt_at: datetime | None
    created_at: datetime | None
    sent_at: datetime | None  # None until it is sent
    last_error: str  # why its last attempt failed (English, `pbem.ticktext.said`), or why it bounced; "" if none
