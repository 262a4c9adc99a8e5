"""Pour le Roi (et Moi)'s options: their defaults, and the check that refuses any other value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import GameOptions
from pbem.games.pourleroi.state import CENTRE, KEEP, NEUTRAL, Options
from pbem.grammar import setup_refused
from pbem.names import fold

DEFAULT_OPTIONS: dict[str, Any] = {
    "cards": "",
    "seating": "draw",
    "default_placement": [CENTRE, NEUTRAL, KEEP],
    "unpayable_bids": "refuse",
    "auction_prompts": "everyone",
}
"""``cards``: path of a card file ("" = the shipped ``data/pourleroi/cartes.toml``);
``seating``: ``draw`` (seats drawn at random) or ``roster`` (registration order);
``default_placement``: where a silent donor's card goes, first place free in this order;
``unpayable_bids``: ``refuse`` a bid above what the player can pay, or ``accept`` it (the non-payment
rule then applies); ``auction_prompts``: at each auction ask ``everyone`` (wait only for those who can
bid), ``everyone_waited`` (and wait for all) or only the ``bidders`` (those who can bid)."""

AUCTION_PROMPTS = ("everyone", "everyone_waited", "bidders")
_PLACES = {"centre": CENTRE, "center": CENTRE, "neutre": NEUTRAL, "neutral": NEUTRAL, "garder": KEEP, "keep": KEEP}


def options_from(options: Mapping[str, Any]) -> Options:
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise setup_refused(f"option inconnue « {unknown[0]} » (options : {', '.join(DEFAULT_OPTIONS)})",
                   f"unknown option '{unknown[0]}' (options: {', '.join(DEFAULT_OPTIONS)})")
    o = {**DEFAULT_OPTIONS, **options}
    if not isinstance(o["cards"], str):
        raise setup_refused("cards : le chemin d'un fichier de cartes, ou \"\" pour celui de pbem",
                   "cards: the path of a card file, or \"\" for pbem's own")
    if o["seating"] not in ("draw", "roster"):
        raise setup_refused("seating : draw ou roster", "seating: draw or roster")
    order = o["default_placement"]
    if not isinstance(order, (list, tuple)) or not all(isinstance(x, str) and fold(x) in _PLACES for x in order) \
            or sorted(_PLACES[fold(x)] for x in order) != sorted((CENTRE, NEUTRAL, KEEP)):
        raise setup_refused("default_placement : les trois places dans l'ordre voulu, par exemple [\"centre\", \"neutre\", "
                   "\"garder\"]", "default_placement: the three places in the wanted order, e.g. "
                   "[\"centre\", \"neutre\", \"garder\"]")
    if o["unpayable_bids"] not in ("refuse", "accept"):
        raise setup_refused("unpayable_bids : refuse ou accept", "unpayable_bids: refuse or accept")
    if o["auction_prompts"] not in AUCTION_PROMPTS:
        raise setup_refused("auction_prompts : everyone, everyone_waited ou bidders",
                   "auction_prompts: everyone, everyone_waited or bidders")
    return Options(o["cards"], o["seating"], tuple(_PLACES[fold(x)] for x in order), o["unpayable_bids"],
                   o["auction_prompts"])


OPTIONS = GameOptions("Pour le Roi (et Moi)", DEFAULT_OPTIONS, options_from, path_options=frozenset({"cards"}))
"""What reading config.toml needs of the game (`pbem.games.Game.options`): the ruleset is not loaded for it;
``cards`` names a file, which config resolves against the game folder."""
