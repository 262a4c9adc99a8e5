"""The checks of a roster the MJ fixed (roles, places, sergents): each impossible line is refused,
saying what to change in the roster file (``[[joueur]]`` entries with ``role``, ``location``,
``sergent``) or in the options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import Seat
from pbem.games.pmb import roles as R
from pbem.grammar import setup_refused

SEAT_KEYS: tuple[str, ...] = ("location", "sergent")
PLACE_NAMES: dict[str, tuple[str, str]] = {
    R.VISENYA: ("la Colline de Visenya", "the Colline de Visenya"),
    R.FOSSEDRAGON: ("FosseDragon", "FosseDragon"),
    R.CULPUCIER: ("Culpucier", "Culpucier"),
}
MAX_GARDES = 7


def _players(n: int) -> tuple[str, str]:
    return (f"{n} joueur" if n == 1 else f"{n} joueurs"), (f"{n} player" if n == 1 else f"{n} players")


def _hommes(n: int) -> tuple[str, str]:
    if n == 0:
        return "aucun Homme de Main", "no Homme de Main"
    return (f"{n} Homme de Main" if n == 1 else f"{n} Hommes de Main"), (f"{n} Homme de Main" if n == 1 else f"{n} Hommes de Main")


def check_seats(roster: Sequence[Seat]) -> None:
    """What can be checked before any draw: names, role codes, the keys of each line, places and
    sergents that fit the fixed roles, the size of the Garde."""
    names = [s.name for s in roster]
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise setup_refused(f"deux joueurs s'appellent {n} : renommez l'un d'eux", f"two players are called {n}: rename one")
        seen.add(n)
    fixed = {s.name: s.role for s in roster if s.role is not None}
    for s in roster:
        if s.role is not None and s.role not in R.ROLE_CODES:
            codes = ", ".join(R.ROLE_CODES)
            raise setup_refused(f"{s.name} : rôle inconnu « {s.role} » (rôles possibles : {codes})",
                          f"{s.name}: unknown role '{s.role}' (allowed roles: {codes})")
        for key in s.data:
            if key not in SEAT_KEYS:
                raise setup_refused(f"{s.name} : clé inconnue « {key} » dans la liste des joueurs (clés possibles : role, location et sergent)",
                              f"{s.name}: unknown key '{key}' in the roster (allowed keys: role, location and sergent)")
        _check_location(s)
        _check_sergent(s, fixed)
    gardes = [n for n, code in fixed.items() if code in R.GARDES]
    if len(gardes) > MAX_GARDES:
        raise setup_refused(f"{len(gardes)} Gardes Royaux fixés dans la liste des joueurs, la Garde en compte {MAX_GARDES} au plus : "
                      f"donnez un autre rôle à {len(gardes) - MAX_GARDES} d'entre eux",
                      f"{len(gardes)} Gardes Royaux fixed in the roster, the Garde has at most {MAX_GARDES}: "
                      f"give {len(gardes) - MAX_GARDES} of them another role")


def _check_location(s: Seat) -> None:
    if "location" not in s.data:
        return
    where = s.data["location"]
    if where not in R.LEVELS:
        raise setup_refused(f"{s.name} : emplacement « {where} » inconnu (visenya, fossedragon ou culpucier)",
                      f"{s.name}: unknown location '{where}' (visenya, fossedragon or culpucier)")
    if s.role is None:
        raise setup_refused(f"{s.name} : un emplacement est fixé mais pas le rôle ; fixez aussi son rôle (role = …), "
                      "car un rôle du Donjon Rouge tiré au sort ne peut pas habiter Port-Réal",
                      f"{s.name}: a location is fixed but not the role; fix the role too (role = …), "
                      "as a Donjon Rouge role drawn at random cannot live in Port-Réal")
    if R.split_code(s.role)[1] in R.DONJON_RANKS:
        raise setup_refused(f"{s.name} ({s.role}) habite le Donjon Rouge : retirez location = \"{where}\"",
                      f"{s.name} ({s.role}) lives in the Donjon Rouge: remove location = \"{where}\"")


def _check_sergent(s: Seat, fixed: Mapping[str, str | None]) -> None:
    if "sergent" not in s.data:
        return
    wanted = s.data["sergent"]
    if s.role is None or R.split_code(s.role)[1] != R.HM:
        raise setup_refused(f"{s.name} : un sergent n'est donné qu'à un Homme de Main au rôle fixé (role = \"stark_hm\" ou \"tyrell_hm\") ; "
                      "retirez sergent ou fixez son rôle",
                      f"{s.name}: a sergent is given only to an Homme de Main whose role is fixed (role = \"stark_hm\" or "
                      "\"tyrell_hm\"); remove sergent or fix the role")
    team = R.split_code(s.role)[0]
    expected = R.role_code(team, R.SERGENT)
    if fixed.get(str(wanted)) != expected:
        raise setup_refused(f"{s.name} : son sergent « {wanted} » doit être un joueur de la liste au rôle fixé {expected}",
                      f"{s.name}: his sergent '{wanted}' must be a player of the roster with the fixed role {expected}")


def check_places(placed: Mapping[str, int], capacity: Mapping[str, int]) -> None:
    """Players placed by the roster at a level must fit its places (Culpucier has no limit)."""
    for level in (R.VISENYA, R.FOSSEDRAGON):
        n, cap = placed.get(level, 0), capacity[level]
        if n > cap:
            fr, en = PLACE_NAMES[level]
            pfr, pen = _players(n)
            extra = n - cap
            some_fr = "à l'un" if extra == 1 else f"à {extra}"
            some_en = "one" if extra == 1 else str(extra)
            places_fr = "aucune place" if cap == 0 else ("qu'une place" if cap == 1 else f"que {cap} places")
            places_en = "no place" if cap == 0 else ("only one place" if cap == 1 else f"only {cap} places")
            placed_fr = "placé" if n == 1 else "placés"
            raise setup_refused(f"{pfr} {placed_fr} à {fr}, qui n'a {places_fr} : retirez location = \"{level}\" "
                          f"{some_fr} d'entre eux dans la liste des joueurs, ou portez l'option places.{level} à {n}",
                          f"{pen} placed at {en}, which has {places_en}: remove location = \"{level}\" "
                          f"from {some_en} of them in the roster, or raise the option places.{level} to {n}")


def check_hm_balance(team: str, loads: Mapping[str, int]) -> None:
    """« Un sergent ne peut avoir au plus qu'un seul Homme de Main de plus que les autres sergents. »"""
    if not loads:
        return
    most = max(loads, key=lambda s: loads[s])
    least = min(loads, key=lambda s: loads[s])
    if loads[most] - loads[least] <= 1:
        return
    total = sum(loads.values())
    fair = -(-total // len(loads))  # the most a sergent may have once they are spread
    hi_fr, hi_en = _hommes(loads[most])
    lo_fr = "n'en a aucun" if loads[least] == 0 else f"en a {loads[least]}"
    lo_en = "has none" if loads[least] == 0 else f"has {loads[least]}"
    moved = loads[most] - fair
    some_fr = "à l'un" if moved == 1 else f"à {moved}"
    some_en = "one" if moved == 1 else str(moved)
    clan = team.capitalize()
    raise setup_refused(f"{clan} : {most} a {hi_fr} et {least} {lo_fr} ; un sergent a au plus un Homme de Main de plus "
                  f"que les autres : donnez un autre sergent (sergent = …) {some_fr} des Hommes de Main de {most}, "
                  "ou retirez leur sergent pour qu'il soit tiré au sort",
                  f"{clan}: {most} has {hi_en} and {least} {lo_en}; a sergent has at most one Homme de Main more "
                  f"than the others: give another sergent (sergent = …) to {some_en} of {most}'s Hommes de Main, "
                  "or remove their sergent so that it is drawn")


def check_team_sergents(team: str, sergents: Sequence[str], hommes: Sequence[str], has_chef: bool) -> None:
    """A standing clan with Hommes de Main needs a sergent to lead them."""
    if has_chef and hommes and not sergents:
        hfr, hen = _hommes(len(hommes))
        clan = team.capitalize()
        raise setup_refused(f"{clan} : {hfr} mais aucun sergent ; fixez le rôle {team}_sergent d'au moins un joueur",
                      f"{clan}: {hen} but no sergent; give at least one player the role {team}_sergent")
