"""What the answer to one mail says: a verdict per line, and the paragraphs that follow the echo."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class LineVerdict:
    """One line of an ack: the text, and either 'ok' or an error message."""

    text: str
    ok: bool
    note: str = ""
    label: str = ""
    player: str = ""  # the player an MJ's line was written for (POUR): his answer tags it [→ player]


@dataclass
class MailResult:
    verdicts: list[LineVerdict] = field(default_factory=list)
    # paragraphs appended after the echo (help, status, results); a callable renders its paragraph with the ack
    extra: list[str | Callable[[], str]] = field(default_factory=list)
    kept_orders: bool = False
    replaced: bool = False
    joined: str | None = None  # registered by this very mail: the rest of it speaks for that player
