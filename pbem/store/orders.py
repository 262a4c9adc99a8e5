"""Players' orders per step: the latest given is current; those given in a transaction are written at its end."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pbem.clock import iso, parse_iso
from pbem.core import Order
from pbem.store.base import StoreBase, _j
from pbem.store.rows import OrderSet


class OrderRows(StoreBase):
    """Players' orders per step: the latest given is current; those given in a transaction are written at its end."""

    def set_orders(self, o: OrderSet) -> None:
        """Record a player's orders for a step; they replace any earlier ones."""
        ordered = self._ordered.get((o.game, o.turn))
        if ordered is not None:
            ordered.add(o.player)
        key = (o.game, o.turn, o.player)
        self._order_rows.append([o.game, o.turn, o.player, _j([[x.verb, list(x.args), x.text] for x in o.orders]),
                                 _j(o.lines), o.source, o.message_key, iso(o.received_at)])
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
        self._received.clear()  # the stored rows change now
        with self.atomic():
            self.db.conn.executemany(
                "update orders set current = 0 where game = ? and turn = ? and player = ? and current = 1", touched)
            self.db.conn.executemany(
                "insert into orders (game, turn, player, orders, lines, source, message_key, received_at, current) "
                "values (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)

    def received_at_of(self, game: str, turn: int, player: str) -> datetime | None:
        """When the mail of a player's orders in force for a step arrived (None: no orders), read once per
        transaction for the whole step: the mail path asks it of every order mail."""
        if (game, turn, player) in self._order_state:
            pending = self._order_state[(game, turn, player)]
            return pending.received_at if pending is not None else None
        memo = self._received.get((game, turn)) if self._games is not None else None
        if memo is None:
            memo = {r[0]: r[1] for r in self.db.execute(
                "select player, received_at from orders indexed by orders_current where game = ? and turn = ? "
                "and current = 1", [game, turn])}
            if self._games is not None:
                self._received[(game, turn)] = memo
        stored = memo.get(player)
        return parse_iso(stored) if stored else None

    def current_orders(self, game: str, turn: int, player: str | None = None) -> dict[str, OrderSet]:
        """The orders in force for a step (one player's only, if named), by player, in the order they were given."""
        if player is not None and (game, turn, player) in self._order_state:  # given in this transaction
            pending = self._order_state[(game, turn, player)]
            return {player: pending} if pending is not None else {}
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
                received_at=parse_iso(r["received_at"]),
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
