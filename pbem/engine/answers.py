"""What the answer to one mail says: a verdict per line, and the paragraphs that follow the echo."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class LineVerdict:
    """One line of an ack: the text, and either 'ok' or an error message.

    A ``late`` line failed because its mail came after the step it was written for closed: it is
    not the player's mistake, so it is not counted among the errors.
    """

    text: str
    ok: bool
    note: str = ""
    label: str = ""
    late: bool = False

    @property
    def error(self) -> bool:
        return not self.ok and not self.late


@dataclass(frozen=True)
class AfterOrders:
    """A paragraph that shows the writer's orders (ORDRES, ETAT): made once the mail's own orders are stored."""

    make: Callable[[], str | Callable[[], str]]


@dataclass
class MailResult:
    verdicts: list[LineVerdict] = field(default_factory=list)
    # paragraphs appended after the echo (help, status, results); a callable renders its paragraph with the ack
    extra: list[str | Callable[[], str] | AfterOrders] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # text that is no order: greetings, signatures, prose
    kept_orders: bool = False
    replaced: bool = False  # the writer had orders for this step before this mail: these replace them
    joined: str | None = None  # registered by this very mail: the rest of it speaks for that player
    newer: str | None = None  # UTC ISO receipt time of a later mail whose orders stay in force
    late: tuple[str, datetime] | None = None  # the step this mail came too late for: (title, when it closed)
    grace: bool = False  # received after the deadline, inside the grace period: accepted
    passed: int | None = None  # the verdict of a PASSER line, recorded if the mail gives no other order

    @property
    def errors(self) -> int:
        return sum(1 for v in self.verdicts if v.error)
