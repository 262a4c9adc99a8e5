"""The words every game shares: the common commands (INSCRIPTION, AIDE, ETAT…, French first with English aliases),
the phrases that ask to register, and PASSER."""

from __future__ import annotations

import difflib
import re

from pbem.engine.table import Table
from pbem.names import fold

COMMANDS = {
    "inscription": "JOIN", "join": "JOIN", "register": "JOIN",
    "aide": "HELP", "help": "HELP", "?": "HELP",
    "etat": "STATUS", "status": "STATUS",
    "ordres": "ORDERS", "orders": "ORDERS",
    "rapport": "REPORT", "report": "REPORT",
    "pour": "FOR", "for": "FOR",
    "annuler": "CANCEL", "cancel": "CANCEL",
    "passer": "PASS", "pass": "PASS", "passe": "PASS",
    "fin": "END", "end": "END",
    "absence": "AWAY", "away": "AWAY",
}
JOIN_PHRASES = ("je souhaite participer", "je veux participer", "i want to play", "i would like to join",
                "i wish to participate")

# « je voudrais m'inscrire, mon nom est Olenna »: a wish and a registering verb anywhere in one sentence, and
# the name when it says one.  Read on the folded line (`fold`: lower case, no accents, straight apostrophes).
_WISH = re.compile(r"\b(?:je (?:voudrais|veux|souhaite|souhaiterais|desire|aimerais)|j'(?:aimerais|voudrais)|"
                   r"puis-je|pourrais-je|est-ce que je (?:peux|pourrais)|je peux|je pourrais|"
                   r"i (?:want|wish|would like|'d like)|i'd like|can i|could i|may i|please)\b")
_JOINING = re.compile(r"\b(?:m'inscrire|m inscrire|m'enregistrer|participer|rejoindre|jouer|"
                      r"register|join|sign up|play)\b")
_ASKING = re.compile(r"^(?:inscri(?:vez|s)-moi|inscri(?:vez|s) moi|sign me up|count me in)\b")
_NAME_SAID = re.compile(r"(?:mon nom (?:est|sera|:)|je m'appelle|je me nomme|sous le nom (?:de |d')?|"
                        r"mon personnage (?:est|s'appelle|sera|:)|nom de personnage ?:|pseudo ?:|"
                        r"my name is|call me|under the name(?: of)?) *")
_NAME_END = re.compile(r"[,;!?\[\]\n]|\. |\.$| (?:et|and|merci|svp|stp)\b")
MAX_SAID_NAME = 40
"""A name said in a sentence is at most this long (`lifecycle.NAME_OK`)."""


def join_sentence(line: str) -> str | None:
    """A sentence that asks to register (« je voudrais m'inscrire, mon nom est Olenna », « Inscrivez-moi »):
    the name it gives, as typed ("" when it gives none); None for a line that asks no such thing."""
    folded = fold(line)
    if not (_ASKING.match(folded) or (_WISH.search(folded) and _JOINING.search(folded))):
        return None
    said = _NAME_SAID.search(folded)
    if said is None:
        return ""
    # the same place in the line as typed: folding keeps its length when it has no accents to strip
    typed = line[said.end():] if len(folded) == len(line) else _typed_tail(line, folded[said.end():])
    end = _NAME_END.search(typed)
    name = " ".join((typed[:end.start()] if end else typed).split()).strip(" .'\"«»")
    return name if 0 < len(name) <= MAX_SAID_NAME else ""


def said_name(rest: str) -> str:
    """What follows INSCRIPTION, without the words that introduce a name: « je m'appelle Olenna » -> « Olenna »."""
    said = _NAME_SAID.match(fold(rest))
    if said is None or said.end() == 0:
        return rest
    folded = fold(rest)
    typed = rest.strip()[said.end():] if len(folded) == len(rest.strip()) else _typed_tail(rest, folded[said.end():])
    end = _NAME_END.search(typed)
    return " ".join((typed[:end.start()] if end else typed).split()).strip(" .'\"«»")


def _typed_tail(line: str, folded_tail: str) -> str:
    """The end of ``line`` whose folded form is ``folded_tail`` (accents and capitals as typed)."""
    for start in range(len(line)):
        if fold(line[start:]) == folded_tail.strip():
            return line[start:]
    return folded_tail


def join_near_miss(word: str) -> bool:
    """A word typed for INSCRIPTION and missed (« INSCRITPION », « inscirption »), not another word."""
    folded = fold(word).strip(":,.!")
    if not folded.startswith("i") or len(folded) < 8 or len(folded) > 16 or COMMANDS.get(folded) == "JOIN":
        return False  # (a typo keeps the first letter: « description » is another word)
    return difflib.SequenceMatcher(None, folded, "inscription").ratio() >= 0.8


def is_pass(table: Table, text: str) -> bool:
    """Is this order text the common PASSER (not a word of the game's own, as in Courtisans)?"""
    said = fold(text).strip(" .!")
    return COMMANDS.get(said) == "PASS" and said not in table.game_words


def asks_to_join(text: str, subject: str) -> bool:
    """Does a mail ask to register (an INSCRIPTION line, even misspelt, « Je souhaite participer », « je
    voudrais m'inscrire »)?"""
    for line in text.split("\n"):
        folded = fold(line)
        head = folded.partition(" ")[0].strip(":,.!")
        if (COMMANDS.get(head) == "JOIN" or any(folded.startswith(p) for p in JOIN_PHRASES) or join_near_miss(head)
                or join_sentence(line) is not None):
            return True
    return "particip" in fold(subject) and not text.strip()
