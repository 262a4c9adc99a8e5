"""Pour le Roi (et Moi): gifts card by card, King cards, auctions by proxy bid, majorities per ministry.

Modules: `cards` (the material file), `state`, `setup`, `gift` (the gift phase), `king` (King cards),
`auction` (proxy bids and payment), `scoring`, `flow` (what is asked now, what happens by itself),
`orders` (order lines), `views`, `bots` (random legal play), `ruleset` (the engine's interface), `options`
(what reading the config needs).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.games.pourleroi.ruleset import RULESET
    from pbem.games.pourleroi.state import card_places, conservation_problems

__all__ = ["RULESET", "card_places", "conservation_problems"]

_HOME = {"RULESET": "ruleset", "card_places": "state", "conservation_problems": "state"}
"""The module each name of the package is in."""


def __getattr__(name: str) -> object:
    """A name of the package, loaded when first asked for, for speed: reading the config imports `options`
    from this package, and a pass with nothing due must not load the rules for it (issue #24).  No circle is
    dodged: the game's modules import each other's modules, never these names of the package."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
