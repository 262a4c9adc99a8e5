"""Reading a roster file (``[[joueur]]`` tables): who sits in the game, with the role and data the MJ fixed.

The same reading serves a game's ``roster`` file (`Engine.start_game`) and a scenario file
(`pbem.scenario`), so one format is documented once (docs/scenarios.md, « La liste des joueurs »).
What each game makes of the data (``location``, ``sergent``, a 1626 sheet...) is the ruleset's business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.core import JSON, Msg, Seat
from pbem.msg import PbemError
from pbem.wording import gender_of

TABLES: tuple[str, ...] = ("personnage", "joueur", "seat", "player")
"""The array-of-tables names a roster may use, read in this order."""

NAME_KEYS: tuple[str, ...] = ("joueur", "player", "nom")
"""Where an entry's player name is read, first found wins (``nom`` also stays in the data: a 1626 sheet's name)."""

GENDER_KEYS: tuple[str, ...] = ("genre", "gender", "sexe")
"""Keys that give a player's gender (« femme », « homme », f, m): for the texts' agreement, not the rules."""

NOT_DATA: tuple[str, ...] = ("joueur", "player", "role", *GENDER_KEYS)
"""Keys that are not part of the seat's data."""


class RosterError(PbemError, ValueError):
    """A roster entry that cannot be read: ``key`` names the entry and the key, ``msg`` says what is expected."""

    def __init__(self, key: str, msg: Msg):
        super().__init__(msg, f"{key}: {msg.en}")
        self.key = key


@dataclass(frozen=True)
class RosterEntry:
    """One ``[[joueur]]`` table: the player's name, the fixed role (or None) and the rest of the keys."""

    name: str
    role: str | None
    data: Mapping[str, JSON]
    where: str
    """``joueur[2]``: the table and its rank (from 1), for error messages."""
    gender: str | None = None
    """``"f"`` or ``"m"`` when the entry gives one (`GENDER_KEYS`), for the texts' agreement."""

    def seat(self) -> Seat:
        return Seat(self.name, self.role, dict(self.data), self.gender)


def read_roster(doc: Mapping[str, Any]) -> list[RosterEntry]:
    """Every roster entry of a parsed TOML document, in file order within each table name."""
    out: list[RosterEntry] = []
    for table_name in TABLES:
        entries = doc.get(table_name, [])
        if not isinstance(entries, list):
            raise RosterError(table_name, Msg(f"attendu : des tables [[{table_name}]]",
                                              f"expected an array of tables [[{table_name}]]"))
        for i, entry in enumerate(entries, 1):
            where = f"{table_name}[{i}]"
            if not isinstance(entry, Mapping):
                raise RosterError(where, Msg(f"attendu : une table [[{table_name}]]", f"expected a table [[{table_name}]]"))
            name = next((entry[k] for k in NAME_KEYS if entry.get(k)), None)
            if not isinstance(name, str) or not name.strip():
                raise RosterError(where, Msg(f"une entrée de [[{table_name}]] sans nom de joueur (clé « joueur »)",
                                             f"an entry of [[{table_name}]] has no 'joueur' name"))
            role = entry.get("role")
            if role is not None and not isinstance(role, str):
                raise RosterError(f"{where}.role", Msg("attendu : un code de rôle (texte)", "expected a role code (text)"))
            given = next((entry[k] for k in GENDER_KEYS if k in entry), None)
            gender = gender_of(str(given)) if given is not None else None
            if given is not None and gender is None:
                raise RosterError(f"{where}.genre", Msg(f"genre « {given} » : attendu femme ou homme (f ou m)",
                                                         f"gender {given!r}: expected femme or homme (f or m)"))
            data = {k: v for k, v in entry.items() if k not in NOT_DATA}
            out.append(RosterEntry(" ".join(name.split()), role, data, where, gender))
    return out
