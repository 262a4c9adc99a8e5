"""Seeded, recorded, verifiable dice.

One secret seed per game.  Every draw is derived from SHA-256 of
(seed, context, purpose, n) where ``context`` names the step (``"step-3"``),
``purpose`` says what the roll is for (``"squad 2: 60% kill"``) and ``n`` counts
draws of that purpose in that context.  So a roll does not depend on Python's
``random`` module, on the Python version, or on rolls made for other purposes:
correcting one order and re-running a step changes only the rolls it must.

At game start the MJ may publish `commitment(seed)`; at the end the seed is
revealed and `verify()` re-derives every recorded roll.

The recipe, exactly (anyone can redo it with any SHA-256): for the ``n``-th draw
(counting from 0) of a ``purpose`` in a ``context``, in the range ``low..high``,
hash the bytes ``seed + 0x00 + context + 0x00 + purpose + 0x00 + str(n) + 0x00 +
str(attempt)`` (the seed as its hex text, texts in UTF-8, numbers in decimal,
``attempt`` from 0); read the first 8 bytes of the digest as a big-endian number
``v``; with ``span = high - low + 1``, if ``v < 2**64 - (2**64 % span)`` the result
is ``low + v % span``, otherwise hash again with ``attempt + 1`` (rejection keeps
the draw uniform).  ``commitment(seed)`` is the SHA-256 of the seed's hex text.

A scenario file (`pbem.scenario`) may force the results of given purposes
(`Forcing`): those rolls are recorded with ``forced=True``; every other roll is
drawn as usual.  A real game never forces a roll.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pbem.msg import Msg, PbemError

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """One recorded draw: what it was for, the range, and the result."""

    purpose: str
    low: int
    high: int
    result: int
    forced: bool = False
    """Set by a scenario file (`Forcing`), never in a real game: not derived from the seed."""
    kind: str = ""
    """How the result was used: ``d`` (a die, `randint`), ``chance``, ``choice``, ``shuffle``, ``sample``
    (``""``: a roll recorded before kinds were)."""
    drawn: Any = None
    """What the draw gave, as data, for the MJ's digest (`pbem.render.roll_lines`): the percentage of a
    ``chance``; the item of a ``choice`` (a name, a number, or a record's fields); on the last roll of a
    ``shuffle`` or a ``sample``, the whole order or the items drawn."""


def drawn_data(item: Any) -> Any:
    """An item drawn, as JSON data: itself if a scalar, a record's scalar fields, a list item by item."""
    if item is None or isinstance(item, (str, int, float, bool)):
        return item
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return {f.name: v for f in dataclasses.fields(item)
                if isinstance(v := getattr(item, f.name), (str, int, float, bool))}
    if isinstance(item, Mapping):
        return {str(k): v for k, v in item.items() if isinstance(v, (str, int, float, bool))}
    if isinstance(item, (list, tuple)):
        return [drawn_data(x) for x in item]
    return str(item)


def new_seed() -> str:
    """A fresh secret seed (hex) for a new game."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed, to publish before the game so the seed cannot be changed later."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class ForcedDiceError(PbemError, ValueError):
    """A forced result that cannot be given to this roll: out of range, not one of the items, wrong type."""


class Forcing:
    """Results forced for given purposes, for scenario files: ``{purpose: value or [values...]}``.

    A purpose key matches a roll's purpose exactly, or as a pattern where ``*`` stands for any text
    (an exact key wins over patterns; patterns are tried in the order given).  Each value is used
    once, in order, by the rolls of that purpose; once they are used up the rolls are drawn as usual.
    What a value means depends on the roll: a whole number for ``d`` and ``randint``; ``true``,
    ``false`` or a d100 result for ``chance``; the item itself for ``choice``; the whole resulting
    order (a list) for ``shuffle``; the ``k`` items drawn for ``sample``.  An item is matched by
    equality or, for an item that is a record (a dataclass or a table), by a table of some of its fields.
    """

    def __init__(self, table: Mapping[str, Any]):
        self._raw: dict[str, Any] = dict(table)
        self._patterns = [(key, re.compile(".*".join(re.escape(part) for part in key.split("*"))))
                          for key in self._raw if "*" in key]
        self._queues: dict[str, list[Any]] = {}
        self.used: dict[str, int] = dict.fromkeys(self._raw, 0)
        """How many values of each key were used."""

    def key_for(self, purpose: str) -> str | None:
        """The key that forces this purpose, if any."""
        if purpose in self._raw:
            return purpose
        return next((key for key, rx in self._patterns if rx.fullmatch(purpose)), None)

    def take(self, purpose: str, list_is_one: bool) -> tuple[bool, Any]:
        """(True, value) if a forced value is left for this purpose, else (False, None).

        ``list_is_one``: a list given alone is one result (a shuffle's order), not a list of results.
        """
        key = self.key_for(purpose)
        if key is None:
            return False, None
        queue = self._queues.get(key)
        if queue is None:
            raw = self._raw[key]
            if not isinstance(raw, list):
                queue = [raw]
            elif list_is_one and not all(isinstance(v, list) for v in raw):
                queue = [raw]
            else:
                queue = list(raw)
            self._queues[key] = queue
        if not queue:
            return False, None
        self.used[key] += 1
        return True, queue.pop(0)

    def unused(self) -> list[tuple[str, int]]:
        """Keys with values no roll used: (key, how many left); a key no roll matched at all is there too."""
        out = []
        for key, raw in self._raw.items():
            queue = self._queues.get(key)
            left = (len(raw) if isinstance(raw, list) else 1) if queue is None else len(queue)
            if left:
                out.append((key, left))
        return out


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"\"{value}\""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return "{" + ", ".join(f"{f.name} = {_show(getattr(value, f.name))}" for f in dataclasses.fields(value)) + "}"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _same(found: Any, wanted: Any) -> bool:
    """Does a forced value designate this item (equality, or some fields of a record)?"""
    if isinstance(wanted, Mapping):
        if dataclasses.is_dataclass(found) and not isinstance(found, type):
            found = {f.name: getattr(found, f.name) for f in dataclasses.fields(found)}
        return isinstance(found, Mapping) and all(k in found and _same(found[k], v) for k, v in wanted.items())
    if isinstance(wanted, list) and isinstance(found, (list, tuple)):
        return len(wanted) == len(found) and all(_same(f, w) for f, w in zip(found, wanted, strict=True))
    if isinstance(wanted, bool) or isinstance(found, bool):
        return isinstance(wanted, bool) and isinstance(found, bool) and wanted == found
    return bool(found == wanted)


def _index_of(items: Sequence[Any], wanted: Any, purpose: str) -> int:
    hits = [i for i, item in enumerate(items) if _same(item, wanted)]
    shown = ", ".join(_show(item) for item in items)
    if hits and all(items[i] == items[hits[0]] for i in hits):  # equal items: any of them gives the same draw
        return hits[0]
    if not hits:
        raise ForcedDiceError(Msg(f"dé forcé « {purpose} » : {_show(wanted)} n'est pas parmi les choix ({shown})",
                                  f"forced roll '{purpose}': {_show(wanted)} is not among the items ({shown})"))
    raise ForcedDiceError(Msg(f"dé forcé « {purpose} » : {_show(wanted)} désigne plusieurs choix ({shown})",
                              f"forced roll '{purpose}': {_show(wanted)} matches several items ({shown})"))


def _whole(value: Any, low: int, high: int, purpose: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ForcedDiceError(Msg(f"dé forcé « {purpose} » : {_show(value)} hors limites, attendu un nombre "
                                  f"entier de {low} à {high}",
                                  f"forced roll '{purpose}': {_show(value)} out of range, expected a whole "
                                  f"number from {low} to {high}"))
    return value


class Dice:
    """The random source given to a ruleset for one step.  It records every draw.

    ``forced`` (scenario files only) fixes the results of some purposes: see `Forcing`.
    """

    def __init__(self, seed: str, context: str, forced: Forcing | None = None):
        self._seed = seed.encode("ascii")
        self.context = context
        self._counts: dict[str, int] = {}
        self.rolls: list[Roll] = []
        self.forcing = forced
        self._kind, self._drawn = "", None  # what the draw being made is, for its record (see `Roll`)

    def _uniform(self, purpose: str, low: int, high: int) -> int:
        if high < low:
            raise ValueError(f"empty range {low}..{high} for {purpose!r}")
        n = self._counts.get(purpose, 0)
        self._counts[purpose] = n + 1
        result = derive(self._seed, self.context, purpose, n, low, high)
        self.rolls.append(Roll(purpose, low, high, result, False, self._kind, self._drawn))
        return result

    def _forced(self, purpose: str, low: int, high: int, result: int) -> int:
        """Record a forced draw (it still counts as a draw of its purpose)."""
        self._counts[purpose] = self._counts.get(purpose, 0) + 1
        self.rolls.append(Roll(purpose, low, high, result, True, self._kind, self._drawn))
        return result

    def _as(self, kind: str, drawn: Any = None) -> int:
        """The draws from now on are of this kind (and gave this); returns where they start in ``rolls``."""
        self._kind, self._drawn = kind, drawn
        return len(self.rolls)

    def _gave(self, start: int, drawn: Any) -> None:
        """The draw that began at ``start`` gave ``drawn``: noted on its last roll (none if it needed no roll)."""
        self._kind, self._drawn = "", None
        if len(self.rolls) > start:
            last = self.rolls[-1]
            self.rolls[-1] = Roll(last.purpose, last.low, last.high, last.result, last.forced, last.kind, drawn)

    def _take(self, purpose: str, list_is_one: bool = False) -> tuple[bool, Any]:
        if self.forcing is None:
            return False, None
        return self.forcing.take(purpose, list_is_one)

    def randint(self, low: int, high: int, purpose: str) -> int:
        """A whole number from low to high inclusive."""
        self._as("d")
        found, value = self._take(purpose)
        if found:
            result = self._forced(purpose, low, high, _whole(value, low, high, purpose))
        else:
            result = self._uniform(purpose, low, high)
        self._kind = ""
        return result

    def d(self, sides: int, purpose: str) -> int:
        """One die with ``sides`` faces: 1..sides."""
        return self.randint(1, sides, purpose)

    def chance(self, percent: float, purpose: str) -> bool:
        """True with ``percent`` % probability (a d100 roll: success when roll <= percent)."""
        self._as("chance", percent)
        try:
            return self._chance(percent, purpose)
        finally:
            self._kind, self._drawn = "", None

    def _chance(self, percent: float, purpose: str) -> bool:
        found, value = self._take(purpose)
        if not found:
            return self._uniform(purpose, 1, 100) <= percent
        if isinstance(value, bool):
            if (value and percent < 1) or (not value and percent >= 100):
                said = ("réussite", "success") if value else ("échec", "failure")
                raise ForcedDiceError(Msg(f"dé forcé « {purpose} » : {said[0]} impossible à {percent:g} %",
                                          f"forced roll '{purpose}': {said[1]} impossible at {percent:g}%"))
            value = 1 if value else 100
        return self._forced(purpose, 1, 100, _whole(value, 1, 100, purpose)) <= percent

    def choice(self, items: Sequence[T], purpose: str) -> T:
        """One item drawn at random."""
        if not items:
            raise ValueError(f"choice from an empty sequence for {purpose!r}")
        start = self._as("choice")
        found, value = self._take(purpose, list_is_one=isinstance(items[0], (list, tuple)))
        if found:
            item = items[self._forced(purpose, 0, len(items) - 1, _index_of(items, value, purpose))]
        else:
            item = items[self._uniform(purpose, 0, len(items) - 1)]
        self._gave(start, drawn_data(item))
        return item

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A new list with the items in random order (Fisher-Yates, one recorded draw per swap)."""
        out = list(items)
        start = self._as("shuffle")
        found, value = self._take(purpose, list_is_one=True)
        if found:
            out = self._forced_order(out, value, len(out), purpose)
        else:
            for i in range(len(out) - 1, 0, -1):
                j = self._uniform(purpose, 0, i)
                out[i], out[j] = out[j], out[i]
        self._gave(start, [drawn_data(x) for x in out])
        return out

    def sample(self, items: Sequence[T], k: int, purpose: str) -> list[T]:
        """``k`` distinct items drawn at random, in draw order."""
        pool = list(items)
        if k > len(pool):
            raise ValueError(f"sample of {k} from {len(pool)} for {purpose!r}")
        start = self._as("sample")
        found, value = self._take(purpose, list_is_one=True)
        out: list[T] = []
        if found:
            wanted = self._forced_list(value, k, purpose)
            for w in wanted:
                out.append(pool.pop(self._forced(purpose, 0, len(pool) - 1, _index_of(pool, w, purpose))))
        else:
            for _ in range(k):
                out.append(pool.pop(self._uniform(purpose, 0, len(pool) - 1)))
        self._gave(start, [drawn_data(x) for x in out])
        return out

    def _forced_list(self, value: Any, k: int, purpose: str) -> list[Any]:
        if not isinstance(value, list) or len(value) != k:
            raise ForcedDiceError(Msg(f"dé forcé « {purpose} » : attendu une liste de {k} éléments, reçu {_show(value)}",
                                      f"forced roll '{purpose}': expected a list of {k} items, got {_show(value)}"))
        return value

    def _forced_order(self, out: list[T], value: Any, n: int, purpose: str) -> list[T]:
        """The Fisher-Yates draws that give the forced order, recorded as forced."""
        wanted = self._forced_list(value, n, purpose)
        free = list(range(n))
        order: list[int] = []  # order[i]: index in ``out`` of the item that ends at position i
        for w in wanted:
            order.append(free.pop(_index_of([out[k] for k in free], w, purpose)))
        at = list(range(n))  # at[p]: index in ``out`` of the item now at position p
        for i in range(n - 1, 0, -1):
            j = at.index(order[i])
            self._forced(purpose, 0, i, j)
            at[i], at[j] = at[j], at[i]
        return [out[k] for k in order]


def derive(seed: bytes, context: str, purpose: str, n: int, low: int, high: int) -> int:
    """The n-th draw in low..high for (context, purpose): uniform by rejection sampling on SHA-256 blocks."""
    span = high - low + 1
    limit = (1 << 64) - ((1 << 64) % span)
    attempt = 0
    while True:
        h = hashlib.sha256(b"\0".join([seed, context.encode(), purpose.encode(), b"%d" % n, b"%d" % attempt]))
        value = int.from_bytes(h.digest()[:8], "big")
        if value < limit:
            return low + value % span
        attempt += 1


@dataclass(frozen=True)
class Mismatch:
    """A recorded roll the revealed seed does not give: the ``index``-th of its context, and what the seed
    gives (``expected``; None: the roll was forced, not drawn)."""

    context: str
    index: int
    roll: Roll
    expected: int | None

    @property
    def line(self) -> str:
        """In English, the purpose as its key (for logs and scripts; `pbem.audit` says it to a reader)."""
        return f"{self.context} roll {self.index} ({self.roll.purpose}): " + (
            "forced, not drawn from the seed" if self.expected is None
            else f"recorded {self.roll.result}, seed gives {self.expected}")


def mismatches(seed: str, context: str, rolls: Sequence[Roll]) -> list[Mismatch]:
    """Re-derive recorded rolls from the revealed seed; the ones it does not give (empty: all good)."""
    counts: dict[str, int] = {}
    found: list[Mismatch] = []
    for i, roll in enumerate(rolls):
        n = counts.get(roll.purpose, 0)
        counts[roll.purpose] = n + 1
        if roll.forced:
            found.append(Mismatch(context, i, roll, None))
            continue
        expected = derive(seed.encode("ascii"), context, roll.purpose, n, roll.low, roll.high)
        if expected != roll.result:
            found.append(Mismatch(context, i, roll, expected))
    return found


def verify(seed: str, context: str, rolls: Sequence[Roll]) -> list[str]:
    """Re-derive recorded rolls from the revealed seed; return a line per mismatch (empty: all good), in English
    with the purposes as keys (`pbem.audit` says them to a reader)."""
    return [m.line for m in mismatches(seed, context, rolls)]
