"""Inbound mail as stored: raw bytes by source key, then its verdict once processed; and the mailbox cursors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from pbem.clock import iso, parse_iso
from pbem.core import Msg
from pbem.store.base import StoreBase
from pbem.store.rows import MailStatus, MessageRow


class MessageRows(StoreBase):
    """Inbound mail as stored: raw bytes by source key, then its verdict once processed; and the mailbox cursors."""

    def get_cursor(self, source: str) -> str | None:
        rows = list(self._q("select value from cursors where source = ?", [source]))
        return rows[0]["value"] if rows else None

    def set_cursor(self, source: str, value: str) -> None:
        with self.atomic():
            self._t("cursors").upsert({"source": source, "value": value}, pk="source")

    # --- inbound messages ---

    def store_raw(self, items: Sequence[tuple[str, bytes]], received_at: datetime,
                  times: Sequence[datetime | None] | None = None) -> int:
        """Store raw messages by source key, in one transaction.  Already stored keys are skipped.

        ``times`` gives each message's own receipt time when the mailbox knows it (else ``received_at``).
        """
        default = iso(received_at)
        when = [iso(t) if t is not None else default for t in times] if times is not None else [default] * len(items)
        with self.atomic():
            before = self.db.conn.total_changes
            self.db.conn.executemany(
                "insert into messages (key, message_id, received_at, size, status, game, sender, verdict, "
                "processed_at) values (?, '', ?, ?, 'new', '', '', '', '') on conflict (key) do nothing",
                [(key, w, len(raw)) for (key, raw), w in zip(items, when, strict=True)])
            added = self.db.conn.total_changes - before
            self.db.conn.executemany("insert into message_bytes (key, raw) values (?, ?) on conflict (key) do nothing",
                                     items)
            return added

    def pending_messages(self, limit: int = 1000) -> list[tuple[str, bytes, datetime]]:
        """(key, raw, received_at) of stored messages not processed yet, oldest first."""
        rows = self.conn.execute(  # (a read: see `_q`)
            "select m.key, b.raw, m.received_at from messages m join message_bytes b on b.key = m.key "
            "where m.status = 'new' order by m.received_at, m.rowid limit ?",
            [limit],
        ).fetchall()
        return [(r[0], bytes(r[1]), parse_iso(r[2])) for r in rows]

    def begin_reading(self, keys: Sequence[str]) -> dict[str, int]:
        """Count one more attempt at reading each of these stored messages, committed before the reading
        starts; returns how many attempts each had before this one.

        A pass killed while reading a mail (a mail that costs too much, a bug) leaves the count up: the
        next pass knows the mail was tried, reads it alone, and after `MAX_READING_ATTEMPTS` sets it aside
        instead of reading it again for ever.
        """
        before: dict[str, int] = {}
        with self.atomic():
            for i in range(0, len(keys), 500):
                part = list(keys[i:i + 500])
                before.update(self.db.execute(
                    f"select key, attempts from message_attempts where key in ({', '.join('?' * len(part))})",
                    part).fetchall())
            self.db.conn.executemany(
                "insert into message_attempts (key, attempts) values (?, 1) "
                "on conflict (key) do update set attempts = attempts + 1", [(key,) for key in keys])
        return {key: int(before.get(key, 0)) for key in keys}

    def reading_attempts(self, keys: Sequence[str]) -> dict[str, int]:
        """How many passes began reading each of these stored messages (0: none yet)."""
        found: dict[str, int] = {}
        for i in range(0, len(keys), 500):
            part = list(keys[i:i + 500])
            found.update(self.db.execute(
                f"select key, attempts from message_attempts where key in ({', '.join('?' * len(part))})",
                part).fetchall())
        return {key: int(found.get(key, 0)) for key in keys}

    def seen_message_id(self, message_id: str, key: str) -> bool:
        """Was another stored message with this Message-ID already processed?"""
        row = self.db.execute(
            "select 1 from messages where message_id = ? and key != ? and status != 'new' limit 1", [message_id, key]
        ).fetchone()
        return row is not None

    def seen_message_ids(self, message_ids: Sequence[str]) -> set[str]:
        """Which of these Message-IDs belong to a message already processed (`seen_message_id` for a batch)."""
        wanted = sorted(set(message_ids))
        found: set[str] = set()
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            found.update(r[0] for r in self.db.execute(
                f"select message_id from messages where message_id in ({', '.join('?' * len(part))}) "
                "and status != 'new'", part))
        return found

    def mark_message(self, key: str, *, message_id: str, status: MailStatus, game: str, sender: str, verdict: str,
                     processed_at: datetime, fingerprint: str = "") -> None:
        """Record a message's verdict (and the ``fingerprint`` of what it asked, `resent_of`).  An ``error``
        never overwrites a message already processed."""
        cur = self.db.execute(
            "update messages set message_id = ?, status = ?, game = ?, sender = ?, verdict = ?, processed_at = ?, "
            "fingerprint = ? where key = ?" + (" and status = 'new'" if status == "error" else ""),
            [message_id, status, game, sender, verdict, iso(processed_at), fingerprint, key])
        if cur.rowcount == 0 and (status != "error" or not self.db.execute(  # (its bytes may be pruned: the row)
                "select 1 from messages where key = ?", [key]).fetchone()):
            from sqlite_utils.db import NotFoundError  # (loaded by `db` already: the update went through it)

            raise NotFoundError(key)

    def mark_messages(self, rows: Sequence[tuple[str, str, str, str, str, datetime, str]],
                      fingerprints: Mapping[str, str] | None = None) -> None:
        """`mark_message` for many: (message_id, status, game, sender, verdict, processed_at, key) rows, and the
        fingerprints of those that have one, by key."""
        prints = fingerprints or {}
        with self.atomic():  # (sqlite3's own executemany would leave a transaction open outside one)
            self.db.conn.executemany(
                "update messages set message_id = ?, status = ?, game = ?, sender = ?, verdict = ?, processed_at = ?, "
                "fingerprint = ? where key = ?",
                [(*row[:5], iso(row[5]), prints.get(row[6], ""), row[6]) for row in rows])

    def resent_of(self, sender: str, fingerprint: str, since: datetime, until: datetime,
                  key: str) -> tuple[str, datetime] | None:
        """The last processed message from ``sender`` received from ``since`` to ``until`` (another than
        ``key``) when it has this fingerprint: (its key, when it was received), or None (none, or the last
        one asked something else)."""
        row = self.db.execute(
            "select key, received_at, fingerprint from messages where sender = ? and fingerprint != '' "
            "and received_at >= ? and received_at <= ? and key != ? order by received_at desc, rowid desc limit 1",
            [sender, iso(since), iso(until), key]).fetchone()
        return (row[0], parse_iso(row[1])) if row and row[2] == fingerprint else None

    def messages(self, status: MailStatus | None = None) -> list[MessageRow]:
        """Stored inbound messages (without their bytes), oldest first."""
        sql = "select key, message_id, received_at, status, game, sender, verdict, processed_at from messages"
        rows = self._q(sql + (" where status = ?" if status else "") + " order by received_at, rowid",
                       [status] if status else [])
        return [MessageRow(key=r["key"], message_id=r["message_id"] or "", received_at=parse_iso(r["received_at"]),
                           status=r["status"], game=r["game"] or "", sender=r["sender"] or "",
                           verdict=r["verdict"] or "",
                           processed_at=parse_iso(r["processed_at"]) if r["processed_at"] else None)
                for r in rows]

    def errored_messages(self, keys: Sequence[str]) -> list[str]:
        """Which of these messages are kept with status ``error``."""
        found: list[str] = []
        for i in range(0, len(keys), 500):
            part = list(keys[i:i + 500])
            found += [r[0] for r in self.db.execute(
                f"select key from messages where status = 'error' and key in ({', '.join('?' * len(part))})", part)]
        return found

    def requeue_refusals(self, keys: Sequence[str]) -> dict[str, Msg]:
        """Why each of these messages must not be processed again (`requeue_messages` leaves them alone).

        Only a message kept with status ``error`` is processed again, and only if none of its orders
        were recorded: mail already processed (``done``), or whose processing did take effect
        (orders stored from it), would apply old orders a second time, over newer ones.
        """
        why: dict[str, Msg] = {}
        for key in keys:
            row = self.db.execute("select status, message_id from messages where key = ?", [key]).fetchone()
            if row is None:
                why[key] = Msg("aucun courriel enregistré sous ce nom", "no such stored mail")
            elif row[0] == "new":
                why[key] = Msg("pas encore traité (le prochain passage le fera)",
                               "not processed yet (the next pass does it)")
            elif row[0] != "error":
                why[key] = Msg(f"déjà traité ({row[0]})", f"already processed ({row[0]})")
            elif self.db.execute("select 1 from orders where message_key in (?, ?) limit 1",  # orders name their mail
                                 [key, row[1] or key]).fetchone():  # by Message-ID (by key from POUR lines)
                why[key] = Msg("ses ordres sont déjà enregistrés : le traiter à nouveau les appliquerait deux fois",
                               "its orders were recorded already: processing it again would apply them twice")
        return why

    def requeue_messages(self, keys: Sequence[str]) -> int:
        """Put messages whose processing failed back to be processed again (after fixing what made them fail).

        Messages refused by `requeue_refusals` are left as they are.  Their reading attempts are forgotten
        (`begin_reading`): the MJ asks for them to be read again, from the start.
        """
        refused = self.requeue_refusals(keys)
        n = 0
        with self.atomic():
            for key in dict.fromkeys(keys):
                if key not in refused:
                    requeued = self.db.execute("update messages set status = 'new' where key = ? and status = 'error'",
                                               [key]).rowcount
                    if requeued:
                        self.db.execute("delete from message_attempts where key = ?", [key])
                    n += requeued
        return n

    def processed_raw(self, message_id: str) -> bytes | None:
        """The bytes of the processed message with this Message-ID (the first one stored), or None."""
        row = self.db.execute(
            "select b.raw from messages m join message_bytes b on b.key = m.key where m.message_id = ? "
            "and m.status != 'new' order by m.rowid limit 1", [message_id]).fetchone()
        return bytes(row[0]) if row else None

    def message_raw(self, key: str) -> bytes | None:
        row = self.db.execute("select raw from message_bytes where key = ?", [key]).fetchone()
        return bytes(row[0]) if row else None

    def message_count(self, status: str | None = None) -> int:
        if status is None:
            return int(self.db.execute("select count(*) from messages").fetchone()[0])
        return int(self.db.execute("select count(*) from messages where status = ?", [status]).fetchone()[0])
