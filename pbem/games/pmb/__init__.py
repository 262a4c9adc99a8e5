"""Pour Ma Belle: the hidden-role game of Port-Réal (Lannister, Stark, Tyrell), for about 40 players by mail."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games import lazy_names

if TYPE_CHECKING:
    from pbem.games.pmb.ruleset import RULESET

__all__ = ["RULESET"]

__getattr__ = lazy_names(__name__, {"RULESET": "ruleset"})
