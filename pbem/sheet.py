"""`pbem export GAME --csv`: the MJ's spreadsheet of a game, one row per player and resolved step.

Each row: the step (number, title, when it was resolved, in the game's zone), the player, the role the
player holds at the end of that step and whether still in play (as the ruleset's view of that player
says; empty when the game has no roles), where the orders came from (their mail, the MJ, PASSER, or the
rules' defaults for the silent), how many steps in a row that player had been silent by then, and the
player's status now (in the game or removed).

Roles are hidden information: this file is for the MJ alone, like the JSON export.  A spreadsheet
takes a cell beginning with ``=``, ``+``, ``-`` or ``@`` for a formula, and a player's name is his own
words: such a cell is written with a leading apostrophe (OWASP's advice on CSV injection), so it opens
as text.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from pbem import serial
from pbem.engine.table import Table

HEADERS = {
    "fr": ["étape", "titre", "résolue le", "joueur", "rôle", "en jeu", "ordres", "silences d'affilée", "statut"],
    "en": ["step", "title", "resolved", "player", "role", "in play", "orders", "silent in a row", "status"],
}
_SOURCES = {
    "fr": {"mail": "courriel", "mj": "MJ", "pass": "PASSER", "correction": "correction du MJ",
           "default": "par défaut", None: "courriel"},
    "en": {"mail": "mail", "mj": "MJ", "pass": "PASSER", "correction": "MJ's correction",
           "default": "defaults", None: "mail"},
}
_YES_NO = {"fr": ("oui", "non"), "en": ("yes", "no")}
_STATUS = {"fr": {"active": "en jeu", "removed": "retiré"}, "en": {"active": "playing", "removed": "removed"}}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    """A value as a spreadsheet shows it as text: a would-be formula gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def rows(table: Table, lang: str) -> list[list[str]]:
    """The header, then one row per player of each resolved step, in the order of the steps."""
    lang = "en" if lang == "en" else "fr"
    ruleset = table.ruleset
    status = {p.name: p.status for p in table.store.players(table.id, include_removed=True)}
    silent: dict[str, int] = {}
    out = [HEADERS[lang]]
    for rec in table.store.records(table.id):
        if rec.kind != "step" or rec.state_after is None:
            continue
        state = serial.loads(ruleset.state_type, rec.state_after)
        resolved = table.local(rec.resolved_at)
        for name in ruleset.players(state):
            given = rec.orders.get(name)
            if name in rec.defaults:
                source: str | None = "default"
                silent[name] = silent.get(name, 0) + 1
            elif given is not None:
                source = given.source
                silent[name] = 0
            else:
                source = ""
            role, alive = _role(ruleset.view(state, name))
            out.append([str(rec.turn), rec.title, f"{resolved:%Y-%m-%d %H:%M}" if resolved else "", name, role,
                        "" if alive is None else _YES_NO[lang][0 if alive else 1],
                        _SOURCES[lang].get(source, source or "") if source != "" else "",
                        str(silent.get(name, 0)), _STATUS[lang].get(status.get(name, "active"), "")])
    return out


def _role(view: dict[str, Any]) -> tuple[str, bool | None]:
    """The role and whether in play, as a player's own view says them (``role`` or ``you.role``, ``alive``)."""
    you = view.get("you") if isinstance(view.get("you"), dict) else {}
    role = view.get("role", you.get("role") if isinstance(you, dict) else None)
    alive = view.get("alive", you.get("alive") if isinstance(you, dict) else None)
    return ("" if role is None else str(role)), (alive if isinstance(alive, bool) else None)


def csv_text(table: Table, lang: str) -> str:
    """The spreadsheet as CSV (RFC 4180: comma separated, CRLF line ends, quoted where needed)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows(table, lang):
        writer.writerow([cell(v) for v in row])
    return buffer.getvalue()
