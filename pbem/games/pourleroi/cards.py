"""The game's material: ministries, Government, King and Gold cards, and the set-up table, read from TOML.

The shipped file is ``data/pourleroi/cartes.toml``; the MJ may give another one (option ``cartes``).
Everything is checked when the file is read, and a mistake is reported with the file, the entry and
the reason (`CardFileError`), before any game starts.  A game keeps its `Material` in its state, so a
file edited later never changes a game already running.

Card identifiers: ``<ministry>-<letter>`` for Government cards (``GUE-C``), ``ROI-<nn>`` for King
cards and ``OR-<nn>`` for Gold cards.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.shipped import DATA

GOV, KING, GOLD = "gov", "king", "gold"

MIN_PLAYERS, MAX_PLAYERS = 2, 5


class CardFileError(Exception):
    """The card file cannot be used; the message names the file, the entry and what is wrong (in French)."""


@dataclass(frozen=True)
class Ministry:
    """One ministry (a colour of Government cards) and its office on the board."""

    code: str
    fr: str
    en: str
    colour_fr: str
    colour_en: str
    players: int = MIN_PLAYERS
    """The printed player count: the ministry is on the board from this many players on."""


@dataclass(frozen=True)
class Symbol:
    """One symbol of a King card: change a primary office by ``amount`` up (+), down (-) or either (±).

    ``ministry`` is empty when the player who obtains the card chooses the office.
    """

    sign: str
    amount: int
    ministry: str = ""

    @property
    def text(self) -> str:
        return f"{self.sign}{self.amount}" + (f" {self.ministry}" if self.ministry else "")


@dataclass(frozen=True)
class Preparation:
    """What the set-up table removes at one player count."""

    gold_per_value: int
    random: int


@dataclass(frozen=True)
class Material:
    """The whole box, as read from the card file (JSON-friendly: it is part of every game state)."""

    source: str
    ministries: tuple[Ministry, ...]
    government: dict[str, int]
    """Government card id -> support value."""
    kings: dict[str, str]
    """King card id -> its symbols, written as in the file (``"±1 ±1"``)."""
    gold: dict[str, int]
    """Gold card id -> Gold value."""
    players: dict[str, int]
    """Card id -> printed player count, for the cards that print one above the minimum."""
    preparation: dict[str, Preparation]
    """Player count ("2" to "5") -> removals of the set-up table."""

    def kind(self, card: str) -> str:
        if card in self.government:
            return GOV
        if card in self.gold:
            return GOLD
        if card in self.kings:
            return KING
        raise KeyError(card)

    def all_cards(self) -> list[str]:
        return [*self.government, *self.kings, *self.gold]

    def ministry(self, code: str) -> Ministry:
        for m in self.ministries:
            if m.code == code:
                return m
        raise KeyError(code)


def ministry_of(card: str) -> str:
    """The ministry code of a Government card id (``GUE-C`` -> ``GUE``)."""
    return card.split("-", 1)[0]


def letter_of(card: str) -> str:
    """The letter of a Government card id (``GUE-C`` -> ``C``)."""
    return card.split("-", 1)[1]


_SYMBOL = re.compile(r"^(?P<sign>\+/-|\+-|±|\+|-|−)(?P<amount>[1-9])(?:\s+(?P<ministry>[A-Z]{2,4}))?$")


@lru_cache(maxsize=256)
def parse_symbols(text: str) -> tuple[Symbol, ...]:
    """``"±1 +1 GUE"``-style text -> symbols (the syntax is checked when the file is read)."""
    out: list[Symbol] = []
    for part in text.split(","):
        m = _SYMBOL.match(part.strip())
        if m is None:
            raise ValueError(part)
        sign = {"+/-": "±", "+-": "±", "−": "-"}.get(m["sign"], m["sign"])
        out.append(Symbol(sign, int(m["amount"]), m["ministry"] or ""))
    return tuple(out)


# ---------------------------------------------------------------- labels


def label(material: Material, card: str, lang: str = "fr") -> str:
    """How a card is written in mails: ``Guerre C (2)``, ``Or 3``, ``Roi 4 (±1, ±1)``."""
    kind = material.kind(card)
    if kind == GOV:
        m = material.ministry(ministry_of(card))
        return f"{m.en if lang == 'en' else m.fr} {letter_of(card)} ({material.government[card]})"
    if kind == GOLD:
        return f"{'Gold' if lang == 'en' else 'Or'} {material.gold[card]}"
    number = int(card.split("-", 1)[1])
    symbols = ", ".join(s.text for s in parse_symbols(material.kings[card]))
    return f"{'King' if lang == 'en' else 'Roi'} {number} ({symbols})"


def in_file_order(material: Material, cards: list[str] | tuple[str, ...]) -> list[str]:
    """Cards sorted as the file lists them: ministry by ministry and letter by letter, then King, then Gold."""
    order = {c: i for i, c in enumerate(material.all_cards())}
    return sorted(cards, key=order.__getitem__)


def card_data(material: Material, card: str) -> dict[str, Any]:
    """A card as event and view data: id, kind, labels in both languages, and its figures."""
    kind = material.kind(card)
    out: dict[str, Any] = {"id": card, "kind": kind, "fr": label(material, card, "fr"),
                           "en": label(material, card, "en")}
    if kind == GOV:
        out.update(ministry=ministry_of(card), letter=letter_of(card), value=material.government[card])
    elif kind == GOLD:
        out["value"] = material.gold[card]
    else:
        out["symbols"] = [s.text for s in parse_symbols(material.kings[card])]
    return out


def ministry_data(material: Material, code: str) -> dict[str, Any]:
    """A ministry as event and view data: its code, names and colours in both languages."""
    m = material.ministry(code)
    return {"code": m.code, "fr": m.fr, "en": m.en, "colour_fr": m.colour_fr, "colour_en": m.colour_en}


# ---------------------------------------------------------------- reading the file


def default_path() -> Path:
    return DATA / "pourleroi" / "cartes.toml"


def load(path: str | Path | None = None) -> Material:
    """Read and check a card file (the shipped one when ``path`` is empty)."""
    file = Path(path) if path else default_path()
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise CardFileError(f"fichier de cartes {file} illisible : {e.strerror or e}") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise CardFileError(f"{file.name} : TOML invalide ({e})") from None
    return parse(doc, file.name)


def _need(entry: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in entry:
        raise CardFileError(f"{where} : la clé « {key} » manque")
    value = entry[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CardFileError(f"{where} : « {key} » a une valeur de type inattendu ({value!r})")
    return value


def _count(entry: Mapping[str, Any], key: str, where: str, *, default: int | None = None, low: int = 0) -> int:
    if key not in entry and default is not None:
        return default
    value = _need(entry, key, int, where)
    if value < low:
        raise CardFileError(f"{where} : « {key} » doit valoir au moins {low} (trouvé {value})")
    return int(value)


def _only(entry: Mapping[str, Any], keys: set[str], where: str) -> None:
    unknown = sorted(set(entry) - keys)
    if unknown:
        raise CardFileError(f"{where} : clé inconnue « {unknown[0]} » (clés permises : {', '.join(sorted(keys))})")


def _players(entry: Mapping[str, Any], where: str, default: int = MIN_PLAYERS) -> int:
    n = _count(entry, "joueurs", where, default=default, low=MIN_PLAYERS)
    if n > MAX_PLAYERS:
        raise CardFileError(f"{where} : « joueurs » vaut au plus {MAX_PLAYERS} (trouvé {n})")
    return n


def _ministries(doc: Mapping[str, Any], src: str) -> tuple[list[Ministry], dict[str, int], dict[str, int]]:
    entries = doc.get("ministere")
    if not isinstance(entries, list) or not entries:
        raise CardFileError(f"{src} : aucun [[ministere]]")
    ministries: list[Ministry] = []
    government: dict[str, int] = {}
    players: dict[str, int] = {}
    keys = {"code", "nom", "nom_en", "couleur", "couleur_en", "joueurs", "cartes", "joueurs_cartes"}
    for i, e in enumerate(entries, 1):
        where = f"{src} : [[ministere]] n° {i}"
        _only(e, keys, where)
        code = _need(e, "code", str, where)
        if not re.fullmatch(r"[A-Z]{2,4}", code) or code in ("ROI", "OR"):
            raise CardFileError(f"{where} : code « {code} » : 2 à 4 majuscules sans accent, ni ROI ni OR")
        where = f"{src} : ministère {code}"
        if any(m.code == code for m in ministries):
            raise CardFileError(f"{where} : code en double")
        fr, colour = _need(e, "nom", str, where), _need(e, "couleur", str, where)
        en = _need(e, "nom_en", str, where) if "nom_en" in e else fr
        colour_en = _need(e, "couleur_en", str, where) if "couleur_en" in e else colour
        m = Ministry(code, fr, en, colour, colour_en, _players(e, where))
        cards = _need(e, "cartes", dict, where)
        if not cards:
            raise CardFileError(f"{where} : « cartes » est vide")
        for letter, value in cards.items():
            if not re.fullmatch(r"[A-Z]", letter):
                raise CardFileError(f"{where} : lettre « {letter} » : une seule majuscule de A à Z")
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise CardFileError(f"{where}, carte {letter} : la valeur doit être un entier d'au moins 1 "
                                    f"(trouvé {value!r})")
            government[f"{code}-{letter}"] = value
            if m.players > MIN_PLAYERS:
                players[f"{code}-{letter}"] = m.players
        overrides = e.get("joueurs_cartes", {})
        if not isinstance(overrides, dict):
            raise CardFileError(f"{where} : « joueurs_cartes » doit être une table lettre = nombre de joueurs")
        for letter, n in overrides.items():
            if letter not in cards:
                raise CardFileError(f"{where} : « joueurs_cartes » nomme la lettre {letter}, absente de « cartes »")
            n = _players({"joueurs": n}, f"{where}, carte {letter}")
            if n < m.players:
                raise CardFileError(f"{where}, carte {letter} : {n} joueurs, moins que le ministère ({m.players})")
            players[f"{code}-{letter}"] = n
        ministries.append(m)
    return ministries, government, players


def _kings(doc: Mapping[str, Any], src: str, codes: set[str]) -> tuple[dict[str, str], dict[str, int]]:
    kings: dict[str, str] = {}
    players: dict[str, int] = {}
    for i, e in enumerate(doc.get("roi", []), 1):
        where = f"{src} : [[roi]] n° {i}"
        _only(e, {"symboles", "nombre", "joueurs"}, where)
        symbols = _need(e, "symboles", list, where)
        if not symbols or not all(isinstance(s, str) for s in symbols):
            raise CardFileError(f"{where} : « symboles » doit être une liste de textes comme \"±1\" ou \"+1 GUE\"")
        try:
            parsed = parse_symbols(", ".join(symbols))
        except ValueError as bad:
            raise CardFileError(f"{where} : symbole « {bad} » illisible (exemples : \"+1\", \"-1\", \"±1\", "
                                f"\"+1 GUE\")") from None
        for s in parsed:
            if s.ministry and s.ministry not in codes:
                raise CardFileError(f"{where} : le symbole « {s.text} » nomme un ministère inconnu")
        fixed = [s.ministry for s in parsed if s.ministry]
        if len(parsed) > len(codes) or len(fixed) != len(set(fixed)):
            raise CardFileError(f"{where} : chaque symbole d'une carte change une fonction différente")
        n = _count(e, "nombre", where, default=1, low=1)
        printed = _players(e, where)
        for _ in range(n):
            card = f"ROI-{len(kings) + 1:02d}"
            kings[card] = ", ".join(s.text for s in parsed)
            if printed > MIN_PLAYERS:
                players[card] = printed
    if not kings:
        raise CardFileError(f"{src} : aucune carte [[roi]]")
    return kings, players


def _gold(doc: Mapping[str, Any], src: str) -> tuple[dict[str, int], dict[str, int]]:
    gold: dict[str, int] = {}
    players: dict[str, int] = {}
    values: set[int] = set()
    for i, e in enumerate(doc.get("or", []), 1):
        where = f"{src} : [[or]] n° {i}"
        _only(e, {"valeur", "nombre", "joueurs"}, where)
        value = _count(e, "valeur", where, low=1)
        if value in values:
            raise CardFileError(f"{where} : la valeur {value} est déjà décrite plus haut")
        values.add(value)
        n = _count(e, "nombre", where, low=1)
        printed = _players(e, where)
        for _ in range(n):
            card = f"OR-{len(gold) + 1:02d}"
            gold[card] = value
            if printed > MIN_PLAYERS:
                players[card] = printed
    if not gold:
        raise CardFileError(f"{src} : aucune carte [[or]]")
    return gold, players


def parse(doc: Mapping[str, Any], src: str = "cartes.toml") -> Material:
    """Check a decoded card file and build the `Material` (``src`` names the file in messages)."""
    _only(doc, {"ministere", "roi", "or", "preparation"}, src)
    ministries, government, players = _ministries(doc, src)
    kings, king_players = _kings(doc, src, {m.code for m in ministries})
    gold, gold_players = _gold(doc, src)
    table = doc.get("preparation")
    if not isinstance(table, dict):
        raise CardFileError(f"{src} : la table [preparation] manque")
    preparation: dict[str, Preparation] = {}
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        where = f"{src} : [preparation] à {n} joueurs"
        row = table.get(str(n))
        if not isinstance(row, dict):
            raise CardFileError(f"{where} : la ligne « {n} = {{ or_par_valeur = …, hasard = … }} » manque")
        _only(row, {"or_par_valeur", "hasard"}, where)
        preparation[str(n)] = Preparation(_count(row, "or_par_valeur", where), _count(row, "hasard", where))
    extra = sorted(set(table) - set(preparation))
    if extra:
        raise CardFileError(f"{src} : [preparation] : ligne « {extra[0]} » inconnue (de {MIN_PLAYERS} à {MAX_PLAYERS})")
    material = Material(src, tuple(ministries), government, kings, gold,
                        {**players, **king_players, **gold_players}, preparation)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        problem = preparation_problem(material, n)
        if problem:
            raise CardFileError(f"{src} : [preparation] à {n} joueurs : {problem}")
    return material


def in_play(material: Material, players: int) -> list[str]:
    """The cards whose printed player count allows this many players (file order)."""
    return [c for c in material.all_cards() if material.players.get(c, MIN_PLAYERS) <= players]


def ministries_in_play(material: Material, players: int) -> list[Ministry]:
    return [m for m in material.ministries if m.players <= players]


def preparation_problem(material: Material, players: int) -> str | None:
    """Why the set-up table cannot be applied at this player count (None: it can)."""
    prep = material.preparation[str(players)]
    cards = in_play(material, players)
    if not ministries_in_play(material, players):
        return "aucun ministère n'est en jeu"
    by_value: dict[int, int] = {}
    for c in cards:
        if c in material.gold:
            by_value[material.gold[c]] = by_value.get(material.gold[c], 0) + 1
    for value, n in sorted(by_value.items()):
        if n < prep.gold_per_value:
            return (f"il faudrait retirer {prep.gold_per_value} cartes Or de valeur {value}, "
                    f"il n'y en a que {n}")
    left = len(cards) - prep.gold_per_value * len(by_value) - prep.random
    if left < players + 1:
        return (f"il resterait {left} cartes dans la pioche, moins qu'un tour de don ({players + 1} cartes)")
    return None
