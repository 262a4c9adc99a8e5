"""MJ commands that wait for the MJ's OUI: what was understood of his mail, the mail of ours that asks him to
confirm it (its Message-ID), for how long, with which one-time code, and what became of it.

A row is written in the transaction that reads the MJ's mail and queues our answer, and marked ``done`` in
the one that carries the commands out: a crash between the two leaves it pending (the mail is read again),
never carried out twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pbem.clock import iso, parse_iso
from pbem.store.base import StoreBase

ConfirmationStatus = Literal["pending", "done", "dropped", "replaced", "expired"]


@dataclass(frozen=True)
class ConfirmationRow:
    """MJ commands understood but not carried out until he answers ``message_id`` with OUI (and ``code``)."""

    id: int
    game: str
    asker: str  # the MJ address that wrote, and that our confirmation went to
    mail: str  # the Message-ID of his mail
    message_id: str  # the Message-ID of our confirmation (his OUI answers it)
    turn: int  # the open step when it was asked: the commands speak of it
    commands: tuple[Mapping[str, Any], ...]  # each {"command", "slots", "line", "echo"} (slots as JSON)
    code: str | None  # the one-time code the OUI must carry (a destructive command without the MJ password)
    created_at: datetime
    expires_at: datetime
    status: ConfirmationStatus
    done_at: datetime | None
    done_by: str | None  # the Message-ID of the mail that confirmed, dropped or replaced it
    tries: int  # answers with a wrong code


def _row(r: Mapping[str, Any]) -> ConfirmationRow:
    return ConfirmationRow(r["id"], r["game"], r["asker"], r["mail"], r["message_id"], r["turn"],
                           tuple(json.loads(r["commands"])), r["code"], parse_iso(r["created_at"]),
                           parse_iso(r["expires_at"]), r["status"],
                           parse_iso(r["done_at"]) if r["done_at"] else None, r["done_by"], r["tries"] or 0)


class ConfirmationRows(StoreBase):
    """MJ commands waiting for his confirmation."""

    def _create(self) -> None:
        super()._create()
        if "confirmations" not in self.db.table_names():
            self.db.table("confirmations").create(
                {"id": int, "game": str, "asker": str, "mail": str, "message_id": str, "turn": int, "commands": str,
                 "code": str, "created_at": str, "expires_at": str, "status": str, "done_at": str, "done_by": str,
                 "tries": int}, pk="id")
            self.db.table("confirmations").create_index(["message_id"])

    def add_confirmation(self, game: str, asker: str, mail: str, message_id: str, turn: int,
                         commands: Sequence[Mapping[str, Any]], code: str | None, created_at: datetime,
                         expires_at: datetime) -> int:
        cur = self.db.execute(
            "insert into confirmations (game, asker, mail, message_id, turn, commands, code, created_at, expires_at, "
            "status, tries) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0)",
            [game, asker, mail, message_id, turn, json.dumps(list(commands), ensure_ascii=False, sort_keys=True),
             code, iso(created_at), iso(expires_at)])
        return int(cur.lastrowid or 0)

    def confirmation(self, row_id: int) -> ConfirmationRow | None:
        rows = self._q("select * from confirmations where id = ?", [row_id])
        return _row(rows[0]) if rows else None

    def confirmation_for(self, game: str, message_ids: Sequence[str]) -> ConfirmationRow | None:
        """The confirmation one of these Message-IDs is (the nearest in a thread first), if any."""
        for mid in message_ids:
            if not mid:
                continue
            rows = self._q("select * from confirmations where game = ? and message_id = ? order by id desc limit 1",
                           [game, mid])
            if rows:
                return _row(rows[0])
        return None

    def confirmations(self, game: str, *, pending: bool = True) -> list[ConfirmationRow]:
        sql = "select * from confirmations where game = ?" + (" and status = 'pending'" if pending else "")
        return [_row(r) for r in self._q(sql + " order by id", [game])]

    def close_confirmation(self, row_id: int, status: ConfirmationStatus, at: datetime, by: str) -> None:
        self.db.execute("update confirmations set status = ?, done_at = ?, done_by = ? where id = ?",
                        [status, iso(at), by, row_id])

    def count_wrong_code(self, row_id: int, wrong: int = 1) -> int:
        """``wrong`` more wrong codes (or answers without one); how many so far."""
        self.db.execute("update confirmations set tries = coalesce(tries, 0) + ? where id = ?", [wrong, row_id])
        row = self.db.execute("select tries from confirmations where id = ?", [row_id]).fetchone()
        return int(row[0]) if row else 0
