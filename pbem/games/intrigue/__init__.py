"""Intrigue (Stefan Dorra, 1994): palaces, counsellors and bribes in Renaissance Italy."""

from __future__ import annotations

from pbem.games.intrigue.rules import IntrigueRuleset
from pbem.games.intrigue.state import IntrigueState, invariant_problems, money_conserved, total_money

RULESET = IntrigueRuleset()

__all__ = ["RULESET", "IntrigueRuleset", "IntrigueState", "invariant_problems", "money_conserved", "total_money"]
