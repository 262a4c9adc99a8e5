"""1626: reading the character sheets the MJ wrote (roster seats or a TOML file) into `Character`s."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import JSON, Msg, PlayerName, Seat, SetupError
from pbem.games.g1626.character import Character
from pbem.games.g1626.state import State
from pbem.games.g1626.tables import (
    CARAC_ALIASES,
    CARACS,
    GIFTS,
    MASTER,
    NATURAL,
    SPECIALIST,
    TALENT_ALIASES,
    TALENTS,
)
from pbem.names import fold

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
