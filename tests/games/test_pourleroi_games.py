"""Pour le Roi (et Moi): proxy bids against an open auction, whole games (conservation, replay), information flow."""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import serial
from pbem.core import Audience, Event
from pbem.games.pourleroi import auction as A
from pbem.games.pourleroi import conservation_problems
from pbem.games.pourleroi.cards import card_data
from pbem.games.pourleroi.state import OVER

from .pourleroi_helpers import NAMES, arrange, auction_of, leaks, of_kind, play_game, step


def open_auction(maxima: dict[str, int], seats_from_opener: list[str]) -> tuple[str, int] | None:
    """The auction at the table, bid by bid, from the rule text and its ruling (docs/rules/pourleroi.md):
    « Passer retire définitivement de l'enchère en cours » ; the player with priority speaks first, then
    the others in turn, clockwise.  At his turn a player raises the price by one if his private maximum
    allows it, or passes and is out of this auction for good.  The turn skips those who are out; when it
    comes back to the last bidder, everybody else has passed since his bid: he buys at his bid.  When
    everybody has passed with no bid, the card is not sold."""
    out: set[str] = set()
    price, holder = 0, None
    turn = 0
    while len(out) < len(seats_from_opener):
        player = seats_from_opener[turn % len(seats_from_opener)]
        turn += 1
        if player in out:
            continue
        if player == holder:
            return holder, price
        if maxima.get(player, 0) >= price + 1:
            price, holder = price + 1, player
        else:
            out.add(player)
    return None


def test_the_open_auction_model_on_the_cases_worked_by_hand():
    """The model itself, on cases played out by hand (bids in brackets)."""
    # Anne 5, Blaise 3, Anne first: Anne 1, Blaise 2, Anne 3, Blaise passes: Anne pays the second maximum
    assert open_auction({"Anne": 5, "Blaise": 3}, ["Anne", "Blaise"]) == ("Anne", 3)
    # Blaise first: Blaise 1, Anne 2, Blaise 3, Anne 4, Blaise passes: one more than the second maximum
    assert open_auction({"Anne": 5, "Blaise": 3}, ["Blaise", "Anne"]) == ("Anne", 4)
    # equal maxima of 2, Blaise first: Blaise 1, Anne 2, Blaise passes: Anne, the second in seat order, wins
    assert open_auction({"Anne": 2, "Blaise": 2}, ["Blaise", "Anne"]) == ("Anne", 2)
    # Claude 0 passes at once and is skipped after: Anne 1, Blaise 2, Anne 3, Blaise passes
    assert open_auction({"Anne": 4, "Blaise": 2, "Claude": 0}, ["Anne", "Blaise", "Claude"]) == ("Anne", 3)
    assert open_auction({"Anne": 0, "Blaise": 0}, ["Anne", "Blaise"]) is None
    assert open_auction({"Anne": 0, "Blaise": 1}, ["Anne", "Blaise"]) == ("Blaise", 1)


maxima_strategy = st.lists(st.integers(min_value=0, max_value=15), min_size=2, max_size=5)
tied_strategy = st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=5)  # ties are frequent


@settings(max_examples=600, deadline=None)
@given(st.one_of(maxima_strategy, tied_strategy), st.integers(min_value=0, max_value=4))
def test_proxy_bidding_gives_the_winner_and_price_of_an_open_ascending_auction(values, opener):
    """« Passer retire définitivement de l'enchère en cours » : the proxy auction gives the winner and the
    price of the auction played bid by bid at the table, for any maxima, ties and seat order."""
    seats = NAMES[: len(values)]
    maxima = dict(zip(seats, values, strict=True))
    order = seats[opener % len(seats):] + seats[: opener % len(seats)]
    assert A.proxy_result(maxima, order) == open_auction(maxima, order)


def test_proxy_bidding_matches_the_open_auction_on_every_small_table():
    """Not only random draws: every maxima from 0 to 5 for three players, from each seat."""
    for values in product(range(6), repeat=3):
        maxima = dict(zip(NAMES[:3], values, strict=True))
        for k in range(3):
            order = NAMES[k:3] + NAMES[:k]
            assert A.proxy_result(maxima, order) == open_auction(maxima, order), (maxima, order)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=12), min_size=2, max_size=5), st.integers(min_value=0, max_value=4))
def test_a_whole_sale_through_the_rules_matches_the_open_auction(values, opener):
    """The same through the orders, the resolution and the payment: every player holds enough Gold."""
    n = len(values)
    seats = NAMES[:n]
    pool = [f"OR-{i:02d}" for i in range(39, 0, -1)]  # the 39 Gold cards, Or 3 first
    hands: dict[str, list[str]] = {}
    for p, want in zip(seats, values, strict=True):
        hands[p] = []
        while sum(1 + (int(c[3:]) > 13) + (int(c[3:]) > 26) for c in hands[p]) < want:
            hands[p].append(pool.pop(0))
    state = arrange(n, hands=hands)
    state, ev = auction_of(state, ["GUE-D"], opener=seats[opener % n])
    order = state.clockwise_from(seats[opener % n])
    if state.phase != OVER:  # nobody holding any Gold, the card was discarded at once
        lines = {p: [f"ENCHERE {values[i]}" if values[i] else "PASSE"] for i, p in enumerate(seats)}
        state, ev = step(state, lines)
    expected = open_auction(dict(zip(seats, values, strict=True)), order)
    won = of_kind(ev, "auction_won")
    if expected is None:
        assert not won and of_kind(ev, "auction_unsold")
    else:
        assert (won[0].data["winner"], won[0].data["price"]) == expected
        assert "GUE-D" in state.hands[expected[0]]


def test_the_random_card_lost_after_a_failed_payment_is_uniform_within_three_sigma():
    """« lui prend une carte au hasard »: over 600 seeds, each of 4 cards is lost about 150 times."""
    hand = ["MAR-A", "MAR-B", "MAR-C", "OR-01"]
    base = arrange(2, hands={"Anne": hand, "Blaise": ["OR-14"]}, unpayable_bids="accept")
    base, _ = auction_of(base, ["GUE-D"], opener="Anne")
    counts: Counter[str] = Counter()
    runs = 600
    for seed in range(runs):
        after, _ = step(base, {"Anne": ["ENCHERE 9"], "Blaise": ["ENCHERE 2"]}, seed=f"{seed:064x}")
        (lost,) = set(hand) - set(after.hands["Anne"])
        counts[lost] += 1
    p = 1 / len(hand)
    sigma = (runs * p * (1 - p)) ** 0.5
    assert set(counts) == set(hand)
    for card in hand:
        assert abs(counts[card] - runs * p) <= 3 * sigma, counts


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_keep_every_card_in_exactly_one_place_and_end_with_a_winner(n, seed):
    options = [{}, {}, {"auction_prompts": "bidders"}, {"unpayable_bids": "accept"}][seed]
    steps = play_game(n, seed, options)
    final = steps[-1][2]
    assert final.phase == OVER and final.result is not None and final.result.winners
    for i, (_before, _ev, after) in enumerate(steps):
        assert conservation_problems(after) == [], i
    # every neutral card was sold or discarded, one auction each (re-sales after a default included)
    assert len(final.sales) == final.auction.total
    kinds = Counter(e.kind for _b, ev, _a in steps for e in ev)
    assert kinds["auction_opened"] == final.auction.total and kinds["round_started"] >= 12
    assert kinds["king_played"] == len(final.kings_played)


def test_non_payments_arise_in_whole_games_when_unpayable_bids_are_accepted():
    seen = 0
    for seed in range(3, 9):
        steps = play_game(3, seed, {"unpayable_bids": "accept"}, bot=_bluffer)
        seen += sum(len(of_kind(ev, "payment_failed")) for _b, ev, _a in steps)
        assert conservation_problems(steps[-1][2]) == []
    assert seen >= 3


def _bluffer(state, player, seed):
    from pbem.games.pourleroi import flow as F
    from pbem.games.pourleroi.bots import random_orders

    if F.step_kind(state) == "auction" and random.Random(seed).random() < 0.3:
        return [f"ENCHERE {state.means(player, state.auction.current) + 2}"]
    return random_orders(state, player, seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_same_seed_and_orders_replay_byte_for_byte(n):
    def transcript():
        return [(serial.dumps(a), serial.to_data([(e.kind, e.audience.kind, list(e.audience.players), dict(e.data))
                                                  for e in ev])) for _b, ev, a in play_game(n, 7)]

    assert transcript() == transcript()


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 4])
def test_hands_kept_cards_and_neutral_cards_never_reach_another_player_or_the_forum(n, seed):
    steps = play_game(n, seed, {"unpayable_bids": "accept"} if seed == 4 else {})
    assert leaks(steps) == []


def test_the_leak_oracle_catches_a_kept_card_told_to_the_table():
    """The oracle is not vacuous: the same game with one forged public event naming a kept card fails."""
    steps = play_game(3, 1)
    for i, (before, ev, after) in enumerate(steps):
        if before is not None and before.round is not None and before.round.drawn is not None:
            kept = set(after.hands[before.round.donor]) - set(before.hands[before.round.donor])
            if kept:
                card = kept.pop()
                forged = Event("card_placed", Audience.public(), {"card": card_data(after.material, card)})
                steps[i] = (before, [*ev, forged], after)
                break
    else:
        pytest.fail("no kept card in that game")
    found = leaks(steps)
    assert found and "card_placed tells" in found[0]


def test_rules_never_read_the_clock_or_global_randomness():
    """Same inputs, same game, whatever Python's own random state."""
    random.seed(1)
    a = play_game(3, 9)[-1][2]
    random.seed(2)
    b = play_game(3, 9)[-1][2]
    assert serial.dumps(a) == serial.dumps(b)
