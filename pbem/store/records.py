"""Step records (setup, resolved steps, immediate actions) and the MJ's journal."""

from __future__ import annotations

from typing import Any

from pbem.store.base import StoreBase, _j


class RecordRows(StoreBase):
    """Step records (setup, resolved steps, immediate actions) and the MJ's journal."""

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

    def step_closed(self, game: str, turn: int) -> tuple[str, str] | None:
        """(title, when it closed) of a resolved step, without reading its states."""
        row = self.db.execute("select title, resolved_at from records where game = ? and kind = 'step' and turn = ?",
                              [game, turn]).fetchone()
        return (row[0], row[1]) if row else None

    def record(self, game: str, seq: int) -> dict[str, Any] | None:
        rows = list(self._q("select * from records where game = ? and seq = ?", [game, seq]))
        return rows[0] if rows else None

    def mark_forum_written(self, game: str, seq: int) -> None:
        self._t("records").update((game, seq), {"forum_written": 1})

    # --- journal ---

    def log(self, game: str, at: str, who: str, action: str, detail: Any) -> None:
        self.db.execute("insert into journal (game, at, who, action, detail) values (?, ?, ?, ?, ?)",
                        [game, at, who, action, _j(detail)])

    def journal(self, game: str) -> list[dict[str, Any]]:
        return list(self._q("select * from journal where game = ? order by id", [game]))
