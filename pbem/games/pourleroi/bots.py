"""Simulation bots: random legal order lines for a player (demos, tests, benchmarks).

Pure: the lines depend only on (state, player, seed).  Every line is checked with the order parser,
so only accepted lines are returned.  Spellings vary (card names, codes, centre numbers, English
aliases) so that the parser is exercised too; some answers are left to the defaults.
"""

from __future__ import annotations

import random

from pbem.core import Order, OrderError
from pbem.games.pourleroi import flow as F
from pbem.games.pourleroi import gift as G
from pbem.games.pourleroi import king as K
from pbem.games.pourleroi import orders as O
from pbem.games.pourleroi.cards import GOLD, label
from pbem.games.pourleroi.state import CENTRE, KEEP, NEUTRAL, State

_PLACE_WORDS = {KEEP: ["GARDER", "keep", "Garder"], NEUTRAL: ["NEUTRE", "neutral"], CENTRE: ["CENTRE", "center"]}


def _name(state: State, card: str, rng: random.Random) -> str:
    """A way a player could write the card: its label, its code, or in English."""
    m = state.material
    style = rng.random()
    if style < 0.6:
        return label(m, card).split(" (")[0]
    if style < 0.8 and card in m.government:
        return card
    return label(m, card, "en").split(" (")[0]


def candidate_lines(state: State, player: str, kind: str, rng: random.Random) -> list[str]:
    m = state.material
    if kind == F.PLACE:
        r = state.round
        assert r is not None and r.drawn is not None
        dest = rng.choice(G.legal_destinations(state))
        word = rng.choice(_PLACE_WORDS[dest])
        return [f"{word} {_name(state, r.drawn, rng)}" if rng.random() < 0.3 else word]
    if kind == F.PICK:
        r = state.round
        assert r is not None
        order = list(range(len(r.centre)))
        rng.shuffle(order)
        order = order[: rng.randint(1, len(order))]
        items = [str(i + 1) if rng.random() < 0.4 else _name(state, r.centre[i], rng) for i in order]
        return [rng.choice(["CHOIX", "choose", "Choix"]) + " " + ", ".join(items)]
    if kind == F.KING:
        change = rng.choice(K.legal_changes(state, state.kings_pending[0].card))
        return [K.change_text(change)]
    a = state.auction
    assert a is not None and a.current is not None
    lines: list[str] = []
    means = state.means(player, a.current)
    if F.standing_bid(state, player, a.current) is not None and rng.random() < 0.6:
        pass  # the maximum given in advance stands: nothing to say about this card
    elif means < 1 or rng.random() < 0.3:
        lines.append(rng.choice(["PASSE", "pass", "Passe"]))
    else:
        amount = min(means, max(1, int(rng.expovariate(0.45)) + 1))
        line = f"{rng.choice(['ENCHERE', 'bid', 'Enchère'])} {amount}"
        if m.kind(a.current) == GOLD and rng.random() < 0.5:
            hand = list(state.hands[player])
            rng.shuffle(hand)
            line += " DEFAUSSE " + ", ".join(_name(state, c, rng) for c in hand[:amount])
        lines.append(line)
    # now and then a maximum in advance for a card of one's own in the neutral pile
    mine = [c for c, p in state.neutral_by.items() if p == player and c in a.pile]
    if mine and rng.random() < 0.25:
        card = rng.choice(mine)
        top = state.means(player, card)
        if top >= 1:
            lines.append(f"ENCHERE {_name(state, card, rng)} {rng.randint(1, top)}")
    return lines


def random_orders(state: State, player: str, rng_seed_int: int) -> list[str]:
    """Order lines for ``player`` now, as typed in a mail (empty when nothing is asked of him)."""
    kinds = [x.kind for x in F.asked(state) if x.player == player]
    if not kinds:
        return []
    rng = random.Random(f"{rng_seed_int}|{state.decisions}|{player}")
    accepted: list[Order] = []
    out: list[str] = []
    for line in candidate_lines(state, player, kinds[0], rng):
        try:
            accepted.append(O.parse(state, player, line, accepted))
        except OrderError:
            continue
        out.append(line)
    return out
