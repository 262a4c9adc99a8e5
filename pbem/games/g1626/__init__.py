"""1626, le gant et l'épée: skill tests resolved by mail (see docs/rules/1626.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games import lazy_names

if TYPE_CHECKING:
    from pbem.games.g1626.character import Character
    from pbem.games.g1626.ruleset import RULESET, Ruleset1626
    from pbem.games.g1626.sheet import seats_from_toml
    from pbem.games.g1626.state import State

__all__ = ["RULESET", "Character", "Ruleset1626", "State", "seats_from_toml"]

_HOME = {"Character": "character", "RULESET": "ruleset", "Ruleset1626": "ruleset", "seats_from_toml": "sheet",
         "State": "state"}
"""The module each name of the package is in."""

__getattr__ = lazy_names(__name__, _HOME)
