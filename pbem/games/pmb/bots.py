"""Simulation bots: plausible, legal order lines for a player (for demos, benchmarks and tests).

Pure: the choice depends only on (state, player, seed).  Every line is checked with the
order parser, so only accepted lines are returned.  Bots of one clan share a "focus"
target each turn (drawn from the true state, as a crowd of players talking on a forum
would converge), so that squads form and games end.
"""

from __future__ import annotations

import random

from pbem.core import Order, OrderError
from pbem.games.pmb import orders as O
from pbem.games.pmb import roles as R
from pbem.games.pmb.state import State


def _focus(st: State, camp: str, salt: str) -> str | None:
    cache = st.__dict__.setdefault("_pmb_bot_focus", {})
    key = f"{camp}|{salt}"
    if key not in cache:
        cache[key] = _draw_focus(st, camp, salt)
    focus: str | None = cache[key]
    return focus


def _draw_focus(st: State, camp: str, salt: str) -> str | None:
    rng = random.Random(f"{camp}|{st.turn}|{salt}")
    enemies = [n for n in st.order if (p := st.players[n]).alive and p.team != camp and p.location != R.CACHOTS and not p.hidden]
    if not enemies:
        return None
    donjon = [n for n in enemies if st.players[n].location == R.DONJON]
    if camp in R.REBEL_TEAMS and donjon and rng.random() < 0.8:
        # both clans converge on the same Donjon Rouge resident (alliance squads)
        return random.Random(f"rebels|{st.turn}|{salt}").choice(donjon)
    return rng.choice(enemies)


def _lists(st: State) -> tuple[list[str], list[str], list[str]]:
    """(living, free, in Port-Réal) names, computed once per state (a state is never mutated)."""
    cache = st.__dict__.setdefault("_pmb_bot_lists", {})
    if "lists" not in cache:
        living = [n for n in st.order if st.players[n].alive]
        free = [n for n in living if st.players[n].location != R.CACHOTS]
        city = [n for n in free if st.players[n].location != R.DONJON]
        cache["lists"] = (living, free, city)
        cache["rebels"] = [n for n in living if st.players[n].team in R.REBEL_TEAMS and st.players[n].team not in st.defeated
                           and not st.players[n].rally]
    lists: tuple[list[str], list[str], list[str]] = cache["lists"]
    return lists


def random_orders(state: State, player: str, rng_seed_int: int) -> list[str]:
    """Order lines for ``player`` this turn, as typed in a mail (may be empty)."""
    st = state
    p = st.players.get(player)
    if p is None:
        return []
    verbs = O.allowed(st, player)
    if not verbs:
        return []
    rng = random.Random(f"{rng_seed_int}|{st.turn}|{player}")
    living, free, city = _lists(st)  # these include the player: pick() never returns him
    lines: list[str] = []

    def pick(names: list[str]) -> str | None:
        for _ in range(8):
            if not names:
                return None
            name = rng.choice(names)
            if name != player:
                return name
        return None

    if O.SORTIR in verbs and rng.random() < 0.3:
        lines.append("SORTIR")
    if O.RALLIER in verbs:
        rebels = st.__dict__["_pmb_bot_lists"]["rebels"]
        if (t := pick(rebels)) is not None:
            lines.append(f"RALLIER {t}")
    squad = False
    if O.ESCOUADE in verbs and rng.random() < 0.85:
        target: str | None
        if p.rank == R.FIDELE and st.fidele_target and st.players[st.fidele_target].alive and rng.random() < 0.8:
            target = st.fidele_target
        elif rng.random() < 0.75:
            target = _focus(st, p.team, "squad")
        else:
            target = pick(free)
        if target is not None and target != player:
            lines.append(f"ESCOUADE {target}")
            squad = True
    if O.ENQUETE in verbs and (t := pick(free)):
        lines.append(f"ENQUETE {t}")
    if O.TEMOINS in verbs and (t := pick(city)):
        lines.append(f"TEMOINS {t}")
    if O.POTION in verbs:
        patients = [n for n in st.infirmary if st.players[n].alive and st.players[n].potion is None]
        left = [k for k in R.POTIONS if k not in st.potions_used]
        if patients and left and rng.random() < 0.7:
            kind, patient = rng.choice(left), rng.choice(patients)
            line = f"POTION {kind} {patient}"
            if kind == R.CONFUSION and (t := pick([n for n in city if n != patient])):
                line += f" ESCOUADE {t}"
            lines.append(line)
    if O.PROTECTION in verbs:
        if p.rank == R.LORD_COMMANDANT:
            conseil = [n for n in free if st.players[n].rank in R.CONSEIL and st.players[n].location == R.DONJON
                       and not st.players[n].protected_once]
            if (t := pick(conseil)) is not None:
                lines.append(f"PROTECTION {t}")
            suspects = [n for n in city if not st.players[n].hidden]
            if (t := pick(suspects)) is not None:
                lines.append(f"ARRESTATION {t}")
            if (t := pick([n for n in city if st.players[n].team != R.LANNISTER] or city)) is not None:
                lines.append(f"CIBLE {t}")
        lines.append("ARRESTATION" if rng.random() < 0.6 else "PROTECTION")
    if O.VERDICT in verbs:
        for pr in st.prisoners:
            if pr.awaiting_verdict:
                lines.append(f"VERDICT {pr.name} {'MORT' if rng.random() < 0.6 else 'LIBERE'}")
    if O.PROMOUVOIR in verbs:
        recruits = [n for n in living if st.players[n].recruit]
        if (t := pick(recruits)) is not None and rng.random() < 0.5:
            lines.append(f"PROMOUVOIR {t}")
    if O.DECOUVRIR in verbs and (t := pick(free)):
        lines.append(f"DECOUVRIR {t}")
    if O.GARDE in verbs and not squad and rng.random() < 0.5:
        hm = R.role_code(p.team, R.HM)
        mine = [n for n in living if f"{n}|role|{hm}" in p.knowledge and st.players[n].rank == R.HM]
        if (t := pick(mine)) is not None:
            lines.append(f"GARDE {t}")
    if O.NOMMER in verbs:
        for v in st.vacancies:
            if v.team == p.team and v.candidates and (t := pick([c for c in v.candidates if st.players[c].alive])):
                lines.append(f"NOMMER {t} SERGENT")
    if O.AFFECTER in verbs:
        sgts = [n for n in living if st.players[n].team == p.team and st.players[n].rank == R.SERGENT]
        for n in living:
            q = st.players[n]
            if q.team == p.team and q.rank == R.HM and q.sergent is None and sgts:
                lines.append(f"AFFECTER {n} {rng.choice(sgts)}")
    if O.TRAHIR in verbs and rng.random() < 0.3:
        lines.append("TRAHIR")
    # keep only what the parser accepts, like a player reading his ack
    accepted: list[Order] = []
    out: list[str] = []
    for line in lines:
        try:
            accepted.append(O.parse(st, player, line, accepted))
            out.append(line)
        except OrderError:
            continue
    return out
