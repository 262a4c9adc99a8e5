"""Pour le Roi (et Moi): gifts card by card, King cards, auctions by proxy bid, majorities per ministry.

Modules: `cards` (the material file), `state`, `setup`, `gift` (the gift phase), `king` (King cards),
`auction` (proxy bids and payment), `scoring`, `flow` (what is asked now, what happens by itself),
`orders` (order lines), `views`, `bots` (random legal play), `ruleset` (the engine's interface), `options`
(what reading the config needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games import lazy_names

if TYPE_CHECKING:
    from pbem.games.pourleroi.ruleset import RULESET
    from pbem.games.pourleroi.state import card_places, conservation_problems

__all__ = ["RULESET", "card_places", "conservation_problems"]

_HOME = {"RULESET": "ruleset", "card_places": "state", "conservation_problems": "state"}
"""The module each name of the package is in."""

__getattr__ = lazy_names(__name__, _HOME)
