"""A position for a scenario file: exactly the cards a case names, in the places it names them.

``pbem scenario run`` reads ``[position]`` (French keys, docs/scenarios.md) and calls
`PourLeRoiRuleset.scenario_setup`: the game is set up as usual (seats, options, card file), then
only the cards of the position stay in play; every other card goes out of the box, so the deck's
shuffle and the set-up's random removals do not matter and every card is still in exactly one
place.  The game then runs on to its first decision, as after a real set-up.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from pbem.core import replace
from pbem.games.pourleroi.state import AUCTION, PRIMARY_MAX, PRIMARY_MIN, Auction, State
from pbem.grammar import position_refused
from pbem.names import fold

KEYS = ("pioche", "mains", "neutre", "neutre_par", "fonctions", "enchere")
"""``pioche``: the deck, top first (the gift phase); ``mains``: player -> cards in hand; ``neutre`` and
``neutre_par``: the neutral pile and who placed each card in it; ``fonctions``: ministry -> primary
value; ``enchere``: ``{ pile = [...], ouvreur = "<player>" }``, the auction phase with this pile."""


def _card(state: State, key: str, raw: Any, seen: dict[str, str]) -> str:
    cards = state.material.all_cards()
    if not isinstance(raw, str):
        raise position_refused(key, "attendu : un identifiant de carte (« GUE-C », « ROI-07 », « OR-15 »)",
                    "expected a card id ('GUE-C', 'ROI-07', 'OR-15')")
    wanted = raw.strip().upper()
    if wanted not in cards:
        close = difflib.get_close_matches(wanted, cards, n=1)
        hint_fr = f" ; vouliez-vous dire {close[0]} ?" if close else ""
        hint_en = f"; did you mean {close[0]}?" if close else ""
        raise position_refused(key, f"carte inconnue « {raw} »{hint_fr}", f"unknown card '{raw}'{hint_en}")
    if wanted in seen:
        raise position_refused(key, f"{wanted} figure deux fois dans la position ({seen[wanted]} et {key})",
                    f"{wanted} appears twice in the position ({seen[wanted]} and {key})")
    seen[wanted] = key
    return wanted


def _cards(state: State, key: str, raw: Any, seen: dict[str, str]) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise position_refused(key, "attendu : une liste de cartes", "expected a list of cards")
    return tuple(_card(state, f"{key}.{i}", c, seen) for i, c in enumerate(raw))


def _player(state: State, key: str, raw: Any) -> str:
    for p in state.seats:
        if isinstance(raw, str) and fold(p) == fold(raw):
            return p
    names = ", ".join(state.seats)
    raise position_refused(key, f"joueur inconnu « {raw} » ; joueurs : {names}", f"unknown player '{raw}'; players: {names}")


def _table(key: str, raw: Any) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise position_refused(key, "attendu : une table", "expected a table")
    return raw


def arrange(state: State, position: Mapping[str, Any]) -> State:
    """``state`` (just set up, nothing drawn) with exactly the position's cards in play; `PositionError` if it is wrong."""
    for key in position:
        if key not in KEYS:
            raise position_refused(key, f"clé inconnue ; clés permises : {', '.join(KEYS)}",
                        f"unknown key; keys allowed: {', '.join(KEYS)}")
    seen: dict[str, str] = {}
    deck = _cards(state, "pioche", position.get("pioche", []), seen)
    hands = {p: () for p in state.seats} | {
        _player(state, f"mains.{p}", p): _cards(state, f"mains.{p}", cards, seen)
        for p, cards in _table("mains", position.get("mains", {})).items()}
    neutral = _cards(state, "neutre", position.get("neutre", []), seen)
    neutral_by: dict[str, str] = {}
    for c, p in _table("neutre_par", position.get("neutre_par", {})).items():
        card = c.strip().upper()
        if card not in neutral:
            raise position_refused(f"neutre_par.{c}", f"{c} n'est pas dans le paquet neutre", f"{c} is not in the neutral pile")
        neutral_by[card] = _player(state, f"neutre_par.{c}", p)
    offices = dict(state.offices)
    for code, value in _table("fonctions", position.get("fonctions", {})).items():
        if code not in offices:
            raise position_refused(f"fonctions.{code}", f"ministère inconnu ; ministères : {', '.join(offices)}",
                        f"unknown ministry; ministries: {', '.join(offices)}")
        if isinstance(value, bool) or not isinstance(value, int) or not PRIMARY_MIN <= value <= PRIMARY_MAX:
            raise position_refused(f"fonctions.{code}", f"attendu : un nombre entier de {PRIMARY_MIN} à {PRIMARY_MAX}",
                        f"expected a whole number from {PRIMARY_MIN} to {PRIMARY_MAX}")
        offices[code] = value
    auction = None
    if "enchere" in position:
        sale = _table("enchere", position["enchere"])
        for key in sale:
            if key not in ("pile", "ouvreur"):
                raise position_refused(f"enchere.{key}", "clé inconnue ; clés permises : pile, ouvreur",
                            "unknown key; keys allowed: pile, ouvreur")
        if deck or neutral:
            raise position_refused("enchere", "la phase des enchères commence pioche épuisée et paquet neutre vidé : "
                        "pas de pioche ni de neutre avec enchere",
                        "the auction phase starts with an empty deck and neutral pile: no pioche or neutre with enchere")
        pile = _cards(state, "enchere.pile", sale.get("pile", []), seen)
        opener = _player(state, "enchere.ouvreur", sale.get("ouvreur", state.seats[0]))
        auction = Auction(pile, len(pile), opener=opener)
    rest = tuple(c for c in state.material.all_cards() if c not in seen)
    state = replace(state, deck=deck, hands=hands, neutral=neutral, neutral_by=neutral_by, removed=(),
                    out_of_box=rest, offices=offices, round=None, kings_pending=(), auction=auction)
    return replace(state, phase=AUCTION) if auction is not None else state

