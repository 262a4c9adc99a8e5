"""1626: what a character sheet must respect (I.1 the cap of 9, I.6 the gifts' constraints).

Each broken rule is a `Problem` naming the part of the sheet at fault, so the reader can point
at the line of the MJ's file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pbem.core import Msg
from pbem.games.g1626.character import Character, carac_value, has_gift, talent_score
from pbem.games.g1626.tables import (
    CARAC_MAX,
    CARACS,
    DOMAIN_GIFTS,
    FENCING,
    FENCING_STYLE,
    FENCING_STYLES,
    GIFT_MINIMA,
    MASTER,
    MASTER_MINIMUM,
    NATURAL,
    SPECIALIST,
    SPECIALIST_MINIMUM,
    STAR_GIFTS,
)
from pbem.names import fold

Where = tuple[str, str]
"""The part of a sheet at fault: ("carac", "AG"), ("talent", "Escrime"), ("gift", "Maître"), ("key", "prestige")."""


@dataclass(frozen=True)
class Problem:
    where: Where
    msg: Msg


def character_problems(char: Character, taken: Mapping[str, int]) -> list[Problem]:
    """Every rule of chapter I the sheet breaks.  ``taken``: how many times each gift is listed."""
    return [*_carac_problems(char), *_repeat_problems(char, taken), *_minimum_problems(char),
            *_specialist_problems(char), *_master_problems(char), *_style_problems(char)]


def _carac_problems(char: Character) -> list[Problem]:
    out = []
    natural = char.gifts.get(NATURAL, [])
    for abbr in CARACS:
        base = char.caracs.get(abbr, 0)
        if base > CARAC_MAX:
            out.append(Problem(("carac", abbr), Msg(
                f"{abbr} vaut {base} : une caractéristique de personnage ne dépasse pas {CARAC_MAX}",
                f"{abbr} is {base}: a character's characteristic is at most {CARAC_MAX}")))
        elif has_gift(char, NATURAL, abbr) and carac_value(char, abbr) > CARAC_MAX:
            out.append(Problem(("gift", NATURAL), Msg(
                f"« {NATURAL} » en {abbr} porterait {abbr} de {base} à {base + 1}, au-delà du maximum de {CARAC_MAX}",
                f"'{NATURAL}' in {abbr} would take {abbr} from {base} to {base + 1}, above the maximum of {CARAC_MAX}")))
        if natural.count(abbr) > 1:
            out.append(Problem(("gift", NATURAL), Msg(
                f"« {NATURAL} » en {abbr} est pris {natural.count(abbr)} fois : une fois au plus par caractéristique",
                f"'{NATURAL}' in {abbr} is taken {natural.count(abbr)} times: once at most per characteristic")))
    return out


def _repeat_problems(char: Character, taken: Mapping[str, int]) -> list[Problem]:
    out = []
    for gift, domains in char.gifts.items():
        if gift not in STAR_GIFTS and (taken.get(gift, 1) > 1 or len(domains) > 1):
            out.append(Problem(("gift", gift), Msg(
                f"« {gift} » ne se prend qu'une fois (seuls les dons à étoile se prennent plusieurs fois)",
                f"'{gift}' is taken once only (only the gifts with a star may be taken several times)")))
        if gift in DOMAIN_GIFTS and not domains:
            out.append(Problem(("gift", gift), Msg(
                f"« {gift} » : précisez le domaine choisi, par exemple \"{gift}\" = [\"{_example(gift)}\"]",
                f"'{gift}': name the chosen domain, for instance \"{gift}\" = [\"{_example(gift)}\"]")))
        folded = [fold(d) for d in domains]
        repeated = [d for i, d in enumerate(domains) if folded.count(folded[i]) > 1 and folded.index(folded[i]) == i]
        if gift in DOMAIN_GIFTS and gift != NATURAL and repeated:
            out.append(Problem(("gift", gift), Msg(
                f"« {gift} » en {', '.join(repeated)} est pris deux fois : une fois au plus par domaine",
                f"'{gift}' in {', '.join(repeated)} is taken twice: once at most per domain")))
    return out


def _example(gift: str) -> str:
    return {NATURAL: "AG", "Relation": "la Cour", FENCING_STYLE: "français"}.get(gift, FENCING)


def _minimum_problems(char: Character) -> list[Problem]:
    out = []
    for gift, minima in GIFT_MINIMA.items():
        if not has_gift(char, gift):
            continue
        short = [(kind, name, low) for kind, name, low in minima if _score(char, kind, name) < low]
        if short:
            wanted = " et ".join(f"{name} > {low - 1}" for _, name, low in minima)
            wanted_en = " and ".join(f"{name} > {low - 1}" for _, name, low in minima)
            given = ", ".join(f"{name} {_score(char, kind, name)}" for kind, name, _ in short)
            out.append(Problem(("gift", gift), Msg(f"« {gift} » demande {wanted} (la fiche donne {given})",
                                                   f"'{gift}' requires {wanted_en} (the sheet gives {given})")))
    return out


def _score(char: Character, kind: str, name: str) -> int:
    """Constraints read the values the character plays with: « Naturellement doué » counts (ruling)."""
    return carac_value(char, name) if kind == "carac" else talent_score(char, name)


def _specialist_problems(char: Character) -> list[Problem]:
    out = []
    for talent in char.gifts.get(SPECIALIST, []):
        score = talent_score(char, talent)
        if score < SPECIALIST_MINIMUM:
            out.append(Problem(("gift", SPECIALIST), Msg(
                f"« {SPECIALIST} » en {talent} demande {talent} > {SPECIALIST_MINIMUM - 1} (la fiche donne {score})",
                f"'{SPECIALIST}' in {talent} requires {talent} > {SPECIALIST_MINIMUM - 1} (the sheet gives {score})")))
    return out


def _master_problems(char: Character) -> list[Problem]:
    out = []
    for talent in char.gifts.get(MASTER, []):
        score = talent_score(char, talent)
        if score < MASTER_MINIMUM:
            out.append(Problem(("gift", MASTER), Msg(
                f"« {MASTER} » en {talent} demande {talent} > {MASTER_MINIMUM - 1} (la fiche donne {score})",
                f"'{MASTER}' in {talent} requires {talent} > {MASTER_MINIMUM - 1} (the sheet gives {score})")))
        if not has_gift(char, SPECIALIST, talent):
            out.append(Problem(("gift", MASTER), Msg(
                f"« {MASTER} » en {talent} demande aussi « {SPECIALIST} » en {talent}",
                f"'{MASTER}' in {talent} also requires '{SPECIALIST}' in {talent}")))
        if fold(talent) == fold(FENCING) and not char.gifts.get(FENCING_STYLE):
            out.append(Problem(("gift", MASTER), Msg(
                f"« {MASTER} » en {FENCING} demande au moins un « {FENCING_STYLE} »",
                f"'{MASTER}' in {FENCING} requires at least one '{FENCING_STYLE}'")))
    return out


def _style_problems(char: Character) -> list[Problem]:
    styles = char.gifts.get(FENCING_STYLE)
    if styles is None:
        return []
    out = []
    known = {fold(s): s for s in FENCING_STYLES}
    for style in styles:
        if fold(style) not in known:
            out.append(Problem(("gift", FENCING_STYLE), Msg(
                f"« {FENCING_STYLE} » : style inconnu « {style} » (cavalerie, français, italien ou espagnol)",
                f"'{FENCING_STYLE}': unknown style '{style}' (cavalerie, français, italien or espagnol)")))
    if talent_score(char, FENCING) < 1:
        out.append(Problem(("gift", FENCING_STYLE), Msg(
            f"« {FENCING_STYLE} » (escrime uniquement) demande le talent {FENCING} sur la fiche",
            f"'{FENCING_STYLE}' (fencing only) requires the talent {FENCING} on the sheet")))
    return out
