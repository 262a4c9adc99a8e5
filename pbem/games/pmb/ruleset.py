"""The `Ruleset` object of Pour Ma Belle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import (
    JSON,
    MJ,
    PUBLIC,
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
)
from pbem.dice import Dice
from pbem.games.pmb import orders as O
from pbem.games.pmb import roles as R
from pbem.games.pmb import setup as S
from pbem.games.pmb.options import DEFAULT_OPTIONS, OPTIONS, check_options
from pbem.games.pmb.powers import default_verdict
from pbem.games.pmb.resolve import resolve
from pbem.games.pmb.state import State
from pbem.serial import to_data

TEAM_NAMES = {R.LANNISTER: ("Lannister", "Lannister"), R.STARK: ("Stark", "Stark"), R.TYRELL: ("Tyrell", "Tyrell")}


class PmbRuleset(Ruleset[State]):
    name = "pmb"
    title = OPTIONS.title
    state_type = State
    default_options: Mapping[str, JSON] = DEFAULT_OPTIONS
    step_word = StepWord("tour", "turn", feminine=False)
    prompts_public = False  # who has something to decide can betray a role (a traitor, the Mestre): no counts
    wish_words: Mapping[str, str] = O.WISHES

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Refuse an unknown option or value (`SetupError` naming the allowed ones); `setup` calls it,
        and config reading could call it as soon as the game's options are read."""
        check_options(options)

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[State, list[Event]]:
        return S.setup(roster, options, dice)

    def prompts(self, state: State) -> list[Prompt]:
        """Who must decide: the living, free players who have an order to give this turn (not a Mestre
        with nobody in the infirmary, nor a traitor whose squad goes by itself)."""
        if state.finished:
            return []
        out: list[Prompt] = []
        for n in state.order:
            p = state.players[n]
            # O.allowed: alive, free (or a prisoner released on his verdict, prison_turns = 1), with an order to give
            if not p.alive or (p.location == R.CACHOTS and not O.out_on_verdict(state, p)) or not O.allowed(state, n):
                continue
            if p.hidden:
                out.append(Prompt(n, "hiding", "turn", required=False))
            elif p.rally:
                out.append(Prompt(n, "rally", "turn"))
            else:
                out.append(Prompt(n, "turn", "turn"))
        return out

    def step_title(self, state: State) -> Msg:
        return Msg(f"Tour {state.turn}", f"Turn {state.turn}")

    def parse_order(self, state: State, player: str, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        return O.parse(state, player, line, accepted)

    def default_orders(self, state: State, player: str) -> list[Order]:
        p = state.players.get(player)
        if p is None or p.rank != R.LORD_COMMANDANT or not p.alive:
            return []
        verdict = default_verdict(state.options)
        # marked as the default, so that the verdict is told as « par défaut » (the engine sends these for a silent player)
        return [Order(O.VERDICT, (pr.name, verdict, O.DEFAULT_VERDICT), f"VERDICT {pr.name} {verdict}")
                for pr in state.prisoners if pr.awaiting_verdict]

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        return resolve(state, orders, dice)

    def immediate(self, state: State, player: str, order: Order, dice: Dice) -> tuple[State, list[Event]] | None:
        return None

    def outcome(self, state: State) -> Outcome | None:
        if not state.finished:
            return None
        if state.winner is None:
            return Outcome((), Msg("La partie s'achève sans vainqueur.", "The game ends with no winner."))
        winners = tuple(n for n in state.order if state.players[n].team == state.winner)
        fr, en = TEAM_NAMES[state.winner]
        return Outcome(winners, Msg(f"Victoire de l'équipe {fr} !", f"Victory for team {en}!"))

    def view(self, state: State, player: str) -> dict[str, JSON]:
        """What ``player`` sees.  The MJ's and the public view list the living and the dead; a player's
        counts them and names those he knows (`known`, the dead marked), as his letters say: the
        forum post lists them all, and a letter stays the size of what its reader knows."""
        living, dead = _roster(state)
        common: dict[str, JSON] = {
            "turn": state.turn,
            "donjon": list(state.donjon),
            "donjon_dead": [n for n in state.donjon if not state.players[n].alive],
            "prisoners": [pr.name for pr in state.prisoners],
            "defeated": list(state.defeated),
            "finished": state.finished,
            "winner": state.winner,
            "levels": levels(state),
            "donjon_influence": {"garde": R.GARDE_INFLUENCE, "conseil": R.CONSEIL_INFLUENCE},
        }
        if player == MJ:
            common.update(living=list(living), dead=list(dead))
            common["roles"] = {n: state.players[n].code for n in state.order}
            common["state"] = to_data(state)
            return common
        if player == PUBLIC or player not in state.players:
            common.update(living=list(living), dead=list(dead))
            if state.finished:
                common["roles"] = {n: state.players[n].code for n in state.order}
            return common
        p = state.players[player]
        known = S.known_list(p, exclude_self=True)
        common.update({
            "living_count": len(living),
            "dead_count": len(dead),
            "name": player,
            "role": p.code,
            "team": p.team,
            "alive": p.alive,
            "location": p.location,
            "influence": R.INFLUENCE.get(p.location, 0) + p.bonus,
            "hidden": p.hidden,
            "rally": p.rally,
            "known": [f if state.players[f["player"]].alive else {**f, "dead": True} for f in known],
            "awaiting_verdict": O.out_on_verdict(state, p),
            "fidele_targets": (O.fidele_targets(state) or []) if p.rank == R.FIDELE and p.alive else [],
            "orders": [h.syntax for h in O.help_for(state, player)],
        })
        return common

    def help(self, state: State, player: str) -> list[OrderHelp]:
        return O.help_for(state, player)

    def players(self, state: State) -> list[str]:
        return list(state.order)

    def dead(self, state: State) -> list[str]:
        """The players who lost their life (roster order): they play no more."""
        return [n for n in state.order if not state.players[n].alive]


def _roster(state: State) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the living, the dead) in roster order, found once per state (a state is never mutated): every
    player's view counts them, and a step's letters ask for thousands of views of one state."""
    cache = state.__dict__.get("_pmb_roster")
    if cache is None:
        cache = (tuple(n for n in state.order if state.players[n].alive),
                 tuple(n for n in state.order if not state.players[n].alive))
        state.__dict__["_pmb_roster"] = cache
    return cache


def levels(state: State) -> list[dict[str, JSON]]:
    """Port-Réal's three levels, highest first, with their influence and places (public rule facts).

    ``level`` is the rule text's number (3 Colline de Visenya, 2 FosseDragon, 1 Culpucier);
    ``places`` its capacity (fixed at set-up from the number of players, or by the option
    ``places``), ``None`` for Culpucier, which has no limit.  Who is where stays private.
    """
    caps: dict[str, int | None] = {R.VISENYA: state.capacity.get(R.VISENYA), R.FOSSEDRAGON:
                                   state.capacity.get(R.FOSSEDRAGON), R.CULPUCIER: None}
    number = {R.VISENYA: 3, R.FOSSEDRAGON: 2, R.CULPUCIER: 1}
    return [{"level": number[lv], "influence": R.INFLUENCE[lv], "places": caps[lv]} for lv in R.LEVELS]


RULESET = PmbRuleset()
