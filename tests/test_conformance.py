"""The conformance test every ruleset must pass: random legal play for many seeds, through the ruleset API.

Invariants: no crash; states round-trip through JSON; events carry JSON data and valid audiences;
every event kind has a template macro in French and English; the same seed and orders replay
byte for byte; games with turns end.  The toy ruleset proves simultaneous and sequential steps
fit the one interface.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from dataclasses import dataclass

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from fresh import digest, replay

from pbem import games, serial
from pbem.core import MJ, PUBLIC, Event, OrderError, Seat
from pbem.dice import Dice
from pbem.render import Renderer

Bot = Callable[[object, str, int], list[str]]
pytestmark = pytest.mark.xdist_group("conformance")  # one worker plays each game once (`played`) for all tests


def _toy_bot(state, player, seed) -> list[str]:
    rng = random.Random(seed)
    if state.step % 2 == 0:
        return [f"GIFT {rng.choice(state.players)}"]
    return [f"GUESS {rng.randint(1, 10)}"]


def _bot(name: str) -> Bot:
    if name == "toy":
        return _toy_bot
    bots = games.entry(name).bots
    assert bots is not None, f"{name} has no bots"
    random_orders: Bot = games.load(bots)
    return random_orders


ROSTERS = {
    "toy": [f"Joueur {i}" for i in range(4)],
    "pmb": [f"Joueur {i:02d}" for i in range(40)],
    "intrigue": ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"],
    "pourleroi": ["Colbert", "Fouquet", "Louvois", "Séguier", "Vauban"],
    "courtisans": ["Madame de la Vilenie", "Monsieur de Malveyance", "Fourberye", "Mme d'Aubigny"],
}
TURN_GAMES = ["toy", "pmb", "intrigue", "pourleroi", "courtisans"]
MAX_STEPS = {"pourleroi": 400}  # one step per card the donor places: about 150 at five players


def play(name: str, seed: int, max_steps: int | None = None, purposes: set[str] | None = None) -> list[str]:
    """Play a whole game; return a transcript of canonical JSON lines (states and events).

    ``purposes`` collects what every roll was for (the dice record each draw)."""
    ruleset = games.get(name)
    bot = _bot(name)
    seed_hex = f"{seed:064x}"
    rolled = purposes if purposes is not None else set()
    dice = Dice(seed_hex, "setup")
    state, events = ruleset.setup([Seat(n) for n in ROSTERS[name]], dict(ruleset.default_options), dice)
    rolled.update(r.purpose for r in dice.rolls)
    transcript = [serial.dumps(state), _check_events(ruleset, state, events)]
    for step in range(1, (max_steps or MAX_STEPS.get(name, 120)) + 1):
        prompts = ruleset.prompts(state)
        if not prompts:
            break
        orders = {}
        for player in dict.fromkeys(p.player for p in prompts):
            accepted = []
            for line in bot(state, player, seed * 1000 + step):
                try:
                    accepted.append(ruleset.parse_order(state, player, line, accepted))
                except OrderError as e:  # a bot may try an order the rules refuse; the reason must be worded
                    assert e.msg.fr and e.msg.en
            orders[player] = accepted or ruleset.default_orders(state, player)
        dice = Dice(seed_hex, f"step-{step}")
        state, events = ruleset.resolve(state, orders, dice)
        rolled.update(r.purpose for r in dice.rolls)
        again = serial.loads(ruleset.state_type, serial.dumps(state))
        assert serial.dumps(again) == serial.dumps(state)
        for viewer in [*ruleset.players(state), MJ, PUBLIC]:
            json.dumps(ruleset.view(state, viewer))
        transcript += [serial.dumps(state), _check_events(ruleset, state, events)]
    return transcript


def _check_events(ruleset, state, events: list[Event]) -> str:
    players = set(ruleset.players(state))
    for e in events:
        assert e.audience.kind in ("public", "players", "mj")
        assert set(e.audience.players) <= players, (e.kind, e.audience.players)
        for lang in ("fr", "en") if ruleset.name != "toy" else ():  # the toy renders through the generic fallback
            assert Renderer(ruleset.name, lang).has_macro(e.kind), f"{ruleset.name}: no {lang} macro for {e.kind}"
    return json.dumps([[e.kind, e.audience.kind, list(e.audience.players), serial.to_data(e.data)] for e in events],
                      sort_keys=True, ensure_ascii=False)


SEEDS = range(6)
REPLAYED_SEEDS = range(2)
"""The seeds also played again in a fresh process (with other string hashes): a replay costs as much as the game,
and what it checks (no set order, no hash leaks into the transcript) does not depend on the seed's dice; the
golden set and the by-mail tests replay every game in other processes too."""


@dataclass(frozen=True)
class Played:
    transcript: list[str]
    purposes: frozenset[str]


@functools.cache
def played(name: str, seed: int) -> Played:
    """Each game of the conformance run played once per process (the replay test and the roll labels share it)."""
    purposes: set[str] = set()
    return Played(play(name, seed, purposes=purposes), frozenset(purposes))


def replay_digests(name: str) -> dict[str, str]:
    """(run by `fresh.replay` in another process) the digest of each seed's transcript."""
    return {str(seed): digest(play(name, seed)) for seed in REPLAYED_SEEDS}


@functools.cache
def replayed(name: str) -> dict[str, str]:
    return replay("test_conformance:replay_digests", name)


@pytest.mark.parametrize("name", TURN_GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_play_ends(name, seed):
    """A whole game of random legal orders ends with an outcome."""
    first = played(name, seed).transcript
    assert games.get(name).outcome(serial.loads(games.get(name).state_type, first[-2])) is not None, \
        f"{name} seed {seed}: no outcome"


@pytest.mark.parametrize("name", TURN_GAMES)
@pytest.mark.parametrize("seed", REPLAYED_SEEDS)
def test_random_legal_play_replays_identically_in_a_fresh_process(name, seed):
    """The same seed and orders give the same transcript byte for byte in another process, whose string hashes
    (so set orders) differ from this one's."""
    assert replayed(name)[str(seed)] == digest(played(name, seed).transcript)


def test_toy_has_simultaneous_and_sequential_steps():
    ruleset = games.get("toy")
    state, _ = ruleset.setup([Seat(n) for n in ROSTERS["toy"]], {"steps": 4}, Dice("00" * 32, "setup"))
    assert len(ruleset.prompts(state)) == 4
    state, _ = ruleset.resolve(state, {p.player: ruleset.default_orders(state, p.player)
                                       for p in ruleset.prompts(state)}, Dice("00" * 32, "step-1"))
    assert len(ruleset.prompts(state)) == 1


def immediate_1626_tests(purposes: set[str] | None = None) -> list[str]:
    """200 immediate tests of 1626 (FICHE, TEST …) by the characters in turn: what each told whom."""
    ruleset = games.get("1626")
    from pathlib import Path

    from pbem.games.g1626.sheet import seats_from_toml

    seats = seats_from_toml((Path(__file__).resolve().parents[1] / "data/1626/personnages.toml").read_text())
    dice = Dice("11" * 32, "setup")
    state, _ = ruleset.setup(seats, dict(ruleset.default_options), dice)
    if purposes is not None:
        purposes.update(r.purpose for r in dice.rolls)
    assert ruleset.prompts(state) == []
    out = []
    for i in range(200):
        player = seats[i % len(seats)].name
        line = random.Random(i).choice(["TEST Escrime AG SR 15", "TEST PE SR 12", "FICHE", "TEST Latin EDU SR 19"])
        order = ruleset.parse_order(state, player, line, [])
        dice = Dice("11" * 32, f"action-{i}")
        done = ruleset.immediate(state, player, order, dice)
        assert done is not None
        if purposes is not None:
            purposes.update(r.purpose for r in dice.rolls)
        state, events = done
        out.append(_check_events(ruleset, state, events))
    return out


@functools.cache
def immediate_1626_played() -> Played:
    purposes: set[str] = set()
    return Played(immediate_1626_tests(purposes), frozenset(purposes))


def immediate_1626_digest() -> str:
    """(run by `fresh.replay` in another process)"""
    return digest(immediate_1626_tests())


def test_1626_immediate_tests_replay_identically():
    assert replay("test_conformance:immediate_1626_digest") == digest(immediate_1626_played().transcript)


@pytest.mark.parametrize("name", ["pmb", "intrigue", "1626", "toy", "pourleroi", "courtisans"])
def test_order_parser_answers_any_text_with_an_order_or_an_order_error(name):
    """Property test: whatever a player types, parse_order returns an Order or raises one of the three errors."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    ruleset = games.get(name)
    if name == "1626":
        from pathlib import Path

        from pbem.games.g1626.sheet import seats_from_toml

        seats = seats_from_toml((Path(__file__).resolve().parents[1] / "data/1626/personnages.toml").read_text())
    else:
        seats = [Seat(n) for n in ROSTERS[name]]
    state, _ = ruleset.setup(seats, dict(ruleset.default_options), Dice("99" * 32, "setup"))
    players = [*ruleset.players(state)[:5], MJ]
    words = st.sampled_from(["ESCOUADE", "TEST", "POT-DE-VIN", "PLACER", "CHEZ", "SR", "15", "AG", "Escrime",
                             "GARDER", "POSTE", "VERDICT", "MORT", "POTION", "poison", "100000", "-3", "é", "",
                             "NEUTRE", "CENTRE", "CHOIX", "ENCHERE", "PASSE", "ROI", "DEFAUSSE", "Guerre", "C",
                             "Or", "2", "+", "(3)", "GUE-C",
                             "JOUER", "SUR", "ROI", "REINE", "DONNER", "A", "MAISON", "n°60", "Lettre", "CHASSE",
                             "POUVOIR", "AMENDE", "moi", "PARTI", "RAGOTS", "EXIL", "de", "la",
                             *ruleset.players(state)[:5]])
    text = st.one_of(st.text(max_size=60), st.lists(words, max_size=6).map(" ".join))

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(text, st.sampled_from(players))
    def check(line, player):
        try:
            order = ruleset.parse_order(state, player, line, [])
        except OrderError as e:
            assert e.msg.fr and e.msg.en
        else:
            json.dumps(list(order.args))

    check()


def test_every_roll_of_a_game_says_in_french_what_it_was_for():
    """The MJ's digest lists each roll's purpose: every purpose the games use has a French label."""
    from pbem.render import dice_label

    seen: dict[str, set[str]] = {}
    for name in ("pmb", "intrigue", "pourleroi", "courtisans"):
        for seed in SEEDS:
            seen.setdefault(name, set()).update(played(name, seed).purposes)
    seen["1626"] = set(immediate_1626_played().purposes)
    assert all(seen.values())
    assert {"pmb", "intrigue", "1626", "pourleroi", "courtisans"} <= set(seen)
    untranslated = {(game, p) for game, purposes in seen.items() for p in purposes if dice_label(p, game, "fr") == p}
    assert not untranslated
    assert dice_label("Joueur 07 leaves Visenya (40%)", "pmb", "fr") == "Joueur 07 quitte Visenya (40\u00a0%)"
    assert dice_label("Joueur 07 leaves Visenya (40%)", "pmb", "en") == "Joueur 07 leaves Visenya (40%)"
