"""An example line for each order a player may give, written from the order's syntax and kept only if the game's
parser accepts it as written (FRENCH.md: every example is a line pbem accepts).

« ESCOUADE <cible> » becomes « ESCOUADE Bran Rivers »: each ``<…>`` is filled with another player's name or a
number, ``[…]`` is left out, and of alternatives (``a|b``, « … / … ») the first is taken.  A syntax whose slots
no name or number fills (« JOUER <carte> SUR <personnage> ») gets no example rather than a wrong one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from pbem.core import OrderError, OrderHelp, Ruleset

MAX_TRIES = 24
"""Lines tried per order: the fillings of its slots, names first."""
_NAMES_TRIED = 4
_NUMBERS = ("1", "2", "3", "5", "10")
_NUMBER_SLOTS = frozenset({"n", "nombre", "number", "montant", "amount", "score", "points", "pv", "somme"})
_OPTIONAL = re.compile(r"\[[^\[\]]*\]")
_SLOT = re.compile(r"<([^<>]*)>")
_CHOICE = re.compile(r"<([^<>]*\|[^<>]*)>")
_RANGE = re.compile(r"^(\d+)-(\d+)$")


def example(ruleset: Ruleset[Any], state: Any, player: str, syntax: str) -> str | None:
    """A line for ``syntax`` that the game accepts from ``player`` now, or None."""
    form = _first_form(syntax)
    slots = _SLOT.findall(form)
    others = [n for n in ruleset.players(state) if n != player][:_NAMES_TRIED]
    fillers = [_fillers(slot, others, player) for slot in slots]
    pieces = _SLOT.split(form)[::2]  # the words around the slots (``split`` puts the slots' contents between them)
    for filling in itertools.islice(itertools.product(*fillers), MAX_TRIES):
        line = " ".join("".join(p + v for p, v in zip(pieces, (*filling, ""), strict=True)).split())
        try:
            ruleset.parse_order(state, player, line, [])
        except OrderError:
            continue
        return line
    return None


def order_examples(ruleset: Ruleset[Any], state: Any, player: str,
                   helps: Sequence[OrderHelp]) -> list[tuple[OrderHelp, str | None]]:
    """Each order of ``helps`` with its example (None when no line could be written for it)."""
    return [(h, example(ruleset, state, player, h.syntax)) for h in helps]


def _first_form(syntax: str) -> str:
    """The syntax's first form, without its optional parts and its « … »: « BLESSURE <p> <n> / SOIN <p> <n> »
    -> « BLESSURE <p> <n> », « PARTI anglais|hollandais » -> « PARTI anglais »."""
    # a choice of words inside the brackets is literal: « PLACER <balance | bourse> CHEZ <Niccolò | Lucrezia> »
    form = _CHOICE.sub(lambda m: m.group(1).split("|")[0].strip(), syntax)
    form = re.split(r"\s+/\s+|\s+\|\s+", form)[0]
    while _OPTIONAL.search(form):
        form = _OPTIONAL.sub("", form)
    form = form.replace("…", " ").replace("...", " ")
    return " ".join(word.split("|")[0] if "<" not in word else word for word in form.split())


def _fillers(slot: str, others: list[str], player: str) -> list[str]:
    """What may fill a slot: a number in its range, else names (the others', then the player's), then numbers."""
    word = slot.strip().lower()
    found = _RANGE.match(word)
    if found:
        low, high = int(found.group(1)), int(found.group(2))
        return [str((low + high) // 2), str(low)]
    if word in _NUMBER_SLOTS or word.startswith(("+", "-", "=")):
        return list(_NUMBERS)
    return [*others, player, *_NUMBERS]
