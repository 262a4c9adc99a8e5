"""Intrigue (Stefan Dorra, 1994): palaces, counsellors and bribes in Renaissance Italy."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.games.intrigue.rules import RULESET, IntrigueRuleset
    from pbem.games.intrigue.state import IntrigueState, invariant_problems, money_conserved, total_money

__all__ = ["RULESET", "IntrigueRuleset", "IntrigueState", "invariant_problems", "money_conserved", "total_money"]

_HOME = {"RULESET": "rules", "IntrigueRuleset": "rules", "IntrigueState": "state", "invariant_problems": "state",
         "money_conserved": "state", "total_money": "state"}
"""The module each name of the package is in."""


def __getattr__(name: str) -> object:
    """A name of the package, loaded when first asked for, for speed: reading the config imports `options`
    from this package, and a pass with nothing due must not load the rules for it (issue #24).  No circle is
    dodged: the game's modules import each other's modules, never these names of the package."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
