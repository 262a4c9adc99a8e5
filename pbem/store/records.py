"""Step records (setup, resolved steps, immediate actions) as the ``records`` table keeps them, and the MJ's journal.

A record (`StepRecord`) is written whole; its orders, defaults, rolls and events are JSON columns,
its states canonical JSON text (`pbem.serial`).  An immediate order (a 1626 test) changes little of
a state that keeps growing, so its record keeps the change (``state_patch``, `pbem.statediff`) from
the record before it instead of two whole states; every `ACTION_CHECKPOINT`-th record, and any whose
change would be large, keeps its whole state after (a checkpoint), so a state is rebuilt from at most
that many changes (`state_after_json`).  The state before an action is the state after the record before it.

A step's state before is most often the state after the record before it, word for word: the table then keeps
it once (``state_before`` NULL in a step's row, since schema 6), and every read here gives it back (`RecordRows._select`),
so a `StepRecord` says what it said when it was written.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pbem import serial, statediff
from pbem.clock import iso, parse_iso
from pbem.core import Audience, Event, Order
from pbem.dice import Roll
from pbem.store.base import StoreBase, _j
from pbem.store.rows import JournalEntry, SourcedOrders, StepRecord

ACTION_CHECKPOINT = 50
"""An action record keeps its whole state after when its number is a multiple of this."""

_STATES = ("state_before", "state_after", "state_patch", "orders", "rolls", "events", "defaults", "titles", "changed")


# --- the JSON of a record's columns


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "audience": [e.audience.kind, list(e.audience.players)], "data": serial.to_data(e.data)}
            for e in events]


def events_from_json(data: Sequence[Mapping[str, Any]]) -> list[Event]:
    return [Event(d["kind"], Audience(d["audience"][0], tuple(d["audience"][1])), d["data"]) for d in data]


def rolls_json(rolls: Sequence[Roll]) -> list[list[Any]]:
    """``[purpose, low, high, result]``, and ``kind, drawn`` when the roll says what it gave (`Roll`)."""
    return [[r.purpose, r.low, r.high, r.result, *((r.kind, r.drawn) if r.kind else ())] for r in rolls]


def rolls_from_json(data: Sequence[Sequence[Any]]) -> list[Roll]:
    """Rolls as stored (four fields in records written before rolls said what they gave)."""
    return [Roll(d[0], d[1], d[2], d[3], False, *(d[4:6] if len(d) >= 6 else ())) for d in data]


def _orders_json(orders: Sequence[Order]) -> list[list[Any]]:
    return [[o.verb, list(o.args), o.text] for o in orders]


def _sourced_json(kind: str, given: SourcedOrders) -> Any:
    if kind == "action" or given.source is None:  # an immediate order is kept alone, as records older than sources
        return _orders_json(given.orders) if kind == "action" else {"orders": _orders_json(given.orders)}
    out: dict[str, Any] = {"orders": _orders_json(given.orders), "source": given.source, "message": given.message,
                           "received_at": iso(given.received_at) if given.received_at else None}
    if given.lines is not None:
        out["lines"] = list(given.lines)
    if given.applied is not None:
        out["applied"] = list(given.applied)
    return out


def _sourced(value: Any) -> SourcedOrders:
    if isinstance(value, list):
        return SourcedOrders(tuple(Order(v, tuple(a), t) for v, a, t in value))
    received = value.get("received_at")
    return SourcedOrders(
        tuple(Order(v, tuple(a), t) for v, a, t in value["orders"]), value.get("source"), value.get("message"),
        parse_iso(received) if received else None, tuple(value["lines"]) if "lines" in value else None,
        tuple(value["applied"]) if "applied" in value else None)


_BEFORE_KEPT_ONCE = ("case when r.kind = 'step' and r.state_before is null then (select p.state_after from records p "
                     "where p.game = r.game and p.seq < r.seq order by p.seq desc limit 1) else r.state_before end")
"""A row's state before as its record says it: a step's NULL is the state after the record before it."""


def _row(rec: StepRecord, before_kept: bool = False) -> dict[str, Any]:
    """A record as the table keeps it (a step's columns, and an action's three more); ``before_kept``: its state
    before is the state after the record before it, kept there only."""
    row: dict[str, Any] = {
        "game": rec.game, "seq": rec.seq, "kind": rec.kind, "turn": rec.turn, "title": rec.title,
        "dice_context": rec.dice_context, "state_before": None if before_kept else rec.state_before,
        "orders": json.dumps({p: _sourced_json(rec.kind, o) for p, o in rec.orders.items()}, ensure_ascii=False,
                             sort_keys=True),
        "defaults": json.dumps(list(rec.defaults)), "rolls": json.dumps(rolls_json(rec.rolls)),
        "events": json.dumps(events_json(rec.events), ensure_ascii=False),
        "state_after": rec.state_after, "resolved_at": iso(rec.resolved_at), "published": int(rec.published),
        "forum_written": int(rec.forum_written),
    }
    if rec.kind == "action":
        row.update({"state_patch": rec.state_patch, "changed": int(bool(rec.changed)),
                    "titles": json.dumps(dict(rec.titles or {}), ensure_ascii=False, sort_keys=True)})
    return row


def _record(r: Mapping[str, Any]) -> StepRecord:
    titles = r.get("titles")
    changed = r.get("changed")
    return StepRecord(
        game=r["game"], seq=r["seq"], kind=r["kind"], turn=r["turn"], title=r["title"],
        dice_context=r["dice_context"], state_before=r["state_before"],
        orders={p: _sourced(o) for p, o in json.loads(r["orders"]).items()},
        defaults=tuple(json.loads(r["defaults"])), rolls=tuple(rolls_from_json(json.loads(r["rolls"]))),
        events=tuple(events_from_json(json.loads(r["events"]))), state_after=r["state_after"],
        resolved_at=parse_iso(r["resolved_at"]), published=bool(r["published"]),
        forum_written=bool(r["forum_written"]), state_patch=r.get("state_patch"),
        titles=json.loads(titles) if titles else None, changed=None if changed is None else bool(changed))


def _data(r: Mapping[str, Any]) -> dict[str, Any]:
    """A record as JSON-compatible data (its JSON columns decoded), for `pbem export`."""
    def loaded(text: str | None) -> Any:
        return json.loads(text) if text else None

    return {**{k: v for k, v in r.items() if k not in _STATES},
            "orders": json.loads(r["orders"]), "defaults": json.loads(r["defaults"]),
            "rolls": json.loads(r["rolls"]), "events": json.loads(r["events"]),
            "state_before": loaded(r["state_before"]), "state_after": loaded(r["state_after"]),
            **({"state_patch": loaded(r.get("state_patch"))} if r.get("state_patch") else {}),
            **({"titles": loaded(r.get("titles"))} if r.get("titles") else {})}


def state_after_json(records: Sequence[StepRecord], seq: int) -> str:
    """The state after record ``seq``, rebuilt from the last whole state at or before it and the changes since.

    ``records`` are a game's records in order (at least those up to ``seq``).
    """
    chain: list[StepRecord] = []
    for rec in reversed([r for r in records if r.seq <= seq]):
        chain.append(rec)
        if rec.state_after is not None:
            break
    else:
        raise ValueError(f"record {seq}: no whole state to rebuild it from")
    data = json.loads(chain[-1].state_after or "")
    for rec in reversed(chain[:-1]):
        data = statediff.apply(data, json.loads(rec.state_patch or "[]"))
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def same_events(rec: StepRecord, events: Sequence[Event]) -> bool:
    """Do these events say exactly what the record says (its events column, byte for byte)?"""
    return json.dumps(events_json(events), ensure_ascii=False) == json.dumps(events_json(rec.events),
                                                                               ensure_ascii=False)


class RecordRows(StoreBase):
    """Step records (setup, resolved steps, immediate actions) and the MJ's journal."""

    _selected: str | None = None

    def _select(self) -> str:
        """``select <every column> from records r``, a step's state before given back whole (`_BEFORE_KEPT_ONCE`),
        the columns in the table's order (`pbem export` writes them in that order)."""
        if self._selected is None:
            names = [row[1] for row in self.conn.execute("pragma table_info(records)")]
            self._selected = "select " + ", ".join(f"{_BEFORE_KEPT_ONCE} as state_before" if n == "state_before"
                                                   else f"r.{n}" for n in names) + " from records r"
        return self._selected

    def _before_kept(self, rec: StepRecord) -> bool:
        """Is this step's state before the state after the record before it, word for word (then kept there
        only)?  Compared by the database, which keeps that text."""
        if rec.kind != "step" or rec.state_before is None:
            return False
        return self.db.execute("select 1 from records where game = ? and seq = (select max(seq) from records "
                               "where game = ? and seq < ?) and state_after = ?",
                               [rec.game, rec.game, rec.seq, rec.state_before]).fetchone() is not None

    def next_seq(self, game: str) -> int:
        if self._games is not None and game in self._seqs:
            return self._seqs[game]
        row = self.db.execute("select coalesce(max(seq), 0) from records where game = ?", [game]).fetchone()
        seq = int(row[0]) + 1
        if self._games is not None:
            self._seqs[game] = seq
        return seq

    def add_record(self, rec: StepRecord) -> None:
        """Store a setup or a resolved step (`add_action` stores an immediate order)."""
        self._t("records").insert(_row(rec, self._before_kept(rec)))
        self._seqs.pop(rec.game, None)

    def add_action(self, rec: StepRecord, before: Any, after: Any) -> StepRecord:
        """Store an immediate order's record: its change of state from ``before`` (the JSON data of the state
        after the record before it) to ``after`` (the data of ``rec.state_after``), or at a checkpoint its whole
        state after; says whether it changed the game.  Returns it as kept.

        The data of two states that share records share their data (`pbem.serial.Memo`): the difference
        is then found at the cost of what changed (`pbem.statediff`), not of the state."""
        changes = statediff.diff(before, after)
        after = rec.state_after or ""
        patch = json.dumps(changes, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        checkpoint = rec.seq % ACTION_CHECKPOINT == 0 or len(patch) * 2 > len(after)
        kept = dataclasses.replace(rec, state_before=None, state_after=after if checkpoint else None,
                                   state_patch=None if checkpoint else patch, changed=bool(changes),
                                   published=True, forum_written=True)
        self._t("records").insert(_row(kept))
        self._seqs.pop(rec.game, None)
        self._action_states[rec.game] = (rec.seq, after)  # (`save_game` then names this record, not the text)
        return kept

    def state_after_record(self, game_id: str, seq: int) -> str:
        """The state after record ``seq``, from the last record at or before it that keeps a whole state and the
        changes the records after that one keep (`state_after_json`): at most `ACTION_CHECKPOINT` records read."""
        rows = self._q("select state_after, state_patch from records where game = ? and seq <= ? and seq >= "
                       "(select coalesce(max(seq), 0) from records where game = ? and seq <= ? and state_after is not "
                       "null) order by seq", [game_id, seq, game_id, seq])
        if not rows or rows[0]["state_after"] is None:
            raise ValueError(f"record {seq}: no whole state to rebuild it from")
        if len(rows) == 1:
            return str(rows[0]["state_after"])  # (a checkpoint: the text as written)
        data = json.loads(rows[0]["state_after"])
        for r in rows[1:]:
            data = statediff.apply(data, json.loads(r["state_patch"] or "[]"))
        return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def replace_record(self, rec: StepRecord, *, at: datetime, by: str) -> None:
        """A resolved step computed again and published: the record replaced, the one it replaces kept in the journal."""
        old = self._q(self._select() + " where game = ? and seq = ?", [rec.game, rec.seq])
        self.log(rec.game, at, by, "rerun publish", {"turn": rec.turn, "replaced": old[0] if old else None})
        if old and old[0]["state_after"] != rec.state_after:  # the step after it, if it kept its state before
            # here, keeps it whole again (it was computed from the state this one said before)
            self.db.execute("update records set state_before = ? where game = ? and kind = 'step' and state_before "
                            "is null and seq = (select min(seq) from records where game = ? and seq > ?)",
                            [old[0]["state_after"], rec.game, rec.game, rec.seq])
        self._t("records").upsert(_row(rec, self._before_kept(rec)), pk=("game", "seq"))

    def records(self, game: str, kind: str | None = None) -> list[StepRecord]:
        sql = self._select() + " where game = ?"
        args: list[Any] = [game]
        if kind:
            sql += " and kind = ?"
            args.append(kind)
        return [_record(r) for r in self._q(sql + " order by seq", args)]

    def has_records(self, game: str, kind: str) -> bool:
        return self.db.execute("select 1 from records where game = ? and kind = ? limit 1",
                               [game, kind]).fetchone() is not None

    def published_posts(self, game: str) -> int:
        """How many published setups and steps (the forum's posts) a game has, without reading them."""
        row = self.db.execute("select count(*) from records where game = ? and kind != 'action' and published = 1",
                              [game]).fetchone()
        return int(row[0])

    def records_to_post(self, game: str) -> list[StepRecord]:
        """The published setup and steps whose forum files are not written yet."""
        return [_record(r) for r in self._q(self._select() + " where game = ? and kind != 'action' and "
                                            "forum_written = 0 and published = 1 order by seq", [game])]

    def records_data(self, game: str) -> list[dict[str, Any]]:
        """A game's records as JSON-compatible data (`pbem export`)."""
        return [_data(r) for r in self._q(self._select() + " where game = ? order by seq", [game])]

    def record_for_turn(self, game: str, turn: int) -> StepRecord | None:
        rows = self._q(self._select() + " where game = ? and kind = 'step' and turn = ?", [game, turn])
        return _record(rows[0]) if rows else None

    def last_step(self, game: str, turn: int | None = None) -> StepRecord | None:
        """The last resolved step (of that number, if given)."""
        sql = self._select() + " where game = ? and kind = 'step'"
        args: list[Any] = [game]
        if turn is not None:
            sql += " and turn = ?"
            args.append(turn)
        rows = self._q(sql + " order by seq desc limit 1", args)
        return _record(rows[0]) if rows else None

    def step_closed(self, game: str, turn: int) -> tuple[str, datetime] | None:
        """(title, when it closed) of a resolved step, without reading its states."""
        row = self.db.execute("select title, resolved_at from records where game = ? and kind = 'step' and turn = ?",
                              [game, turn]).fetchone()
        return (row[0], parse_iso(row[1])) if row else None

    def record(self, game: str, seq: int) -> StepRecord | None:
        rows = self._q(self._select() + " where game = ? and seq = ?", [game, seq])
        return _record(rows[0]) if rows else None

    def mark_forum_written(self, game: str, seq: int) -> None:
        self.db.execute("update records set forum_written = 1 where game = ? and seq = ?", [game, seq])

    # --- journal ---

    def log(self, game: str, at: datetime, who: str, action: str, detail: Any) -> None:
        self.db.execute("insert into journal (game, at, who, action, detail) values (?, ?, ?, ?, ?)",
                        [game, iso(at), who, action, _j(detail)])

    def journal(self, game: str, action: str | None = None) -> list[JournalEntry]:
        """A game's journal in order (only the entries of one action, if named)."""
        sql, args = "select * from journal where game = ?", [game]
        if action is not None:
            sql, args = sql + " and action = ?", [*args, action]
        return [JournalEntry(r["id"], r["game"], parse_iso(r["at"]), r["who"], r["action"], json.loads(r["detail"]))
                for r in self._q(sql + " order by id", args)]

    def journal_count(self, game: str, action: str) -> int:
        """How many entries of one action a game's journal has, without reading them."""
        row = self.db.execute("select count(*) from journal where game = ? and action = ?", [game, action]).fetchone()
        return int(row[0])

    def journal_data(self, game: str) -> list[dict[str, Any]]:
        """A game's journal as JSON-compatible data (`pbem export`)."""
        return [{**j, "detail": json.loads(j["detail"])}
                for j in self._q("select * from journal where game = ? order by id", [game])]
