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
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """One recorded draw: what it was for, the range, and the result."""

    purpose: str
    low: int
    high: int
    result: int


def new_seed() -> str:
    """A fresh secret seed (hex) for a new game."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed, to publish before the game so the seed cannot be changed later."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


class Dice:
    """The random source given to a ruleset for one step.  It records every draw."""

    def __init__(self, seed: str, context: str):
        self._seed = seed.encode("ascii")
        self.context = context
        self._counts: dict[str, int] = {}
        self.rolls: list[Roll] = []

    def _uniform(self, purpose: str, low: int, high: int) -> int:
        if high < low:
            raise ValueError(f"empty range {low}..{high} for {purpose!r}")
        n = self._counts.get(purpose, 0)
        self._counts[purpose] = n + 1
        result = derive(self._seed, self.context, purpose, n, low, high)
        self.rolls.append(Roll(purpose, low, high, result))
        return result

    def randint(self, low: int, high: int, purpose: str) -> int:
        """A whole number from low to high inclusive."""
        return self._uniform(purpose, low, high)

    def d(self, sides: int, purpose: str) -> int:
        """One die with ``sides`` faces: 1..sides."""
        return self._uniform(purpose, 1, sides)

    def chance(self, percent: float, purpose: str) -> bool:
        """True with ``percent`` % probability (a d100 roll: success when roll <= percent)."""
        return self._uniform(purpose, 1, 100) <= percent

    def choice(self, items: Sequence[T], purpose: str) -> T:
        """One item drawn at random."""
        if not items:
            raise ValueError(f"choice from an empty sequence for {purpose!r}")
        return items[self._uniform(purpose, 0, len(items) - 1)]

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A new list with the items in random order (Fisher-Yates, one recorded draw per swap)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self._uniform(purpose, 0, i)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int, purpose: str) -> list[T]:
        """``k`` distinct items drawn at random, in draw order."""
        pool = list(items)
        if k > len(pool):
            raise ValueError(f"sample of {k} from {len(pool)} for {purpose!r}")
        out: list[T] = []
        for _ in range(k):
            out.append(pool.pop(self._uniform(purpose, 0, len(pool) - 1)))
        return out


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


def verify(seed: str, context: str, rolls: Sequence[Roll]) -> list[str]:
    """Re-derive recorded rolls from the revealed seed; return a line per mismatch (empty: all good)."""
    counts: dict[str, int] = {}
    problems: list[str] = []
    for i, roll in enumerate(rolls):
        n = counts.get(roll.purpose, 0)
        counts[roll.purpose] = n + 1
        expected = derive(seed.encode("ascii"), context, roll.purpose, n, roll.low, roll.high)
        if expected != roll.result:
            problems.append(f"{context} roll {i} ({roll.purpose}): recorded {roll.result}, seed gives {expected}")
    return problems
