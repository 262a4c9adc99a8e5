"""1626, le gant et l'épée: the tables of the rules (chapter I) and the lookups into them.

Pure data: characteristics, talents, degrees of mastery, success thresholds, gifts and prestige titles.
"""

from __future__ import annotations

from pbem.core import Msg
from pbem.names import fold

# --- I.1 the ten characteristics: abbreviation -> (French name, English name) ---

CARACS: dict[str, Msg] = {
    "FO": Msg("Force", "Strength"),
    "EN": Msg("Endurance", "Endurance"),
    "AG": Msg("Agilité", "Agility"),
    "DEX": Msg("Dextérité", "Dexterity"),
    "PE": Msg("Perception", "Perception"),
    "INT": Msg("Intelligence", "Intelligence"),
    "EDU": Msg("Éducation", "Education"),
    "CH": Msg("Charisme", "Charisma"),
    "APP": Msg("Apparence", "Appearance"),
    "BR": Msg("Bravoure", "Bravery"),
}

# folded alias (abbreviation, French or English name) -> abbreviation
CARAC_ALIASES: dict[str, str] = {}
for _abbr, _names in CARACS.items():
    for _alias in (_abbr, _names.fr, _names.en):
        CARAC_ALIASES.setdefault(fold(_alias), _abbr)
CARAC_ALIASES.update({"str": "FO", "dx": "DEX", "per": "PE", "cha": "CH", "bra": "BR"})

# --- I.2 the indicative list of talents (a sheet may hold others, agreed with the MJ) ---

TALENTS: tuple[str, ...] = (
    "Acrobatie", "Administration", "Anglais", "Armes de tir", "Armes d'hast", "Bagarre",
    "Baratin", "Commandement", "Serrurerie", "Discrétion", "Eloquence", "Equitation",
    "Escrime", "Espagnol", "Etiquette", "Français", "Héraldique", "Intimidation", "Latin",
    "Manipulation", "Mécanique", "Médecine", "Nage", "Navigation", "Orientation",
    "Stratégie militaire", "Tactique militaire", "Théologie", "Vigilance",
)

# The rules' own example says "armes à feu" for what the list calls "Armes de tir".
TALENT_ALIASES: dict[str, str] = {fold("armes à feu"): "Armes de tir", fold("armes a feu"): "Armes de tir"}

MASTERY: tuple[tuple[int, Msg], ...] = (
    (11, Msg("rarissime, légendaire", "very rare, legendary")),
    (9, Msg("maître incontesté", "undisputed master")),
    (7, Msg("professionnel d'excellent niveau", "excellent professional")),
    (5, Msg("amateur averti ou professionnel", "skilled amateur or professional")),
    (3, Msg("amateur", "amateur")),
    (1, Msg("aucune maîtrise, béotien ou débutant", "no mastery, novice")),
    (0, Msg("non appris", "untrained")),
)

# --- I.4 the success threshold (SR): lowest SR of each band ---

DIFFICULTIES: tuple[tuple[int, Msg], ...] = (
    (23, Msg("Impossible", "Impossible")),
    (21, Msg("Extrêmement difficile", "Extremely hard")),
    (19, Msg("Très difficile", "Very hard")),
    (17, Msg("Difficile", "Hard")),
    (15, Msg("Assez difficile", "Fairly hard")),
    (14, Msg("Moyen", "Average")),
    (12, Msg("Facile", "Easy")),
    (10, Msg("Très facile", "Very easy")),
    (1, Msg("Dérisoire", "Trivial")),
)

# --- I.6 gifts ---

SPECIALIST = "Spécialiste"
MASTER = "Maître"
ROBUST = "Robuste"
NATURAL = "Naturellement doué"
CHANCE = "Chance inouïe"
HARGNEUX = "Hargneux"
HERITAGE = "Héritage"
FENCING_STYLE = "Style d'escrime"
MARKSMAN = "Tireur d'élite"
TACTICIAN = "Tacticien"
GIFTS: tuple[str, ...] = (
    "Ambidextrie", "Ancien lignage", "Botte secrète", CHANCE, "Combattant multiple",
    "Combat rapproché", "Détenteur d'un secret", "Fils ou Fille de héros", HARGNEUX, HERITAGE,
    MASTER, NATURAL, "Relation", "Riche maîtresse ou Riche amant", ROBUST, SPECIALIST,
    FENCING_STYLE, TACTICIAN, MARKSMAN,
)
STAR_GIFTS: frozenset[str] = frozenset({CHANCE, MASTER, NATURAL, "Relation", SPECIALIST, FENCING_STYLE})
"""« Les dons suivis d'une étoile peuvent être pris plusieurs fois »."""
DOMAIN_GIFTS: frozenset[str] = frozenset({MASTER, NATURAL, "Relation", SPECIALIST, FENCING_STYLE})
"""Star gifts taken « pour un domaine, une caractéristique, ou un talent associé » (Chance inouïe has none)."""

# Constraints of the table, "X > n" written as the lowest allowed value n + 1.  The domain gifts
# (Spécialiste: talent > 6; Maître: talent > 8 and Spécialiste; Style d'escrime) are checked in `checks`.
GIFT_MINIMA: dict[str, tuple[tuple[str, str, int], ...]] = {
    "Ambidextrie": (("carac", "DEX", 6),),
    "Combattant multiple": (("talent", "Stratégie militaire", 6),),
    "Riche maîtresse ou Riche amant": (("carac", "APP", 6), ("carac", "CH", 6)),
    MARKSMAN: (("talent", "Armes de tir", 5),),
}
SPECIALIST_MINIMUM = 7
MASTER_MINIMUM = 9
FENCING = "Escrime"
FENCING_STYLES: tuple[str, ...] = ("cavalerie", "français", "italien", "espagnol")
CARAC_MAX = 9
"""« Le score maximum d'une caractéristique atteignable par un personnage est de 9 »."""
HARGNEUX_BONUS = 2
HERITAGE_BASE, HERITAGE_UNIT = 5000, 1000
"""« une somme de 5.000 + (1d6 x 1000) livres »."""
MARKSMAN_BONUS = 2
"""Tireur d'élite: « +2 au tir s'il dispose d'au moins un tour pour viser »."""
TACTICIAN_BONUS = 2
"""Tacticien: « +2 sur ses jets de tactique militaire visant à déjouer un enchaînement ou une botte secrète »."""

# --- I.7 prestige: (lowest prestige, title, bonus on Eloquence, Baratin, Intimidation, Etiquette) ---

PRESTIGE_TALENTS: tuple[str, ...] = ("Eloquence", "Baratin", "Intimidation", "Etiquette")
PRESTIGE_TITLES: tuple[tuple[int, Msg, tuple[int, int, int, int]], ...] = (
    (15000, Msg("Légende", "Legend"), (4, 4, 4, 4)),
    (10000, Msg("Héros", "Hero"), (3, 3, 3, 3)),
    (6000, Msg("Grand nom du royaume", "Great name of the realm"), (2, 2, 2, 2)),
    (3000, Msg("Gentilhomme admiré", "Admired gentleman"), (1, 1, 1, 1)),
    (1000, Msg("Gentilhomme", "Gentleman"), (1, 1, 1, 0)),
    (500, Msg("Homme de confiance", "Trusted man"), (1, 1, 0, 0)),
    (100, Msg("Bon camarade", "Good fellow"), (1, 0, 0, 0)),
)
UNKNOWN_TITLE = Msg("Inconnu", "Unknown")


# --- lookups ---


def difficulty(sr: int) -> Msg:
    """The difficulty label of a success threshold (I.4)."""
    for low, label in DIFFICULTIES:
        if sr >= low:
            return label
    return DIFFICULTIES[-1][1]


def mastery(score: int) -> Msg:
    """The degree of mastery of a talent score (I.2)."""
    for low, label in MASTERY:
        if score >= low:
            return label
    return MASTERY[-1][1]


def title(prestige: int) -> Msg:
    """The prestige title; each band's lower bound is inclusive (100 is already Bon camarade)."""
    for low, name, _ in PRESTIGE_TITLES:
        if prestige >= low:
            return name
    return UNKNOWN_TITLE


def title_bonuses(prestige: int) -> dict[str, int]:
    """The title's bonuses by talent, zeros left out."""
    for low, _, bonuses in PRESTIGE_TITLES:
        if prestige >= low:
            return {t: b for t, b in zip(PRESTIGE_TALENTS, bonuses, strict=True) if b}
    return {}
