"""The words of Intrigue orders: reading verbs, motifs and amounts, and spelling them in messages.

No game rules here (see `parsing` for what an order may do now).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbem.core import Msg
from pbem.games.intrigue.state import MOTIF_NAMES
from pbem.grammar import empty_line, syntax
from pbem.names import fold, match_keyword

BRIBE = "POT-DE-VIN"
KEEP = "GARDER"
POST = "POSTE"
PLACE = "PLACER"
CONFLICT = "CONFLIT"

VERBS: dict[str, str] = {
    "pot-de-vin": BRIBE,
    "pots-de-vin": BRIBE,
    "potdevin": BRIBE,
    "pdv": BRIBE,
    "bribe": BRIBE,
    "garder": KEEP,
    "garde": KEEP,
    "keep": KEEP,
    "poste": POST,
    "post": POST,
    "placer": PLACE,
    "place": PLACE,
    "conflit": CONFLICT,
    "conflict": CONFLICT,
}

ENGLISH: dict[str, tuple[str, ...]] = {BRIBE: ("BRIBE",), KEEP: ("KEEP",), POST: ("POST",), PLACE: ("PLACE",),
                                     CONFLICT: ("CONFLICT",)}
"""The English word of each order, listed in AIDE/HELP (`VERBS` understands them)."""

MOTIF_ALIASES: dict[str, str] = {
    "balance": "balance",
    "balances": "balance",
    "scales": "balance",
    "scale": "balance",
    "bourse": "bourse",
    "bourse d'argent": "bourse",
    "purse": "bourse",
    "livre": "livre",
    "book": "livre",
    "epee": "epee",
    "ecu": "epee",
    "ecu et epee": "epee",
    "ecu-et-epee": "epee",
    "ecu-epee": "epee",
    "ecu epee": "epee",
    "ecu/epee": "epee",
    "sword": "epee",
    "shield": "epee",
    "shield and sword": "epee",
    "sword and shield": "epee",
    "eveque": "eveque",
    "bishop": "eveque",
}

PLACE_LINKS: frozenset[str] = frozenset({"chez", "at", "in", "a", "dans", "to", "au"})
"""Words allowed between the motif and the palace owner in ``PLACER livre CHEZ Bob``."""


def split_verb(line: str) -> tuple[str, list[str]]:
    """The canonical verb of a line and the remaining words."""
    tokens = [t for t in re.split(r"\s+", line.strip()) if t]
    tokens = [t.strip(",;:") for t in tokens if t.strip(",;:")]
    if not tokens:
        raise empty_line()
    # "POT DE VIN 20000" written in three words
    if len(tokens) >= 3 and fold(" ".join(tokens[:3])) == "pot de vin":
        return BRIBE, tokens[3:]
    verb = match_keyword(tokens[0], VERBS, what=Msg("ordre", "order"))
    return verb, tokens[1:]


def starts_with_motif(tokens: Sequence[str]) -> bool:
    """Do the words begin with a motif name (exactly, any alias)?"""
    return _motif_prefix(tokens) is not None


def _motif_prefix(tokens: Sequence[str]) -> tuple[str, int] | None:
    for end in range(min(len(tokens), 4), 0, -1):
        key = fold(" ".join(tokens[:end]))
        if key in MOTIF_ALIASES:
            return MOTIF_ALIASES[key], end
    return None


def take_motif(tokens: Sequence[str]) -> tuple[str, list[str]]:
    """A motif at the head of ``tokens`` (multi-word aliases allowed) and the remaining words."""
    if not tokens:
        raise syntax("motif manquant", "missing motif")
    found = _motif_prefix(tokens)
    if found is not None:
        return found[0], list(tokens[found[1]:])
    return match_keyword(tokens[0], MOTIF_ALIASES, what=Msg("motif", "motif")), list(tokens[1:])


def parse_amount(tokens: Sequence[str]) -> int:
    """An amount written ``50000``, ``50 000``, ``50.000``, ``50,000``, ``50k`` (a trailing ``€`` is ignored)."""
    text = "".join(tokens).strip().lower().replace("\u20ac", "")
    if not text:
        raise syntax("montant manquant", "missing amount")
    bad = syntax(f"montant illisible « {' '.join(tokens)} »", f"unreadable amount '{' '.join(tokens)}'")
    if text.endswith("k"):
        number = text[:-1].replace(",", ".")
        if not re.fullmatch(r"\d+(\.\d+)?", number):
            raise bad
        whole, _, frac = number.partition(".")
        frac = (frac + "000")[:3] if frac else "000"
        if number.partition(".")[2][3:].strip("0"):
            raise bad
        return int(whole) * 1000 + int(frac)
    digits = re.sub(r"[ .,'_\u00a0\u202f]", "", text)
    if not digits.isdecimal():  # (not isdigit: « ² » is a digit that `int` does not read)
        raise bad
    return int(digits)


def fmt(amount: int) -> str:
    """An amount with French thousands spacing, a narrow no-break space: ``50\u202f000``."""
    return f"{amount:,}".replace(",", "\u202f")


def motif_label(m: str) -> str:
    """A motif's French name."""
    return MOTIF_NAMES[m].fr


def de_name(name: str) -> str:
    """French "de Bob" / "d'Alice"."""
    return ("d'" if fold(name)[:1] in "aeiouyh" else "de ") + name
