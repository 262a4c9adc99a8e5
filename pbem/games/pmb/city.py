"""Port-Réal: the end-of-turn redistribution between Visenya, FosseDragon and Culpucier."""

from __future__ import annotations

from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.state import State


def residents(st: State, level: str) -> list[str]:
    """Living, free, visible players at ``level``, in roster order."""
    return [n for n in st.order if (p := st.players[n]).alive and p.location == level and not p.hidden]


def _move(ctx: Ctx, name: str, to: str, moves: dict[str, str]) -> None:
    p = ctx.w(name)
    moves.setdefault(name, p.location)
    p.location = to
    p.since = ctx.turn


def redistribute(ctx: Ctx) -> None:
    """Fill Visenya from FosseDragon; 40 % of those at Visenya for two turns or more go down; fill FosseDragon from Culpucier."""
    st = ctx.st
    cap_v, cap_f = st.capacity[R.VISENYA], st.capacity[R.FOSSEDRAGON]
    moves: dict[str, str] = {}
    at = ctx.level_residents()  # `residents` of the three levels, from the turn's index
    visenya, fosse = at[R.VISENYA], at[R.FOSSEDRAGON]
    free_v = cap_v - len(visenya)
    fosse_count = len(fosse)
    if free_v > 0 and fosse:
        for n in ctx.dice.sample(fosse, min(free_v, len(fosse)), "Visenya fill from FosseDragon"):
            _move(ctx, n, R.VISENYA, moves)
            fosse_count -= 1
    down: list[str] = []
    for n in visenya:  # those already there before the fill, roster order
        p = ctx.p(n)
        if ctx.turn - p.since >= 2 and ctx.dice.chance(R.P_VISENYA_DOWN, f"{n} leaves Visenya (40%)"):
            if fosse_count < cap_f:
                _move(ctx, n, R.FOSSEDRAGON, moves)
                fosse_count += 1
            else:
                _move(ctx, n, R.CULPUCIER, moves)
                down.append(n)
    free_f = cap_f - fosse_count
    culpucier = at[R.CULPUCIER]
    if down:  # those who came down from Visenya join Culpucier, in roster order
        culpucier = sorted(culpucier + down, key=ctx.pos().__getitem__)
    if free_f > 0 and culpucier:
        for n in ctx.dice.sample(culpucier, min(free_f, len(culpucier)), "FosseDragon fill from Culpucier"):
            _move(ctx, n, R.FOSSEDRAGON, moves)
    for n in sorted(moves, key=ctx.pos().__getitem__):
        if moves[n] != ctx.p(n).location:
            ctx.tell("moved", [n], origin=moves[n], to=ctx.p(n).location)
