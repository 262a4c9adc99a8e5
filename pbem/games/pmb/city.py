"""Port-Réal: the end-of-turn redistribution between Visenya, FosseDragon and Culpucier."""

from __future__ import annotations

from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.state import State


def residents(st: State, level: str) -> list[str]:
    """Living, free, visible players at ``level``, in roster order."""
    return [n for n in st.order if (p := st.players[n]).alive and p.location == level and not p.hidden]


def _move(ctx: Ctx, name: str, to: str, moves: dict[str, str]) -> None:
    p = ctx.p(name)
    moves.setdefault(name, p.location)
    p.location = to
    p.since = ctx.turn


def redistribute(ctx: Ctx) -> None:
    """Fill Visenya from FosseDragon; 40 % of those at Visenya for two turns or more go down; fill FosseDragon from Culpucier."""
    st = ctx.st
    cap_v, cap_f = st.capacity[R.VISENYA], st.capacity[R.FOSSEDRAGON]
    moves: dict[str, str] = {}
    visenya = residents(st, R.VISENYA)
    fosse = residents(st, R.FOSSEDRAGON)
    free_v = cap_v - len(visenya)
    if free_v > 0 and fosse:
        for n in ctx.dice.sample(fosse, min(free_v, len(fosse)), "Visenya fill from FosseDragon"):
            _move(ctx, n, R.VISENYA, moves)
    fosse_count = len(residents(st, R.FOSSEDRAGON))
    for n in visenya:  # those already there before the fill, roster order
        p = ctx.p(n)
        if ctx.turn - p.since >= 2 and ctx.dice.chance(R.P_VISENYA_DOWN, f"{n} leaves Visenya (40%)"):
            if fosse_count < cap_f:
                _move(ctx, n, R.FOSSEDRAGON, moves)
                fosse_count += 1
            else:
                _move(ctx, n, R.CULPUCIER, moves)
    free_f = cap_f - fosse_count
    culpucier = residents(st, R.CULPUCIER)
    if free_f > 0 and culpucier:
        for n in ctx.dice.sample(culpucier, min(free_f, len(culpucier)), "FosseDragon fill from Culpucier"):
            _move(ctx, n, R.FOSSEDRAGON, moves)
    for n in st.order:
        if n in moves and moves[n] != ctx.p(n).location:
            ctx.tell("moved", [n], origin=moves[n], to=ctx.p(n).location)
