"""Pruning old mail bytes (`pbem gc`): the bodies nothing reads again, so the database stops growing with time.

What goes, and only once older than the cut-off (both received or created, and processed or sent, before it):

- the raw bytes of an inbound mail processed to the end (status ``done``).  Its row stays: the duplicate
  check (`seen_message_id`, the ``fingerprint`` of `resent_of`), `pbem mail list` and the orders that
  name it read the row, never the bytes.  Kept whatever their age: ``new`` mail (not read yet, or set
  aside for another try: `begin_reading` counts it), ``error`` mail (`pbem mail retry` reads it again),
  and the mail whose orders are in force for a step still to come (`interpret._written_after` rereads
  it to know which of two mails of the same second was written last);
- the body of an outgoing mail sent (status ``sent``).  Its row stays (`pbem outbox list`, the reply cap,
  a late bounce).  Kept: mail queued (not sent yet), failed or bounced (`pbem outbox retry` sends those
  bytes again), and the mails of a game's last two steps (a player's answer to one is read with it,
  `desk.context.thread_of`).

`pbem verify`, `pbem export`, the archive, a re-run or a correction read the step records, the orders,
the players and the journal: none of that is touched.  Each batch is one transaction, so a gc killed half
way leaves every mail either whole or pruned, and the next one finishes the work.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime

from pbem.clock import iso
from pbem.faults import crashpoint
from pbem.store.base import StoreBase

GC_BATCH = 500
"""Rows pruned per transaction: a pass waiting for the lock never waits for a whole gc."""

_IN_FORCE = ("select o.message_key from orders o join games g on g.id = o.game "
             "where o.current = 1 and o.turn >= g.turn and o.message_key is not null")
"""The mails whose orders are in force for a step not resolved yet (orders name their mail by Message-ID, or by
key).  Listed once per gc (`_list_in_force`), not once per batch: a mail older than the cut-off never becomes
in force later (orders in force come from mail just read, and a game's step only moves on)."""
_PRUNABLE_MAIL = (
    "from messages m join message_bytes b on b.key = m.key "
    "where m.status = 'done' and m.received_at < :cut and m.processed_at < :cut and m.rowid > :after "
    "and m.message_id not in (select key from temp.gc_in_force) and m.key not in (select key from temp.gc_in_force)")
_PRUNABLE_OUTBOX = (
    # (``+x.status``: walk the rowids, not the status index, so each batch starts where the last one stopped)
    "from outbox x where +x.status = 'sent' and x.raw is not null and x.created_at < :cut and x.sent_at < :cut "
    "and x.rowid > :after and not exists (select 1 from games g where g.id = x.game and x.turn >= g.turn - 1)")


@dataclass(frozen=True)
class Pruned:
    """What a gc pruned (or, dry, would prune): how many bodies of each kind, and their bytes."""

    mails: int = 0
    mail_bytes: int = 0
    sent: int = 0
    sent_bytes: int = 0

    @property
    def bytes(self) -> int:
        return self.mail_bytes + self.sent_bytes

    def __add__(self, other: Pruned) -> Pruned:
        return Pruned(self.mails + other.mails, self.mail_bytes + other.mail_bytes,
                      self.sent + other.sent, self.sent_bytes + other.sent_bytes)


class RetentionRows(StoreBase):
    """Pruning the bytes of old mail, in and out (see the module's text for what is kept)."""

    def prunable(self, before: datetime) -> Pruned:
        """What `prune` would take now, pruning nothing."""
        self._list_in_force()
        cut = {"cut": iso(before), "after": 0}
        mails, mail_bytes = self.db.execute(f"select count(*), coalesce(sum(length(b.raw)), 0) {_PRUNABLE_MAIL}",
                                            cut).fetchone()
        sent, sent_bytes = self.db.execute(f"select count(*), coalesce(sum(length(x.raw)), 0) {_PRUNABLE_OUTBOX}",
                                           cut).fetchone()
        return Pruned(int(mails), int(mail_bytes), int(sent), int(sent_bytes))

    def prune(self, before: datetime) -> Pruned:
        """Prune the bodies older than ``before``, `GC_BATCH` a transaction; what was pruned.

        Each batch chooses its rows inside its own transaction, so a pass that ran between two batches
        (orders given, a mail sent) is seen before anything of it goes; each starts after the last row the
        one before chose (rowid order), so a gc reads each row once however many batches it takes.
        """
        self._list_in_force()
        done = Pruned()
        after = 0
        while True:
            with self.atomic():
                rows = self.db.execute(f"select m.rowid, m.key, length(b.raw) {_PRUNABLE_MAIL} "
                                       f"order by m.rowid limit {GC_BATCH}", {"cut": iso(before), "after": after}
                                       ).fetchall()
                self.db.conn.executemany("delete from message_bytes where key = ?", [(r[1],) for r in rows])
            if not rows:
                break
            after = int(rows[-1][0])
            done += Pruned(mails=len(rows), mail_bytes=sum(int(r[2]) for r in rows))
            crashpoint("gc-batch")
        after = 0
        while True:
            with self.atomic():
                rows = self.db.execute(f"select x.rowid, x.id, length(x.raw) {_PRUNABLE_OUTBOX} "
                                       f"order by x.rowid limit {GC_BATCH}", {"cut": iso(before), "after": after}
                                       ).fetchall()
                self.db.conn.executemany("update outbox set raw = null where id = ?", [(r[1],) for r in rows])
            if not rows:
                break
            after = int(rows[-1][0])
            done += Pruned(sent=len(rows), sent_bytes=sum(int(r[2]) for r in rows))
            crashpoint("gc-batch")
        return done

    def _list_in_force(self) -> None:
        """List `_IN_FORCE` in a temporary table (this connection's only, gone when it closes)."""
        self.db.execute("create temp table if not exists gc_in_force (key text primary key) without rowid")
        with self.atomic():
            self.db.execute("delete from temp.gc_in_force")
            self.db.execute(f"insert or ignore into temp.gc_in_force (key) {_IN_FORCE}")

    def vacuum(self) -> None:
        """Give the pages freed back to the file system.  It rewrites the whole file (as much free disk again,
        and every other pass waits for it), which is why `pbem gc` does it only when asked: without it the
        freed pages hold the mail to come, and the file stops growing."""
        self.db.execute("vacuum")
        self.db.execute("pragma wal_checkpoint(truncate)")

    def file_bytes(self) -> int:
        """The database's size on disk: its file and its write-ahead log."""
        return sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))
