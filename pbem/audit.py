"""Re-checking a game's dice from an export and the revealed seed (`pbem verify`): what any player can run."""

from __future__ import annotations

import re
from typing import Any

from pbem.dice import Mismatch, Roll, commitment, mismatches
from pbem.msg import Msg
from pbem.render import dice_label
from pbem.wording import plural

_NB = "\u00a0"
_NO_SEED = Msg("pas de graine\u00a0: la partie n'est pas finie (le MJ la révèle à la fin)\u00a0; donnez --seed",
               "no seed: the game is not over yet (the MJ reveals it at the end); give --seed")


def _bad_commitment(commitment_: str) -> Msg:
    return Msg(f"la graine ne correspond pas à l'empreinte publiée {commitment_}",
               f"the seed does not match the published commitment {commitment_}")


def context_words(context: str, lang: str) -> str:
    """A roll's context in words (« étape 3 », « action 12 », « mise en place »); an unknown one as it is."""
    en = lang == "en"
    if context == "setup":
        return "setup" if en else "mise en place"
    m = re.fullmatch(r"(step|action)-(\d+)((?:\.\d+)?)", context)
    if m is None:
        return context
    noun = m.group(1) if en else {"step": "étape", "action": "action"}[m.group(1)]
    return f"{noun} {m.group(2)}{m.group(3)}"


def mismatch_text(m: Mismatch, game: str, lang: str) -> str:
    """A roll the seed does not give, in ``lang``: its context and its purpose in words (`pbem.dicetext`)."""
    where, purpose = context_words(m.context, lang), dice_label(m.roll.purpose, game, lang)
    if lang == "en":
        return (f"{where}, roll {m.index} ({purpose}): " + ("forced, not drawn from the seed" if m.expected is None
                else f"recorded {m.roll.result}, the seed gives {m.expected}"))
    return (f"{where}, jet {m.index} ({purpose}){_NB}: " + ("forcé, pas tiré de la graine" if m.expected is None
            else f"{m.roll.result} enregistré, la graine donne {m.expected}"))


def _problems(export: dict[str, Any], seed: str | None) -> tuple[list[Msg | Mismatch], int]:
    seed = seed or export.get("seed")
    if not seed:
        return [_NO_SEED], 0
    problems: list[Msg | Mismatch] = []
    if commitment(seed) != export["commitment"]:
        problems.append(_bad_commitment(export["commitment"]))
    count = 0
    for rec in export["records"]:
        rolls = [Roll(r[0], r[1], r[2], r[3]) for r in rec["rolls"]]  # (and, since kinds, what each drew)
        count += len(rolls)
        problems.extend(mismatches(seed, rec["dice_context"], rolls))
    return problems, count


def verify_export(export: dict[str, Any], seed: str | None) -> tuple[list[str], int]:
    """Problems found (empty: all good), in English with the purposes as keys, and the number of rolls checked."""
    problems, count = _problems(export, seed)
    return [p.en if isinstance(p, Msg) else p.line for p in problems], count


def verification_report(export: dict[str, Any], seed: str | None, lang: str = "en") -> tuple[list[str], bool]:
    """What `pbem verify` prints for an export, and whether all is good (the archive shows the same lines)."""
    problems, count = _problems(export, seed)
    if problems:
        game = str(export.get("ruleset") or "")
        return [p.get(lang) if isinstance(p, Msg) else mismatch_text(p, game, lang) for p in problems], False
    if lang == "en":
        rolls = "no roll to re-derive" if not count else f"{plural(count, 'roll', lang='en')} re-derived identically"
        return [f"OK: seed matches the commitment, {rolls}"], True
    rolls = ("aucun jet à recalculer" if not count else "1 jet recalculé, identique" if count == 1
             else f"{count} jets recalculés, tous identiques")
    return [f"OK{_NB}: la graine correspond à son empreinte{_NB}; {rolls}"], True
