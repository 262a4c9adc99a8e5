"""Simulation bots: legal order lines for the player whose turn it is (demos, tests, the balance figure).

Pure: the lines depend only on (state, player, seed).  Every line is checked with the order parser,
so only accepted lines are returned.  The bots play at random among the legal actions, with a
courtier's common sense for weights (possessions on oneself, harm on others); spellings vary
(numbers or names, French or English) so that the parser is exercised too.
"""

from __future__ import annotations

import random

from pbem.core import Order, OrderError
from pbem.games.courtisans.cards import Card
from pbem.games.courtisans.ruleset import CourtisansRuleset
from pbem.games.courtisans.state import KING, QUEEN, CourtState, at_court, living, power_holder

_RULES = CourtisansRuleset()
HARM = ("mort", "exil", "bastille", "perd_favorite", "perd_amant")


def harmful(card: Card) -> bool:
    """Does the card hurt its target (so a courtier plays it on somebody else)?"""
    effects = list(card.effects) + [e for r in card.results for e in r.effects]
    return any(e.on == "cible" and (e.kind in HARM or (e.kind == "cote" and e.roi + e.reine < 0)
                                    or (e.kind == "livres" and e.amount + e.per_d10 < 0)) for e in effects)


def chance(state: CourtState, player: str, queen: bool) -> float:
    """The chance that a request of ``player`` is granted (to the Queen: both dice)."""
    c = state.courtiers[player]
    king = c.cote_reine if state.crown.regent else c.cote_roi
    if king is None:
        return 0.0
    p = max(0, min(10, king)) / 10
    if queen and not state.crown.regent and c.cote_reine is not None:
        p *= max(0, min(10, c.cote_reine)) / 10
    return p


def audience_chance(state: CourtState, player: str, sovereign: str) -> float:
    """The chance that ``sovereign`` (``roi`` or ``reine``; the Régente answers for the King) receives ``player``:
    one die against that cote."""
    c = state.courtiers[player]
    value = c.cote_reine if sovereign == "reine" or state.crown.regent else c.cote_roi
    return 0.0 if value is None else max(0, min(10, value)) / 10


def _target_word(state: CourtState, player: str, target: str, rng: random.Random) -> str:
    if target == player:
        return rng.choice(["moi", "moi", player, "me"])
    if target == KING:
        return rng.choice(["ROI", "le Roi", "King"])
    if target == QUEEN:
        return rng.choice(["REINE", "la Reine", "Queen"])
    return target


def _card_word(card: Card, rng: random.Random) -> str:
    return rng.choice([str(card.number), str(card.number), card.name, f"n°{card.number}"])


def candidates(state: CourtState, player: str, rng: random.Random) -> list[tuple[float, str]]:
    """(weight, line) for every action worth trying now."""
    c = state.courtiers[player]
    others = [p for p in living(state) if p != player]
    court = [p for p in at_court(state) if p != player]
    out: list[tuple[float, str]] = [(2.0 if len(c.hand) < 8 else 0.5, rng.choice(["PIOCHER", "piocher", "DRAW"]))]
    for n in c.hand:
        card = state.cards[n]
        if card.target == "aucune":
            out.append((1.0, f"JOUER {_card_word(card, rng)}"))
            continue
        people = [player, *others]
        if card.target in ("personnage", "roi"):
            people.append(KING)
        if card.target in ("personnage", "reine"):
            people.append(QUEEN)
        if card.target == "roi":
            people = [KING]
        if card.target == "reine":
            people = [QUEEN]
        bad = harmful(card)
        target = rng.choice([p for p in people if p != player] or people) if bad else \
            (player if rng.random() < 0.85 or not others else rng.choice(others))
        sovereign = ""
        weight = 5.0 if card.possession else (1.2 if bad else 2.0)
        if card.request:
            queen = rng.random() < 0.25 and c.cote_reine is not None
            sovereign = " " + (rng.choice(["REINE", "à la Reine", "QUEEN"]) if queen else
                               rng.choice(["ROI", "au Roi", "KING", ""]))
            weight *= max(0.05, chance(state, player, queen))  # a courtier weighs his chances
        if target in (KING, QUEEN):
            weight = 0.4
        verb = rng.choice(["JOUER", "jouer", "PLAY"])
        on = "ON" if verb == "PLAY" else rng.choice(["SUR", "sur"])
        out.append((weight, f"{verb} {_card_word(card, rng)} {on} {_target_word(state, player, target, rng)}"
                            f"{sovereign}".rstrip()))
    if c.at_court:
        for n in state.maison:
            card = state.cards[n]
            out.append((1.5 if card.possession else 0.3, f"MAISON {_card_word(card, rng)}"))
        # an audience too is tried the more it has a chance (a refusal costs a point of cote)
        king = max(0.05, audience_chance(state, player, "roi"))
        for p in court:
            o = state.courtiers[p]
            if o.sex != c.sex and not o.spouse and not c.spouse:
                out.append((0.8 * king, f"MARIAGE {p}"))
            for n in o.possessions:
                if state.cards[n].kind == "charge":
                    out.append((0.4 * king, f"CHARGE {state.cards[n].name} DE {p}"))
            for weight, verb in ((0.6, rng.choice(['RAGOTS', 'ragots', 'GOSSIP'])), (0.2, "LOUANGES")):
                sovereign = rng.choice(["roi", "reine"])
                out.append((weight * max(0.05, audience_chance(state, player, sovereign)),
                            f"{verb} {p} {sovereign.upper()}"))
        for p in others:
            status = state.courtiers[p].status
            if status == "bastille":
                out.append((0.6 * king, f"BASTILLE {p}"))
            if status == "exil":
                out.append((0.6 * king, f"EXIL {p} {rng.choice(['ROI', 'REINE', ''])}".rstrip()))
        if state.crown.widowed and not state.crown.secret_wife:
            out.append((3.0, f"PRINCESSE {rng.choice(['anglaise', 'hollandaise', 'espagnole', 'Spanish'])}"))
    if c.hand and others:
        gift = rng.sample(list(c.hand), min(len(c.hand), rng.choice([1, 2])))
        out.append((0.2, f"DONNER {' '.join(str(n) for n in gift)} A {rng.choice(others)}"))
    out.append((0.05, "PASSER"))
    return out


def _extras(state: CourtState, player: str, rng: random.Random) -> list[str]:
    """Lines that are not actions: the Chambellan's choice, the powers of charges, the discard."""
    lines: list[str] = []
    slot = state.slot
    if slot is not None and slot.kind == "first" and rng.random() < 0.8:
        lines.append(rng.choice(["VERSAILLES", "CHASSE", "Chasse", "COUR versailles", "versailles"]))
    hunt = power_holder(state, "maitre_chasse")
    if hunt and hunt[0] == player and rng.random() < 0.4:
        lines.append(rng.choice(["POUVOIR CHASSE", "POUVOIR VERSAILLES"]))
    chancellor = power_holder(state, "chancelier")
    if chancellor and chancellor[0] == player:
        for p in state.seats:
            if p == player:
                continue
            o = state.courtiers[p]
            if o.status == "bastille" and rng.random() < 0.3:
                lines.append(f"JUGER {p}")
            elif o.at_court and o.cote_roi is not None and o.cote_roi <= 0:
                lines.append(f"EMBASTILLER {p}")
    hand = state.courtiers[player].hand
    if len(hand) >= state.options.hand_limit - 1:
        lines.append("DEFAUSSER " + " ".join(str(n) for n in rng.sample(list(hand), 2)))
    return lines


def random_orders(state: CourtState, player: str, rng_seed_int: int) -> list[str]:
    """Order lines for ``player`` now, as typed in a mail (empty when it is not their turn)."""
    slot = state.slot
    if slot is None or slot.player != player:
        return []
    rng = random.Random(f"{rng_seed_int}|{state.round}|{state.turns}|{player}")
    accepted: list[Order] = []
    lines: list[str] = []

    def keep(line: str) -> bool:
        try:
            accepted.append(_RULES.parse_order(state, player, line, accepted))
        except OrderError:
            return False
        lines.append(line)
        return True

    extras = _extras(state, player, rng)
    if extras and extras[0].split()[0].lower() in ("versailles", "chasse", "cour"):
        keep(extras.pop(0))
    for _ in range(2):
        pool = candidates(state, player, rng)
        for _attempt in range(6):
            weights = [w for w, _ in pool]
            choice = rng.choices(range(len(pool)), weights)[0]
            if keep(pool[choice][1]):
                break
            pool.pop(choice)
            if not pool:
                break
    for line in extras:
        keep(line)
    return lines
