"""Simulation bots: legal order lines for a player (for demos, benchmarks and tests).

Pure: the lines depend only on (state, player, seed).  Every line is checked with the order
parser, so only accepted lines are returned.  Spellings vary (aliases, amounts written
``50000``, ``50k``, ``50 000``) so that the parser is exercised too.
"""

from __future__ import annotations

import random

from pbem.core import Order, OrderError
from pbem.games.intrigue.decisions import bribe_targets, keep_candidates
from pbem.games.intrigue.rules import IntrigueRuleset
from pbem.games.intrigue.state import IntrigueState
from pbem.games.intrigue.table import absent_pieces, duplicate_motifs, free_values, left_of

_RULES = IntrigueRuleset()


def candidate_lines(state: IntrigueState, player: str, kind: str, rng: random.Random) -> list[str]:
    """Order lines of the prompt ``kind`` for ``player`` (legal, varied; some decisions left to the defaults)."""
    out: list[str] = []
    if kind == "bribe":
        left = state.money[player]
        for pal, m in bribe_targets(state, player):
            amount = rng.randrange(0, left // 10_000 + 1) * 10_000 if rng.random() < 0.7 else 0
            amount = min(amount, left)
            left -= amount
            spelt = rng.choice([str(amount), f"{amount // 1000}k", f"{amount:,}".replace(",", " ")])
            out.append(rng.choice([f"POT-DE-VIN {pal} {m} {spelt}", f"bribe {pal.lower()} {m} {spelt}"]))
    kept: dict[str, str] = {}
    if kind in ("keep", "decide"):
        for m, cands in keep_candidates(state, player).items():
            kept[m] = rng.choice(cands)
            out.append(rng.choice([f"GARDER {kept[m]} {m}", f"keep {kept[m]} {m}"]))
    if kind in ("post", "decide"):
        palace = state.palaces[player]
        free = free_values(palace)
        rng.shuffle(free)
        waiting = [pc for pc in absent_pieces(palace) if kept.get(pc.motif, pc.owner) == pc.owner]
        for pc, v in zip(waiting, free, strict=False):
            if rng.random() < 0.8:
                out.append(f"POSTE {pc.owner} {pc.motif} {v}")
    if kind == "conflict":
        out.append(f"CONFLIT {rng.choice(duplicate_motifs(state.palaces[player]))}")
    if kind == "place" and len(state.hands[player]) >= 2:
        hand = list(state.hands[player])
        rng.shuffle(hand)
        opponents = left_of(state, player)
        rng.shuffle(opponents)
        out += [f"PLACER {hand[0]} CHEZ {opponents[0]}", f"PLACE {hand[1]} AT {opponents[1]}"]
    return out


def random_orders(state: IntrigueState, player: str, rng_seed_int: int) -> list[str]:
    """Order lines for ``player`` now, as typed in a mail (empty when nothing is asked of them)."""
    kinds = [p.kind for p in _RULES.prompts(state) if p.player == player]
    if not kinds:
        return []
    rng = random.Random(f"{rng_seed_int}|{state.round}|{state.step}|{state.turn}|{player}")
    accepted: list[Order] = []
    lines: list[str] = []
    for line in candidate_lines(state, player, kinds[0], rng):
        try:
            accepted.append(_RULES.parse_order(state, player, line, accepted))
        except OrderError:
            continue
        lines.append(line)
    return lines
