"""The game registry: each game declared once, in one `Game` entry (boardgame.io's ``Game({...})`` is the model).

An entry names every part of its game (the ruleset, the other names it answers to, the forum
picture, the archive's charts, the demo, the bots that play it) by reference, ``"module:attribute"``,
and nothing is imported before it is asked for: one broken game cannot stop the others from loading,
and a game that is never pictured never imports Pillow.  The parts live where their audience is
(`pbem.pictures`, `pbem.archive.series`, `pbem.demo`); this table is the one place that ties them
to their game.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core import GameOptions, Ruleset


def lazy_names(package: str, home: Mapping[str, str]) -> Callable[[str], object]:
    """A game package's module ``__getattr__``: each name of ``home`` loaded from its module of the package
    when first asked for, for speed: reading the config imports `options` from the package, and a pass with
    nothing due must not load the rules for it (issue #24).  No circle is dodged: the game's modules import
    each other's modules, never these names of the package."""

    def getattr_(name: str) -> object:
        if name not in home:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{home[name]}"), name)

    return getattr_


@dataclass(frozen=True)
class Game:
    """One game and where its parts are; None: the game has no such part."""

    name: str
    """The canonical name: the config's ``ruleset``, the templates' folder (``templates/<name>/``)."""
    ruleset: str
    """The `pbem.core.Ruleset` object, e.g. ``"pbem.games.pmb:RULESET"``."""
    aliases: tuple[str, ...] = ()
    """Other names the config may give (lower case)."""
    picture: str | None = None
    """``draw(view, events, title) -> Scene``, the forum post's picture of the public board (`pbem.pictures`)."""
    charts: str | None = None
    """``builder(steps) -> list[Chart]``, the archive's charts over the public views (`pbem.archive.series`)."""
    demo: str | None = None
    """``demo(folder) -> report lines``, the game played by mail in ``pbem demo`` (`pbem.demo`)."""
    bots: str | None = None
    """``random_orders(state, player, seed) -> lines``, a bot's orders (demo, conformance test, scenario tables)."""
    options: str | None = None
    """The `pbem.core.GameOptions` config reading needs (title, options), light to import; None: the ruleset's."""

    @property
    def package(self) -> str:
        """The module the ruleset is in (its package's source holds the game's event kinds)."""
        return self.ruleset.partition(":")[0]


GAMES: tuple[Game, ...] = (
    Game("1626", "pbem.games.g1626:RULESET", aliases=("gant", "1626-le-gant-et-l-epee"),
         demo="pbem.demo:demo_1626", options="pbem.games.g1626.options:OPTIONS"),
    Game("pmb", "pbem.games.pmb:RULESET", aliases=("pourmabelle", "pour-ma-belle"),
         picture="pbem.pictures.pmb:draw", charts="pbem.archive.series:pmb", demo="pbem.demo:demo_pmb",
         bots="pbem.games.pmb.bots:random_orders", options="pbem.games.pmb.options:OPTIONS"),
    Game("intrigue", "pbem.games.intrigue:RULESET",
         picture="pbem.pictures.intrigue:draw", charts="pbem.archive.series:intrigue", demo="pbem.demo:demo_intrigue",
         bots="pbem.games.intrigue.bots:random_orders", options="pbem.games.intrigue.options:OPTIONS"),
    Game("pourleroi", "pbem.games.pourleroi:RULESET",
         aliases=("pour-le-roi", "pour-le-roi-et-moi", "pourleroietmoi", "plr"),
         picture="pbem.pictures.pourleroi:draw", charts="pbem.archive.series:pourleroi",
         demo="pbem.demo:demo_pourleroi", bots="pbem.games.pourleroi.bots:random_orders",
         options="pbem.games.pourleroi.options:OPTIONS"),
    Game("courtisans", "pbem.games.courtisans:RULESET", aliases=("courtisan", "louis-xiv"),
         picture="pbem.pictures.courtisans:draw", charts="pbem.archive.series:courtisans",
         demo="pbem.demo:demo_courtisans", bots="pbem.games.courtisans.bots:random_orders"),
)
"""The games pbem ships, in the order they are listed (config errors, ``pbem demo all``)."""

_REGISTERED: dict[str, Game] = {g.name: g for g in GAMES}

_LOADED: dict[str, Ruleset[Any]] = {}
"""Rulesets already imported, by the name asked for (the engine asks several times a mail)."""


def register(game: Game) -> None:
    """Add a game (tests register their conformance ruleset this way)."""
    _REGISTERED[game.name] = game
    _LOADED.clear()


def names() -> list[str]:
    """The canonical names of every registered game."""
    return list(_REGISTERED)


def demos() -> list[str]:
    """The games pbem ships that have a demo (``pbem demo``), in the registry's order."""
    return [g.name for g in GAMES if g.demo is not None]


def canonical(name: str) -> str:
    """The canonical game name for a name or alias; KeyError if unknown."""
    key = name.strip().lower()
    for game in _REGISTERED.values():
        if key == game.name or key in game.aliases:
            return game.name
    raise KeyError(name)


def entry(name: str) -> Game:
    """The entry of a game name or alias; KeyError if unknown."""
    return _REGISTERED[canonical(name)]


def load(reference: str) -> Any:
    """The object a reference names, ``"module:attribute"``, imported now."""
    return pkgutil.resolve_name(reference)


def options(name: str) -> GameOptions:
    """What reading the config needs of a game name or alias: from its own light module when it has one (the
    ruleset is not loaded then), else from its ruleset."""
    reference = entry(name).options
    if reference is None:
        r = get(name)
        return GameOptions(r.title, r.default_options, r.check_options, r.path_options)
    declared = load(reference)
    if not isinstance(declared, GameOptions):
        raise TypeError(f"{reference} is no pbem.core.GameOptions")
    return declared


def get(name: str) -> Ruleset[Any]:
    """The ruleset for a game name or alias."""
    ruleset = _LOADED.get(name)
    if ruleset is None:
        loaded = load(entry(name).ruleset)
        if not isinstance(loaded, Ruleset):
            raise TypeError(f"{entry(name).ruleset} is no pbem.core.Ruleset")
        ruleset = _LOADED[name] = loaded
    return ruleset
