"""Pour Ma Belle: the hidden-role game of Port-Réal (Lannister, Stark, Tyrell), for about 40 players by mail."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.games.pmb.ruleset import RULESET

__all__ = ["RULESET"]


def __getattr__(name: str) -> object:
    """``RULESET``, loaded when first asked for, for speed: reading the config imports `options` from this
    package, and a pass with nothing due must not load the rules for it (issue #24).  No circle is dodged:
    the ruleset's modules import this package's modules, never the package's ``RULESET``."""
    if name == "RULESET":
        from pbem.games.pmb.ruleset import RULESET

        return RULESET
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
