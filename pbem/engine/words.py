"""The words every game shares: the common commands (INSCRIPTION, AIDE, ETAT…, French first with English aliases),
the phrases that ask to register, and PASSER."""

from __future__ import annotations

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


def is_pass(table: Table, text: str) -> bool:
    """Is this order text the common PASSER (not a word of the game's own, as in Courtisans)?"""
    said = fold(text).strip(" .!")
    return COMMANDS.get(said) == "PASS" and said not in table.game_words


def asks_to_join(text: str, subject: str) -> bool:
    """Does a mail ask to register (an INSCRIPTION line, « Je souhaite participer »)?"""
    for line in text.split("\n"):
        folded = fold(line)
        head = folded.partition(" ")[0].strip(":,.!")
        if COMMANDS.get(head) == "JOIN" or any(folded.startswith(p) for p in JOIN_PHRASES):
            return True
    return "particip" in fold(subject) and not text.strip()
