"""Intrigue: numbered rule cases (after the sentences of the rules), random full games, templates.

R1 a round: income, management, placement      R5 one counsellor per post, five motifs
R2 same motif several times in the park         R6 bribes: multiples of 10,000, at most your money, kept
R3 motif absent from the palace: a free post    R7 the end: 7 rounds, the richest wins (ties shared)
R4 motif already in post: a conflict            R8 variant: the loser of a conflict gets the bribe back
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import jinja2
import pytest
from fresh import digest, replay

from pbem import serial
from pbem.core import MJ, PUBLIC, Event, Order, OrderAmbiguousError, OrderError, OrderNotAllowedError, Seat
from pbem.dice import Dice
from pbem.games import get
from pbem.games.intrigue import RULESET as R
from pbem.games.intrigue import IntrigueState, invariant_problems, money_conserved, simultaneous
from pbem.games.intrigue.bots import candidate_lines, random_orders
from pbem.games.intrigue.state import MOTIFS, START_MONEY, Palace, Piece, Post
from pbem.render import Renderer
from pbem.render import install_vocabulary as vocabulary

ROOT = Path(__file__).resolve().parents[2]
A, B, C = "Alice", "Bob", "Carla"
VALUES = (10_000, 20_000, 30_000, 50_000, 100_000)


def dice(step: str = "step") -> Dice:
    return Dice("5eed", step)


def build(
    *,
    mode: str = "simultaneous",
    seats: Sequence[str] = (A, B, C),
    posts: Mapping[str, Mapping[int, tuple[str, str]]] | None = None,
    parks: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    money: Mapping[str, int] | None = None,
    island: Sequence[tuple[str, str]] = (),
    round_: int = 2,
    turn: int = 0,
    refund: bool = False,
    options: Mapping[str, object] | None = None,
) -> IntrigueState:
    """A consistent state at the start of a round (or of a player's turn), hands completed.

    In simultaneous mode, parks are managed in the round of the placement: a state with parks is
    built just after the round's placements (income paid, sealed bribes next).
    """
    st, _ = R.setup([Seat(s) for s in seats], {"mode": mode, "seating": "roster", "refund_loser": refund, **(options or {})},
                    dice("setup"))
    hands = {p: list(st.hands[p]) for p in seats}
    palaces = {}
    for owner in seats:
        ps = tuple(
            Post(v, Piece(*(posts or {}).get(owner, {})[v]) if v in (posts or {}).get(owner, {}) else None)
            for v in VALUES
        )
        park = tuple(Piece(p, m) for p, m in (parks or {}).get(owner, ()))
        palaces[owner] = Palace(owner, ps, park)
        for post in ps:
            if post.holder:
                hands[post.holder.owner].remove(post.holder.motif)
        for pc in park:
            hands[pc.owner].remove(pc.motif)
    for p, m in island:
        hands[p].remove(m)
    cash = {p: START_MONEY for p in seats} | dict(money or {})
    total = sum(cash.values())
    return replace(
        st,
        hands={p: tuple(hands[p]) for p in seats},
        palaces=palaces,
        island=tuple(Piece(p, m) for p, m in island),
        money=cash,
        income_paid=total - st.start_total,
        round=round_,
        step="bribes" if mode == "simultaneous" and parks else "income",
        turn=turn,
        pending=None,
    )


def start(st: IntrigueState) -> tuple[IntrigueState, list[Event]]:
    """Run the automatic steps (income...) up to the first decision."""
    if st.step == "income":
        return R.resolve(st, {}, dice())
    ev: list[Event] = []
    return simultaneous.advance(st, ev), ev


def orders(st: IntrigueState, player: str, *lines: str) -> list[Order]:
    acc: list[Order] = []
    for line in lines:
        acc.append(R.parse_order(st, player, line, acc))
    return acc


def step(st: IntrigueState, given: Mapping[str, Sequence[str]] | None = None) -> tuple[IntrigueState, list[Event]]:
    """Resolve the open step: the given lines, defaults for every other prompted player."""
    given = given or {}
    batch = {}
    for pr in R.prompts(st):
        lines = given.get(pr.player)
        batch[pr.player] = orders(st, pr.player, *lines) if lines is not None else R.default_orders(st, pr.player)
    st2, ev = R.resolve(st, batch, dice())
    assert not invariant_problems(st2), invariant_problems(st2)
    return st2, ev


def plain(text: str) -> str:
    """French typography (no-break spaces before « : » and in « », narrow ones in 50 000) as plain spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def kinds(ev: Sequence[Event]) -> list[str]:
    return [e.kind for e in ev]


def holder(st: IntrigueState, owner: str, value: int) -> tuple[str, str] | None:
    post = next(p for p in st.palaces[owner].posts if p.value == value)
    return (post.holder.owner, post.holder.motif) if post.holder else None


def on_island(st: IntrigueState) -> list[tuple[str, str]]:
    return [(pc.owner, pc.motif) for pc in st.island]


# ------------------------------------------------------------------ setup


def test_registered_and_setup() -> None:
    assert get("intrigue") is R
    st, ev = R.setup([Seat(n) for n in "Ann Ben Cid Dan Eve".split()], {}, dice("setup"))
    assert sorted(st.seats) == sorted("Ann Ben Cid Dan Eve".split())
    assert all(st.money[p] == 320_000 for p in st.seats)
    assert all(sorted(st.hands[p]) == sorted(MOTIFS * 2) for p in st.seats)
    assert [p.value for p in st.palaces[st.seats[0]].posts] == list(VALUES)
    assert kinds(ev)[0] == "setup" and "board" in kinds(ev)
    assert [e.audience.players for e in ev if e.kind == "decision_asked"] == [(p,) for p in st.seats]
    # round 1: parks are empty, so simultaneous play opens on the placements
    assert st.step == "placements" and {p.kind for p in R.prompts(st)} == {"place"}


def test_seating_drawn_with_dice() -> None:
    names = [Seat(n) for n in "Ann Ben Cid Dan Eve".split()]
    d1, d2 = Dice("aa", "setup"), Dice("aa", "setup")
    assert R.setup(names, {}, d1)[0].seats == R.setup(names, {}, d2)[0].seats
    assert {r.purpose for r in d1.rolls} == {"seating order"}


@pytest.mark.parametrize("n", [2, 6])
def test_three_to_five_players(n: int) -> None:
    from pbem.core import SetupError

    with pytest.raises(SetupError):
        R.setup([Seat(f"P{i}") for i in range(n)], {}, dice())


def test_options_checked() -> None:
    from pbem.core import SetupError

    seats = [Seat(n) for n in (A, B, C)]
    for bad in ({"mode": "blitz"}, {"post_values": [1, 2, 3]}, {"colour": "red"}, {"refund_loser": "yes"}):
        with pytest.raises(SetupError):
            R.setup(seats, bad, dice())
    st, _ = R.setup(seats, {"post_values": [5000, 10000, 20000, 40000, 80000]}, dice())
    assert st.options.post_values == (5000, 10000, 20000, 40000, 80000)


# ------------------------------------------------------------------ R1: a round


def test_R1_income_for_every_counsellor_in_post_simultaneous() -> None:
    st = build(posts={A: {100_000: (B, "livre")}, C: {30_000: (B, "eveque"), 10_000: (A, "livre")}})
    st, ev = start(st)
    assert st.money == {A: 330_000, B: 450_000, C: 320_000}
    assert st.income_paid == 140_000 and money_conserved(st)
    inc = {e.data["player"]: e.data["amount"] for e in ev if e.kind == "income"}
    assert inc == {A: 10_000, B: 130_000, C: 0}


def test_R1_income_at_the_start_of_each_turn_sequential() -> None:
    st = build(mode="sequential", posts={A: {100_000: (B, "livre")}, B: {20_000: (A, "livre")}})
    st, ev = start(st)
    # Alice's turn: only she collects; her park is empty, so she places at once
    assert st.money[A] == 340_000 and st.money[B] == 320_000
    assert [(p.player, p.kind, p.deadline) for p in R.prompts(st)] == [(A, "place", "short")]
    st, ev = step(st)
    assert st.current == B and st.money[B] == 420_000
    assert [e.data["player"] for e in ev if e.kind == "income"] == [B]


def test_R1_place_two_counsellors_in_two_different_opponents_palaces() -> None:
    st, _ = R.setup([Seat(n) for n in (A, B, C)], {"seating": "roster"}, dice("setup"))
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "PLACER livre CHEZ Alice")  # own palace
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "PLACER livre CHEZ Bob", "PLACER balance CHEZ Bob")  # same opponent twice
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "PLACER livre CHEZ Bob", "PLACER livre CHEZ Carla", "PLACER balance CHEZ Carla")
    st1 = replace(st, hands={**st.hands, A: ("livre", "balance")})
    with pytest.raises(OrderNotAllowedError):
        orders(st1, A, "PLACER livre CHEZ Bob", "PLACE book AT Carla")  # no second book in hand
    ok = orders(st, A, "PLACER écu et épée CHEZ Bob", "place bishop at carla")
    assert [o.args for o in ok] == [("epee", B), ("eveque", C)]
    st, ev = step(st, {A: ["PLACER livre CHEZ Bob", "PLACER évêque CHEZ Carla"]})
    assert (A, "livre") in [(p.owner, p.motif) for p in st.palaces[B].park]
    assert len(st.hands[A]) == 8 and all(len(st.hands[p]) == 8 for p in (B, C))
    assert st.round == 1 and st.step == "bribes"  # the parks are managed in the round of the placements


def test_R1_placement_default_is_never_none() -> None:
    st, _ = R.setup([Seat(n) for n in (A, B, C)], {"seating": "roster"}, dice("setup"))
    d = R.default_orders(st, A)
    assert [o.verb for o in d] == ["PLACER", "PLACER"]
    assert {o.args[1] for o in d} == {B, C}
    # an order for one counsellor only: the second is completed by the default
    st2, _ = R.resolve(st, {A: orders(st, A, "PLACER livre CHEZ Carla"), B: [], C: []}, dice())
    assert len(st2.hands[A]) == 8 and {pc.owner for pc in st2.palaces[B].park} >= {A}


def test_R1_rounds_six_and_seven() -> None:
    st = build(round_=6, parks={A: [(B, "livre")]})
    st, _ = start(st)
    assert st.step == "bribes" and st.round == 6
    st, _ = step(st)  # bribes
    st, ev = step(st)  # decisions (none needed: the step runs itself) -> round 7 income -> over
    assert st.over and st.round == 7
    assert "placed" not in kinds(ev)
    assert R.prompts(st) == []


# ------------------------------------------------------------------ R2: same motif several times


def test_R2_same_motif_duplicates_owner_keeps_one_others_to_island() -> None:
    st, _ = start(build(parks={A: [(B, "livre"), (C, "livre")]}))
    assert {(p.player, p.kind) for p in R.prompts(st)} == {(B, "bribe"), (C, "bribe")}
    st, ev = step(st, {B: ["POT-DE-VIN Alice livre 20000"], C: ["bribe alice book 10k"]})
    assert st.money == {A: 350_000, B: 300_000, C: 310_000}
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(A, "decide")]
    st, ev = step(st, {A: ["GARDER Carla livre", "POSTE Carla livre 30 000"]})
    assert on_island(st) == [(B, "livre")]
    assert holder(st, A, 30_000) == (C, "livre")
    assert st.money[A] == 350_000  # bribes kept, whoever stays
    assert kinds(ev)[:2] == ["duplicates_resolved", "post_assigned"]


def test_R2_sequential_bribes_in_turn_from_the_owners_left_and_open() -> None:
    st, _ = start(build(mode="sequential", parks={A: [(C, "livre"), (B, "livre")]}))
    # left of Alice is Bob, then Carla
    assert [(p.player, p.kind, p.deadline) for p in R.prompts(st)] == [(B, "bribe", "short")]
    with pytest.raises(OrderNotAllowedError):
        orders(st, C, "POT-DE-VIN 10000")  # not Carla's turn to announce
    st, ev = step(st, {B: ["POT-DE-VIN 20 000"]})
    assert st.money[B] == 300_000 and st.money[A] == 340_000  # paid on announcement
    assert [p.player for p in R.prompts(st)] == [C]
    seen = R.view(st, C)["pending"]
    assert seen is not None and seen["bids"] == [{"player": B, "amount": 20_000}]
    st, _ = step(st, {C: ["POT-DE-VIN Alice livre 0"]})
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(A, "keep")]
    st, ev = step(st)  # default: the highest bribe, Bob
    assert on_island(st) == [(C, "livre")]
    # then Bob's livre is absent from the palace: he bribes again, then Alice gives a post
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(B, "bribe")]
    st, _ = step(st, {B: ["POT-DE-VIN 10000"]})
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(A, "post")]
    st, _ = step(st, {A: ["POSTE livre 20000"]})
    assert holder(st, A, 20_000) == (B, "livre")
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(A, "place")]


def test_R2_default_keep_ties_go_nearest_the_owners_left() -> None:
    st, _ = start(build(parks={B: [(A, "bourse"), (C, "bourse")]}))
    st, _ = step(st)  # everyone silent: 0 each
    st, _ = step(st)  # Bob silent: tie -> Carla (his left) stays
    assert on_island(st) == [(A, "bourse")]
    assert holder(st, B, 100_000) == (C, "bourse")


# ------------------------------------------------------------------ R3: motif absent from the palace


def test_R3_absent_motif_gets_a_free_post_of_the_owners_choice() -> None:
    st, _ = start(build(posts={A: {100_000: (B, "epee")}}, parks={A: [(B, "livre"), (C, "balance")]}))
    st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice balance 30000"]})
    st, ev = step(st, {A: ["POSTE Bob livre 10000", "POSTE Carla balance 20000"]})
    assert holder(st, A, 10_000) == (B, "livre") and holder(st, A, 20_000) == (C, "balance")
    assert st.palaces[A].park == ()


def test_R3_default_highest_bribe_to_highest_free_post() -> None:
    st, _ = start(build(posts={A: {100_000: (B, "epee")}}, parks={A: [(B, "livre"), (C, "balance")]}))
    st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice balance 30000"]})
    st, _ = step(st)
    assert holder(st, A, 50_000) == (C, "balance") and holder(st, A, 30_000) == (B, "livre")


def test_R3_post_orders_checked() -> None:
    st, _ = start(build(posts={A: {100_000: (B, "epee")}}, parks={A: [(B, "livre"), (C, "balance")]}))
    st, _ = step(st)
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "POSTE Bob livre 100000")  # not free
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "POSTE Bob livre 10000", "POSTE Carla balance 10000")  # same post twice
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "POSTE Carla livre 10000")  # no such counsellor waiting
    with pytest.raises(OrderNotAllowedError):
        orders(st, B, "POSTE Alice livre 10000")  # Bob has nothing to decide


# ------------------------------------------------------------------ R4: conflicts


def conflict_state(refund: bool = False) -> IntrigueState:
    st = build(posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}, refund=refund)
    st, _ = start(st)
    return st


def test_R4_conflict_both_pay_owner_decides_loser_to_island() -> None:
    st = conflict_state()
    assert {p.player for p in R.prompts(st)} == {B, C}  # the incumbent's owner bribes too
    st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice livre 20000"]})
    st, ev = step(st, {A: ["GARDER Bob livre"]})
    assert holder(st, A, 50_000) == (B, "livre") and on_island(st) == [(C, "livre")]
    assert st.money[A] == 350_000 and st.money[C] == 300_000  # the bribes are kept anyway


def test_R4_conflict_default_highest_bribe_then_incumbent() -> None:
    st = conflict_state()
    st2, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice livre 20000"]})
    st2, _ = step(st2)
    assert holder(st2, A, 50_000) == (C, "livre") and on_island(st2) == [(B, "livre")]
    st3, _ = step(st, {B: ["POT-DE-VIN Alice livre 20000"], C: ["POT-DE-VIN Alice livre 20000"]})
    st3, _ = step(st3)
    assert holder(st3, A, 50_000) == (B, "livre")


def test_R4_sequential_internal_conflicts_start_with_the_post_of_least_value() -> None:
    """« S'il y a plusieurs conflits internes … en commençant par le poste de moindre valeur »: fixed, not asked."""
    base = build(
        mode="sequential",
        posts={A: {50_000: (B, "livre"), 10_000: (C, "balance")}},
        parks={A: [(C, "livre"), (B, "balance")]},
    )
    st, ev = start(base)
    assert st.pending is not None and (st.pending.stage, st.pending.motif) == ("conflict", "balance")  # the 10,000 post
    assert "conflict_chosen" not in kinds(ev)
    # bribes from both owners, from Alice's left: Bob then Carla; Alice is not asked to order the conflicts
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(B, "bribe")]
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "CONFLIT livre")
    st, _ = step(st, {B: ["BRIBE 30k"]})
    st, _ = step(st, {C: ["POT-DE-VIN 0"]})
    st, ev = step(st, {A: ["KEEP Carla"]})
    assert holder(st, A, 10_000) == (C, "balance") and on_island(st) == [(B, "balance")]
    # then the 50,000 post
    assert st.pending is not None and (st.pending.stage, st.pending.motif) == ("conflict", "livre")
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(B, "bribe")]


def test_R4_sequential_external_conflicts_in_the_owners_order() -> None:
    """« S'il y a plusieurs conflits externes, le propriétaire du Palace les résout dans l'ordre de son choix »."""
    D, E = "Dino", "Elsa"
    base = build(mode="sequential", seats=(A, B, C, D, E),
                 parks={A: [(B, "livre"), (C, "livre"), (D, "bourse"), (E, "bourse")]})
    st, _ = start(base)
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(A, "conflict")]
    assert [h.syntax for h in R.help(st, A)] == ["CONFLIT <bourse | livre>"]
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "CONFLIT balance")
    # silent: the fixed motif order (bourse before livre)
    _, ev = step(st)
    assert [e.data["motif"] for e in ev if e.kind == "conflict_chosen"] == ["bourse"]
    st, ev = step(st, {A: ["CONFLIT livre"]})
    assert [(e.data["motif"], e.data["others"]) for e in ev if e.kind == "conflict_chosen"] == [("livre", ["bourse"])]
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(B, "bribe")]
    st, _ = step(st, {B: ["POT-DE-VIN 0"]})
    st, _ = step(st, {C: ["POT-DE-VIN 0"]})
    st, _ = step(st, {A: ["GARDER Carla"]})
    assert on_island(st) == [(B, "livre")]
    # the last duplicate needs no choosing: its bribes come at once, from Alice's left (Dino, Elsa)
    assert st.pending is not None and (st.pending.stage, st.pending.motif) == ("duplicate", "bourse")
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(D, "bribe")]


@pytest.mark.parametrize("mode", ["sequential", "simultaneous"])
def test_R4_conflict_between_two_counsellors_of_one_player_needs_no_bribe(mode: str) -> None:
    st, ev = start(build(mode=mode, posts={A: {50_000: (B, "livre")}}, parks={A: [(B, "livre")]}))
    assert "bribe_announced" not in kinds(ev) and "bribes_revealed" not in kinds(ev)
    assert holder(st, A, 50_000) == (B, "livre") and on_island(st) == [(B, "livre")]
    assert [(p.player, p.kind) for p in R.prompts(st)] == ([(A, "place")] if mode == "sequential"
                                                            else [(A, "place"), (B, "place"), (C, "place")])
    assert st.money[B] == 320_000 + (50_000 if mode == "simultaneous" else 0)  # round 3's income (simultaneous)


def test_R4_simultaneous_duplicates_then_post_then_conflict() -> None:
    D = "Dino"
    base = build(seats=(A, B, C, D), refund=True, posts={A: {100_000: (B, "livre")}},
                 parks={A: [(C, "livre"), (D, "livre"), (B, "bourse")]})
    st, _ = start(base)
    assert {p.player for p in R.prompts(st)} == {B, C, D}
    bribes = {C: ["POT-DE-VIN Alice livre 50000"], B: ["POT-DE-VIN Alice livre 10000", "POT-DE-VIN Alice bourse 0"]}
    st1, _ = step(st, bribes)
    st2, ev = step(st1, {A: ["GARDER Dino livre", "POSTE bourse 10000"]})
    assert kinds(ev)[:4] == ["duplicates_resolved", "post_assigned", "conflict_resolved", "bribe_refunded"]
    assert holder(st2, A, 100_000) == (D, "livre") and holder(st2, A, 10_000) == (B, "bourse")
    assert on_island(st2) == [(C, "livre"), (B, "livre")]
    # Bob's conflict bribe is refunded (Carla lost a duplicate, not a conflict); round 3's income: Bob's 10,000 post
    assert st2.money[B] == 330_000 and st2.money[C] == 270_000
    # the owner names the incumbent: the duplicates are settled by the default (Carla's 50,000)
    st3, ev = step(st1, {A: ["GARDER Bob livre"]})
    assert holder(st3, A, 100_000) == (B, "livre")
    assert on_island(st3) == [(D, "livre"), (C, "livre")]
    assert st3.money[C] == 320_000  # Carla lost the conflict: refunded


# ------------------------------------------------------------------ R5: posts and motifs


def test_R5_never_two_counsellors_per_post_and_five_motifs() -> None:
    st = conflict_state()
    with pytest.raises(OrderNotAllowedError):
        orders(st, B, "POT-DE-VIN Alice bourse 10000")  # nothing to bribe for
    st, _ = step(st)
    st, _ = step(st)
    motifs = [p.holder.motif for p in st.palaces[A].posts if p.holder]
    assert motifs == ["livre"] and not invariant_problems(st)


# ------------------------------------------------------------------ R6: bribes


def test_R6_bribe_amount_forms() -> None:
    st = conflict_state()
    for text in ("50000", "50 000", "50.000", "50k", "50K", "50,000"):
        assert orders(st, C, f"POT-DE-VIN Alice livre {text}")[0].args == (A, "livre", 50_000)
    assert orders(st, C, "pot de vin alice livre 0")[0].args == (A, "livre", 0)
    assert orders(st, C, "POT-DE-VIN 20000")[0].args == (A, "livre", 20_000)  # only one case


def test_R6_bribes_are_multiples_of_10000() -> None:
    st = conflict_state()
    with pytest.raises(OrderNotAllowedError):
        orders(st, C, "POT-DE-VIN Alice livre 15000")
    with pytest.raises(OrderError):
        orders(st, C, "POT-DE-VIN Alice livre beaucoup")


def test_R6_bribe_at_most_what_the_player_has() -> None:
    st = build(posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")], B: [(C, "balance")]},
               money={C: 100_000})
    st, _ = start(st)
    orders(st, C, "POT-DE-VIN Alice livre 100000")
    with pytest.raises(OrderNotAllowedError):
        orders(st, C, "POT-DE-VIN Alice livre 110000")
    with pytest.raises(OrderNotAllowedError):  # sealed bribes together are limited too
        orders(st, C, "POT-DE-VIN Alice livre 60000", "POT-DE-VIN Bob balance 50000")


def test_R6_bribe_only_where_involved() -> None:
    st = conflict_state()
    with pytest.raises(OrderNotAllowedError):
        orders(st, B, "POT-DE-VIN Carla livre 10000")
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "POT-DE-VIN Alice livre 10000")  # the owner is not prompted at all
    with pytest.raises(OrderAmbiguousError):
        orders(st, B, "POT-DE-VIN Alicia livre 10000")  # did you mean Alice?


def test_R6_broke_players_are_not_asked() -> None:
    st = build(mode="sequential", parks={A: [(B, "livre"), (C, "livre")]}, money={B: 0, A: 960_000})
    st, ev = start(st)
    assert [p.player for p in R.prompts(st)] == [C]
    assert any(e.kind == "bribe_announced" and e.data["auto"] for e in ev)


def test_R6_money_moves_only_as_bribes_and_income() -> None:
    st = conflict_state()
    st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice livre 20000"]})
    assert money_conserved(st)
    assert R.view(st, PUBLIC)["total_money"] == st.start_total + st.income_paid


# ------------------------------------------------------------------ R7: the end


def test_R7_game_ends_after_round_seven_richest_wins() -> None:
    st = build(round_=7, posts={A: {100_000: (B, "livre")}})
    st, ev = start(st)
    assert st.over and R.prompts(st) == []
    out = R.outcome(st)
    assert out is not None and out.winners == (B,)
    assert kinds(ev)[-2:] == ["game_over", "board"]


def test_R7_ties_share_the_victory() -> None:
    st = build(round_=7, posts={A: {100_000: (B, "livre")}, B: {100_000: (C, "livre")}})
    st, _ = start(st)
    out = R.outcome(st)
    assert out is not None and out.winners == (B, C) and "partagée" in out.summary.fr


def test_R7_sequential_round_seven_is_income_only() -> None:
    st = build(mode="sequential", round_=7, posts={A: {10_000: (B, "livre")}})
    st, ev = start(st)
    assert st.over and [e.data["player"] for e in ev if e.kind == "income"] == [A, B, C]


# ------------------------------------------------------------------ R8: variant


def test_R8_refund_variant_loser_gets_the_bribe_back() -> None:
    for refund, c_money, a_money in ((False, 300_000, 350_000), (True, 320_000, 330_000)):
        st = conflict_state(refund=refund)
        st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice livre 20000"]})
        st, ev = step(st, {A: ["GARDER Bob livre"]})
        assert st.money[C] == c_money and st.money[A] == a_money
        assert ("bribe_refunded" in kinds(ev)) is refund
        assert money_conserved(st)


def test_R8_refund_variant_sequential() -> None:
    st, _ = start(build(mode="sequential", refund=True, posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    st, _ = step(st, {B: ["POT-DE-VIN 10000"]})
    st, _ = step(st, {C: ["POT-DE-VIN 40000"]})
    st, ev = step(st, {A: ["GARDER Carla"]})
    assert st.money[B] == 320_000 and st.money[A] == 360_000
    assert [b.refunded for b in st.bribes] == [True, False]


# ------------------------------------------------------------------ parsing, help, views


def test_parse_errors_and_aliases() -> None:
    st = conflict_state()
    with pytest.raises(OrderError):
        orders(st, C, "DANSER")
    with pytest.raises(OrderNotAllowedError):
        orders(st, C, "PLACER livre CHEZ Bob")  # not the placement step
    with pytest.raises(OrderNotAllowedError):
        R.parse_order(st, MJ, "POT-DE-VIN Alice livre 0", [])
    st, _ = step(st)
    with pytest.raises(OrderNotAllowedError):
        orders(st, A, "GARDER Alice livre")
    assert orders(st, A, "keep carla book")[0].args == (C, "livre")


def test_help_lists_exactly_the_orders_possible_now() -> None:
    st = conflict_state()
    assert [h.syntax for h in R.help(st, C)] == ["POT-DE-VIN Alice livre <montant>"]
    assert R.help(st, A) == []
    st, _ = step(st)
    assert [h.syntax.split()[0] for h in R.help(st, A)] == ["GARDER"]
    assert R.help(st, B) == []


def test_step_titles() -> None:
    st = conflict_state()
    assert R.step_title(st).fr == "Manche 2 — pots-de-vin" and R.step_title(st).en == "Round 2 — bribes"
    st, _ = step(st)
    assert R.step_title(st).en == "Round 2 — decisions"
    seq, _ = start(build(mode="sequential", posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    assert plain(R.step_title(seq).fr).startswith("Manche 2 — Bob : pot-de-vin")
    assert R.step_title(seq).fr.startswith("Manche 2 — Bob\u00a0: pot-de-vin")


def test_views() -> None:
    st = conflict_state()
    pub = R.view(st, PUBLIC)
    assert "involvements" not in pub and "hand" not in pub
    board = pub["board"]
    assert isinstance(board, dict)
    assert [p["name"] for p in board["players"]] == [A, B, C]
    mine = R.view(st, C)
    assert mine["involvements"] == {C: [{"palace": A, "motif": "livre", "with": [B]}]}
    assert set(R.view(st, MJ)["involvements"]) == {A, B, C}
    json.dumps([pub, mine, R.view(st, MJ)])


# ------------------------------------------------------------------ random full games


def play(n: int, mode: str, seed: int, refund: bool = False, record: bool = False) -> tuple[list[str], list[list[Event]]]:
    """A whole game of random legal orders (some players silent); invariants checked at every step.

    The serial round trip is checked every 10 steps and at the end; ``record`` keeps every serialized state.
    """
    rng = random.Random(seed)
    names = ["Aurore", "Bastien", "Céline", "Dario", "Élise"][:n]
    st, ev = R.setup([Seat(x) for x in names], {"mode": mode, "refund_loser": refund}, Dice(f"{seed:04x}", "setup"))
    states, events = [serial.dumps(st)] if record else [], [ev]
    steps = 0
    while R.outcome(st) is None:
        prompts = R.prompts(st)
        assert prompts, "no decision awaited in a running game"
        if mode == "sequential":
            assert len(prompts) == 1 and prompts[0].deadline == "short"
        batch: dict[str, list[Order]] = {}
        for pr in prompts:
            assert R.help(st, pr.player), pr
            if rng.random() < 0.2:
                batch[pr.player] = R.default_orders(st, pr.player)
                continue
            acc: list[Order] = []
            for line in candidate_lines(st, pr.player, pr.kind, rng):
                acc.append(R.parse_order(st, pr.player, line, acc))
            batch[pr.player] = acc
        st, ev = R.resolve(st, batch, Dice(f"{seed:04x}", f"step-{steps}"))
        steps += 1
        assert not invariant_problems(st), invariant_problems(st)
        assert money_conserved(st)
        if steps % 10 == 0 or st.over:
            assert serial.loads(IntrigueState, serial.dumps(st)) == st
        json.dumps([e.data for e in ev])
        # everything is public but the private notice to each player who must decide next
        assert all(e.audience.kind == "public" for e in ev if e.kind != "decision_asked")
        asked = [e.audience.players for e in ev if e.kind == "decision_asked"]
        assert asked == [(p.player,) for p in R.prompts(st)]
        if record or st.over:
            states.append(serial.dumps(st))
        events.append(ev)
        assert steps < 1000
    assert st.over and st.round == 7
    assert all(not st.palaces[p].park and not st.hands[p] for p in st.seats)
    out = R.outcome(st)
    assert out is not None and set(out.winners) == {p for p in st.seats if st.money[p] == max(st.money.values())}
    return states, events


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
@pytest.mark.parametrize("n", [3, 5])
def test_random_full_games(mode: str, n: int) -> None:
    for seed in range(50):
        play(n, mode, seed, refund=seed % 3 == 0)


def test_four_players_both_modes() -> None:
    for mode in ("simultaneous", "sequential"):
        for seed in range(10):
            play(4, mode, seed)


def determinism_transcript() -> str:
    """(also run by `fresh.replay` in another process) the digest of seed 7's games, both modes: every state
    and every event."""
    out: list[str] = []
    for mode in ("simultaneous", "sequential"):
        states, events = play(5, mode, 7, record=True)
        out += [*states, json.dumps([[serial.to_data(e) for e in ev] for ev in events], sort_keys=True)]
    return digest(out)


def test_determinism_same_seed_same_orders() -> None:
    """The same seed and orders give the same states and events, in another process too (other string hashes)."""
    assert replay("games.test_intrigue:determinism_transcript") == determinism_transcript()


def test_bots_give_accepted_lines() -> None:
    for mode in ("simultaneous", "sequential"):
        st, _ = R.setup([Seat(n) for n in (A, B, C, "Dino")], {"mode": mode}, dice("setup"))
        for i in range(40):
            prompts = R.prompts(st)
            if not prompts:
                break
            batch = {}
            for pr in prompts:
                lines = random_orders(st, pr.player, i)
                assert lines == random_orders(st, pr.player, i)
                batch[pr.player] = orders(st, pr.player, *lines) or R.default_orders(st, pr.player)
            assert random_orders(st, "Nobody", i) == []
            st, _ = R.resolve(st, batch, dice())


def test_simultaneous_round_shape() -> None:
    _, events = play(3, "simultaneous", 1)
    # setup, then rounds 1-5: placements, bribes, decisions; rounds 6 and 7 follow round 5's decisions at once
    assert len(events) == 1 + 5 * 3
    assert [e.data["round"] for e in events[-1] if e.kind == "round_started"] == [6, 7]


# ------------------------------------------------------------------ templates


def all_event_kinds() -> dict[str, Event]:
    """One event of every kind, gathered from played games (and the owner ordering two duplicates)."""
    found: dict[str, Event] = {}
    for mode in ("simultaneous", "sequential"):
        for seed in range(6):
            for ev in play(3, mode, seed, refund=True)[1]:
                for e in ev:
                    found.setdefault(e.kind, e)
    st, _ = start(build(mode="sequential", seats=(A, B, C, "Dino", "Elsa"),
                        parks={A: [(B, "livre"), (C, "livre"), ("Dino", "bourse"), ("Elsa", "bourse")]}))
    for e in step(st, {A: ["CONFLIT livre"]})[1]:
        found.setdefault(e.kind, e)
    return found


EVENT_KINDS = {
    "setup", "board", "round_started", "turn_started", "income", "bribes_revealed", "bribe_announced",
    "duplicates_resolved", "post_assigned", "conflict_chosen", "conflict_resolved", "bribe_refunded",
    "placed", "game_over", "decision_asked",
}


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    return vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined))


@pytest.fixture(scope="module")
def trim_env() -> jinja2.Environment:
    """The settings of pbem.render: trim_blocks and lstrip_blocks."""
    return vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True))


def test_every_event_kind_renders(env: jinja2.Environment) -> None:
    found = all_event_kinds()
    assert set(found) == EVENT_KINDS
    for lang in ("fr", "en"):
        module = env.get_template(f"intrigue/events.{lang}.j2").module
        for kind, e in found.items():
            text = str(getattr(module, kind)(e.data)).strip()
            assert text and "Undefined" not in text, (lang, kind)


def test_status_and_forum_render(env: jinja2.Environment) -> None:
    states, events = play(5, "sequential", 3, record=True)
    for text in (states[len(states) // 2], states[-1]):
        st = serial.loads(IntrigueState, text)
        for lang in ("fr", "en"):
            for who in (PUBLIC, MJ, st.seats[0]):
                status = env.get_template(f"intrigue/status.{lang}.j2").render(view=R.view(st, who))
                assert st.seats[1] in status
            forum = env.get_template(f"intrigue/forum.{lang}.j2").render(
                view=R.view(st, PUBLIC), events=[e for e in events[-1] if e.audience.kind == "public"],
                title=R.step_title(st).get(lang), game="intrigue",
            )
            assert forum.count("[tr]") == 6 and "[/table]" in forum
    assert "Victoire partagée" in forum or "Vainqueur" in forum or "Shared" in forum or "Winner" in forum


def test_same_layout_with_and_without_trim_blocks(env: jinja2.Environment, trim_env: jinja2.Environment) -> None:
    states, events = play(4, "sequential", 5, refund=True, record=True)
    for i in range(0, len(states), 7):
        st = serial.loads(IntrigueState, states[i])
        for lang in ("fr", "en"):
            for who in (PUBLIC, MJ, st.seats[1]):
                name = f"intrigue/status.{lang}.j2"
                plain = env.get_template(name).render(view=R.view(st, who))
                assert plain.strip() == trim_env.get_template(name).render(view=R.view(st, who)).strip()
                assert f"\n{st.seats[2]} — " in plain  # one line per player
            kw = {"view": R.view(st, PUBLIC), "events": events[i], "title": "T", "game": "intrigue"}
            name = f"intrigue/forum.{lang}.j2"
            plain = env.get_template(name).render(**kw)
            assert plain.strip() == trim_env.get_template(name).render(**kw).strip()
            assert "\n[/table]\n" in plain
            for e in events[i]:
                a = getattr(env.get_template(f"intrigue/events.{lang}.j2").module, e.kind)(e.data)
                b = getattr(trim_env.get_template(f"intrigue/events.{lang}.j2").module, e.kind)(e.data)
                assert str(a).strip() == str(b).strip()


# ------------------------------------------------------------------ who is asked, and the private mail


def has_a_choice(st: IntrigueState, player: str, kind: str) -> bool:
    """Does ``player`` have at least two different answers to the prompt ``kind``?"""
    from pbem.games.intrigue.decisions import keep_candidates
    from pbem.games.intrigue.table import absent_pieces, duplicate_motifs, free_values

    if kind == "bribe":
        return st.money[player] >= 10_000
    if kind == "place":
        return len(st.hands[player]) >= 2
    if kind == "conflict":
        return len(duplicate_motifs(st.palaces[player])) >= 2
    if kind == "post":
        return len(free_values(st.palaces[player])) >= 2
    keeps = keep_candidates(st, player)
    if kind == "keep":
        return bool(keeps) and all(len(c) >= 2 for c in keeps.values())
    palace = st.palaces[player]  # "decide"
    return bool(keeps) or (bool(absent_pieces(palace)) and len(free_values(palace)) >= 2)


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_only_players_with_a_decision_are_asked(mode: str) -> None:
    for seed in range(8):
        rng = random.Random(seed)
        st, _ = R.setup([Seat(x) for x in (A, B, C, "Dino")], {"mode": mode}, Dice(f"{seed:04x}", "setup"))
        while not st.over:
            prompts = R.prompts(st)
            for pr in prompts:
                assert has_a_choice(st, pr.player, pr.kind), (seed, pr, st.pending)
            batch = {pr.player: orders(st, pr.player, *candidate_lines(st, pr.player, pr.kind, rng)) for pr in prompts}
            st, _ = R.resolve(st, batch, dice())


def private_mail(st: IntrigueState, ev: Sequence[Event], player: str, lang: str = "fr") -> str:
    r = Renderer("intrigue", lang)
    status = r.mail_text("status", view=R.view(st, player), player=player, tag="[I]").body
    mine = [e for e in ev if e.audience.includes(player)]
    return r.mail_text("private", tag="[I]", player=player, title="T", events=mine, status=status,
                       deadline=datetime(2026, 1, 14, 21, tzinfo=UTC), next_title="N", final=None,
                       setup=False, rectificatif=False, defaulted=False).body


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_private_mail_asks_only_the_players_who_decide_and_shows_the_board_once(lang: str) -> None:
    st, _ = start(build(mode="sequential", posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    st, ev = step(st, {B: ["POT-DE-VIN 10000"]})
    assert [p.player for p in R.prompts(st)] == [C]
    answer = {"fr": "Répondez à ce message", "en": "Reply to this message"}[lang]
    idle = {"fr": "inutile de répondre", "en": "no need to answer"}[lang]
    board = {"fr": "Plateau (manche", "en": "Board (round"}[lang]
    for player in (A, B, C):
        text = private_mail(st, ev, player, lang)
        assert (answer in text) is (player == C) and (idle in text) is (player != C), (player, text)
        assert board not in text  # the situation below the events shows the board
        assert text.count(f"\n{B} — ") == 1


def event_texts(ev: Sequence[Event], kind: str, lang: str = "fr") -> list[str]:
    """The events of one kind as the players read them, French spacing shown as plain spaces (see `plain`)."""
    r = Renderer("intrigue", lang)
    return [plain(r.event_text(e)) for e in ev if e.kind == kind]


def test_a_challenger_who_wins_takes_the_post_an_incumbent_keeps_it() -> None:
    st = conflict_state()
    st, _ = step(st, {B: ["POT-DE-VIN Alice livre 10000"], C: ["POT-DE-VIN Alice livre 20000"]})
    _, won = step(st, {A: ["GARDER Carla livre"]})
    _, kept = step(st, {A: ["GARDER Bob livre"]})
    assert event_texts(won, "conflict_resolved") == [
        "Palais d'Alice, conflit livre (poste de 50 000) : Carla prend le poste, le conseiller de Bob part sur l'île."]
    assert event_texts(kept, "conflict_resolved") == [
        "Palais d'Alice, conflit livre (poste de 50 000) : Bob garde le poste, le conseiller de Carla part sur l'île."]
    assert "Carla takes the post" in event_texts(won, "conflict_resolved", "en")[0]


def test_a_silent_bidder_is_not_said_to_announce_and_pay() -> None:
    st, _ = start(build(mode="sequential", posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    assert R.default_orders(st, B) == []  # silence is no bribe
    silent, ev = step(st)
    assert event_texts(ev, "bribe_announced") == [
        "Bob n'a pas répondu à temps : aucun pot-de-vin à Alice pour son conseiller livre (conflit)."]
    _, ev = step(st, {B: ["POT-DE-VIN 0"]})
    assert event_texts(ev, "bribe_announced") == [
        "Bob n'offre rien à Alice pour son conseiller livre (conflit) : pot-de-vin de 0."]
    _, ev = step(st, {B: ["POT-DE-VIN 10000"]})
    assert "annonce et verse un pot-de-vin de 10 000" in event_texts(ev, "bribe_announced")[0]
    assert silent.money[B] == 320_000 and [b.amount for b in silent.bribes] == [0]
