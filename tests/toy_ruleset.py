"""A small conformance ruleset that exercises both kinds of step through the one interface.

Odd steps are simultaneous: every player sends ``GUESS <1-10>``; a d10 is rolled and
the closest guesses score.  Even steps are sequential: one player (in turn) sends
``GIFT <player>`` to give someone a point.  ``ROLL`` is an immediate order (a d6, told
only to its author).  The game ends after ``steps`` steps (option).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.core import (
    MJ,
    PUBLIC,
    Audience,
    Event,
    Msg,
    Order,
    OrderHelp,
    OrderNotAllowedError,
    OrderSyntaxError,
    Outcome,
    Prompt,
    Ruleset,
    Seat,
    SetupError,
)
from pbem.dice import Dice
from pbem.names import match_keyword, take_name, words


@dataclass(frozen=True)
class ToyState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    step: int = 1
    steps: int = 4


VERBS = {"guess": "GUESS", "devine": "GUESS", "gift": "GIFT", "don": "GIFT", "roll": "ROLL"}


class Toy(Ruleset[ToyState]):
    name = "toy"
    title = "Toy"
    state_type = ToyState
    default_options: Mapping[str, object] = {"steps": 4}

    def setup(self, roster: Sequence[Seat], options: Mapping[str, object], dice: Dice) -> tuple[ToyState, list[Event]]:
        if len(roster) < 2:
            raise SetupError(Msg("il faut deux joueurs", "two players needed"))
        order = dice.shuffle([s.name for s in roster], "seating order")
        steps = options.get("steps", 4)
        assert isinstance(steps, int)
        state = ToyState(tuple(order), tuple(0 for _ in order), steps=steps)
        return state, [Event("seated", Audience.public(), {"order": list(order)})] + [
            Event("welcome", Audience.to(p), {"player": p, "seat": i + 1}) for i, p in enumerate(order)]

    def _sequential(self, state: ToyState) -> bool:
        return state.step % 2 == 0

    def prompts(self, state: ToyState) -> list[Prompt]:
        if state.step > state.steps:
            return []
        if self._sequential(state):
            giver = state.players[(state.step // 2 - 1) % len(state.players)]
            return [Prompt(giver, "gift", "short")]
        return [Prompt(p, "guess") for p in state.players]

    def step_title(self, state: ToyState) -> Msg:
        return Msg(f"Étape {state.step}", f"Step {state.step}")

    def players(self, state: ToyState) -> list[str]:
        return list(state.players)

    def parse_order(self, state: ToyState, player: str, line: str, accepted: Sequence[Order],
                    author: str | None = None) -> Order:
        w = words(line)
        if not w:
            raise OrderSyntaxError(Msg("ligne vide", "empty line"))
        verb = match_keyword(w[0], VERBS, what=Msg("ordre", "order"))
        if verb == "ROLL":
            return Order("ROLL", (), line)
        if player == MJ or player not in state.players:
            raise OrderNotAllowedError(Msg("vous ne jouez pas", "you are not playing"))
        if verb == "GUESS":
            if self._sequential(state):
                raise OrderNotAllowedError(Msg("pas de devinette à cette étape", "no guessing in this step"))
            if len(w) != 2 or not w[1].isdigit() or not 1 <= int(w[1]) <= 10:
                raise OrderSyntaxError(Msg("GUESS <1-10>", "GUESS <1-10>"))
            if any(o.verb == "GUESS" for o in accepted):
                raise OrderNotAllowedError(Msg("une seule devinette", "one guess only"))
            return Order("GUESS", (int(w[1]),), line)
        if not self._sequential(state):
            raise OrderNotAllowedError(Msg("pas de don à cette étape", "no gift in this step"))
        target, rest = take_name(w[1:], state.players)
        if rest:
            raise OrderSyntaxError(Msg("GIFT <joueur>", "GIFT <player>"))
        return Order("GIFT", (target,), line)

    def default_orders(self, state: ToyState, player: str) -> list[Order]:
        if self._sequential(state):
            return [Order("GIFT", (player,), "(default) GIFT self")]
        return [Order("GUESS", (5,), "(default) GUESS 5")]

    def resolve(self, state: ToyState, orders: Mapping[str, Sequence[Order]],
                dice: Dice) -> tuple[ToyState, list[Event]]:
        scores = list(state.scores)
        events: list[Event] = []
        if self._sequential(state):
            for giver, os in orders.items():
                for o in os:
                    target = str(o.args[0])
                    scores[state.players.index(target)] += 1
                    events.append(Event("gift", Audience.public(), {"giver": giver, "target": target}))
        else:
            target = dice.d(10, "target number")
            guesses = {p: int(os[0].args[0]) for p, os in orders.items() if os}
            best = min((abs(g - target) for g in guesses.values()), default=None)
            for p in state.players:
                if p in guesses:
                    events.append(Event("distance", Audience.to(p), {"guess": guesses[p], "target": target}))
                    if abs(guesses[p] - target) == best:
                        scores[state.players.index(p)] += 1
            events.append(Event("target", Audience.public(), {"target": target}))
            events.append(Event("mj_note", Audience.mj(), {"guesses": guesses}))
        return ToyState(state.players, tuple(scores), state.step + 1, state.steps), events

    def immediate(self, state: ToyState, player: str, order: Order, dice: Dice) -> tuple[ToyState, list[Event]] | None:
        if order.verb != "ROLL":
            return None
        return state, [Event("rolled", Audience.to(player) if player != MJ else Audience.mj(),
                             {"value": dice.d(6, f"{player} rolls a d6")})]

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.step <= state.steps:
            return None
        top = max(state.scores)
        winners = tuple(p for p, s in zip(state.players, state.scores, strict=True) if s == top)
        return Outcome(winners, Msg(f"Gagnant(s) : {', '.join(winners)}", f"Winner(s): {', '.join(winners)}"))

    def view(self, state: ToyState, player: str) -> dict[str, object]:
        if player == PUBLIC:
            return {"step": state.step}
        return {"step": state.step, "scores": dict(zip(state.players, state.scores, strict=True))}

    def help(self, state: ToyState, player: str) -> list[OrderHelp]:
        if self._sequential(state):
            return [OrderHelp("GIFT <player>", Msg("donner un point", "give a point"))]
        return [OrderHelp("GUESS <1-10>", Msg("deviner", "guess"))]


RULESET = Toy()
