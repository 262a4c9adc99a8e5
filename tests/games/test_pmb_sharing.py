"""How a Pour Ma Belle turn shares memory with the state it is given, and the resolution's indexes.

A turn copies a player only when it changes him (`State.fork`, `Ctx.writable`), a state read from JSON
holds one object per name and per word (`State.__post_load__`), and the per-turn indexes answer
what a roster scan would.  None of this may change a result: the state given stays as it was, the
JSON is the same, and the demo's golden files stay as they are (`tests/test_golden_demo.py`).
"""

from __future__ import annotations

import json

import pytest

from pbem import serial
from pbem.core import Order, OrderError, Seat
from pbem.dice import Dice
from pbem.games.pmb import RULESET
from pbem.games.pmb import roles as R
from pbem.games.pmb.bots import random_orders
from pbem.games.pmb.city import residents
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.state import State


def _bot_orders(state: State, seed: int) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for prompt in RULESET.prompts(state):
        p = prompt.player
        if p in orders:
            continue
        mine: list[Order] = []
        for line in random_orders(state, p, seed):
            try:
                mine.append(RULESET.parse_order(state, p, line, mine))
            except OrderError:
                pass
        orders[p] = mine or RULESET.default_orders(state, p)
    return orders


def _games(players: int, seed: int, options: dict[str, object]):  # type: ignore[no-untyped-def]
    """Each turn of a bot game: (state given, orders, state returned, events); every other state
    is read back from its JSON first, as the engine reads it."""
    hexseed = f"{seed:064x}"
    state, _ = RULESET.setup([Seat(f"Joueur {i:03d}") for i in range(players)], dict(options), Dice(hexseed, "setup"))
    for step in range(1, 40):
        if not RULESET.prompts(state):
            return
        if step % 2:
            state = serial.loads(State, serial.dumps(state))
        orders = _bot_orders(state, seed * 100 + step)
        before = serial.dumps(state)
        new, events = RULESET.resolve(state, orders, Dice(hexseed, f"step-{step}"))
        assert serial.dumps(state) == before, f"turn {step} changed the state it was given"
        yield state, orders, new, events
        state = new


OPTIONS = [{}, {"prison_turns": 1, "own_camp_attempt": "noms", "fidele_squads": "libre", "revelation": "role"},
           {"verdict_default": "mort", "squad_order": "alphabetique", "lord_commandant_counts": True}]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("players,seed", [(14, 1), (40, 2), (40, 3), (90, 4)])
def test_a_turn_leaves_the_state_it_was_given_as_it_was(players: int, seed: int, options: dict[str, object]) -> None:
    turns = 0
    hexseed = f"{seed:064x}"
    for state, orders, new, events in _games(players, seed, options):  # (checks each turn changed nothing)
        before = serial.dumps(state)
        again, again_events = RULESET.resolve(state, orders, Dice(hexseed, f"step-{state.turn}"))
        assert serial.dumps(state) == before
        assert serial.dumps(again) == serial.dumps(new)  # the same turn again: the same outcome
        assert serial.to_data(again_events) == serial.to_data(events)
        turns += 1
    assert turns >= 2


def test_a_turn_copies_only_the_players_it_changes_or_tells_something() -> None:
    shared = copied = 0
    for state, _orders, new, events in _games(40, 5, {}):
        told = {n for e in events for n in e.audience.players}
        for n in state.order:
            old_p, new_p = state.players[n], new.players[n]
            if serial.to_data(old_p) != serial.to_data(new_p):
                assert new_p is not old_p
                copied += 1
            elif n not in told:
                assert new_p is old_p, n  # untouched: the very same record
                shared += 1
    assert shared > 0 and copied > 0


def test_clone_shares_no_player_but_fork_shares_them_all() -> None:
    state, _ = RULESET.setup([Seat(f"Joueur {i:03d}") for i in range(40)], {}, Dice("ab" * 32, "setup"))
    clone, fork = state.clone(), state.fork()
    assert all(clone.players[n] is not state.players[n] for n in state.order)
    assert all(fork.players[n] is state.players[n] for n in state.order)
    assert fork.players is not state.players
    assert serial.dumps(clone) == serial.dumps(fork) == serial.dumps(state)


def test_a_loaded_state_holds_one_object_per_name_and_word_and_the_same_json() -> None:
    state, _ = RULESET.setup([Seat(f"Joueur {i:03d}") for i in range(40)], {}, Dice("cd" * 32, "setup"))
    text = serial.dumps(state)
    loaded = serial.loads(State, text)
    assert serial.dumps(loaded) == text
    keys = {n: n for n in loaded.players}
    words = {w: w for w in R.TEAMS + R.LANNISTER_CODES + R.REBEL_RANKS + R.LEVELS + (R.DONJON, R.CACHOTS)}
    for n in loaded.order:
        assert n is keys[n]
        p = loaded.players[n]
        assert p.name is keys[n]
        assert p.team is words[p.team] and p.rank is words[p.rank] and p.location is words[p.location]
        assert p.sergent is None or p.sergent is keys[p.sergent]
    assert all(n is keys[n] for n in loaded.donjon)
    # a state stored before: the same JSON with its keys in another order reads the same
    assert serial.dumps(serial.loads(State, json.dumps(json.loads(text)))) == text


def _scans(st: State) -> dict[str, object]:
    """What each index answers, by roster scans of ``st``."""
    players, order = st.players, st.order
    out: dict[str, object] = {}
    for rank in R.LANNISTER_CODES + R.REBEL_RANKS:
        out[f"rank {rank}"] = [n for n in order if players[n].rank == rank]
    out["donjon"] = [n for n in order if players[n].alive and players[n].location == R.DONJON]
    for team in R.TEAMS:
        out[f"team {team}"] = [n for n in order if players[n].team == team and players[n].alive]
        chef = st.chef(team)
        out[f"chef {team}"] = chef.name if chef else None
    lc = st.lord_commandant()
    out["lord"] = lc.name if lc else None
    for s in [n for n in order if players[n].rank == R.SERGENT]:
        p = players[s]
        out[f"hms {s}"] = [n for n in order if (q := players[n]).alive and q.team == p.team and q.rank == R.HM
                           and q.sergent == s]
    for level in R.LEVELS:
        out[f"level {level}"] = residents(st, level)
    out["loose"] = [n for n in order if (q := players[n]).alive and q.rank == R.HM and q.sergent is None]
    return out


def _indexed(ctx: Ctx) -> dict[str, object]:
    st = ctx.st
    out: dict[str, object] = {}
    for rank in R.LANNISTER_CODES + R.REBEL_RANKS:
        out[f"rank {rank}"] = [n for n in ctx.holders(rank) if st.players[n].rank == rank]
    out["donjon"] = ctx.donjon_residents()
    for team in R.TEAMS:
        out[f"team {team}"] = [p.name for p in ctx.team_members(team)]
        chef = ctx.chef(team)
        out[f"chef {team}"] = chef.name if chef else None
    lc = ctx.lord_commandant()
    out["lord"] = lc.name if lc else None
    for s in [n for n in st.order if st.players[n].rank == R.SERGENT]:
        out[f"hms {s}"] = ctx.hms_of(s, st.players[s].team)
    for level, names in ctx.level_residents().items():
        out[f"level {level}"] = names
    out["loose"] = ctx.loose_hms()
    return out


@pytest.mark.parametrize("seed", [6, 7])
def test_the_resolution_indexes_answer_what_a_roster_scan_would_also_after_changes(seed: int) -> None:
    checked = 0
    for state, orders, _new, _events in _games(40, seed, {}):
        ctx = Ctx(state.fork(), Dice("ef" * 32, "test"))
        for verb in ("ESCOUADE", "SORTIR", "TRAHIR"):
            assert ctx.ordered(orders).names(verb) == [n for n in state.order if any(o.verb == verb for o in orders.get(n, ()))]
            # each player's first order of the verb, by roster position
            assert [ctx.ordered(orders).first(i, verb) for i in range(len(state.order))] == [
                next((o for o in orders.get(n, ()) if o.verb == verb), None) for n in state.order]
        assert _indexed(ctx) == _scans(ctx.st)
        # changes made during a turn: the indexes follow them
        living = [n for n in state.order if state.players[n].alive]
        hm = next((n for n in living if state.players[n].rank == R.HM), None)
        if hm is not None:
            ctx.set_rank(hm, R.SERGENT)
            other = next(n for n in living if n != hm and state.players[n].rank == R.HM)
            ctx.set_sergent(other, hm)
        ctx.set_location(living[-1], R.DONJON)
        ctx.set_rank(living[1], R.FIDELE)
        ctx.kill(living[2], "test", "")
        # changes that bypass the set_* helpers (a record changed through `writable`): the level and loose
        # indexes test again whoever was copied
        mover = next(n for n in living[3:] if ctx.p(n).location in R.LEVELS and ctx.p(n).alive)
        ctx.writable(mover).location = next(lv for lv in R.LEVELS if lv != ctx.p(mover).location)
        hider = next(n for n in living[3:] if n != mover and ctx.p(n).location in R.LEVELS and ctx.p(n).alive)
        ctx.writable(hider).hidden = True
        loose = next((n for n in living[3:] if ctx.p(n).rank == R.HM and n not in (mover, hider)), None)
        if loose is not None:
            ctx.set_sergent(loose, None)
        assert _indexed(ctx) == _scans(ctx.st)
        assert ctx.roster == [ctx.st.players[n] for n in state.order]
        # the records at the start of the turn stay those of the state given, copied players too
        assert all(ctx.at_start(i) is state.players[n] for i, n in enumerate(state.order))
        assert any(ctx.at_start(i) is not ctx.roster[i] for i in range(len(state.order)))
        assert serial.dumps(state) != serial.dumps(ctx.st)  # the fork changed, not the state
        checked += 1
    assert checked >= 2
