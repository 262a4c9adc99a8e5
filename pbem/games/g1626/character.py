"""1626: one character sheet and the values derived from it (characteristics with gifts, PV, prestige bonuses)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core import JSON, PlayerName
from pbem.games.g1626.tables import (
    CARACS,
    CHANCE,
    HARGNEUX,
    HARGNEUX_BONUS,
    HERITAGE_BASE,
    HERITAGE_UNIT,
    MASTER,
    NATURAL,
    ROBUST,
    SPECIALIST,
    TALENTS,
    mastery,
    title,
    title_bonuses,
)
from pbem.names import fold


@dataclass(frozen=True)
class Character:
    """One player's character: the sheet as the MJ wrote it (base values), and what happened to it since.

    Derived values (characteristics with their gifts, PV, Pugnacité) are computed, never stored.
    """

    player: PlayerName
    name: str
    caracs: dict[str, int]
    talents: dict[str, int]
    gifts: dict[str, list[str]] = field(default_factory=dict)
    """Gift -> domains (talents for Spécialiste/Maître, abbreviations for Naturellement doué; [] if none)."""
    prestige: int = 0
    recognised: bool = False
    """Set by the MJ (RECONNU/INCONNU): prestige bonuses apply only while the character is recognised."""
    by_enemies: bool = False
    """``RECONNU … ENNEMIS``: recognised by enemies, « les bonus peuvent parfois s'inverser pour devenir des malus »."""
    chance: int = 0
    """How many times the sheet takes « Chance inouïe »: the coups the character may avoid in the game."""
    pugnacity: int | None = None
    """The base Pugnacité the MJ wrote on the sheet (its formula is in the combat rules, not in chapter I)."""
    heritage: int | None = None
    """The livres of the gift « Héritage »: 5 000 + 1d6 × 1 000, rolled at setup unless the sheet gives it."""
    damage: int = 0
    """PV lost so far (the MJ's BLESSURE and SOIN orders)."""
    last_wound: int = 0
    """The latest wound, while « Chance inouïe » may still avoid it (0: none, or already healed or avoided)."""
    chance_used: int = 0


def has_gift(char: Character, gift: str, domain: str | None = None) -> bool:
    domains = char.gifts.get(gift)
    if domains is None:
        return False
    return domain is None or fold(domain) in {fold(d) for d in domains}


def prestige_bonus(char: Character, talent: str) -> int:
    """The prestige bonus on a talent test: only for the four social talents, only when recognised;
    a malus of the same size when the MJ said the character is recognised by enemies."""
    if not char.recognised:
        return 0
    bonus = next((b for t, b in title_bonuses(char.prestige).items() if fold(t) == fold(talent)), 0)
    return -bonus if char.by_enemies else bonus


def carac_value(char: Character, abbr: str) -> int:
    """The characteristic with "Naturellement doué" (+1) applied."""
    return char.caracs.get(abbr, 0) + (1 if has_gift(char, NATURAL, abbr) else 0)


def talent_score(char: Character, talent: str) -> int:
    """The character's score in a talent; 0 when the sheet does not list it (ruling)."""
    return next((s for t, s in char.talents.items() if fold(t) == fold(talent)), 0)


def hit_points(char: Character) -> int:
    """Full PV = EN x 4 + BR, or EN x 5 + BR with the gift Robuste (I.6)."""
    return carac_value(char, "EN") * (5 if has_gift(char, ROBUST) else 4) + carac_value(char, "BR")


def current_hit_points(char: Character) -> int:
    """PV left after the wounds the MJ applied (may fall below 0: what follows is the MJ's call)."""
    return hit_points(char) - char.damage


def pugnacity(char: Character) -> int | None:
    """Pugnacité with « Hargneux » (+2) applied; None when the sheet gives no base value."""
    if char.pugnacity is None:
        return None
    return char.pugnacity + (HARGNEUX_BONUS if has_gift(char, HARGNEUX) else 0)


def chance_left(char: Character) -> int:
    return char.chance - char.chance_used


def talent_names(char: Character) -> list[str]:
    """Every talent a test may name: the sheet's ones, then the rules' list (one spelling per talent)."""
    own = list(char.talents)
    folded = {fold(t) for t in own}
    return own + [t for t in TALENTS if fold(t) not in folded]


def sheet(char: Character) -> dict[str, JSON]:
    """The sheet with its derived values, as events and views carry it."""
    bonuses = title_bonuses(char.prestige)
    rank = title(char.prestige)
    return {
        "player": char.player,
        "name": char.name,
        "caracs": [
            {"abbr": a, "fr": n.fr, "en": n.en, "base": char.caracs.get(a, 0), "value": carac_value(char, a),
             "natural": has_gift(char, NATURAL, a)}
            for a, n in CARACS.items()
        ],
        "talents": [
            {"name": t, "score": s, "specialist": has_gift(char, SPECIALIST, t), "master": has_gift(char, MASTER, t),
             "mastery_fr": mastery(s).fr, "mastery_en": mastery(s).en}
            for t, s in sorted(char.talents.items(), key=lambda item: fold(item[0]))
        ],
        "gifts": [{"name": g, "domains": list(d), "times": char.chance if g == CHANCE else 1}
                  for g, d in sorted(char.gifts.items(), key=lambda item: fold(item[0]))],
        "prestige": char.prestige,
        "title_fr": rank.fr,
        "title_en": rank.en,
        "prestige_bonuses": [{"talent": t, "value": b} for t, b in bonuses.items()],
        "recognised": char.recognised,
        "by_enemies": char.by_enemies,
        "robust": has_gift(char, ROBUST),
        "pv_max": hit_points(char),
        "pv": current_hit_points(char),
        "hargneux": has_gift(char, HARGNEUX),
        "pugnacity_base": char.pugnacity,
        "pugnacity": pugnacity(char),
        "heritage": char.heritage,
        "heritage_die": None if char.heritage is None else (char.heritage - HERITAGE_BASE) // HERITAGE_UNIT,
        "chance": char.chance,
        "chance_left": chance_left(char),
    }
