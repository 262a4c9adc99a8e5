"""The MJ's seat as stored: pauses, players' absences, steps held for approval, seats that change hands.

One class per kind of row, all over the one connection of `pbem.store.base`; each creates its table.
Times are kept as UTC ISO text, like everywhere in the store, and handed out as datetimes.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pbem.clock import iso, parse_iso
from pbem.store.base import StoreBase


@dataclass(frozen=True)
class PauseRow:
    """A pause of a game: from ``starts_at`` to ``ends_at`` (None: until the MJ resumes it)."""

    id: int
    game: str
    starts_at: datetime
    ends_at: datetime | None
    reason: str
    created_at: datetime
    started_at: datetime | None  # when it began (its notice went), None while it is to come
    ended_at: datetime | None  # when it ended (or was called off)
    frozen_from: datetime | None  # the open step's clock is stopped from then (its start, or a step opened during it)
    shifted_turn: int | None  # the step whose deadline this pause moved already (a pause with an end)
    deadline_before: datetime | None  # that deadline before it was moved


@dataclass(frozen=True)
class AbsenceRow:
    """A player's declared absence, from ``starts_at`` to ``ends_at``."""

    id: int
    game: str
    player: str
    starts_at: datetime
    ends_at: datetime
    created_at: datetime
    by: str
    cancelled_at: datetime | None


@dataclass(frozen=True)
class HeldRow:
    """A resolved step whose results wait for the MJ's approval (``publish = "mj"``)."""

    game: str
    seq: int
    turn: int
    held_at: datetime
    reminded_at: datetime | None
    approved_at: datetime | None
    approved_by: str | None
    chronicle: str | None
    # what the resolution's missed steps (NMR) said, for the letters sent at the approval (`publish.resolved`):
    missed: dict[str, int] | None  # steps in a row without orders (None: held before this was kept)
    abandoned_before: tuple[str, ...]  # the players already out of play before the step


@dataclass(frozen=True)
class SeatChangeRow:
    """A player leaving (``remove``) or handing their seat to a newcomer (``replace``) after step ``after_turn``."""

    id: int
    game: str
    player: str
    kind: Literal["remove", "replace"]
    after_turn: int
    new_name: str | None
    new_address: str | None
    old_address: str
    created_at: datetime
    done_at: datetime | None


_TIMES = frozenset({"starts_at", "ends_at", "created_at", "started_at", "ended_at", "frozen_from", "deadline_before",
                    "cancelled_at", "held_at", "reminded_at", "approved_at", "done_at"})


def _row(cls: type, r: Mapping[str, Any]) -> Any:
    return cls(**{f.name: (parse_iso(r[f.name]) if f.name in _TIMES and r[f.name] else r[f.name])
                  for f in dataclasses.fields(cls)})


def _text(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Columns as kept: instants as UTC ISO text."""
    return {k: iso(v) if isinstance(v, datetime) else v for k, v in fields.items()}


def _held(r: Mapping[str, Any]) -> HeldRow:
    news = json.loads(r["news"]) if r.get("news") else {}
    return HeldRow(r["game"], r["seq"], r["turn"], parse_iso(r["held_at"]),
                   parse_iso(r["reminded_at"]) if r["reminded_at"] else None,
                   parse_iso(r["approved_at"]) if r["approved_at"] else None, r["approved_by"], r["chronicle"],
                   news.get("missed"), tuple(news.get("abandoned_before", ())))


class PauseRows(StoreBase):
    """Pauses of games."""

    def _create(self) -> None:
        super()._create()
        if "pauses" not in self.db.table_names():
            self.db.table("pauses").create(
                {"id": int, "game": str, "starts_at": str, "ends_at": str, "reason": str, "created_at": str,
                 "started_at": str, "ended_at": str, "frozen_from": str, "shifted_turn": int,
                 "deadline_before": str}, pk="id")

    def add_pause(self, game: str, starts_at: datetime, ends_at: datetime | None, reason: str,
                  created_at: datetime) -> PauseRow:
        cur = self.db.execute("insert into pauses (game, starts_at, ends_at, reason, created_at) values (?, ?, ?, ?, ?)",
                              [game, iso(starts_at), iso(ends_at) if ends_at else None, reason, iso(created_at)])
        row = self.pause(int(cur.lastrowid or 0))
        assert row is not None
        return row

    def pause(self, pause_id: int) -> PauseRow | None:
        rows = self._q("select * from pauses where id = ?", [pause_id])
        return _row(PauseRow, rows[0]) if rows else None

    def pauses(self, game: str, *, ended: bool = False) -> list[PauseRow]:
        """A game's pauses in order of start; without ``ended``, only those not over yet."""
        sql = "select * from pauses where game = ?" + ("" if ended else " and ended_at is null")
        return [_row(PauseRow, r) for r in self._q(sql + " order by starts_at, id", [game])]

    def update_pause(self, pause_id: int, **fields: Any) -> None:
        self._t("pauses").update(pause_id, _text(fields))


class AbsenceRows(StoreBase):
    """Players' absences."""

    def _create(self) -> None:
        super()._create()
        if "absences" not in self.db.table_names():
            self.db.table("absences").create(
                {"id": int, "game": str, "player": str, "starts_at": str, "ends_at": str, "created_at": str,
                 "by": str, "cancelled_at": str}, pk="id")

    def add_absence(self, game: str, player: str, starts_at: datetime, ends_at: datetime, created_at: datetime,
                    by: str) -> int:
        cur = self.db.execute("insert into absences (game, player, starts_at, ends_at, created_at, by) "
                              "values (?, ?, ?, ?, ?, ?)", [game, player, iso(starts_at), iso(ends_at), iso(created_at),
                                                            by])
        return int(cur.lastrowid or 0)

    def absences(self, game: str, *, player: str | None = None, at: datetime | None = None,
                 after: datetime | None = None) -> list[AbsenceRow]:
        """Absences not called off: of one player, covering the instant ``at``, or ending after ``after``."""
        sql, args = "select * from absences where game = ? and cancelled_at is null", [game]
        if player is not None:
            sql, args = sql + " and player = ?", [*args, player]
        if at is not None:
            sql, args = sql + " and starts_at <= ? and ends_at > ?", [*args, iso(at), iso(at)]
        if after is not None:
            sql, args = sql + " and ends_at > ?", [*args, iso(after)]
        return [_row(AbsenceRow, r) for r in self._q(sql + " order by starts_at, id", args)]

    def cancel_absences(self, game: str, player: str, after: datetime, at: datetime) -> int:
        """Call off a player's absences that are not over at ``after``; how many."""
        cur = self.db.execute("update absences set cancelled_at = ? where game = ? and player = ? and "
                              "cancelled_at is null and ends_at > ?", [iso(at), game, player, iso(after)])
        return int(cur.rowcount)


class HeldRows(StoreBase):
    """Resolved steps held for the MJ's approval, and their chronicle."""

    def _create(self) -> None:
        super()._create()
        if "held" not in self.db.table_names():
            self.db.table("held").create(
                {"game": str, "seq": int, "turn": int, "held_at": str, "reminded_at": str, "approved_at": str,
                 "approved_by": str, "chronicle": str, "news": str}, pk=("game", "seq"))
        elif "news" not in self._t("held").columns_dict:  # databases created before this column
            self._t("held").add_column("news", str)

    def hold(self, game: str, seq: int, turn: int, held_at: datetime, *, missed: Mapping[str, int],
             abandoned_before: Sequence[str]) -> None:
        """A resolved step's results held for the MJ, with what its missed steps said (for the letters sent later)."""
        news = json.dumps({"missed": dict(missed), "abandoned_before": sorted(abandoned_before)})
        self._t("held").insert({"game": game, "seq": seq, "turn": turn, "held_at": iso(held_at), "news": news},
                               replace=True)
        self.db.execute("update records set published = 0 where game = ? and seq = ?", [game, seq])

    def held(self, game: str, *, waiting: bool = True) -> list[HeldRow]:
        """The steps held for approval (without ``waiting``: approved ones too), oldest first."""
        sql = "select * from held where game = ?" + (" and approved_at is null" if waiting else "")
        return [_held(r) for r in self._q(sql + " order by seq", [game])]

    def approve(self, game: str, seq: int, at: datetime, by: str, chronicle: str | None) -> None:
        self._t("held").update((game, seq), {"approved_at": iso(at), "approved_by": by, "chronicle": chronicle})
        self.db.execute("update records set published = 1 where game = ? and seq = ?", [game, seq])

    def save_chronicle(self, game: str, seq: int, text: str) -> None:
        """The MJ's chronicle for a step still held: it heads the forum post when he approves it."""
        self._t("held").update((game, seq), {"chronicle": text or None})

    def mark_reminded(self, game: str, seq: int, at: datetime) -> None:
        self._t("held").update((game, seq), {"reminded_at": iso(at)})

    def chronicle(self, game: str, seq: int) -> str | None:
        """The MJ's chronicle that heads the forum post of a step (written in the approval mail)."""
        row = self.db.execute("select chronicle from held where game = ? and seq = ?", [game, seq]).fetchone()
        return row[0] if row and row[0] else None


class SeatChangeRows(StoreBase):
    """Players leaving or replaced at the end of a step."""

    def _create(self) -> None:
        super()._create()
        if "seat_changes" not in self.db.table_names():
            self.db.table("seat_changes").create(
                {"id": int, "game": str, "player": str, "kind": str, "after_turn": int, "new_name": str,
                 "new_address": str, "old_address": str, "created_at": str, "done_at": str}, pk="id")

    def add_seat_change(self, game: str, player: str, kind: str, after_turn: int, new_name: str | None,
                        new_address: str | None, old_address: str, created_at: datetime,
                        done_at: datetime | None) -> int:
        cur = self.db.execute(
            "insert into seat_changes (game, player, kind, after_turn, new_name, new_address, old_address, created_at, "
            "done_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [game, player, kind, after_turn, new_name, new_address, old_address, iso(created_at),
             iso(done_at) if done_at else None])
        return int(cur.lastrowid or 0)

    def seat_changes(self, game: str, *, pending: bool = True) -> list[SeatChangeRow]:
        sql = "select * from seat_changes where game = ?" + (" and done_at is null" if pending else "")
        return [_row(SeatChangeRow, r) for r in self._q(sql + " order by id", [game])]

    def seat_change_done(self, change_id: int, at: datetime) -> None:
        self._t("seat_changes").update(change_id, {"done_at": iso(at)})

    def played_by(self, game: str, player: str) -> str | None:
        """The name of the newcomer who took this seat last, if it changed hands."""
        row = self.db.execute("select new_name from seat_changes where game = ? and player = ? and kind = 'replace' "
                              "and done_at is not null order by id desc limit 1", [game, player]).fetchone()
        return row[0] if row and row[0] else None
