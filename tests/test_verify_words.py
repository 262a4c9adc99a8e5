"""`pbem verify` says every problem in the reader's language: the step in words, each roll's purpose in words
(the game's dice texts, as in the MJ's digest), never the English key that seeds the dice."""

from __future__ import annotations

from typing import Any

from pbem.audit import verification_report, verify_export
from pbem.dice import commitment, derive

SEED = "ab" * 32


def _export(rolls: list[tuple[str, str, int]], *, ruleset: str = "pmb") -> dict[str, Any]:
    """An export whose every roll (context, purpose, range 1..high) is recorded one more than the seed gives."""
    records = []
    for context, purpose, high in rolls:
        given = derive(SEED.encode("ascii"), context, purpose, 0, 1, high)
        records.append({"dice_context": context, "rolls": [[purpose, 1, high, given % high + 1]]})
    return {"ruleset": ruleset, "commitment": commitment(SEED), "seed": SEED, "records": records}


def test_a_wrong_roll_is_said_in_french_with_the_step_and_the_purpose_in_words() -> None:
    export = _export([("step-2", "roles", 6), ("step-3", "Arya leaves Visenya (70%)", 100), ("setup", "roles", 6)])
    lines, ok = verification_report(export, None, "fr")
    assert not ok and len(lines) == 3
    assert lines[0].startswith("étape 2, jet 0 (attribution des rôles)\u00a0: ") and "enregistré, la graine donne" in lines[0]
    assert lines[1].startswith("étape 3, jet 0 (Arya quitte Visenya (70\u00a0%))\u00a0: ")  # (a purpose with brackets)
    assert lines[2].startswith("mise en place, jet 0 (attribution des rôles)")
    for line in lines:
        assert "roll" not in line and "seed" not in line and "step" not in line


def test_the_same_in_english() -> None:
    lines, ok = verification_report(_export([("step-2", "order of the squads", 6), ("action-7", "roles", 6)]), None, "en")
    assert not ok
    assert lines[0].startswith("step 2, roll 0 (order of the squads): recorded ") and ", the seed gives " in lines[0]
    assert lines[1].startswith("action 7, roll 0 (roles): recorded ")


def test_the_seed_problems_and_the_all_good_line_in_both_languages() -> None:
    export = _export([])
    assert verification_report({**export, "seed": None}, None, "fr")[0] == [
        "pas de graine\u00a0: la partie n'est pas finie (le MJ la révèle à la fin)\u00a0; donnez --seed"]
    assert verification_report({**export, "seed": None}, None, "en")[0][0].startswith("no seed: the game is not over")
    wrong = verification_report(export, "cd" * 32, "fr")[0]
    assert wrong == [f"la graine ne correspond pas à l'empreinte publiée {commitment(SEED)}"]
    assert verification_report(export, None, "fr") == (
        ["OK\u00a0: la graine correspond à son empreinte\u00a0; aucun jet à recalculer"], True)
    good = {**export, "records": [{"dice_context": "step-1", "rolls": [["roles", 1, 6, derive(
        SEED.encode("ascii"), "step-1", "roles", 0, 1, 6)]]}]}
    assert verification_report(good, None, "fr")[0] == [
        "OK\u00a0: la graine correspond à son empreinte\u00a0; 1 jet recalculé, identique"]
    assert verification_report(good, None, "en")[0] == ["OK: seed matches the commitment, 1 roll re-derived identically"]


def test_the_english_lines_for_logs_and_scripts_keep_the_keys() -> None:
    problems, count = verify_export(_export([("step-2", "roles", 6)]), None)
    assert count == 1 and problems[0].startswith("step-2 roll 0 (roles): recorded ")
