"""Courtisans — complots et intrigues à la cour de Louis XIV, by mail (see docs/rules/courtisans.md)."""

from __future__ import annotations

from pbem.games.courtisans.ruleset import CourtisansRuleset
from pbem.games.courtisans.state import CourtState

RULESET = CourtisansRuleset()

__all__ = ["RULESET", "CourtState", "CourtisansRuleset"]
