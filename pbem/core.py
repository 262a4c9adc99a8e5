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
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from pbem.msg import Msg as Msg  # (said in two languages: the vocabulary's, below the dice that speak it too)
from pbem.msg import PbemError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

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

    Only games that read a position raise it, from `Ruleset.scenario_setup` (see docs/scenarios.md); the engine
    never calls that."""

    def __init__(self, key: str, msg: Msg):
        super().__init__(msg, f"{key}: {msg.en}")
        self.key = key


# --- the ruleset interface ---

State = TypeVar("State")
"""A game's state: a dataclass tree of JSON-friendly fields (`pbem.serial`)."""


@dataclass(frozen=True)
class GameOptions:
    """What reading config.toml needs of a game: its title and its options (their defaults, the check of their
    values, those that name a file), as its `Ruleset` has them.  A game declares them in a module of their
    own (the registry's ``options``), so that a pass that reads the config and finds nothing due never loads
    the rules (issue #24, the cold start)."""

    title: str
    default_options: Mapping[str, JSON]
    check: Callable[[Mapping[str, JSON]], object]
    """Raises `SetupError` naming the allowed values (what `Ruleset.check_options` does)."""
    path_options: frozenset[str] = frozenset()

    def check_options(self, options: Mapping[str, JSON]) -> None:
        self.check(options)


class Ruleset(ABC, Generic[State]):
    """What a game provides: subclass it as ``Ruleset[MyState]``.  Every method is a pure function of its arguments.

    ``State`` is a dataclass tree of JSON-friendly fields (see `pbem.serial`), so the
    engine can store it, diff it and load it back; rulesets never mutate a state they
    were given: they return a new one (``dataclasses.replace`` or a deep copy).

    The abstract methods are what every game must answer.  The rest (below them) are hooks with
    their defaults: a game overrides only those its rules need, and the engine calls them all the same.
    """

    name: str
    """Registry key and subject tag, e.g. ``"pmb"``."""
    title: str
    """Human title, e.g. ``"Pour Ma Belle"``."""
    state_type: type[State]
    """The state dataclass, so the engine can load stored states back (`pbem.serial.loads`)."""
    default_options: Mapping[str, JSON]
    """Every option this game understands, with its default; config may override any of them, no others."""

    step_word: StepWord = StepWord()
    """What the game calls a step (« tour », « manche »...), the same in every text."""
    prompts_public: bool = True
    """False when who is asked can betray a hidden role (Pour Ma Belle): answers then never count the players asked."""
    game_words: frozenset[str] = frozenset()
    """The folded words of the game's own orders that a common command also uses (Courtisans' PASSER, Pour le
    Roi's PASSE): a line that begins with one is the game's order, never the common command."""
    wish_words: Mapping[str, str] = MappingProxyType({})
    """The verbs (folded, French and English) that mean one of the game's orders on a player, as the MJ writes a
    player's wish (Pour Ma Belle's « tuer » and « kill » for ESCOUADE): « Arya veut tuer Sansa » is then read as
    « POUR Arya : ESCOUADE Sansa », always echoed for the MJ's OUI, never carried out on the guess."""
    after_early: Literal["calendar", "length"] | None = None
    """The game's default for the config key of that name (None: ``"calendar"``); ``"length"`` where the rules
    count a player's time from the results before (Courtisans)."""
    path_options: frozenset[str] = frozenset()
    """The options that name a file (Courtisans' ``deck``, Pour le Roi's ``cards``): config resolves a relative
    one against the folder of config.toml, as it does ``roster``."""

    @abstractmethod
    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[State, list[Event]]:
        """The initial state and the events that tell each player their start (roles, knowledge)."""

    @abstractmethod
    def prompts(self, state: State) -> list[Prompt]:
        """Who must decide now.  Empty when the game is over or only immediate orders remain."""

    @abstractmethod
    def step_title(self, state: State) -> Msg:
        """How to call the step now open in subjects and reports, e.g. ``Msg("Tour 3", "Turn 3")``."""

    @abstractmethod
    def parse_order(self, state: State, player: PlayerName, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        """Understand one order line of ``player`` (or `MJ`), given the lines already accepted from the same mail.

        ``author`` is `MJ` when the MJ wrote the line for ``player`` (``POUR``; 1626 then rolls the test he
        sets at once instead of making it the player's request), else None.
        Raises `OrderSyntaxError`, `OrderNotAllowedError` or `OrderAmbiguousError`.
        """

    @abstractmethod
    def default_orders(self, state: State, player: PlayerName) -> list[Order]:
        """What a silent player does at the deadline (may be empty)."""

    @abstractmethod
    def resolve(self, state: State, orders: Mapping[PlayerName, Sequence[Order]],
                dice: Dice) -> tuple[State, list[Event]]:
        """Resolve the open step.  ``orders`` has an entry for every prompted player (defaults already applied)."""

    @abstractmethod
    def immediate(self, state: State, player: PlayerName, order: Order, dice: Dice) -> tuple[State, list[Event]] | None:
        """Carry out an order that takes effect on receipt, or return None if it waits for the step."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """The end of the game, or None while it goes on."""

    @abstractmethod
    def view(self, state: State, player: PlayerName) -> dict[str, JSON]:
        """What ``player`` may see of the state (the MJ sees all); fed to the status template."""

    @abstractmethod
    def help(self, state: State, player: PlayerName) -> list[OrderHelp]:
        """The orders this player may give now."""

    @abstractmethod
    def players(self, state: State) -> list[PlayerName]:
        """Every player seated in the game (dead ones included), in a stable order."""

    # --- hooks, with their defaults

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Every option value checked when the config is read: `SetupError` naming the allowed values.

        By default nothing is checked before `setup`."""

    def check_roster(self, text: str, options: Mapping[str, JSON]) -> bool:
        """A roster file's text checked when it is read (`SetupError` with each fault and its line).

        True when the game checked it (1626's character sheets), False when it has no check of its own."""
        return False

    def salutation(self, state: State, player: PlayerName) -> str | None:
        """How a letter to ``player`` opens (Courtisans' étiquette, « Madame la Duchesse de la Fourberye »);
        None (the default): the templates greet the player by name."""
        return None

    def action_title(self, state: State, player: PlayerName, order: Order, viewer: PlayerName) -> Msg | None:
        """What an immediate order is called in the subject and heading of ``viewer``'s mail (a secret test must
        not be named to its player); ``state`` is the state before it.  None (the default): the order as typed."""
        return None

    def batch_title(self, state: State, actions: Sequence[tuple[PlayerName, Order]]) -> Msg | None:
        """The subject of the MJ's digest of several immediate orders; None (the default): their titles."""
        return None

    def pending_requests(self, state: State) -> Sequence[tuple[int, PlayerName, str]]:
        """Players' requests that wait for the MJ (number, player, what: 1626's tests), which his mail may answer
        in a sentence (« SR 15 pour le test d'Isaac »); empty (the default): the game has none."""
        return ()

    def dead(self, state: State) -> Sequence[PlayerName]:
        """The players whose seat plays no more because the rules killed it (Pour Ma Belle's dead): the MJ's lists
        show them as dead, and the calendar's notices no longer go to them (their results and the end still do);
        empty (the default): nobody dies."""
        return ()

    def scenario_setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], position: Mapping[str, JSON],
                       dice: Dice) -> tuple[State, list[Event]] | None:
        """A scenario file's ``[position]`` set up (docs/scenarios.md), raising `PositionError` for what cannot be
        built; None (the default): the game reads no position.  Only `pbem scenario` calls it, never the engine."""
        return None


Record = TypeVar("Record", bound="DataclassInstance")


def replace(obj: Record, **changes: Any) -> Record:
    """`dataclasses.replace`, re-exported so rulesets read uniformly (typed: the record's own type back)."""
    return dataclasses.replace(obj, **changes)
