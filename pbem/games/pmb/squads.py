"""Squads: who attacks whom, and the four outcomes (plus protection, vigilance, bodyguards)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.games.pmb import roles as R
from pbem.games.pmb.context import Ctx
from pbem.games.pmb.options import option

ALLIANCE = "rebels"


@dataclass
class Squad:
    target: str
    camp: str
    """"lannister", "stark", "tyrell", or "rebels" (Stark and Tyrell together against a Donjon Rouge resident)."""
    members: list[str]

    def teams(self, ctx: Ctx) -> list[str]:
        if not ctx.confused:
            players = ctx.st.players
            return sorted({players[m].team for m in self.members})
        return sorted({ctx.member_team(m) for m in self.members})


def form_squads(ctx: Ctx, attacks: list[tuple[str, str, str]]) -> list[Squad]:
    """Group (attacker, camp, target) into squads, in the order they will go; attempts on one's
    own camp form none and warn the target.

    ``attacks`` is in roster order.  Option ``squad_order``: ``"tirage"`` (default) draws the
    order of all the squads of the turn (from a list in roster order, so that no name decides
    anything) and tells the MJ; ``"alphabetique"`` goes by target name, several squads on one
    target in random order (the rule text's « ordre de passage tiré au sort »).
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
    told = option(ctx.st.options, "own_camp_attempt")
    for target, attackers in own.items():  # roster order of the first attacker
        # « la cible sera informée de la tentative » (and by default of nothing more: not even how many
        # of his camp went for him, which would tell a fidèle target a lower bound on the fidèles)
        if told == "anonyme":
            ctx.tell("own_camp_attempt", [target], attackers=[])
            continue
        facts = [ctx.lessons.reveal_team([target], a, ctx.member_team(a)) for a in attackers] if told == "noms" else []
        ctx.tell("own_camp_attempt", [target], attackers=facts, count=len(attackers))
    squads = [Squad(target, camp, members) for (target, camp), members in groups.items()]
    if option(ctx.st.options, "squad_order") == "alphabetique":
        by_target: dict[str, list[Squad]] = {}
        for sq in squads:
            by_target.setdefault(sq.target, []).append(sq)
        out: list[Squad] = []
        for target in sorted(by_target):
            on = sorted(by_target[target], key=lambda s: s.camp)
            if len(on) > 1:
                on = ctx.dice.shuffle(on, f"order of the squads on {target}")
            out += on
        return out
    pos = ctx.pos()
    squads.sort(key=lambda s: (pos[s.target], s.camp))
    if len(squads) > 1:
        squads = ctx.dice.shuffle(squads, "order of the squads")
        ctx.mj("squad_order", squads=[{"target": sq.target, "camp": sq.camp} for sq in squads])
    return squads


def announce(ctx: Ctx, sq: Squad, aware: list[str], teams: list[str] | None = None) -> None:
    """Members learn each other's names before leaving (alliance squads also their affiliations)."""
    data_teams: list[dict[str, str]] = []
    if sq.camp == ALLIANCE and len(sq.teams(ctx) if teams is None else teams) > 1:
        # every member told every member's affiliation: one lesson shared by all (k, not k², entries)
        data_teams = ctx.lessons.reveal_teams(aware, sq.members)
    ctx.tell("squad_formed", aware, target=sq.target, members=list(sq.members), teams=data_teams)


def responsible(ctx: Ctx, sq: Squad, teams: list[str] | None = None) -> str:
    if sq.camp == ALLIANCE:
        if teams is None:
            teams = sq.teams(ctx)
        return teams[0] if len(teams) == 1 else ALLIANCE
    return sq.camp


def resolve_squad(ctx: Ctx, sq: Squad) -> None:
    """One squad's attack, by the four cases of the rules.  What it reveals goes to its members
    but a confused patient among them, who will remember nothing; a confused member shows as
    the fidèle Lannister he unknowingly is."""
    teams = sq.teams(ctx)  # nobody changes sides while the squads go
    aware = ctx.aware(sq.members)
    announce(ctx, sq, aware, teams)
    target = sq.target
    t = ctx.p(target)
    ctx.squads_on.setdefault(target, []).append(list(sq.members))
    if not t.alive:
        ctx.tell("squad_target_gone", aware, target=target, reason="dead")
        return
    if target in ctx.fled:
        ctx.tell("squad_target_gone", aware, target=target, reason="fled")
        return
    if t.location == R.CACHOTS or t.hidden:
        ctx.tell("squad_target_gone", aware, target=target, reason="unreachable")
        return
    guard = ctx.bodyguards.get(target)
    if guard is not None and ctx.p(guard).alive and ctx.p(guard).location != R.CACHOTS:
        ctx.tell("squad_redirected", aware, target=target, bodyguard=guard)
        if ctx.dice.chance(R.P_CHEF_WARNED, f"chef {target} warned by the attack on his bodyguard (50%)"):
            ctx.fled.add(target)
            ctx.tell("chef_warned", [target], bodyguard=guard, event="squad")
        target = guard
        t = ctx.p(target)
        ctx.squads_on.setdefault(target, []).append(list(sq.members))
    if ctx.protected == target:
        if not t.protected_once:  # said once in the report, however many squads fled
            ctx.public("protection_effective", player=target)
        ctx.writable(target).protected_once = True
        ctx.tell("squad_fled_guards", aware, target=target)
        return
    if t.vigilance and not ctx.st.in_donjon(t):
        if ctx.dice.chance(R.P_VIGILANCE, f"vigilance of {target} (50%)"):
            ctx.tell("vigilance_fled", aware, target=target)
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
            # « dénoncée comme Garde Royal »: the Lord Commandant with his title, his role at that moment
            # (option lord_commandant_revealed = false: as a Garde Royal only)
            shown = None if option(ctx.st.options, "lord_commandant_revealed") else R.GARDE
            _dies(ctx, sq, aware, target, by, ctx.lessons.reveal(aware, target, shown))
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
        ctx.tell("squad_repelled", aware, target=target, killed=killed)
        ctx.public("survived", player=target)
        return
    if ctx.st.in_donjon(t):  # Conseil Restreint
        if correct and (special or ctx.dice.chance(R.P_CONSEIL_KILL, f"squad on {target}: Conseil member dies (80%)")):
            _dies(ctx, sq, aware, target, by, ctx.lessons.reveal(aware, target))
            return
        facts = ctx.lessons.reveal_to(target, ctx.member_codes(sq.members))
        ctx.tell("target_learned", [target], facts=facts)
        ctx.tell("squad_failed", aware, target=target)
        ctx.public("survived", player=target)
        return
    if correct:
        fact = ctx.lessons.reveal(aware, target)
        denounced = None
        if ctx.dice.chance(R.P_DENOUNCE, f"{target} denounces a teammate (15%)"):
            mates = t.teammates_known()
            if mates:
                mate = ctx.dice.choice(mates, f"teammate denounced by {target}")
                denounced = ctx.lessons.reveal(aware, mate, t.knows_role(mate))
        _dies(ctx, sq, aware, target, by, fact, denounced)
        return
    member = ctx.dice.choice(sq.members, f"member of the failed squad seen by {target}")
    ctx.tell("target_learned", [target], facts=[ctx.lessons.reveal([target], member, ctx.member_code(member))])
    ctx.tell("squad_failed", aware, target=target)
    ctx.public("survived", player=target)
    ctx.patients.append(target)


def _dies(ctx: Ctx, sq: Squad, aware: list[str], target: str, by: str, fact: dict[str, str],
          denounced: dict[str, str] | None = None) -> None:
    ctx.kill(target, "squad", by)
    ctx.tell("squad_killed", aware, target=target, fact=fact, denounced=denounced)
    if len(sq.members) >= 2 and aware:
        # the learner is drawn among those who will remember; the role learned may be a confused member's
        learner = ctx.dice.choice(aware, f"squad on {target}: member who learns a role")
        other = ctx.dice.choice([m for m in sq.members if m != learner], f"squad on {target}: role learned")
        ctx.tell("member_learned", [learner], fact=ctx.lessons.reveal([learner], other, ctx.member_code(other)))
