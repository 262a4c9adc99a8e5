"""1626 rule cases: « Avant d'effectuer le test, le MJ fixe au joueur un Seuil de Réussite » (I.3).

By default a player's TEST is a request the MJ answers with the SR; the option ``sr_by = "player"``
lets a table trust its players with the SR.  A secret test tells its player only that it happened.
Every test goes into the history.
"""

from __future__ import annotations

import json
import re

import pytest

from pbem import serial
from pbem.core import (
    MJ,
    PUBLIC,
    Audience,
    Event,
    OrderAmbiguousError,
    OrderNotAllowedError,
    OrderSyntaxError,
    Seat,
    SetupError,
)
from pbem.games.g1626 import RULESET, State
from pbem.games.g1626.orders import decode
from pbem.render import Renderer

from .test_1626_support import FakeDice, game, run, sheet

MJ_SETS_SR = {"sr_by": "mj"}


def table() -> State:
    """Armand and Isaac at a table with the default options: the MJ sets the SR."""
    state = game(options=MJ_SETS_SR)
    assert RULESET.default_options["sr_by"] == "mj"
    return state


# --- « le MJ fixe au joueur un Seuil de Réussite »: the player's TEST is a request ---


def test_R3_le_MJ_fixe_le_SR_a_players_test_is_a_request() -> None:
    state, events, dice = run(table(), "TEST Escrime AG")
    assert dice.rolls == [] and state.history == []
    assert [(r.number, r.actor.talent, r.actor.carac, r.sr) for r in state.requests] == [(1, "Escrime", "AG", None)]
    assert [(e.kind, e.audience) for e in events] == [("test_request", Audience.mj()),
                                                      ("test_requested", Audience.to("Armand"))]
    assert events[1].data["number"] == 1 and state.tests == 1


def test_R3_an_SR_written_by_the_player_is_only_a_suggestion() -> None:
    state, events, dice = run(table(), "TEST Escrime AG SR 12")
    assert dice.rolls == [] and state.requests[0].sr == 12
    assert "SR proposé 12" in Renderer("1626", "fr").event_text(events[0])


def test_R3_the_MJ_answers_with_the_SR_and_the_test_is_rolled() -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    state, events, dice = run(state, "SR 15", 7, player=MJ)
    (event,) = events
    assert event.kind == "test_result" and event.audience == Audience.to("Armand")
    assert (event.data["number"], event.data["sr"], event.data["total"], event.data["success"]) == (1, 15, 18, True)
    assert state.requests == [] and state.tests == 1 and [h.number for h in state.history] == [1]
    assert dice.rolls[0].purpose == "test #1 Escrime/AG (Armand): d10"


@pytest.mark.parametrize("line", ["SR 15", "SR 15 n° 1", "SR 15 n°1", "SR 15 #1", "SR 15 demande 1", "sr15",
                                  "SR 15 Armand", "SR 15 pour Armand", "SR Armand 15", "SR 15 Armand de Sillègue",
                                  "DC 15", "Seuil 15 n° 1"])
def test_R3_the_MJ_answer_in_the_forms_an_MJ_writes(line: str) -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    parsed = RULESET.parse_order(state, MJ, line, [])
    assert (parsed.verb, decode(parsed.args)) == ("SR", {"request": 1, "sr": 15}), line


def test_R3_the_MJ_names_the_request_when_several_wait() -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    state, _, _ = run(state, "TEST Baratin CH", player="Isaac")
    with pytest.raises(OrderAmbiguousError) as caught:
        RULESET.parse_order(state, MJ, "SR 15", [])
    assert caught.value.msg.fr == ("plusieurs demandes en attente : n° 1 (Armand de Sillègue), n° 2 (Isaac de Porthau) ; "
                                   "précisez, ex. « SR 15 n° 1 »")
    assert decode(RULESET.parse_order(state, MJ, "SR 15 Isaac", []).args)["request"] == 2
    assert decode(RULESET.parse_order(state, MJ, "SR 15 n° 1", []).args)["request"] == 1
    with pytest.raises(OrderNotAllowedError) as refused:
        RULESET.parse_order(state, MJ, "SR 15 n° 9", [])
    assert refused.value.msg.fr == "pas de demande n° 9 en attente (en attente : n° 1, n° 2)"


def test_R3_an_answer_without_a_request_is_refused() -> None:
    with pytest.raises(OrderNotAllowedError) as caught:
        RULESET.parse_order(table(), MJ, "SR 15", [])
    assert caught.value.msg.fr == "aucune demande de test en attente"
    state, _, _ = run(table(), "TEST Escrime AG")
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(state, MJ, "SR", [])
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(state, MJ, "SR 15 16", [])


def test_R3_the_MJ_may_add_a_modifier_and_make_the_answer_secret() -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    state, events, _ = run(state, "SR 15 -2 SECRET", 7, player=MJ)
    assert [(e.kind, e.audience) for e in events] == [("test_result", Audience.mj()),
                                                      ("test_secret", Audience.to("Armand"))]
    assert events[0].data["total"] == 16 and events[0].data["bonuses"][-1]["value"] == -2


def test_R3_le_MJ_fixe_le_SR_a_plain_SR_is_the_final_difficulty_without_the_modifier_asked() -> None:
    """« le MJ fixe au joueur un Seuil de Réussite » : the MJ's « SR 17 » is the difficulty the test meets; the +5 the
    player asked for is not applied, and the answer says so (ruling, docs/rules/1626.md)."""
    state, _, _ = run(table(), "TEST Escrime AG +5")
    assert state.requests[0].actor.modifier == 5
    _, events, _ = run(state, "SR 17", 7, player=MJ)
    (event,) = events
    assert (event.data["total"], event.data["success"], event.data["dropped_modifier"]) == (6 + 5 + 7, True, 5)
    assert not any(b["fr"] == "modificateur" for b in event.data["bonuses"])
    assert "Le modificateur demandé (+5) n'est pas appliqué\u00a0: le SR 17 du MJ est la difficulté finale." in \
        Renderer("1626", "fr").event_text(event)
    assert "The modifier asked for (+5) is not applied" in Renderer("1626", "en").event_text(event)
    # the MJ's own modifier is the one applied
    _, events, _ = run(state, "SR 17 +2", 7, player=MJ)
    assert (events[0].data["total"], events[0].data["dropped_modifier"]) == (6 + 5 + 7 + 2, 5)
    # without a modifier asked, nothing is said
    state, _, _ = run(table(), "TEST Escrime AG")
    _, events, _ = run(state, "SR 17", 7, player=MJ)
    assert "dropped_modifier" not in events[0].data


def test_R3_LANCER_takes_the_SR_the_player_suggested() -> None:
    state, _, _ = run(table(), "TEST Escrime AG SR 12 +1")
    state, events, _ = run(state, "LANCER", 2, player=MJ)
    assert (events[0].data["sr"], events[0].data["total"]) == (12, 6 + 5 + 1 + 2)
    state, _, _ = run(state, "TEST Escrime AG")
    with pytest.raises(OrderNotAllowedError) as caught:
        RULESET.parse_order(state, MJ, "LANCER", [])
    assert caught.value.msg.fr == "aucune demande de test en attente"  # none fits: no SR to take
    with pytest.raises(OrderSyntaxError) as syntax:
        RULESET.parse_order(state, MJ, "LANCER n° 2", [])
    assert syntax.value.msg.fr == "la demande n° 2 attend le SR : SR 15 n° 2"


def test_R3_REFUSER_drops_the_request_and_tells_the_player() -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    state, events, _ = run(state, "REFUSER n° 1 inutile, la porte est ouverte", player=MJ)
    assert state.requests == []
    (event,) = events
    assert event.kind == "request_refused" and event.audience == Audience.to("Armand")
    assert Renderer("1626", "fr").event_text(event) == (
        "Le MJ ne retient pas votre demande de test n° 1 (Escrime/AG)\u00a0: «\u00a0inutile, la porte est ouverte\u00a0».")
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(state, "Armand", "REFUSER", [])


def test_R3_answers_are_the_MJs_alone() -> None:
    state, _, _ = run(table(), "TEST Escrime AG")
    for line in ("SR 15", "LANCER", "REFUSER", "BLESSURE Isaac 3"):
        with pytest.raises(OrderNotAllowedError):
            RULESET.parse_order(state, "Armand", line, [])


def test_R3_the_MJs_own_test_is_rolled_at_once_with_his_SR() -> None:
    state, events, _ = run(table(), "TEST Isaac Vigilance PE SR 17", 9, player=MJ)
    assert events[0].kind == "test_result" and events[0].audience == Audience.to("Isaac")
    assert (events[0].data["total"], state.requests) == (4 + 0 + 9, [])
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(table(), MJ, "TEST Isaac Vigilance PE", [])


def test_R3_POUR_from_the_MJ_rolls_at_once_with_the_engine_author_hook() -> None:
    """``POUR Isaac : TEST … SR 17``: the engine passes ``author=MJ`` (hook described in docs/rules/1626.md)."""
    state, events, _ = run(table(), "TEST Vigilance PE SR 17", 9, player="Isaac", author=MJ)
    assert events[0].kind == "test_result" and state.requests == []
    with pytest.raises(OrderSyntaxError):
        RULESET.parse_order(table(), "Isaac", "TEST Vigilance PE", [], author=MJ)  # type: ignore[call-arg]
    # without the hook the same line is the player's request, which the MJ then answers
    state, events, dice = run(table(), "TEST Vigilance PE SR 17", player="Isaac")
    assert dice.rolls == [] and state.requests[0].sr == 17


# --- the option sr_by ---


def test_option_sr_by_player_lets_players_set_the_SR() -> None:
    state = game(options={"sr_by": "player"})
    state, events, _ = run(state, "TEST Escrime AG SR 15", 7)
    assert events[0].kind == "test_result" and state.requests == []
    state, events, _ = run(state, "TEST Escrime AG")  # no SR: it goes to the MJ all the same
    assert events[0].kind == "test_request" and state.requests[0].number == 2


@pytest.mark.parametrize(("options", "wanted"), [
    ({"sr_by": "joueur"}, "option sr_by : « mj » ou « player », pas « joueur »"),
    ({"opposed_ties": "attaquant"}, "option opposed_ties : « defender » ou « draw » ou « reroll », pas « attaquant »"),
    ({"secret_tests": "oui"}, "option secret_tests : true ou false, pas « oui »"),
    ({"extra_gifts": "Duelliste"}, 'option extra_gifts : une liste de noms, par exemple ["Duelliste"]'),
    ({"sr": "mj"}, "option inconnue : sr (options : sr_by, secret_tests, opposed_ties, extra_gifts)"),
])
def test_option_values_are_checked(options: dict[str, object], wanted: str) -> None:
    with pytest.raises(SetupError) as caught:
        RULESET.setup([Seat("Armand", data=sheet())], options, FakeDice())
    assert caught.value.msg.fr == wanted
    with pytest.raises(SetupError):
        RULESET.check_options(options)  # type: ignore[attr-defined]


# --- SECRET: « the player learns only that a test happened » ---

SECRET_LINES = [
    ("TEST Isaac Vigilance PE SR 23 SECRET", MJ, None, (9,)),  # the MJ's own secret test
    ("TEST Vigilance PE SR 23 SECRET", "Isaac", MJ, (9,)),  # POUR Isaac : … with the author hook
]


def _told(events: list[Event], player: str) -> list[Event]:
    return [e for e in events if e.audience.kind != "mj" and e.audience.includes(player)]


def _reveals(events: list[Event], texts: list[str]) -> list[str]:
    found = []
    for event in events:
        shown = [json.dumps(dict(event.data), ensure_ascii=False)]
        shown += [Renderer("1626", lang).event_text(event) for lang in ("fr", "en")]
        found += [t for t in shown if re.search(r"vigilance|perception|\bPE\b|\b23\b", t, re.IGNORECASE)]
    return found + [t for t in texts if re.search(r"vigilance|perception|\bPE\b|\b23\b", t, re.IGNORECASE)]


@pytest.mark.parametrize(("line", "player", "author", "faces"), SECRET_LINES)
def test_SECRET_nothing_the_player_receives_names_the_talent_the_characteristic_or_the_SR(
        line: str, player: str, author: str | None, faces: tuple[int, ...]) -> None:
    state = table()
    parsed = RULESET.parse_order(state, player, line, [], author=author)  # type: ignore[call-arg]
    state, events, _ = run(state, line, *faces, player=player, author=author)
    told = _told(events, "Isaac")
    assert [e.kind for e in told] == ["test_secret"]
    assert _reveals(told, [parsed.text]) == []  # the engine titles the player's mail with the order text
    title = RULESET.action_title(table(), player, parsed, "Isaac")  # type: ignore[attr-defined]
    assert (title.fr, title.en) == ("Test secret n° 1", "Secret test no. 1")
    assert "Vigilance" in Renderer("1626", "fr").event_text(events[0])  # the MJ sees it all


def test_SECRET_a_secret_request_and_its_answer_reveal_nothing_to_the_player() -> None:
    state, asked, _ = run(table(), "TEST Vigilance PE SR 23 SECRET", player="Isaac")
    assert _reveals(_told(asked, "Isaac"), []) == []
    answer = RULESET.parse_order(state, MJ, "SR 23", [])
    state, events, _ = run(state, "SR 23", 9, player=MJ)
    assert [e.kind for e in _told(events, "Isaac")] == ["test_secret"]
    assert _reveals(_told(events, "Isaac"), [answer.text]) == []
    view = RULESET.view(state, "Isaac")
    assert view["history"] == [{"number": 1, "player": "Isaac", "name": "Isaac de Porthau", "secret": True}]


def test_SECRET_the_MJ_may_make_an_answer_secret_and_then_it_is_titled_neutrally() -> None:
    state, _, _ = run(table(), "TEST Vigilance PE", player="Isaac")
    answer = RULESET.parse_order(state, MJ, "SR 23 Isaac SECRET", [])
    assert answer.text == "TEST SECRET n° 1"


def test_SECRET_option_secret_tests_makes_every_test_secret() -> None:
    state, events, _ = run(game(options={"secret_tests": True}), "TEST AG SR 15", 7)
    assert events[0].audience == Audience.mj() and events[0].data["secret"]
    assert [e.kind for e in _told(events, "Armand")] == ["test_secret"]


# --- every test is in the history ---


def test_history_lists_every_test_with_its_result() -> None:
    state, _, _ = run(game(), "TEST Escrime AG SR 15", 7)
    state, _, _ = run(state, "TEST AG SR 20 SECRET", 3)
    state, _, _ = run(state, "TEST Escrime AG CONTRE Isaac", 2, 8)
    armand = RULESET.view(state, "Armand")["history"]
    assert [(h["number"], h.get("outcome")) for h in armand] == [(1, "success"), (2, None), (3, "loss")]
    isaac = RULESET.view(state, "Isaac")["history"]
    assert [(h["number"], h["outcome"], h["opponent_total"]) for h in isaac] == [(3, "loss", 6 + 5 + 8)]
    mj = RULESET.view(state, MJ)["history"]
    assert [(h["number"], h["outcome"], h["secret"]) for h in mj] == [(1, "success", False), (2, "failure", True),
                                                                     (3, "loss", False)]
    assert RULESET.view(state, PUBLIC)["history"] == []
    _, events, _ = run(state, "HISTORIQUE")
    assert events[0].kind == "history" and events[0].audience == Audience.to("Armand")
    assert Renderer("1626", "fr").event_text(events[0]).splitlines() == [
        "Tests lancés\u00a0:",
        "  n° 1\u00a0: Armand de Sillègue, Escrime/AG (SR 15)\u00a0: 18, réussi de 3",
        "  n° 2\u00a0: Armand de Sillègue, test secret",
        "  n° 3\u00a0: Armand de Sillègue, Escrime/AG contre Isaac de Porthau (Escrime/AG)\u00a0: 13 contre 19, perd de 6",
    ]
    _, events, _ = run(state, "HISTORIQUE Isaac", player=MJ)
    assert [h["number"] for h in events[0].data["history"]] == [3] and events[0].audience == Audience.mj()
    with pytest.raises(OrderNotAllowedError):
        RULESET.parse_order(state, "Armand", "HISTORIQUE Isaac", [])


def test_DEMANDES_lists_what_waits_for_the_MJ() -> None:
    state, _, _ = run(table(), "TEST Escrime AG SR 12")
    state, _, _ = run(state, "TEST Baratin CH SECRET", player="Isaac")
    _, events, _ = run(state, "DEMANDES", player=MJ)
    assert Renderer("1626", "fr").event_text(events[0]).splitlines() == [
        "Demandes de test en attente du MJ\u00a0:",
        "  n° 1\u00a0: Armand de Sillègue, Escrime/AG, SR proposé 12",
        "  n° 2\u00a0: Isaac de Porthau, Baratin/CH (secret)",
    ]
    _, events, _ = run(state, "DEMANDES", player="Isaac")
    assert Renderer("1626", "fr").event_text(events[0]).splitlines() == [
        "Demandes de test en attente du MJ\u00a0:", "  n° 2\u00a0: test secret"]


def test_state_with_requests_and_history_round_trips() -> None:
    state, _, _ = run(table(), "TEST Escrime AG CONTRE Rochefort")
    state, _, _ = run(state, "TEST Isaac AG SR 12", 4, player=MJ)
    assert serial.loads(State, serial.dumps(state)) == state


def test_titles_name_the_characters_not_the_order_line() -> None:
    state = table()
    order = RULESET.parse_order(state, "Armand", "TEST Escrime AG", [])
    title = RULESET.action_title(state, "Armand", order, MJ)  # type: ignore[attr-defined]
    assert (title.fr, title.en) == ("Demande de test n° 1 d'Armand de Sillègue", "Test request no. 1 of Armand de Sillègue")
    state, _, _ = run(state, "TEST Escrime AG")
    answer = RULESET.parse_order(state, MJ, "SR 15", [])
    assert RULESET.action_title(state, MJ, answer, "Armand").fr == "Test n° 1 d'Armand de Sillègue"  # type: ignore[attr-defined]
    batch = RULESET.batch_title(state, [("Armand", order), ("Isaac", RULESET.parse_order(  # type: ignore[attr-defined]
        state, "Isaac", "TEST AG", [])), (MJ, RULESET.parse_order(state, MJ, "BLESSURE Isaac 2", []))])
    assert (batch.fr, batch.en) == ("Tests d'Armand de Sillègue et d'Isaac de Porthau",
                                    "Tests of Armand de Sillègue and Isaac de Porthau")
