"""The vocabulary every ruleset and the engine share. Read this module first.

A game is driven by one question, asked again after every step: *who must
decide now, by when, and what happens if they say nothing?*  A ruleset answers
it with `prompts()`; the engine collects orders (or applies `default_orders()`
at the deadline) and calls `resolve()`.  Simultaneous turns are several prompts
at once; sequential play is one prompt at a time.  Orders that take effect the
moment they arrive (a 1626 skill test) go through `immediate()` instead.

Rulesets are pure: no mail, clock, database or module-level mutable state.  All
randomness comes from the `Dice` passed in (see `pbem.dice`), and every fact a
player learns is an `Event` whose `Audience` names who may read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pbem.msg import Msg as Msg  # (said in two languages: the vocabulary's, below the dice that speak it too)
from pbem.msg import PbemError

if TYPE_CHECKING:
    from pbem.dice import Dice

PlayerName = str
"""A player's registered name, exactly as the ruleset stores it (e.g. ``"ser Schlingue"``)."""

MJ: PlayerName = "@mj"
"""The actor name used when the game master (MJ) gives an order himself; `view(state, MJ)` shows everything."""

PUBLIC: PlayerName = "@public"
"""The viewer name for what everyone may see: `view(state, PUBLIC)` feeds the forum report."""

JSON = Any
"""A JSON-compatible value: str, int, float, bool, None, list, dict with str keys."""


@dataclass(frozen=True)
class Audience:
    """Who may read an event.

    ``public``: everyone, including the forum report.  ``players``: exactly the
    named players (and the MJ).  ``mj``: the MJ digest only.
    """

    kind: Literal["public", "players", "mj"]
    players: tuple[PlayerName, ...] = ()

    @classmethod
    def public(cls) -> Audience:
        return cls("public")

    @classmethod
    def mj(cls) -> Audience:
        return cls("mj")

    @classmethod
    def to(cls, *players: PlayerName) -> Audience:
        """The named players (duplicates removed, order kept)."""
        return cls("players", tuple(dict.fromkeys(players)))

    def includes(self, player: PlayerName) -> bool:
        """May this player read the event?  The MJ reads everything."""
        if player == MJ or self.kind == "public":
            return True
        return self.kind == "players" and player in self.players


@dataclass(frozen=True)
class Event:
    """Something that happened, told to an audience.

    ``kind`` names the Jinja macro that renders it (``templates/<game>/events.<lang>.j2``);
    ``data`` holds JSON-compatible values only (names, numbers, role codes).
    """

    kind: str
    audience: Audience
    data: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Order:
    """One understood order line: a canonical verb and its arguments.

    ``text`` keeps the line as the player wrote it, for echoes and the digest.
    Arguments are JSON-compatible scalars (canonical player names, numbers, keywords).
    ``note`` is what the ack says after « OK » about a line accepted in part (a CHOIX entry dropped)
    or on a condition; it is for the ack only: not stored, not compared.
    """

    verb: str
    args: tuple[JSON, ...] = ()
    text: str = ""
    note: Msg | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Prompt:
    """A decision the game is waiting for.

    ``kind`` says what is asked (e.g. ``"turn"``, ``"bribe"``, ``"verdict"``);
    ``deadline`` names the config key whose length applies (``[game.deadlines]``);
    a prompt that is not ``required`` never holds back an early resolution.
    """

    player: PlayerName
    kind: str = "turn"
    deadline: str = "turn"
    required: bool = True


@dataclass(frozen=True)
class StepWord:
    """What a game calls its steps, the same in every text (subjects, acks, digest, forum, reminders).

    ``fr`` is the French noun (« tour », « manche », « étape »), ``feminine`` its gender for
    agreement (« la manche 2 a été résolue »); ``en`` the English noun.  Plurals add an s.
    """

    fr: str = "étape"
    en: str = "step"
    feminine: bool = True


@dataclass(frozen=True)
class Seat:
    """One roster line given to `Ruleset.setup`: a player name and what the MJ fixed for them.

    ``role`` lets the MJ impose a role (resuming a game, tests); ``data`` carries
    per-player material such as a 1626 character sheet; ``gender`` (``"f"`` or ``"m"``, or None) is
    the player's, given at registration or in the MJ's roster (Courtisans' character takes it).
    """

    name: PlayerName
    role: str | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)
    gender: str | None = None


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended."""

    winners: tuple[PlayerName, ...]
    summary: Msg


@dataclass(frozen=True)
class OrderHelp:
    """One line of the AIDE/HELP answer: syntax and what it does.

    ``aliases`` are the other words the order is understood by, English ones first of all
    (``("SQUAD", "ATTACK")`` for ``ESCOUADE``): AIDE/HELP lists them.
    """

    syntax: str
    description: Msg
    aliases: tuple[str, ...] = ()


# --- order errors: three kinds, like python-chess's Invalid/Illegal/Ambiguous ---


class OrderError(PbemError):
    """An order line that was not accepted; ``msg`` becomes the ack's wording."""

    label: ClassVar[Msg] = Msg("erreur", "error")


class OrderSyntaxError(OrderError):
    """The line is not an order this game understands (unknown verb, bad arguments)."""

    label = Msg("incompris", "not understood")


class UnknownKeywordError(OrderSyntaxError):
    """A word that is no keyword of the list, and near none (`pbem.names.match_keyword`).

    When that word is the first of the line (the verb), the line is no order at all: the engine
    lists it as text the player wrote, not as an error.
    """

    def __init__(self, msg: Msg, typed: str):
        super().__init__(msg)
        self.typed = typed


class OrderNotAllowedError(OrderError):
    """Understood, but not allowed to this player now (role, situation, limits)."""

    label = Msg("refusé", "not allowed")


class OrderAmbiguousError(OrderError):
    """Understood, but a name or keyword matches several things, or none closely enough."""

    label = Msg("ambigu", "ambiguous")


class SetupError(PbemError):
    """The roster or options cannot start this game (too few players, unknown role...)."""


class PositionError(PbemError):
    """A scenario file's ``[position]`` the game cannot build (an unknown card, a card twice...): ``key`` says where.

    Only games that read a position raise it, from their optional ``scenario_setup(roster, options, position,
    dice)`` (see docs/scenarios.md); the engine never calls that."""

    def __init__(self, key: str, msg: Msg):
        super().__init__(msg, f"{key}: {msg.en}")
        self.key = key


# --- the ruleset interface ---


class Ruleset(Protocol):
    """What a game provides.  Every method is a pure function of its arguments.

    ``State`` is a dataclass tree of JSON-friendly fields (see `pbem.serial`), so the
    engine can store it, diff it and load it back; rulesets never mutate a state they
    were given: they return a new one (``dataclasses.replace`` or a deep copy).
    """

    name: str
    """Registry key and subject tag, e.g. ``"pmb"``."""
    title: str
    """Human title, e.g. ``"Pour Ma Belle"``."""
    state_type: type[Any]
    """The state dataclass, so the engine can load stored states back (`pbem.serial.loads`)."""
    default_options: Mapping[str, JSON]
    """Every option this game understands, with its default; config may override any of them, no others."""
    # Optional: ``step_word: StepWord``, what the game calls a step (default: « étape », feminine);
    # ``prompts_public: bool`` (default True): False when who is asked can betray a hidden role, so
    # that answers never count the players asked; ``game_words: frozenset[str]`` (default empty): the
    # folded words of the game's own orders that a common command also uses (Courtisans' PASSER, Pour
    # le Roi's PASSE): a line that begins with one is the game's order, never the common command;
    # ``after_early: str`` (``"calendar"`` or ``"length"``): the game's default for the config key of that
    # name, ``"length"`` where the rules count a player's time from the results before (Courtisans).
    # ``path_options: frozenset[str]``: the options that name a file (Courtisans' ``deck``, Pour le Roi's
    # ``cards``); config resolves a relative one against the folder of config.toml, as it does ``roster``.

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[Any, list[Event]]:
        """The initial state and the events that tell each player their start (roles, knowledge)."""
        ...

    def prompts(self, state: Any) -> list[Prompt]:
        """Who must decide now.  Empty when the game is over or only immediate orders remain."""
        ...

    def step_title(self, state: Any) -> Msg:
        """How to call the step now open in subjects and reports, e.g. ``Msg("Tour 3", "Turn 3")``."""
        ...

    def parse_order(self, state: Any, player: PlayerName, line: str, accepted: Sequence[Order]) -> Order:
        """Understand one order line of ``player`` (or `MJ`), given the lines already accepted from the same mail.

        Raises `OrderSyntaxError`, `OrderNotAllowedError` or `OrderAmbiguousError`.
        """
        ...

    def default_orders(self, state: Any, player: PlayerName) -> list[Order]:
        """What a silent player does at the deadline (may be empty)."""
        ...

    def resolve(self, state: Any, orders: Mapping[PlayerName, Sequence[Order]], dice: Dice) -> tuple[Any, list[Event]]:
        """Resolve the open step.  ``orders`` has an entry for every prompted player (defaults already applied)."""
        ...

    def immediate(self, state: Any, player: PlayerName, order: Order, dice: Dice) -> tuple[Any, list[Event]] | None:
        """Carry out an order that takes effect on receipt, or return None if it waits for the step."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The end of the game, or None while it goes on."""
        ...

    def view(self, state: Any, player: PlayerName) -> dict[str, JSON]:
        """What ``player`` may see of the state (the MJ sees all); fed to the status template."""
        ...

    def help(self, state: Any, player: PlayerName) -> list[OrderHelp]:
        """The orders this player may give now."""
        ...

    def players(self, state: Any) -> list[PlayerName]:
        """Every player seated in the game (dead ones included), in a stable order."""
        ...


def replace(obj: Any, **changes: Any) -> Any:
    """`dataclasses.replace`, re-exported so rulesets read uniformly."""
    return dataclasses.replace(obj, **changes)
