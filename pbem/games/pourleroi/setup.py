"""Set-up: options, the card file, the seating, the board and the deck.

« Choisissez la face du plateau correspondant au nombre de joueurs : cinq ministères jusqu'à quatre, six
à cinq. Les fonctions primaires commencent à trois points. Les fonctions secondaires commencent à un
point, sauf à deux où elles ne sont pas utilisées. Retirez les cartes non adaptées à l'effectif et les
cartes aléatoires indiquées par le tableau de préparation, puis mélangez la pioche. »
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import Audience, Event, Seat
from pbem.dice import Dice
from pbem.games.pourleroi import cards as C
from pbem.games.pourleroi.state import CENTRE, KEEP, NEUTRAL, PRIMARY_START, Options, State, secondary_value
from pbem.grammar import setup_refused
from pbem.names import fold

DEFAULT_OPTIONS: dict[str, Any] = {
    "cards": "",
    "seating": "draw",
    "default_placement": [CENTRE, NEUTRAL, KEEP],
    "unpayable_bids": "refuse",
    "auction_prompts": "everyone",
}
"""``cards``: path of a card file ("" = the shipped ``data/pourleroi/cartes.toml``);
``seating``: ``draw`` (seats drawn at random) or ``roster`` (registration order);
``default_placement``: where a silent donor's card goes, first place free in this order;
``unpayable_bids``: ``refuse`` a bid above what the player can pay, or ``accept`` it (the non-payment
rule then applies); ``auction_prompts``: at each auction ask ``everyone`` (wait only for those who can
bid), ``everyone_waited`` (and wait for all) or only the ``bidders`` (those who can bid)."""

AUCTION_PROMPTS = ("everyone", "everyone_waited", "bidders")
_PLACES = {"centre": CENTRE, "center": CENTRE, "neutre": NEUTRAL, "neutral": NEUTRAL, "garder": KEEP, "keep": KEEP}


def options_from(options: Mapping[str, Any]) -> Options:
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise setup_refused(f"option inconnue « {unknown[0]} » (options : {', '.join(DEFAULT_OPTIONS)})",
                   f"unknown option '{unknown[0]}' (options: {', '.join(DEFAULT_OPTIONS)})")
    o = {**DEFAULT_OPTIONS, **options}
    if not isinstance(o["cards"], str):
        raise setup_refused("cards : le chemin d'un fichier de cartes, ou \"\" pour celui de pbem",
                   "cards: the path of a card file, or \"\" for pbem's own")
    if o["seating"] not in ("draw", "roster"):
        raise setup_refused("seating : draw ou roster", "seating: draw or roster")
    order = o["default_placement"]
    if not isinstance(order, (list, tuple)) or not all(isinstance(x, str) and fold(x) in _PLACES for x in order) \
            or sorted(_PLACES[fold(x)] for x in order) != sorted((CENTRE, NEUTRAL, KEEP)):
        raise setup_refused("default_placement : les trois places dans l'ordre voulu, par exemple [\"centre\", \"neutre\", "
                   "\"garder\"]", "default_placement: the three places in the wanted order, e.g. "
                   "[\"centre\", \"neutre\", \"garder\"]")
    if o["unpayable_bids"] not in ("refuse", "accept"):
        raise setup_refused("unpayable_bids : refuse ou accept", "unpayable_bids: refuse or accept")
    if o["auction_prompts"] not in AUCTION_PROMPTS:
        raise setup_refused("auction_prompts : everyone, everyone_waited ou bidders",
                   "auction_prompts: everyone, everyone_waited or bidders")
    return Options(o["cards"], o["seating"], tuple(_PLACES[fold(x)] for x in order), o["unpayable_bids"],
                   o["auction_prompts"])


def setup(roster: Sequence[Seat], options: Mapping[str, Any], dice: Dice) -> tuple[State, list[Event]]:
    opts = options_from(options)
    names = [s.name for s in roster]
    if not C.MIN_PLAYERS <= len(names) <= C.MAX_PLAYERS:
        raise setup_refused(f"Pour le Roi (et Moi) se joue de 2 à 5 joueurs (ici {len(names)})",
                   f"Pour le Roi (et Moi) needs 2 to 5 players (got {len(names)})")
    if len({fold(n) for n in names}) != len(names) or any(not n.strip() or n.startswith("@") for n in names):
        raise setup_refused("noms de joueurs en double ou invalides", "duplicate or invalid player names")
    try:
        material = C.load(opts.cards or None)
    except C.CardFileError as e:
        raise setup_refused(str(e), f"card file: {e}") from None
    n = len(names)
    seats = tuple(dice.shuffle(names, "seating order") if opts.seating == "draw" else names)
    ministries = tuple(m.code for m in C.ministries_in_play(material, n))
    playing = C.in_play(material, n)
    out_of_box = [c for c in material.all_cards() if c not in set(playing)]
    prep = material.preparation[str(n)]
    for value in sorted({material.gold[c] for c in playing if c in material.gold}):
        copies = [c for c in playing if material.gold.get(c) == value]
        out_of_box += copies[len(copies) - prep.gold_per_value:] if prep.gold_per_value else []
    gone = set(out_of_box)
    deck = dice.shuffle([c for c in playing if c not in gone], "shuffle the deck")
    removed, deck = deck[: prep.random], deck[prep.random:]
    state = State(
        seats=seats, options=opts, material=material, ministries=ministries, secondary=n > 2,
        offices=dict.fromkeys(ministries, PRIMARY_START), deck=tuple(deck), out_of_box=tuple(out_of_box),
        removed=tuple(removed), hands={p: () for p in seats})
    return state, setup_events(state)


def setup_events(state: State, *, position: bool = False) -> list[Event]:
    """What the set-up tells: the table, the board, the deck (``position``: a scenario's position set the cards)."""
    material, n = state.material, len(state.seats)
    return [
        Event("setup", Audience.public(), {
            "seats": list(state.seats), "ministries": [{**C.ministry_data(material, m), "value": state.offices[m],
                                                        "secondary": secondary_value(state.offices[m]) if n > 2 else 0}
                                                       for m in state.ministries],
            "secondary": state.secondary, "deck": len(state.deck), "out_of_box": len(state.out_of_box),
            "removed": len(state.removed), "gold_per_value": material.preparation[str(n)].gold_per_value,
            "source": material.source, "unpayable_bids": state.options.unpayable_bids,
            **({"position": True} if position else {})}),
        Event("setup_removed", Audience.mj(), {"cards": [C.card_data(material, c) for c in state.removed]}),
    ]
