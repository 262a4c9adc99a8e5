"""Courtisans over many games: the request dice in statistics (within 3σ), no leak of hands or deck over bot
games, the number of rounds bots need to reach 50 000 livres, and every text rendered in both languages."""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Iterator

import pytest

from pbem.core import MJ, PUBLIC, Event, Seat
from pbem.dice import Dice
from pbem.games.courtisans import RULESET as R
from pbem.games.courtisans.bots import random_orders
from pbem.games.courtisans.requests import ask, audience_die, gossip_points
from pbem.games.courtisans.state import CourtState
from pbem.render import Renderer

from .courtisans_helpers import B, c, deal, game, person, play, turn_of

N = 4000


def within_3_sigma(hits: int, n: int, p: float) -> bool:
    return abs(hits / n - p) <= 3 * math.sqrt(p * (1 - p) / n) + 1e-9


# ---------------------------------------------------------------- the dice of requests


@pytest.mark.parametrize("cote", [1, 3, 5, 8, 9])
def test_king_request_granted_with_probability_cote_over_ten(cote):
    """« S'il adresse sa requête au Roi, le MJ lance 1D10. Si le résultat du dé est supérieur à la cote du joueur,
    la requête est refusée » : P(accordée) = cote/10."""
    state = person(game(), B, cote_roi=cote)
    granted = 0
    for seed in range(N):
        verdict = ask(state, B, "roi", Dice(f"{seed:064x}", "step-1"), "request")
        granted += verdict.granted
        assert verdict.lost == (None if verdict.granted else "roi")
    assert within_3_sigma(granted, N, cote / 10)


@pytest.mark.parametrize(("queen", "king"), [(6, 4), (9, 8), (3, 7)])
def test_queen_request_both_dice(queen, king):
    """« S'il adresse sa requête à la Reine, le MJ lance 2 D10 » : first against the Queen's cote (failure: -1 with the
    Queen), then against the King's (failure: -1 with the King); granted when both succeed."""
    state = person(game(), B, cote_roi=king, cote_reine=queen)
    outcomes = {"granted": 0, "reine": 0, "roi": 0}
    for seed in range(N):
        verdict = ask(state, B, "reine", Dice(f"{seed:064x}", "step-1"), "request")
        outcomes["granted" if verdict.granted else str(verdict.lost)] += 1
    q, k = queen / 10, king / 10
    assert within_3_sigma(outcomes["granted"], N, q * k)
    assert within_3_sigma(outcomes["reine"], N, 1 - q)
    assert within_3_sigma(outcomes["roi"], N, q * (1 - k))


def test_regent_request_one_die_against_the_queen_cote():
    state = person(game(), B, cote_reine=7, cote_roi=None)
    state = state.__class__(**{**state.__dict__, "crown": state.crown.__class__(king=False, queen=True,
                                                                              regency_until=3)})
    granted = sum(ask(state, B, "roi", Dice(f"{seed:064x}", "s"), "r").granted for seed in range(N))
    assert within_3_sigma(granted, N, 0.7)


def test_ragots_audience_one_die_and_points_half_one_half_two():
    """« 1 seul [dé], même pour la Reine » ; « de 1 à 5 : … 1 … de 6 à 10 : … 2 »."""
    state = person(game(), B, cote_reine=6)
    received = sum(audience_die(state, B, "reine", Dice(f"{seed:064x}", "s")).granted for seed in range(N))
    assert within_3_sigma(received, N, 0.6)
    two = sum(gossip_points(state, B, "reine", Dice(f"{seed:064x}", "s"))[1] == 2 for seed in range(N))
    assert within_3_sigma(two, N, 0.5)


def test_requests_through_whole_turns_match_the_dice():
    """The same law through `resolve`: a pension played on oneself is granted with P = cote/10, and a refusal costs
    a point and sends the card to the Maison du Roi."""
    granted = 0
    n = 600
    base = person(deal(turn_of(game(), B), B, 41), B, cote_roi=4)
    for seed in range(n):
        state, _ = play(base, B, "JOUER 41 SUR moi", "PASSER", dice=Dice(f"{seed:064x}", "step-1"))
        if 41 in c(state, B).possessions:
            granted += 1
            assert c(state, B).cote_roi == 4
        else:
            assert c(state, B).cote_roi == 3 and 41 in state.maison
    assert within_3_sigma(granted, n, 0.4)


# ---------------------------------------------------------------- whole bot games


NAMES = ["Madame de la Vilenie", "Monsieur de la Fourberye", "Madame de Malveyance", "Monsieur d'Aubigny"]


def bot_game(seed: int, **options: object) -> Iterator[tuple[CourtState, list[Event], CourtState]]:
    """Every step of a bot game (10 % of the turns are silent): (state before, events, state after)."""
    seeds = f"{seed:064x}"
    state, events = R.setup([Seat(n) for n in NAMES], {**R.default_options, **options}, Dice(seeds, "setup"))
    yield state.__class__(**{**state.__dict__, "courtiers": {p: c.__class__(**{**c.__dict__, "hand": ()})
                                                              for p, c in state.courtiers.items()}}), events, state
    rng = random.Random(seed)
    for step in range(1, 200):
        prompts = R.prompts(state)
        if not prompts:
            return
        player = prompts[0].player
        accepted = []
        if rng.random() >= 0.1:
            for line in random_orders(state, player, seed * 1000 + step):
                accepted.append(R.parse_order(state, player, line, accepted))
        before = state
        state, events = R.resolve(state, {player: accepted or R.default_orders(state, player)},
                                  Dice(seeds, f"step-{step}"))
        yield before, events, state


def _card_numbers(data: object) -> set[int]:
    """Card numbers an event's data mentions (dicts with a card ``number``)."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "number" in data and "name" in data:
            found.add(int(data["number"]))
        for v in data.values():
            found |= _card_numbers(v)
    elif isinstance(data, list):
        for v in data:
            found |= _card_numbers(v)
    return found


def _secrets(before: CourtState, events: list[Event], after: CourtState) -> dict[int, set[str]]:
    """Cards whose whereabouts this step made private, and who may know them: drawn, given or discarded."""
    # the only public ways a card enters a hand or leaves it: taken from the Maison du Roi (whose cards are public),
    # a refused Lettre de cachet back to the hand, a card played
    public_cards = set()
    for e in events:
        if e.audience.kind == "public" and e.kind in ("took_from_maison", "card_back_to_hand", "card_played"):
            public_cards |= _card_numbers(dict(e.data))
    secrets: dict[int, set[str]] = {}
    for p in after.seats:
        for n in after.courtiers[p].hand:
            if n in before.courtiers[p].hand or n in public_cards:
                continue
            givers = {q for q in before.seats if n in before.courtiers[q].hand}
            secrets[n] = {p, *givers}
        for n in before.courtiers[p].hand:
            if n in after.discard and n not in public_cards:
                secrets[n] = {p}
    return secrets


@pytest.mark.parametrize("seed", range(10))
def test_no_hand_or_deck_content_reaches_another_player_or_the_forum(seed):
    """Hands, draws, gifts, discards and the deck are private: no event a player or the forum reads, and no view,
    tells a card that only others may know (the MJ's register tells him everything)."""
    fr = Renderer("courtisans", "fr")
    mj_saw_hands = False
    checked = 0
    for before, events, after in bot_game(seed):
        secrets = _secrets(before, events, after)
        checked += len(secrets)
        for e in events:
            mentioned = _card_numbers(dict(e.data))
            if e.audience.kind == "mj":
                mj_saw_hands = mj_saw_hands or e.kind == "register"
                continue
            readers = set(after.seats) if e.audience.kind == "public" else set(e.audience.players)
            for n in mentioned & set(secrets):
                assert readers <= secrets[n], (e.kind, n, readers, secrets[n])
        forum = "\n".join(fr.events_text([e for e in events if e.audience.kind == "public"]))
        for n in secrets:
            assert f"(n° {n})" not in forum, (n, forum)
        public_view = R.view(after, PUBLIC)
        text = json.dumps(public_view, ensure_ascii=False)
        assert '"hand"' not in text and '"deck"' not in text and '"discard"' not in text
        assert all(x["parti"] is None for x in public_view["courtiers"])
        for p in after.seats:
            view = R.view(after, p)
            others = [x for x in view["courtiers"] if x["player"] != p]
            assert all("hand" not in x and x["parti"] is None for x in others)
            assert "deck" not in view
            assert [x["number"] for x in view["me"]["hand"]] == list(after.courtiers[p].hand)
        assert "deck" in R.view(after, MJ)
    assert mj_saw_hands and checked > 30  # the game really had draws, gifts and discards to keep secret


def test_rounds_bots_need_to_reach_50000_livres():
    """The balance of the deck: with 4 bots (random legal play with a courtier's common sense, 10 % of the turns
    silent), the first reaches 50 000 livres in a plausible number of rounds (the figure of docs/rules/courtisans.md)."""
    rounds = []
    by_target = 0
    for seed in range(40):
        last = None
        for _, _, after in bot_game(seed, max_rounds=40):
            last = after
        assert last is not None and last.over
        rounds.append(last.round)
        by_target += last.end == "target"
    median = statistics.median(rounds)
    print(f"\nrounds to 50 000 livres (40 games, 4 bots): median {median}, "
          f"quartiles {statistics.quantiles(rounds, n=4)}, min {min(rounds)}, max {max(rounds)}")
    assert by_target == 40
    assert 6 <= median <= 14
    assert sum(r <= 20 for r in rounds) >= 34  # the default round limit (20) rarely decides


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_text_renders_in_both_languages(lang):
    r = Renderer("courtisans", lang)
    seen = set()
    for seed in range(6):
        for _, events, after in bot_game(seed):
            for e in events:
                out = r.event_text(e)
                seen.add(e.kind)
                assert out and "None" not in out and "{" not in out, (e.kind, out)
            for viewer in (*after.seats, MJ, PUBLIC):
                body = r.mail_text("status", view=R.view(after, viewer), player=viewer, tag="[C]").body
                assert "None" not in body
            forum = r.forum_text(title="T", events=[e for e in events if e.audience.kind == "public"],
                                 view=R.view(after, PUBLIC), final=R.outcome(after), tag="[C]")
            assert "[table]" in forum and "None" not in forum
    assert {"card_played", "request", "income", "round_started", "granted", "drew"} <= seen
