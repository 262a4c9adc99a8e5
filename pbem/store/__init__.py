"""The only database code: inbound messages, games, players, orders, step records, outbox, cursors.

SQLite through sqlite-utils, in WAL mode.  Every change that must survive a crash
as a whole runs inside `Store.atomic()`; callers group work so that a message is
stored before it is acknowledged, and a resolved step, its mails and the new
game state are committed together.  One class per kind of row (`pbem.store.messages`,
`games`, `orders`, `records`, `outbox`, the MJ's seat in `desk`: pauses, absences, steps held
for approval, seats changing hands; the MJ's commands waiting for his OUI in `confirmations`;
wrong passwords in `tries`; pruning old mail bytes in `retention`), all over the one connection of
`pbem.store.base`.  The rows it hands out (`pbem.store.rows`, `pbem.store.desk`) carry datetimes, named phases and decoded records:
ISO text and JSON stay in here.
"""

from __future__ import annotations

from pbem.store.base import SCHEMA_VERSION
from pbem.store.confirmations import ConfirmationRow, ConfirmationRows
from pbem.store.desk import (
    AbsenceRow,
    AbsenceRows,
    HeldRow,
    HeldRows,
    PauseRow,
    PauseRows,
    SeatChangeRow,
    SeatChangeRows,
)
from pbem.store.games import GameRows
from pbem.store.messages import MessageRows
from pbem.store.orders import OrderRows
from pbem.store.outbox import OUTBOX_FIELDS, OutboxRows
from pbem.store.records import RecordRows
from pbem.store.retention import Pruned, RetentionRows
from pbem.store.rows import (
    GameRow,
    JournalEntry,
    MailStatus,
    MessageRow,
    OrderSet,
    OrderSource,
    OutboxRow,
    OutboxStatus,
    Phase,
    PlayerRow,
    PlayerStatus,
    RecordKind,
    SourcedOrders,
    StepRecord,
)
from pbem.store.tries import PasswordTries

__all__ = ["OUTBOX_FIELDS", "SCHEMA_VERSION", "AbsenceRow", "ConfirmationRow", "GameRow", "HeldRow", "JournalEntry",
           "MailStatus", "MessageRow", "OrderSet", "OrderSource", "OutboxRow", "OutboxStatus", "PauseRow", "Phase",
           "PlayerRow", "PlayerStatus", "Pruned", "RecordKind", "SeatChangeRow", "SourcedOrders", "StepRecord",
           "Store"]


class Store(MessageRows, GameRows, OrderRows, RecordRows, OutboxRows, PauseRows, AbsenceRows, HeldRows,
            SeatChangeRows, ConfirmationRows, PasswordTries, RetentionRows):
    """A handle on the pbem database."""
