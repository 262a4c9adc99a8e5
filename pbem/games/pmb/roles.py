"""Vocabulary of Pour Ma Belle: teams, ranks, role codes, places, potions."""

from __future__ import annotations

LANNISTER = "lannister"
STARK = "stark"
TYRELL = "tyrell"
TEAMS: tuple[str, ...] = (LANNISTER, STARK, TYRELL)
REBEL_TEAMS: tuple[str, ...] = (STARK, TYRELL)

# ranks (the role inside a team)
GARDE = "garde"
LORD_COMMANDANT = "lord_commandant"
CHUCHOTEURS = "chuchoteurs"
ARGENTIER = "argentier"
MESTRE = "mestre"
FIDELE = "fidele"
CHEF = "chef"
SERGENT = "sergent"
HM = "hm"

CONSEIL: tuple[str, ...] = (CHUCHOTEURS, ARGENTIER, MESTRE)
GARDES: tuple[str, ...] = (GARDE, LORD_COMMANDANT)
DONJON_RANKS: tuple[str, ...] = GARDES + CONSEIL
REBEL_RANKS: tuple[str, ...] = (CHEF, SERGENT, HM)

LANNISTER_CODES: tuple[str, ...] = (GARDE, LORD_COMMANDANT, CHUCHOTEURS, ARGENTIER, MESTRE, FIDELE)
REBEL_CODES: tuple[str, ...] = tuple(f"{t}_{r}" for t in REBEL_TEAMS for r in REBEL_RANKS)
ROLE_CODES: tuple[str, ...] = LANNISTER_CODES + REBEL_CODES

# places in Port-Réal
DONJON = "donjon"
VISENYA = "visenya"
FOSSEDRAGON = "fossedragon"
CULPUCIER = "culpucier"
CACHOTS = "cachots"
LEVELS: tuple[str, ...] = (VISENYA, FOSSEDRAGON, CULPUCIER)
INFLUENCE: dict[str, int] = {VISENYA: 7, FOSSEDRAGON: 3, CULPUCIER: 1, CACHOTS: 0, DONJON: 0}
START_CAPACITY: dict[str, int] = {VISENYA: 5, FOSSEDRAGON: 10, CULPUCIER: 15}
GARDE_INFLUENCE = 12
CONSEIL_INFLUENCE = 20

# potions
POISON = "poison"
CONFUSION = "confusion"
REVELATION = "revelation"
PUISSANCE = "puissance"
VIGILANCE = "vigilance"
POTIONS: tuple[str, ...] = (POISON, CONFUSION, REVELATION, PUISSANCE, VIGILANCE)

# percentages fixed by the rules
P_DENOUNCE = 15
P_GARDE_KILL = 60
P_CONSEIL_KILL = 80
P_VISENYA_DOWN = 40
P_CHEF_WARNED = 50
P_VIGILANCE = 50
TORTURER_START = 50
TORTURER_STEP = 10
TORTURER_MIN = 10
TORTURER_MAX = 90
PUISSANCE_BONUS = 5
MESTRE_MAX_USES = 3


def role_code(team: str, rank: str) -> str:
    """The role code of a rank in a team: ``"garde"``, ``"fidele"``, ``"stark_hm"``..."""
    return rank if team == LANNISTER else f"{team}_{rank}"


def split_code(code: str) -> tuple[str, str]:
    """(team, rank) of a role code; ValueError when unknown."""
    if code in LANNISTER_CODES:
        return LANNISTER, code
    if code in REBEL_CODES:
        team, rank = code.split("_", 1)
        return team, rank
    raise ValueError(code)
