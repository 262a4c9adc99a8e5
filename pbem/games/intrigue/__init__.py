"""Intrigue (Stefan Dorra, 1994): palaces, counsellors and bribes in Renaissance Italy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games import lazy_names

if TYPE_CHECKING:
    from pbem.games.intrigue.rules import RULESET, IntrigueRuleset
    from pbem.games.intrigue.state import IntrigueState, invariant_problems, money_conserved, total_money

__all__ = ["RULESET", "IntrigueRuleset", "IntrigueState", "invariant_problems", "money_conserved", "total_money"]

_HOME = {"RULESET": "rules", "IntrigueRuleset": "rules", "IntrigueState": "state", "invariant_problems": "state",
         "money_conserved": "state", "total_money": "state"}
"""The module each name of the package is in."""

__getattr__ = lazy_names(__name__, _HOME)
