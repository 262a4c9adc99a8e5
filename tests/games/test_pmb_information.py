"""Pour Ma Belle, I: who may learn what — a model written from the rule text, checked against every
private event of many bot games.

The model does not read the ruleset's knowledge records (``Player.knowledge`` / ``Player.latest``):
from the states before and after each turn (who held which role, who was where), the orders the
players gave, and the rule text, it says for every kind of private event who may receive it and
which facts it may carry; it keeps its own record of what each player was legitimately told,
from the events it accepted, and a fact a player passes on (a denunciation, a confession, a potion
of révélation) must be what that player was told last.  Every player's status (`view`) must show
exactly what the model says he was told.

Rule sentences behind each check are quoted in French next to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from pbem.core import Event, Order, Seat
from pbem.dice import Dice
from pbem.games.pmb import RULESET
from pbem.games.pmb import roles as R
from pbem.games.pmb.bots import random_orders
from pbem.games.pmb.state import State

from .test_pmb_helpers import facts_in

SQUAD_KINDS = {"squad_formed", "squad_killed", "squad_failed", "squad_target_gone", "squad_redirected",
               "squad_fled_guards", "vigilance_fled", "squad_repelled"}


def team_of(value: str) -> str:
    return R.split_code(value)[0] if value in R.ROLE_CODES else value


def fact_of(f: Mapping[str, str]) -> tuple[str, str]:
    return f["player"], f["role"] if "role" in f else f["team"]


@dataclass
class Turn:
    """What the rule text lets the model know of one turn, from the states and the orders (never from
    the ruleset's knowledge records)."""

    before: State
    after: State
    orders: Mapping[str, Sequence[Order]]
    confused: dict[str, str | None] = field(default_factory=dict)
    acting: set[str] = field(default_factory=set)
    attackers: dict[str, set[str]] = field(default_factory=dict)
    """Target -> the players who went for him this turn (ESCOUADE, the traitor's squad, a confused patient's)."""
    guards: dict[str, str] = field(default_factory=dict)
    """Chef -> the Homme de Main he named bodyguard (GARDE)."""
    lc: str | None = None

    def __post_init__(self) -> None:
        b, a = self.before, self.after
        lc = b.lord_commandant()
        self.lc = lc.name if lc is not None else None
        # « potion confusion : … le MJ va ignorer ses consignes pendant ce tour, et les remplacer par les
        # indications du Grand Mestre »: a patient whose potion became confusion this turn
        for n, p in a.players.items():
            if p.potion == R.CONFUSION and b.players[n].potion is None:
                imposed = None
                for orders in self.orders.values():
                    for o in orders:
                        if o.verb == "POTION" and o.args[0] == R.CONFUSION and o.args[1] == n:
                            imposed = o.args[2]
                self.confused[n] = imposed
        prisoners = {pr.name: pr for pr in b.prisoners}
        for n, p in b.players.items():
            released = n in prisoners and prisoners[n].awaiting_verdict and b.options.get("prison_turns", 1) == 1
            if p.alive and not p.hidden and not p.rally and (p.location != R.CACHOTS or released):
                self.acting.add(n)
        traitors = {x.sergent: x.chef for x in b.betrayals if x.turn == b.turn - 1}
        for n in self.acting:
            target: Any = None
            if n in self.confused:
                target = self.confused[n]
            elif n in traitors:
                target = traitors[n]
            else:
                target = self.first_arg(n, "ESCOUADE")
            if target is not None:
                self.attackers.setdefault(str(target), set()).add(n)
            if b.players[n].rank == R.CHEF and n not in self.confused and (g := self.first_arg(n, "GARDE")):
                self.guards[n] = str(g)

    def order_args(self, n: str, verb: str) -> list[tuple[Any, ...]]:
        if n in self.confused:
            return []  # his own orders are ignored
        return [o.args for o in self.orders.get(n, ()) if o.verb == verb]

    def first_arg(self, n: str, verb: str) -> Any:
        found = self.order_args(n, verb)
        return found[0][0] if found and found[0] else None

    def went_for(self, target: str) -> set[str]:
        """Everyone whose squad ended on ``target``: his own attackers, and those of the chef he guarded."""
        out = set(self.attackers.get(target, set()))
        for chef, guard in self.guards.items():
            if guard == target:
                out |= self.attackers.get(chef, set())
        return out

    def roles(self, name: str) -> set[str]:
        """What may truthfully be said of ``name``'s role this turn: before or after it, or what the
        start of the turn made him (a sergent named, a rally, a promotion); the Lord Commandant is a Garde Royal."""
        b, a = self.before.players[name], self.after.players[name]
        out = {b.code, a.code}
        if b.rank == R.HM:
            out.add(R.role_code(b.team, R.SERGENT))
        if b.rally:
            out |= {R.role_code(t, R.HM) for t in R.REBEL_TEAMS}
        if b.recruit:
            out.add(R.GARDE)
        if R.LORD_COMMANDANT in out:
            out.add(R.GARDE)
        return out

    def truthful(self, name: str, value: str) -> bool:
        roles = self.roles(name)
        return value in roles if value in R.ROLE_CODES else value in {team_of(r) for r in roles}

    def holder(self, rank: str) -> set[str]:
        return {n for n, p in self.before.players.items() if p.rank == rank} | \
               {n for n, p in self.after.players.items() if p.rank == rank}


class Model:
    """What each player was legitimately told, and the rules of who may be told what."""

    def __init__(self) -> None:
        self.told: dict[str, dict[str, str]] = {}
        self.seen: Counter[str] = Counter()

    # --- the record ---

    def learn(self, who: str, subject: str, value: str) -> None:
        mine = self.told.setdefault(who, {})
        if value in R.ROLE_CODES or team_of(mine.get(subject, "")) != value:
            mine[subject] = value

    def believes(self, who: str, subject: str) -> str | None:
        return self.told.get(who, {}).get(subject)

    def relayed(self, source: str, f: Mapping[str, str]) -> None:
        """« le rôle connu d'un co-équipier »: a fact passed on is what ``source`` was told last."""
        subject, value = fact_of(f)
        known = self.believes(source, subject)
        assert known is not None, (source, f)
        if "role" in f:
            assert value == known, (source, f, known)
        else:
            assert value == team_of(known), (source, f, known)

    # --- setup ---

    def setup(self, st: State, events: list[Event]) -> None:
        """« Au départ du jeu un Homme de Main ne connaît que l'identité de son sergent. Un sergent connaît le chef
        et ses Hommes de Main. Le chef connaît toute l'organisation. » « chaque habitant du Donjon Rouge connaît les
        attributions exactes des neuf autres joueurs. » « personne […] ne connaissent [les fidèles] »."""
        for e in events:
            if e.audience.kind != "players":
                assert not facts_in(e.data) or e.audience.kind == "mj", e
                continue
            assert e.kind == "your_role", e.kind
            (who,) = e.audience.players
            p = st.players[who]
            assert e.data["player"] == who and e.data["role"] == p.code
            may: set[str]
            if p.location == R.DONJON:
                may = set(st.donjon)
            elif p.rank == R.HM:
                may = {p.sergent} if p.sergent else set()
            elif p.rank == R.SERGENT:
                chef = st.chef(p.team)
                may = ({chef.name} if chef else set()) | {n for n, q in st.players.items() if q.sergent == who}
            elif p.rank == R.CHEF:
                may = {n for n, q in st.players.items() if q.team == p.team}
            else:
                may = set()
            self.learn(who, who, p.code)
            for f in e.data["known"]:
                subject, value = fact_of(f)
                assert subject in may and value == st.players[subject].code, (who, f)
                self.learn(who, subject, value)
            assert {f["player"] for f in e.data["known"]} == may - {who}, who
            self.seen[e.kind] += 1

    # --- one turn ---

    def turn(self, t: Turn, events: list[Event]) -> None:
        for e in events:
            if e.audience.kind == "public":
                if e.kind != "game_over":
                    assert facts_in(e.data) == [], (e.kind, e.data)  # « sans révéler ni rôle ni affiliation »
                continue
            if e.audience.kind == "mj":
                continue
            check = getattr(self, f"check_{e.kind}", None)
            assert check is not None, f"the model has no rule for the private event {e.kind}"
            for who in e.audience.players:
                check(t, who, e.data)
                for f in facts_in(e.data):
                    self.learn(who, *fact_of(f))
            self.seen[e.kind] += 1
        self.must(t, events)

    def must(self, t: Turn, events: list[Event]) -> None:
        """What the rules say some player must be told (the other checks only forbid)."""
        # « Il est également averti lorsqu'un chef rebelle a scanné un joueur du Donjon Rouge. »
        whisper = [n for n, p in t.before.players.items() if p.rank == R.CHUCHOTEURS and p.alive and not p.hidden
                   and p.location == R.DONJON and t.after.players[n].alive]  # (killed this turn, he hears nothing)
        for n in t.acting:
            target = t.first_arg(n, "DECOUVRIR")
            if target is None or t.before.players[n].rank != R.CHEF or n in t.confused or not whisper:
                continue
            if t.before.in_donjon(t.before.players[target]):
                assert any(e.kind == "scan_warning" and e.audience.includes(whisper[0]) and e.data["member"] == target
                           for e in events), (n, target)
        # « Après le tour, le joueur ne se souvient pas… »: nothing private at all about his squad
        for patient in t.confused:
            for e in events:
                if e.audience.kind == "players" and patient in e.audience.players:
                    assert e.kind not in SQUAD_KINDS | {"member_learned"}, (patient, e.kind)

    def view(self, st: State) -> None:
        """Each player's status shows what he was told last, and nothing else."""
        for n in st.order:
            shown = {f["player"]: f["role"] if "role" in f else f["team"] for f in RULESET.view(st, n)["known"]}
            assert shown == {k: v for k, v in self.told.get(n, {}).items() if k != n}, n

    # --- squads: « Les joueurs apprennent alors le nom des autres membres de leur escouade, mais pas les rôles. »

    def _member(self, t: Turn, who: str, target: str) -> None:
        assert who in t.acting and who not in t.confused, (who, target)
        assert who in t.went_for(target) or who in t.attackers.get(target, set()), (who, target)

    def check_squad_formed(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._member(t, who, d["target"])
        assert set(d["members"]) <= t.attackers[d["target"]] and who in d["members"]
        # « Les membres de l'escouade apprennent l'identité des autres membres […], mais donc aussi l'affiliation »
        # (alliance squads)
        for f in d["teams"]:
            assert f["player"] in d["members"] and t.truthful(f["player"], f["team"]), f

    def check_squad_killed(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._member(t, who, d["target"])
        target, value = fact_of(d["fact"])
        assert target == d["target"] and t.truthful(target, value)  # « en révélant son rôle et affiliation »
        if d["denounced"] is not None:  # « dénonce le rôle connu d'un co-équipier »
            mate, mv = fact_of(d["denounced"])
            assert mate != target and team_of(mv) == t.before.players[target].team
            self.relayed(target, d["denounced"])

    def check_member_learned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Si la cible meurt, un membre au hasard de l'escouade apprend le rôle d'un autre membre. »
        other, value = fact_of(d["fact"])
        assert who not in t.confused and other != who
        assert any(who in s and other in s for s in t.attackers.values()), (who, other)
        assert value == (R.FIDELE if other in t.confused else value) and (other in t.confused or t.truthful(other, value))

    def _squad_note(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._member(t, who, d["target"])

    check_squad_failed = check_squad_target_gone = check_squad_fled_guards = check_vigilance_fled = _squad_note

    def check_squad_redirected(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « l'escouade apprend qu'elle a été forcée de changer de cible »
        assert who in t.attackers.get(d["target"], set()) and who not in t.confused
        assert t.guards.get(d["target"]) == d["bodyguard"]

    def check_squad_repelled(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._member(t, who, d["target"])
        assert set(d["killed"]) <= t.went_for(d["target"])

    def _attacked(self, t: Turn, who: str) -> set[str]:
        went = t.went_for(who)
        assert went, who
        return went

    def check_target_learned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « la cible ne meurt pas, en apprenant le nom, le rôle et l'affiliation d'un membre de l'escouade »
        went = self._attacked(t, who)
        for f in d["facts"]:
            m, value = fact_of(f)
            assert m in went, (who, f)
            assert value == R.FIDELE if m in t.confused else t.truthful(m, value), (who, f)

    def check_vigilance_awakened(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._attacked(t, who)
        assert t.after.players[who].vigilance  # (drunk this turn or before)

    def check_own_camp_attempt(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « la cible sera informée de la tentative »
        went = t.attackers.get(who, set())
        # « Au départ du jeu, personne […] ne connaissent leur nombre » : no count unless the option tells it
        assert ("count" in d) == (t.before.options.get("own_camp_attempt", "anonyme") != "anonyme")
        assert d.get("count", 1) >= 1 and len(d["attackers"]) in (0, d.get("count"))
        for f in d["attackers"]:
            m, value = fact_of(f)
            assert m in went and value == (R.LANNISTER if m in t.confused else t.before.players[m].team), f
            assert value == t.before.players[who].team

    def check_chef_warned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.guards.get(who) == d["bodyguard"]

    def check_bodyguard_assigned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « L'Homme de Main apprend alors, pour le protéger, l'identité du chef »
        chef, value = fact_of(d["chef"])
        assert t.guards.get(chef) == who and t.truthful(chef, value)

    def check_bodyguard_ready(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.guards.get(who) == d["homme"]

    check_bodyguard_refused = check_bodyguard_ready

    # --- Conseil Restreint

    def check_scan_result(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Le chef aura également le droit chaque tour de découvrir le rôle d'un adversaire. »
        subject, value = fact_of(d["fact"])
        assert t.before.players[who].rank == R.CHEF and who in t.acting and who not in t.confused
        assert t.first_arg(who, "DECOUVRIR") == subject and t.truthful(subject, value)

    def check_scan_warning(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert who in t.holder(R.CHUCHOTEURS)
        assert any(t.before.players[c].rank == R.CHEF and t.before.players[c].team == d["clan"]
                   and t.first_arg(c, "DECOUVRIR") == d["member"] for c in t.acting)

    def check_enquete_result(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « apprendre le rôle et l'affiliation d'un joueur par tour »
        subject, value = fact_of(d["fact"])
        assert t.before.players[who].rank == R.CHUCHOTEURS and t.first_arg(who, "ENQUETE") == subject
        assert t.truthful(subject, value)

    def check_temoins_result(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « il peut chaque tour apprendre la composition d'une escouade qui a ciblé un joueur »
        assert t.before.players[who].rank == R.ARGENTIER and t.first_arg(who, "TEMOINS") == d["target"]
        assert d["members"] is None or set(d["members"]) <= t.went_for(d["target"])

    def check_potion_given(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert who in t.holder(R.MESTRE)

    check_potion_wasted = check_infirmary = check_potion_given

    def check_potion_revelation(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « le joueur révèle son rôle, son affiliation ainsi que celle d'un autre joueur au hasard »
        assert who in t.holder(R.MESTRE)
        self._revelation(t, d["patient"], d["facts"])

    def check_you_spoke(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Le joueur est informé qu'il a parlé, et se souvient de ce qu'il a dit. »
        assert t.after.players[who].potion == R.REVELATION and t.before.players[who].potion is None
        self._revelation(t, who, d["facts"])

    def _revelation(self, t: Turn, patient: str, facts: list[dict[str, str]]) -> None:
        first, value = fact_of(facts[0])
        assert first == patient and t.truthful(patient, value)
        for f in facts[1:]:
            if t.before.options.get("revelation", "affiliation") == "affiliation":
                assert "team" in f, f
            self.relayed(patient, f)

    def check_potion_puissance(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].bonus > t.before.players[who].bonus

    # --- Garde Royale

    def _garde(self, t: Turn, who: str) -> None:
        assert t.before.players[who].rank in R.GARDES and t.before.players[who].location == R.DONJON, who

    def check_mission_report(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._garde(t, who)

    def check_arrest_failed(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        self._garde(t, who)
        assert d["reason"] == "absent" or not t.after.players[d["target"]].alive

    def check_you_are_arrested(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].location == R.CACHOTS or not t.after.players[who].alive or R.LANNISTER in t.after.defeated

    def check_confession(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Si pendant ce tour le Lord Commandant n'est pas tué, alors il vient chercher le suspect, et apprend les
        # informations obtenues lors de l'interrogatoire » : son rôle et son affiliation, et peut-être « le rôle et
        # l'identité d'un autre joueur de son équipe »
        prisoner = d["prisoner"]
        assert who == t.lc and t.after.players[who].alive
        pr = t.before.prisoner(prisoner)
        assert pr is not None and not pr.awaiting_verdict and pr.arrested == t.before.turn - 1
        first, value = fact_of(d["facts"][0])
        assert first == prisoner and value == t.after.players[prisoner].code  # the role he holds at the end of the turn
        for f in d["facts"][1:]:
            mate, mv = fact_of(f)
            assert mate != prisoner and team_of(mv) == t.after.players[prisoner].team
            self.relayed(prisoner, f)

    def check_escaped(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # a prisoner, or one arrested this very turn when the Lannister fell
        assert t.before.prisoner(who) is not None or R.LANNISTER in t.after.defeated

    def _verdict(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        pr = t.before.prisoner(d["prisoner"])
        assert pr is not None and pr.awaiting_verdict and who in (d["prisoner"], t.lc)

    check_verdict_executed = check_verdict_released = _verdict

    def check_fidele_order(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].rank == R.FIDELE and t.after.players[who].alive

    def check_new_lord_commandant(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        lord, value = fact_of(d["lord"])
        assert t.after.players[who].location == R.DONJON and value == R.LORD_COMMANDANT
        assert t.after.players[lord].rank == R.LORD_COMMANDANT

    def check_recruit_available(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        recruit, value = fact_of(d["recruit"])
        assert t.holder(R.LORD_COMMANDANT) >= {who} and t.after.players[recruit].recruit and t.truthful(recruit, value)

    def check_promoted(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.before.players[who].recruit and t.after.players[who].rank == R.GARDE
        for f in [*d["known"], d["role"]]:
            assert t.after.players[f["player"]].location == R.DONJON and t.truthful(*fact_of(f))

    def check_new_garde(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        garde, value = fact_of(d["garde"])
        assert t.after.players[who].location == R.DONJON and t.truthful(garde, value)

    def check_betrayal_known(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Il lui faut alors donner l'identité de son chef aux loyalistes. »
        assert t.after.players[who].location == R.DONJON
        sergent, sv = fact_of(d["sergent"])
        chef, cv = fact_of(d["chef"])
        assert t.order_args(sergent, "TRAHIR") and t.truthful(sergent, sv) and t.truthful(chef, cv)

    def check_betrayal_registered(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.order_args(who, "TRAHIR")

    check_betrayal_void = check_betrayal_registered

    # --- rebels

    def check_vacancy(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Quand un sergent meurt, le chef choisit un nouveau sergent parmi les Hommes de Main du sergent décédé »
        assert t.after.players[who].rank == R.CHEF
        for f in d["candidates"]:
            assert t.after.players[f["player"]].team == t.after.players[who].team and t.truthful(*fact_of(f))

    def check_sergent_died(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        dead = d["sergent"]
        named_now = t.before.players[dead].rank == R.HM  # named at the start of the turn, dead in it
        assigned_now = t.before.players[who].sergent is None and t.after.players[who].sergent == dead
        assert t.before.players[who].sergent == dead or named_now or assigned_now, (who, dead)
        assert t.before.players[who].team == t.before.players[dead].team and not t.after.players[dead].alive

    def check_sergent_named(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        new, value = fact_of(d["sergent"])
        team = t.before.players[new].team
        assert t.truthful(new, value) and t.before.players[who].team == team
        assert t.before.players[who].rank == R.CHEF or t.before.players[who].sergent == d["dead"]

    def check_you_are_sergent(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Un sergent connaît le chef et ses Hommes de Main. »
        team = t.before.players[who].team
        chef, cv = fact_of(d["chef"])
        assert t.before.players[chef].rank == R.CHEF and t.before.players[chef].team == team and t.truthful(chef, cv)
        for f in d["hommes"]:
            assert t.before.players[f["player"]].team == team and t.truthful(*fact_of(f))
        assert fact_of(d["role"])[0] == who

    def check_hm_assigned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « Le MJ informe alors les sergents et Hommes de Main concernés de leur lien. »
        hm, value = fact_of(d["homme"])
        assert t.before.players[hm].sergent is None and t.truthful(hm, value)
        assert t.before.players[who].team == t.before.players[hm].team

    def check_sergent_assigned(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        sgt, value = fact_of(d["sergent"])
        assert t.before.players[who].sergent is None and t.truthful(sgt, value)

    def check_hm_assigned_chef(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.before.players[who].rank == R.CHEF
        for key in ("homme", "sergent"):
            assert t.truthful(*fact_of(d[key]))

    def check_new_homme_de_main(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « le chef est informé de l'identité de chaque nouveau Hommes de Main »
        hm, value = fact_of(d["homme"])
        assert t.after.players[who].rank == R.CHEF and t.after.players[hm].team == t.after.players[who].team
        assert t.truthful(hm, value)

    def check_converted(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « les joueurs encore en vie dont les attributions changent se voient notifiés »
        subject, value = fact_of(d["role"])
        assert subject == who and t.truthful(who, value)

    def check_rallied(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        # « le MJ les met en contact. Le Garde Royal devient alors un Homme de Main du clan du joueur contacté. »
        assert t.before.players[who].rally and fact_of(d["role"])[0] == who
        contact, team = fact_of(d["contact"])
        assert t.truthful(contact, team) and t.truthful(who, d["role"]["role"])

    def check_rally_contact(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        new, value = fact_of(d["newcomer"])
        assert t.before.players[new].rally and t.truthful(new, value)

    def check_you_hide(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].rank in R.CONSEIL and t.after.players[who].hidden

    def check_must_rally(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].rally

    def check_left_hiding(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.before.players[who].hidden and t.order_args(who, "SORTIR")

    def check_moved(self, t: Turn, who: str, d: Mapping[str, Any]) -> None:
        assert t.after.players[who].location == d["to"]


# ---------------------------------------------------------------- the bot games


def orders_of(st: State, lines: Mapping[str, list[str]]) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for prompt in RULESET.prompts(st):
        acc: list[Order] = []
        for line in lines.get(prompt.player, []):
            acc.append(RULESET.parse_order(st, prompt.player, line, acc))
        out[prompt.player] = acc or RULESET.default_orders(st, prompt.player)
    return out


def play_checked(n: int, seed: int, options: Mapping[str, Any], model: Model) -> None:
    st, events = RULESET.setup([Seat(f"Joueur {i:02d}") for i in range(n)], dict(options), Dice(f"{seed:04x}", "setup"))
    model.told = {}  # a new game (the counts of events seen go on)
    model.setup(st, events)
    model.view(st)
    while RULESET.outcome(st) is None:
        lines = {p.player: random_orders(st, p.player, seed) for p in RULESET.prompts(st)}
        orders = orders_of(st, lines)
        new, ev = RULESET.resolve(st, orders, Dice(f"{seed:04x}", f"step-{st.turn}"))
        model.turn(Turn(st, new, orders), ev)
        if not new.finished:
            model.view(new)
        st = new


VARIANTS: list[dict[str, Any]] = [
    {},
    {"own_camp_attempt": "noms", "revelation": "role", "prison_turns": 2, "fidele_squads": "libre",
     "squad_order": "alphabetique", "lord_commandant_counts": True, "verdict_default": "mort"},
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_I_every_private_event_of_many_bot_games_agrees_with_the_model(variant: int) -> None:
    model = Model()
    for seed in range(40):
        play_checked(40, seed + 1000 * variant, VARIANTS[variant], model)
    # the games went through the channels the model is about (confusion, conversions, confessions, defeats…)
    seen = model.seen
    for kind in ("squad_formed", "squad_killed", "target_learned", "member_learned", "scan_result", "scan_warning",
                 "enquete_result", "temoins_result", "confession", "converted", "rallied", "you_spoke",
                 "bodyguard_assigned", "own_camp_attempt", "potion_given", "vacancy", "sergent_named", "escaped"):
        assert seen[kind] > 0, kind


def test_I_confusion_conversions_confessions_and_defeats_do_occur_in_the_bot_games() -> None:
    """The model test is only as good as its games: count the events it must have met."""
    confusions = conversions = confessions = defeats = confused_in_squads = 0
    for seed in range(40):
        st, events = RULESET.setup([Seat(f"Joueur {i:02d}") for i in range(40)], {}, Dice(f"{seed:04x}", "setup"))
        while RULESET.outcome(st) is None:
            orders = orders_of(st, {p.player: random_orders(st, p.player, seed) for p in RULESET.prompts(st)})
            new, ev = RULESET.resolve(st, orders, Dice(f"{seed:04x}", f"step-{st.turn}"))
            turn = Turn(st, new, orders)
            confusions += len(turn.confused)
            confused_in_squads += sum(1 for p in turn.confused if turn.confused[p] is not None)
            conversions += sum(1 for e in ev if e.kind in ("converted", "rallied"))
            confessions += sum(1 for e in ev if e.kind == "confession")
            defeats += sum(1 for e in ev if e.kind == "team_defeated")
            st = new
    assert confusions >= 5 and confused_in_squads >= 3, (confusions, confused_in_squads)
    assert conversions >= 40 and confessions >= 20 and defeats >= 40, (conversions, confessions, defeats)


# ---------------------------------------------------------------- the roles named when a player dies or speaks


def _roles_named_checked(seed: int, options: Mapping[str, Any], seen: Counter[str]) -> None:
    """One bot game; every role its death and revelation events name is checked against the states."""
    st, _ = RULESET.setup([Seat(f"Joueur {i:02d}") for i in range(40)], dict(options), Dice(f"{seed:04x}", "setup"))
    garde_only = not options.get("lord_commandant_revealed", True)
    died_as: dict[str, str] = {}
    while RULESET.outcome(st) is None:
        orders = orders_of(st, {p.player: random_orders(st, p.player, seed) for p in RULESET.prompts(st)})
        new, events = RULESET.resolve(st, orders, Dice(f"{seed:04x}", f"step-{st.turn}"))
        for name, code in died_as.items():  # a dead player's role is the one he died with, for good
            assert new.players[name].code == code, (seed, st.turn, name)
        for e in events:
            d = e.data
            if e.kind == "death_cause":  # the role he had when he died: a dead player's role never changes after
                assert d["role"] == new.players[d["player"]].code, (seed, st.turn, d)
                died_as[d["player"]] = d["role"]
                seen["death"] += 1
            elif e.kind == "squad_killed":
                # « la cible meurt, en révélant son rôle et affiliation » ; « dénoncée comme Garde Royal »
                target, role = d["fact"]["player"], d["fact"]["role"]
                held = new.players[target].code
                assert role == (R.GARDE if garde_only and held == R.LORD_COMMANDANT else held), (seed, st.turn, d)
                seen["lord_commandant killed" if held == R.LORD_COMMANDANT else "squad killed"] += 1
            elif e.kind in ("potion_revelation", "you_spoke"):
                # « le joueur révèle son rôle » : the potion is the first thing of the turn, before any change
                patient = d["patient"] if e.kind == "potion_revelation" else e.audience.players[0]
                assert d["facts"][0] == {"player": patient, "role": st.players[patient].code}, (seed, st.turn, d)
                seen["revelation"] += 1
            elif e.kind == "confession":
                # « il révèle son rôle et son affiliation » : the role he holds at the end of this turn in the cells
                prisoner = d["prisoner"]
                assert d["facts"][0] == {"player": prisoner, "role": new.players[prisoner].code}, (seed, st.turn, d)
                seen["confession"] += 1
            elif e.kind == "game_over":
                for r in d["reveal"]:
                    assert r["role"] == new.players[r["player"]].code == died_as.get(r["player"], r["role"]), r
                seen["game over"] += 1
        st = new


@pytest.mark.parametrize("options", [{}, {"lord_commandant_revealed": False, "revelation": "role", "prison_turns": 2}])
def test_I_every_role_named_in_a_death_or_a_revelation_is_the_role_held_at_that_moment(options: dict[str, Any]) -> None:
    """« la cible meurt, en révélant son rôle et affiliation », « dénoncée comme Garde Royal » (the Lord Commandant
    with his title, unless lord_commandant_revealed = false), « il révèle son rôle et son affiliation » (the
    arrested), « le joueur révèle son rôle » (the potion), and the roles shown at the end: in many bot games,
    every role named of the player who dies or speaks is the one he had at that moment."""
    seen: Counter[str] = Counter()
    for seed in range(60 if not options else 30):
        _roles_named_checked(seed, options, seen)
    assert seen["lord_commandant killed"] >= 3 and seen["squad killed"] >= 100, seen
    assert seen["death"] >= 500 and seen["revelation"] >= 3 and seen["confession"] >= 10 and seen["game over"] > 0, seen
