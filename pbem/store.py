"""The only database code: inbound messages, games, players, orders, step records, outbox, cursors.

SQLite through sqlite-utils, in WAL mode.  Every change that must survive a crash
as a whole runs inside `Store.atomic()`; callers group work so that a message is
stored before it is acknowledged, and a resolved step, its mails and the new
game state are committed together.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from pbem.core import Order

SCHEMA_VERSION = 1


OUTBOX_FIELDS = ("id", "game", "turn", "kind", "rcpt", "subject", "raw", "status", "attempts", "next_attempt_at",
                 "last_error", "created_at", "sent_at", "record_seq")
"""What `Store.enqueue` needs of each queued mail."""
_OUTBOX_COLUMNS = frozenset({*OUTBOX_FIELDS, "reported", "deferred"})
_OUTBOX_INSERT = (f"insert into outbox ({', '.join(OUTBOX_FIELDS)}) values ({', '.join('?' * len(OUTBOX_FIELDS))}) "
                  "on conflict (id) do nothing")


_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _j(value: Any) -> str:
    """Canonical JSON (one encoder for all: ``json.dumps`` with options builds a new one per call)."""
    return _JSON.encode(value)


@dataclass(frozen=True)
class GameRow:
    id: str
    ruleset: str
    phase: str  # registration | running | finished
    seed: str
    commitment: str
    turn: int  # number of the open step (0 during registration)
    deadline: str | None  # UTC ISO
    early_at: str | None  # UTC ISO: all orders are in, resolve then
    state: str | None  # canonical JSON of the ruleset state
    reminders_sent: tuple[float, ...]
    created_at: str
    seed_revealed: bool


@dataclass(frozen=True)
class PlayerRow:
    game: str
    name: str
    address: str
    status: str  # active | removed
    seat: dict[str, Any]  # role / data fixed by the MJ
    password: str | None
    registered_at: str


@dataclass(frozen=True)
class OrderSet:
    """The orders a player gave for one step: the latest mail (or MJ correction) wins."""

    game: str
    turn: int
    player: str
    orders: list[Order]
    lines: list[str]
    source: str  # mail | mj | default
    message_key: str | None
    received_at: str


class Store:
    """A handle on the pbem database."""

    def __init__(self, path: str | Path, *, synchronous: str = "normal"):
        """``synchronous``: ``normal`` (WAL: a commit survives a killed process, the last ones may be lost in a
        power cut) or ``full`` (every commit is on disk before it returns: survives a power cut, costs an fsync)."""
        if synchronous not in ("normal", "full"):
            raise ValueError(f"synchronous must be 'normal' or 'full', not {synchronous!r}")
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite_utils.Database(str(path))
        if str(path) != ":memory:":
            self.db.enable_wal()
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.execute("PRAGMA busy_timeout=10000")
        # game rows read inside the current transaction (one snapshot), dropped when we write them
        self._games: dict[str, GameRow] | None = None
        # per-transaction memos of hot reads (None outside a transaction): next record number, who has ordered,
        # who plays from an address, answers recently sent to an address
        self._seqs: dict[str, int] = {}
        self._ordered: dict[tuple[str, int], set[str]] = {}
        self._by_address: dict[tuple[str, str], PlayerRow | None] = {}
        self._replies: dict[tuple[str, str], int] = {}
        # orders given in the current transaction, written at its end: the rows to insert, in order, and
        # the latest set of each (game, turn, player) touched, in the order they were last given (None: cancelled)
        self._order_rows: list[list[Any]] = []
        self._order_state: dict[tuple[str, int, str], OrderSet | None] = {}
        self._create()

    def close(self) -> None:
        self.db.close()

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Rows as dicts, straight from sqlite3 (sqlite-utils' ``query`` wraps each read in a savepoint)."""
        cursor = self.db.execute(sql, list(args))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _t(self, name: str) -> sqlite_utils.db.Table:
        """A table (sqlite-utils types ``db[name]`` as Table | View; ours are all tables)."""
        return self.db.table(name)

    @contextmanager
    def atomic(self) -> Iterator[Store]:
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
            if self._games is not None:
                self._games.clear()  # a rolled-back savepoint may have held rows read after our writes
            self._seqs.clear()
            self._ordered.clear()
            self._by_address.clear()
            self._replies.clear()
            raise
        finally:
            if outer:
                self._order_rows, self._order_state = [], {}
                self._games = None
                self._seqs.clear()
                self._ordered.clear()
                self._by_address.clear()
                self._replies.clear()

    # --- schema ---

    def _create(self) -> None:
        t = self.db.table
        if "messages" not in self.db.table_names():
            t("messages").create(
                {
                    "key": str, "message_id": str, "received_at": str, "raw": bytes, "size": int,
                    "status": str, "game": str, "sender": str, "verdict": str, "processed_at": str,
                },
                pk="key",
            )
            t("messages").create_index(["message_id"])
            t("messages").create_index(["status"])
        if "games" not in self.db.table_names():
            t("games").create(
                {
                    "id": str, "ruleset": str, "phase": str, "seed": str, "commitment": str, "turn": int,
                    "deadline": str, "early_at": str, "state": str, "reminders_sent": str, "created_at": str,
                    "seed_revealed": int,
                },
                pk="id",
            )
        if "players" not in self.db.table_names():
            t("players").create(
                {
                    "game": str, "name": str, "address": str, "status": str, "seat": str, "password": str,
                    "registered_at": str,
                },
                pk=("game", "name"),
            )
            t("players").create_index(["game", "address"])
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
        if "cursors" not in self.db.table_names():
            t("cursors").create({"source": str, "value": str}, pk="source")
        if "journal" not in self.db.table_names():
            t("journal").create({"id": int, "game": str, "at": str, "who": str, "action": str, "detail": str}, pk="id")

    # --- cursors (pbem.mail.inbox.CursorStore) ---

    def get_cursor(self, source: str) -> str | None:
        rows = list(self._q("select value from cursors where source = ?", [source]))
        return rows[0]["value"] if rows else None

    def set_cursor(self, source: str, value: str) -> None:
        with self.atomic():
            self._t("cursors").upsert({"source": source, "value": value}, pk="source")

    # --- inbound messages ---

    def store_raw(self, items: Sequence[tuple[str, bytes]], received_at: str,
                  times: Sequence[str | None] | None = None) -> int:
        """Store raw messages by source key, in one transaction.  Already stored keys are skipped.

        ``times`` gives each message's own receipt time when the mailbox knows it (else ``received_at``).
        """
        when = [t or received_at for t in times] if times is not None else [received_at] * len(items)
        with self.atomic():
            before = self.db.conn.total_changes
            self.db.conn.executemany(
                "insert into messages (key, message_id, received_at, raw, size, status, game, sender, verdict, "
                "processed_at) values (?, '', ?, ?, ?, 'new', '', '', '', '') on conflict (key) do nothing",
                [(key, w, raw, len(raw)) for (key, raw), w in zip(items, when, strict=True)])
            return self.db.conn.total_changes - before

    def pending_messages(self, limit: int = 1000) -> list[tuple[str, bytes, str]]:
        """(key, raw, received_at) of stored messages not processed yet, oldest first."""
        rows = self.db.execute(
            "select key, raw, received_at from messages where status = 'new' order by received_at, rowid limit ?",
            [limit],
        ).fetchall()
        return [(r[0], bytes(r[1]), r[2]) for r in rows]

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

    def mark_message(self, key: str, *, message_id: str, status: str, game: str, sender: str, verdict: str,
                     processed_at: str) -> None:
        """Record a message's verdict.  An ``error`` never overwrites a message already processed."""
        cur = self.db.execute(
            "update messages set message_id = ?, status = ?, game = ?, sender = ?, verdict = ?, processed_at = ? "
            "where key = ?" + (" and status = 'new'" if status == "error" else ""),
            [message_id, status, game, sender, verdict, processed_at, key])
        if cur.rowcount == 0 and (status != "error" or self.message_raw(key) is None):
            raise sqlite_utils.db.NotFoundError(key)

    def mark_messages(self, rows: Sequence[tuple[str, str, str, str, str, str, str]]) -> None:
        """`mark_message` for many: (key, message_id, status, game, sender, verdict, processed_at) rows, keys last."""
        with self.atomic():  # (sqlite3's own executemany would leave a transaction open outside one)
            self.db.conn.executemany(
                "update messages set message_id = ?, status = ?, game = ?, sender = ?, verdict = ?, processed_at = ? "
                "where key = ?", rows)

    def messages(self, status: str | None = None) -> list[dict[str, Any]]:
        """Stored inbound messages (without their bytes), oldest first."""
        sql = "select key, message_id, received_at, status, game, sender, verdict, processed_at from messages"
        rows = self._q(sql + (" where status = ?" if status else "") + " order by received_at, rowid",
                       [status] if status else [])
        return rows

    def errored_messages(self, keys: Sequence[str]) -> list[str]:
        """Which of these messages are kept with status ``error``."""
        found: list[str] = []
        for i in range(0, len(keys), 500):
            part = list(keys[i:i + 500])
            found += [r[0] for r in self.db.execute(
                f"select key from messages where status = 'error' and key in ({', '.join('?' * len(part))})", part)]
        return found

    def requeue_refusals(self, keys: Sequence[str]) -> dict[str, str]:
        """Why each of these messages must not be processed again (`requeue_messages` leaves them alone).

        Only a message kept with status ``error`` is processed again, and only if none of its orders
        were recorded: mail already processed (``done``), or whose processing did take effect
        (orders stored from it), would apply old orders a second time, over newer ones.
        """
        why: dict[str, str] = {}
        for key in keys:
            row = self.db.execute("select status, message_id from messages where key = ?", [key]).fetchone()
            if row is None:
                why[key] = "no such stored mail"
            elif row[0] == "new":
                why[key] = "not processed yet (the next pass does it)"
            elif row[0] != "error":
                why[key] = f"already processed ({row[0]})"
            elif self.db.execute("select 1 from orders where message_key in (?, ?) limit 1",  # orders name their mail
                                 [key, row[1] or key]).fetchone():  # by Message-ID (by key from POUR lines)
                why[key] = "its orders were recorded already: processing it again would apply them twice"
        return why

    def requeue_messages(self, keys: Sequence[str]) -> int:
        """Put messages whose processing failed back to be processed again (after fixing what made them fail).

        Messages refused by `requeue_refusals` are left as they are.
        """
        refused = self.requeue_refusals(keys)
        n = 0
        with self.atomic():
            for key in dict.fromkeys(keys):
                if key not in refused:
                    n += self.db.execute("update messages set status = 'new' where key = ? and status = 'error'",
                                         [key]).rowcount
        return n

    def message_raw(self, key: str) -> bytes | None:
        row = self.db.execute("select raw from messages where key = ?", [key]).fetchone()
        return bytes(row[0]) if row else None

    def message_count(self, status: str | None = None) -> int:
        if status is None:
            return int(self.db.execute("select count(*) from messages").fetchone()[0])
        return int(self.db.execute("select count(*) from messages where status = ?", [status]).fetchone()[0])

    # --- games ---

    def add_game(self, row: GameRow) -> None:
        self._forget_game(row.id)
        self._t("games").insert(self._game_dict(row))

    def save_game(self, row: GameRow) -> None:
        self._forget_game(row.id)
        self._t("games").update(row.id, self._game_dict(row))

    def _forget_game(self, game_id: str) -> None:
        if self._games is not None:
            self._games.pop(game_id, None)

    @staticmethod
    def _game_dict(row: GameRow) -> dict[str, Any]:
        return {
            "id": row.id, "ruleset": row.ruleset, "phase": row.phase, "seed": row.seed,
            "commitment": row.commitment, "turn": row.turn, "deadline": row.deadline, "early_at": row.early_at,
            "state": row.state, "reminders_sent": _j(row.reminders_sent), "created_at": row.created_at,
            "seed_revealed": int(row.seed_revealed),
        }

    def game(self, game_id: str) -> GameRow | None:
        if self._games is not None and game_id in self._games:
            return self._games[game_id]  # frozen, with a tuple: safe to share
        rows = list(self._q("select * from games where id = ?", [game_id]))
        if not rows:
            return None
        r = rows[0]
        g = GameRow(
            id=r["id"], ruleset=r["ruleset"], phase=r["phase"], seed=r["seed"], commitment=r["commitment"],
            turn=r["turn"], deadline=r["deadline"], early_at=r["early_at"], state=r["state"],
            reminders_sent=tuple(json.loads(r["reminders_sent"] or "[]")), created_at=r["created_at"],
            seed_revealed=bool(r["seed_revealed"]),
        )
        if self._games is not None:
            self._games[game_id] = g
        return g

    def games(self) -> list[GameRow]:
        out = []
        for r in self._q("select id from games order by id"):
            g = self.game(r["id"])
            assert g is not None
            out.append(g)
        return out

    # --- players ---

    def add_player(self, row: PlayerRow) -> None:
        self._by_address.clear()
        self._t("players").upsert(
            {"game": row.game, "name": row.name, "address": row.address, "status": row.status,
             "seat": _j(row.seat), "password": row.password, "registered_at": row.registered_at},
            pk=("game", "name"),
        )

    def players(self, game: str, *, include_removed: bool = False) -> list[PlayerRow]:
        sql = "select * from players where game = ?" + ("" if include_removed else " and status = 'active'")
        return [self._player(r) for r in self._q(sql + " order by registered_at, name", [game])]

    @staticmethod
    def _player(r: dict[str, Any]) -> PlayerRow:
        return PlayerRow(game=r["game"], name=r["name"], address=r["address"], status=r["status"],
                         seat=json.loads(r["seat"] or "{}"), password=r["password"], registered_at=r["registered_at"])

    def player_by_address(self, game: str, address: str) -> PlayerRow | None:
        key = (game, address)
        if self._games is not None and key in self._by_address:
            return self._by_address[key]
        rows = list(self._q(
            "select * from players where game = ? and address = ? and status = 'active'", [game, address]))
        player = self._player(rows[0]) if rows else None
        if self._games is not None:
            self._by_address[key] = player
        return player

    def player(self, game: str, name: str) -> PlayerRow | None:
        rows = list(self._q("select * from players where game = ? and name = ?", [game, name]))
        return self._player(rows[0]) if rows else None

    def set_player_status(self, game: str, name: str, status: str) -> None:
        self._by_address.clear()
        self._t("players").update((game, name), {"status": status})

    def set_player_address(self, game: str, name: str, address: str) -> None:
        self._by_address.clear()
        self._t("players").update((game, name), {"address": address})

    # --- orders ---

    def set_orders(self, o: OrderSet) -> None:
        """Record a player's orders for a step; they replace any earlier ones."""
        ordered = self._ordered.get((o.game, o.turn))
        if ordered is not None:
            ordered.add(o.player)
        key = (o.game, o.turn, o.player)
        self._order_rows.append([o.game, o.turn, o.player, _j([[x.verb, list(x.args), x.text] for x in o.orders]),
                                 _j(o.lines), o.source, o.message_key, o.received_at])
        self._order_state.pop(key, None)  # re-inserted: the latest given comes last, as "order by id" would
        self._order_state[key] = o
        if self._games is None:  # outside a transaction: written at once
            self._write_orders()

    def cancel_orders(self, game: str, turn: int, player: str) -> None:
        """Withdraw a player's orders for a step: they count as silent again (defaults at the deadline)."""
        ordered = self._ordered.get((game, turn))
        if ordered is not None:
            ordered.discard(player)
        self._order_state.pop((game, turn, player), None)
        self._order_state[(game, turn, player)] = None
        if self._games is None:
            self._write_orders()

    def _write_orders(self) -> None:
        """Write the orders given in this transaction: superseded rows lose ``current``, new rows are inserted."""
        if not self._order_state:
            return
        last = {(row[0], row[1], row[2]): i for i, row in enumerate(self._order_rows)}
        rows = []
        for i, row in enumerate(self._order_rows):
            key = (row[0], row[1], row[2])
            rows.append([*row, int(last[key] == i and self._order_state[key] is not None)])
        touched = list(self._order_state)
        self._order_rows, self._order_state = [], {}
        with self.atomic():
            self.db.conn.executemany(
                "update orders set current = 0 where game = ? and turn = ? and player = ? and current = 1", touched)
            self.db.conn.executemany(
                "insert into orders (game, turn, player, orders, lines, source, message_key, received_at, current) "
                "values (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def current_orders(self, game: str, turn: int, player: str | None = None) -> dict[str, OrderSet]:
        """The orders in force for a step (one player's only, if named), by player, in the order they were given."""
        sql = "select * from orders indexed by orders_current where game = ? and turn = ? and current = 1"
        args: list[Any] = [game, turn]
        if player is not None:
            sql += " and player = ?"
            args.append(player)
        out: dict[str, OrderSet] = {}
        for r in self._q(sql + " order by id", args):
            out[r["player"]] = OrderSet(
                game=game, turn=turn, player=r["player"],
                orders=[Order(v, tuple(a), t) for v, a, t in json.loads(r["orders"])],
                lines=json.loads(r["lines"]), source=r["source"], message_key=r["message_key"],
                received_at=r["received_at"],
            )
        # orders given in this transaction, not written yet, supersede the stored ones
        for (g, t, who), pending in self._order_state.items():
            if g == game and t == turn and (player is None or who == player):
                out.pop(who, None)
                if pending is not None:
                    out[who] = pending
        return out

    def ordered_players(self, game: str, turn: int) -> set[str]:
        """The players with current orders for a step (the keys of `current_orders`, without decoding them)."""
        if self._games is not None and (game, turn) in self._ordered:
            return set(self._ordered[(game, turn)])
        players = {r[0] for r in self.db.execute(
            "select player from orders indexed by orders_current where game = ? and turn = ? and current = 1",
            [game, turn])}
        for (g, t, who), pending in self._order_state.items():
            if g == game and t == turn:
                if pending is None:
                    players.discard(who)
                else:
                    players.add(who)
        if self._games is not None:
            self._ordered[(game, turn)] = set(players)
        return players

    def order_history(self, game: str, turn: int, player: str | None = None) -> list[dict[str, Any]]:
        self._write_orders()  # inside a transaction: what was given so far is part of the history
        sql = "select * from orders where game = ? and turn = ?"
        args: list[Any] = [game, turn]
        if player is not None:
            sql += " and player = ?"
            args.append(player)
        return list(self._q(sql + " order by id", args))

    # --- step records ---

    def next_seq(self, game: str) -> int:
        if self._games is not None and game in self._seqs:
            return self._seqs[game]
        row = self.db.execute("select coalesce(max(seq), 0) from records where game = ?", [game]).fetchone()
        seq = int(row[0]) + 1
        if self._games is not None:
            self._seqs[game] = seq
        return seq

    def add_record(self, rec: dict[str, Any]) -> None:
        self._t("records").insert(rec)
        self._seqs.pop(rec["game"], None)

    def replace_record(self, rec: dict[str, Any]) -> None:
        self._t("records").upsert(rec, pk=("game", "seq"))

    def records(self, game: str, kind: str | None = None) -> list[dict[str, Any]]:
        sql = "select * from records where game = ?"
        args: list[Any] = [game]
        if kind:
            sql += " and kind = ?"
            args.append(kind)
        return list(self._q(sql + " order by seq", args))

    def record_for_turn(self, game: str, turn: int) -> dict[str, Any] | None:
        rows = list(self._q("select * from records where game = ? and kind = 'step' and turn = ?", [game, turn]))
        return rows[0] if rows else None

    def record(self, game: str, seq: int) -> dict[str, Any] | None:
        rows = list(self._q("select * from records where game = ? and seq = ?", [game, seq]))
        return rows[0] if rows else None

    def mark_forum_written(self, game: str, seq: int) -> None:
        self._t("records").update((game, seq), {"forum_written": 1})

    # --- outbox ---

    def enqueue(self, items: Sequence[dict[str, Any]]) -> int:
        """Queue outgoing mails (one statement); an item whose id is already queued is left as it is.

        Returns how many were added.  Items carry the `OUTBOX_FIELDS` (``reported`` defaults to 0).
        """
        if not items:
            return 0
        before = self.db.conn.total_changes
        with self.atomic():
            self.db.conn.executemany(_OUTBOX_INSERT, [[item[k] for k in OUTBOX_FIELDS] for item in items])
        if any(item["kind"] in ("ack", "notice") for item in items):
            self._replies.clear()  # memoised reply counts: read again when next needed
        return self.db.conn.total_changes - before

    def due_outbox(self, now: str, limit: int = 500) -> list[dict[str, Any]]:
        return list(self._q(
            "select * from outbox where status = 'queued' and next_attempt_at <= ? order by created_at, rowid limit ?",
            [now, limit],
        ))

    def outbox_items(self, status: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        sql, args = "select id, game, turn, kind, rcpt, subject, status, attempts, next_attempt_at, last_error, " \
                    "created_at, sent_at from outbox where 1=1", []
        if status:
            sql += " and status = ?"
            args.append(status)
        if game:
            sql += " and game = ?"
            args.append(game)
        return list(self._q(sql + " order by created_at, rowid", args))

    def outbox_raw(self, item_id: str) -> bytes | None:
        row = self.db.execute("select raw from outbox where id = ?", [item_id]).fetchone()
        return bytes(row[0]) if row else None

    def update_outbox(self, item_id: str, **fields: Any) -> None:
        if not fields or not set(fields) <= _OUTBOX_COLUMNS:
            self._t("outbox").update(item_id, fields)
            return
        sets = ", ".join(f"{k} = ?" for k in fields)
        with self.atomic():
            cur = self.db.execute(f"update outbox set {sets} where id = ?", [*fields.values(), item_id])
            if cur.rowcount == 0:
                raise sqlite_utils.db.NotFoundError(item_id)

    def server_wait(self) -> tuple[str, int] | None:
        """(until when, most attempts) of the mails waiting for the SMTP server to answer again, or None."""
        row = self.db.execute("select min(next_attempt_at), max(attempts) from outbox "
                              "where status = 'queued' and deferred = 'server'").fetchone()
        return (row[0], int(row[1])) if row and row[0] is not None else None

    def defer_due_outbox(self, now: str, until: str, reason: str) -> int:
        """Every due mail waits for the server until ``until`` (one answer stands for all: it is down)."""
        with self.atomic():
            return self.db.execute(
                "update outbox set deferred = 'server', next_attempt_at = ?, last_error = ? "
                "where status = 'queued' and next_attempt_at <= ?", [until, reason[:500], now]).rowcount

    def release_server_wait(self, now: str) -> int:
        """The server answers again: every mail that waited for it is due now."""
        with self.atomic():
            return self.db.execute("update outbox set next_attempt_at = ? where status = 'queued' "
                                   "and deferred = 'server' and next_attempt_at > ?", [now, now]).rowcount

    def expire_outbox(self, created_before: str, note: str) -> list[dict[str, Any]]:
        """Mails that have waited since before ``created_before`` fail (``note`` leads their last error)."""
        rows = self._q("select id, rcpt, last_error from outbox where status = 'queued' and deferred != '' "
                       "and created_at < ?", [created_before])
        with self.atomic():
            self.db.conn.executemany(
                "update outbox set status = 'failed', deferred = '', last_error = ? where id = ?",
                [[f"{note}: {r['last_error']}"[:500], r["id"]] for r in rows])
        return rows

    def unreported_failures(self, game: str) -> list[dict[str, Any]]:
        """Mails of a game that could not be delivered and that no MJ digest has mentioned yet."""
        return list(self._q(
            "select id, rcpt, subject, last_error from outbox where game = ? and status = 'failed' and reported = 0 "
            "order by created_at, rowid", [game]))

    def mark_reported(self, item_ids: Sequence[str]) -> None:
        for item_id in item_ids:
            self.db.execute("update outbox set reported = 1 where id = ?", [item_id])

    def replies_since(self, rcpt: str, since: str) -> int:
        """How many answers (acks, notices) were queued to an address since a time (the reply cap)."""
        key = (rcpt, since)
        if self._games is not None and key in self._replies:
            return self._replies[key]
        row = self.db.execute(
            "select count(*) from outbox where rcpt = ? and kind in ('ack', 'notice') and created_at >= ?", [rcpt, since]
        ).fetchone()
        if self._games is not None:
            self._replies[key] = int(row[0])
        return int(row[0])

    # --- journal ---

    def log(self, game: str, at: str, who: str, action: str, detail: Any) -> None:
        self.db.execute("insert into journal (game, at, who, action, detail) values (?, ?, ?, ?, ?)",
                        [game, at, who, action, _j(detail)])

    def journal(self, game: str) -> list[dict[str, Any]]:
        return list(self._q("select * from journal where game = ? order by id", [game]))
