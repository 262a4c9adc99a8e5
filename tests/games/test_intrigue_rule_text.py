"""Intrigue: cases for the rule sentences that `test_intrigue.py` did not cover, named after them.

The numbers (S09, S18, …) are those of the per-sentence table in ``docs/rules/intrigue.md``; each
expected outcome is derived from the French rule text (``intrigue.txt``) and the rulings there.
"""

from __future__ import annotations

import random
import re

import pytest

from pbem.core import PUBLIC, Order, OrderError, OrderNotAllowedError, Seat, SetupError
from pbem.dice import Dice
from pbem.games.intrigue import RULESET as R
from pbem.games.intrigue import IntrigueState, money_conserved
from pbem.games.intrigue.bots import candidate_lines
from pbem.render import Renderer

from .test_intrigue import (
    A,
    B,
    C,
    build,
    event_texts,
    holder,
    kinds,
    on_island,
    orders,
    plain,
    start,
    step,
)


def bot_game(mode: str, seed: int, n: int = 4, **options: object) -> list[IntrigueState]:
    """Every state of a whole game of random legal orders."""
    rng = random.Random(seed)
    names = ["Aurore", "Bastien", "Céline", "Dario", "Élise"][:n]
    st, _ = R.setup([Seat(x) for x in names], {"mode": mode, **options}, Dice(f"{seed:04x}", "setup"))
    states = [st]
    while not st.over:
        batch = {}
        for pr in R.prompts(st):
            acc: list[Order] = []
            for line in candidate_lines(st, pr.player, pr.kind, rng):
                acc.append(R.parse_order(st, pr.player, line, acc))
            batch[pr.player] = acc or R.default_orders(st, pr.player)
        st, _ = R.resolve(st, batch, Dice(f"{seed:04x}", f"s{len(states)}"))
        states.append(st)
    return states


# ------------------------------------------------------------------ S06: « L'Ile du bagne … au centre de la table »


def test_S06_the_island_is_on_everyones_board() -> None:
    st, _ = start(build(parks={A: [(B, "livre"), (C, "livre")]}))
    st, _ = step(st)
    st, _ = step(st)
    assert on_island(st) == [(C, "livre")]  # no bribes: Bob, nearest Alice's left, stays
    for viewer in (PUBLIC, A, B, C):
        assert R.view(st, viewer)["board"]["island"] == [{"player": C, "motif": "livre"}]


# ------------------------------------------------------------------ S09: « il doit décider de leurs affectations »


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_S09_gerer_son_palace_every_park_is_emptied_by_its_management(mode: str) -> None:
    """Nobody leaves a counsellor waiting: each gets a post or goes to the island when its park is managed."""
    for seed in range(5):
        for st in bot_game(mode, seed):
            if mode == "simultaneous" and st.step in ("income", "placements"):
                assert all(not st.palaces[p].park for p in st.seats), (seed, st.round, st.step)
            if mode == "sequential" and st.step == "place":
                assert not st.palaces[st.current].park, (seed, st.round, st.current)


# ------------------------------------------------------------------ S18: « pour le reste de la partie »


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_S18_les_autres_vont_sur_l_ile_pour_le_reste_de_la_partie(mode: str) -> None:
    for seed in range(5):
        states = bot_game(mode, seed, refund_loser=True)
        for before, after in zip(states, states[1:], strict=False):
            assert after.island[: len(before.island)] == before.island  # the island only grows
        assert states[-1].island, "some counsellor was banished"


# ------------------------------------------------------------------ S19-S21: motifs absent from the palace


def test_S19_a_single_free_post_still_asks_the_bribe() -> None:
    """« … versent un pot-de-vin »: even when the owner has no choice of post (the only way to pay a promise)."""
    full = {A: {10_000: (B, "balance"), 20_000: (C, "bourse"), 30_000: (B, "livre"), 50_000: (C, "epee")}}
    st, _ = start(build(mode="sequential", posts=full, parks={A: [(B, "eveque")]}))
    assert [(p.player, p.kind) for p in R.prompts(st)] == [(B, "bribe")]
    st, ev = step(st, {B: ["POT-DE-VIN 20000"]})
    assert holder(st, A, 100_000) == (B, "eveque") and "post_assigned" in kinds(ev)  # no choice: given at once
    assert st.money[A] == 320_000 + 20_000 and money_conserved(st)


def test_S21_every_counsellor_of_an_absent_motif_gets_a_post() -> None:
    """« le propriétaire du Palace donne un poste à chaque Conseiller au motif absent »: he cannot leave one out."""
    st, _ = start(build(parks={A: [(B, "livre"), (C, "balance")]}))
    st, _ = step(st)
    st, _ = step(st, {A: ["POSTE Bob livre 10000"]})  # Carla's counsellor is not named
    assert holder(st, A, 10_000) == (B, "livre") and holder(st, A, 100_000) == (C, "balance")
    assert st.palaces[A].park == ()


# ------------------------------------------------------------------ S22: « qui gardera le poste »


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_S22_the_winner_of_a_conflict_holds_the_same_post(mode: str) -> None:
    st, _ = start(build(mode=mode, posts={A: {30_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    bribes = {B: ["POT-DE-VIN Alice livre 0"], C: ["POT-DE-VIN Alice livre 40000"]}
    if mode == "simultaneous":
        st, _ = step(st, bribes)
    else:
        st, _ = step(st, {B: bribes[B]})
        st, _ = step(st, {C: bribes[C]})
    st, ev = step(st)  # the owner is silent: the highest bribe wins
    assert holder(st, A, 30_000) == (C, "livre") and on_island(st) == [(B, "livre")]
    assert [p.holder for p in st.palaces[A].posts if p.value != 30_000] == [None] * 4
    assert event_texts(ev, "conflict_resolved")[0].endswith("Carla prend le poste, le conseiller de Bob part sur l'île.")


# ------------------------------------------------------------------ S25: « multiples de 10 000 » (option minimum_bribe)


def test_S25_a_bribe_of_0_is_a_multiple_of_10000_by_default() -> None:
    st, _ = start(build(mode="sequential", posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    assert orders(st, B, "POT-DE-VIN 0")[0].args == (A, "livre", 0)
    assert "0 permis" in R.help(st, B)[0].description.fr


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_S25_option_minimum_bribe_of_10000(mode: str) -> None:
    """The 1994 German rules ask at least 10,000: option ``minimum_bribe = 10000``; silence pays it."""
    st, _ = start(build(mode=mode, posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]},
                        money={C: 5_000, A: 635_000}, options={"minimum_bribe": 10_000}))
    with pytest.raises(OrderNotAllowedError, match="at least 10,000"):
        orders(st, B, "POT-DE-VIN Alice livre 0")
    assert "au moins 10" in R.help(st, B)[0].description.fr
    assert [p.player for p in R.prompts(st)] == [B]  # Carla has less than 10,000: not asked
    st, ev = step(st, {B: []})  # Bob is silent
    paid = {b.payer: b.amount for b in st.bribes}
    assert paid == {B: 10_000, C: 0}
    if mode == "sequential":
        assert event_texts(ev, "bribe_announced")[0].startswith(
            "Bob n'a pas répondu à temps : le pot-de-vin minimal de 10 000 est versé à Alice")


# ------------------------------------------------------------------ S30: « Il ne peut plus être majoré … »


def test_S30_a_bribe_once_announced_cannot_be_raised() -> None:
    st, _ = start(build(mode="sequential", posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    st, _ = step(st, {B: ["POT-DE-VIN 10000"]})
    with pytest.raises(OrderNotAllowedError):
        orders(st, B, "POT-DE-VIN 30000")  # Carla has the floor now; Bob's 10,000 stands
    st, _ = step(st, {C: ["POT-DE-VIN 20000"]})
    with pytest.raises(OrderNotAllowedError):
        orders(st, C, "POT-DE-VIN 30000")  # the last bidder neither: the owner decides now
    assert [(b.payer, b.amount) for b in st.bribes] == [(B, 10_000), (C, 20_000)]


# ------------------------------------------------------------------ S32: « L'argent ne peut circuler … que sous la forme de pot-de-vin »


def test_S32_no_order_gives_money_outside_a_bribe() -> None:
    st, _ = start(build(posts={A: {50_000: (B, "livre")}}, parks={A: [(C, "livre")]}))
    for line in ("DONNER Alice 10000", "PAYER Alice 10000", "POT-DE-VIN Carla livre 10000"):
        with pytest.raises(OrderError):
            orders(st, B, line)  # no gift, and no bribe to a palace where Bob has nothing at stake
    for mode in ("simultaneous", "sequential"):
        assert all(money_conserved(s) for s in bot_game(mode, 1))


# ------------------------------------------------------------------ S33: the variant, « perd un conflit » (option refund_conflicts)


@pytest.mark.parametrize("scope, refunded", [("internal", []), ("all", [B])])
def test_S33_variant_external_conflicts_refunded_only_with_refund_conflicts_all(scope: str, refunded: list[str]) -> None:
    """The text calls the park duplicates « conflits externes »: whether losing one is « perdre un conflit » is the option."""
    for mode in ("simultaneous", "sequential"):
        st, _ = start(build(mode=mode, parks={A: [(B, "livre"), (C, "livre")]}, refund=True,
                            options={"refund_conflicts": scope}))
        if mode == "simultaneous":
            st, _ = step(st, {B: ["POT-DE-VIN Alice livre 20000"], C: ["POT-DE-VIN Alice livre 30000"]})
        else:
            st, _ = step(st, {B: ["POT-DE-VIN 20000"]})
            st, _ = step(st, {C: ["POT-DE-VIN 30000"]})
        st, ev = step(st)  # Carla's 30,000 wins; Bob's livre goes to the island
        assert on_island(st)[0] == (B, "livre")
        assert [e.data["player"] for e in ev if e.kind == "bribe_refunded"] == refunded, (mode, scope)
        assert st.money[B] == 320_000 - (0 if refunded else 20_000) and money_conserved(st)


# ------------------------------------------------------------------ options: validated, naming the allowed values


@pytest.mark.parametrize("key, bad, allowed", [
    ("mode", "blitz", "simultaneous, sequential"),
    ("seating", "random", "draw, roster"),
    ("refund_loser", "yes", "false, true"),
    ("refund_loser", 1, "false, true"),
    ("minimum_bribe", 5000, "0, 10000"),
    ("minimum_bribe", True, "0, 10000"),
    ("refund_conflicts", "external", "internal, all"),
])
def test_options_an_unknown_value_is_an_error_naming_the_allowed_values(key: str, bad: object, allowed: str) -> None:
    with pytest.raises(SetupError) as err:
        R.setup([Seat(n) for n in (A, B, C)], {key: bad}, Dice("5eed", "setup"))
    assert allowed in err.value.msg.fr and allowed in err.value.msg.en and key in err.value.msg.fr


def test_options_an_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(SetupError) as err:
        R.setup([Seat(n) for n in (A, B, C)], {"colour": "red"}, Dice("5eed", "setup"))
    assert "colour" in err.value.msg.fr and "minimum_bribe" in err.value.msg.fr and "refund_conflicts" in err.value.msg.en


def test_options_chosen_are_announced_at_setup() -> None:
    st, ev = R.setup([Seat(n) for n in (A, B, C)], {"minimum_bribe": 10_000, "refund_loser": True,
                                                    "refund_conflicts": "all"}, Dice("5eed", "setup"))
    assert (st.options.minimum_bribe, st.options.refund_conflicts) == (10_000, "all")
    text = plain(Renderer("intrigue", "fr").event_text(ev[0]))
    assert "doublons du parc compris" in text and "un pot-de-vin est d'au moins 10 000" in text


# ------------------------------------------------------------------ French typography (FRENCH.md)


def test_french_texts_use_no_break_spaces_and_narrow_thousands() -> None:
    r = Renderer("intrigue", "fr")
    states = bot_game("sequential", 2, n=3, refund_loser=True)
    st = states[len(states) // 2]
    texts = [r.mail_text("status", view=R.view(st, who), player=who, tag="[I]").body for who in st.seats]
    texts += [h.description.fr for h in R.help(st, R.prompts(st)[0].player)]
    _, ev = R.resolve(st, {p.player: R.default_orders(st, p.player) for p in R.prompts(st)}, Dice("5eed", "x"))
    texts += [r.event_text(e) for e in ev]
    joined = "\n".join(texts)
    assert not re.search(r" [:;?!]", joined), re.findall(r".{20} [:;?!]", joined)[:3]
    assert not re.search(r"\d \d{3}\b", joined) and "\u202f000" in joined


def test_french_decision_asked_elides_de_before_a_vowel() -> None:
    """« Décision attendue d'Alice » (FRENCH.md: elision), not « de Alice »; « de Bob » stays."""
    st = build(parks={A: [(B, "livre"), (C, "livre")]}, round_=2)
    st = IntrigueState(**{**st.__dict__, "step": "bribes"})
    _, ev = step(st)
    texts = event_texts(ev, "decision_asked")
    assert any(t.startswith("Décision attendue d'Alice : ") for t in texts), texts
    assert not any("attendue de Alice" in t for t in texts)
