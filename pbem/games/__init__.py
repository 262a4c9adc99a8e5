"""The ruleset registry: a game name (or alias) -> its ruleset object.

Rulesets are imported lazily so that one broken game cannot stop the others from loading.
"""

from __future__ import annotations

import importlib

from pbem.core import Ruleset

# name -> (module, aliases).  Each module exposes ``RULESET``.
_REGISTRY: dict[str, tuple[str, tuple[str, ...]]] = {
    "1626": ("pbem.games.g1626", ("gant", "1626-le-gant-et-l-epee")),
    "pmb": ("pbem.games.pmb", ("pourmabelle", "pour-ma-belle")),
    "intrigue": ("pbem.games.intrigue", ()),
    "pourleroi": ("pbem.games.pourleroi", ("pour-le-roi", "pour-le-roi-et-moi", "pourleroietmoi", "plr")),
    "courtisans": ("pbem.games.courtisans", ("courtisan", "louis-xiv")),
}

_LOADED: dict[str, Ruleset] = {}
"""Rulesets already imported, by the name asked for (the engine asks several times a mail)."""


def register(name: str, module: str, aliases: tuple[str, ...] = ()) -> None:
    """Add a ruleset (tests register their conformance ruleset this way)."""
    _REGISTRY[name] = (module, aliases)
    _LOADED.clear()


def names() -> list[str]:
    """The canonical names of every registered game."""
    return list(_REGISTRY)


def canonical(name: str) -> str:
    """The canonical game name for a name or alias; KeyError if unknown."""
    key = name.strip().lower()
    for canon, (_, aliases) in _REGISTRY.items():
        if key == canon or key in aliases:
            return canon
    raise KeyError(name)


def get(name: str) -> Ruleset:
    """The ruleset for a game name or alias."""
    ruleset = _LOADED.get(name)
    if ruleset is None:
        module = importlib.import_module(_REGISTRY[canonical(name)][0])
        ruleset = _LOADED[name] = module.RULESET
    return ruleset
