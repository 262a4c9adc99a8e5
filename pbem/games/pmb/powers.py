"""Powers: Conseil Restreint, Garde Royale (protection, arrest, verdict), Grand Mestre, chefs, betrayal."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Container, Mapping, Sequence
from typing import overload

from pbem.core import Order
from pbem.games.pmb import orders as O
from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.options import option
from pbem.games.pmb.state import Betrayal, Player, Prisoner, State, Vacancy


def first(orders: Sequence[Order], verb: str, *, with_args: bool | None = None) -> Order | None:
    for o in orders:
        if o.verb == verb and (with_args is None or bool(o.args) == with_args):
            return o
    return None


def donjon_residents(ctx: Ctx) -> list[str]:
    return ctx.donjon_residents()


def rank_holder(ctx: Ctx, rank: str) -> str | None:
    return ctx.rank_holder(rank)


# --- start of the turn: hiding, rallies, verdicts, potions, appointments ---


def leave_hiding(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    for n in ctx.ordered(orders).names(O.SORTIR):
        p = ctx.p(n)
        if p.alive and p.hidden:
            p = ctx.writable(n)
            p.hidden = False
            p.location = R.CULPUCIER
            p.since = ctx.turn
            ctx.tell("left_hiding", [n])


def verdicts(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> list[str]:
    """The Lord Commandant's verdicts on last turn's confessions; returns the prisoners released."""
    st = ctx.st
    released: list[str] = []
    lc = ctx.lord_commandant()
    given: dict[str, str] = {}
    chosen: set[str] = set()
    if lc is not None:
        for o in orders.get(lc.name, ()):
            if o.verb == O.VERDICT:
                given[str(o.args[0])] = str(o.args[1])
                if O.DEFAULT_VERDICT not in o.args[2:]:
                    chosen.add(str(o.args[0]))
    default = default_verdict(st.options)
    keep: list[Prisoner] = []
    for pr in st.prisoners:
        if not pr.awaiting_verdict:
            keep.append(pr)
            continue
        verdict = given.get(pr.name, default)
        p = ctx.p(pr.name)
        witnesses = [lc.name] if lc is not None else []
        if not p.alive:
            continue
        if verdict == "MORT":
            ctx.kill(pr.name, "execution", R.LANNISTER)
            st.torturer = min(R.TORTURER_MAX, st.torturer + R.TORTURER_STEP)
            ctx.tell("verdict_executed", [pr.name, *witnesses], prisoner=pr.name, defaulted=pr.name not in chosen)
        else:
            p = ctx.writable(pr.name)
            p.location = R.CULPUCIER
            p.since = ctx.turn
            released.append(pr.name)
            ctx.tell("verdict_released", [pr.name, *witnesses], prisoner=pr.name, defaulted=pr.name not in chosen)
    st.prisoners = keep
    return released


def default_verdict(options: Mapping[str, object]) -> str:
    """The verdict of a silent Lord Commandant (option ``verdict_default``)."""
    return "MORT" if option(options, "verdict_default") == "mort" else "LIBERE"


def potions(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> dict[str, str | None]:
    """Apply the Grand Mestre's potion; return {confused patient: imposed target or None}."""
    st = ctx.st
    confused: dict[str, str | None] = {}
    gm = rank_holder(ctx, R.MESTRE)
    if gm is None:
        return confused
    o = first(orders.get(gm, ()), O.POTION)
    if o is None:
        return confused
    kind, patient = str(o.args[0]), str(o.args[1])
    p = ctx.p(patient)
    if (kind in st.potions_used or p.potion is not None or patient not in st.infirmary or not p.alive
            or len(st.potions_used) >= R.MESTRE_MAX_USES or p.location == R.CACHOTS):
        ctx.tell("potion_wasted", [gm], potion=kind, patient=patient)
        return confused
    st.potions_used.append(kind)
    p = ctx.writable(patient)
    p.potion = kind
    ctx.tell("potion_given", [gm], potion=kind, patient=patient)
    if kind == R.CONFUSION:
        confused[patient] = str(o.args[2]) if len(o.args) > 2 and o.args[2] is not None else None
    elif kind == R.REVELATION:
        # « son rôle, son affiliation ainsi que celle d'un autre joueur au hasard »: by default the other
        # player's affiliation (option ``revelation = "role"``: his role); in both cases as the patient believes it
        facts = [ctx.lessons.reveal([gm], patient)]
        if option(st.options, "revelation") == "role":
            known = sorted(n for n in p.latest if n != patient and p.knows_role(n) is not None)
            if known:
                other = ctx.dice.choice(known, f"revelation potion: player named by {patient}")
                facts.append(ctx.lessons.reveal([gm], other, p.knows_role(other)))
        else:
            known = sorted(n for n in p.latest if n != patient)
            if known:
                other = ctx.dice.choice(known, f"revelation potion: player named by {patient}")
                facts.append(ctx.lessons.reveal_team([gm], other, p.knows_team(other)))
        ctx.tell("potion_revelation", [gm], patient=patient, facts=facts)
        ctx.tell("you_spoke", [patient], facts=facts)
    elif kind == R.PUISSANCE:
        p.bonus += R.PUISSANCE_BONUS
        ctx.tell("potion_puissance", [patient], bonus=R.PUISSANCE_BONUS)
    elif kind == R.VIGILANCE:
        p.vigilance = True
    elif kind == R.POISON:
        ctx.poisoned = patient
    return confused


def appointments(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    """Sergents named (NOMMER) for last turn's vacancies, new HMs assigned (AFFECTER); at random when the chef is silent."""
    st = ctx.st
    keep: list[Vacancy] = []
    nominations: dict[str, dict[str, int]] = {}
    for v in st.vacancies:
        chef = ctx.chef(v.team)
        if chef is None or v.team in st.defeated:
            continue
        if v.anyone:
            pool = [q.name for q in ctx.team_members(v.team) if q.rank == R.HM and q.location != R.CACHOTS]
        else:
            pool = [c for c in v.candidates if ctx.p(c).alive and ctx.p(c).rank == R.HM and ctx.p(c).team == v.team]
        if not pool:
            continue
        if chef.name not in nominations:  # where each name first appears among the chef's NOMMER orders
            nominations[chef.name] = {}
            for i, o in enumerate(orders.get(chef.name, ())):
                if o.verb == O.NOMMER:
                    nominations[chef.name].setdefault(str(o.args[0]), i)
        first_named = nominations[chef.name]
        named = [c for c in pool if c in first_named]
        new = min(named, key=first_named.__getitem__) if named else ctx.dice.choice(pool, f"{v.team} new sergent (chef silent)")
        promote(ctx, chef.name, new, v.dead)
    st.vacancies = keep
    unassigned = ctx.loose_hms()
    for team in R.REBEL_TEAMS:
        chef = ctx.chef(team)
        if chef is None:
            continue
        loose = [n for n in unassigned if ctx.p(n).team == team]
        if not loose:
            continue
        members = ctx.team_members(team)
        sgts = [q.name for q in members if q.rank == R.SERGENT]
        if not sgts:
            continue
        wanted = {str(o.args[0]): str(o.args[1]) for o in orders.get(chef.name, ()) if o.verb == O.AFFECTER}
        load = dict.fromkeys(sgts, 0)
        for q in members:
            if q.sergent in load:
                load[q.sergent] += 1
        levels = _Loads(sgts, load)
        for hm in loose:
            sgt = wanted.get(hm)
            if sgt is None or sgt not in load:
                sgt = ctx.dice.choice(levels.least(), f"{team} sergent for {hm} (chef silent)")
            levels.bump(sgt)
            assign(ctx, chef.name, hm, sgt)


class _Picks(Sequence[str]):
    """``[names[i] for i in indexes]``, without copying."""

    def __init__(self, names: list[str], indexes: list[int]) -> None:
        self._names = names
        self._indexes = indexes

    def __len__(self) -> int:
        return len(self._indexes)

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: int | slice) -> str | list[str]:
        if isinstance(k, slice):
            return [self._names[i] for i in self._indexes[k]]
        return self._names[self._indexes[k]]


class _Loads:
    """Sergents by number of Hommes de Main: the least loaded, in roster order, without a scan per HM."""

    def __init__(self, sgts: list[str], load: dict[str, int]) -> None:
        self.sgts = sgts
        self.index = {s: i for i, s in enumerate(sgts)}
        self.load = load
        self.levels: dict[int, list[int]] = {}
        for i, s in enumerate(sgts):
            self.levels.setdefault(load[s], []).append(i)
        self.low = min(load.values())

    def least(self) -> _Picks:
        """``[s for s in sgts if load[s] == min(load.values())]``."""
        return _Picks(self.sgts, self.levels[self.low])

    def bump(self, sgt: str) -> None:
        i, n = self.index[sgt], self.load[sgt]
        level = self.levels[n]
        del level[bisect_left(level, i)]
        insort(self.levels.setdefault(n + 1, []), i)
        self.load[sgt] = n + 1
        while not self.levels.get(self.low):
            self.low += 1


def promote(ctx: Ctx, chef: str, new: str, dead: str) -> None:
    p = ctx.p(new)
    ctx.set_rank(new, R.SERGENT)
    ctx.set_sergent(new, None)
    hms = ctx.hms_of(dead, p.team)
    for h in hms:
        ctx.set_sergent(h, new)
    fact_chef = ctx.lessons.reveal([new], chef)
    fact_new = ctx.lessons.reveal([chef, *hms], new)
    facts_hms = [ctx.lessons.reveal([new], h) for h in hms]
    ctx.tell("sergent_named", [chef, *hms], sergent=fact_new, dead=dead)
    ctx.tell("you_are_sergent", [new], chef=fact_chef, hommes=facts_hms, role=ctx.lessons.reveal([new], new))


def assign(ctx: Ctx, chef: str, hm: str, sgt: str) -> None:
    ctx.set_sergent(hm, sgt)
    fact_hm = ctx.lessons.reveal([chef, sgt], hm)
    fact_sgt = ctx.lessons.reveal([hm], sgt)
    ctx.tell("hm_assigned", [sgt], homme=fact_hm)
    ctx.tell("sergent_assigned", [hm], sergent=fact_sgt)
    ctx.tell("hm_assigned_chef", [chef], homme=fact_hm, sergent=ctx.lessons.reveal([chef], sgt))


def promotions(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    st = ctx.st
    lc = ctx.lord_commandant()
    if lc is None:
        return
    o = first(orders.get(lc.name, ()), O.PROMOUVOIR)
    if o is None:
        return
    name = str(o.args[0])
    p = ctx.p(name)
    gardes = sum(1 for q in st.players.values() if q.alive and q.rank in R.GARDES)
    if not p.alive or not p.recruit or gardes >= st.garde_places or p.location == R.CACHOTS:
        return
    p = ctx.writable(name)
    ctx.set_rank(name, R.GARDE)
    p.recruit = False
    ctx.set_location(name, R.DONJON)
    p.since = ctx.turn
    residents = donjon_residents(ctx)
    if name not in st.donjon:
        st.donjon.append(name)
    facts = [ctx.lessons.reveal([name], m) for m in residents if m != name]
    mine = ctx.lessons.reveal(residents, name)
    ctx.tell("promoted", [name], known=facts, role=mine)
    ctx.tell("new_garde", [m for m in residents if m != name], garde=mine)


# --- missions of the Garde ---


def missions(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> tuple[str | None, str | None]:
    """(protected player, arrest target) when at least three Gardes took part."""
    st = ctx.st
    lc = ctx.lord_commandant()
    if lc is None or R.LANNISTER in st.defeated:
        return None, None
    gardes = [n for n in ctx.holders(*R.GARDES) if (p := ctx.p(n)).alive and p.rank in R.GARDES and p.location == R.DONJON]
    lc_mission = _lord_commandant_mission(st, orders.get(lc.name, ()))
    out: list[str | None] = []
    for verb, mission in ((O.PROTECTION, "protection"), (O.ARRESTATION, "arrestation")):
        d = first(orders.get(lc.name, ()), verb, with_args=True)
        takers = [g for g in gardes if first(orders.get(g, ()), verb, with_args=False)
                  or (g == lc.name and lc_mission == verb)]
        target = str(d.args[0]) if d else None
        effective = target is not None and len(takers) >= 3 and ctx.p(target).alive and ctx.p(target).location != R.CACHOTS
        deployed = effective  # what the Gardes see: a barred team is refused in silence (no affiliation leaks)
        if effective and target is not None and verb == O.PROTECTION:
            t = ctx.p(target)
            if t.protected_once or any(b.split("|")[0] == t.team and b.split("|")[1] != target for b in st.barred_teams):
                effective = False
            elif t.team in R.REBEL_TEAMS and not any(b.split("|")[0] == t.team for b in st.barred_teams):
                st.barred_teams.append(f"{t.team}|{target}")
        if target is not None or takers:
            ctx.tell("mission_report", gardes, mission=mission, target=target, count=len(takers), effective=deployed)
        out.append(target if effective else None)
    return out[0], out[1]


def _lord_commandant_mission(st: State, lc_orders: Sequence[Order]) -> str | None:
    """The mission the Lord Commandant's designation makes him take part in (option
    ``lord_commandant_counts``): none by default (he takes part with the bare word, like any
    Garde); with the option, the mission of his bare word if he sent one, else the first he designated."""
    if not option(st.options, "lord_commandant_counts"):
        return None
    for o in lc_orders:
        if o.verb in (O.PROTECTION, O.ARRESTATION) and not o.args:
            return None  # his bare word already counts him there, and only there
    for o in lc_orders:
        if o.verb in (O.PROTECTION, O.ARRESTATION):
            return o.verb
    return None


def arrest(ctx: Ctx, target: str | None) -> None:
    st = ctx.st
    if target is None:
        return
    t = ctx.p(target)
    if not t.alive or t.location in (R.CACHOTS, R.DONJON) or t.hidden or target in ctx.fled:
        # the Gardes learn only what the report makes public: dead, or not found (never why)
        ctx.tell("arrest_failed", [n for n in donjon_residents(ctx) if ctx.p(n).rank in R.GARDES],
                 target=target, reason="dead" if not t.alive else "absent")
        return
    guard = ctx.bodyguards.get(target)
    if guard is not None and ctx.p(guard).alive and ctx.p(guard).location != R.CACHOTS:
        if ctx.dice.chance(R.P_CHEF_WARNED, f"chef {target} warned by the arrest of his bodyguard (50%)"):
            ctx.fled.add(target)
            ctx.tell("chef_warned", [target], bodyguard=guard, event="arrest")
        target = guard
    t = ctx.writable(target)
    t.location = R.CACHOTS
    t.since = ctx.turn
    st.prisoners.append(Prisoner(target, ctx.turn))
    ctx.public("arrested", player=target)
    ctx.tell("you_are_arrested", [target])


def cells(ctx: Ctx, lc_at_start: str | None) -> None:
    """Prisoners who spent this turn in the cells: escape if the Lord Commandant was killed, else
    the interrogation of this turn, told to him.

    Called after the defeats of the turn: the prisoner confesses the role he holds at its end (a
    defeat may have converted him) and a teammate of that team whose role he was told last."""
    st = ctx.st
    keep: list[Prisoner] = []
    for pr in st.prisoners:
        p = ctx.p(pr.name)
        if pr.awaiting_verdict or pr.arrested >= ctx.turn or not p.alive:
            if p.alive:
                keep.append(pr)
            continue
        lc = ctx.lord_commandant()
        if lc_at_start is None or not ctx.p(lc_at_start).alive or lc is None:
            p = ctx.writable(pr.name)
            p.location = R.CULPUCIER
            p.since = ctx.turn
            st.torturer = max(R.TORTURER_MIN, st.torturer - R.TORTURER_STEP)
            ctx.tell("escaped", [pr.name])
            ctx.mj("torturer_killed", prisoner=pr.name, torturer=st.torturer)
            continue
        confession = [f"{pr.name}|role|{p.code}"]
        mates = p.teammates_known()
        if mates and ctx.dice.chance(st.torturer, f"torturer makes {pr.name} name a teammate ({st.torturer}%)"):
            mate = ctx.dice.choice(mates, f"teammate named by {pr.name} under torture")
            confession.append(f"{mate}|role|{p.knows_role(mate)}")
        pr.confession = confession
        facts = []
        for fact in confession:
            name, _, code = fact.split("|")
            facts.append(ctx.lessons.reveal([lc.name], name, code))
        pr.awaiting_verdict = True
        ctx.tell("confession", [lc.name], prisoner=pr.name, facts=facts)
        keep.append(pr)
    st.prisoners = keep


# --- information powers ---


def information(ctx: Ctx, orders: Mapping[str, Sequence[Order]], acting: Container[str]) -> None:
    whisper = rank_holder(ctx, R.CHUCHOTEURS)
    for n in ctx.ordered(orders).names(O.DECOUVRIR, O.ENQUETE, O.TEMOINS):
        if n not in acting:
            continue
        p = ctx.p(n)
        for o in orders.get(n, ()):
            if o.verb == O.DECOUVRIR and p.rank == R.CHEF:
                target = str(o.args[0])
                ctx.tell("scan_result", [n], fact=ctx.lessons.reveal([n], target))
                if ctx.st.in_donjon(ctx.p(target)) and whisper is not None:  # himself included
                    ctx.tell("scan_warning", [whisper], member=target, clan=p.team)
            elif o.verb == O.ENQUETE and p.rank == R.CHUCHOTEURS:
                ctx.tell("enquete_result", [n], fact=ctx.lessons.reveal([n], str(o.args[0])))
            elif o.verb == O.TEMOINS and p.rank == R.ARGENTIER:
                target = str(o.args[0])
                squads = ctx.squads_on.get(target, [])
                members = ctx.dice.choice(squads, f"squad on {target} seen by the witnesses") if len(squads) > 1 else (
                    squads[0] if squads else None)
                ctx.tell("temoins_result", [n], target=target, members=members)


def bodyguards(ctx: Ctx, orders: Mapping[str, Sequence[Order]], acting: Container[str], attacking: set[str]) -> None:
    for team in R.REBEL_TEAMS:
        chef = ctx.chef(team)
        if chef is None or chef.name not in acting or chef.name in attacking:
            continue
        o = first(orders.get(chef.name, ()), O.GARDE)
        if o is None:
            continue
        hm = str(o.args[0])
        h = ctx.p(hm)
        if hm in attacking or hm not in acting or h.team != team or h.rank != R.HM:
            ctx.tell("bodyguard_refused", [chef.name], homme=hm)
            continue
        ctx.bodyguards[chef.name] = hm
        ctx.tell("bodyguard_assigned", [hm], chef=ctx.lessons.reveal([hm], chef.name))
        ctx.tell("bodyguard_ready", [chef.name], homme=hm)


def fidele_order(ctx: Ctx, orders: Mapping[str, Sequence[Order]], lc_at_start: str | None) -> None:
    """The Lord Commandant's CIBLE, told to every living fidèle for next turn.

    The Lord Commandant of the start of the turn gave it even if he was killed since (orders are
    simultaneous); it is told after the defeats, so that those who became fidèles this turn hear it."""
    st = ctx.st
    target: str | None = None
    if lc_at_start is not None and R.LANNISTER not in st.defeated:
        o = first(orders.get(lc_at_start, ()), O.CIBLE)
        target = str(o.args[0]) if o else None
        if target is not None and not ctx.p(target).alive:
            target = None
    st.fidele_target = target
    if target is not None:
        ctx.tell("fidele_order", living_fideles(ctx), target=target)


def living_fideles(ctx: Ctx) -> list[str]:
    roster, order = ctx.roster, ctx.st.order
    return [order[i] for i in ctx.holding(R.FIDELE)
            if (q := roster[i]).alive and q.rank == R.FIDELE and q.location != R.CACHOTS and not q.rally]


def betrayals_new(ctx: Ctx, orders: Mapping[str, Sequence[Order]], acting: Container[str],
                  start: Mapping[str, Player]) -> None:
    """TRAHIR orders, after the defeats of the turn.  The order was accepted, so a sergent who can no
    longer betray at the end of the turn betrays nobody and is told why: his chef died (his team fell,
    he may even have been converted), the Lannister fell, or he is no longer the one original
    sergent among two or more (another sergent died)."""
    st = ctx.st
    for n in ctx.ordered(orders).names(O.TRAHIR):
        if n not in acting:
            continue
        p = ctx.p(n)
        if not p.alive:
            continue
        team = start[n].team  # his team when he gave the order
        chef = ctx.chef(team) if team in R.REBEL_TEAMS else None
        if R.LANNISTER in st.defeated:
            reason = "lannister"
        elif chef is None or p.team != team:
            reason = "chef"
        elif not O.can_betray(st, p):
            reason = "sergents"
        else:
            reason = ""
        if reason:
            ctx.tell("betrayal_void", [n], reason=reason)
            continue
        assert chef is not None
        st.betrayals.append(Betrayal(n, chef.name, p.team, ctx.turn))
        loyal = donjon_residents(ctx)
        facts = [ctx.lessons.reveal(loyal, chef.name), ctx.lessons.reveal(loyal, n)]
        ctx.tell("betrayal_known", loyal, chef=facts[0], sergent=facts[1])
        ctx.tell("betrayal_registered", [n], chef=chef.name)
        ctx.tell("fidele_order", living_fideles(ctx), target=chef.name)


def betrayals_end(ctx: Ctx) -> None:
    """The betrayal squad went this turn: the traitor joins the Lannister if the chef is dead, else dies."""
    st = ctx.st
    for b in st.betrayals:
        if b.turn != ctx.turn - 1:
            continue
        s = ctx.p(b.sergent)
        if not s.alive:
            continue
        if ctx.p(b.chef).alive:
            ctx.kill(b.sergent, "betrayal", b.team)
            chef = ctx.chef(b.team)
            if chef is not None:
                st.vacancies.append(Vacancy(b.team, b.sergent, [], anyone=True))
                ctx.tell("vacancy", [chef.name], dead=b.sergent,
                         candidates=[], anyone=True)
        else:
            s = ctx.writable(b.sergent)
            s.team = R.LANNISTER
            ctx.set_rank(b.sergent, R.FIDELE)
            s.recruit = True
            ctx.set_sergent(b.sergent, None)
            mine = ctx.lessons.reveal([b.sergent], b.sergent)
            ctx.tell("converted", [b.sergent], role=mine, reason="betrayal")
            lc = ctx.lord_commandant()
            if lc is not None:
                ctx.tell("recruit_available", [lc.name], recruit=ctx.lessons.reveal([lc.name], b.sergent))
