"""Courtisans: the Ruleset.  One step per player turn, sequential (see docs/rules/courtisans.md).

Only the player whose turn it is is prompted (deadline key ``tour``: « 2 jours après que les actions
du joueur précédent aient été publiées »); with ``early_delay_minutes = 0`` the turn resolves as
soon as that player's orders are in.  PARTI (a dead player's next parti), and the MJ's AMENDE and
AVERTISSEMENT, take effect on receipt.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from pbem.core import (
    JSON,
    MJ,
    Event,
    Msg,
    Order,
    OrderHelp,
    Outcome,
    PlayerName,
    Prompt,
    Ruleset,
    Seat,
    StepWord,
    replace,
)
from pbem.dice import Dice
from pbem.games.courtisans import orders as parsing
from pbem.games.courtisans.actions import DRAW
from pbem.games.courtisans.etiquette import address, salutation
from pbem.games.courtisans.help import help_lines
from pbem.games.courtisans.news import private, who
from pbem.games.courtisans.setup import check_options, new_game
from pbem.games.courtisans.state import CourtState, Options, with_courtier
from pbem.games.courtisans.turns import play_turn
from pbem.games.courtisans.views import view

DEADLINE = "tour"


class CourtisansRuleset(Ruleset[CourtState]):
    name = "courtisans"
    title = "Courtisans"
    state_type = CourtState
    step_word = StepWord("tour", "turn", feminine=False)  # a step is one player's turn; a manche has several
    after_early = "length"  # « 2 jours après que les actions du joueur précédent aient été publiées »
    game_words = frozenset({"passer", "pass"})  # PASSER is an action of the game (do nothing), not the common PASSER
    default_options: Mapping[str, JSON] = {f.name: getattr(Options(), f.name) for f in dataclasses.fields(Options)}
    path_options = frozenset({"deck"})  # a file: config resolves it against the game folder

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Every option value checked when the config is read (`SetupError` naming what is accepted),
        the deck file included when the option names one."""
        check_options(options)

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[CourtState, list[Event]]:
        return new_game(roster, options, dice)

    def prompts(self, state: CourtState) -> list[Prompt]:
        slot = state.slot
        return [] if slot is None else [Prompt(slot.player, "turn", DEADLINE)]

    def step_title(self, state: CourtState) -> Msg:
        slot = state.slot
        if slot is None:
            return Msg(f"Fin de la partie (manche {state.round})", f"End of the game (round {state.round})")
        name = address(state, slot.player)
        if slot.kind == "first":
            return Msg(f"Manche {state.round}, tour du Chambellan, {name}",
                       f"Round {state.round}, the Chambellan's turn, {name}")
        if slot.kind == "closing":
            return Msg(f"Manche {state.round}, tour de clôture du Chambellan, {name}",
                       f"Round {state.round}, the Chambellan's closing turn, {name}")
        return Msg(f"Manche {state.round}, tour de {name}", f"Round {state.round}, turn of {name}")

    def parse_order(self, state: CourtState, player: PlayerName, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        return parsing.parse(state, player, line, accepted)

    def default_orders(self, state: CourtState, player: PlayerName) -> list[Order]:
        """« Si aucune action n'a été transmise au MJ, les 2 actions seront une pioche automatique »."""
        slot = state.slot
        if slot is None or slot.player != player:
            return []
        return [Order(DRAW, (), DRAW), Order(DRAW, (), DRAW)]

    def resolve(self, state: CourtState, orders: Mapping[PlayerName, Sequence[Order]],
                dice: Dice) -> tuple[CourtState, list[Event]]:
        slot = state.slot
        if slot is None:
            return state, []
        given = list(orders.get(slot.player, ())) or self.default_orders(state, slot.player)
        return play_turn(state, slot.player, given, dice)

    def immediate(self, state: CourtState, player: PlayerName, order: Order,
                  dice: Dice) -> tuple[CourtState, list[Event]] | None:
        if order.verb not in parsing.IMMEDIATE:
            return None
        ev: list[Event] = []
        if order.verb == parsing.PARTY:
            c = state.courtiers[player]
            state = with_courtier(state, replace(c, next_parti=str(order.args[0])))
            ev.append(private([player], "parti_chosen", who=who(state, player), parti=str(order.args[0])))
            return state, ev
        target = str(order.args[0])
        c = state.courtiers[target]
        # the MJ's word goes to the player concerned (the MJ reads it in his answer); the Grand Registre shows
        # the fortune to everyone from the next turn on
        if order.verb == parsing.FINE:
            amount = int(order.args[1])
            state = with_courtier(state, replace(c, fines=c.fines + 1, livres=c.livres - amount))
            ev.append(private([target], "fined", who=who(state, target), amount=amount, livres=c.livres - amount))
            return state, ev
        state = with_courtier(state, replace(c, warnings=c.warnings + 1))
        ev.append(private([target], "warned", who=who(state, target), count=c.warnings + 1))
        return state, ev

    def outcome(self, state: CourtState) -> Outcome | None:
        if not state.over:
            return None
        names = [address(state, p) for p in state.winners]
        livres = state.courtiers[state.winners[0]].livres if state.winners else 0
        amount = f"{livres:,}".replace(",", "\u202f")
        joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " et " + names[-1]
        joined_en = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        if state.end == "target":
            fr = f"{joined} {'a' if len(names) == 1 else 'ont'} amassé {amount} livres et " \
                 f"{'remporte' if len(names) == 1 else 'se partagent'} la partie."
            en = f"{joined_en} amassed {livres:,} livres and {'wins' if len(names) == 1 else 'share'} the game."
        else:
            fr = f"Fin de la manche {state.round}, dernière de la partie : {joined} " \
                 f"{'est le plus riche' if len(names) == 1 else 'sont les plus riches'} ({amount} livres)."
            en = f"End of round {state.round}, the last of the game: {joined_en} " \
                 f"{'is' if len(names) == 1 else 'are'} the richest ({livres:,} livres)."
        return Outcome(tuple(state.winners), Msg(fr, en))

    def view(self, state: CourtState, player: PlayerName) -> dict[str, JSON]:
        helps: list[dict[str, JSON]] = [{"syntax": h.syntax, "fr": h.description.fr, "en": h.description.en}
                                        for h in self.help(state, player)] if player in state.courtiers else []
        return view(state, player, helps)

    def help(self, state: CourtState, player: PlayerName) -> list[OrderHelp]:
        return help_lines(state, player)

    def players(self, state: CourtState) -> list[PlayerName]:
        return list(state.seats)

    def salutation(self, state: CourtState, player: PlayerName) -> str | None:
        """How letters to this player open (« Madame la Duchesse de la Fourberye »): the étiquette."""
        if player == MJ or player not in state.courtiers:
            return None
        return salutation(state, player)
