"""The working context of one resolution: a fresh state, the dice, the events, and who learned what."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.core import Audience, Event
from pbem.dice import Dice
from pbem.games.pmb import roles as R
from pbem.games.pmb.state import Player, State


@dataclass
class Death:
    name: str
    cause: str
    by: str
    """The team responsible ("lannister", "stark", "tyrell", or "" for none)."""


@dataclass
class Ctx:
    st: State
    dice: Dice
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

    @property
    def turn(self) -> int:
        return self.st.turn

    def p(self, name: str) -> Player:
        return self.st.players[name]

    def tell(self, kind: str, players: list[str] | tuple[str, ...], **data: Any) -> None:
        if players:
            self.events.append(Event(kind, Audience.to(*players), data))

    def public(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, Audience.public(), data))

    def mj(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, Audience.mj(), data))

    def reveal(self, recipients: list[str] | tuple[str, ...], subject: str, code: str | None = None) -> dict[str, str]:
        """Teach ``recipients`` the role of ``subject`` (its current role unless ``code`` is given)."""
        value = code if code is not None else self.p(subject).code
        for r in recipients:
            self.p(r).learn_role(subject, value)
        return {"player": subject, "role": value}

    def reveal_team(self, recipients: list[str] | tuple[str, ...], subject: str) -> dict[str, str]:
        team = self.p(subject).team
        for r in recipients:
            self.p(r).learn_team(subject, team)
        return {"player": subject, "team": team}

    def kill(self, name: str, cause: str, by: str) -> None:
        p = self.p(name)
        if not p.alive:
            return
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
