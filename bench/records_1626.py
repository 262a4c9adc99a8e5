"""How big a 1626 database grows with its tests: N tests by the MJ through the real engine, then the size.

Usage: .venv/bin/python -m bench.records_1626 [N]   (default 500; not one of `make bench`'s figures)

Prints the database file size (after a WAL checkpoint and VACUUM), the bytes the ``records`` table
holds in its state columns, and the size of the current game state.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from pbem import config as configmod
from pbem.engine import Engine
from pbem.folder import DATA
from pbem.store import Store

T0 = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
MJ = "mj@example.org"
PLAYERS = {"Armand": "joueur0@example.org", "Isaac": "joueur1@example.org", "Henri": "joueur2@example.org",
           "Charles": "joueur3@example.org"}
TESTS = ["Escrime AG SR 15", "Vigilance PE SR 17", "Baratin CH SR 12 SECRET", "FO SR 14"]


def mail(sender: str, text: str, n: int) -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "jeu@example.org", "[1626] tests"
    m["Message-ID"] = f"<bench-{n}@example.org>"
    m.set_content(text)
    return m.as_bytes()


def run(n_tests: int, root: Path) -> dict[str, int]:
    cfg = configmod.parse({
        "pbem": {"database": str(root / "db.sqlite"), "address": "jeu@example.org", "forum_dir": str(root / "forum")},
        "mailbox": {"kind": "maildir", "path": str(root / "in")}, "outbox": {"kind": "maildir", "path": str(root / "out")},
        "games": {"gant": {"ruleset": "1626", "tag": "1626", "mj": MJ,
                           "roster": str(DATA / "1626" / "personnages.toml")}}}, root)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    now = T0
    e.new_game("gant", now, seed="5eed" * 16)
    for i, (name, address) in enumerate(PLAYERS.items()):
        raw = mail(address, f"INSCRIPTION {name}", i)
        store.store_raw([(f"reg{i}", raw)], now)
    e.process_pending(now)
    e.start_game("gant", now)
    names = list(PLAYERS)
    done = 0
    k = 100
    while done < n_tests:
        lines = []
        for _ in range(min(25, n_tests - done)):
            lines.append(f"TEST {names[done % len(names)]} {TESTS[done % len(TESTS)]}")
            done += 1
        now += timedelta(minutes=5)
        store.store_raw([(f"mj{k}", mail(MJ, "\n".join(lines), k))], now)
        k += 1
        e.process_pending(now)
    sizes = {
        "records": int(store.db.execute("select count(*) from records").fetchone()[0]),
        "state_bytes": int(store.db.execute(
            "select coalesce(sum(length(state_before)), 0) + coalesce(sum(length(state_after)), 0) from records"
        ).fetchone()[0]),
        "current_state": len(e.game("gant").state or ""),
    }
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.db.execute("VACUUM")
    store.close()
    sizes["db_file"] = (root / "db.sqlite").stat().st_size
    return sizes


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    with tempfile.TemporaryDirectory() as tmp:
        sizes = run(n, Path(tmp))
    print(f"{n} tests: {sizes['records']} records, database {sizes['db_file'] / 1e6:.1f} MB, "
          f"state columns {sizes['state_bytes'] / 1e6:.1f} MB, current state {sizes['current_state'] / 1e3:.1f} kB")


if __name__ == "__main__":
    main()
