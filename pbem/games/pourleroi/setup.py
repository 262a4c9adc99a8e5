"""Set-up: the options checked (`pbem.games.pourleroi.options`), the card file, the seating, the board and the deck.

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
from pbem.games.pourleroi.options import options_from
from pbem.games.pourleroi.state import PRIMARY_START, State, secondary_value
from pbem.grammar import setup_refused
from pbem.names import fold


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
