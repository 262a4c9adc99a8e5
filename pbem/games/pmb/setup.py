"""Set-up: roles drawn at random (or fixed by the roster), places in Port-Réal, initial knowledge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import Audience, Event, Msg, Seat, SetupError
from pbem.dice import Dice
from pbem.games.pmb import roles as R
from pbem.games.pmb import roster as check
from pbem.games.pmb.options import DEFAULT_OPTIONS, check_options
from pbem.games.pmb.state import Player, State

__all__ = ["DEFAULT_OPTIONS", "auto_counts", "auto_places", "known_list", "setup"]

MIN_PLAYERS = 12


def auto_counts(n: int) -> dict[str, int]:
    """Role counts for ``n`` players: exactly the rules' numbers at 40, scaled otherwise."""
    if n < MIN_PLAYERS:
        raise SetupError(Msg(f"il faut au moins {MIN_PLAYERS} joueurs (ou des rôles fixés)",
                             f"at least {MIN_PLAYERS} players are needed (or fixed roles)"))
    gardes = max(3, min(7, round(7 * n / 40)))  # the Donjon Rouge never grows beyond its 10 residents
    sergents = max(1, round(3 * n / 40))
    hm_min = max(sergents, round(8 * n / 40))
    hm_max = max(hm_min, round(11 * n / 40))
    room = n - gardes - 3 - 2
    while 2 * (sergents + hm_max) > room and hm_max > hm_min:
        hm_max -= 1
    while 2 * (sergents + hm_min) > room and hm_min > 1:
        hm_min -= 1
        hm_max = hm_min
    return {"gardes": gardes, "sergents": sergents, "hm_min": hm_min, "hm_max": hm_max}


def auto_places(n: int) -> dict[str, int]:
    return {R.VISENYA: max(1, round(5 * n / 40)), R.FOSSEDRAGON: max(1, round(10 * n / 40))}


def _counts(n: int, options: Mapping[str, Any]) -> dict[str, int]:
    opt = options.get("roles", "auto")
    if opt == "auto":
        return auto_counts(n)
    counts = auto_counts(max(n, MIN_PLAYERS)) if n >= MIN_PLAYERS else {"gardes": 3, "sergents": 1, "hm_min": 1, "hm_max": 1}
    for key in ("gardes", "sergents", "hm_min", "hm_max"):
        if key in opt:
            counts[key] = int(opt[key])
    if counts["hm_min"] > counts["hm_max"]:
        raise SetupError(Msg(f"option roles : hm_min ({counts['hm_min']}) dépasse hm_max ({counts['hm_max']}) ; "
                             "donnez aussi hm_max",
                             f"option roles: hm_min ({counts['hm_min']}) is above hm_max ({counts['hm_max']}); give hm_max too"))
    return counts


def _pool(n: int, options: Mapping[str, Any], dice: Dice) -> list[str]:
    c = _counts(n, options)
    pool = [R.LORD_COMMANDANT] + [R.GARDE] * (c["gardes"] - 1) + list(R.CONSEIL)
    for team in R.REBEL_TEAMS:
        hms = dice.randint(c["hm_min"], c["hm_max"], f"{team} number of hommes de main")
        pool += [R.role_code(team, R.CHEF)] + [R.role_code(team, R.SERGENT)] * c["sergents"] + [R.role_code(team, R.HM)] * hms
    if len(pool) > n:
        raise SetupError(Msg(f"trop peu de joueurs ({n}) pour {len(pool)} rôles : réduisez l'option roles "
                             "(gardes, sergents, hm_min, hm_max) ou inscrivez plus de joueurs",
                             f"too few players ({n}) for {len(pool)} roles: lower the option roles "
                             "(gardes, sergents, hm_min, hm_max) or register more players"))
    return pool + [R.FIDELE] * (n - len(pool))


def setup(roster: Sequence[Seat], options: Mapping[str, Any], dice: Dice) -> tuple[State, list[Event]]:
    names = [s.name for s in roster]
    opts = check_options(options)
    check.check_seats(roster)
    fixed = [s for s in roster if s.role is not None]
    free = [s for s in roster if s.role is None]
    codes: dict[str, str] = {s.name: str(s.role) for s in fixed}
    if free:
        pool = _pool(len(roster), opts, dice)
        for s in fixed:
            code = str(s.role)
            if code in pool:
                pool.remove(code)
            elif code == R.GARDE and R.LORD_COMMANDANT in pool:
                pool.remove(R.LORD_COMMANDANT)
            elif R.FIDELE in pool:
                pool.remove(R.FIDELE)
            else:
                pool.pop()
        pool = pool[: len(free)] + [R.FIDELE] * (len(free) - len(pool))
        for s, code in zip(free, dice.shuffle(pool, "roles"), strict=True):
            codes[s.name] = code
    # exactly one Lord Commandant among the Gardes, drawn at random when none is fixed
    gardes = [n for n in names if codes[n] in R.GARDES]
    lcs = [n for n in gardes if codes[n] == R.LORD_COMMANDANT]
    if len(lcs) > 1:
        who_fr, who_en = " et ".join(lcs), " and ".join(lcs)
        raise SetupError(Msg(f"un seul Lord Commandant, pas {len(lcs)} ({who_fr}) : donnez aux autres le rôle garde",
                             f"one Lord Commandant, not {len(lcs)} ({who_en}): give the others the role garde"))
    if gardes and not lcs:
        codes[dice.choice(gardes, "lord commandant")] = R.LORD_COMMANDANT
    for unique in R.CONSEIL + tuple(R.role_code(t, R.CHEF) for t in R.REBEL_TEAMS):
        holders = [n for n in names if codes[n] == unique]
        if len(holders) > 1:
            who_fr, who_en = " et ".join(holders), " and ".join(holders)
            raise SetupError(Msg(f"le rôle {unique} est unique, il est fixé pour {who_fr} : gardez-le à un seul joueur",
                                 f"the role {unique} is unique and is fixed for {who_en}: keep it for one player only"))

    st = State(order=names, options=opts)
    for n in names:
        team, rank = R.split_code(codes[n])
        p = Player(name=n, team=team, rank=rank, original=(rank == R.SERGENT))
        p.location = R.DONJON if rank in R.DONJON_RANKS else R.CULPUCIER
        st.players[n] = p
    st.donjon = [n for n in names if st.players[n].location == R.DONJON]
    st.garde_places = len(gardes)
    # a team without its leaders is out from the start (small test rosters)
    if not any(st.players[n].rank in R.CONSEIL for n in names) or not gardes:
        st.defeated.append(R.LANNISTER)
    st.defeated += [t for t in R.REBEL_TEAMS if st.chef(t) is None]

    # places in Port-Réal
    places = opts.get("places", "auto")
    st.capacity = auto_places(len(names)) if places == "auto" else {R.VISENYA: int(places[R.VISENYA]), R.FOSSEDRAGON: int(places[R.FOSSEDRAGON])}
    seats = {s.name: s for s in roster}
    city = [n for n in names if st.players[n].location != R.DONJON]
    placed = [n for n in city if seats[n].data.get("location") in R.LEVELS]
    for n in placed:
        st.players[n].location = str(seats[n].data["location"])
    check.check_places({lv: sum(1 for n in placed if st.players[n].location == lv) for lv in R.LEVELS}, st.capacity)
    placed_set = set(placed)
    rest = dice.shuffle([n for n in city if n not in placed_set], "starting places")
    room = {lv: st.capacity[lv] - sum(1 for n in placed if st.players[n].location == lv) for lv in (R.VISENYA, R.FOSSEDRAGON)}
    for n in rest:
        for lv in (R.VISENYA, R.FOSSEDRAGON):
            if room[lv] > 0:
                room[lv] -= 1
                st.players[n].location = lv
                break
        else:
            st.players[n].location = R.CULPUCIER

    # hommes de main spread over the sergents (at most one of difference)
    for team in R.REBEL_TEAMS:
        sgts = [n for n in names if codes[n] == R.role_code(team, R.SERGENT)]
        hms = [n for n in names if codes[n] == R.role_code(team, R.HM)]
        check.check_team_sergents(team, sgts, hms, st.chef(team) is not None)
        for n in hms:
            wanted = seats[n].data.get("sergent")
            if wanted is not None:  # a fixed sergent of the team (`roster.check_seats`)
                st.players[n].sergent = str(wanted)
        loose = [n for n in hms if st.players[n].sergent is None]
        if sgts and loose:
            load = dict.fromkeys(sgts, 0)
            for h in hms:
                sg = st.players[h].sergent
                if sg is not None:
                    load[sg] += 1
            loose = dice.shuffle(loose, f"{team} hommes de main to sergents")
            if len(set(load.values())) == 1:
                # nobody fixed: deal the shuffled HMs round the shuffled sergents (at most one of difference)
                ring = dice.shuffle(sgts, f"{team} sergents order for the hommes de main")
                for i, n in enumerate(loose):
                    st.players[n].sergent = ring[i % len(ring)]
            else:
                for n in loose:
                    low = min(load.values())
                    choices = [g for g in sgts if load[g] == low]
                    sgt = choices[0] if len(choices) == 1 else dice.choice(choices, f"{team} sergent for an homme de main")
                    st.players[n].sergent = sgt
                    load[sgt] += 1
        loads = dict.fromkeys(sgts, 0)  # one pass over the HMs, not one per sergent
        for h in hms:
            sg = st.players[h].sergent
            if sg in loads:
                loads[sg] += 1
        check.check_hm_balance(team, loads)

    # initial knowledge
    hms_of: dict[str, list[str]] = {}
    team_of: dict[str, list[str]] = {}
    for n in names:
        q = st.players[n]
        team_of.setdefault(q.team, []).append(n)
        if q.rank == R.HM and q.sergent:
            hms_of.setdefault(q.sergent, []).append(n)
    chefs = {t: st.chef(t) for t in R.REBEL_TEAMS}
    for n in names:
        p = st.players[n]
        p.learn_role(n, p.code)
        if p.location == R.DONJON:
            for m in st.donjon:
                p.learn_role(m, st.players[m].code)
        elif p.team != R.LANNISTER:
            if p.rank == R.HM and p.sergent:
                p.learn_role(p.sergent, st.players[p.sergent].code)
            elif p.rank == R.SERGENT:
                chef = chefs[p.team]
                if chef:
                    p.learn_role(chef.name, chef.code)
                for m in hms_of.get(n, []):
                    p.learn_role(m, st.players[m].code)
            elif p.rank == R.CHEF:
                p.learn_roles([(m, st.players[m].code) for m in team_of[p.team]])  # one copy, not one per member

    events: list[Event] = [Event("game_started", Audience.public(), {"donjon": list(st.donjon), "count": len(names)})]
    for n in names:
        p = st.players[n]
        events.append(Event("your_role", Audience.to(n), {
            "player": n, "role": p.code, "location": p.location,
            "sergent": p.sergent if p.rank == R.HM else None,
            "known": known_list(p, exclude_self=True),
        }))
    events.append(Event("setup_roles", Audience.mj(), {"roles": {n: st.players[n].code for n in names},
                                                        "locations": {n: st.players[n].location for n in names}}))
    return st, events


def known_list(p: Player, *, exclude_self: bool = False) -> list[dict[str, str]]:
    """What a player believes of the others, as event data, sorted by name: the role told last
    ({"player", "role"}), or the affiliation ({"player", "team"}) when only that was told since."""
    out = []
    for name, value in sorted(p.latest.items()):  # (the names are distinct: sorted by name)
        if exclude_self and name == p.name:
            continue
        out.append({"player": name, "role": value} if value in R.ROLE_CODES else {"player": name, "team": value})
    return out
