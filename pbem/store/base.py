"""The database handle every part of the store shares: the connection, transactions, per-transaction memos, schema."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from pbem.clock import iso
from pbem.msg import Msg
from pbem.store import health
from pbem.store.health import StoreError
from pbem.store.rows import GameRow, OrderSet, PlayerRow

if TYPE_CHECKING:
    import sqlite_utils

SAME_AS_BEFORE = ("update records set state_before = null where kind = 'step' and state_before is not null and "
                  "state_before = (select p.state_after from records p where p.game = records.game and "
                  "p.seq < records.seq order by p.seq desc limit 1)")
"""Keep once the steps' states before that repeat the state after the record before them (schema 6's
migration; `pbem.store.records` reads a step's NULL state before as the state after the record before it)."""

OPENING_BUSY_MS = 120_000
"""How long opening a store waits for another process's lock (a migration after an upgrade moves every stored
mail once; on a loaded machine that took over 10 s, the wait allowed to later statements)."""

SCHEMA_VERSION = 7
"""The schema `_create` makes, kept in the database's ``user_version``.  Bump it whenever `_create` (or a row
class's) changes: a database at this version is opened without looking at its tables, and
tests/test_store_health.py fails until the new schema's digest is recorded beside the new number."""


def _instant(value: Any) -> str:
    """An instant inside a JSON column (a journal entry's detail): UTC ISO text, as in every column."""
    if isinstance(value, datetime):
        return iso(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_instant)


def _j(value: Any) -> str:
    """Canonical JSON (one encoder for all: ``json.dumps`` with options builds a new one per call)."""
    return _JSON.encode(value)


def _switch_to_wal(conn: sqlite3.Connection, deadline: float) -> None:
    """Put the database in WAL mode (once per database: the mode is kept in the file), trying again until
    `deadline` (``time.monotonic``) while another process holds it.

    The switch does not wait on ``busy_timeout`` when several processes open an old database in the
    rollback-journal mode together: each holds the shared lock the others' switch needs, and SQLite answers
    SQLITE_BUSY at once rather than deadlock.  A short random pause lets one of them through."""
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode=wal")
            return
        except sqlite3.OperationalError as e:
            if getattr(e, "sqlite_errorname", "") != "SQLITE_BUSY" or time.monotonic() >= deadline:
                raise
            time.sleep(random.uniform(0.005, 0.05))  # noqa: S311 - a pause's length, not a secret


class StoreBase:
    """A handle on the pbem database: the connection, `atomic`, and the memos the row classes share."""

    def __init__(self, path: str | Path, *, synchronous: str = "normal"):
        """``synchronous``: ``normal`` (WAL: a commit survives a killed process, the last ones may be lost in a
        power cut) or ``full`` (every commit is on disk before it returns: survives a power cut, costs an fsync)."""
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous must be 'normal' or 'full', not {synchronous!r}")
        self.path = str(path)
        on_disk = self.path != ":memory:"
        # game rows read inside the current transaction (one snapshot), dropped when we write them
        self._games: dict[str, GameRow] | None = None
        # per-transaction memos of hot reads (None outside a transaction): next record number, who has ordered,
        # who plays from an address, answers recently sent to an address
        self._seqs: dict[str, int] = {}
        self._ordered: dict[tuple[str, int], set[str]] = {}
        self._received: dict[tuple[str, int], dict[str, str]] = {}  # stored orders' receipt times, by player
        self._by_address: dict[tuple[str, str], PlayerRow | None] = {}
        self._replies: dict[tuple[str, str], int] = {}
        # the whole state after a game's last immediate order, as this process wrote it: its record number and
        # its text (the game row then names the record instead of holding the text: `GameRows.save_game`)
        self._action_states: dict[str, tuple[int, str]] = {}
        # orders given in the current transaction, written at its end: the rows to insert, in order, and
        # the latest set of each (game, turn, player) touched, in the order they were last given (None: cancelled)
        self._order_rows: list[list[Any]] = []
        self._order_state: dict[tuple[str, int, str], OrderSet | None] = {}
        if on_disk:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise health.storage_error(e, path) or e from None
            health.check_file(path)  # lost (missing or empty beside its marker), or no database at all: stop here
        try:
            self.conn = sqlite3.connect(self.path)  # (as sqlite-utils' Database opens it)
        except sqlite3.Error as e:
            raise health.storage_error(e, path) or e from None
        self._db: sqlite_utils.Database | None = None
        try:
            # while it opens (the switch to WAL, the check, a migration another process may be running), a store
            # waits longer than for later statements: an upgrade's migration holds the others for its length
            self.conn.execute(f"PRAGMA busy_timeout={OPENING_BUSY_MS}")
            self.conn.execute("PRAGMA recursive_triggers=on")  # (as sqlite-utils' Database sets it)
            if on_disk:
                _switch_to_wal(self.conn, time.monotonic() + OPENING_BUSY_MS / 1000)
            self.conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
            if on_disk:
                health.quick_check(self.conn, path)
            self._migrate()
            self.conn.execute("PRAGMA busy_timeout=10000")
        except (sqlite3.Error, OSError) as e:
            self.conn.close()
            raise health.storage_error(e, path) or e from None
        except BaseException:
            self.conn.close()
            raise
        if on_disk:
            health.write_marker(path)

    @property
    def db(self) -> sqlite_utils.Database:
        """sqlite-utils over the connection, for writes, transactions and the schema.  Made (and sqlite-utils
        loaded) at the first use, for speed: it costs a cron's pass more than the pass's database work, and a
        pass that finds nothing to do only reads (`_q`, `_one`: plain sqlite3; issue #24).  No circle is
        dodged: sqlite-utils is a third-party package.  No sqlite-utils plugins: none is ours, and loading
        them scans every installed package."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def close(self) -> None:
        self.conn.close()

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Rows as dicts, straight from sqlite3 (sqlite-utils' ``query`` wraps each read in a savepoint)."""
        cursor = self.conn.execute(sql, list(args))  # (a read: sqlite-utils' execute would only pass it on)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _one(self, sql: str, args: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of a read, straight from sqlite3 (see `_q`)."""
        row = self.conn.execute(sql, list(args)).fetchone()
        return tuple(row) if row is not None else None

    def _t(self, name: str) -> sqlite_utils.db.Table:
        """A table (sqlite-utils types ``db[name]`` as Table | View; ours are all tables)."""
        return self.db.table(name)

    @contextmanager
    def atomic(self) -> Iterator[Self]:
        """One transaction (nested calls are savepoints).

        Orders given inside are written when the outermost block ends (`_write_orders`), in
        one go; until then `current_orders` and `ordered_players` read them from memory.
        """
        outer = self._games is None
        if outer:
            self._games = {}
        # what a rolled-back savepoint must also undo in memory
        pending_at_entry = (list(self._order_rows), dict(self._order_state))
        try:
            with self.db.atomic():
                yield self
                if outer:
                    self._write_orders()
        except BaseException:
            self._order_rows, self._order_state = pending_at_entry
            self._action_states.clear()  # (a record rolled back: its number may come again with another state)
            if self._games is not None:
                self._games.clear()  # a rolled-back savepoint may have held rows read after our writes
            self._seqs.clear()
            self._ordered.clear()
            self._received.clear()
            self._by_address.clear()
            self._replies.clear()
            raise
        finally:
            if outer:
                self._order_rows, self._order_state = [], {}
                self._games = None
                self._seqs.clear()
                self._ordered.clear()
                self._received.clear()
                self._by_address.clear()
                self._replies.clear()

    def _write_orders(self) -> None:
        """Write the orders given in this transaction (see `OrderRows`)."""
        raise NotImplementedError

    def state_after_record(self, game_id: str, seq: int) -> str:
        """The canonical JSON text of the state after record ``seq`` (see `RecordRows`)."""
        raise NotImplementedError

    # --- schema ---

    def _migrate(self) -> None:
        """Bring the schema to `SCHEMA_VERSION`, safely when several processes open an old database at once.

        A database at the current version is left alone (no lock taken: a reader never waits).  Otherwise
        the schema is checked and changed inside one exclusive transaction, and the version is read again
        inside it: the first process migrates, the others wait for its commit (``busy_timeout``), then
        find the work done.  A database from a newer pbem is refused rather than changed back.
        """
        if self._version() == SCHEMA_VERSION:
            return
        self.db.execute("BEGIN EXCLUSIVE")
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError("newer", Msg(
                    f"la base {self.path} vient d'une version plus récente de pbem (schéma {version}, celle-ci "
                    f"connaît le {SCHEMA_VERSION})\u00a0: installez la version de pbem qui l'a écrite",
                    f"the database {self.path} comes from a newer pbem (schema {version}, this one knows "
                    f"{SCHEMA_VERSION}): install the pbem that wrote it"))
            if version < SCHEMA_VERSION:
                self._create()
                self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.conn.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def _version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def _create(self) -> None:
        t = self.db.table
        if "messages" not in self.db.table_names():
            t("messages").create(
                {
                    "key": str, "message_id": str, "received_at": str, "size": int,
                    "status": str, "game": str, "sender": str, "verdict": str, "processed_at": str,
                },
                pk="key",
            )
            t("messages").create_index(["message_id"])
            t("messages").create_index(["status"])
        if "message_bytes" not in self.db.table_names():
            # A message's bytes apart from its row: marking it processed rewrites the row, which is then
            # a few dozen bytes, not the message's kilobytes (a batch's commit wrote one page a mail).
            t("message_bytes").create({"key": str, "raw": bytes}, pk="key")
        if "raw" in self._t("messages").columns_dict:  # databases created before message_bytes: moved once
            with self.db.atomic():
                self.db.execute("insert into message_bytes (key, raw) select key, raw from messages "
                                "where raw is not null on conflict (key) do nothing")
                self._t("messages").transform(drop={"raw"})
        if "fingerprint" not in self._t("messages").columns_dict:  # what a mail said, to know it when it comes again
            self._t("messages").add_column("fingerprint", str, not_null_default="")
        # (a sender's last mails read: `resent_of`, one index step whatever the season's length)
        self.db.execute("drop index if exists messages_prints")
        self.db.execute("create index if not exists messages_read_by_sender on messages (sender, received_at) "
                        "where fingerprint != ''")
        if "games" not in self.db.table_names():
            t("games").create(
                {
                    "id": str, "ruleset": str, "phase": str, "seed": str, "commitment": str, "turn": int,
                    "deadline": str, "early_at": str, "state": str, "reminders_sent": str, "created_at": str,
                    "seed_revealed": int,
                },
                pk="id",
            )
        if "opened_at" not in self._t("games").columns_dict:  # databases created before this column
            self._t("games").add_column("opened_at", str)
        if "state_from" not in self._t("games").columns_dict:  # the state kept by the records (`GameRows`)
            self._t("games").add_column("state_from", int)
        if "players" not in self.db.table_names():
            t("players").create(
                {
                    "game": str, "name": str, "address": str, "status": str, "seat": str, "password": str,
                    "registered_at": str,
                },
                pk=("game", "name"),
            )
            t("players").create_index(["game", "address"])
        if "missed" not in self._t("players").columns_dict:  # databases created before this column
            self._t("players").add_column("missed", int, not_null_default=0)
        if "gender" not in self._t("players").columns_dict:
            self._t("players").add_column("gender", str)
        if "nicknames" not in self._t("players").columns_dict:  # (schema 7: the MJ's names for a player)
            self._t("players").add_column("nicknames", str)
        if "orders" not in self.db.table_names():
            t("orders").create(
                {
                    "id": int, "game": str, "turn": int, "player": str, "orders": str, "lines": str,
                    "source": str, "message_key": str, "received_at": str, "current": int,
                },
                pk="id",
            )
            t("orders").create_index(["game", "turn", "player", "current"])
        # the current orders of a step, without scanning every superseded set
        self.db.execute("create index if not exists orders_current on orders (game, turn, player) where current = 1")
        if "records" not in self.db.table_names():
            t("records").create(
                {
                    "game": str, "seq": int, "kind": str, "turn": int, "title": str, "dice_context": str,
                    "state_before": str, "orders": str, "defaults": str, "rolls": str, "events": str,
                    "state_after": str, "resolved_at": str, "published": int, "forum_written": int,
                },
                pk=("game", "seq"),
            )
        for column, kind in (("state_patch", str), ("titles", str), ("changed", int)):
            if column not in self._t("records").columns_dict:  # immediate orders' compact records (engine/records.py)
                self._t("records").add_column(column, kind)
        self.db.execute(SAME_AS_BEFORE)
        if "outbox" not in self.db.table_names():
            t("outbox").create(
                {
                    "id": str, "game": str, "turn": int, "kind": str, "rcpt": str, "subject": str,
                    "raw": bytes, "status": str, "attempts": int, "next_attempt_at": str, "last_error": str,
                    "created_at": str, "sent_at": str, "record_seq": int, "reported": int, "deferred": str,
                },
                pk="id",
                defaults={"reported": 0, "deferred": ""},
            )
            t("outbox").create_index(["status", "next_attempt_at"])
            t("outbox").create_index(["rcpt", "created_at"])
        if "reported" not in self._t("outbox").columns_dict:  # databases created before this column
            self._t("outbox").add_column("reported", int, not_null_default=0)
        if "deferred" not in self._t("outbox").columns_dict:  # why a queued mail waits: '', 'server' or 'mail'
            self._t("outbox").add_column("deferred", str, not_null_default="")
        # the reply cap counts a sender's recent answers from the index alone
        self.db.execute("create index if not exists outbox_replies on outbox (rcpt, kind, created_at)")
        # how many passes began reading each stored mail: one killed while reading does not read it for ever
        self.db.execute("create table if not exists message_attempts (key text primary key, attempts integer not null)")
        if "cursors" not in self.db.table_names():
            t("cursors").create({"source": str, "value": str}, pk="source")
        if "journal" not in self.db.table_names():
            t("journal").create({"id": int, "game": str, "at": str, "who": str, "action": str, "detail": str}, pk="id")
        # a game's entries of one action counted from the index (the live archive's edition, at every pass)
        self.db.execute("create index if not exists journal_by_action on journal (game, action)")
