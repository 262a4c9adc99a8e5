"""The words of the MJ's mail reader: what it may know of the game (`View`, the `Thread` a mail answers), and
what it makes of a mail (`Intent`, `Reading`, `MailReading`).  Data only: the reader is
`pbem.engine.desk.reader`, the engine builds the view (`pbem.engine.desk.context`).

A reading's verdict is ``do`` (every slot filled without guessing: carry it out), ``ask`` (something was
guessed: echo it and wait for OUI), ``refuse`` (not readable as it is: say why, with the candidates) or
``none`` (the MJ's prose, nothing asked).  Slots are named as the corpus of MJ mails names them
(tests/fixtures/mjmail/README.md): ``until`` (a moment), ``by_hours``, ``player``, ``when``…; dates are
`datetime.date`, moments with an hour `datetime.datetime` in the game's zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from pbem.core import StepWord
from pbem.msg import Msg

COMMANDS = ("EXTEND", "EARLIER", "PAUSE", "RESUME", "MISSING", "RESEND", "FOR", "CORRECT", "RERUN", "REMOVE",
            "REPLACE", "APPROVE", "CHRONICLE", "PREVIEW", "ABSENCE", "HELP", "REGISTER", "FINISH", "SR", "ROLL",
            "REFUSE_TEST", "CONFIRM")
"""Every command the reader knows (the MJ's, and the answers to a game's requests)."""


@dataclass(frozen=True)
class Request:
    """A player's request that waits for the MJ (a 1626 test): its number, whose, and what (« Vigilance PE »)."""

    number: int
    player: str
    label: str


@dataclass(frozen=True)
class Intent:
    """A command with its slots: what a reading would carry out."""

    command: str
    slots: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Thread:
    """The mail an MJ's mail answers or forwards: a digest of step ``turn``, a notice about ``players``, a
    stranger's mail (``stranger``: name and address), or our confirmation with what it waits for."""

    kind: str  # "digest", "notice", "stranger", "confirmation"
    turn: int | None = None
    players: tuple[str, ...] = ()
    stranger: tuple[str, str] | None = None
    pending: tuple[Intent, ...] = ()
    requests: tuple[int, ...] = ()


@dataclass(frozen=True)
class View:
    """What the reader may know of the game when it reads an MJ's mail."""

    now: datetime
    tz: ZoneInfo
    players: tuple[str, ...]
    women: frozenset[str] = frozenset()
    nicknames: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # player -> the MJ's nicknames for him
    deadline: datetime | None = None
    step_hours: float | None = None  # how long a step lasts (« prolonge d'un tour »)
    open_turn: int | None = None  # the open step (None: the game is not running)
    last_turn: int = 0  # the last resolved step
    held: int | None = None  # the step whose results wait for approval
    paused: bool = False
    pause_planned: bool = False
    absent: frozenset[str] = frozenset()  # players with an absence not over
    requests: tuple[Request, ...] | None = None  # None: the game has no requests the MJ answers
    order_words: Mapping[str, str] = field(default_factory=dict)  # a game order's word (folded) -> its keyword
    wish_words: Mapping[str, str] = field(default_factory=dict)  # a verb of a player's wish (folded) -> its order
    lang: str = "fr"
    thread: Thread | None = None
    step_word: StepWord = field(default_factory=lambda: StepWord("tour", "turn", False))

    @property
    def local_now(self) -> datetime:
        return self.now.astimezone(self.tz)


@dataclass
class Reading:
    """One command read in a sentence, with its verdict (see the module's doc)."""

    verdict: str
    command: str | None
    slots: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the sentence as written
    line: int = 0  # the index of its line in the mail's text
    guessed: tuple[str, ...] = ()
    alternatives: tuple[Intent, ...] = ()
    candidates: tuple[str, ...] = ()
    test_candidates: tuple[int, ...] = ()
    missing: tuple[str, ...] = ()
    why: Msg | None = None  # a refusal's reason, or what an asked reading guessed
    prose: tuple[str, ...] = ()  # what the sentence says besides the command (listed as ignored)

    @property
    def intent(self) -> Intent:
        assert self.command is not None
        return Intent(self.command, dict(self.slots))


@dataclass
class MailReading:
    """A whole MJ mail read: its commands in order, and for every line without one what it is.

    ``lines`` maps the index of a line without a command to ``prose`` (the MJ's own words), ``request``
    (asks for something no command does: a refusal) or ``typo`` (a command word misspelt beyond reading);
    ``chronicle`` the lines taken as a chronicle's text; ``end`` the index of a line that ends the mail (FIN).
    """

    readings: list[Reading] = field(default_factory=list)
    lines: dict[int, str] = field(default_factory=dict)
    chronicle: dict[int, str] = field(default_factory=dict)
    end: int | None = None
    answer: str | None = None  # to a confirmation: "yes", "no", "maybe", "corrected" (None: no answer)
    answer_line: int | None = None  # the line that gives it


def slots_to_json(slots: Mapping[str, Any]) -> dict[str, Any]:
    """An intent's slots as JSON values (a day as ``{"date": …}``, an instant as ``{"instant": …}``, UTC)."""
    out: dict[str, Any] = {}
    for key, value in slots.items():
        if isinstance(value, datetime):
            out[key] = {"instant": value.astimezone(ZoneInfo("UTC")).isoformat()}
        elif isinstance(value, date):
            out[key] = {"date": value.isoformat()}
        else:
            out[key] = value
    return out


def slots_from_json(data: Mapping[str, Any], tz: ZoneInfo) -> dict[str, Any]:
    """`slots_to_json` read back (instants in the game's zone ``tz``)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and "instant" in value:
            out[key] = datetime.fromisoformat(str(value["instant"])).astimezone(tz)
        elif isinstance(value, dict) and "date" in value:
            out[key] = date.fromisoformat(str(value["date"]))
        else:
            out[key] = value
    return out
