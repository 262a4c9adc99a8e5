"""Pour le Roi (et Moi): scenario tests numbered after the sentences of the rule text.

``sNN`` is the NN-th sentence of ``pour-le-roi-et-moi.txt`` as numbered in ``docs/rules/pourleroi.md``
(the FAQ answers included, ``s30`` to ``s53``).  Each expected outcome is derived from that sentence
(or from the ruling the documentation gives for it), never read back from the code.

Cards of the shipped file used here: Guerre (GUE) A1 B3 C2 D4 E1 F2 G3 H1 I2, Marine (MAR) A2 B1 C3
D2 E4 F1 G2 H3 I1, Finances (FIN) A1 B2 C4 D1 E3 F2 G1 H3 I2; King cards ROI-01 to 06 « ±1 », 07 to 12
« ±1 ±1 », 13 to 15 « +1 -1 »; Gold OR-01 to 13 worth 1, OR-14 to 26 worth 2, OR-27 to 39 worth 3.
"""

from __future__ import annotations

import pytest

from pbem.core import OrderAmbiguousError, OrderNotAllowedError, OrderSyntaxError, Seat, SetupError, replace
from pbem.dice import Dice
from pbem.games.pourleroi import RULESET
from pbem.games.pourleroi import auction as A
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi.cards import in_play
from pbem.games.pourleroi.scoring import final_result
from pbem.games.pourleroi.state import AUCTION, GIFT, OVER, KingToPlay

from .pourleroi_helpers import (
    NAMES,
    SEED,
    arrange,
    auction_of,
    begin,
    fresh,
    kinds,
    of_kind,
    play_game,
    refused,
    step,
)

G1, G2, G3 = "OR-01", "OR-14", "OR-27"  # a Gold card of each value
G1b, G2b, G3b = "OR-02", "OR-15", "OR-28"


def parse(st, player, line, accepted=()):
    return RULESET.parse_order(st, player, line, list(accepted))


# ---------------------------------------------------------------- set-up (sentences 3, 9 to 13)


def test_s09_the_game_is_for_two_to_five_players():
    for n in (2, 3, 4, 5):
        assert len(fresh(n).seats) == n
    for n in (1, 6):
        with pytest.raises(SetupError):
            RULESET.setup([Seat(f"P{i}") for i in range(n)], {}, Dice(SEED, "setup"))


def test_s10_five_ministries_up_to_four_players_six_at_five():
    for n in (2, 3, 4):
        assert fresh(n).ministries == ("GUE", "MAR", "FIN", "JUS", "AFF")
    assert fresh(5).ministries == ("GUE", "MAR", "FIN", "JUS", "AFF", "MAI")


def test_s11_primary_offices_start_at_three_points():
    for n in (2, 5):
        assert set(fresh(n).offices.values()) == {3}


def test_s12_secondary_offices_start_at_one_point_except_at_two_where_they_are_not_used():
    assert fresh(2).secondary is False
    for n in (3, 4, 5):
        st = fresh(n)
        assert st.secondary is True
        assert {RULESET.view(st, "@public")["offices"][i]["secondary"] for i in range(len(st.ministries))} == {1}


@pytest.mark.parametrize("n, deck, random_removed, gold_out", [(2, 65, 22, 12), (3, 77, 13, 9), (4, 85, 8, 6),
                                                                (5, 108, 0, 0)])
def test_s13_cards_not_for_this_count_then_the_set_up_table_are_removed(n, deck, random_removed, gold_out):
    """Printed count above the players (the sixth ministry at 2 to 4), then at 2 players 4 Gold of each value
    and 22 random cards, at 3: 3 and 13, at 4: 2 and 8, at 5: nothing (the published table)."""
    st = fresh(n)
    assert len(st.deck) == deck and len(st.removed) == random_removed
    sixth = [c for c in st.material.all_cards() if c.startswith("MAI-")]
    out = set(st.out_of_box)
    assert (set(sixth) <= out) == (n < 5)
    assert sum(1 for c in out if c in st.material.gold) == gold_out
    for value in (1, 2, 3):  # the same number of each value
        assert sum(1 for c in out if st.material.gold.get(c) == value) == gold_out // 3
    assert len(in_play(st.material, n)) == (108 if n == 5 else 99)


def test_s13_the_deck_is_shuffled_with_the_seed():
    a, b = fresh(4), fresh(4)
    assert a.deck == b.deck
    other, _ = RULESET.setup([Seat(p) for p in NAMES[:4]], {"seating": "roster"}, Dice("17" * 32, "setup"))
    assert other.deck != a.deck


# ---------------------------------------------------------------- the gift phase (sentences 14 to 20, 30 to 33)


def test_s14_the_donor_draws_one_card_looks_at_it_and_is_the_only_one_asked():
    st, ev = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    assert st.round.donor == "Anne" and st.round.drawn == "GUE-A"
    drawn = of_kind(ev, "card_drawn")
    assert [e.audience.players for e in drawn] == [("Anne",)] and drawn[0].data["card"]["id"] == "GUE-A"
    assert [(p.player, p.kind, p.deadline) for p in RULESET.prompts(st)] == [("Anne", "place", "card")]
    assert RULESET.view(st, "Anne")["drawn"]["id"] == "GUE-A"
    assert RULESET.view(st, "Blaise")["drawn"] is None


def test_s15_one_kept_face_down_one_neutral_face_down_and_one_per_opponent_face_up_in_the_centre():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    st, ev = step(st, {"Anne": ["GARDER"]})
    assert st.hands["Anne"] == ("GUE-A",)
    placed = of_kind(ev, "card_placed")[0]
    assert placed.audience.kind == "public" and placed.data["card"] is None  # face down: the card is not told
    st, ev = step(st, {"Anne": ["NEUTRE"]})
    assert st.neutral == ("GUE-B",) and st.neutral_by == {"GUE-B": "Anne"}
    assert of_kind(ev, "card_placed")[0].data["card"] is None
    # two places left, both in the centre (two opponents): the limits force them, nobody is asked
    assert st.round.centre == ("GUE-C", "GUE-D") and st.round.drawn is None
    assert [e.data["card"]["id"] for e in of_kind(ev, "card_placed")[1:]] == ["GUE-C", "GUE-D"]
    assert all(e.data["forced"] for e in of_kind(ev, "card_placed")[1:])


def test_s15_the_limits_force_the_last_cards_into_the_places_left():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    st, ev = step(st, {"Anne": ["CENTRE"]})
    st, ev = step(st, {"Anne": ["CENTRE"]})  # the centre is full: the third card can only be kept or neutral
    assert st.round.drawn == "GUE-C"
    assert [h.syntax for h in RULESET.help(st, "Anne")] == ["GARDER", "NEUTRE"]
    refused(st, "Anne", "CENTRE", OrderNotAllowedError, "centre est plein")
    st, ev = step(st, {"Anne": ["NEUTRE"]})  # the fourth can only be kept: placed without asking
    assert st.hands["Anne"] == ("GUE-D",)
    assert of_kind(ev, "you_placed")[-1].data == {"dest": "garder", "card": of_kind(ev, "you_placed")[-1].data["card"],
                                                  "forced": True}


def test_s16_s31_no_look_ahead_the_next_card_is_drawn_only_after_this_one_is_placed():
    st, ev = begin(arrange(4, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "GUE-E", "MAR-A"]))
    seen = {e.data["card"]["id"] for e in of_kind(ev, "card_drawn")}
    assert seen == {"GUE-A"} and st.deck[0] == "GUE-B"
    assert "GUE-B" not in str(RULESET.view(st, "Anne"))  # not even in the donor's own view
    st, ev = step(st, {"Anne": ["NEUTRE"]})
    assert [e.data["card"]["id"] for e in of_kind(ev, "card_drawn")] == ["GUE-B"]
    assert st.neutral == ("GUE-A",)


def test_s17_opponents_take_a_centre_card_each_clockwise_from_the_donors_left():
    st, _ = begin(arrange(4, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "GUE-E", "MAR-A", "MAR-B"]))
    for dest in ("GARDER", "NEUTRE"):  # then the three centre places are all that is left: no more questions
        st, ev = step(st, {"Anne": [dest]})
    assert st.round.centre == ("GUE-C", "GUE-D", "GUE-E")
    # Blaise then Claude choose; Diane, last, takes what is left and is not asked
    assert [(p.player, p.kind) for p in RULESET.prompts(st)] == [("Blaise", "centre"), ("Claude", "centre")]
    st, ev = step(st, {"Blaise": ["CHOIX Guerre E, Guerre C"], "Claude": ["CHOIX GUE-E GUE-C GUE-D"]})
    taken = [(e.data["player"], e.data["card"]["id"]) for e in of_kind(ev, "centre_taken")]
    assert taken == [("Blaise", "GUE-E"), ("Claude", "GUE-C"), ("Diane", "GUE-D")]


def test_s17_ranked_lists_give_exactly_what_picking_in_turn_gives():
    """For every pair of strict preference orders, the lists resolved clockwise = each picks his best left."""
    from itertools import permutations

    centre = ("GUE-C", "GUE-D", "GUE-E")
    for blaise in permutations(centre):
        for claude in permutations(centre):
            st, _ = begin(arrange(4, deck=["GUE-A", "GUE-B", *centre, "MAR-A", "MAR-B"]))
            for dest in ("GARDER", "NEUTRE"):
                st, _ = step(st, {"Anne": [dest]})
            st, ev = step(st, {"Blaise": ["CHOIX " + " ".join(blaise)], "Claude": ["CHOIX " + " ".join(claude)]})
            first = blaise[0]
            second = next(c for c in claude if c != first)
            third = next(c for c in centre if c not in (first, second))
            assert [e.data["card"]["id"] for e in of_kind(ev, "centre_taken")] == [first, second, third]


def test_s17_a_list_may_name_centre_numbers_and_a_short_list_falls_back_to_the_first_card_left():
    st, _ = begin(arrange(4, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "GUE-E", "MAR-A", "MAR-B"]))
    for dest in ("GARDER", "NEUTRE"):
        st, _ = step(st, {"Anne": [dest]})
    st, ev = step(st, {"Blaise": ["CHOIX 2"], "Claude": ["choose 2"]})  # Claude's only wish is gone
    taken = [(e.data["player"], e.data["card"]["id"], e.data["how"]) for e in of_kind(ev, "centre_taken")]
    assert taken == [("Blaise", "GUE-D", "choice"), ("Claude", "GUE-C", "default"), ("Diane", "GUE-E", "last")]


def test_s17_an_unknown_card_in_a_choice_list_drops_that_entry_only_and_the_ack_says_which():
    """« les adversaires choisissent chacun une carte du centre » : one bad entry in CHOIX must not cost the
    player his whole list (the default would take the first card left, maybe his last wish)."""
    st, _ = begin(arrange(4, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "GUE-E", "MAR-A", "MAR-B"]))
    for dest in ("GARDER", "NEUTRE"):
        st, _ = step(st, {"Anne": [dest]})
    order = RULESET.parse_order(st, "Blaise", "CHOIX Dragon, Roi 13, Guere E, Guerre D", [])
    assert order.args == ("GUE-D",)
    assert order.note is not None and order.note.fr == (
        "choix gardé\u00a0: Guerre D\u00a0; écartés\u00a0: «\u00a0Dragon\u00a0» (carte inconnue), «\u00a0Roi 13\u00a0» "
        "(pas au centre) et «\u00a0Guere E\u00a0» (vouliez-vous dire Guerre E\u00a0?)")
    assert order.note.en.startswith("choice kept: War D; dropped: 'Dragon' (unknown card)")
    with pytest.raises(OrderAmbiguousError, match="did you mean"):  # nothing left to keep: refused as before
        RULESET.parse_order(st, "Blaise", "CHOIX Guere E", [])
    st, ev = step(st, {"Blaise": ["CHOIX Dragon, Guerre D, Guerre E"], "Claude": ["CHOIX Guerre D, Guerre E"]})
    taken = [(e.data["player"], e.data["card"]["id"], e.data["how"]) for e in of_kind(ev, "centre_taken")]
    assert taken == [("Blaise", "GUE-D", "choice"), ("Claude", "GUE-E", "choice"), ("Diane", "GUE-C", "last")]


def test_s17_at_two_players_the_one_centre_card_goes_to_the_opponent_without_asking():
    st, _ = begin(arrange(2, deck=["GUE-A", "GUE-B", "GUE-C", "MAR-A"]))
    st, _ = step(st, {"Anne": ["GARDER"]})
    st, ev = step(st, {"Anne": ["CENTRE"]})  # the third card is forced into the neutral pile
    assert st.hands["Blaise"] == ("GUE-B",) and st.neutral == ("GUE-C",)
    assert of_kind(ev, "centre_taken")[0].data["how"] == "last"


def test_s18_the_donor_then_passes_the_deck_to_the_left():
    deck = [f"GUE-{x}" for x in "ABCDEFGHI"] + ["MAR-A"]
    st, _ = begin(arrange(3, deck=deck))
    donors: dict[int, str] = {}
    while st.phase == GIFT:
        donors[st.round.number] = st.round.donor
        st, _ = step(st)
    assert donors == {1: "Anne", 2: "Blaise", 3: "Claude"}  # 4 + 4 + 2 cards


def test_s19_s35_a_king_card_taken_from_the_centre_is_played_at_once_and_leaves_the_game():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "ROI-13", "GUE-C", "MAR-A"]))
    for dest in ("GARDER", "NEUTRE"):
        st, _ = step(st, {"Anne": [dest]})
    assert st.round.centre == ("ROI-13", "GUE-C")
    st, ev = step(st, {"Blaise": ["CHOIX Roi 13"]})
    assert F.step_kind(st) == "king" and st.kings_pending[0].player == "Blaise"
    assert "ROI-13" not in st.hands["Blaise"]
    assert [(p.player, p.kind) for p in RULESET.prompts(st)] == [("Blaise", "king")]
    st, ev = step(st, {"Blaise": ["ROI Guerre + Marine -"]})  # « +1 -1 »: raise one office, lower another
    assert st.offices["GUE"] == 4 and st.offices["MAR"] == 2
    assert st.kings_played == ("ROI-13",) and "ROI-13" not in st.hands["Blaise"]
    assert of_kind(ev, "king_played")[0].audience.kind == "public"
    assert st.round.number == 2  # and only then does the deck pass on


def test_s19_a_king_card_kept_by_the_donor_is_played_before_he_draws_again():
    st, _ = begin(arrange(3, deck=["ROI-01", "GUE-A", "GUE-B", "GUE-C", "MAR-A"]))
    st, ev = step(st, {"Anne": ["GARDER Roi 1"]})
    assert F.step_kind(st) == "king" and st.round.drawn is None
    assert of_kind(ev, "card_placed")[0].data["card"]["id"] == "ROI-01"  # a King played is public
    st, ev = step(st, {"Anne": ["ROI Finances -"]})
    assert st.offices["FIN"] == 2 and st.round.drawn == "GUE-A"


def test_s20_s34_a_king_card_never_waits_in_a_hand():
    played = 0
    for _before, ev, after in play_game(4, 5):
        played += len(of_kind(ev, "king_played"))
        for p in after.seats:
            assert not [c for c in after.hands[p] if c in after.material.kings]
    assert played >= 5


def test_s33_each_gift_round_keeps_exactly_one_card_and_adds_exactly_one_to_the_neutral_pile():
    steps = play_game(3, 11)
    rounds: dict[int, list[str]] = {}
    for _before, ev, _after in steps:
        for e in ev:
            if e.kind == "card_placed":
                rounds.setdefault(e.data["round"], []).append(e.data["dest"])
    last = max(rounds)
    for number, dests in rounds.items():
        if number < last:  # the last round may be short when the deck runs out
            assert sorted(dests) == ["centre", "centre", "garder", "neutre"], (number, dests)
        assert dests.count("garder") <= 1 and dests.count("neutre") <= 1


def test_s32_a_placement_cannot_be_changed_once_the_next_card_is_drawn():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    st, _ = step(st, {"Anne": ["NEUTRE Guerre A"]})
    assert st.round.drawn == "GUE-B"
    refused(st, "Anne", "GARDER Guerre A", OrderNotAllowedError, "Guerre B")  # an answer meant for the previous card is refused
    refused(st, "Anne", "NEUTRE", OrderNotAllowedError, "paquet neutre a déjà")


def test_gift_deck_running_out_mid_round_ends_the_gift_phase_after_the_picks():
    """Ruling: the cards drawn so far are placed within the limits, the (short) centre is taken as usual."""
    st, _ = begin(arrange(4, deck=["GUE-A", "GUE-B", "GUE-C"], hands={"Anne": [G1]}))
    st, _ = step(st, {"Anne": ["CENTRE"]})
    st, _ = step(st, {"Anne": ["CENTRE"]})
    st, ev = step(st, {"Anne": ["NEUTRE"]})  # the deck is empty: the round ends with two cards in the centre
    assert st.round.centre == ("GUE-A", "GUE-B") and [p.player for p in RULESET.prompts(st)] == ["Blaise"]
    st, ev = step(st, {"Blaise": ["CHOIX Guerre B"]})
    taken = [(e.data["player"], e.data["card"]["id"]) for e in of_kind(ev, "centre_taken")]
    assert taken == [("Blaise", "GUE-B"), ("Claude", "GUE-A")]
    assert of_kind(ev, "centre_short")[0].data["players"] == ["Diane"]
    assert st.phase == AUCTION and st.auction.total == 1


# ---------------------------------------------------------------- the auction phase (21 to 24, 41 to 51)


def test_s21_s22_when_the_deck_is_empty_the_neutral_pile_is_shuffled_and_sold_card_by_card():
    st, _ = begin(arrange(2, deck=["GUE-A", "GUE-B", "GUE-C"], hands={"Anne": [G3], "Blaise": [G3b]}))
    st, _ = step(st, {"Anne": ["GARDER"]})
    st, ev = step(st, {"Anne": ["CENTRE"]})
    assert st.phase == AUCTION and st.neutral == () and st.auction.total == 1
    assert "gift_over" in kinds(ev) and st.auction.current == "GUE-C"
    assert {p.player for p in RULESET.prompts(st)} == {"Anne", "Blaise"}
    assert of_kind(ev, "auction_opened")[0].data["card"]["id"] == "GUE-C"
    # the first auction opens at the left of the last donor (Anne): Blaise has the priority
    assert st.auction.opener == "Blaise"


def test_s23_s45_a_government_card_is_paid_in_gold_reaching_the_price():
    st = arrange(3, hands={"Anne": [G1, G2, G3], "Blaise": [G2b], "Claude": []})
    st, _ = auction_of(st, ["GUE-D"], opener="Anne")
    st, ev = step(st, {"Anne": ["ENCHERE 5"], "Blaise": ["ENCHERE 2"]})
    won = of_kind(ev, "auction_won")[0].data
    # at the table: Anne 1, Blaise 2, Claude passes, Anne 3, Blaise passes (his maximum is 2)
    assert (won["winner"], won["price"]) == ("Anne", 3)
    assert "GUE-D" in st.hands["Anne"]
    assert sorted(st.gold_cards("Anne")) == [G1, G2] and G3 in st.discard_up  # Or 3 pays exactly 3


def test_s46_overpaid_gold_is_not_given_back():
    st = arrange(3, hands={"Anne": [G3], "Blaise": [G1], "Claude": []})
    st, _ = auction_of(st, ["GUE-D"], opener="Blaise")
    st, ev = step(st, {"Anne": ["ENCHERE 3"], "Blaise": ["ENCHERE 1"]})
    paid = of_kind(ev, "gold_paid")[0].data  # Blaise 1, Claude passes, Anne 2, Blaise passes: Anne pays 2 with Or 3
    assert (paid["price"], paid["paid"], paid["lost"]) == (2, 3, 1)
    assert st.gold_total("Anne") == 0 and st.hands["Anne"] == ("GUE-D",)


def test_s47_s48_s49_a_gold_card_is_bought_by_discarding_that_many_cards_face_down_then_taken():
    st = arrange(3, hands={"Anne": ["MAR-A", "MAR-B", G1], "Blaise": ["FIN-A"], "Claude": []})
    st, _ = auction_of(st, [G3], opener="Blaise")  # Blaise 1, Claude passes, Anne 2, Blaise passes
    assert [h.syntax for h in RULESET.help(st, "Anne")][:2] == ["ENCHERE <n>", "ENCHERE <n> DEFAUSSE <carte> <carte> …"]
    refused(st, "Anne", "ENCHERE 4", OrderNotAllowedError, "3 cartes en main")  # a number of cards, at most the hand
    st, ev = step(st, {"Anne": ["ENCHERE 3 DEFAUSSE Marine B, Or 1, Marine A"], "Blaise": ["ENCHERE 1"]})
    assert of_kind(ev, "auction_won")[0].data["price"] == 2
    assert st.hands["Anne"] == ("MAR-A", G3)  # the first two listed are discarded, then the Gold card is taken
    assert set(st.discard_down) == {"MAR-B", G1}
    public = [e for e in ev if e.audience.kind == "public"]
    assert "MAR-B" not in str([e.data for e in public])  # face down
    assert of_kind(ev, "you_gave")[0].audience.players == ("Anne",)


def test_s48_without_a_list_the_lowest_valued_cards_are_given_gold_first():
    st = arrange(2, hands={"Anne": ["MAR-E", "MAR-B", G2, G1], "Blaise": ["FIN-A"]})
    st, _ = auction_of(st, [G3], opener="Blaise")  # Blaise 1, Anne 2, Blaise passes: 2 cards
    st, _ = step(st, {"Anne": ["ENCHERE 2"], "Blaise": ["ENCHERE 1"]})
    assert set(st.discard_down) == {G1, "MAR-B"}  # values 1 (Gold first), then 1 (Government), before Or 2


def test_s24_s42_s43_passing_leaves_this_auction_for_good_but_not_the_next_ones():
    st = arrange(3, hands={"Anne": [G3, G3b], "Blaise": [G2b, "OR-29"], "Claude": [G1]})
    st, _ = auction_of(st, ["GUE-D", "MAR-E"], opener="Anne")
    st, ev = step(st, {"Anne": ["ENCHERE 2"], "Blaise": ["PASSE"], "Claude": ["PASSE"]})
    assert of_kind(ev, "auction_won")[0].data["winner"] == "Anne"
    assert of_kind(ev, "auction_won")[0].data["price"] == 1
    # Blaise passed on GUE-D, and bids on the next card
    assert st.auction.current == "MAR-E" and "Blaise" in [p.player for p in RULESET.prompts(st)]
    st, ev = step(st, {"Blaise": ["ENCHERE 4"], "Anne": ["ENCHERE 2"]})
    assert of_kind(ev, "auction_won")[0].data["winner"] == "Blaise"


def test_s42_a_pass_is_final_the_proxy_gives_what_an_open_auction_gives():
    """At the table a player who has passed cannot come back at a higher price: with a maximum of 2, Blaise
    passes when he would have to bid 3, and Anne (maximum 6) buys at her last bid, not at her maximum."""
    # Anne 1, Blaise 2, Anne 3, Blaise passes
    assert A.proxy_result({"Anne": 6, "Blaise": 2}, ["Anne", "Blaise"]) == ("Anne", 3)
    # Blaise 1, Anne 2, Blaise passes: the second maximum is the price, when the winner reached it first
    assert A.proxy_result({"Anne": 6, "Blaise": 2}, ["Blaise", "Anne"]) == ("Anne", 2)
    # equal maxima: Blaise 1, Anne 2, Blaise passes: the one who bids the common maximum first wins, here Anne
    assert A.proxy_result({"Anne": 2, "Blaise": 2}, ["Blaise", "Anne"]) == ("Anne", 2)
    assert A.proxy_result({"Anne": 3, "Blaise": 3}, ["Blaise", "Anne"]) == ("Blaise", 3)
    assert A.proxy_result({"Anne": 0, "Blaise": 0}, ["Anne", "Blaise"]) is None


def test_auction_a_bid_above_what_the_player_can_pay_is_refused_with_the_reason():
    st = arrange(3, hands={"Anne": [G1, G2], "Blaise": [G1b], "Claude": []})
    st, _ = auction_of(st, ["GUE-D"], opener="Anne")
    refused(st, "Anne", "ENCHERE 4", OrderNotAllowedError, "votre Or en main vaut 3")
    assert parse(st, "Anne", "bid 3").args == ("", 3, "")
    # a player who cannot pay anything is asked (nobody learns it) but not waited for
    asked = {p.player: p.required for p in RULESET.prompts(st)}
    assert asked == {"Anne": True, "Blaise": True, "Claude": False}


def test_s50_s51_a_winner_who_cannot_pay_loses_a_random_card_to_his_left_and_the_card_is_sold_again():
    """With the option that accepts unpayable bids (a bluff at the table): Anne bids 5 holding 2 in Gold."""
    st = arrange(3, hands={"Anne": [G2b, "MAR-A"], "Blaise": [G2], "Claude": [G1]}, unpayable_bids="accept")
    st, _ = auction_of(st, ["GUE-D"], opener="Anne")
    st, ev = step(st, {"Anne": ["ENCHERE 5"], "Blaise": ["ENCHERE 2"], "Claude": ["ENCHERE 1"]})
    failed = of_kind(ev, "payment_failed")[0]
    assert failed.data["player"] == "Anne" and failed.data["taker"] == "Blaise" and failed.audience.kind == "public"
    lost = of_kind(ev, "you_lost_card")[0]
    assert lost.audience.players == ("Anne",)
    assert len(st.hands["Anne"]) == 1 and st.discard_down == (lost.data["card"]["id"],)
    # Anne pays nothing; the same card, sold again without her: Blaise 1, Claude (maximum 1) passes
    won = of_kind(ev, "auction_won")[0].data
    assert (won["winner"], won["price"], won["defaulted"]) == ("Blaise", 1, ["Anne"])
    assert "GUE-D" in st.hands["Blaise"] and st.sales[0].defaulted == ("Anne",)


def test_s50_non_payment_can_arise_from_a_maximum_given_in_advance():
    st = arrange(2, hands={"Anne": [G3], "Blaise": [G1]})
    st, _ = auction_of(st, ["GUE-C", "MAR-E"], opener="Anne")
    st, ev = step(st, {"Anne": ["ENCHERE 3", "ENCHERE Marine E 3"], "Blaise": ["PASSE"]})
    assert of_kind(ev, "standing_bid")[0].audience.players == ("Anne",)
    assert st.gold_total("Anne") == 0  # she paid 1 with her Or 3 (no change) for GUE-C
    # MAR-E on sale: Anne's maximum of 3 was given in advance, so she is not waited for
    assert {p.player: p.required for p in RULESET.prompts(st)} == {"Blaise": True, "Anne": False}
    st, ev = step(st, {"Blaise": ["ENCHERE 1"]})
    assert of_kind(ev, "payment_failed")[0].data["player"] == "Anne"
    assert of_kind(ev, "auction_won")[0].data["winner"] == "Blaise"


def test_auction_nobody_bids_the_card_is_discarded_face_up():
    st = arrange(2, hands={"Anne": [G1], "Blaise": [G1b]})
    st, _ = auction_of(st, ["GUE-C"], opener="Anne")
    st, ev = step(st, {"Anne": ["PASSE"], "Blaise": ["pass"]})
    assert "auction_unsold" in kinds(ev) and st.discard_up == ("GUE-C",)


def test_auction_a_card_nobody_can_pay_for_is_discarded_without_a_step():
    st = arrange(2, hands={"Anne": ["MAR-A"], "Blaise": []})
    st, ev = auction_of(st, ["GUE-C"], opener="Anne")
    assert "auction_unsold" in kinds(ev) and st.phase == OVER


def test_auction_the_priority_moves_left_at_each_card():
    st = arrange(3, hands={"Anne": [G1], "Blaise": [G1b], "Claude": ["OR-03"]})
    st, _ = auction_of(st, ["GUE-C", "GUE-D", "GUE-E"], opener="Blaise")
    openers = []
    while st.phase == AUCTION:
        openers.append(st.auction.opener)
        st, _ = step(st)
    assert openers == ["Blaise", "Claude", "Anne"]


# ---------------------------------------------------------------- King cards (36 to 38)


def test_s36_primary_offices_stay_between_one_and_six():
    st = arrange(3, offices={"GUE": 6, "MAR": 1})
    st = replace(st, kings_pending=(), phase=GIFT)
    legal = K.legal_changes(st, "ROI-01")
    assert ("GUE+",) not in legal and ("MAR-",) not in legal and ("GUE-",) in legal and ("MAR+",) in legal
    full = replace(st, offices=dict.fromkeys(st.ministries, 6))
    assert K.legal_changes(full, "ROI-13") == [("", "GUE-"), ("", "MAR-"), ("", "FIN-"), ("", "JUS-"), ("", "AFF-")]


def test_s36_one_change_per_symbol_on_different_offices_and_no_direct_secondary_change():
    st = arrange(3)
    with_king = replace(st, kings_pending=(KingToPlay("Anne", "ROI-07", "keep"),),
                        out_of_box=tuple(c for c in st.out_of_box if c != "ROI-07"))
    with pytest.raises(OrderNotAllowedError):
        parse(with_king, "Anne", "ROI Guerre + Guerre +")
    with pytest.raises(OrderSyntaxError):
        parse(with_king, "Anne", "ROI secondaire Guerre +")
    assert parse(with_king, "Anne", "ROI +GUE -FIN").args == ("GUE+", "FIN-")
    assert parse(with_king, "Anne", "king war up finance down").args == ("GUE+", "FIN-")


def test_s37_s38_the_secondary_office_is_half_the_primary_rounded_down_and_follows_it():
    from pbem.games.pourleroi.state import secondary_value

    assert [secondary_value(v) for v in range(1, 7)] == [0, 1, 1, 2, 2, 3]
    st, _ = begin(arrange(3, deck=["ROI-01", "GUE-A", "GUE-B", "GUE-C", "MAR-A"], offices={"GUE": 5}))
    st, ev = step(st, {"Anne": ["GARDER"]})
    st, ev = step(st, {"Anne": ["ROI GUE +"]})
    change = of_kind(ev, "king_played")[0].data["changes"][0]
    assert (change["before"], change["after"], change["secondary_after"]) == (5, 6, 3)
    assert RULESET.view(st, "@public")["offices"][0]["secondary"] == 3


# ---------------------------------------------------------------- scoring (25 to 29, 39, 40, 52, 53)


def _final(n, hands, offices=None):
    st = arrange(n, hands=hands, offices=offices)
    return final_result(st)


def test_s25_s26_s28_offices_go_to_the_highest_and_second_totals_and_points_are_office_values():
    res = _final(3, {"Anne": ["GUE-D", "GUE-A"], "Blaise": ["GUE-B"], "Claude": ["GUE-E", "MAR-A", "MAR-C"]},
                 offices={"GUE": 4, "MAR": 2})
    gue = res.standings[0]
    assert gue.totals == {"Anne": 5, "Blaise": 3, "Claude": 1}
    assert (gue.primary, gue.secondary) == ("Anne", "Blaise")
    # points: Anne 4 (War), Blaise 2 (half of 4), Claude 2 (Navy alone: primary at 2, no secondary holder)
    assert res.points == {"Anne": 4, "Blaise": 2, "Claude": 2}
    assert res.points["Claude"] != 1 + 2 + 3  # the printed values of the cards do not count


def test_s27_s52_a_tie_in_a_colour_goes_to_the_letter_nearest_a():
    res = _final(3, {"Anne": ["GUE-B"], "Blaise": ["GUE-A", "GUE-I"], "Claude": []})  # 3 against 1 + 2
    gue = res.standings[0]
    assert gue.totals == {"Anne": 3, "Blaise": 3} and (gue.primary, gue.secondary) == ("Blaise", "Anne")


def test_s53_the_loser_of_a_first_place_tie_takes_the_secondary_office():
    res = _final(3, {"Anne": ["GUE-C", "GUE-E"], "Blaise": ["GUE-B"], "Claude": ["GUE-F"]})  # 3, 3, 2
    gue = res.standings[0]
    assert (gue.primary, gue.secondary) == ("Blaise", "Anne")  # B beats C and E, Anne's best letter (C)
    assert res.points["Anne"] == 1 and res.points["Claude"] == 0


def test_s39_a_secondary_office_worth_zero_is_not_awarded():
    res = _final(3, {"Anne": ["GUE-D"], "Blaise": ["GUE-A"]}, offices={"GUE": 1})
    assert res.standings[0].secondary is None and res.points == {"Anne": 1, "Blaise": 0, "Claude": 0}


def test_s03_s40_at_two_players_secondary_offices_are_ignored():
    res = _final(2, {"Anne": ["GUE-D"], "Blaise": ["GUE-A"]}, offices={"GUE": 6})
    assert res.standings[0].secondary is None and res.points == {"Anne": 6, "Blaise": 0}
    three = _final(3, {"Anne": ["GUE-D"], "Blaise": ["GUE-A"]}, offices={"GUE": 6})
    assert three.points == {"Anne": 6, "Blaise": 3, "Claude": 0}  # « à plus de deux joueurs »


def test_s29_gold_in_hand_breaks_a_final_tie_and_only_then():
    res = _final(2, {"Anne": ["GUE-D", G1], "Blaise": ["MAR-E", G3]})  # 3 points each
    assert res.points == {"Anne": 3, "Blaise": 3} and res.winners == ("Blaise",) and res.decided_by == "gold"
    rich = _final(2, {"Anne": ["GUE-D", "MAR-E"], "Blaise": [G3, G3b]})
    assert rich.winners == ("Anne",) and rich.decided_by == "points"  # Gold alone scores nothing


def test_s29_after_gold_ties_go_to_the_most_primary_offices_then_the_victory_is_shared():
    tie = _final(2, {"Anne": ["GUE-D", "MAR-E"], "Blaise": ["FIN-C"]}, offices={"GUE": 2, "MAR": 2, "FIN": 4})
    assert tie.points == {"Anne": 4, "Blaise": 4} and tie.winners == ("Anne",) and tie.decided_by == "primaries"
    shared = _final(2, {"Anne": ["GUE-D"], "Blaise": ["MAR-E"]})
    assert shared.winners == ("Anne", "Blaise") and shared.decided_by == "shared"
    out = RULESET.outcome(replace(arrange(2, hands={"Anne": ["GUE-D"], "Blaise": ["MAR-E"]}), result=shared,
                                  phase=OVER))
    assert out is not None and out.summary.fr == "Victoire partagée entre Anne et Blaise, avec 3 points de fonctions chacun."


# ---------------------------------------------------------------- orders and defaults


def test_orders_are_refused_with_a_reason_outside_their_step():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    refused(st, "Blaise", "CHOIX 1", OrderNotAllowedError, "aucune décision")
    refused(st, "Anne", "ENCHERE 2", OrderNotAllowedError, "attendu : GARDER, NEUTRE ou CENTRE")
    refused(st, "Anne", "GARDRE", OrderAmbiguousError, "GARDER")
    refused(st, "Anne", "CENTRE", OrderNotAllowedError, "une seule destination", accepted=[parse(st, "Anne", "GARDER")])
    refused(st, "@mj", "GARDER", OrderNotAllowedError, "POUR")


def test_defaults_a_silent_donor_fills_the_centre_then_the_neutral_pile_then_keeps():
    st, _ = begin(arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]))
    for _ in range(3):
        st, _ = step(st)
    assert st.round is not None
    assert st.hands["Anne"] == ("GUE-D",) and st.neutral == ("GUE-C",)
    other = arrange(3, deck=["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"],
                    default_placement=["garder", "neutre", "centre"])
    st, _ = begin(other)
    st, _ = step(st)
    assert st.hands["Anne"] == ("GUE-A",)


def test_defaults_a_silent_player_passes_at_an_auction_unless_he_gave_a_maximum_in_advance():
    st = arrange(2, hands={"Anne": [G3], "Blaise": [G3b]})
    st, _ = auction_of(st, ["GUE-C", "MAR-E"], opener="Anne")
    assert [o.text for o in RULESET.default_orders(st, "Anne")] == ["PASSE"]
    st, _ = step(st, {"Anne": ["PASSE", "ENCHERE Marine E 2"]})
    assert [o.text for o in RULESET.default_orders(st, "Anne")] == ["ENCHERE 2"]


def test_a_standing_bid_for_a_card_in_another_hand_is_accepted_silently():
    """Refusing it would tell the bidder where the card is (ruling: nothing is said)."""
    st = arrange(2, hands={"Anne": [G3], "Blaise": ["GUE-A"]})
    st, _ = auction_of(st, ["GUE-C"], opener="Anne")
    assert parse(st, "Anne", "ENCHERE Guerre A 2").args == ("GUE-A", 2, "")
    refused(st, "Anne", "ENCHERE Guerre Z 2", OrderAmbiguousError, "vouliez-vous dire Guerre C (2)")
    refused(st, "Anne", "ENCHERE Pirates Q 2", OrderSyntaxError, "carte inconnue « Pirates »")


def test_auction_prompts_option_chooses_who_is_asked_and_who_is_waited_for():
    hands = {"Anne": [G1, G2], "Blaise": [G1b], "Claude": []}
    asked = {}
    for mode in ("everyone", "everyone_waited", "bidders"):
        st, _ = auction_of(arrange(3, hands=hands, auction_prompts=mode), ["GUE-D"], opener="Anne")
        asked[mode] = {p.player: p.required for p in RULESET.prompts(st)}
    assert asked == {"everyone": {"Anne": True, "Blaise": True, "Claude": False},
                     "everyone_waited": {"Anne": True, "Blaise": True, "Claude": True},
                     "bidders": {"Anne": True, "Blaise": True}}
