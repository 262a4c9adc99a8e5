"""Wrong passwords as stored: when each one came, by game and address, for the delays and locks of
`pbem.engine.passwords`.  A right password clears its address's count."""

from __future__ import annotations

from datetime import datetime

from pbem.clock import iso, parse_iso
from pbem.store.base import StoreBase


class PasswordTries(StoreBase):
    """Failed password checks, per game and address."""

    def _create(self) -> None:
        super()._create()
        self.db.execute("create table if not exists password_failures "
                        "(game text not null, address text not null, at text not null)")
        self.db.execute("create index if not exists password_failures_by_address "
                        "on password_failures (game, address, at)")

    def password_failures(self, game: str, address: str, since: datetime) -> list[datetime]:
        """When the wrong passwords of ``address`` in ``game`` came since ``since``, oldest first."""
        rows = self.db.execute("select at from password_failures where game = ? and address = ? and at >= ? "
                               "order by at", [game, address, iso(since)]).fetchall()
        return [parse_iso(r[0]) for r in rows]

    def add_password_failure(self, game: str, address: str, at: datetime) -> None:
        self.db.execute("insert into password_failures (game, address, at) values (?, ?, ?)",
                        [game, address, iso(at)])

    def clear_password_failures(self, game: str, address: str, before: datetime | None = None) -> None:
        """Forget an address's wrong passwords (a right one came), or only those before ``before`` (old ones)."""
        if before is None:
            self.db.execute("delete from password_failures where game = ? and address = ?", [game, address])
        else:
            self.db.execute("delete from password_failures where game = ? and address = ? and at < ?",
                            [game, address, iso(before)])
