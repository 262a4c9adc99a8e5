"""The `Ruleset` object of Pour le Roi (et Moi): the game's answers to the engine, one line each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import JSON, Event, Msg, Order, OrderHelp, Outcome, PlayerName, Prompt, Ruleset, Seat, StepWord
from pbem.dice import Dice
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi import gift as G
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi import orders as O
from pbem.games.pourleroi import positions as P
from pbem.games.pourleroi import setup as S
from pbem.games.pourleroi.cards import label
from pbem.games.pourleroi.options import OPTIONS, options_from
from pbem.games.pourleroi.state import State
from pbem.games.pourleroi.views import view


class PourLeRoiRuleset(Ruleset[State]):
    """Pour le Roi (et Moi) by mail: see ``docs/rules/pourleroi.md``."""

    name = "pourleroi"
    title = OPTIONS.title
    state_type = State
    step_word = StepWord("étape", "step", feminine=True)  # each decision asked by mail (a card, an auction...)
    after_early = "length"  # the game goes at the pace of the answers: each step's time counts from the one before
    game_words = frozenset({"passe", "passer", "pass"})  # PASSE is the auction's pass, not the common PASSER
    default_options: Mapping[str, JSON] = OPTIONS.default_options
    path_options = OPTIONS.path_options  # a file: config resolves it against the game folder

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Every option value checked when the config is read (`SetupError` naming the allowed values)."""
        options_from(options)

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[State, list[Event]]:
        state, ev = S.setup(roster, options, dice)
        return F.advance(state, dice, ev), ev

    def scenario_setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], position: Mapping[str, Any],
                       dice: Dice) -> tuple[State, list[Event]]:
        """For ``pbem scenario run``: the set-up with exactly the cards of ``position`` in play, then on to the
        first decision (`pbem.games.pourleroi.positions`; `PositionError` if the position is wrong)."""
        state, _ = S.setup(roster, options, dice)
        state = P.arrange(state, position)
        ev = S.setup_events(state, position=True)
        return F.advance(state, dice, ev), ev

    def prompts(self, state: State) -> list[Prompt]:
        return [Prompt(a.player, a.kind, F.DEADLINES[a.kind], a.required) for a in F.asked(state)]

    def step_title(self, state: State) -> Msg:
        kind = F.step_kind(state)
        if kind is None:
            return Msg("Fin de partie", "Game over")
        if kind == F.KING:
            p = state.kings_pending[0].player
            return Msg(f"Carte Roi de {p}", f"{p}'s King card")
        if kind == F.BID:
            a = state.auction
            assert a is not None and a.current is not None
            return Msg(f"Enchère {a.number} sur {a.total} : {label(state.material, a.current)}",
                       f"Auction {a.number} of {a.total}: {label(state.material, a.current, 'en')}")
        r = state.round
        assert r is not None
        if kind == F.PLACE:
            return Msg(f"Tour de don {r.number} ({r.donor}), carte {r.placed + 1} sur {len(state.seats) + 1}",
                       f"Gift round {r.number} ({r.donor}), card {r.placed + 1} of {len(state.seats) + 1}")
        return Msg(f"Tour de don {r.number} ({r.donor}), choix au centre",
                   f"Gift round {r.number} ({r.donor}), centre picks")

    def parse_order(self, state: State, player: str, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        return O.parse(state, player, line, accepted)

    def default_orders(self, state: State, player: str) -> list[Order]:
        kind = next((a.kind for a in F.asked(state) if a.player == player), None)
        if kind == F.PLACE:
            dest = F.default_destination(state)
            verb = next(v for v, d in F.PLACE_VERBS.items() if d == dest)
            return [Order(verb, (), verb)]
        if kind == F.PICK:
            r = state.round
            assert r is not None
            keys = [G.card_key(state.material, c) for c in r.centre]
            return [Order(F.CHOOSE_V, tuple(keys), "CHOIX " + " ".join(str(i + 1) for i in range(len(keys))))]
        if kind == F.KING:
            change = K.legal_changes(state, state.kings_pending[0].card)[0]
            return [Order(F.KING_V, change, K.change_text(change))]
        if kind == F.BID:
            a = state.auction
            assert a is not None and a.current is not None
            amount = F.standing_bid(state, player, a.current) or 0
            return [Order(F.BID_V if amount else F.PASS_V, ("", amount, ""),
                          f"ENCHERE {amount}" if amount else "PASSE")]
        return []

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        return F.resolve(state, orders, dice)

    def immediate(self, state: State, player: str, order: Order, dice: Dice) -> None:
        return None

    def outcome(self, state: State) -> Outcome | None:
        res = state.result
        if res is None:
            return None
        win = res.winners
        best = res.points[win[0]]
        if len(win) == 1:
            how = {"points": ("", ""), "gold": (" (départagé par l'Or en main)", " (tie broken by Gold in hand)"),
                   "primaries": (" (départagé par le nombre de fonctions primaires)", " (tie broken by primary offices)"),
                   "offices": (" (départagé par le nombre de fonctions)", " (tie broken by the number of offices)")}
            fr, en = how.get(res.decided_by, ("", ""))
            return Outcome(win, Msg(f"{win[0]} l'emporte avec {best} points de fonctions{fr}.",
                                    f"{win[0]} wins with {best} office points{en}."))
        names_fr = ", ".join(win[:-1]) + " et " + win[-1]
        names_en = ", ".join(win[:-1]) + " and " + win[-1]
        return Outcome(win, Msg(f"Victoire partagée entre {names_fr}, avec {best} points de fonctions chacun.",
                                f"Shared victory between {names_en}, with {best} office points each."))

    def view(self, state: State, player: str) -> dict[str, JSON]:
        return view(state, player)

    def help(self, state: State, player: str) -> list[OrderHelp]:
        return O.help_for(state, player)

    def players(self, state: State) -> list[str]:
        return list(state.seats)


RULESET = PourLeRoiRuleset()
