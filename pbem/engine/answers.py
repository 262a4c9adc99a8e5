"""What the answer to one mail says: a verdict per line, and the paragraphs that follow the echo."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal


@dataclass
class LineVerdict:
    """One line of an ack: the text, and either 'ok' or an error message.

    A ``late`` line failed because its mail came after the step it was written for closed; a ``waiting``
    one, because a step's results wait for the MJ's approval (no order is read meanwhile): neither is the
    player's mistake, so neither is counted among the errors.
    """

    text: str
    ok: bool
    note: str = ""
    label: str = ""
    player: str = ""  # the player an MJ's line was written for (POUR): his answer tags it [→ player]
    late: bool = False
    waiting: bool = False

    @property
    def error(self) -> bool:
        return not self.ok and not self.late and not self.waiting


@dataclass(frozen=True)
class Shown:
    """A paragraph of what the stored state lets the writer do (AIDE) or see (ETAT): the same text for each of
    his mails read in that state, so it is made once and rendered with the answer (`commands.paragraph`)."""

    kind: Literal["help", "status"]
    writer: str
    state: Any  # the state the mail was read in
    stored: tuple[str | None, str]  # what the text depends on: the stored state's JSON, and the phase
    orders: str = ""  # ETAT: the writer's orders in force, this mail's own included (`OrdersShown`)


@dataclass(frozen=True)
class OrdersShown:
    """ORDRES (and the orders under ETAT): the writer's orders in force, known once the mail's own are stored."""

    player: str
    status: Shown | None = None  # ETAT: the view they follow


Paragraph = str | Shown | OrdersShown
"""A paragraph after the echo: a text, or what makes one (help, status, the writer's orders)."""


@dataclass
class MailResult:
    verdicts: list[LineVerdict] = field(default_factory=list)
    extra: list[Paragraph] = field(default_factory=list)  # paragraphs appended after the echo (help, status, results)
    ignored: list[str] = field(default_factory=list)  # text that is no order: greetings, signatures, prose
    kept_orders: bool = False
    replaced: bool = False  # the writer had orders for this step before this mail: these replace them
    joined: str | None = None  # registered by this very mail: the rest of it speaks for that player
    newer: datetime | None = None  # the receipt time of a later mail whose orders stay in force
    late: tuple[str, datetime] | None = None  # the step this mail came too late for: (title, when it closed)
    grace: bool = False  # received after the deadline, inside the grace period: accepted
    passed: int | None = None  # the verdict of a PASSER line, recorded if the mail gives no other order

    @property
    def errors(self) -> int:
        return sum(1 for v in self.verdicts if v.error)
