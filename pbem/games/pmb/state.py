"""The state of a Pour Ma Belle game: plain dataclasses (see `pbem.serial`).

Every fact a player has been told is kept in ``Player.knowledge`` as a string
``"<name>|role|<code>"`` or ``"<name>|team|<team>"`` (everything ever told), and
``Player.latest`` keeps, for each name, the last thing told (a role code, or a team when
only the affiliation was told since): what the player believes now, which is what he can
pass on (a denunciation, a confession, a potion of révélation) and what his status shows.

Both records are shared between clones of a state, so they are never changed in place but
replaced (copy on write): `Player.learn_role` and the others make new ones, once per call, which
for a player told thousands of facts in a turn would copy his records thousands of times.  The
resolution (`pbem.games.pmb.context.Ctx.reveal`) instead copies a learner's ``latest`` once per
turn, changes that copy in place (`tell_role`, `tell_team`) and adds the turn's new facts to his
``knowledge`` in one union at the end of the turn (`Player.add_knowledge`).

**Group lessons.**  The members of an alliance squad all learn each other's affiliation: thousands
of members, each told the same thousands of facts, would be millions of entries (k² for a squad of
k).  Such a lesson is made once and shared by every member: his ``latest`` becomes a `Beliefs`
whose lower layer is the group's (name -> team) mapping, and his ``knowledge`` a `Knowledge` that
holds the group's facts as one shared set.  They read, compare and store exactly as the flat dict
and set they stand for (the stored JSON is the same); only their cost differs.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, Mapping, MutableMapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, fields
from typing import Any

from pbem.games.pmb import roles as R

_CODE_TEAM: dict[str, str] = {code: R.split_code(code)[0] for code in R.ROLE_CODES}
_WORDS: dict[str, str] = {w: w for w in R.TEAMS + R.LANNISTER_CODES + R.REBEL_RANKS + R.LEVELS + (R.DONJON, R.CACHOTS)
                          + R.POTIONS}
"""The vocabulary's own string objects, by value (see `State.__post_load__`)."""


def role_fact(name: str, code: str) -> str:
    return f"{name}|role|{code}"


def team_fact(name: str, team: str) -> str:
    return f"{name}|team|{team}"


def role_facts(name: str, code: str) -> tuple[str, str]:
    """The two facts that telling ``name``'s role makes: the role, and the affiliation it implies."""
    return f"{name}|role|{code}", f"{name}|team|{_CODE_TEAM.get(code, code)}"  # role_fact, team_fact


def tell_role(latest: MutableMapping[str, str], told: set[str], name: str, code: str,
              facts: tuple[str, str] | None = None) -> None:
    """Record, in place, that ``name``'s role ``code`` was told: in ``latest`` (what is believed now)
    and as its two facts in ``told`` (``facts``: `role_facts`, made once for several listeners)."""
    latest[name] = code
    told.update(facts if facts is not None else role_facts(name, code))


def tell_team(latest: MutableMapping[str, str], told: set[str], name: str, team: str, fact: str | None = None) -> None:
    """Record, in place, that ``name``'s affiliation ``team`` was told: a new fact in ``told``
    (``fact``: `team_fact`, made once for several listeners), and in ``latest`` unless it agrees with
    the role believed (an affiliation that contradicts it replaces it)."""
    told.add(fact if fact is not None else team_fact(name, team))
    if _CODE_TEAM.get(latest.get(name, ""), "") != team:
        latest[name] = team


class Beliefs(MutableMapping[str, str]):
    """A player's ``latest`` once he was given a group lesson: his own lessons since (``own``, a dict
    changed in place by the turn that made it, as `Ctx.learner`'s copy is) over the group's affiliations
    (``group``: name -> team, shared by every listener, never changed) told over what he believed before
    (``below``, never changed either).

    Reads as the dict that telling him the group's facts one by one (`tell_team`) would have made: a
    name of the group shows its team, unless what he believed before was a role of that very team
    (an agreeing affiliation does not replace a role)."""

    __slots__ = ("below", "group", "own")

    def __init__(self, own: dict[str, str], group: Mapping[str, str], below: Mapping[str, str]) -> None:
        self.own = own
        self.group = group
        self.below = below

    def fork(self) -> Beliefs:
        """A copy whose own lessons may be changed in place (the layers below are shared)."""
        return Beliefs(dict(self.own), self.group, self.below)

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        value = self.own.get(name)
        if value is not None:
            return value
        before = self.below.get(name)
        team = self.group.get(name)
        if team is None or (before is not None and _CODE_TEAM.get(before) == team):
            return before if before is not None else default
        return team

    def __getitem__(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        return name in self.own or name in self.group or name in self.below

    def __setitem__(self, name: str, value: str) -> None:
        self.own[name] = value

    def __delitem__(self, name: str) -> None:
        raise TypeError("a player's beliefs are told, never forgotten")

    def flat(self) -> dict[str, str]:
        """The dict these beliefs stand for (a new one): the group's teams over what was believed before,
        but for the roles of those very teams, and the own lessons over all (dict operations in C but
        for the walk over what was believed before, which is a player's own, not a group's)."""
        below = self.below.flat() if type(self.below) is Beliefs else self.below
        group = self.group
        out = dict(below)
        out.update(group)
        for name, value in below.items():
            team = group.get(name)
            if team is not None and _CODE_TEAM.get(value) == team:
                out[name] = value  # an agreeing affiliation does not replace a role
        out.update(self.own)
        return out

    def __iter__(self) -> Iterator[str]:
        return iter(self.flat())

    def items(self) -> ItemsView[str, str]:
        return self.flat().items()

    def __len__(self) -> int:
        return len(self.flat())

    def __bool__(self) -> bool:
        return bool(self.own or self.group or self.below)

    def __repr__(self) -> str:
        return f"Beliefs({dict(self.items())!r})"


class Knowledge(AbstractSet[str]):
    """A player's ``knowledge`` once he was given a group lesson: his own facts (``own``) and the
    groups' fact sets he was told (``shared``, each one object shared by all its listeners).  Reads,
    compares and stores as the frozenset of all of them."""

    __slots__ = ("own", "shared")

    def __init__(self, own: AbstractSet[str], shared: tuple[frozenset[str], ...]) -> None:
        self.own = own
        self.shared = shared

    @classmethod
    def of(cls, knowledge: AbstractSet[str], facts: set[str], shared: tuple[frozenset[str], ...]) -> AbstractSet[str]:
        """``knowledge`` with ``facts`` and the ``shared`` sets added (no new set when nothing is new)."""
        own, groups = (knowledge.own, knowledge.shared) if type(knowledge) is Knowledge else (knowledge, ())
        new = own | facts if facts and not all(f in knowledge for f in facts) else own
        if new is own and not shared:
            return knowledge
        groups = (*groups, *shared) if groups else shared
        return cls(new, groups) if groups else new

    def __contains__(self, fact: object) -> bool:
        return fact in self.own or any(fact in group for group in self.shared)

    def _all(self) -> frozenset[str]:
        return frozenset(self.own).union(*self.shared)

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self.own) or any(self.shared)

    def __repr__(self) -> str:
        return f"Knowledge({set(self._all())!r})"

    __hash__ = None  # type: ignore[assignment]


@dataclass(slots=True)
class Player:
    name: str
    team: str
    rank: str
    alive: bool = True
    location: str = R.CULPUCIER
    since: int = 0
    """Turn at whose end the player arrived at his level (0: set-up)."""
    sergent: str | None = None
    """For a Homme de Main: his sergent (None: not yet assigned)."""
    original: bool = False
    """A sergent from the start of the game."""
    bonus: int = 0
    vigilance: bool = False
    potion: str | None = None
    protected_once: bool = False
    hidden: bool = False
    rally: bool = False
    """Must choose a rebel to join (RALLIER) after a Lannister defeat."""
    recruit: bool = False
    """A traitor sergent who joined the Lannister and may be promoted Garde."""
    died: int = 0
    knowledge: AbstractSet[str] = frozenset()
    """Every fact told.  Never changed in place (`learn_role` makes a new one), so that a cloned state
    shares it.  During a resolution, the facts of the turn are added at its end (see the module's doc):
    rules read what a player believes from ``latest``."""
    latest: Mapping[str, str] = field(default_factory=dict)
    """Name -> the last role code (or, if only the affiliation was told since, the team) told of that name.
    Never changed in place either (`learn_role` replaces it): clones share it.  (`Ctx.reveal` changes
    in place a copy it made in the same turn, which nothing else holds.)"""

    def __post_init__(self) -> None:
        if not self.latest and self.knowledge:  # a state stored before `latest` existed
            self.latest = _latest_from(self.knowledge)

    @property
    def code(self) -> str:
        return R.role_code(self.team, self.rank)

    def clone(self) -> Player:
        # positional, field by field (checked against the dataclass below): the cheapest copy, and it
        # makes no instance dict for the garbage collector to walk.  The knowledge is shared, not
        # copied: it is only ever replaced (copy on write), and most players learn nothing in a turn.
        return Player(self.name, self.team, self.rank, self.alive, self.location, self.since, self.sergent,
                      self.original, self.bonus, self.vigilance, self.potion, self.protected_once, self.hidden,
                      self.rally, self.recruit, self.died, self.knowledge, self.latest)

    def learn_role(self, name: str, code: str) -> None:
        self.learn_roles(((name, code),))

    def learn_roles(self, told: Iterable[tuple[str, str]]) -> None:
        """`learn_role` of each (name, code) in turn, with one copy of the records for them all."""
        latest: dict[str, str] = dict(self.latest)
        facts: set[str] = set()
        for name, code in told:
            tell_role(latest, facts, name, code)
        self.latest = latest
        self.add_knowledge(facts)

    def learn_team(self, name: str, team: str) -> None:
        latest: dict[str, str] = dict(self.latest)
        facts: set[str] = set()
        tell_team(latest, facts, name, team)
        self.latest = latest
        self.add_knowledge(facts)

    def add_knowledge(self, facts: set[str]) -> None:
        """Add ``facts`` to ``knowledge`` (a new set, and only if one of them is new)."""
        if type(self.knowledge) is Knowledge:  # (not isinstance: an ABC's runs in Python, at every learner)
            self.knowledge = Knowledge.of(self.knowledge, facts, ())
        elif not facts <= self.knowledge:
            self.knowledge = self.knowledge | facts

    def knows_role(self, name: str) -> str | None:
        """The role code this player was told last for ``name`` (None if none, or if a different
        affiliation was told since)."""
        value = self.latest.get(name)
        return value if value in _CODE_TEAM else None

    def teammates_known(self) -> list[str]:
        """The others whose role he was told last is one of his own team (sorted): those he can name."""
        team = self.team
        return sorted(n for n, v in self.latest.items() if n != self.name and _CODE_TEAM.get(v) == team)

    def knows_team(self, name: str) -> str | None:
        """The affiliation this player believes ``name`` has (from the last role or team told), or None."""
        value = self.latest.get(name)
        if value is None:
            return None
        return _CODE_TEAM.get(value, value)


def _latest_from(knowledge: AbstractSet[str]) -> dict[str, str]:
    """`Player.latest` for a state stored before it existed: one role told per name (in no
    particular order, as then), else the affiliation."""
    latest: dict[str, str] = {}
    for fact in sorted(knowledge):
        name, kind, value = fact.split("|")
        if kind == "role" or name not in latest:
            latest[name] = value
    return latest


_PLAYER_FIELDS: tuple[str, ...] = (
    "name", "team", "rank", "alive", "location", "since", "sergent", "original", "bonus",
    "vigilance", "potion", "protected_once", "hidden", "rally", "recruit", "died", "knowledge", "latest",
)
"""The order of `Player.clone`'s arguments: a new field must be added there too."""
if tuple(f.name for f in fields(Player)) != _PLAYER_FIELDS:  # pragma: no cover
    raise TypeError("Player.clone is out of date with the Player fields")


@dataclass
class Prisoner:
    name: str
    arrested: int
    """Turn of the arrest; the prisoner spends turn ``arrested + 1`` in the cells."""
    confession: list[str] = field(default_factory=list)
    """Facts drawn by the torturer, told to the Lord Commandant if he survives."""
    awaiting_verdict: bool = False


@dataclass
class Betrayal:
    sergent: str
    chef: str
    team: str
    turn: int
    """Turn of the TRAHIR order; the squad against the chef goes the next turn."""


@dataclass
class Vacancy:
    """A sergent to name (NOMMER) in a rebel team."""

    team: str
    dead: str
    candidates: list[str] = field(default_factory=list)
    anyone: bool = False
    """True when any HM of the team may be named (after a failed betrayal)."""


@dataclass
class State:
    turn: int = 1
    order: list[str] = field(default_factory=list)
    """The roster, in its order; fixed at set-up (never changed in place: `fork` shares it)."""
    players: dict[str, Player] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    capacity: dict[str, int] = field(default_factory=dict)
    torturer: int = R.TORTURER_START
    prisoners: list[Prisoner] = field(default_factory=list)
    infirmary: list[str] = field(default_factory=list)
    """Patients of the last resolved turn: the Grand Mestre may dose one of them now."""
    potions_used: list[str] = field(default_factory=list)
    barred_teams: list[str] = field(default_factory=list)
    """Rebel teams whose members can no longer be protected by the Garde."""
    defeated: list[str] = field(default_factory=list)
    betrayals: list[Betrayal] = field(default_factory=list)
    vacancies: list[Vacancy] = field(default_factory=list)
    donjon: list[str] = field(default_factory=list)
    """The names of the Donjon Rouge residents (public)."""
    garde_places: int = 7
    """How many Gardes the Donjon Rouge holds (the count at set-up)."""
    fidele_target: str | None = None
    """The target the Lord Commandant named last turn (told to the fidèles)."""
    finished: bool = False
    winner: str | None = None

    def __post_load__(self) -> None:
        """Called by `pbem.serial.from_data` on a state read from JSON: one object per name and per
        word of the vocabulary, as in a state built in memory, instead of a copy at each place the
        text held it.  A roster walk then compares and looks up by identity instead of reading every
        copy (at 40,000 players, that is most of the memory a turn would touch).  Values are unchanged."""
        names = {n: n for n in self.players}  # the JSON decoder already shares equal keys
        self.order = [names.get(n, n) for n in self.order]
        words = _WORDS
        for p in self.players.values():
            p.name = names.get(p.name, p.name)
            p.team = words.get(p.team, p.team)
            p.rank = words.get(p.rank, p.rank)
            p.location = words.get(p.location, p.location)
            if p.sergent is not None:
                p.sergent = names.get(p.sergent, p.sergent)
            if p.potion is not None:
                p.potion = words.get(p.potion, p.potion)
        self.donjon = [names.get(n, n) for n in self.donjon]

    def clone(self) -> State:
        """A copy that shares nothing mutable with this state (its players copied too)."""
        s = self.fork()
        s.order = list(self.order)
        s.players = {n: p.clone() for n, p in self.players.items()}
        return s

    def fork(self) -> State:
        """A copy whose ``players`` dict is new but holds this state's `Player` records themselves.

        For the resolution (`pbem.games.pmb.context.Ctx.writable`), which copies a record before its first
        change (copy on write): a turn then allocates in proportion to what happens in it rather than
        to the roster, and the state it was given stays as it was.  Anyone else changing a player of
        a forked state must `clone` first."""
        s = State(
            turn=self.turn,
            order=self.order,  # fixed at set-up, never changed: shared
            players=dict(self.players),
            options=dict(self.options),
            capacity=dict(self.capacity),
            torturer=self.torturer,
            prisoners=[Prisoner(p.name, p.arrested, list(p.confession), p.awaiting_verdict) for p in self.prisoners],
            infirmary=list(self.infirmary),
            potions_used=list(self.potions_used),
            barred_teams=list(self.barred_teams),
            defeated=list(self.defeated),
            betrayals=[Betrayal(b.sergent, b.chef, b.team, b.turn) for b in self.betrayals],
            vacancies=[Vacancy(v.team, v.dead, list(v.candidates), v.anyone) for v in self.vacancies],
            donjon=list(self.donjon),
            garde_places=self.garde_places,
            fidele_target=self.fidele_target,
            finished=self.finished,
            winner=self.winner,
        )
        return s

    # --- queries (roster order) ---

    def living(self) -> list[Player]:
        return [self.players[n] for n in self.order if self.players[n].alive]

    def team_members(self, team: str, *, alive: bool = True) -> list[Player]:
        return [self.players[n] for n in self.order if self.players[n].team == team and (self.players[n].alive or not alive)]

    def chef(self, team: str) -> Player | None:
        for n in self.order:
            p = self.players[n]
            if p.team == team and p.rank == R.CHEF and p.alive:
                return p
        return None

    def lord_commandant(self) -> Player | None:
        for n in self.order:
            p = self.players[n]
            if p.rank == R.LORD_COMMANDANT and p.alive:
                return p
        return None

    def prisoner(self, name: str) -> Prisoner | None:
        for pr in self.prisoners:
            if pr.name == name:
                return pr
        return None

    def in_donjon(self, p: Player) -> bool:
        return p.location == R.DONJON and p.rank in R.DONJON_RANKS

    def can_act(self, p: Player) -> bool:
        return p.alive and p.location != R.CACHOTS and not p.hidden
