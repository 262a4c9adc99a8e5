"""1626, le gant et l'épée: the tables of the rules, the character sheet and its derived values.

Everything here is pure data and pure functions; the ruleset (`ruleset.py`) uses them.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core import JSON, Msg, PlayerName, Seat, SetupError
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

# --- I.6 gifts the resolver knows by name (others are kept and listed as written) ---

SPECIALIST = "Spécialiste"
MASTER = "Maître"
ROBUST = "Robuste"
NATURAL = "Naturellement doué"
GIFTS: tuple[str, ...] = (
    "Ambidextrie", "Ancien lignage", "Botte secrète", "Chance inouïe", "Combattant multiple",
    "Combat rapproché", "Détenteur d'un secret", "Fils ou Fille de héros", "Hargneux", "Héritage",
    MASTER, NATURAL, "Relation", "Riche maîtresse ou Riche amant", ROBUST, SPECIALIST,
    "Style d'escrime", "Tacticien", "Tireur d'élite",
)

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


@dataclass(frozen=True)
class Character:
    """One player's character sheet as the MJ wrote it (base values; derived ones are computed)."""

    player: PlayerName
    name: str
    caracs: dict[str, int]
    talents: dict[str, int]
    gifts: dict[str, list[str]] = field(default_factory=dict)
    """Gift -> domains (talents for Spécialiste/Maître, abbreviations for Naturellement doué; [] if none)."""
    prestige: int = 0
    recognised: bool = False
    """Set by the MJ (RECONNU/INCONNU): prestige bonuses apply only while the character is recognised."""


@dataclass(frozen=True)
class State:
    characters: dict[PlayerName, Character]
    roster: list[PlayerName]
    secret_tests: bool = False
    tests: int = 0
    """How many tests were rolled so far: numbers tests and keeps dice purposes unique."""


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


def prestige_bonus(char: Character, talent: str) -> int:
    """The prestige bonus on a talent test: only for the four social talents, only when recognised."""
    if not char.recognised:
        return 0
    return next((b for t, b in title_bonuses(char.prestige).items() if fold(t) == fold(talent)), 0)


def has_gift(char: Character, gift: str, domain: str | None = None) -> bool:
    domains = char.gifts.get(gift)
    if domains is None:
        return False
    return domain is None or fold(domain) in {fold(d) for d in domains}


def carac_value(char: Character, abbr: str) -> int:
    """The characteristic with "Naturellement doué" (+1) applied."""
    return char.caracs.get(abbr, 0) + (1 if has_gift(char, NATURAL, abbr) else 0)


def talent_score(char: Character, talent: str) -> int:
    """The character's score in a talent; 0 when the sheet does not list it (ruling)."""
    return next((s for t, s in char.talents.items() if fold(t) == fold(talent)), 0)


def hit_points(char: Character) -> int:
    """PV = EN x 4 + BR, or EN x 5 + BR with the gift Robuste (I.6)."""
    return carac_value(char, "EN") * (5 if has_gift(char, ROBUST) else 4) + carac_value(char, "BR")


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
        "gifts": [{"name": g, "domains": list(d)} for g, d in char.gifts.items()],
        "prestige": char.prestige,
        "title_fr": rank.fr,
        "title_en": rank.en,
        "prestige_bonuses": [{"talent": t, "value": b} for t, b in bonuses.items()],
        "recognised": char.recognised,
        "robust": has_gift(char, ROBUST),
        "pv": hit_points(char),
    }


# --- reading a sheet from the roster (Seat.data) ---


def _first(data: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if key in data:
            return data[key]
    return None


def _fail(player: str, fr: str, en: str) -> SetupError:
    return SetupError(Msg(f"fiche de {player} : {fr}", f"sheet of {player}: {en}"))


def _canonical_talent(name: str) -> str:
    key = fold(name)
    if key in TALENT_ALIASES:
        return TALENT_ALIASES[key]
    return next((t for t in TALENTS if fold(t) == key), " ".join(name.split()))


def _int(player: str, what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(player, f"{what} doit être un nombre entier", f"{what} must be a whole number")
    return value


def character_from_seat(seat: Seat) -> Character:
    """Read a sheet: French or English keys; characteristics in ``caracteristiques`` (or at the top level).

    ``dons``/``gifts`` is a list of names or a table ``don -> [domaines]`` (or ``true``); a list item
    may itself be a table, e.g. ``["Robuste", {"Spécialiste" = ["Escrime"]}]``.
    """
    data = seat.data
    player = seat.name
    raw_caracs = _first(data, "caracteristiques", "caractéristiques", "characteristics", "caracs") or data
    caracs: dict[str, int] = {}
    for key, value in raw_caracs.items():
        abbr = CARAC_ALIASES.get(fold(key))
        if abbr is not None:
            caracs[abbr] = _int(player, abbr, value)
    missing = [a for a in CARACS if a not in caracs]
    if missing:
        raise _fail(player, f"caractéristiques manquantes : {', '.join(missing)}",
                    f"missing characteristics: {', '.join(missing)}")
    if any(v < 0 for v in caracs.values()):
        raise _fail(player, "une caractéristique est négative", "a characteristic is negative")
    talents: dict[str, int] = {}
    for name, score in (_first(data, "talents", "skills") or {}).items():
        talents[_canonical_talent(str(name))] = _int(player, str(name), score)
    gifts: dict[str, list[str]] = {}
    for gift, domains in _gift_items(_first(data, "dons", "gifts") or []):
        canon = next((g for g in GIFTS if fold(g) == fold(gift)), " ".join(gift.split()))
        gifts.setdefault(canon, [])
        for domain in domains:
            gifts[canon].append(_gift_domain(player, canon, domain, talents))
    prestige = _int(player, "prestige", _first(data, "prestige") or 0)
    name = str(_first(data, "nom", "name", "personnage", "character") or player)
    recognised = bool(_first(data, "reconnu", "recognised", "recognized"))
    return Character(player, name, caracs, talents, gifts, prestige, recognised)


def _gift_items(raw: Any) -> list[tuple[str, list[str]]]:
    items: list[tuple[str, list[str]]] = []
    for entry in raw.items() if isinstance(raw, Mapping) else [(g, []) for g in raw]:
        gift, domains = entry
        if isinstance(gift, Mapping):
            items.extend(_gift_items(gift))
        elif isinstance(domains, str):
            items.append((str(gift), [domains]))
        elif isinstance(domains, int) and not isinstance(domains, bool) and domains > 1:  # "Chance inouïe" = 2
            items.append((str(gift), [str(domains)]))
        elif isinstance(domains, list | tuple):
            items.append((str(gift), [str(d) for d in domains]))
        else:  # true, or nothing
            items.append((str(gift), []))
    return items


def _gift_domain(player: str, gift: str, domain: str, talents: Mapping[str, int]) -> str:
    if gift == NATURAL:
        abbr = CARAC_ALIASES.get(fold(domain))
        if abbr is None:
            raise _fail(player, f"{gift} : caractéristique inconnue « {domain} »",
                        f"{gift}: unknown characteristic '{domain}'")
        return abbr
    if gift in (SPECIALIST, MASTER):
        talent = next((t for t in talents if fold(t) == fold(_canonical_talent(domain))), None)
        if talent is None:
            raise _fail(player, f"{gift} : le talent « {domain} » n'est pas sur la fiche",
                        f"{gift}: talent '{domain}' is not on the sheet")
        return talent
    return " ".join(domain.split())


def seats_from_toml(text: str) -> list[Seat]:
    """Roster seats from a TOML file of ``[[personnage]]`` tables, each with ``joueur = "..."`` (pure: give it the text)."""
    doc = tomllib.loads(text)
    seats: list[Seat] = []
    for table in _first(doc, "personnage", "personnages", "character", "characters") or []:
        player = _first(table, "joueur", "player")
        if not isinstance(player, str) or not player.strip():
            raise SetupError(Msg("personnage sans « joueur »", "character without 'player'"))
        seats.append(Seat(player.strip(), data={k: v for k, v in table.items() if k not in ("joueur", "player")}))
    return seats


def new_state(roster: Sequence[Seat], options: Mapping[str, JSON]) -> State:
    if not roster:
        raise SetupError(Msg("aucun personnage dans la partie", "no character in the game"))
    characters: dict[PlayerName, Character] = {}
    for seat in roster:
        if seat.name in characters:
            raise SetupError(Msg(f"joueur en double : {seat.name}", f"duplicate player: {seat.name}"))
        characters[seat.name] = character_from_seat(seat)
    return State(characters, [s.name for s in roster], bool(options.get("secret_tests", False)))
