"""Matching what a player typed against known names and keywords.

Case- and accent-insensitive, multi-word names, and a "did you mean" for near misses.
Rulesets use these helpers inside `parse_order`; they raise the core order errors.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache

from pbem.core import Msg, OrderAmbiguousError, OrderSyntaxError, UnknownKeywordError

PLAYER = Msg("joueur", "player")
KEYWORD = Msg("mot-clé", "keyword")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Lower-case, strip accents, squeeze spaces and apostrophe variants: the key names are compared by."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.casefold().split())


def words(line: str) -> list[str]:
    """Split an order line into words (spaces, tabs, and a trailing ':' or ',' removed)."""
    return [w.strip(",;:") for w in line.split() if w.strip(",;:")]


def match_name(typed: str, names: Iterable[str], *, what: Msg = PLAYER) -> str:
    """The one name among ``names`` that ``typed`` designates.

    Exact fold match wins; otherwise a unique name starting with what was typed;
    otherwise an ambiguity or a "did you mean" error.
    """
    candidates = list(dict.fromkeys(names))
    key = fold(typed)
    if not key:
        raise OrderSyntaxError(Msg(f"{what.fr} manquant", f"missing {what.en}"))
    by_key = {fold(n): n for n in candidates}
    if key in by_key:
        return by_key[key]
    prefixed = [n for k, n in by_key.items() if k.startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        listed = sorted(prefixed)
        raise OrderAmbiguousError(
            Msg(f"«\u00a0{typed}\u00a0» peut désigner {_either(listed, 'ou')}", f"'{typed}' may mean {_either(listed, 'or')}")
        )
    close = difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)
    if close:
        guess = _either([by_key[c] for c in close], "ou")
        guess_en = _either([by_key[c] for c in close], "or")
        raise OrderAmbiguousError(
            Msg(
                f"{what.fr} inconnu «\u00a0{typed}\u00a0»\u00a0: vouliez-vous dire {guess}\u00a0?",
                f"unknown {what.en} '{typed}': did you mean {guess_en}?",
            )
        )
    raise OrderSyntaxError(Msg(f"{what.fr} inconnu «\u00a0{typed}\u00a0»", f"unknown {what.en} '{typed}'"))


def _either(names: Sequence[str], word: str) -> str:
    """« A, B ou C »: alternatives."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


def take_name(tokens: Sequence[str], names: Iterable[str], *, what: Msg = PLAYER) -> tuple[str, list[str]]:
    """Match the longest run of leading ``tokens`` that is a name; return it and the remaining tokens.

    This is how multi-word names work without quotes: ``ESCOUADE ser Schlingue``
    or ``AFFECTER ser Schlingue Arya``.  If no prefix matches exactly, the whole
    token run is matched with `match_name` (to produce the right error).
    """
    candidates = list(dict.fromkeys(names))
    keys = {fold(n): n for n in candidates}
    for end in range(len(tokens), 0, -1):
        key = fold(" ".join(tokens[:end]))
        if key in keys:
            return keys[key], list(tokens[end:])
    # No exact prefix: allow a unique-prefix or near-miss match on the first word(s).
    first_doubt: OrderAmbiguousError | None = None
    for end in range(len(tokens), 0, -1):
        try:
            return match_name(" ".join(tokens[:end]), candidates, what=what), list(tokens[end:])
        except OrderSyntaxError:
            continue
        except OrderAmbiguousError as e:
            # the longest run that is *almost* a name gives the best "did you mean" ("Jouer 05" -> "Joueur 05")
            first_doubt = first_doubt or e
    if first_doubt is not None:
        raise first_doubt
    return match_name(" ".join(tokens), candidates, what=what), []


@lru_cache(maxsize=4096)
def _close_keywords(key: str, keywords: tuple[str, ...]) -> list[str]:
    """The nearest keyword, if close enough (cached: mails repeat the same greetings and typos)."""
    return difflib.get_close_matches(key, keywords, n=1, cutoff=0.75)


def match_keyword(typed: str, keywords: dict[str, str], *, what: Msg = KEYWORD) -> str:
    """Map a typed keyword (any alias, any case or accent) to its canonical form.

    ``keywords`` maps folded aliases to the canonical value, e.g.
    ``{"escouade": "ESCOUADE", "squad": "ESCOUADE"}``.  A word near none of them raises
    `UnknownKeywordError`: read the verb of a line with this, so that prose is told from orders.
    """
    key = fold(typed)
    if key in keywords:
        return keywords[key]
    close = _close_keywords(key, tuple(keywords))
    if close:
        raise OrderAmbiguousError(
            Msg(
                f"{what.fr} inconnu «\u00a0{typed}\u00a0»\u00a0: vouliez-vous dire {close[0].upper()}\u00a0?",
                f"unknown {what.en} '{typed}': did you mean {close[0].upper()}?",
            )
        )
    raise UnknownKeywordError(Msg(f"{what.fr} inconnu «\u00a0{typed}\u00a0»", f"unknown {what.en} '{typed}'"), typed)
