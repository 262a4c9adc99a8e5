"""1626, le gant et l'épée: a test resolver by mail.  No turns: every order is immediate.

By default a player's ``TEST`` is a request: the MJ answers it with the SR (``SR 15``) and the
dice are rolled then; the option ``sr_by = "player"`` lets players set the SR themselves.
Orders are parsed in `orders`, rolled in `rolls`; `changes` holds what the MJ changes on a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import (
    JSON,
    MJ,
    Audience,
    Event,
    Msg,
    Order,
    OrderHelp,
    Outcome,
    PlayerName,
    Prompt,
    Ruleset,
    Seat,
    replace,
)
from pbem.dice import Dice
from pbem.games.g1626 import changes, titles
from pbem.games.g1626.character import has_gift, sheet
from pbem.games.g1626.options import DEFAULT_OPTIONS, OPTIONS, check_options
from pbem.games.g1626.orders import VALID_CARACS, decode, describe, parse, request_of, side_from, side_values
from pbem.games.g1626.rolls import opposed_test, single_test
from pbem.games.g1626.sheet import seats_from_toml
from pbem.games.g1626.state import Request, Side, State, TestRecord, new_state
from pbem.games.g1626.tables import HERITAGE, HERITAGE_BASE, HERITAGE_UNIT


class Ruleset1626(Ruleset[State]):
    name = "1626"
    title = OPTIONS.title
    state_type = State
    default_options: Mapping[str, JSON] = DEFAULT_OPTIONS

    def check_options(self, options: Mapping[str, JSON]) -> None:
        """Hook for the config reader and ``pbem doctor``: `SetupError` naming the allowed values."""
        check_options(options)

    def check_roster(self, text: str, options: Mapping[str, JSON]) -> bool:
        """Hook for reading the sheets file (``roster``): `SetupError` with every fault and its line."""
        seats_from_toml(text, check_options(options)["extra_gifts"])
        return True

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[State, list[Event]]:
        state = new_state(roster, check_options(options))
        for player in state.roster:
            char = state.characters[player]
            if has_gift(char, HERITAGE) and char.heritage is None:  # « 5.000 + (1d6 x 1000) livres »
                amount = HERITAGE_BASE + dice.d(6, f"inheritance ({player}): d6") * HERITAGE_UNIT
                state = changes.with_character(state, replace(char, heritage=amount))
        events = [Event("sheet", Audience.to(p), sheet(state.characters[p])) for p in state.roster]
        return state, events

    def prompts(self, state: State) -> list[Prompt]:
        return []

    def step_title(self, state: State) -> Msg:
        return Msg("Partie en cours", "Game in progress")

    def parse_order(self, state: State, player: PlayerName, line: str, accepted: Sequence[Order],
                    author: PlayerName | None = None) -> Order:
        """``author`` (engine hook, see docs/rules/1626.md): `MJ` when the MJ wrote the line for ``player``
        (``POUR``), so that his test is rolled at once with his SR instead of becoming a request."""
        return parse(state, player, line, author)

    def default_orders(self, state: State, player: PlayerName) -> list[Order]:
        return []

    def resolve(self, state: State, orders: Mapping[PlayerName, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        return state, []

    def immediate(self, state: State, player: PlayerName, order: Order, dice: Dice) -> tuple[State, list[Event]] | None:
        verb = order.verb
        if verb == "TEST":
            values = decode(order.args)
            return self._roll(state, state.tests + 1, values, side_from(values, "vs_") if "vs_player" in values
                              or "vs_label" in values else None, dice, numbered=True)
        if verb == "DEMANDE":
            return self._request(state, decode(order.args))
        if verb in ("SR", "LANCER"):
            return self._answer(state, order, dice)
        if verb == "REFUSER":
            values = decode(order.args)
            request = request_of(state, int(values["request"]))
            data = {**_for_player(self._request_data(state, request)), "reason": values.get("reason", "")}
            new = replace(state, requests=[r for r in state.requests if r.number != request.number])
            return new, [Event("request_refused", Audience.to(request.actor.player), data)]
        if verb in ("DEMANDES", "HISTORIQUE"):
            audience = Audience.mj() if player == MJ else Audience.to(player)
            who = str(order.args[0]) if order.args else player
            view = self.view(state, player)
            if verb == "DEMANDES":
                return state, [Event("requests", audience, {"requests": view["requests"], "mj": player == MJ})]
            shown = [h for h in view["history"] if who == MJ or h["player"] == who or h.get("opponent") == who]
            return state, [Event("history", audience, {"history": shown, "mj": player == MJ})]
        if verb == "FICHE":
            target = str(order.args[0])
            audience = Audience.mj() if player == MJ else Audience.to(target)
            return state, [Event("sheet", audience, sheet(state.characters[target]))]
        if verb in ("RECONNU", "INCONNU"):
            return changes.recognition(state, order)
        if verb == "PRESTIGE":
            return changes.prestige(state, order)
        if verb == "BLESSURE":
            return changes.wound(state, order)
        if verb == "SOIN":
            return changes.care(state, order)
        if verb == "CHANCE":
            return changes.luck(state, player, order)
        if verb in ("TALENT", "DON"):
            return changes.sheet_edit(state, order)
        return None

    def pending_requests(self, state: State) -> list[tuple[int, PlayerName, str]]:
        """The players' tests that wait for the MJ's answer: number, player and what (the MJ's mail reader names
        them, `pbem.engine.optional.requests`)."""
        return [(r.number, r.actor.player, describe(side_values(r.actor))) for r in state.requests]

    # --- tests: requests, answers, rolls ---

    def _request(self, state: State, values: Mapping[str, JSON]) -> tuple[State, list[Event]]:
        number = state.tests + 1
        opponent = side_from(values, "vs_") if "vs_player" in values or "vs_label" in values else None
        request = Request(number, side_from(values), opponent, values.get("sr"), bool(values.get("secret")))
        new = replace(state, tests=number, requests=[*state.requests, request])
        data = self._request_data(state, request)
        return new, [Event("test_request", Audience.mj(), data),
                     Event("test_requested", Audience.to(request.actor.player), _for_player(data))]

    def _request_data(self, state: State, request: Request) -> dict[str, JSON]:
        actor = state.characters[request.actor.player]
        data: dict[str, JSON] = {
            "number": request.number, "player": actor.player, "name": actor.name, "what": describe(side_values(request.actor)),
            "sr": request.sr, "secret": request.secret, "opponent": None, "needs_score": False,
            "modifier": request.actor.modifier,
        }
        if request.opponent is not None:
            opp = request.opponent
            data["opponent"] = state.characters[opp.player].name if opp.player else opp.label
            data["opponent_what"] = describe(side_values(opp)) if not opp.npc or opp.score is not None else ""
            data["needs_score"] = opp.npc and opp.score is None
        return data

    def _answer(self, state: State, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        values = decode(order.args)
        request = request_of(state, int(values["request"]))
        asked, given = request.actor.modifier, int(values.get("modifier") or 0)
        secret = bool(values.get("secret")) or request.secret
        if order.verb == "SR":
            # ruling: the MJ's « SR 17 » is the final difficulty; the modifier the player asked for is not
            # applied (only the MJ's own, « SR 17 +2 »), and the answer says so
            actor = replace(request.actor, modifier=given)
            test: dict[str, JSON] = {**side_values(actor), "sr": values["sr"], "secret": secret}
            if asked:
                test["dropped_modifier"] = asked
            opponent = None
        else:  # LANCER: the request as it was made (its modifier kept), plus the MJ's own
            actor = replace(request.actor, modifier=asked + given)
            test = {**side_values(actor), "sr": request.sr, "secret": secret}
            opponent = side_from(values, "vs_") if values.get("versus") else request.opponent
        remaining = replace(state, requests=[r for r in state.requests if r.number != request.number])
        return self._roll(remaining, request.number, test, opponent, dice, numbered=False)

    def _roll(self, state: State, number: int, values: Mapping[str, JSON], opponent: Side | None, dice: Dice,
              numbered: bool) -> tuple[State, list[Event]]:
        actor = side_from(values)
        secret = bool(values.get("secret"))
        if opponent is None:
            data, record = single_test(state, number, actor, int(values["sr"]), secret, dice)
            if values.get("dropped_modifier"):
                data["dropped_modifier"] = values["dropped_modifier"]
            kind, told = "test_result", [actor.player]
        else:
            data, record = opposed_test(state, number, actor, opponent, secret, dice)
            kind, told = "opposed_result", [actor.player, *([opponent.player] if opponent.player else [])]
        new = replace(state, tests=number if numbered else state.tests, history=[*state.history, record])
        if secret:
            name = state.characters[actor.player].name
            return new, [Event(kind, Audience.mj(), data),
                         Event("test_secret", Audience.to(actor.player), {"number": number, "player": actor.player,
                                                                          "name": name})]
        return new, [Event(kind, Audience.to(*told), data)]

    def outcome(self, state: State) -> Outcome | None:
        return None

    def view(self, state: State, player: PlayerName) -> dict[str, JSON]:
        if player == MJ:
            shown = list(state.roster)
        elif player in state.characters:
            shown = [player]
        else:
            shown = []
        requests = [self._request_data(state, r) for r in state.requests if player == MJ or r.actor.player == player]
        return {
            "characters": [sheet(state.characters[p]) for p in shown],
            "names": [{"player": p, "name": state.characters[p].name} for p in state.roster],
            "tests": state.tests,
            "secret_tests": state.secret_tests,
            "sr_by": state.sr_by,
            "requests": requests if player == MJ else [_for_player(r) for r in requests],
            "history": [_history_line(state, h, player) for h in state.history if _sees(h, player)],
        }

    def help(self, state: State, player: PlayerName) -> list[OrderHelp]:
        return titles.help_lines(state, player, VALID_CARACS)

    def players(self, state: State) -> list[PlayerName]:
        return list(state.roster)

    # --- hooks for the engine (see docs/rules/1626.md, « Ce que le moteur doit faire ») ---

    def action_title(self, state: State, player: PlayerName, order: Order, viewer: PlayerName) -> Msg:
        """What to call this immediate order in the subject and heading of ``viewer``'s mail."""
        return titles.action_title(state, player, order, viewer)

    def batch_title(self, state: State, actions: Sequence[tuple[PlayerName, Order]]) -> Msg:
        """The subject of the MJ's digest of several orders: the characters they concern."""
        return titles.batch_title(state, actions)


def _for_player(data: Mapping[str, JSON]) -> dict[str, JSON]:
    """A request as its player may read it: a secret one keeps only its number."""
    if data.get("secret"):
        return {"number": data["number"], "player": data["player"], "name": data["name"], "secret": True}
    return dict(data)


def _sees(record: TestRecord, player: PlayerName) -> bool:
    return player == MJ or record.player == player or (record.opponent == player and not record.secret)


def _history_line(state: State, record: TestRecord, viewer: PlayerName) -> dict[str, JSON]:
    name = state.characters[record.player].name
    if record.secret and viewer != MJ:
        return {"number": record.number, "player": record.player, "name": name, "secret": True}
    opponent = state.characters[record.opponent].name if record.opponent in state.characters else record.opponent
    return {"number": record.number, "player": record.player, "name": name, "what": record.what,
            "total": record.total, "outcome": record.outcome, "margin": record.margin, "sr": record.sr,
            "secret": record.secret, "opponent": record.opponent, "opponent_name": opponent,
            "opponent_what": record.opponent_what, "opponent_total": record.opponent_total,
            "critical": record.critical}


RULESET = Ruleset1626()
