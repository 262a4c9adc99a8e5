"""Intrigue (Stefan Dorra, 1994): the ruleset, the one object the engine talks to.

Two ways to play by mail (option ``mode``):

* ``sequential`` (faithful): one decision at a time, in the order of the rules; bribes are
  announced openly in turn starting left of the palace owner.  `prompts` returns one prompt.
* ``simultaneous`` (default): each round is income (automatic), then everyone's placements, then
  sealed bribes from everyone for every park they are involved in, then every owner's decisions;
  parks are managed in the round of the placement, before the next income (`simultaneous`).

The modules, one job each: `state` (the data), `table` (questions and small updates on the
table), `settle` (the palace rules, shared by both modes), `placing` (placements), `sequential`
and `simultaneous` (each mode's schedule), `decisions` (who is asked what, defaults), `orders`
(the words), `parsing` (an order checked against the situation), `views` (what each one sees),
`opening` (options and the first state).  See ``docs/rules/intrigue.md`` for the rulings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import JSON, Event, Msg, Order, OrderHelp, Outcome, PlayerName, Prompt, Ruleset, Seat, StepWord
from pbem.dice import Dice
from pbem.games.intrigue import decisions, opening, parsing, sequential, simultaneous, views
from pbem.games.intrigue.options import DEFAULT_OPTIONS, OPTIONS, read_options
from pbem.games.intrigue.state import IntrigueState
from pbem.games.intrigue.table import board, public


class IntrigueRuleset(Ruleset[IntrigueState]):
    """Intrigue for play by mail: see the module docstring and ``docs/rules/intrigue.md``."""

    name = "intrigue"
    title = OPTIONS.title
    state_type = IntrigueState
    step_word = StepWord("étape", "step", feminine=True)  # a manche has several steps (bribes, decisions...)
    default_options: Mapping[str, JSON] = DEFAULT_OPTIONS

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Every option value checked when the config is read (`SetupError` naming the allowed values)."""
        read_options(options)

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[IntrigueState, list[Event]]:
        state, ev = opening.first_state(roster, options, dice)
        state = self._advance(state, ev)
        ev.append(public("board", **board(state)))
        ev.extend(decisions.asked_events(state))
        return state, ev

    def _advance(self, state: IntrigueState, ev: list[Event]) -> IntrigueState:
        return sequential.advance(state, ev) if state.sequential else simultaneous.advance(state, ev)

    def prompts(self, state: IntrigueState) -> list[Prompt]:
        deadline = "short" if state.sequential else "turn"
        return [Prompt(p, kind, deadline) for p, kind in decisions.awaited(state)]

    def step_title(self, state: IntrigueState) -> Msg:
        return views.step_title(state)

    def players(self, state: IntrigueState) -> list[PlayerName]:
        return list(state.seats)

    def outcome(self, state: IntrigueState) -> Outcome | None:
        return views.outcome(state)

    def immediate(self, state: IntrigueState, player: PlayerName, order: Order, dice: Dice) -> None:
        return None

    def parse_order(self, state: IntrigueState, player: PlayerName, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        return parsing.parse_order(state, player, line, accepted)

    def default_orders(self, state: IntrigueState, player: PlayerName) -> list[Order]:
        return decisions.default_orders(state, player)

    def resolve(
        self, state: IntrigueState, orders: Mapping[PlayerName, Sequence[Order]], dice: Dice
    ) -> tuple[IntrigueState, list[Event]]:
        ev: list[Event] = []
        if state.over:
            return state, ev
        if state.sequential:
            state = sequential.apply(state, orders, ev)
        else:
            state = simultaneous.apply(state, orders, ev)
        state = self._advance(state, ev)
        ev.append(public("board", **board(state)))
        ev.extend(decisions.asked_events(state))
        return state, ev

    def view(self, state: IntrigueState, player: PlayerName) -> dict[str, JSON]:
        return views.view(state, player)

    def help(self, state: IntrigueState, player: PlayerName) -> list[OrderHelp]:
        return views.help_for(state, player)


RULESET = IntrigueRuleset()
