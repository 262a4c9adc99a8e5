"""What every game's order grammar shares: the refusals it raises, each in French and English.

A game's parser reads its own words (`pbem.names` for names and keywords); when a line cannot be
taken it raises one of these, so that every game refuses the same way: `syntax` (not understood),
`refused` (understood, not allowed to this player now), `ambiguous` (several or near matches), and
`empty_line`.  `setup_refused` is the same for a roster or options the game cannot start with, and
`position_refused` for a scenario's ``[position]`` it cannot build.
"""

from __future__ import annotations

from pbem.core import OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError, PositionError, SetupError
from pbem.msg import Msg


def syntax(fr: str, en: str) -> OrderSyntaxError:
    """The line is not an order of the game (a word missing or unknown, bad arguments)."""
    return OrderSyntaxError(Msg(fr, en))


def refused(fr: str, en: str) -> OrderNotAllowedError:
    """Understood, but not allowed to this player now (role, situation, limits)."""
    return OrderNotAllowedError(Msg(fr, en))


def ambiguous(fr: str, en: str) -> OrderAmbiguousError:
    """Understood, but a name or a keyword matches several things, or none closely enough."""
    return OrderAmbiguousError(Msg(fr, en))


def empty_line() -> OrderSyntaxError:
    """A line with no word of an order on it."""
    return syntax("ligne vide", "empty line")


def setup_refused(fr: str, en: str) -> SetupError:
    """The roster or an option the game cannot start with."""
    return SetupError(Msg(fr, en))


def position_refused(key: str, fr: str, en: str) -> PositionError:
    """A scenario file's ``[position]`` the game cannot build, ``key`` saying where (`Ruleset.scenario_setup`)."""
    return PositionError(key, Msg(fr, en))
