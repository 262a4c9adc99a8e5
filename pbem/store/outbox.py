"""Outgoing mail as queued: composed bytes, status, attempts, failures to report."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pbem.clock import iso, parse_iso
from pbem.store.base import StoreBase
from pbem.store.rows import OutboxRow, OutboxStatus

OUTBOX_FIELDS = ("id", "game", "turn", "kind", "rcpt", "subject", "raw", "status", "attempts", "next_attempt_at",
                 "last_error", "created_at", "sent_at", "record_seq")
"""What `Store.enqueue` needs of each queued mail."""
_OUTBOX_COLUMNS = frozenset({*OUTBOX_FIELDS, "reported", "deferred"})
_OUTBOX_INSERT = (f"insert into outbox ({', '.join(OUTBOX_FIELDS)}) values ({', '.join('?' * len(OUTBOX_FIELDS))}) "
                  "on conflict (id) do nothing")
_ROW = ("select id, game, turn, kind, rcpt, subject, status, attempts, next_attempt_at, last_error, created_at, "
        "sent_at from outbox")
"""The columns of an `OutboxRow` (never the bytes: `outbox_raw` reads them when a mail is sent)."""


def _at(text: str | None) -> datetime | None:
    return parse_iso(text) if text else None  # (an unsent mail's sent_at is '')


def _rows(rows: list[dict[str, Any]]) -> list[OutboxRow]:
    return [OutboxRow(id=r["id"], game=r["game"], turn=r["turn"], kind=r["kind"], rcpt=r["rcpt"],
                      subject=r["subject"], status=r["status"], attempts=r["attempts"] or 0,
                      next_attempt_at=_at(r["next_attempt_at"]), created_at=_at(r["created_at"]),
                      sent_at=_at(r["sent_at"]), last_error=r["last_error"] or "")
            for r in rows]


class OutboxRows(StoreBase):
    """Outgoing mail as queued: composed bytes, status, attempts, failures to report."""

    def enqueue(self, items: Sequence[dict[str, Any]]) -> int:
        """Queue outgoing mails (one statement); an item whose id is already queued is left as it is.

        Returns how many were added.  Items carry the `OUTBOX_FIELDS` (``reported`` defaults to 0).
        """
        if not items:
            return 0
        before = self.db.conn.total_changes
        with self.atomic():
            self.db.conn.executemany(_OUTBOX_INSERT, [[item[k] for k in OUTBOX_FIELDS] for item in items])
        if any(item["kind"] in ("ack", "notice", "stranger") for item in items):
            self._replies.clear()  # memoised reply counts: read again when next needed
        return self.db.conn.total_changes - before

    def outbox_mark(self) -> int:
        """Where the outbox ends now (its last rowid): `queued_since` gives what was queued after."""
        row = self.db.execute("select max(rowid) from outbox").fetchone()
        return int(row[0] or 0)

    def queued_since(self, mark: int) -> list[tuple[str, str, str]]:
        """(game, kind, recipient) of each mail queued since `outbox_mark` returned ``mark``, in order."""
        return [(r[0], r[1], r[2]) for r in self.db.execute(
            "select game, kind, rcpt from outbox where rowid > ? order by rowid", [mark])]

    def has_queued_outbox(self) -> bool:
        """Is any mail queued (due or waiting for a retry)?  Sending has nothing to do, nor to expire, without."""
        return self._one("select 1 from outbox where status = 'queued' limit 1") is not None

    def due_outbox(self, now: datetime, limit: int = 500) -> list[OutboxRow]:
        """The queued mails due by ``now``, oldest first."""
        return _rows(self._q(
            _ROW + " where status = 'queued' and next_attempt_at <= ? order by created_at, rowid limit ?",
            [iso(now), limit],
        ))

    def outbox_items(self, status: OutboxStatus | None = None, game: str | None = None) -> list[OutboxRow]:
        sql, args = _ROW + " where 1=1", list[str]()
        if status:
            sql += " and status = ?"
            args.append(status)
        if game:
            sql += " and game = ?"
            args.append(game)
        return _rows(self._q(sql + " order by created_at, rowid", args))

    def outbox_raw(self, item_id: str) -> bytes | None:
        """A queued mail's bytes; None when there is no such mail, or its body was pruned (`retention`)."""
        row = self.db.execute("select raw from outbox where id = ?", [item_id]).fetchone()
        return bytes(row[0]) if row and row[0] is not None else None

    def update_outbox(self, item_id: str, **fields: Any) -> None:
        """Change a queued mail's columns (times given as datetimes are stored as the store writes them)."""
        fields = {k: iso(v) if isinstance(v, datetime) else v for k, v in fields.items()}
        if not fields or not set(fields) <= _OUTBOX_COLUMNS:
            self._t("outbox").update(item_id, fields)
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self.atomic():
            cur = self.db.execute(f"update outbox set {sets} where id = ?", [*fields.values(), item_id])
            if cur.rowcount == 0:
                from sqlite_utils.db import NotFoundError  # (loaded by `db` already, for the update)

                raise NotFoundError(item_id)

    def server_wait(self) -> tuple[datetime, int] | None:
        """(until when, most attempts) of the mails waiting for the SMTP server to answer again, or None."""
        row = self._one("select min(next_attempt_at), max(attempts) from outbox "
                        "where status = 'queued' and deferred = 'server'")
        return (parse_iso(row[0]), int(row[1])) if row and row[0] is not None else None

    def defer_due_outbox(self, now: datetime, until: datetime, reason: str) -> int:
        """Every due mail waits for the server until ``until`` (one answer stands for all: it is down)."""
        with self.atomic():
            return self.db.execute(
                "update outbox set deferred = 'server', next_attempt_at = ?, last_error = ? "
                "where status = 'queued' and next_attempt_at <= ?", [iso(until), reason[:500], iso(now)]).rowcount

    def release_server_wait(self, now: datetime) -> int:
        """The server answers again: every mail that waited for it is due now."""
        at = iso(now)
        with self.atomic():
            return self.db.execute("update outbox set next_attempt_at = ? where status = 'queued' "
                                   "and deferred = 'server' and next_attempt_at > ?", [at, at]).rowcount

    def expire_outbox(self, created_before: datetime, note: str) -> list[OutboxRow]:
        """Mails that have waited since before ``created_before`` fail (``note`` leads their last error); returns
        them as they were before."""
        rows = _rows(self._q(_ROW + " where status = 'queued' and deferred != '' and created_at < ?",
                             [iso(created_before)]))
        if rows:
            with self.atomic():
                self.db.conn.executemany(
                    "update outbox set status = 'failed', deferred = '', last_error = ? where id = ?",
                    [[f"{note}: {r.last_error}"[:500], r.id] for r in rows])
        return rows

    def unreported_failures(self, game: str) -> list[OutboxRow]:
        """Mails of a game that could not be delivered (or bounced) and that no MJ digest has mentioned yet."""
        return _rows(self._q(
            _ROW + " where game = ? and status in ('failed', 'bounced') and reported = 0 order by created_at, rowid",
            [game]))

    def outbox_row(self, item_id: str) -> OutboxRow | None:
        """One outgoing mail's row (without its bytes)."""
        rows = _rows(self._q(_ROW + " where id = ?", [item_id]))
        return rows[0] if rows else None

    def last_sent_to(self, rcpt: str, kinds: Sequence[str]) -> OutboxRow | None:
        """The latest mail of these kinds sent to an address (a bounce that names only its recipient)."""
        rows = _rows(self._q(
            _ROW + f" where rcpt = ? and status in ('sent', 'bounced') and kind in ({', '.join('?' * len(kinds))}) "
            "order by sent_at desc, rowid desc limit 1", [rcpt, *kinds]))
        return rows[0] if rows else None

    def mark_bounced(self, item_id: str, why: str) -> None:
        """The mail bounced: its row says why, for the MJ's next digest."""
        self.db.execute("update outbox set status = 'bounced', last_error = ?, reported = 0 where id = ?",
                        [why[:500], item_id])

    def sent_since(self, rcpt: str, kind: str, since: datetime) -> int:
        """How many mails of a kind were queued to an address since a time."""
        row = self.db.execute("select count(*) from outbox where rcpt = ? and kind = ? and created_at >= ?",
                              [rcpt, kind, iso(since)]).fetchone()
        return int(row[0])

    def mark_reported(self, item_ids: Sequence[str]) -> None:
        for item_id in item_ids:
            self.db.execute("update outbox set reported = 1 where id = ?", [item_id])

    def replies_since(self, rcpt: str, since: datetime) -> int:
        """How many answers (acks, notices) were queued to an address since a time (the reply cap)."""
        key = (rcpt, iso(since))
        if self._games is not None and key in self._replies:
            return self._replies[key]
        row = self.db.execute(
            "select count(*) from outbox where rcpt = ? and kind in ('ack', 'notice', 'stranger') and created_at >= ?",
            key
        ).fetchone()
        if self._games is not None:
            self._replies[key] = int(row[0])
        return int(row[0])
