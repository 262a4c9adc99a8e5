"""Pour Ma Belle at large rosters: costs that grow with the work, not with its square, and the same
bytes whatever the process.

Counted in steps, never timed: the elements a player's ``knowledge`` copies when it grows (a set that
counts its own unions), and the lines the set-up executes.  A player told thousands of facts in one
turn (the Conseil member who survives a squad of thousands, the chef who takes in a beaten clan's
survivors, the chef told his clan at set-up) has his records copied once, not once per fact; and a
resolution replayed in a fresh process with another string hash seed gives the same bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pbem.core import Seat
from pbem.dice import Dice
from pbem.games.pmb import RULESET
from pbem.games.pmb import setup as pmb_setup
from pbem.games.pmb.state import Player, State

from .test_pmb_helpers import ROSTER, new_game, play, to

ROOT = Path(__file__).resolve().parents[2]


class CountingSet(frozenset[str]):
    """A knowledge set that adds to ``copied`` the elements each union copies (its own and the other's)."""

    copied = 0

    def __or__(self, other: Any) -> CountingSet:
        CountingSet.copied += len(self) + len(other)
        return CountingSet(frozenset.__or__(self, other))

    __ror__ = __or__


def _counting(player: Player) -> None:
    player.knowledge = CountingSet(player.knowledge)


def _hms(team: str, k: int) -> list[tuple[str, str, str | None, str | None]]:
    return [(f"{team.capitalize()} {i:04d}", f"{team}_hm", "culpucier", None) for i in range(k)]


@pytest.mark.parametrize("k", [200, 600])
def test_a_conseil_member_told_every_member_of_a_big_failed_squad_copies_his_knowledge_once(k: int) -> None:
    st = new_game(ROSTER + _hms("stark", k))
    crowd = [name for name, *_ in _hms("stark", k)]
    _counting(st.players["Varys"])
    before = len(st.players["Varys"].knowledge)
    CountingSet.copied = 0
    new, ev = play(st, {m: ["ESCOUADE Varys"] for m in crowd})  # FakeDice: the 80 % roll fails
    varys = new.players["Varys"]
    assert varys.alive
    assert len(to(ev, "Varys", "target_learned")[0]["facts"]) == k
    assert {f"{m}|role|stark_hm" for m in crowd} | {f"{m}|team|stark" for m in crowd} <= varys.knowledge
    assert all(varys.knows_role(m) == "stark_hm" for m in crowd)
    # one union of his knowledge and the turn's 2k new facts (one per fact copied it k times: ~k² elements)
    assert CountingSet.copied <= before + 2 * k
    assert st.players["Varys"].knowledge is not varys.knowledge and len(st.players["Varys"].knowledge) == before


def test_the_chef_who_takes_in_a_beaten_clans_survivors_copies_his_knowledge_once() -> None:
    k = 400
    st = new_game(ROSTER + _hms("tyrell", k))
    _counting(st.players["Robb"])
    before = len(st.players["Robb"].knowledge)
    CountingSet.copied = 0
    new, ev = play(st, {"Robb": ["ESCOUADE Margaery"], "Jon": ["ESCOUADE Margaery"]})
    assert not new.players["Margaery"].alive and "tyrell" in new.defeated
    joined = [n for n in new.order if st.players[n].team == "tyrell" and new.players[n].team == "stark"]
    assert len(joined) > k // 2
    told = {e["homme"]["player"] for e in to(ev, "Robb", "new_homme_de_main")}
    assert told == set(joined)
    robb = new.players["Robb"]
    assert {f"{n}|role|stark_hm" for n in joined} <= robb.knowledge
    # his records once (with the turn's other few facts: Margaery's role), not once per newcomer
    assert CountingSet.copied <= before + 2 * (len(joined) + 5)


def _entries_held(players: Any) -> int:
    """The entries of every player's ``latest`` and ``knowledge``, each object counted once however
    many players share it (a group lesson's mapping and facts: `Beliefs`, `Knowledge`)."""
    seen: set[int] = set()

    def count(obj: Any) -> int:
        if obj is None or id(obj) in seen:
            return 0
        seen.add(id(obj))
        if hasattr(obj, "group"):  # a Beliefs: its own lessons over a shared group over what was before
            return count(obj.own) + count(obj.group) + count(obj.below)
        if hasattr(obj, "shared"):  # a Knowledge: own facts and shared sets
            return count(obj.own) + sum(count(group) for group in obj.shared)
        return len(obj)

    return sum(count(p.latest) + count(p.knowledge) for p in players.values())


def _alliance_on_a_garde(k: int) -> tuple[State, State, list[str]]:
    """A squad of Jon, ``k`` Stark Hommes de Main and two Tyrell on the Garde Jaime (an alliance: each
    member learns every member's affiliation): the state before, after, and the members."""
    st = new_game(ROSTER + _hms("stark", k))
    members = ["Jon", *(name for name, *_ in _hms("stark", k)), "Garlan", "Willas"]
    new, ev = play(st, {m: ["ESCOUADE Jaime"] for m in members})
    [formed] = to(ev, "Jon", "squad_formed")
    assert len(formed["teams"]) == len(members)
    return st, new, members


def test_an_alliance_squad_of_thousands_holds_its_shared_lesson_once_not_once_per_member() -> None:
    small_before, small, _ = _alliance_on_a_garde(100)
    big_before, big, members = _alliance_on_a_garde(400)
    # what each member believes and knows: every member's affiliation, as if told one by one
    for m in ("Jon", "Stark 0000", "Stark 0399", "Garlan"):
        p = big.players[m]
        assert all(p.knows_team(x) == big_before.players[x].team for x in members)
        assert {f"{x}|team|{big_before.players[x].team}" for x in members} <= p.knowledge
        walked = dict(p.latest.items())  # walked as the dict it stands for, read name by name alike
        assert walked.keys() >= set(members) | big_before.players[m].latest.keys()
        assert all(p.latest[x] == v and p.latest.get(x) == v for x, v in walked.items())
    # an affiliation that agrees with a role believed does not replace it
    assert big.players["Stark 0000"].knows_role("Stark 0000") == "stark_hm"
    # ×4 members: about ×4 entries held (each member told all: ×16)
    grown = _entries_held(big.players) - _entries_held(big_before.players)
    grown_small = _entries_held(small.players) - _entries_held(small_before.players)
    assert grown <= 6 * grown_small


def _setup_with_counting_knowledge(n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[State, int]:
    """A set-up of ``n`` players whose knowledge sets count what their unions copy."""
    def counted(**kwargs: Any) -> Player:
        return Player(**kwargs, knowledge=CountingSet())

    monkeypatch.setattr(pmb_setup, "Player", counted)
    CountingSet.copied = 0
    st, _ = RULESET.setup([Seat(f"Joueur {i:05d}") for i in range(n)], {}, Dice("5e" * 32, "setup"))
    return st, CountingSet.copied


def test_the_set_up_copies_knowledge_in_proportion_to_the_roster(monkeypatch: pytest.MonkeyPatch) -> None:
    small, copied_small = _setup_with_counting_knowledge(400, monkeypatch)
    big, copied_big = _setup_with_counting_knowledge(4000, monkeypatch)
    chef = next(p for p in big.players.values() if p.code == "stark_chef")
    assert len(chef.knowledge) == 2 * sum(1 for p in big.players.values() if p.team == "stark")  # told his clan
    # ×10 players: about ×10 copied (the chef told his clan one member at a time made it about ×60)
    assert copied_big <= 14 * copied_small


def _lines_run(fn: Callable[[], object], filename: str) -> int:
    """How many line events the code of ``filename`` produces while ``fn`` runs."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def call(frame: Any, event: str, arg: Any) -> Any:
        return local if frame.f_code.co_filename == filename else None

    sys.settrace(call)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def test_the_set_up_runs_in_steps_proportional_to_the_roster() -> None:
    def setup(n: int) -> Callable[[], object]:
        return lambda: RULESET.setup([Seat(f"Joueur {i:05d}") for i in range(n)], {}, Dice("5e" * 32, "setup"))

    small = _lines_run(setup(400), pmb_setup.__file__)
    big = _lines_run(setup(4000), pmb_setup.__file__)
    assert small > 1000
    # ×10 players, about ×10 steps (the sergents' loads counted with one pass over the Hommes de Main
    # per sergent made it about ×40)
    assert big <= 14 * small


# --- the same bytes in another process ---

REPLAY = textwrap.dedent("""
    import gc, hashlib, json, sys
    from pbem import serial
    from pbem.core import OrderError, Seat
    from pbem.dice import Dice
    from pbem.games.pmb import RULESET as rs
    from pbem.games.pmb.bots import random_orders
    n, seed, turns = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    state, events = rs.setup([Seat(f"Joueur {i:05d}") for i in range(n)], {}, Dice(seed, "setup"))
    out = []
    for step in range(1, turns + 1):
        orders = {}
        for i, prompt in enumerate(rs.prompts(state)):
            if prompt.player in orders:
                continue
            mine = []
            for line in random_orders(state, prompt.player, step * 100_000 + i):
                try:
                    mine.append(rs.parse_order(state, prompt.player, line, mine))
                except OrderError:
                    pass
            orders[prompt.player] = mine or rs.default_orders(state, prompt.player)
        state = serial.loads(rs.state_type, serial.dumps(state))  # as the engine reads it
        gc.disable()  # as the engine resolves (`run_resolve`)
        state, events = rs.resolve(state, orders, Dice(seed, f"step-{step}"))
        gc.enable()
        text = serial.dumps(state)
        told = json.dumps(serial.to_data(events), sort_keys=True, ensure_ascii=False)
        biggest = max((len(e.data["members"]) for e in events if e.kind == "squad_resolved"), default=0)
        learned = max((len(e.data["facts"]) for e in events if e.kind == "target_learned"), default=0)
        out.append([hashlib.sha256(text.encode()).hexdigest(), hashlib.sha256(told.encode()).hexdigest(),
                    biggest, learned])
    print(json.dumps(out))
""")


def _replays(n: int, seed: str, turns: int, hashseeds: list[str]) -> list[list[list[Any]]]:
    """The replay's output in a fresh process for each hash seed (the processes run side by side)."""
    procs = [subprocess.Popen([sys.executable, "-c", REPLAY, str(n), seed, str(turns)],
                              env=dict(os.environ, PYTHONHASHSEED=h, PYTHONPATH=str(ROOT)),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for h in hashseeds]
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 0, stderr[-2000:]
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def test_a_large_resolution_gives_the_same_bytes_in_a_fresh_process_with_another_hash_seed() -> None:
    # 3,000 players: the turn holds a Stark crowd of 575 that fails against a Conseil member, who learns
    # every member's role (sets of thousands of facts, iterated in an order that the hash seed decides)
    first, second = _replays(3000, "0005" * 16, 1, ["0", "4242"])
    assert first == second
    [(_state, _events, biggest, learned)] = first
    assert biggest >= 300 and learned >= 300

