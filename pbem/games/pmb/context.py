"""The working context of one resolution: the new state, the dice, the events, and who learned what."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from pbem.core import Audience, Event, Order
from pbem.dice import Dice
from pbem.games.pmb import roles as R
from pbem.games.pmb.lessons import Lessons
from pbem.games.pmb.ordered import OrderIndex, RosterList
from pbem.games.pmb.state import (
    Player,
    State,
)

_PUBLIC, _MJ = Audience.public(), Audience.mj()
"""One of each for all the turn's events (frozen: equal to a new one; thousands fewer objects a turn)."""


@dataclass
class Death:
    name: str
    cause: str
    by: str
    """The team responsible ("lannister", "stark", "tyrell", or "" for none)."""


@dataclass
class Ctx:
    st: State
    """A `State.fork` of the state given to the resolution: its players are that state's own records
    until `writable` copies them, so every change to a player goes through `writable` (or a method that uses it)."""
    dice: Dice
    start: Mapping[str, Player] | None = None
    """The players of the state ``st`` was forked from (None: a copy of ``st``'s, taken now)."""
    events: list[Event] = field(default_factory=list)
    deaths: list[Death] = field(default_factory=list)
    survivors: list[str] = field(default_factory=list)
    patients: list[str] = field(default_factory=list)
    fled: set[str] = field(default_factory=set)
    protected: str | None = None
    poisoned: str | None = None
    occupancy: dict[str, int] = field(default_factory=dict)
    """Port-Réal head counts, filled on first use by `defeats.free_place` (Gardes leaving the Donjon)."""
    bodyguards: dict[str, str] = field(default_factory=dict)
    squads_on: dict[str, list[list[str]]] = field(default_factory=dict)
    """Final target -> member lists of the squads that attacked it this turn (for TEMOINS)."""
    confused: set[str] = field(default_factory=set)
    """Patients under the confusion potion this turn: unknowingly fidèles Lannister, they remember none of it."""
    p: Callable[[str], Player] = field(init=False, repr=False)
    """The player of that name (``st.players[name]``), to read: to change him, `writable`."""
    roster: list[Player] = field(init=False, repr=False)
    """The players by roster position (``st.players[st.order[i]]``, kept so by `writable`): a walk over
    the roster reads the records without a lookup by name."""
    _pos: dict[str, int] = field(init=False, repr=False)
    _start: Mapping[str, Player] = field(init=False, repr=False)
    copied: bytearray = field(init=False, repr=False)
    """By roster position: 1 for a player already copied into ``st`` by `writable` (a flag read by
    position, not a set of names: no hash lookup)."""
    _copies: list[int] = field(default_factory=list, init=False, repr=False)
    """The roster positions copied by `writable` so far, in the order they were: whoever changed this turn."""
    # Indexes of roster positions, built together by one walk over the roster on first use, once
    # per resolution, so that no per-player or per-squad loop scans the whole roster.  Each of the
    # first three holds a superset of the players it answers for (every change that could add one
    # goes through `set_rank`, `set_sergent`, `set_location`); each query filters it with the same
    # test as a roster scan would, and answers in roster order.  The last two hold the players who
    # passed their test when they were built: still exact for a player not copied since (his record
    # is the one they read), and the players copied since (``_copies``) are tested again.
    _by_rank: dict[str, RosterList] | None = field(default=None, init=False, repr=False)
    _by_sergent: dict[str, RosterList] | None = field(default=None, init=False, repr=False)
    _donjon: RosterList | None = field(default=None, init=False, repr=False)
    _levels: dict[str, list[int]] | None = field(default=None, init=False, repr=False)
    """Level of Port-Réal -> the living, visible players there."""
    _loose: list[int] | None = field(default=None, init=False, repr=False)
    """The living Hommes de Main without a sergent."""
    _ordered: OrderIndex | None = field(default=None, init=False, repr=False)
    lessons: Lessons = field(init=False, repr=False)
    """Who learned what this turn (`pbem.games.pmb.lessons`): ``ctx.lessons.reveal(…)`` and the rest."""

    def __post_init__(self) -> None:
        players, order = self.st.players, self.st.order
        self.p = players.__getitem__
        self.roster = list(map(players.__getitem__, order))
        self._pos = dict(zip(order, range(len(order)), strict=True))
        self.copied = bytearray(len(order))
        self.lessons = Lessons(self.p, self.roster, self._pos, self.copied, self.copy_at)
        self._start = self.start if self.start is not None else dict(players)

    @property
    def turn(self) -> int:
        return self.st.turn

    def writable(self, name: str) -> Player:
        """The player of that name, to change: copied on his first change of the turn, so that the
        state given to the resolution keeps its record (copy on write).  A record read with `p`
        before is then stale: read him again after a change."""
        i = self._pos[name]
        return self.roster[i] if self.copied[i] else self.copy_at(i, name)

    def copy_at(self, i: int, name: str) -> Player:
        p = self.roster[i].clone()
        self.st.players[name] = p
        self.roster[i] = p
        self.copied[i] = 1
        self._copies.append(i)
        return p

    def at_start(self, i: int) -> Player:
        """The record of the player at roster position ``i`` in the state given to the resolution."""
        return self.roster[i] if not self.copied[i] else self._start[self.st.order[i]]

    # --- indexes ---

    def pos(self) -> dict[str, int]:
        """Player name -> roster position."""
        return self._pos

    def _names(self, at: Sequence[int]) -> list[str]:
        order = self.st.order
        return [order[i] for i in at]

    def holding(self, *ranks: str) -> list[int]:
        """The roster positions of everyone who held one of ``ranks`` at some point of this
        resolution (filter on the current record, ``roster[i]``), ascending.  (Read it before the
        next `set_rank`: it may grow.)"""
        if self._by_rank is None:
            self._by_rank = self._index_roster()
        if len(ranks) == 1:
            found = self._by_rank.get(ranks[0])
            return found.in_order() if found is not None else []
        return sorted(set().union(*(self._by_rank[r].in_order() for r in ranks if r in self._by_rank)))

    def _index_roster(self) -> dict[str, RosterList]:
        """Build the roster indexes (see the fields); returns the one by rank."""
        by_rank: dict[str, list[int]] = {}
        by_sergent: dict[str, list[int]] = {}
        donjon: list[int] = []
        levels: dict[str, list[int]] = {level: [] for level in R.LEVELS}
        loose: list[int] = []
        hm, donjon_word = R.HM, R.DONJON
        for i, p in zip(self._pos.values(), self.roster, strict=True):  # `_pos`'s own ints: no new ones
            rank = p.rank
            at = by_rank.get(rank)
            if at is None:
                by_rank[rank] = [i]
            else:
                at.append(i)
            sergent = p.sergent
            if sergent is not None:
                at = by_sergent.get(sergent)
                if at is None:
                    by_sergent[sergent] = [i]
                else:
                    at.append(i)
            elif rank == hm:
                if p.alive:
                    loose.append(i)
            location = p.location
            if location == donjon_word:
                donjon.append(i)
            elif p.alive and not p.hidden:
                at = levels.get(location)
                if at is not None:
                    at.append(i)
        self._by_sergent = {s: RosterList(at) for s, at in by_sergent.items()}
        self._donjon = RosterList(donjon)
        self._levels, self._loose = levels, loose
        self._by_rank = {rank: RosterList(at) for rank, at in by_rank.items()}
        return self._by_rank

    def _with_changes(self, built: list[int], test: Callable[[Player], bool]) -> list[int]:
        """The positions of ``built`` (players who passed ``test`` when it was built) not copied since,
        and those of the players copied since who pass it now: who passes it now, ascending."""
        copied, roster = self.copied, self.roster
        kept = [i for i in built if not copied[i]]
        changed = [i for i in self._copies if test(roster[i])]
        if not changed:
            return kept
        # disjoint: one sort in C (the kept run is merged in linear time), not a `heapq.merge` stepped in Python
        kept += changed
        kept.sort()
        return kept

    def level_residents(self) -> dict[str, list[str]]:
        """Level of Port-Réal -> the living, visible players there now (`city.residents`), roster order."""
        if self._levels is None:
            self._index_roster()
        assert self._levels is not None
        return {level: self._names(self._with_changes(at, _resident_of(level))) for level, at in self._levels.items()}

    def loose_hms(self) -> list[str]:
        """The living Hommes de Main without a sergent now, roster order."""
        if self._loose is None:
            self._index_roster()
        assert self._loose is not None
        return self._names(self._with_changes(self._loose, lambda p: p.alive and p.rank == R.HM and p.sergent is None))

    def holders(self, *ranks: str) -> list[str]:
        """`holding`, as names."""
        return self._names(self.holding(*ranks))

    def set_rank(self, name: str, rank: str) -> None:
        self.writable(name).rank = rank
        if self._by_rank is not None:
            self._by_rank.setdefault(rank, RosterList()).add(self._pos[name])

    def set_sergent(self, name: str, sergent: str | None) -> None:
        self.writable(name).sergent = sergent
        if self._by_sergent is not None and sergent is not None:
            self._by_sergent.setdefault(sergent, RosterList()).add(self._pos[name])

    def set_location(self, name: str, location: str) -> None:
        self.writable(name).location = location
        if self._donjon is not None and location == R.DONJON:
            self._donjon.add(self._pos[name])

    def chef(self, team: str) -> Player | None:
        """`State.chef`: the living chef of ``team``."""
        roster = self.roster
        for i in self.holding(R.CHEF):
            p = roster[i]
            if p.team == team and p.rank == R.CHEF and p.alive:
                return p
        return None

    def lord_commandant(self) -> Player | None:
        """`State.lord_commandant`: the living Lord Commandant."""
        roster = self.roster
        for i in self.holding(R.LORD_COMMANDANT):
            p = roster[i]
            if p.rank == R.LORD_COMMANDANT and p.alive:
                return p
        return None

    def rank_holder(self, rank: str) -> str | None:
        """The first living, free, visible holder of ``rank`` (roster order)."""
        roster = self.roster
        for i in self.holding(rank):
            p = roster[i]
            if p.alive and p.rank == rank and not p.hidden and p.location != R.CACHOTS:
                return self.st.order[i]
        return None

    def donjon_residents(self) -> list[str]:
        """Living players in the Donjon Rouge, roster order."""
        if self._donjon is None:
            self._index_roster()
        assert self._donjon is not None
        roster, order = self.roster, self.st.order
        return [order[i] for i in self._donjon.in_order() if (p := roster[i]).alive and p.location == R.DONJON]

    def ordered(self, orders: Mapping[str, Sequence[Order]]) -> OrderIndex:
        """Who gave which orders (`OrderIndex`), built from the first call's ``orders``: they must be this
        resolution's."""
        if self._ordered is None:
            self._ordered = OrderIndex(orders, self._pos, self.st.order)
        return self._ordered

    def team_members(self, team: str) -> list[Player]:
        """`State.team_members`: the living members of ``team``, roster order."""
        return [p for p in self.roster if p.team == team and p.alive]

    def hms_of(self, sergent: str, team: str) -> list[str]:
        """Living Hommes de Main of ``team`` whose sergent is ``sergent``, roster order."""
        if self._by_sergent is None:
            self._index_roster()
        assert self._by_sergent is not None
        found = self._by_sergent.get(sergent)
        if found is None:
            return []
        roster, order = self.roster, self.st.order
        return [order[i] for i in found.in_order()
                if (q := roster[i]).alive and q.team == team and q.rank == R.HM and q.sergent == sergent]

    # --- events and knowledge ---

    def tell(self, kind: str, players: list[str] | tuple[str, ...], **data: Any) -> None:
        if players:
            self.events.append(Event(kind, Audience.to(*players), data))

    def public(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, _PUBLIC, data))

    def mj(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, _MJ, data))

    def aware(self, members: Sequence[str]) -> list[str]:
        """The ``members`` who will remember this turn's squad (not the confused)."""
        confused = self.confused
        return [m for m in members if m not in confused] if confused else list(members)

    def member_code(self, name: str) -> str:
        """The role ``name`` shows as a squad member: a confused patient acts as a fidèle Lannister."""
        return R.FIDELE if name in self.confused else self.p(name).code

    def member_codes(self, names: Sequence[str]) -> list[tuple[str, str]]:
        """(name, `member_code`) of each of ``names``."""
        confused, players = self.confused, self.st.players
        if not confused:
            return [(n, players[n].code) for n in names]
        return [(n, R.FIDELE if n in confused else players[n].code) for n in names]

    def member_team(self, name: str) -> str:
        return R.LANNISTER if name in self.confused else self.p(name).team

    def kill(self, name: str, cause: str, by: str) -> None:
        if not self.p(name).alive:
            return
        p = self.writable(name)
        p.alive = False
        p.died = self.turn
        self.deaths.append(Death(name, cause, by))
        self.public("death", player=name)
        self.mj("death_cause", player=name, role=p.code, cause=cause, by=by)

    def influence(self, name: str) -> int:
        p = self.p(name)
        return R.INFLUENCE.get(p.location, 0) + p.bonus

    def target_influence(self, name: str) -> int:
        p = self.p(name)
        if self.st.in_donjon(p):
            return R.GARDE_INFLUENCE if p.rank in R.GARDES else R.CONSEIL_INFLUENCE
        return self.influence(name)


def _resident_of(level: str) -> Callable[[Player], bool]:
    """The test of `Ctx.level_residents` for one level: living, visible, there."""
    return lambda p: p.alive and not p.hidden and p.location == level


class RosterSubset(Sequence[str]):
    """A growing subset of the roster, in roster order, with O(log n) insertion and indexing
    (a Fenwick tree over roster positions): a draw from it (`Dice.choice`) sees the same list
    as the roster scan it replaces."""

    def __init__(self, order: Sequence[str], pos: dict[str, int], members: Sequence[str] = ()) -> None:
        self._order = order
        self._pos = pos
        n = len(order)
        self._tree = [0] * (n + 1)
        self._in = [False] * n
        self._len = 0
        for name in members:
            i = pos[name]
            if not self._in[i]:
                self._in[i] = True
                self._tree[i + 1] += 1
                self._len += 1
        for i in range(1, n + 1):  # linear-time build
            j = i + (i & -i)
            if j <= n:
                self._tree[j] += self._tree[i]
        self._top = 1 << n.bit_length() if n else 0

    def add(self, name: str) -> None:
        i = self._pos[name]
        if self._in[i]:
            return
        self._in[i] = True
        self._len += 1
        i += 1
        n = len(self._tree) - 1
        while i <= n:
            self._tree[i] += 1
            i += i & -i

    def __len__(self) -> int:
        return self._len

    def __contains__(self, name: object) -> bool:
        i = self._pos.get(name) if isinstance(name, str) else None
        return i is not None and self._in[i]

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: int | slice) -> str | list[str]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._len))]
        if k < 0:
            k += self._len
        if not 0 <= k < self._len:
            raise IndexError(k)
        # the (k+1)-th member: descend the tree
        idx, rem, step, n = 0, k + 1, self._top, len(self._tree) - 1
        while step:
            nxt = idx + step
            if nxt <= n and self._tree[nxt] < rem:
                idx = nxt
                rem -= self._tree[nxt]
            step >>= 1
        return self._order[idx]

    def __iter__(self) -> Iterator[str]:
        return (n for i, n in enumerate(self._order) if self._in[i])
