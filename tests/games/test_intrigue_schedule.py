"""Intrigue: the simultaneous schedule pays every post as many rounds as the sequential reading.

Rule sentences: « 1° ) Prendre ses revenus … 2° ) Gérer son Palace … 3° ) Placer ses Conseillers »
and « Après que le dernier joueur ait placé ses 2 derniers Conseillers (après 5 tours), on effectue
un 6ème tour sans placer de Conseillers et on finit par un 7ème tour durant lequel on ne fait que
prendre ses revenus ».  In the sequential reading a counsellor placed in round r is first paid in
round r+1, whichever side of the palace owner its player sits: the owner manages his park before
the next income of the placer.  The simultaneous schedule (placements, sealed bribes, decisions,
then the next round's income) must give the same count for the same placements and decisions.

"The same placements and decisions" needs both modes to manage the same counsellors together.
Sequentially, a palace's owner manages what the players after him placed in the previous round
with what the players before him placed in this one; simultaneously, a round's placements are
managed together.  The games below place so that both groupings agree (4 players A, B, C, D in
that seating order): B receives only from C and D, C only from A and B.  Every decision is the
rule's default for the bribes paid, and each bribe depends only on (player, palace, motif), so both
modes decide alike.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import pytest

from pbem.core import Order, Seat
from pbem.dice import Dice
from pbem.games.intrigue import RULESET as R
from pbem.games.intrigue import IntrigueState, invariant_problems
from pbem.games.intrigue.decisions import bribe_targets
from pbem.games.intrigue.state import MOTIFS

A, B, C, D = "Alice", "Bob", "Carla", "Dino"
SEATS = (A, B, C, D)
ALLOWED_TARGETS: Mapping[str, tuple[str, ...]] = {A: (C, D), B: (A, C, D), C: (A, B, D), D: (A, B)}
"""Who places where so that both modes manage the same counsellors together (see the module docstring)."""

Plan = dict[tuple[int, str], list[tuple[str, str]]]
"""(round, player) -> the two (motif, palace owner) placements of that player in that round."""
Bribe = Callable[[str, str, str], int]
"""(player, palace owner, motif) -> the bribe that player pays for that counsellor, at every stage."""


def random_plan(seed: int, targets: Mapping[str, Sequence[str]] = ALLOWED_TARGETS) -> Plan:
    rng = random.Random(seed)
    plan: Plan = {}
    for player in SEATS:
        hand = [m for m in MOTIFS for _ in range(2)]
        rng.shuffle(hand)
        for rnd in range(1, 6):
            where = rng.sample(list(targets[player]), 2)
            plan[(rnd, player)] = [(hand.pop(), where[0]), (hand.pop(), where[1])]
    return plan


def bribe_rule(seed: int) -> Bribe:
    def amount(player: str, palace: str, motif: str) -> int:
        return 10_000 * ((seed + SEATS.index(player) * 3 + SEATS.index(palace) + MOTIFS.index(motif)) % 3)
    return amount


def play(mode: str, plan: Plan, bribe: Bribe) -> tuple[IntrigueState, Counter[tuple[str, int, str]]]:
    """A whole game with these placements and bribes, every other decision the rule's default.

    Returns the final state and how many times each post paid each player: (palace, value, player) -> n.
    """
    st, ev = R.setup([Seat(s) for s in SEATS], {"mode": mode, "seating": "roster"}, Dice("5eed", "setup"))
    paid: Counter[tuple[str, int, str]] = Counter()
    events = [ev]
    for step in range(2000):
        for batch in events:
            for e in batch:
                if e.kind == "income":
                    for d in e.data["detail"]:
                        paid[(d["palace"], d["value"], e.data["player"])] += 1
        if st.over:
            return st, paid
        orders: dict[str, list[Order]] = {}
        for prompt in R.prompts(st):
            p, kind = prompt.player, prompt.kind
            if kind == "place":
                lines = [f"PLACER {m} CHEZ {t}" for m, t in plan[(st.round, p)]]
            elif kind == "bribe":
                lines = [f"POT-DE-VIN {pal} {m} {bribe(p, pal, m)}" for pal, m in bribe_targets(st, p)]
            else:
                orders[p] = R.default_orders(st, p)
                continue
            acc: list[Order] = []
            for line in lines:
                acc.append(R.parse_order(st, p, line, acc))
            orders[p] = acc
        st, ev = R.resolve(st, orders, Dice("5eed", f"step-{step}"))
        assert not invariant_problems(st), invariant_problems(st)
        events = [ev]
    raise AssertionError("the game did not end")


def intended_bribes_paid(st: IntrigueState, bribe: Bribe) -> bool:
    """Nobody was short of money: every bribe paid is the one the rule asked for."""
    return all(b.amount == bribe(b.payer, b.palace, b.motif) for b in st.bribes)


@pytest.mark.parametrize("seed", range(40))
def test_simultaneous_pays_every_post_as_many_rounds_as_sequential(seed: int) -> None:
    plan, bribe = random_plan(seed), bribe_rule(seed)
    seq, seq_paid = play("sequential", plan, bribe)
    sim, sim_paid = play("simultaneous", plan, bribe)
    assert intended_bribes_paid(seq, bribe) and intended_bribes_paid(sim, bribe)
    # the same decisions: the same palaces and island at the end
    assert seq.palaces == sim.palaces
    assert sorted(seq.island, key=repr) == sorted(sim.island, key=repr)
    # every post paid each player as many times, so the bank paid the same
    assert seq_paid == sim_paid
    assert seq.income_paid == sim.income_paid


def test_a_post_won_from_a_round_1_placement_pays_six_times() -> None:
    """« on finit par un 7ème tour durant lequel on ne fait que prendre ses revenus »: rounds 2 to 7."""
    plan = random_plan(0)
    for mode in ("sequential", "simultaneous"):
        st, paid = play(mode, plan, lambda p, pal, m: 0)
        first = [(pc.owner, pal, post.value) for pal in SEATS for post in st.palaces[pal].posts
                 if (pc := post.holder) is not None and any(x == (pc.motif, pal) for x in plan[(1, pc.owner)])]
        assert first, "some round-1 counsellor keeps its post to the end"
        for owner, pal, value in first:
            assert paid[(pal, value, owner)] == 6, (mode, owner, pal, value)


def hand_plan(targets: Mapping[str, Sequence[tuple[str, str]]], motifs: Mapping[str, str]) -> Plan:
    """A plan from each player's five pairs of targets and ten motifs (space separated, in order)."""
    plan: Plan = {}
    for player in SEATS:
        order = motifs[player].split()
        for rnd in range(1, 6):
            first, second = targets[player][rnd - 1]
            plan[(rnd, player)] = [(order[2 * rnd - 2], first), (order[2 * rnd - 1], second)]
    return plan


def test_the_one_difference_a_post_passing_across_its_owner() -> None:
    """Sequentially, a post that passes between players seated on both sides of its palace's owner
    pays twice in the round it changes hands: Alice (before Bob) collects for it at her turn, then
    Bob manages his park, then Dino (after Bob) collects for it at his.  (The other way round it
    pays nobody that round.)  No simultaneous schedule can do that without paying a post to a
    player who has lost it, or taking income back; there it pays once a round, to its holder at
    the income.  This is the only case where the counts differ; the rulings say so.
    """
    plan = hand_plan(
        {A: [(B, C), (C, D), (C, D), (C, D), (C, D)], B: [(A, C)] * 5, C: [(A, D)] * 5,
         D: [(A, C), (B, A), (A, C), (A, C), (A, C)]},
        {A: "livre balance bourse bourse balance epee epee eveque eveque livre",
         B: "balance bourse livre epee eveque balance bourse livre epee eveque",
         C: "balance bourse livre epee eveque balance bourse livre epee eveque",
         D: "balance bourse livre epee eveque balance bourse livre epee eveque"},
    )
    assert plan[(1, A)][0] == ("livre", B) and plan[(2, D)][0] == ("livre", B)

    def bribe(p: str, pal: str, m: str) -> int:
        return 20_000 if (p, pal, m) == (D, B, "livre") else 0  # Dino outbids Alice for Bob's livre post

    seq, seq_paid = play("sequential", plan, bribe)
    sim, sim_paid = play("simultaneous", plan, bribe)
    assert holder_of(seq, B, 100_000) == holder_of(sim, B, 100_000) == (D, "livre")
    # Alice's livre took Bob's 100,000 post in round 1 and lost it to Dino's (placed in round 2)
    assert sim_paid[(B, 100_000, A)] == 1  # round 2
    assert seq_paid[(B, 100_000, A)] == 2  # rounds 2 and 3: Bob manages the round-2 placement at his turn of round 3
    assert seq_paid[(B, 100_000, D)] == sim_paid[(B, 100_000, D)] == 5  # rounds 3 to 7


def holder_of(st: IntrigueState, palace: str, value: int) -> tuple[str, str] | None:
    post = next(p for p in st.palaces[palace].posts if p.value == value)
    return (post.holder.owner, post.holder.motif) if post.holder else None
