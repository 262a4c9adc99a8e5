"""1626, le gant et l'épée: skill tests resolved by mail (see docs/rules/1626.md)."""

from pbem.games.g1626.character import Character
from pbem.games.g1626.ruleset import RULESET, Ruleset1626
from pbem.games.g1626.sheet import seats_from_toml
from pbem.games.g1626.state import State

__all__ = ["RULESET", "Character", "Ruleset1626", "State", "seats_from_toml"]
