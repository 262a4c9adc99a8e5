"""Matching what a player typed against known names, keywords and numbers.

Case-, accent- and hyphen-insensitive, multi-word names, and a "did you mean" for near misses; whole
numbers read within their range.  Rulesets use these helpers inside `parse_order`; they raise
the core order errors.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence

from pbem.core import Msg, OrderAmbiguousError, OrderSyntaxError, UnknownKeywordError
from pbem.limits import MAX_DIGITS, MAX_LINE_CHARS, MAX_WORD_CHARS
from pbem.memo import memo

PLAYER = Msg("joueur", "player")
KEYWORD = Msg("mot-clé", "keyword")
NUMBER = Msg("nombre", "number")


@memo(maxsize=65536, max_key=200)
def fold(text: str) -> str:
    """Lower-case, strip accents, squeeze spaces and apostrophe variants: the key names are compared by."""
    if text.isascii():  # no accent, no curly apostrophe: the same result, without a loop over every character
        return " ".join(text.replace("`", "'").lower().split())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return " ".join(text.casefold().split())


NAME_FILLER = frozenset({"de", "du", "des", "la", "le", "d", "l", "von", "van", "of", "the"})
"""The little words of a name (« Élise de Mallery »): a name is never found by one of them alone."""


def name_words(text: str) -> frozenset[str]:
    """The keys a name or a nickname is found by in the MJ's mail: its letters run together (« littlefinger »
    for « Little-finger ») and each of its words of three letters or more but the little ones."""
    words = [w for w in fold(text).replace("-", " ").replace("'", " ").replace(".", " ").split() if w]
    return frozenset({"".join(words), *(w for w in words if len(w) >= 3 and w not in NAME_FILLER)}) - {""}


@memo(maxsize=65536, max_key=200)
def name_key(text: str) -> str:
    """The key names are compared by: `fold`, and a hyphen is a space (« petit doigt » is Petit-Doigt)."""
    key = fold(text)
    return " ".join(key.replace("-", " ").split()) if "-" in key else key


# Letters of other scripts (and digits) that look like a Latin letter, after `fold` (lower case, no accent):
# the common look-alikes of Unicode's confusables list (TR39), Cyrillic and Greek above all.
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "н": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "l",
    "м": "m", "п": "n", "о": "o", "р": "p", "ԛ": "q", "г": "r", "ѕ": "s", "с": "c", "т": "t", "у": "y", "ү": "y",
    "х": "x", "ԁ": "d", "ԝ": "w", "ѡ": "w", "з": "3", "ь": "b", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "ϳ": "j", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u", "ω": "w", "ς": "c",
    # Latin oddities and digits that pass for letters
    "ı": "i", "ȷ": "j", "ɑ": "a", "0": "o", "1": "l", "|": "l",
    # what separates words does not tell names apart to the eye
    " ": None, "-": None, "'": None, ".": None, "_": None,
})


def skeleton(name: str) -> str:
    """What a name looks like: two names with the same skeleton pass for each other on screen (« Arya » and
    « Аrya » with a Cyrillic А, « Jon » and « J0n », « Marn » and « Mam »).  TR39-style: `fold`, then the
    usual look-alikes folded to the Latin letter they imitate; a capital I reads as an l."""
    key = fold(name.replace("I", "l")).translate(_LOOKALIKES)
    return key.replace("rn", "m").replace("vv", "w")


def words(line: str) -> list[str]:
    """Split an order line into words (spaces, tabs, and a trailing ':' or ',' removed)."""
    return [w.strip(",;:") for w in line.split() if w.strip(",;:")]


def match_name(typed: str, names: Iterable[str], *, what: Msg = PLAYER) -> str:
    """The one name among ``names`` that ``typed`` designates.

    Exact fold match wins; otherwise a unique name starting with what was typed;
    otherwise an ambiguity or a "did you mean" error.
    """
    candidates = list(dict.fromkeys(names))
    if len(typed) > MAX_LINE_CHARS:  # no name is that long (and its « did you mean » would cost its square)
        raise OrderSyntaxError(Msg(f"{what.fr} inconnu\u00a0: «\u00a0{typed[:40]}…\u00a0» est trop long",
                                   f"unknown {what.en}: '{typed[:40]}…' is too long"))
    key = name_key(typed)
    if not key:
        raise OrderSyntaxError(Msg(f"{what.fr} manquant", f"missing {what.en}"))
    by_key = {name_key(n): n for n in candidates}
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
    close = _close_names(key, list(by_key))
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


def _close_names(key: str, keys: list[str]) -> list[str]:
    """The three nearest names, if close enough: none for a text longer than `MAX_WORD_CHARS` more than the
    longest name (it cannot be near one; and `difflib` costs the product of the two lengths)."""
    if not keys or len(key) > max(map(len, keys)) + MAX_WORD_CHARS:
        return []
    return difflib.get_close_matches(key, keys, n=3, cutoff=0.6)


def _either(names: Sequence[str], word: str) -> str:
    """« A, B ou C »: alternatives."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"


_EXTRA_WORDS = 3
"""Words beyond the longest name's that a run typed for a name may have and still be near it."""


def take_name(tokens: Sequence[str], names: Iterable[str], *, what: Msg = PLAYER) -> tuple[str, list[str]]:
    """Match the longest run of leading ``tokens`` that is a name; return it and the remaining tokens.

    This is how multi-word names work without quotes: ``ESCOUADE ser Schlingue``
    or ``AFFECTER ser Schlingue Arya``.  If no prefix matches exactly, the whole
    token run is matched with `match_name` (to produce the right error).
    """
    candidates = list(dict.fromkeys(names))
    keys = {name_key(n): n for n in candidates}
    # a run of more words than the longest name has, and a few more, is no name and near none: only the
    # runs that may be one are tried (else a line of many words cost the square of their number)
    longest = max((len(k.split()) for k in keys), default=0) + _EXTRA_WORDS
    for end in range(min(len(tokens), longest), 0, -1):
        key = name_key(" ".join(tokens[:end]))
        if key in keys:
            return keys[key], list(tokens[end:])
    # No exact prefix: allow a unique-prefix or near-miss match on the first word(s).
    first_doubt: OrderAmbiguousError | None = None
    if len(tokens) > longest:  # the whole run's error, as before, when no shorter run is near a name
        try:
            match_name(" ".join(tokens), candidates, what=what)
        except OrderAmbiguousError as e:
            first_doubt = e
        except OrderSyntaxError:
            pass
    for end in range(min(len(tokens), longest), 0, -1):
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


@memo(maxsize=4096)
def _close_keywords(key: str, keywords: tuple[str, ...]) -> list[str]:
    """The nearest keyword, if close enough (cached: mails repeat the same greetings and typos); none for
    a word longer than `MAX_WORD_CHARS` (no keyword is that long)."""
    if len(key) > MAX_WORD_CHARS:
        return []
    return difflib.get_close_matches(key, keywords, n=1, cutoff=0.75)


def match_keyword(typed: str, keywords: dict[str, str], *, what: Msg = KEYWORD) -> str:
    """Map a typed keyword (any alias, any case or accent) to its canonical form.

    ``keywords`` maps folded aliases to the canonical value, e.g.
    ``{"escouade": "ESCOUADE", "squad": "ESCOUADE"}``.  A word near none of them raises
    `UnknownKeywordError`: read the verb of a line with this, so that prose is told from orders.
    """
    if len(typed) > MAX_WORD_CHARS:  # no keyword is that long: not folded, not compared
        raise UnknownKeywordError(Msg(f"{what.fr} inconnu «\u00a0{typed[:40]}…\u00a0»", f"unknown {what.en} '{typed[:40]}…'"),
                                  typed)
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


def is_number(typed: str) -> bool:
    """Digits only (any script's decimal digits, as `int` reads them; not « ² »), at most `MAX_DIGITS` of them."""
    return typed.isdecimal() and len(typed) <= MAX_DIGITS


def whole_number(typed: str, low: int, high: int, *, what: Msg = NUMBER) -> int:
    """The whole number ``typed`` is, between ``low`` and ``high`` included; `OrderSyntaxError` saying the range
    otherwise (a number of many digits is never converted)."""
    text = typed.strip()
    if is_number(text) and low <= int(text) <= high:
        return int(text)
    shown = text if len(text) <= 12 else text[:12] + "…"
    raise OrderSyntaxError(Msg(
        f"{what.fr}\u00a0: un nombre entier de {french_number(low)} à {french_number(high)}, pas «\u00a0{shown}\u00a0»",
        f"{what.en}: a whole number from {low:,} to {high:,}, not '{shown}'"))


def french_number(n: int) -> str:
    """« 99 999 »: thousands apart by a narrow no-break space."""
    return f"{n:,}".replace(",", "\u202f")


def names_understood(line: str, args: Sequence[object],
                     names: Callable[[], Collection[str]]) -> list[tuple[str, str]]:
    """The names an accepted order line designates without writing them in full (their first letters):
    (as typed, the name understood) for each, so that the answer can say « Bron → Bronn ».

    A name written whole, whatever its capitals, accents and hyphens, is not listed.  ``names`` gives the
    game's names, asked for only when a name was not written whole.
    """
    line_key = f" {name_key(line)} "
    tokens = line.split()
    out: list[tuple[str, str]] = []
    for arg in args:  # (written whole, the usual case, costs no look-up among the names)
        if not isinstance(arg, str) or f" {name_key(arg)} " in line_key or arg not in names():
            continue
        typed = _typed_for(tokens, name_key(arg))
        if typed:
            out.append((typed, arg))
    return out


def _typed_for(tokens: Sequence[str], key: str) -> str:
    """The run of words (after the order word) typed for the name whose key is ``key``: the longest one that is
    its first letters, as `match_name` takes a unique prefix for the name (a near miss is asked about, never
    taken)."""
    width = len(key.split()) + _EXTRA_WORDS
    best = ""
    for start in range(1, len(tokens)):
        for end in range(min(len(tokens), start + width), start, -1):
            typed = " ".join(tokens[start:end]).strip(",;:")
            run = name_key(typed)
            if run and key.startswith(run) and len(typed) > len(best):
                best = typed
                break
    return best
