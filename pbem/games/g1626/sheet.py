"""1626: reading the character sheets the MJ wrote (roster seats or a TOML file) into checked `Character`s.

A sheet that breaks a rule of chapter I is refused with every reason at once; read from a TOML
file, each reason names its line.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core import Msg, Seat, SetupError
from pbem.games.g1626.character import Character
from pbem.games.g1626.checks import Problem, Where, character_problems
from pbem.games.g1626.tables import (
    CARAC_ALIASES,
    CARACS,
    CHANCE,
    GIFTS,
    HERITAGE,
    HERITAGE_BASE,
    HERITAGE_UNIT,
    MASTER,
    NATURAL,
    SPECIALIST,
    TALENT_ALIASES,
    TALENTS,
)
from pbem.names import fold

# the keys a sheet may use, French or English: folded key -> field
KEYS: dict[str, str] = {
    "nom": "name", "name": "name", "personnage": "name", "character": "name",
    "caracteristiques": "caracs", "characteristics": "caracs", "caracs": "caracs",
    "talents": "talents", "skills": "talents",
    "dons": "gifts", "gifts": "gifts",
    "prestige": "prestige",
    "reconnu": "recognised", "recognised": "recognised", "recognized": "recognised",
    "pugnacite": "pugnacity", "pugnacity": "pugnacity",
    "heritage": "heritage", "inheritance": "heritage",
    "joueur": "player", "player": "player", "role": "role",
}
TABLES = ("personnage", "personnages", "character", "characters")


def de(name: str) -> str:
    """« d'Armand », « de Charles »: the French "of" before a name."""
    return f"d'{name}" if fold(name[:1]) in set("aeiouyh") else f"de {name}"


@dataclass
class _Reading:
    """One sheet being read: its problems and, for each part of the sheet, the keys it was written under."""

    player: str
    problems: list[Problem] = field(default_factory=list)
    keys: dict[Where, tuple[str, ...]] = field(default_factory=dict)

    def fail(self, where: Where, fr: str, en: str) -> None:
        self.problems.append(Problem(where, Msg(fr, en)))

    def number(self, where: Where, what: str, value: Any, low: int | None = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"{what} doit être un nombre entier (« {value} »)", f"{what} must be a whole number ('{value}')")
            return 0
        if low is not None and value < low:
            self.fail(where, f"{what} ne peut être inférieur à {low} ({value})", f"{what} cannot be below {low} ({value})")
        return value


def read_sheet(seat: Seat, extra_gifts: Iterable[str] = ()) -> tuple[Character, list[Problem], dict[Where, tuple[str, ...]]]:
    """Read a sheet: French or English keys; characteristics in ``caracteristiques`` (or at the top level).

    ``dons``/``gifts`` is a list of names or a table ``don -> [domaines]`` (or ``true``, or a count for
    « Chance inouïe »); a list item may itself be a table, e.g. ``["Robuste", {"Spécialiste" = ["Escrime"]}]``.
    Returns the character, the problems found (empty if the sheet is valid) and where each part was written.
    """
    data = seat.data
    r = _Reading(seat.name)
    fields: dict[str, tuple[str, Any]] = {}
    top_caracs: dict[str, Any] = {}
    for key, value in data.items():
        known = KEYS.get(fold(key))
        if known is not None:
            fields.setdefault(known, (key, value))
            r.keys[("key", known)] = (key,)
        elif fold(key) in CARAC_ALIASES:
            top_caracs[key] = value
        else:
            guess = difflib.get_close_matches(fold(key), list(KEYS), n=1, cutoff=0.7)
            hint, hint_en = (f" : vouliez-vous dire « {guess[0]} » ?", f": did you mean '{guess[0]}'?") if guess else ("", "")
            r.keys[("key", key)] = (key,)
            r.fail(("key", key), f"clé inconnue « {key} »{hint}", f"unknown key '{key}'{hint_en}")
    caracs = _caracs(r, fields.get("caracs"), top_caracs)
    talents = _talents(r, fields.get("talents"))
    gifts, taken, chance = _gifts(r, fields.get("gifts"), talents, tuple(extra_gifts))
    prestige = r.number(("key", "prestige"), "prestige", fields.get("prestige", ("", 0))[1], low=None)
    pugnacity = None
    if "pugnacity" in fields:
        pugnacity = r.number(("key", "pugnacity"), "pugnacité", fields["pugnacity"][1])
    heritage = _heritage(r, fields.get("heritage"), HERITAGE in gifts)
    name = str(fields.get("name", ("", seat.name))[1])
    recognised = fields.get("recognised", ("", False))[1]
    if not isinstance(recognised, bool):
        r.fail(("key", "recognised"), "reconnu vaut true ou false", "recognised is true or false")
    char = Character(seat.name, name, caracs, talents, gifts, prestige, recognised is True, chance=chance,
                     pugnacity=pugnacity, heritage=heritage)
    # the rules of chapter I read the characteristics: without all ten, they would only add noise
    unreadable = any(p.where == ("key", "caracs") for p in r.problems)
    problems = r.problems + ([] if unreadable else character_problems(char, taken))
    return char, problems, r.keys


def _caracs(r: _Reading, table: tuple[str, Any] | None, top: Mapping[str, Any]) -> dict[str, int]:
    raw: Mapping[str, Any] = top
    prefix: tuple[str, ...] = ()
    if table is not None:
        if not isinstance(table[1], Mapping):
            r.fail(("key", "caracs"), "caractéristiques : une table FO = 5, EN = 6…", "characteristics: a table FO = 5, EN = 6…")
            return {}
        raw, prefix = table[1], (table[0],)
    caracs: dict[str, int] = {}
    for key, value in raw.items():
        abbr = CARAC_ALIASES.get(fold(key))
        if abbr is None:
            r.keys[("carac", key)] = (*prefix, key)
            r.fail(("carac", key), f"caractéristique inconnue « {key} » (valides : {', '.join(CARACS)})",
                   f"unknown characteristic '{key}' (valid: {', '.join(CARACS)})")
            continue
        r.keys[("carac", abbr)] = (*prefix, key)
        caracs[abbr] = r.number(("carac", abbr), abbr, value)
    missing = [a for a in CARACS if a not in caracs]
    if missing:
        r.fail(("key", "caracs"), f"caractéristiques manquantes : {_and(missing)}",
               f"missing characteristics: {_and(missing, 'and')}")
    return caracs


def _talents(r: _Reading, table: tuple[str, Any] | None) -> dict[str, int]:
    if table is None:
        return {}
    if not isinstance(table[1], Mapping):
        r.fail(("key", "talents"), "talents : une table Escrime = 7…", "talents: a table Escrime = 7…")
        return {}
    talents: dict[str, int] = {}
    for name, score in table[1].items():
        canon = _canonical_talent(str(name))
        r.keys[("talent", canon)] = (table[0], str(name))
        talents[canon] = r.number(("talent", canon), canon, score)
    return talents


def _gifts(r: _Reading, table: tuple[str, Any] | None, talents: Mapping[str, int],
           extra: tuple[str, ...]) -> tuple[dict[str, list[str]], dict[str, int], int]:
    """Gifts with their domains, how many times each is listed, and the count of « Chance inouïe »."""
    gifts: dict[str, list[str]] = {}
    taken: dict[str, int] = {}
    chance = 0
    if table is None:
        return gifts, taken, chance
    known = {fold(g): g for g in (*GIFTS, *extra)}
    for raw_name, value in _gift_items(table[1]):
        canon = known.get(fold(raw_name))
        where: Where = ("gift", canon or raw_name)
        r.keys.setdefault(where, (table[0], raw_name))
        if canon is None:
            guess = difflib.get_close_matches(fold(raw_name), list(known), n=1, cutoff=0.75)
            hint = f" : vouliez-vous dire {known[guess[0]]} ?" if guess else ""
            hint_en = f": did you mean {known[guess[0]]}?" if guess else ""
            hint += " (les dons des règles, ou ceux que le MJ ajoute par l'option extra_gifts)"
            hint_en += " (the gifts of the rules, or those the MJ adds with the option extra_gifts)"
            r.fail(where, f"don inconnu « {raw_name} »{hint}", f"unknown gift '{raw_name}'{hint_en}")
            continue
        taken[canon] = taken.get(canon, 0) + 1
        domains = gifts.setdefault(canon, [])
        if canon == CHANCE:
            count = value if isinstance(value, int) and not isinstance(value, bool) else 1 if value is True else None
            if count is None or count < 1 or isinstance(value, list):
                r.fail(where, f"« {CHANCE} » vaut true ou le nombre de fois où le don est pris",
                       f"'{CHANCE}' is true or the number of times the gift is taken")
            chance += count or 0
            continue
        if value is True or value is None:
            continue
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(d, str) for d in value):
            r.fail(where, f"« {canon} » vaut true, ou la liste de ses domaines [\"…\"]",
                   f"'{canon}' is true, or the list of its domains [\"…\"]")
            continue
        for domain in value:
            checked = _gift_domain(r, canon, domain, talents)
            if checked is not None:
                domains.append(checked)
    return gifts, taken, chance


def _gift_items(raw: Any) -> list[tuple[str, Any]]:
    """(name, value) pairs from a table or a list of names and tables; a name alone is ``True``."""
    if isinstance(raw, Mapping):
        return [(str(k), v) for k, v in raw.items()]
    items: list[tuple[str, Any]] = []
    for entry in raw if isinstance(raw, list) else [raw]:
        if isinstance(entry, Mapping):
            items.extend(_gift_items(entry))
        else:
            items.append((str(entry), True))
    return items


def _gift_domain(r: _Reading, gift: str, domain: str, talents: Mapping[str, int]) -> str | None:
    if gift == NATURAL:
        abbr = CARAC_ALIASES.get(fold(domain))
        if abbr is None:
            r.fail(("gift", gift), f"« {gift} » : caractéristique inconnue « {domain} » (valides : {', '.join(CARACS)})",
                   f"'{gift}': unknown characteristic '{domain}' (valid: {', '.join(CARACS)})")
        return abbr
    if gift in (SPECIALIST, MASTER):
        talent = next((t for t in talents if fold(t) == fold(_canonical_talent(domain))), None)
        if talent is None:
            r.fail(("gift", gift), f"« {gift} » : le talent « {domain} » n'est pas sur la fiche",
                   f"'{gift}': talent '{domain}' is not on the sheet")
        return talent
    return " ".join(domain.split())


def _heritage(r: _Reading, given: tuple[str, Any] | None, has_gift: bool) -> int | None:
    if given is None:
        return None
    amount = r.number(("key", "heritage"), "héritage", given[1])
    allowed = [HERITAGE_BASE + die * HERITAGE_UNIT for die in range(1, 7)]
    if not has_gift:
        r.fail(("key", "heritage"), f"héritage donné sans le don « {HERITAGE} »", f"inheritance given without the gift '{HERITAGE}'")
    elif amount not in allowed:
        r.fail(("key", "heritage"), f"héritage = {amount} : le don donne 5 000 + 1d6 × 1 000 livres, de 6 000 à 11 000 par milliers",
               f"inheritance = {amount}: the gift gives 5,000 + 1d6 × 1,000 livres, 6,000 to 11,000 in thousands")
    return amount


def _canonical_talent(name: str) -> str:
    key = fold(name)
    if key in TALENT_ALIASES:
        return TALENT_ALIASES[key]
    return next((t for t in TALENTS if fold(t) == key), " ".join(name.split()))


def _and(items: Sequence[str], word: str = "et") -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def _refusal(player: str, problems: Sequence[Problem], lines: Sequence[int | None] = ()) -> SetupError:
    fr, en = [], []
    for i, problem in enumerate(problems):
        line = lines[i] if i < len(lines) else None
        fr.append((f"ligne {line} : " if line else "") + f"fiche {de(player)} : {problem.msg.fr}")
        en.append((f"line {line}: " if line else "") + f"sheet of {player}: {problem.msg.en}")
    return SetupError(Msg("\n".join(fr), "\n".join(en)))


def character_from_seat(seat: Seat, extra_gifts: Iterable[str] = ()) -> Character:
    """The checked character of a roster seat; `SetupError` with every reason when the sheet breaks a rule."""
    char, problems, _ = read_sheet(seat, extra_gifts)
    if problems:
        raise _refusal(seat.name, problems)
    return char


# --- a TOML file of sheets, with line numbers ---

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")


def _unquote(key: str) -> str:
    key = key.strip()
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        return key[1:-1]
    return key


def _dotted(path: str) -> tuple[str, ...]:
    return tuple(_unquote(p) for p in re.findall(r"""("(?:[^"\\]|\\.)*"|'[^']*'|[^.\s]+)""", path))


def key_lines(text: str) -> tuple[list[int], dict[tuple[int, tuple[str, ...]], int]]:
    """Where each sheet starts, and the line of each key: (sheet index, key path inside the sheet) -> line."""
    starts: list[int] = []
    lines: dict[tuple[int, tuple[str, ...]], int] = {}
    section: tuple[str, ...] = ()
    in_sheet = False
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            path = _dotted(header.group(2))
            in_sheet = bool(path) and path[0] in TABLES
            if in_sheet and header.group(1) == "[[" and len(path) == 1:
                starts.append(number)
            section = path[1:] if in_sheet else ()
            if in_sheet and starts and section:
                lines.setdefault((len(starts) - 1, section), number)
            continue
        key = _KEY.match(line)
        if key and in_sheet and starts:
            lines.setdefault((len(starts) - 1, (*section, _unquote(key.group(1)))), number)
    return starts, lines


def _line_of(index: int, path: tuple[str, ...], starts: Sequence[int],
             lines: Mapping[tuple[int, tuple[str, ...]], int]) -> int | None:
    for end in range(len(path), 0, -1):
        found = lines.get((index, path[:end]))
        if found:
            return found
    return starts[index] if index < len(starts) else None


def seats_from_toml(text: str, extra_gifts: Iterable[str] = ()) -> list[Seat]:
    """Roster seats from a TOML file of ``[[personnage]]`` tables, each with ``joueur = "..."`` (pure: give it the text).

    Every sheet is checked: a `SetupError` lists each rule broken, with its line.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SetupError(Msg(f"fichier de fiches illisible : {e}", f"unreadable sheets file: {e}")) from None
    starts, lines = key_lines(text)
    tables: Any = next((doc[t] for t in TABLES if t in doc), [])
    if not isinstance(tables, list):
        raise SetupError(Msg("les fiches s'écrivent [[personnage]]", "sheets are written [[personnage]]"))
    seats: list[Seat] = []
    fr: list[str] = []
    en: list[str] = []
    for index, table in enumerate(tables):
        player = next((table[k] for k in ("joueur", "player") if k in table), None)
        if not isinstance(player, str) or not player.strip():
            line = starts[index] if index < len(starts) else None
            fr.append(f"ligne {line} : personnage sans « joueur » (le nom d'inscription du joueur)")
            en.append(f"line {line}: character without 'joueur' (the player's registered name)")
            continue
        seat = Seat(player.strip(), data={k: v for k, v in table.items() if k not in ("joueur", "player")})
        _, problems, keys = read_sheet(seat, extra_gifts)
        if problems:
            where = [_line_of(index, keys.get(p.where, ()), starts, lines) for p in problems]
            refusal = _refusal(seat.name, problems, where).msg
            fr.append(refusal.fr)
            en.append(refusal.en)
        seats.append(seat)
    if fr:
        raise SetupError(Msg("\n".join(fr), "\n".join(en)))
    return seats
