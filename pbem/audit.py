"""Re-checking a game's dice from an export and the revealed seed (`pbem verify`): what any player can run."""

from __future__ import annotations

import re
from typing import Any

from pbem.dice import Roll, commitment, verify

# the shapes of the problems `verify_export` and `pbem.dice.verify` find, in French (anchored, linear)
_PROBLEMS_FR: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), r) for p, r in (
    (r"^no seed: the game is not over yet \(the MJ reveals it at the end\); give --seed$",
     "pas de graine\u00a0: la partie n'est pas finie (le MJ la révèle à la fin)\u00a0; donnez --seed"),
    (r"^the seed does not match the published commitment (?P<c>\S+)$",
     "la graine ne correspond pas à l'empreinte publiée {c}"),
    (r"^(?P<ctx>.*) roll (?P<i>\d+) \((?P<p>[^()]*)\): recorded (?P<r>-?\d+), seed gives (?P<e>-?\d+)$",
     "{ctx}, jet {i} ({p})\u00a0: {r} enregistré, la graine donne {e}"),
    (r"^(?P<ctx>.*) roll (?P<i>\d+) \((?P<p>[^()]*)\): forced, not drawn from the seed$",
     "{ctx}, jet {i} ({p})\u00a0: forcé, pas tiré de la graine"),
))


def problem_text(line: str, lang: str) -> str:
    """A problem line in ``lang`` (a shape not known here is shown as it is)."""
    if lang == "en":
        return line
    for pattern, french in _PROBLEMS_FR:
        m = pattern.match(line)
        if m:
            return french.format(**m.groupdict())
    return line


def verify_export(export: dict[str, Any], seed: str | None) -> tuple[list[str], int]:
    """Problems found (empty: all good) and the number of rolls checked."""
    seed = seed or export.get("seed")
    if not seed:
        return ["no seed: the game is not over yet (the MJ reveals it at the end); give --seed"], 0
    problems = []
    if commitment(seed) != export["commitment"]:
        problems.append(f"the seed does not match the published commitment {export['commitment']}")
    count = 0
    for rec in export["records"]:
        rolls = [Roll(r[0], r[1], r[2], r[3]) for r in rec["rolls"]]  # (and, since kinds, what each drew)
        count += len(rolls)
        problems.extend(verify(seed, rec["dice_context"], rolls))
    return problems, count


def verification_report(export: dict[str, Any], seed: str | None, lang: str = "en") -> tuple[list[str], bool]:
    """What `pbem verify` prints for an export, and whether all is good (the archive shows the same lines)."""
    problems, count = verify_export(export, seed)
    if problems:
        return [problem_text(p, lang) for p in problems], False
    if lang != "en":
        return [f"OK : la graine correspond à son empreinte ; {count} jets recalculés, tous identiques"], True
    return [f"OK: seed matches the commitment, {count} rolls re-derived identically"], True
