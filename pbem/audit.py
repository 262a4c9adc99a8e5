"""Re-checking a game's dice from an export and the revealed seed (`pbem verify`): what any player can run."""

from __future__ import annotations

from typing import Any

from pbem.dice import Roll, commitment, verify


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
        return problems, False
    if lang != "en":
        return [f"OK : la graine correspond à son empreinte ; {count} jets recalculés, tous identiques"], True
    return [f"OK: seed matches the commitment, {count} rolls re-derived identically"], True
