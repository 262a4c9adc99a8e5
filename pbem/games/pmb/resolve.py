"""One turn, in the order of the rules: start-of-turn decisions, missions, squads, arrests, powers, deaths, city."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Event, Order
from pbem.dice import Dice
from pbem.games.pmb import orders as O
from pbem.games.pmb import roles as R
from pbem.games.pmb.city import redistribute
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.defeats import after_deaths, defeats, rallies, victory
from pbem.games.pmb.options import option
from pbem.games.pmb.powers import (
    appointments,
    arrest,
    betrayals_end,
    betrayals_new,
    bodyguards,
    cells,
    fidele_order,
    information,
    leave_hiding,
    missions,
    potions,
    promotions,
    rank_holder,
    verdicts,
)
from pbem.games.pmb.squads import form_squads, resolve_squad
from pbem.games.pmb.state import State


def resolve(state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
    """One turn (the engine pauses the cyclic garbage collector around it: see `pbem.engine.run_resolve`)."""
    return _resolve(state, orders, dice)


def _resolve(state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
    st = state.fork()  # players copied on their first change (`Ctx.writable`)
    ctx = Ctx(st, dice, state.players)
    if st.finished:
        return st, []
    lc = ctx.lord_commandant()
    lc_at_start = lc.name if lc is not None else None
    players = st.players
    acting = Acting(ctx)

    # the potion first: a confused patient's orders are replaced before anything reads them
    confused = potions(ctx, orders)
    ctx.confused = set(confused)
    if confused:
        orders = with_confusion(orders, confused)
    leave_hiding(ctx, orders)
    appointments(ctx, orders)
    rallies(ctx, orders)
    released = verdicts(ctx, orders)
    if option(st.options, "prison_turns") == 1:
        acting.update(released)  # out of the cells from this turn: his orders of this turn count
    promotions(ctx, orders)
    ctx.protected, arrest_target = missions(ctx, orders)
    acting_free = Acting(ctx, acting.released, set(confused))

    # who attacks whom
    traitors = {b.sergent: b.chef for b in st.betrayals if b.turn == st.turn - 1}
    fidele_targets = O.fidele_targets(st)
    attacks: list[tuple[str, str, str]] = []
    attacking: set[str] = set()
    rebel_teams, fidele, escouade = R.REBEL_TEAMS, R.FIDELE, O.ESCOUADE
    # those who may attack: an ESCOUADE order, a traitor's squad, a confused patient's; roster order
    # (walked by roster position: the records come without a lookup by name)
    ordered = ctx.ordered(orders)
    candidates = ordered.at(escouade)
    if traitors or confused:
        pos = ctx.pos()
        candidates = sorted(set(candidates).union(map(pos.__getitem__, traitors.keys() | confused.keys())))
    order, roster = st.order, ctx.roster
    for i in candidates:
        n = order[i]
        if not acting.at(i, n):
            continue
        p = roster[i]
        if not p.alive:
            continue
        target: str | None
        if n in confused:
            target, camp = confused[n], R.LANNISTER
        elif n in traitors:
            target, camp = traitors[n], R.LANNISTER
        elif p.team in rebel_teams or p.rank == fidele:
            o = ordered.first(i, escouade)
            target, camp = (str(o.args[0]) if o is not None else None), p.team
            if p.rank == fidele and fidele_targets is not None and target not in fidele_targets:
                target = None  # option fidele_squads = "cible": the parser refuses it already
        else:
            continue
        if target is None or target == n:
            continue
        t = players.get(target)
        if t is None or not t.alive:
            continue
        attacks.append((n, camp, t.name))  # the roster's own string for the name the order gave
        attacking.add(n)
    bodyguards(ctx, orders, acting_free, attacking)
    for sq in form_squads(ctx, attacks):
        resolve_squad(ctx, sq)
    arrest(ctx, arrest_target)
    information(ctx, orders, acting_free)
    if ctx.poisoned is not None and st.players[ctx.poisoned].alive:
        ctx.kill(ctx.poisoned, "poison", R.LANNISTER)
    betrayals_end(ctx)
    after_deaths(ctx, lc_at_start)
    defeats(ctx)
    cells(ctx, lc_at_start)  # after the defeats: the prisoner confesses the role he holds at the end of the turn
    betrayals_new(ctx, orders, acting_free, state.players)
    fidele_order(ctx, orders, lc_at_start)
    victory(ctx)
    if not st.finished:
        redistribute(ctx)
    st.infirmary = [n for n in dict.fromkeys(ctx.patients) if st.players[n].alive]
    gm = rank_holder(ctx, R.MESTRE)
    if gm is not None and st.infirmary and not st.finished:
        ctx.tell("infirmary", [gm], patients=list(st.infirmary))
    st.turn += 1
    ctx.lessons.settle()
    return st, ctx.events


class Acting:
    """Who acts this turn: free at its start (read from the records of the state given to
    `resolve`, which is never changed, so that no roster walk is needed), or released by this
    turn's verdict; minus the ``excluded`` (the confused, for what they would do of their own will)."""

    def __init__(self, ctx: Ctx, released: set[str] | None = None, excluded: set[str] | None = None) -> None:
        self.ctx = ctx
        self.released: set[str] = released if released is not None else set()
        self.excluded: set[str] = excluded or set()

    def update(self, names: list[str]) -> None:
        self.released.update(names)

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        i = self.ctx.pos().get(name)
        return i is not None and self.at(i, name)

    def at(self, i: int, name: str) -> bool:
        """Whether the player at roster position ``i`` (of that ``name``) acts."""
        if self.excluded and name in self.excluded:
            return False
        if self.released and name in self.released:
            return True
        p = self.ctx.at_start(i)
        return p.alive and p.location != R.CACHOTS and not p.hidden and not p.rally


def with_confusion(orders: Mapping[str, Sequence[Order]], confused: Mapping[str, str | None]) -> dict[str, Sequence[Order]]:
    """The orders of the turn with each confused patient's replaced by the Grand Mestre's (an
    ESCOUADE, or nothing): « le MJ va ignorer ses consignes pendant ce tour »."""
    out = dict(orders)
    for patient, target in confused.items():
        out[patient] = [Order(O.ESCOUADE, (target,), f"ESCOUADE {target}")] if target is not None else []
    return out
