"""Indexes of roster positions for one resolution: `RosterList`, and who gave which orders (`OrderIndex`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Order


class RosterList:
    """Roster positions, for an index that mostly grows in roster order: appending in order costs
    nothing, a position added out of order makes the next read sort the list once."""

    __slots__ = ("_at", "_members", "_sorted")

    def __init__(self, at: list[int] | None = None, *, ordered: bool = True) -> None:
        """``at``: positions without repeats; ascending unless ``ordered`` is False (then sorted,
        and repeats dropped, on the first read)."""
        self._at: list[int] = at if at is not None else []
        self._members: set[int] | None = None  # built when the index first grows
        self._sorted = ordered

    def add(self, i: int) -> None:
        if self._members is None:
            self._members = set(self._at)
        if i in self._members:
            return
        if self._sorted and self._at and i < self._at[-1]:
            self._sorted = False
        self._at.append(i)
        self._members.add(i)

    def in_order(self) -> list[int]:
        if not self._sorted:
            self._at = sorted(set(self._at))
            self._sorted = True
        return self._at


class OrderIndex:
    """The players who gave each verb of order, by roster position, and each one's first order of it: built
    by one walk over the orders, so that no per-verb loop scans them all."""

    __slots__ = ("_by_verb", "_first_of", "_order")

    def __init__(self, orders: Mapping[str, Sequence[Order]], pos: Mapping[str, int], order: Sequence[str]) -> None:
        by_verb: dict[str, list[int]] = {}
        first_of: dict[str, dict[int, Order]] = {}
        unordered: set[str] = set()
        for n, mine in orders.items():  # the engine gives them in roster order: then nothing is sorted
            if not mine:
                continue
            i = pos.get(n)
            if i is None:
                continue
            for o in mine:
                at = by_verb.get(o.verb)
                if at is None:
                    by_verb[o.verb] = [i]
                    first_of[o.verb] = {i: o}
                elif at[-1] != i:  # one player's orders come together: a repeat is the last one
                    if i < at[-1]:
                        unordered.add(o.verb)
                    at.append(i)
                    first_of[o.verb][i] = o
        self._by_verb = {verb: RosterList(at, ordered=verb not in unordered) for verb, at in by_verb.items()}
        self._first_of = first_of
        self._order = order

    def at(self, *verbs: str) -> list[int]:
        """The roster positions of the players with at least one order of one of ``verbs``, ascending."""
        by_verb = self._by_verb
        if len(verbs) == 1:
            found = by_verb.get(verbs[0])
            return found.in_order() if found is not None else []
        return sorted(set().union(*(by_verb[v].in_order() for v in verbs if v in by_verb)))

    def names(self, *verbs: str) -> list[str]:
        """`at`, as names (roster order)."""
        order = self._order
        return [order[i] for i in self.at(*verbs)]

    def first(self, i: int, verb: str) -> Order | None:
        """The first order of ``verb`` of the player at roster position ``i`` (None if he gave none)."""
        found = self._first_of.get(verb)
        return found.get(i) if found is not None else None
