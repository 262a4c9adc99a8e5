"""Which lines of a player's mail are chatter, not orders: greetings, sign-offs, decoration, sentences.

Almost every real mail starts with « Bonjour » and ends with a name.  The engine asks this module
about a line before it tries it as an order (`is_chatter`: greetings, thanks, sign-offs, lines of
punctuation) and about a line that failed as one (`looks_like_sentence`: prose that merely begins
with an order word, « Garde le moral, on va gagner ! »).  Knows nothing of games.
"""

from __future__ import annotations

import re
import unicodedata

from pbem.limits import MAX_LINE_CHARS
from pbem.memo import memo

_GREETINGS = (
    # French
    "bonjour", "bonsoir", "salut", "coucou", "hello", "re bonjour", "rebonjour", "cher", "chere", "chers", "cheres",
    "madame", "monsieur", "messieurs", "mesdames", "bonne journee", "bonne soiree", "bonne nuit", "bonne fin",
    "bon week-end", "bon weekend", "bonne semaine", "bonne continuation", "bon jeu",
    "cordialement", "bien cordialement", "bien a vous", "bien a toi", "amities", "amicalement", "bises",
    "grosses bises", "a bientot", "a plus", "a+", "a tres vite", "a demain", "merci", "merci beaucoup",
    "mille mercis", "encore merci", "salutations", "sincerement", "respectueusement", "votre devoue",
    "voici mes ordres", "voici les ordres", "mes ordres", "mes ordres pour", "ordres du tour",
    "voila", "voila mes ordres",
    # English
    "hi", "hey", "dear", "good morning", "good evening", "greetings", "thanks", "thank you", "many thanks",
    "cheers", "best", "best regards", "kind regards", "regards", "warm regards", "sincerely", "yours",
    "all the best", "see you", "take care", "here are my orders", "my orders", "orders for",
)
_GREETING = re.compile(r"^(?:" + "|".join(re.escape(g) for g in sorted(_GREETINGS, key=len, reverse=True))
                       + r")(?:$|[\s,.!;:)\-])")

# words that show a line is a sentence, not an order (names are made of other words: « dame de la Tour »)
_SENTENCE_WORDS = frozenset(
    "je j tu il elle on nous vous ils elles c ce ca cela ceci est sont suis es sommes etes ai as avons avez ont "
    "sera serai va vais vont fait faire faut peut peux pouvez veux voulez voudrais pense crois espere mais donc "
    "car parce puis alors comme si que qu quoi pourquoi quand comment oui non pas ne n plus tres aussi "
    "i me my we our you your he she it they is are am was were will would can could should please just "
    "think hope because but so and then if that this what why when how yes no not very also".split()
)
_WORD = re.compile(r"[a-z0-9+]+")


@memo(maxsize=4096, max_key=200)
def _fold(text: str) -> str:
    if text.isascii():  # (the same result, without a loop over every character)
        return " ".join(text.lower().split())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(text.replace("\u2019", "'").casefold().split())


_ALNUM = re.compile(r"[^\W_]")


def is_decoration(line: str) -> bool:
    """A line with no letter or digit: ``----``, ``***``, ``~~``, ``:-)``."""
    return _ALNUM.search(line) is None


def is_greeting(line: str) -> bool:
    """A greeting, thanks or sign-off: « Bonjour à tous, », « Cordialement », « Merci ! », "Best regards".
    (No line longer than `MAX_LINE_CHARS` is one.)"""
    return len(line) <= MAX_LINE_CHARS and _GREETING.match(_fold(line)) is not None


def is_chatter(line: str) -> bool:
    """Never an order: a greeting or sign-off, or a line of punctuation only."""
    first = line.partition(" ")[0]
    if len(first) > 1 and first.isupper():  # « ESCOUADE … », as orders are usually typed: no greeting
        return False
    return is_decoration(line) or is_greeting(line)


def looks_like_sentence(line: str) -> bool:
    """Prose rather than an order gone wrong: a sentence of several words with a pronoun, an auxiliary
    or a conjunction in it (« Garde le moral, on va gagner »), or one ending like a sentence, or a long one.

    An order line is a verb and its arguments (names, numbers, keywords): it has none of those; nor is it
    longer than `MAX_LINE_CHARS` (such a line is prose, and is not read further).
    """
    if len(line) > MAX_LINE_CHARS:
        return True
    folded = _fold(line)
    words = _WORD.findall(folded)
    if len(words) >= 12:
        return True
    if len(words) < 4:
        return False
    if folded.rstrip().endswith(("?", "!", "...", "\u2026")):
        return True
    return any(w in _SENTENCE_WORDS for w in words[1:])
