"""Pour Ma Belle: the hidden-role game of Port-Réal (Lannister, Stark, Tyrell), for about 40 players by mail."""

from pbem.games.pmb.ruleset import RULESET

__all__ = ["RULESET"]
