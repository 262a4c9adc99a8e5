"""1626, le gant et l'épée: skill tests resolved by mail (see docs/rules/1626.md)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.games.g1626.character import Character
    from pbem.games.g1626.ruleset import RULESET, Ruleset1626
    from pbem.games.g1626.sheet import seats_from_toml
    from pbem.games.g1626.state import State

__all__ = ["RULESET", "Character", "Ruleset1626", "State", "seats_from_toml"]

_HOME = {"Character": "character", "RULESET": "ruleset", "Ruleset1626": "ruleset", "seats_from_toml": "sheet",
         "State": "state"}
"""The module each name of the package is in."""


def __getattr__(name: str) -> object:
    """A name of the package, loaded when first asked for, for speed: reading the config imports `options`
    from this package, and a pass with nothing due must not load the rules for it (issue #24).  No circle is
    dodged: the game's modules import each other's modules, never these names of the package."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
