"""Squads: who attacks whom, and the four outcomes (plus protection, vigilance, bodyguards)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx

ALLIANCE = "rebels"


@dataclass
class Squad:
    target: str
    camp: str
    """"lannister", "stark", "tyrell", or "rebels" (Stark and Tyrell together against a Donjon Rouge resident)."""
    members: list[str]

    def teams(self, ctx: Ctx) -> list[str]:
        return sorted({ctx.p(m).team for m in self.members})


def form_squads(ctx: Ctx, attacks: list[tuple[str, str, str]]) -> list[Squad]:
    """Group (attacker, camp, target) into squads; attempts on one's own camp form none and warn the target.

    ``attacks`` is in roster order; the result is ordered by target name, several squads on one
    target in random order.
    """
    groups: dict[tuple[str, str], list[str]] = {}
    own: dict[str, list[str]] = {}
    for attacker, camp, target in attacks:
        t = ctx.p(target)
        if t.team == camp:
            own.setdefault(target, []).append(attacker)
            continue
        key_camp = ALLIANCE if camp in R.REBEL_TEAMS and ctx.st.in_donjon(t) else camp
        groups.setdefault((target, key_camp), []).append(attacker)
    for target in sorted(own):
        facts = [ctx.reveal_team([target], a) for a in own[target]]
        ctx.tell("own_camp_attempt", [target], attackers=facts)
    by_target: dict[str, list[Squad]] = {}
    for (target, camp), members in groups.items():
        by_target.setdefault(target, []).append(Squad(target, camp, members))
    out: list[Squad] = []
    for target in sorted(by_target):
        squads = sorted(by_target[target], key=lambda s: s.camp)
        if len(squads) > 1:
            squads = ctx.dice.shuffle(squads, f"order of the squads on {target}")
        out += squads
    return out


def announce(ctx: Ctx, sq: Squad, teams: list[str] | None = None) -> None:
    """Members learn each other's names before leaving (alliance squads also their affiliations)."""
    data_teams: list[dict[str, str]] = []
    if sq.camp == ALLIANCE and len(sq.teams(ctx) if teams is None else teams) > 1:
        for m in sq.members:
            data_teams.append(ctx.reveal_team(sq.members, m))
    ctx.tell("squad_formed", sq.members, target=sq.target, members=list(sq.members), teams=data_teams)


def responsible(ctx: Ctx, sq: Squad, teams: list[str] | None = None) -> str:
    if sq.camp == ALLIANCE:
        if teams is None:
            teams = sq.teams(ctx)
        return teams[0] if len(teams) == 1 else ALLIANCE
    return sq.camp


def resolve_squad(ctx: Ctx, sq: Squad) -> None:
    teams = sq.teams(ctx)  # nobody changes sides while the squads go
    announce(ctx, sq, teams)
    target = sq.target
    t = ctx.p(target)
    ctx.squads_on.setdefault(target, []).append(list(sq.members))
    if not t.alive:
        ctx.tell("squad_target_gone", sq.members, target=target, reason="dead")
        return
    if target in ctx.fled:
        ctx.tell("squad_target_gone", sq.members, target=target, reason="fled")
        return
    if t.location == R.CACHOTS or t.hidden:
        ctx.tell("squad_target_gone", sq.members, target=target, reason="unreachable")
        return
    guard = ctx.bodyguards.get(target)
    if guard is not None and ctx.p(guard).alive and ctx.p(guard).location != R.CACHOTS:
        ctx.tell("squad_redirected", sq.members, target=target, bodyguard=guard)
        if ctx.dice.chance(R.P_CHEF_WARNED, f"chef {target} warned by the attack on his bodyguard (50%)"):
            ctx.fled.add(target)
            ctx.tell("chef_warned", [target], bodyguard=guard, event="squad")
        target = guard
        t = ctx.p(target)
        ctx.squads_on.setdefault(target, []).append(list(sq.members))
    if ctx.protected == target:
        ctx.public("protection_effective", player=target)
        t.protected_once = True
        ctx.tell("squad_fled_guards", sq.members, target=target)
        return
    if t.vigilance and not ctx.st.in_donjon(t):
        if ctx.dice.chance(R.P_VIGILANCE, f"vigilance of {target} (50%)"):
            ctx.tell("vigilance_fled", sq.members, target=target)
            ctx.tell("vigilance_awakened", [target], attackers=len(sq.members))
            ctx.public("survived", player=target)
            return
    power = sum(ctx.influence(m) for m in sq.members)
    needed = ctx.target_influence(target)
    correct = len(sq.members) >= 2 and power >= needed + 1
    alliance = sq.camp == ALLIANCE and len(teams) > 1
    special = (alliance and len(sq.members) >= 4 and power >= needed + 5
               and all(sum(1 for m in sq.members if ctx.p(m).team == tm) >= 2 for tm in R.REBEL_TEAMS))
    ctx.mj("squad_resolved", target=target, camp=sq.camp, members=list(sq.members), power=power, needed=needed,
           correct=correct, special=special)
    by = responsible(ctx, sq, teams)
    if ctx.st.in_donjon(t) and t.rank in R.GARDES:
        if correct and (special or ctx.dice.chance(R.P_GARDE_KILL, f"squad on {target}: Garde Royal dies (60%)")):
            _dies(ctx, sq, target, by, ctx.reveal(sq.members, target, R.GARDE))
            return
        # the Garde strikes a member still standing (one who died in another squad this turn is spared the roll)
        standing = [m for m in sq.members if ctx.p(m).alive] or list(sq.members)
        if alliance:
            killed = [ctx.dice.choice([m for m in standing if ctx.p(m).team == tm] or
                                      [m for m in sq.members if ctx.p(m).team == tm], f"Garde {target} kills a {tm} member")
                      for tm in R.REBEL_TEAMS]
        else:
            killed = [ctx.dice.choice(standing, f"Garde {target} kills a member")]
        for k in killed:
            ctx.kill(k, "garde", R.LANNISTER)
        ctx.tell("squad_repelled", sq.members, target=target, killed=killed)
        ctx.public("survived", player=target)
        return
    if ctx.st.in_donjon(t):  # Conseil Restreint
        if correct and (special or ctx.dice.chance(R.P_CONSEIL_KILL, f"squad on {target}: Conseil member dies (80%)")):
            _dies(ctx, sq, target, by, ctx.reveal(sq.members, target))
            return
        facts = [ctx.reveal([target], m) for m in sq.members]
        ctx.tell("target_learned", [target], facts=facts)
        ctx.tell("squad_failed", sq.members, target=target)
        ctx.public("survived", player=target)
        return
    if correct:
        fact = ctx.reveal(sq.members, target)
        denounced = None
        if ctx.dice.chance(R.P_DENOUNCE, f"{target} denounces a teammate (15%)"):
            mates = known_teammates(t.knowledge, target, t.team)
            if mates:
                mate = ctx.dice.choice(mates, f"teammate denounced by {target}")
                known = t.knows_role(mate)
                denounced = ctx.reveal(sq.members, mate, known)
        _dies(ctx, sq, target, by, fact, denounced)
        return
    member = ctx.dice.choice(sq.members, f"member of the failed squad seen by {target}")
    ctx.tell("target_learned", [target], facts=[ctx.reveal([target], member)])
    ctx.tell("squad_failed", sq.members, target=target)
    ctx.public("survived", player=target)
    ctx.patients.append(target)


def code_team(code: str) -> str:
    return R.split_code(code)[0] if code in R.ROLE_CODES else code


def known_teammates(knowledge: set[str], me: str, team: str) -> list[str]:
    """Names whose role ``me`` was told, with a role of ``team`` (sorted)."""
    out = set()
    for fact in knowledge:
        name, kind, value = fact.split("|")
        if kind == "role" and name != me and code_team(value) == team:
            out.add(name)
    return sorted(out)


def _dies(ctx: Ctx, sq: Squad, target: str, by: str, fact: dict[str, str], denounced: dict[str, str] | None = None) -> None:
    ctx.kill(target, "squad", by)
    ctx.tell("squad_killed", sq.members, target=target, fact=fact, denounced=denounced)
    if len(sq.members) >= 2:
        learner = ctx.dice.choice(sq.members, f"squad on {target}: member who learns a role")
        other = ctx.dice.choice([m for m in sq.members if m != learner], f"squad on {target}: role learned")
        ctx.tell("member_learned", [learner], fact=ctx.reveal([learner], other))
