"""The states a player's turn may reach line by line: how the ack judges a line as the resolution will.

« Une fois que le joueur a transmis ses deux actions, il peut encore décider le pouvoir de sa charge » :
each line of a turn is carried out on the state the lines before it leave, and checked there
(`actions.refusal` for an action, `checks.power_refusal` for a charge's power).  The resolution does
it on the one state it reaches.  The order parser does it on every state the lines before may leave,
carrying them out with the resolution's own code (`actions.carry_out`) under every result of their
dice (a request granted or refused, each face of a D10 card), so the ack says what the resolution
will do:

* the line holds in every such state: « OK » ;
* in none: it is refused, with the reason;
* in some: « OK » with a note that says on what it depends and what happens otherwise.

What the player does not know stays out of it: the deck is empty in these states (a card drawn is
unknown, so it cannot be named), and when a card of the turn strikes « the parti » of someone, the
other courtiers' partis are taken every way they could be (each alone, all together, all of one
nation), so that the ack reads the same whatever they really are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pbem.core import Event, Msg, Order, OrderNotAllowedError, replace
from pbem.dice import Dice
from pbem.games.courtisans.actions import ACTIONS, PLAY, carry_out
from pbem.games.courtisans.state import PARTIS, CourtState

RUNS = 2000
"""How many times the lines before may be carried out for one line (each run one set of dice results);
past it the states not reached leave the line's verdict open (« OK » with a note, never a refusal)."""


@dataclass(frozen=True)
class World:
    """One state the lines before may leave, and the Court's place it assumes the Chambellan will choose
    (``""`` when the place is chosen already, or is not his to choose now)."""

    state: CourtState
    place: str = ""


@dataclass(frozen=True)
class Worlds:
    worlds: tuple[World, ...]
    complete: bool = True
    """Every result of the dice was tried (else the verdict may only be « OK » with a note)."""

    def states(self) -> list[CourtState]:
        return [w.state for w in self.worlds]


_ASKS = re.compile(r".+: (?P<p>.+) asks the (?P<s>King|Queen|Regent)")
_PLEADS = re.compile(r".+: the Queen pleads with the King for (?P<p>.+)")
_RECEIVED = re.compile(r"audience: (?P<p>.+) is received by the (?P<s>King|Queen)")
_WEIGHS = re.compile(r"audience: what .+ says weighs")
_CARD_D10 = re.compile(r".+ n°(?P<n>\d+): D10")


def representatives(state: CourtState, purpose: str, low: int, high: int) -> list[int]:
    """One result of each kind a draw of the rules may give, on ``state`` (the one its action starts from):
    a request's or an audience's die only matters against the asker's cote (granted up to it, refused above),
    ragots and louanges weigh 1 to 5 or 6 to 10, a D10 card by the lines of its table, a D10 of livres only in
    livres; any other draw (the cotes of a courtier back at Court, a Queen's nation) by every result.
    (A test checks that these give every state that trying every result gives.)"""
    if _WEIGHS.fullmatch(purpose):
        return [1, 6]
    if purpose == "amount of livres: D10":
        return [low]
    found = _CARD_D10.fullmatch(purpose)
    if found and int(found["n"]) in state.cards and state.cards[int(found["n"])].results:
        return sorted({r.low for r in state.cards[int(found["n"])].results})
    cote: int | None = None
    if (found := _ASKS.fullmatch(purpose) or _RECEIVED.fullmatch(purpose)) and found["p"] in state.courtiers:
        c = state.courtiers[found["p"]]
        cote = c.cote_roi if found["s"] == "King" else c.cote_reine
    elif (found := _PLEADS.fullmatch(purpose)) and found["p"] in state.courtiers:
        cote = state.courtiers[found["p"]].cote_roi
    if cote is not None:
        return [v for v in (cote, cote + 1) if low <= v <= high] or [low]
    return list(range(low, high + 1))


class _Scripted(Dice):
    """Dice that give the results of a script, then the first result to try of each draw; the results still
    to try of every draw are noted, so that each can be tried in turn."""

    def __init__(self, script: Sequence[int], state: CourtState | None):
        super().__init__("00", "plan")
        self.script = list(script)
        self.state = state
        self.taken: list[int] = []
        self.others: list[list[int]] = []

    def _uniform(self, purpose: str, low: int, high: int) -> int:
        i = len(self.taken)
        if "shuffle" in purpose:  # the discard pile into the deck: nothing the lines after can use
            tried = [low]
        elif self.state is None:
            tried = list(range(low, high + 1))
        else:
            tried = representatives(self.state, purpose, low, high)
        value = self.script[i] if i < len(self.script) else tried[0]
        self.taken.append(value)
        self.others.append([v for v in tried if v != value] if i >= len(self.script) else [])
        return value


def fingerprint(state: CourtState) -> Hashable:
    """What the lines after a line may depend on (not the livres, the deck or the discard pile)."""
    people = tuple((p, c.status, c.sex, c.cote_roi, c.cote_reine, tuple(sorted(c.hand)), c.possessions, c.spouse,
                    c.married_name, c.poisoner) for p, c in state.courtiers.items())
    return people, state.crown, state.court, state.wars, tuple(sorted(state.maison)), state.powers_used, state.queue


def _explore(run: Callable[[Dice], CourtState], budget: list[int],
             start: CourtState | None) -> tuple[list[CourtState], bool]:
    """The distinct states ``run`` leaves over the results of its dice (depth first, within ``budget``):
    `representatives` of each draw on ``start`` (the state the action starts from), or every result
    when ``start`` is None."""
    pending: list[tuple[int, ...]] = [()]
    found: dict[Hashable, CourtState] = {}
    while pending:
        if budget[0] <= 0:
            return list(found.values()), False
        script = pending.pop()
        dice = _Scripted(script, start)
        state = run(dice)
        budget[0] -= 1
        found.setdefault(fingerprint(state), state)
        for i in range(len(script), len(dice.taken)):
            pending += [(*dice.taken[:i], v) for v in dice.others[i]]
    return list(found.values()), True


def _parti_struck(state: CourtState, actions: Sequence[Order]) -> bool:
    """Does a card played in these actions strike someone's parti (« son parti », a nation's parti)?"""
    for o in actions:
        if o.verb != PLAY or int(str(o.args[0])) not in state.cards:
            continue
        card = state.cards[int(str(o.args[0]))]
        effects = list(card.effects) + [e for r in card.results for e in r.effects]
        if any(e.on.startswith("parti") for e in effects):
            return True
    return False


def _partis_unknown(state: CourtState, player: str) -> list[CourtState]:
    """The state with the other courtiers' partis every way the player cannot tell apart: each alone, all
    together, all of one nation (and as they are)."""
    others = [p for p in state.seats if p != player]

    def given(partis: Callable[[int], str]) -> CourtState:
        courtiers = dict(state.courtiers)
        for k, p in enumerate(others):
            courtiers[p] = replace(courtiers[p], parti=partis(k))
        return replace(state, courtiers=courtiers)

    def alone(k: int) -> str:
        return f"?{k}"

    def together(k: int) -> str:
        return "?"

    def nation(n: str) -> Callable[[int], str]:
        return lambda k: n

    return [state, given(alone), given(together), *(given(nation(n)) for n in PARTIS)]


def starts(state: CourtState, player: str, accepted: Sequence[Order], court_verb: str) -> list[World]:
    """The turn's first state as the player can see it, before his actions: no deck, the Court where the
    Chambellan put it (``court_verb`` lines) or, not chosen yet, at Versailles and at the Hunt."""
    state = replace(state, deck=(), discard=())
    slot = state.slot
    chosen = [str(o.args[0]) for o in accepted if o.verb == court_verb and o.args[1] == "chambellan"]
    mine = slot is not None and slot.player == player and slot.kind == "first"
    if not mine or state.wars or not state.courtiers[player].at_court:
        return [World(state)]
    if chosen:
        return [World(replace(state, court=chosen[-1]))]
    return [World(replace(state, court=place), place) for place in ("versailles", "chasse")]


def after(first: Sequence[World], player: str, actions: Sequence[Order], *, every_result: bool = False) -> Worlds:
    """Every state ``actions`` (carried out in order by ``player``) may leave from these first ones
    (``every_result``: trying every result of every draw, not only `representatives`: for the tests)."""
    budget = [RUNS]
    complete = True
    worlds = list(first)
    if not actions:
        return Worlds(tuple(worlds))
    if not worlds[0].state.options.public_partis and _parti_struck(worlds[0].state, actions):
        worlds = [World(s, w.place) for w in worlds for s in _partis_unknown(w.state, player)]
    for order in actions:
        reached: list[World] = []
        for w in worlds:

            def run(dice: Dice, state: CourtState = w.state, order: Order = order) -> CourtState:
                ev: list[Event] = []
                return carry_out(state, player, order, dice, ev)

            states, done = _explore(run, budget, None if every_result else w.state)
            complete = complete and done
            reached += [World(s, w.place) for s in states]
        worlds = reached
    return Worlds(tuple(worlds), complete)


def judged(order: Order, worlds: Worlds, check: Callable[[CourtState], Msg | None], what: Msg) -> Order:
    """``order`` as the ack takes it: refused (`OrderNotAllowedError`) when ``check`` refuses it in every
    world, with a note when only in some.  ``what``: « action » or « pouvoir », for the note."""
    results = [(w, check(w.state)) for w in worlds.worlds]
    refused = [why for _, why in results if why is not None]
    if not refused and worlds.complete:
        return order
    if len(refused) == len(results) and worlds.complete:
        # the reason most states give (on a tie the later: the Hunt, then the dice going the player's way)
        raise OrderNotAllowedError(max(reversed(refused), key=refused.count))
    return replace(order, note=_depends(worlds, results, what))


def _depends(worlds: Worlds, results: Sequence[tuple[World, Msg | None]], what: Msg) -> Msg:
    """The note of a line that holds in some of the states the lines before may leave, not in all."""
    refused = [why for _, why in results if why is not None]
    places = {w.place for w in worlds.worlds if w.place}
    fine = {p for p in places if all(why is None for w, why in results if w.place == p)}
    if worlds.complete and len(fine) == 1:
        if fine == {"chasse"}:
            return Msg("à condition que vous mettiez la Cour à la Chasse (ligne CHASSE) : sans choix de votre part, "
                       f"elle sera à Versailles et cette {what.fr} sera perdue",
                       "provided you put the Court at the Hunt (a CHASSE line): without your choice it will be at "
                       f"Versailles and this {what.en} will be lost")
        return Msg(f"à condition que la Cour reste à Versailles : avec CHASSE, cette {what.fr} serait perdue",
                   f"provided the Court stays at Versailles: with CHASSE, this {what.en} would be lost")
    lost = "perdue" if what.fr == "action" else "perdu"
    if not refused:  # every state tried allows it, but not every one could be tried
        return Msg(f"selon les dés des lignes au-dessus : vérifié au moment de le faire, sinon {what.fr} {lost}",
                   f"depending on the dice of the lines above: checked when it is carried out, else the {what.en} "
                   "is lost")
    return Msg(f"selon ce que donneront les lignes au-dessus (leurs dés, leurs effets) : vérifié au moment de le "
               f"faire, sinon {what.fr} {lost} ({refused[0].fr})",
               f"depending on what the lines above give (their dice, their effects): checked when it is carried "
               f"out, else the {what.en} is lost ({refused[0].en})")


def verdict(worlds: Worlds, check: Callable[[CourtState], Msg | None]) -> tuple[str, Msg | None]:
    """``("ok", None)``, ``("refused", why)`` or ``("depends", why)`` (a refusal in some of the states)."""
    reasons = [check(s) for s in worlds.states()]
    refused = [why for why in reasons if why is not None]
    if not refused:
        return ("ok", None) if worlds.complete else ("depends", None)
    if len(refused) == len(reasons) and worlds.complete:
        return "refused", refused[0]
    return "depends", refused[0]


def actions_of(accepted: Sequence[Order]) -> list[Order]:
    return [o for o in accepted if o.verb in ACTIONS]


class _Same:
    """A state as a cache key: the very object (states are never changed in place), not an equal one."""

    __slots__ = ("state",)

    def __init__(self, state: CourtState):
        self.state = state

    def __hash__(self) -> int:
        return id(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.state is self.state


@lru_cache(maxsize=64)
def _reached(same: _Same, player: str, accepted: tuple[Order, ...], court_verb: str) -> Worlds:
    return after(starts(same.state, player, accepted, court_verb), player, actions_of(accepted))


def reached(state: CourtState, player: str, accepted: Sequence[Order], court_verb: str) -> Worlds:
    """Every state the lines accepted so far may leave (`starts`, then `after`).  Remembered for the last few
    (state, lines): a mail's lines are read one by one, each after the same lines before it, and the result
    depends on nothing else (the cache keeps the state object itself, so an equal but other state is another key)."""
    return _reached(_Same(state), player, tuple(accepted), court_verb)
