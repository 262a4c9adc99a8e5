"""1626 rule cases: opposed tests, ``TEST … CONTRE <personnage> …``.

Chapter I gives no opposed test: these cases check the ruling written in docs/rules/1626.md
(each side makes its own test of I.3 with its own dice of I.5 and gifts; the higher total wins by
the difference; a tie follows the option ``opposed_ties``).  Faces are scripted: first the acting
side's dice, then the opponent's.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from pbem.core import MJ, Audience, OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError
from pbem.dice import Dice
from pbem.games.g1626 import RULESET, State
from pbem.render import Renderer

from .test_1626_support import TALENTS, game, run


def opposed(state: State, line: str, *faces: int, player: str = "Armand") -> dict[str, Any]:
    _, events, _ = run(state, line, *faces, player=player)
    (event,) = [e for e in events if e.kind == "opposed_result"]
    return dict(event.data)


def test_opposed_both_sides_roll_and_the_higher_total_wins_by_the_difference() -> None:
    e = opposed(game(), "TEST Escrime AG CONTRE Isaac", 7, 3)
    assert (e["actor"]["total"], e["opponent"]["total"]) == (6 + 5 + 7, 6 + 5 + 3)
    assert (e["outcome"], e["margin"]) == ("win", 4)
    e = opposed(game(), "TEST Escrime AG CONTRE Isaac", 2, 9)
    assert (e["outcome"], e["margin"]) == ("loss", -7)


def test_opposed_result_reaches_both_players() -> None:
    _, events, _ = run(game(), "TEST Escrime AG CONTRE Isaac", 7, 3)
    assert [(e.kind, e.audience) for e in events] == [("opposed_result", Audience.to("Armand", "Isaac"))]
    assert Renderer("1626", "fr").event_text(events[0]) == (
        "Test n° 1, en opposition\u00a0: Armand de Sillègue, Escrime / Agilité\u00a0: 6 + 5 + d10 = 7 → 18\u00a0; "
        "contre Isaac de Porthau, Escrime / Agilité\u00a0: 6 + 5 + d10 = 3 → 14. Armand de Sillègue l'emporte de 4.")


def test_opposed_the_opponent_tests_the_same_talent_unless_told_ruling() -> None:
    e = opposed(game(), "TEST Discrétion AG CONTRE Isaac Vigilance PE", 5, 5)
    assert (e["actor"]["talent"], e["opponent"]["talent"], e["opponent"]["carac"]) == ("Discrétion", "Vigilance", "PE")
    e = opposed(game(), "TEST AG CONTRE Isaac", 5, 5)
    assert (e["opponent"]["double"], e["opponent"]["base"]) == (False, 12)
    e = opposed(game(), "TEST Escrime AG CONTRE Isaac de Porthau FO", 5, 5)
    assert (e["opponent"]["talent"], e["opponent"]["carac"], e["opponent"]["base"]) == ("", "FO", 10)


def test_opposed_each_side_has_its_modifier() -> None:
    e = opposed(game(), "TEST Escrime AG -2 CONTRE Isaac +1", 5, 5)
    assert (e["actor"]["total"], e["opponent"]["total"]) == (6 + 5 - 2 + 5, 6 + 5 + 1 + 5)


def test_opposed_each_side_rolls_its_own_dice_and_criticals() -> None:
    """Spécialiste 2d6 on his side only; a 10 re-rolled and added on the other (I.5 holds for any test)."""
    state = game(talents={**TALENTS, "Escrime": 7}, dons={"Spécialiste": ["Escrime"]})
    e = opposed(state, "TEST Escrime AG CONTRE Isaac", 3, 4, 10, 6)
    assert (e["actor"]["dice"], e["actor"]["total"]) == ("2d6", 6 + 7 + 7)
    assert (e["opponent"]["dice"], e["opponent"]["reroll"], e["opponent"]["total"]) == ("d10", 6, 6 + 5 + 16)
    assert (e["outcome"], e["margin"]) == ("loss", -7)


def test_opposed_prestige_counts_on_a_social_talent_of_either_side() -> None:
    e = opposed(game(prestige=600, reconnu=True), "TEST Baratin CH CONTRE Isaac Vigilance PE", 5, 5)
    assert e["actor"]["bonuses"] == [{"fr": "prestige, Homme de confiance", "en": "prestige, Trusted man", "value": 1}]


@pytest.mark.parametrize(("rule", "faces", "outcome", "rerolls"), [
    ("defender", (5, 5), "loss", []),
    ("draw", (5, 5), "draw", []),
    ("reroll", (5, 5, 4, 4, 8, 2), "win", [{"actor": 15, "opponent": 15}, {"actor": 19, "opponent": 13}]),
])
def test_opposed_a_tie_follows_the_option(rule: str, faces: tuple[int, ...], outcome: str,
                                          rerolls: list[dict[str, int]]) -> None:
    e = opposed(game(options={"opposed_ties": rule}), "TEST Escrime AG CONTRE Isaac", *faces)
    assert (e["outcome"], e["rerolls"], e["tie_rule"]) == (outcome, rerolls, rule)


def test_opposed_reroll_gives_up_after_five_ties() -> None:
    e = opposed(game(options={"opposed_ties": "reroll"}), "TEST Escrime AG CONTRE Isaac", *([5] * 12))
    assert (e["outcome"], len(e["rerolls"])) == ("draw", 5)


@pytest.mark.parametrize(("rule", "fr"), [
    ("defender", "Égalité (16 partout)\u00a0: l'avantage reste au défenseur, Isaac de Porthau."),
    ("draw", "Égalité (16 partout)\u00a0: personne ne l'emporte, le MJ tranche."),
])
def test_opposed_a_tie_is_worded(rule: str, fr: str) -> None:
    _, events, _ = run(game(options={"opposed_ties": rule}), "TEST Escrime AG CONTRE Isaac", 5, 5)
    assert Renderer("1626", "fr").event_text(events[0]).endswith(fr)


def test_opposed_against_a_PNJ_with_its_score_and_dice() -> None:
    """« on peut envisager qu'une caractéristique dépasse ce chiffre de 9 [...] pour un PNJ »: a PNJ is a score."""
    e = opposed(game(), "TEST Armand Escrime AG CONTRE Rochefort 19 2d6+2", 6, 3, 4, player=MJ)
    assert (e["opponent"]["name"], e["opponent"]["base"], e["opponent"]["dice"]) == ("Rochefort", 19, "2d6+2")
    assert (e["opponent"]["total"], e["outcome"], e["margin"]) == (19 + 3 + 4 + 2, "loss", 17 - 28)
    e = opposed(game(), "TEST Armand Escrime AG CONTRE le garde du Cardinal 12", 6, 3, player=MJ)
    assert (e["opponent"]["name"], e["opponent"]["total"]) == ("le garde du Cardinal", 15)


def test_opposed_line_errors_say_what_is_wrong() -> None:
    state = game()
    with pytest.raises(OrderSyntaxError, match="missing opponent"):
        RULESET.parse_order(state, "Armand", "TEST Escrime AG CONTRE", [])
    with pytest.raises(OrderNotAllowedError, match="against himself"):
        RULESET.parse_order(state, "Armand", "TEST Escrime AG CONTRE Armand", [])
    with pytest.raises(OrderSyntaxError) as caught:
        RULESET.parse_order(state, "Armand", "TEST Escrime AG SR 15 CONTRE Isaac", [])
    assert caught.value.msg.fr == "un test en opposition n'a pas de SR : le total de l'adversaire en tient lieu"
    with pytest.raises(OrderAmbiguousError, match="did you mean Isaac"):
        RULESET.parse_order(state, "Armand", "TEST Escrime AG CONTRE Isac", [])


def test_opposed_secret_only_the_actor_learns_that_a_test_happened_ruling() -> None:
    _, events, _ = run(game(), "TEST Discrétion AG CONTRE Isaac Vigilance PE SECRET", 5, 5)
    assert [(e.kind, e.audience) for e in events] == [("opposed_result", Audience.mj()),
                                                      ("test_secret", Audience.to("Armand"))]


def test_opposed_requested_then_rolled_by_the_MJ() -> None:
    state = game(options={"sr_by": "mj"})
    state, events, dice = run(state, "TEST Escrime AG CONTRE Isaac")
    assert dice.rolls == [] and events[0].kind == "test_request" and state.requests[0].opponent.player == "Isaac"
    _, events, _ = run(state, "LANCER n° 1", 7, 3, player=MJ)
    assert events[0].kind == "opposed_result" and events[0].data["number"] == 1
    _, events, _ = run(state, "SR 16", 7, player=MJ)  # the MJ may prefer a plain SR
    assert events[0].kind == "test_result" and events[0].audience == Audience.to("Armand")


def test_opposed_a_PNJ_the_player_names_waits_for_its_score() -> None:
    state, events, _ = run(game(options={"sr_by": "mj"}), "TEST Escrime AG CONTRE Rochefort")
    assert events[0].data["needs_score"]
    with pytest.raises(OrderSyntaxError) as caught:
        RULESET.parse_order(state, MJ, "LANCER n° 1", [])
    assert caught.value.msg.fr == "la demande n° 1 attend le score de Rochefort : LANCER n° 1 CONTRE Rochefort 15"
    _, events, _ = run(state, "LANCER n° 1 CONTRE Rochefort 16", 7, 3, player=MJ)
    assert (events[0].data["opponent"]["total"], events[0].data["outcome"]) == (19, "loss")


N = 20_000


def test_stats_equal_sides_win_45_45_percent_under_the_defender_rule() -> None:
    """Two d10 with the critical re-roll: P(tie) = 9 × 0.1² + 10 × 0.01² = 0.091, so P(win) = (1 − 0.091) / 2."""
    state = game()
    parsed = RULESET.parse_order(state, "Armand", "TEST Escrime AG CONTRE Isaac", [])
    wins = ties = 0
    for i in range(N):
        done = RULESET.immediate(state, "Armand", parsed, Dice(f"{i:08x}", "action-1"))
        assert done is not None
        data = done[1][0].data
        wins += data["outcome"] == "win"
        ties += data["margin"] == 0
    for count, p in ((wins, (1 - 0.091) / 2), (ties, 0.091)):
        assert abs(count - N * p) <= 3 * math.sqrt(N * p * (1 - p)), (count, p)
