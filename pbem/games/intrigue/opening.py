"""The start of a game: the options checked (`pbem.games.intrigue.options`), the seats drawn, everyone's palace,
money and counsellors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import JSON, Event, Msg, Seat, SetupError
from pbem.dice import Dice
from pbem.games.intrigue.options import read_options
from pbem.games.intrigue.state import (
    MOTIFS,
    START_MONEY,
    IntrigueState,
    Palace,
    Post,
)
from pbem.games.intrigue.table import public
from pbem.names import fold


def first_state(roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[IntrigueState, list[Event]]:
    """The state before round 1's first step, and the event that announces it."""
    opts = read_options(options)
    names = [s.name for s in roster]
    if not 3 <= len(names) <= 5:
        raise SetupError(Msg(f"Intrigue se joue de 3 à 5 joueurs (ici {len(names)})",
                             f"Intrigue needs 3 to 5 players (got {len(names)})"))
    if len({fold(n) for n in names}) != len(names) or any(n.startswith("@") or not n.strip() for n in names):
        raise SetupError(Msg("noms de joueurs en double ou invalides", "duplicate or invalid player names"))
    seats = tuple(dice.shuffle(names, "seating order") if opts.seating == "draw" else names)
    posts = tuple(Post(v) for v in opts.post_values)
    state = IntrigueState(
        seats=seats,
        options=opts,
        money={p: START_MONEY for p in seats},
        hands={p: tuple(m for m in MOTIFS for _ in range(2)) for p in seats},
        palaces={p: Palace(p, posts) for p in seats},
        start_total=START_MONEY * len(seats),
    )
    ev = [
        public("setup", seats=list(seats), money=START_MONEY, post_values=list(state.options.post_values),
               mode=state.options.mode, refund_loser=state.options.refund_loser,
               refund_conflicts=state.options.refund_conflicts, minimum_bribe=state.options.minimum_bribe)
    ]
    return state, ev
