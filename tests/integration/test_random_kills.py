"""A multi-step game driven by real `pbem tick` processes SIGKILLed after random delays, compared with the
same game run without a kill: final export, every table that matters, and the (Message-ID, body) of every
mail the SMTP server accepted.  The kills do not use `pbem.faults` crash points: they land wherever the
process is (starting up, fetching, inside a batch, resolving, sending).  `make soak` runs the long version.
"""

from __future__ import annotations

import random

import pytest
from campaign import compare, make_run, run_pass, schedule, setup_game, snapshot

pytestmark = pytest.mark.mail  # loopback servers (its own scripted SMTP server)

STEPS = 4
PLAYERS = 6
KILLS_PER_PASS = 2  # 9 passes: 18 kills, about half a minute


def _play(root, kills: int, seed: int):
    run = make_run(root, steps=STEPS)
    try:
        rng = random.Random(seed)
        seating = setup_game(run, PLAYERS)
        for p in schedule(seating, STEPS):
            rc = run_pass(run, p, rng, kills=kills)
            assert rc == 0, f"the tick at {p.now} ended with {rc}"
        return run, snapshot(run)
    finally:
        run.close()


def test_random_sigkills_change_nothing_and_lose_nothing(tmp_path):
    _ref_run, reference = _play(tmp_path / "reference", kills=0, seed=1)
    run, crashed = _play(tmp_path / "killed", kills=KILLS_PER_PASS, seed=2026)
    assert run.kills >= KILLS_PER_PASS * 9 * 3 // 4  # the kills landed while a tick was running (tried again if not)
    result = compare(reference, crashed)
    assert result.differing == [] and result.missing == 0 and result.changed == 0, result
    # a mail is sent again only when a kill fell between its SMTP send and its bookkeeping (written after each
    # mail): at most one mail per kill; without kills, none
    assert result.duplicated <= run.kills, (result.duplicated, run.kills)
    assert sum(len(c) - 1 for c in reference["copies"].values()) == 0
    # the game really went through its steps and mailed everyone
    assert reference["tables"]["games"][0][2] == "finished"
    assert len(reference["copies"]) >= 6 * STEPS
