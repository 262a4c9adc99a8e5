"""Helpers for the Pour Ma Belle tests: a scripted dice double, a fixed-role roster, one-turn play."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pbem.core import Event, Order, Seat
from pbem.games.pmb import RULESET
from pbem.games.pmb.state import State

T = TypeVar("T")


class FakeDice:
    """Same methods as `pbem.dice.Dice`; outcomes are forced per purpose substring, else a fixed default.

    Defaults: ``chance`` False, ``choice`` the first item, ``shuffle`` keeps the order,
    ``sample`` the first k, ``randint``/``d`` the lowest value.  ``force(substring, *values)``
    queues outcomes for the next rolls whose purpose contains the substring (a value for
    ``choice`` is the item itself).  Every purpose is recorded in ``purposes``.
    """

    def __init__(self, **defaults: Any) -> None:
        self.queued: list[tuple[str, list[Any]]] = []
        self.purposes: list[str] = []
        self.default_chance: bool = bool(defaults.get("chance", False))

    def force(self, substring: str, *values: Any) -> FakeDice:
        self.queued.append((substring, list(values)))
        return self

    def _take(self, purpose: str) -> tuple[bool, Any]:
        self.purposes.append(purpose)
        for sub, values in self.queued:
            if sub in purpose and values:
                return True, values.pop(0)
        return False, None

    def rolled(self, substring: str) -> int:
        return sum(1 for p in self.purposes if substring in p)

    def randint(self, low: int, high: int, purpose: str) -> int:
        ok, v = self._take(purpose)
        return int(v) if ok else low

    def d(self, sides: int, purpose: str) -> int:
        ok, v = self._take(purpose)
        return int(v) if ok else 1

    def chance(self, percent: float, purpose: str) -> bool:
        ok, v = self._take(purpose)
        return bool(v) if ok else self.default_chance

    def choice(self, items: Sequence[T], purpose: str) -> T:
        if not items:
            raise ValueError(purpose)
        ok, v = self._take(purpose)
        if ok:
            assert v in items, (v, items, purpose)
            return v  # type: ignore[no-any-return,unused-ignore]
        return items[0]

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        ok, v = self._take(purpose)
        return list(v) if ok else list(items)

    def sample(self, items: Sequence[T], k: int, purpose: str) -> list[T]:
        ok, v = self._take(purpose)
        return list(v) if ok else list(items)[:k]


# name, role, location, sergent
ROSTER: list[tuple[str, str, str | None, str | None]] = [
    ("Tywin", "lord_commandant", None, None),
    ("Jaime", "garde", None, None),
    ("Arys", "garde", None, None),
    ("Boros", "garde", None, None),
    ("Varys", "chuchoteurs", None, None),
    ("Petyr", "argentier", None, None),
    ("Pycelle", "mestre", None, None),
    ("Lancel", "fidele", "culpucier", None),
    ("Kevan", "fidele", "fossedragon", None),
    ("Robb", "stark_chef", "visenya", None),
    ("Jon", "stark_sergent", "fossedragon", None),
    ("Bran", "stark_sergent", "culpucier", None),
    ("Arya", "stark_hm", "culpucier", "Jon"),
    ("Sansa", "stark_hm", "fossedragon", "Jon"),
    ("Rickon", "stark_hm", "culpucier", "Bran"),
    ("ser Schlingue", "stark_hm", "culpucier", "Bran"),
    ("Margaery", "tyrell_chef", "visenya", None),
    ("Loras", "tyrell_sergent", "fossedragon", None),
    ("Garlan", "tyrell_hm", "culpucier", "Loras"),
    ("Olenna", "tyrell_hm", "visenya", "Loras"),
    ("Willas", "tyrell_hm", "culpucier", "Loras"),
]
PLACES = {"visenya": 3, "fossedragon": 4}


def roster(rows: Iterable[tuple[str, str, str | None, str | None]] = ROSTER) -> list[Seat]:
    seats = []
    for name, role, loc, sgt in rows:
        data: dict[str, Any] = {}
        if loc:
            data["location"] = loc
        if sgt:
            data["sergent"] = sgt
        seats.append(Seat(name, role, data))
    return seats


def new_game(rows: Iterable[tuple[str, str, str | None, str | None]] = ROSTER, **options: Any) -> State:
    opts: dict[str, Any] = {"places": PLACES}
    opts.update(options)
    st, _ = RULESET.setup(roster(rows), opts, FakeDice())  # type: ignore[arg-type]
    return st


def play(st: State, lines: Mapping[str, Sequence[str]], dice: FakeDice | None = None) -> tuple[State, list[Event]]:
    """One turn: parse each player's lines (as the engine would), fill defaults, resolve."""
    dice = dice or FakeDice()
    orders: dict[str, list[Order]] = {}
    for prompt in RULESET.prompts(st):
        accepted: list[Order] = []
        for line in lines.get(prompt.player, ()):
            accepted.append(RULESET.parse_order(st, prompt.player, line, accepted))
        orders[prompt.player] = accepted or RULESET.default_orders(st, prompt.player)
    for name in lines:
        assert name in orders, f"{name} was not prompted"
    new, events = RULESET.resolve(st, orders, dice)  # type: ignore[arg-type]
    return new, events


def to(events: Sequence[Event], player: str, kind: str | None = None) -> list[dict[str, Any]]:
    """Data of the events addressed to ``player`` (not public ones), optionally of one kind."""
    return [dict(e.data) for e in events
            if e.audience.kind == "players" and player in e.audience.players and (kind is None or e.kind == kind)]


def public(events: Sequence[Event], kind: str | None = None) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.audience.kind == "public" and (kind is None or e.kind == kind)]


def kinds_to(events: Sequence[Event], player: str) -> list[str]:
    return [e.kind for e in events if e.audience.kind == "players" and player in e.audience.players]


def facts_in(data: Any) -> list[dict[str, str]]:
    """Every fact dict ({"player", "role"} or {"player", "team"}) anywhere in event data."""
    out: list[dict[str, str]] = []
    if isinstance(data, Mapping):
        if "player" in data and ("role" in data or "team" in data):
            out.append(dict(data))
        for v in data.values():
            out += facts_in(v)
    elif isinstance(data, (list, tuple)):
        for v in data:
            out += facts_in(v)
    return out


def fact_key(f: Mapping[str, str]) -> str:
    return f"{f['player']}|role|{f['role']}" if "role" in f else f"{f['player']}|team|{f['team']}"
