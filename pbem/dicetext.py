"""What the MJ's digest says of each roll: what it was for, and what it drew, in words.

A roll's purpose is an English key that seeds the dice (`pbem.dice`); it never changes.
``templates/<game>/dice.<lang>.toml`` says, for the purposes each ``[[label]]`` ``pattern`` matches (a
regular expression over the whole purpose, ``{name}`` for a named group), what the roll was for
(``text``), and how to name what it drew: ``words`` turns a code into words (a role code, a nation;
a top-level ``[words]`` table serves every label of the game), ``item`` lays out a record drawn
(``"escouade {camp} contre {target}"``) or a number (``"n°{value}"``).  A die reads « 7 au d10 » (a range not from 1, « 2 (de 0 à 3) »), a
percentage « 37 au d100, réussi (il fallait au plus 40) », a draw among items the item itself, a shuffle the
order it gave.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.dice import Roll


@dataclass(frozen=True)
class Label:
    """One ``[[label]]`` of a game's dice file."""

    pattern: re.Pattern[str]
    text: str
    words: Mapping[str, str] = field(default_factory=dict)
    item: str = ""


@dataclass(frozen=True)
class Labels:
    labels: tuple[Label, ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)


@lru_cache(maxsize=64)  # (by game and language)
def labels(root: Path, game: str, lang: str, spaced: Callable[[str], str] = str) -> Labels:
    """``templates/<game>/dice.<lang>.toml`` read; ``spaced`` prepares each text (`pbem.render.french_spaces`)."""
    path = root / game / f"dice.{lang}.toml"
    if not path.is_file():
        return Labels()
    from_file = tomllib.loads(path.read_text(encoding="utf-8"))
    return Labels(tuple(Label(re.compile(e["pattern"]), spaced(e["text"]), _words(e.get("words", {})), str(e.get("item", "")))
                        for e in from_file.get("label", [])), _words(from_file.get("words", {})))


def _words(table: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in dict(table).items()}


def _found(purpose: str, game: str, lang: str, root: Path, overrides: Path | None,
           spaced: Callable[[str], str]) -> tuple[str, Label | None, Mapping[str, str]]:
    """The purpose's text, its label (an MJ's override first), and the game's ``[words]`` (the MJ's win)."""
    tables = [labels(root, game, lang, spaced)]
    if overrides is not None and (overrides / game / f"dice.{lang}.toml").is_file():
        try:
            tables.insert(0, labels(overrides, game, lang, spaced))
        except (ValueError, KeyError, TypeError, re.error):  # (a TOML error `pbem doctor` reports) the packaged labels hold
            pass
    words = {k: v for table in reversed(tables) for k, v in table.words.items()}
    for table in tables:
        for label in table.labels:
            match = label.pattern.fullmatch(purpose)
            if match:
                try:
                    return label.text.format(**match.groupdict()), label, words
                except (KeyError, IndexError, ValueError):  # a text naming a group its pattern has not
                    return label.text, label, words
    return purpose, None, words


def dice_label(purpose: str, game: str, lang: str, root: Path, overrides: Path | None = None,
               spaced: Callable[[str], str] = str) -> str:
    """A roll's purpose in the reader's language (a purpose no label matches is shown as it is)."""
    return _found(purpose, game, lang, root, overrides, spaced)[0]


def _named(value: Any, label: Label | None, game_words: Mapping[str, str]) -> str:
    """What a draw gave, in words: a code through ``words``, a record through ``item``."""
    words = {**game_words, **(label.words if label else {})}
    if isinstance(value, Mapping):
        named = {k: words.get(str(v), str(v)) for k, v in value.items()}
        if label is not None and label.item:
            try:
                return label.item.format(**named)
            except (KeyError, IndexError, ValueError):
                pass
        return " ".join(named.values())
    if isinstance(value, list):
        return ", ".join(_named(v, label, game_words) for v in value)
    said = words.get(str(value), str(value))
    if label is not None and "{value}" in label.item:  # a number or a code laid out: « n°{value} »
        return label.item.replace("{value}", said)
    return said


_DIE_NAMED = re.compile(r"\s*:\s*\d*d\d+(?:\+\d*d\d+)*$")
"""A purpose that ends by naming its dice (« Héritage (Armand) : d6 »): the line says the die after the result."""


def _groups(rolls: Sequence[Roll]) -> list[list[Roll]]:
    """The rolls of one draw together: a shuffle's or a sample's several rolls, each other roll alone."""
    out: list[list[Roll]] = []
    for r in rolls:
        if out and r.kind in ("shuffle", "sample") and out[-1][0].kind == r.kind and out[-1][-1].drawn is None \
                and out[-1][0].purpose == r.purpose:
            out[-1].append(r)
        else:
            out.append([r])
    return out


def _roll(data: Roll | Sequence[Any]) -> Roll:
    """A roll, or one as records store it: ``[purpose, low, high, result]`` (and ``kind, drawn``)."""
    if isinstance(data, Roll):
        return data
    return Roll(data[0], data[1], data[2], data[3], False, *(data[4:6] if len(data) >= 6 else ()))


def roll_lines(rolls: Sequence[Roll | Sequence[Any]], game: str, lang: str, root: Path,
               overrides: Path | None = None, spaced: Callable[[str], str] = str) -> list[str]:
    """One line per draw, in words: « requête (Pension n°41) de Madame de la Vilenie au Roi : 4 au d10 »."""
    en = lang == "en"
    colon = ":" if en else "\u00a0:"
    out = []
    for group in _groups([_roll(r) for r in rolls]):
        first, last = group[0], group[-1]
        text, label, words = _found(first.purpose, game, lang, root, overrides, spaced)
        if first.kind == "chance" and isinstance(first.drawn, (int, float)):
            percent = f"{first.drawn:g}"
            won = first.result <= first.drawn
            said = (f"{first.result} on a d100, {'success' if won else 'failure'} (needed {percent} or less)" if en
                    else f"{first.result} au d100, {'réussi' if won else 'raté'} (il fallait au plus {percent})")
        elif first.kind == "choice" and first.drawn is not None:
            among = first.high - first.low + 1
            said = f"{_named(first.drawn, label, words)} " + (
                ("(the only one)" if en else "(le seul possible)") if among == 1 else
                (f"(drawn among {among})" if en else f"(tiré parmi {among})"))
        elif first.kind in ("shuffle", "sample") and last.drawn is not None:
            said = _named(last.drawn, label, words)
        elif first.low == 1:  # a die (or a roll recorded before rolls said what they drew): « 4 au d6 »
            text = _DIE_NAMED.sub("", text)
            said = f"{first.result} " + (f"on a d{first.high}" if en else f"au d{first.high}")
        else:
            said = f"{first.result} " + (f"(from {first.low} to {first.high})" if en else
                                         f"(de {first.low} à {first.high})")
        out.append(f"{text}{colon} {said}")
    return out
