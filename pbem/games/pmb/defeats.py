"""Deaths and their consequences: new sergents, Lord Commandant's title, team defeats and conversions, victory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Order
from pbem.games.pmb import orders as O
from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx, RosterSubset
from pbem.games.pmb.powers import donjon_residents, first
from pbem.games.pmb.state import Vacancy


def free_place(ctx: Ctx, purpose: str) -> str:
    """A random free place in Port-Réal: the free seats of Visenya and FosseDragon, and Culpucier's
    seats up to its starting count (at least one)."""
    st = ctx.st
    if not ctx.occupancy:
        for p in st.players.values():
            if p.alive and not p.hidden and p.location in R.LEVELS:
                ctx.occupancy[p.location] = ctx.occupancy.get(p.location, 0) + 1
    cul_cap = max(1, round(R.START_CAPACITY[R.CULPUCIER] * st.capacity[R.FOSSEDRAGON] / R.START_CAPACITY[R.FOSSEDRAGON]))
    caps = {R.VISENYA: st.capacity[R.VISENYA], R.FOSSEDRAGON: st.capacity[R.FOSSEDRAGON], R.CULPUCIER: cul_cap}
    free = {lv: max(0, caps[lv] - ctx.occupancy.get(lv, 0)) for lv in R.LEVELS}
    free[R.CULPUCIER] = max(1, free[R.CULPUCIER])
    roll = ctx.dice.randint(1, sum(free.values()), purpose)
    for level in R.LEVELS:
        if roll <= free[level]:
            ctx.occupancy[level] = ctx.occupancy.get(level, 0) + 1
            return level
        roll -= free[level]
    return R.CULPUCIER  # pragma: no cover


def rallies(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    """Players who had to choose a rebel to join (RALLIER) become Hommes de Main of that clan."""
    st = ctx.st
    if R.LANNISTER not in st.defeated:
        return  # only the Lannister's defeat makes players rally: no roster walk the rest of the time
    # living players of a standing rebel team who need not rally, roster order (built on first use)
    pool: RosterSubset | None = None
    for n in st.order:
        p = ctx.p(n)
        if not p.alive or not p.rally:
            continue
        standing = [t for t in R.REBEL_TEAMS if t not in st.defeated]
        if not standing:
            return
        o = first(orders.get(n, ()), O.RALLIER)
        contact = str(o.args[0]) if o else None
        ok = contact is not None and ctx.p(contact).alive and ctx.p(contact).team in standing
        if not ok:
            if pool is None:  # (never holds ``n``: he must rally)
                pool = RosterSubset(st.order, ctx.pos(), [q.name for q in st.living() if q.team in standing and not q.rally])
            if not pool:
                continue
            contact = ctx.dice.choice(pool, f"rebel met by {n} (no valid RALLIER)")
        assert contact is not None
        c = ctx.p(contact)
        p = ctx.writable(n)
        p.rally = False
        p.team = c.team
        ctx.set_rank(n, R.HM)
        ctx.set_sergent(n, None)
        p.recruit = False
        if pool is not None:
            pool.add(n)
        if p.location == R.DONJON:
            p.location = free_place(ctx, f"place in Port-Réal for {n}")
            p.since = ctx.turn
        mine = ctx.lessons.reveal([n], n)
        contact_team = ctx.lessons.reveal_team([n], contact)
        newcomer = ctx.lessons.reveal([contact], n)
        ctx.tell("rallied", [n], role=mine, contact=contact_team, location=p.location)
        ctx.tell("rally_contact", [contact], newcomer=newcomer)
        chef = ctx.chef(c.team)
        if chef is not None and chef.name != contact:
            ctx.tell("new_homme_de_main", [chef.name], homme=ctx.lessons.reveal([chef.name], n))
        elif chef is not None:
            ctx.tell("new_homme_de_main", [chef.name], homme=newcomer)


def after_deaths(ctx: Ctx, lc_at_start: str | None) -> None:
    st = ctx.st
    dead_sergents = [d.name for d in ctx.deaths if ctx.p(d.name).rank == R.SERGENT and ctx.p(d.name).team in R.REBEL_TEAMS]
    # sergents: the chef names a new one among the dead sergent's Hommes de Main (next turn)
    vacant = {v.dead for v in st.vacancies}
    for name in dead_sergents:
        p = ctx.p(name)
        chef = ctx.chef(p.team)
        hms = ctx.hms_of(name, p.team)
        if chef is None or not hms or name in vacant:
            continue
        st.vacancies.append(Vacancy(p.team, name, hms))
        vacant.add(name)
        ctx.tell("vacancy", [chef.name], dead=name, candidates=[ctx.lessons.reveal([chef.name], h) for h in hms], anyone=False)
        ctx.tell("sergent_died", hms, sergent=name)
    # Lord Commandant's title
    if ctx.lord_commandant() is None and R.LANNISTER not in st.defeated:
        gardes = [n for n in ctx.holders(R.GARDE) if (q := ctx.p(n)).alive and q.rank == R.GARDE and q.location == R.DONJON]
        if gardes:
            new = ctx.dice.choice(gardes, "new Lord Commandant")
            ctx.set_rank(new, R.LORD_COMMANDANT)
            residents = donjon_residents(ctx)
            fact = ctx.lessons.reveal(residents, new)
            ctx.tell("new_lord_commandant", residents, lord=fact)


def defeats(ctx: Ctx) -> None:
    st = ctx.st
    newly: list[str] = []
    by_of_chef: dict[str, str] = {}
    if R.LANNISTER not in st.defeated:
        conseil_dead = not any((q := ctx.p(n)).alive and q.rank in R.CONSEIL for n in ctx.holders(*R.CONSEIL))
        gardes_dead = not any((q := ctx.p(n)).alive and q.rank in R.GARDES for n in ctx.holders(*R.GARDES))
        if conseil_dead or gardes_dead:
            newly.append(R.LANNISTER)
            ctx.public("team_defeated", team=R.LANNISTER, cause="conseil" if conseil_dead else "garde", chef=None)
    for team in R.REBEL_TEAMS:
        if team in st.defeated:
            continue
        chef_dead = [d for d in ctx.deaths if ctx.p(d.name).rank == R.CHEF and ctx.p(d.name).team == team]
        if chef_dead:
            newly.append(team)
            by_of_chef[team] = chef_dead[0].by
            ctx.public("team_defeated", team=team, cause="chef", chef=chef_dead[0].name)
    st.defeated += newly
    standing = [t for t in R.TEAMS if t not in st.defeated]
    for team in newly:
        if team == R.LANNISTER:
            _lannister_defeat(ctx, standing)
        else:
            _rebel_defeat(ctx, team, by_of_chef[team], standing)


def _lannister_defeat(ctx: Ctx, standing: list[str]) -> None:
    st = ctx.st
    st.betrayals = [b for b in st.betrayals if b.turn < ctx.turn - 1]
    rebels_standing = [t for t in standing if t in R.REBEL_TEAMS]
    for n in st.order:
        p = ctx.p(n)
        if not p.alive:
            continue
        if p.rank in R.CONSEIL:
            p = ctx.writable(n)
            p.hidden = True
            p.location = R.CULPUCIER
            p.since = ctx.turn
            ctx.tell("you_hide", [n])
        elif p.rank in R.GARDES or p.rank == R.FIDELE:
            if not rebels_standing:
                continue
            p = ctx.writable(n)
            p.rally = True
            if p.rank in R.GARDES:
                p.location = free_place(ctx, f"place in Port-Réal for {n}")
                p.since = ctx.turn
            ctx.tell("must_rally", [n], location=p.location)
    # no Lord Commandant any more: the prisoners walk out to Culpucier
    for pr in st.prisoners:
        if ctx.p(pr.name).alive:
            p = ctx.writable(pr.name)
            p.location = R.CULPUCIER
            p.since = ctx.turn
            ctx.tell("escaped", [pr.name])
    st.prisoners = []


def _rebel_defeat(ctx: Ctx, team: str, by: str, standing: list[str]) -> None:
    st = ctx.st
    st.vacancies = [v for v in st.vacancies if v.team != team]
    survivors = [q.name for q in ctx.team_members(team)]
    if not standing or not survivors:
        return
    if by in standing:
        main = by
        other = [t for t in standing if t != by]
    else:
        main = standing[0] if len(standing) == 1 else ctx.dice.choice(standing, f"{team} survivors: main team (nobody responsible)")
        other = [t for t in standing if t != main]
    shuffled = ctx.dice.shuffle(survivors, f"{team} survivors split 75/25")
    k = (3 * len(shuffled) + 2) // 4 if other else len(shuffled)
    groups = [(main, shuffled[:k])] + ([(other[0], shuffled[k:])] if other else [])
    rank = {n: i for i, n in enumerate(survivors)}
    for dest, names in groups:
        chef = ctx.chef(dest) if dest != R.LANNISTER else None
        for n in sorted(names, key=rank.__getitem__):
            p = ctx.writable(n)
            p.team = dest
            ctx.set_rank(n, R.FIDELE if dest == R.LANNISTER else R.HM)
            ctx.set_sergent(n, None)
            p.original = False
            mine = ctx.lessons.reveal([n], n)
            ctx.tell("converted", [n], role=mine, reason="defeat")
            if dest != R.LANNISTER:
                if chef is not None:
                    ctx.tell("new_homme_de_main", [chef.name], homme=ctx.lessons.reveal([chef.name], n))


def victory(ctx: Ctx) -> None:
    st = ctx.st
    standing = [t for t in R.TEAMS if t not in st.defeated]
    max_turns = int(st.options.get("max_turns", 0) or 0)
    if len(standing) <= 1 or (max_turns and ctx.turn >= max_turns):
        st.finished = True
        st.winner = standing[0] if len(standing) == 1 else None
        ctx.public("game_over", winner=st.winner, turn=ctx.turn,
                   reveal=[{"player": n, "role": ctx.p(n).code, "alive": ctx.p(n).alive} for n in st.order])
