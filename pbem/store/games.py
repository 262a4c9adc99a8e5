"""Games and their players."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pbem.clock import iso, parse_iso
from pbem.store.base import StoreBase, _j
from pbem.store.rows import GameRow, Phase, PlayerRow, PlayerStatus


def _at(text: str | None) -> datetime | None:
    return parse_iso(text) if text else None


def _text(when: datetime | None) -> str | None:
    return iso(when) if when is not None else None


class GameRows(StoreBase):
    """Games and their players."""

    def add_game(self, row: GameRow) -> None:
        self._forget_game(row.id)
        self._t("games").insert(self._game_dict(row))

    def save_game(self, row: GameRow) -> None:
        """Write a game's row (one UPDATE: sqlite-utils' ``update`` first reads the row back, state and all).

        A state that is the one after the game's last immediate order, as `add_action` just stored it, is not
        written again: the row names that record (``state_from``) and `game` rebuilds the text from it.  A
        1626 session's state grows with every test; its row would otherwise be rewritten whole at each mail."""
        self._forget_game(row.id)
        values = self._game_dict(row)
        kept = self._action_states.get(row.id)
        if kept is not None and row.state is not None and (row.state is kept[1] or row.state == kept[1]):
            values["state"], values["state_from"] = None, kept[0]
        else:
            self._action_states.pop(row.id, None)
        names = [k for k in values if k != "id"]
        cursor = self.db.execute(f"update games set {', '.join(f'{k} = ?' for k in names)} where id = ?",
                                 [*(values[k] for k in names), row.id])
        if cursor.rowcount != 1:
            raise KeyError(f"no game {row.id!r} to save")

    def _forget_game(self, game_id: str) -> None:
        if self._games is not None:
            self._games.pop(game_id, None)

    @staticmethod
    def _game_dict(row: GameRow) -> dict[str, Any]:
        return {
            "id": row.id, "ruleset": row.ruleset, "phase": row.phase.value, "seed": row.seed,
            "commitment": row.commitment, "turn": row.turn, "deadline": _text(row.deadline),
            "early_at": _text(row.early_at), "state": row.state, "reminders_sent": _j(row.reminders_sent),
            "created_at": iso(row.created_at), "seed_revealed": int(row.seed_revealed), "opened_at": _text(row.opened_at),
            "state_from": None,
        }

    def _state_text(self, game_id: str, stored: str | None, state_from: int | None) -> str | None:
        """A game's state: the row's text, or the state after record ``state_from`` (this process's text of it
        when it wrote that record, else rebuilt from the records since the last whole state)."""
        if state_from is None:
            return stored
        kept = self._action_states.get(game_id)
        if kept is not None and kept[0] == state_from:
            return kept[1]
        text = self.state_after_record(game_id, state_from)
        self._action_states[game_id] = (state_from, text)
        return text

    def game(self, game_id: str) -> GameRow | None:
        if self._games is not None and game_id in self._games:
            return self._games[game_id]  # frozen, with a tuple: safe to share
        rows = list(self._q("select * from games where id = ?", [game_id]))
        if not rows:
            return None
        r = rows[0]
        g = GameRow(
            id=r["id"], ruleset=r["ruleset"], phase=Phase(r["phase"]), seed=r["seed"], commitment=r["commitment"],
            turn=r["turn"], deadline=_at(r["deadline"]), early_at=_at(r["early_at"]),
            state=self._state_text(game_id, r["state"], r.get("state_from")),
            reminders_sent=tuple(json.loads(r["reminders_sent"] or "[]")), created_at=parse_iso(r["created_at"]),
            seed_revealed=bool(r["seed_revealed"]), opened_at=_at(r.get("opened_at")),
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
             "seat": _j(row.seat), "password": row.password, "registered_at": iso(row.registered_at),
             "missed": row.missed, "gender": row.gender},
            pk=("game", "name"),
        )

    def players(self, game: str, *, include_removed: bool = False) -> list[PlayerRow]:
        sql = "select * from players where game = ?" + ("" if include_removed else " and status = 'active'")
        # the order of registration; those who joined in the same pass, in the order their mails were read (rowid)
        return [self._player(r) for r in self._q(sql + " order by registered_at, rowid", [game])]

    @staticmethod
    def _player(r: dict[str, Any]) -> PlayerRow:
        return PlayerRow(game=r["game"], name=r["name"], address=r["address"], status=r["status"],
                         seat=json.loads(r["seat"] or "{}"), password=r["password"],
                         registered_at=parse_iso(r["registered_at"]),
                         missed=r.get("missed") or 0, gender=r.get("gender"))

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

    def set_player_status(self, game: str, name: str, status: PlayerStatus) -> None:
        self._by_address.clear()
        self._t("players").update((game, name), {"status": status})

    def set_gender(self, game: str, name: str, gender: str | None) -> None:
        self._t("players").update((game, name), {"gender": gender})

    def set_nicknames(self, game: str, name: str, nicknames: Sequence[str]) -> None:
        """The names the MJ calls a player by (« Littlefinger » for Petit-Doigt); none: forgotten."""
        self._t("players").update((game, name), {"nicknames": "\n".join(nicknames) or None})

    def nicknames(self, game: str) -> dict[str, tuple[str, ...]]:
        """The players the MJ gave nicknames: name -> the nicknames, in the order given."""
        return {r[0]: tuple(r[1].split("\n")) for r in self.db.execute(
            "select name, nicknames from players where game = ? and nicknames is not null", [game])}

    def genders(self, game: str) -> dict[str, str]:
        """The players who gave a gender: name -> ``"f"`` or ``"m"``."""
        return {r[0]: r[1] for r in self.db.execute(
            "select name, gender from players where game = ? and gender is not null", [game])}

    def set_missed(self, game: str, missed: dict[str, int]) -> None:
        """How many steps in a row each of these players was asked and sent nothing."""
        self.db.conn.executemany("update players set missed = ? where game = ? and name = ?",
                                 [(n, game, name) for name, n in missed.items()])

    def players_out_of_play(self, game: str, abandon_after: int) -> set[str]:
        """The players no longer waited for: removed, or silent ``abandon_after`` steps in a row (0: never)."""
        return {r[0] for r in self.db.execute(
            "select name from players where game = ? and (status != 'active' or (? > 0 and missed >= ?))",
            [game, abandon_after, abandon_after])}

    def set_player_address(self, game: str, name: str, address: str) -> None:
        self._by_address.clear()
        self._t("players").update((game, name), {"address": address})

    def set_player_password(self, game: str, name: str, password: str | None) -> None:
        """A seat's password (None: none; with ``passwords = true`` its next mail's password becomes it)."""
        self._by_address.clear()
        self._t("players").update((game, name), {"password": password})
