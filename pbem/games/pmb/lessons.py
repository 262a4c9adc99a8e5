"""Who learned what during one resolution: the facts told each player this turn, added to what he knows at its end.

A lesson (`Lessons.reveal`, `reveal_to`, `reveal_team`, `reveal_teams`) changes what the learner believes at
once (his ``latest``, a copy made on his first lesson of the turn) and gathers the facts it tells him;
`Lessons.settle` adds them to his ``knowledge`` when the resolution ends.  One per `Ctx` (``ctx.lessons``),
over the context's roster: a learner is copied through the context (`Ctx.writable`'s copy on write).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence

from pbem.games.pmb.state import Beliefs, Knowledge, Player, role_facts, team_fact, tell_role, tell_team


class Lessons:
    """The lessons of one resolution, by roster position (see the module's doc)."""

    def __init__(self, p: Callable[[str], Player], roster: list[Player], pos: Mapping[str, int], copied: bytearray,
                 copy_at: Callable[[int, str], Player]) -> None:
        # the context's own roster and copy flags, shared, not copied (a record copied by either is seen by
        # both), and its copy on write (`Ctx.copy_at`)
        self.p = p
        self.roster = roster
        self._pos = pos
        self._copied = copied
        self._copy = copy_at
        self._told: list[set[str] | None] = [None] * len(self.roster)
        """By roster position: the facts told this turn to that player (see `learner`; None: nothing yet),
        added to his ``knowledge`` by `settle` at the end of the turn."""
        self._learners: list[int] = []
        """The roster positions of the players told something this turn, in the order they first were."""
        self._told_shared: dict[int, tuple[frozenset[str], ...]] = {}
        """Roster position -> the fact sets of the group lessons told that player this turn (`reveal_teams`):
        each one set shared by all its listeners, added as such to their ``knowledge`` by `settle`."""

    def learner(self, name: str) -> tuple[Player, set[str]]:
        """The player of that name, to tell him something, and the set of the facts told him this turn.

        On his first lesson of the turn he is copied (`writable`) and so is his ``latest``: a lesson then
        changes that copy in place (`tell_role`, `tell_team`), which no other state holds, and adds
        its facts to the set, which `settle` adds to his ``knowledge`` at the end of the turn.  A
        player told thousands of facts in a turn (the target of a failed squad of thousands, the chef
        of a clan that takes in a beaten one's survivors) has his records copied once, not once a fact."""
        i = self._pos[name]
        told = self._told[i]
        if told is not None:
            return self.roster[i], told
        p = self.roster[i] if self._copied[i] else self._copy(i, name)
        latest = p.latest
        p.latest = latest.fork() if type(latest) is Beliefs else dict(latest)  # (`type`: an ABC's isinstance is slow)
        told = self._told[i] = set()
        self._learners.append(i)
        return p, told

    def settle(self) -> None:
        """Add the facts told this turn to each learner's ``knowledge`` (at the end of the resolution)."""
        roster, told = self.roster, self._told
        shared = self._told_shared
        for i in self._learners:
            facts = told[i]
            assert facts is not None
            groups = shared.get(i)
            if groups:
                roster[i].knowledge = Knowledge.of(roster[i].knowledge, facts, groups)
            else:
                roster[i].add_knowledge(facts)
            told[i] = None
        self._learners = []
        self._told_shared = {}

    def reveal(self, recipients: list[str] | tuple[str, ...], subject: str, code: str | None = None) -> dict[str, str]:
        """Teach ``recipients`` the role of ``subject`` (its current role unless ``code`` is given)."""
        value = code if code is not None else self.p(subject).code
        facts = role_facts(subject, value)  # one pair of strings for every listener
        for r in recipients:
            p, told = self.learner(r)
            tell_role(_own(p), told, subject, value, facts)
        return {"player": subject, "role": value}

    def reveal_to(self, recipient: str, told: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
        """`reveal` to ``recipient`` alone of each (subject, role code) in turn (the target of a failed
        squad of thousands told every member's role): his records found once, not once per fact."""
        p, facts = self.learner(recipient)
        latest = _own(p)
        for subject, code in told:
            tell_role(latest, facts, subject, code)
        return [{"player": subject, "role": code} for subject, code in told]

    def reveal_team(self, recipients: list[str] | tuple[str, ...], subject: str, team: str | None = None) -> dict[str, str]:
        """Teach ``recipients`` the affiliation of ``subject`` (its current one unless ``team`` is given)."""
        team = team if team is not None else self.p(subject).team
        fact = team_fact(subject, team)
        for r in recipients:
            p, told = self.learner(r)
            tell_team(_own(p), told, subject, team, fact)
        return {"player": subject, "team": team}

    def reveal_teams(self, recipients: list[str] | tuple[str, ...], subjects: Sequence[str]) -> list[dict[str, str]]:
        """`reveal_team` of each of ``subjects`` in turn (their current affiliations) to every one of
        ``recipients``, as one group lesson: the (name -> team) mapping and its facts are made once and
        shared by all the listeners (`Beliefs`, `Knowledge`), so that a squad of k members who all learn
        each other's affiliation costs about k, not k² entries.  What each then believes and knows is
        what the facts told one by one would have made."""
        p = self.p
        group = {s: p(s).team for s in subjects}
        facts = frozenset(team_fact(s, team) for s, team in group.items())
        shared = self._told_shared
        pos = self._pos
        told, roster, copied, learners = self._told, self.roster, self._copied, self._learners
        alone = (facts,)  # the groups of a learner told no other this turn: one tuple for all of them
        for r in recipients:
            i = pos[r]
            if told[i] is None:
                # his first lesson of the turn, as `learner` gives it but for the copy of his ``latest``:
                # the group's layer goes over it unchanged, and only that layer's own dict is written
                learner = roster[i] if copied[i] else self._copy(i, r)
                told[i] = set()
                learners.append(i)
            else:
                learner = roster[i]
            learner.latest = Beliefs({}, group, learner.latest)
            before = shared.get(i)
            shared[i] = alone if before is None else (*before, facts)
        return [{"player": s, "team": group[s]} for s in subjects]


def _own(learner: Player) -> MutableMapping[str, str]:
    """The ``latest`` of a player `Lessons.learner` gave: a copy of his own this turn, changed in place."""
    latest = learner.latest
    assert type(latest) is dict or type(latest) is Beliefs  # (not isinstance: an ABC's runs in Python)
    return latest
