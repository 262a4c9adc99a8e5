"""The database lost, damaged, full or read-only: pbem stops (or steps aside) with one line that says what to do,
and never takes the inbox into a new empty database; an old schema is migrated once, even by several processes
opening it at the same moment."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import make_mail, pbem_command, pbem_env, toy_config_toml

from pbem.cli import main
from pbem.store import SCHEMA_VERSION, Store
from pbem.store.health import StoreError, marker_path, storage_error

SCHEMA_DIGESTS = {2: "a3237b22044b7aa2", 3: "678812a866dd4df5", 4: "d1d8ba554e4bde51",
                  5: "27ea569ab2bc29a4", 6: "cf4d18bdc3335989", 7: "8519c97b9a80854e"}
# 3: the MJ's confirmations; 4: mail fingerprints; 5: a state kept by records; 6: a step's state before kept once; 7: nicknames
# (the journal counted by game and action)
"""SCHEMA_VERSION -> the first 16 hex digits of the SHA-256 of a fresh database's schema (its sqlite_master)."""


def _schema_digest(path: Path) -> str:
    con = sqlite3.connect(path)
    rows = con.execute("select type, name, tbl_name, sql from sqlite_master order by type, name").fetchall()
    con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def test_the_schema_version_names_the_schema(tmp_path):
    # a change to the tables without a new SCHEMA_VERSION would leave old databases unmigrated (the version is
    # all that is read on open): bump pbem.store.base.SCHEMA_VERSION and record the new digest here
    Store(tmp_path / "db.sqlite").close()
    assert SCHEMA_VERSION in SCHEMA_DIGESTS, "record the digest of the new schema"
    assert _schema_digest(tmp_path / "db.sqlite") == SCHEMA_DIGESTS[SCHEMA_VERSION]


# --- an old schema, opened by several processes at once


_OLD_SCHEMA = """
    CREATE TABLE [messages] ([key] TEXT PRIMARY KEY, [message_id] TEXT, [received_at] TEXT, [raw] BLOB,
      [size] INTEGER, [status] TEXT, [game] TEXT, [sender] TEXT, [verdict] TEXT, [processed_at] TEXT);
    CREATE TABLE [games] ([id] TEXT PRIMARY KEY, [ruleset] TEXT, [phase] TEXT, [seed] TEXT, [commitment] TEXT,
      [turn] INTEGER, [deadline] TEXT, [early_at] TEXT, [state] TEXT, [reminders_sent] TEXT, [created_at] TEXT,
      [seed_revealed] INTEGER);
    CREATE TABLE [players] ([game] TEXT, [name] TEXT, [address] TEXT, [status] TEXT, [seat] TEXT, [password] TEXT,
      [registered_at] TEXT, PRIMARY KEY ([game], [name]));
    CREATE TABLE [outbox] ([id] TEXT PRIMARY KEY, [game] TEXT, [turn] INTEGER, [kind] TEXT, [rcpt] TEXT,
      [subject] TEXT, [raw] BLOB, [status] TEXT, [attempts] INTEGER, [next_attempt_at] TEXT, [last_error] TEXT,
      [created_at] TEXT, [sent_at] TEXT, [record_seq] INTEGER);
"""


def _old_database(path: Path, messages: int = 2000) -> None:
    con = sqlite3.connect(path)
    con.executescript(_OLD_SCHEMA)
    con.executemany("insert into messages values (?, '', '2026-12-04T20:00:00+00:00', ?, 1, 'new', '', '', '', '')",
                    [(f"k{i:05}", os.urandom(2000)) for i in range(messages)])
    con.execute("insert into players values ('g', 'Arya', 'a@x', 'active', '{}', null, '2026-12-04T20:00:00+00:00')")
    con.commit()
    con.close()


def _open_and_read(path: str, barrier: multiprocessing.synchronize.Barrier, out: multiprocessing.Queue) -> None:
    try:
        barrier.wait(30)
        store = Store(path)
        pending = store.db.execute("select count(*) from messages where status = 'new'").fetchone()[0]
        players = store.players("g")  # reads the columns added by the migration (missed, gender)
        store.close()
        out.put(("ok", pending, [p.name for p in players]))
    except BaseException as e:  # noqa: BLE001 - reported to the test, which fails on it
        out.put(("error", f"{type(e).__name__}: {e}", []))


def _opened_together(path: Path, n: int) -> list[tuple[str, object, list[str]]]:
    """What ``n`` processes that open the store at ``path`` at the same moment read (`_open_and_read`)."""
    ctx = multiprocessing.get_context("fork" if sys.platform != "darwin" else "spawn")
    barrier = ctx.Barrier(n)
    out = ctx.Queue()
    procs = [ctx.Process(target=_open_and_read, args=(str(path), barrier, out)) for _ in range(n)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(60)
    return results


def test_several_processes_opening_an_old_database_at_once_all_find_it_migrated(tmp_path):
    path = tmp_path / "db.sqlite"
    _old_database(path)
    n = 6
    assert _opened_together(path, n) == [("ok", 2000, ["Arya"])] * n
    con = sqlite3.connect(path)
    assert con.execute("pragma user_version").fetchone()[0] == SCHEMA_VERSION
    assert con.execute("select count(*) from message_bytes").fetchone()[0] == 2000  # moved once, not twice
    con.close()


def test_processes_switching_an_old_database_to_wal_together_wait_for_each_other(tmp_path):
    # SQLite refuses at once (no busy_timeout) the WAL switch of two connections holding a shared lock on an
    # old rollback-journal database: without a retry, about one round in two of eight processes lost one
    n = 8
    for round_ in range(6):
        path = tmp_path / f"db{round_}.sqlite"
        _old_database(path, messages=50)
        assert _opened_together(path, n) == [("ok", 50, ["Arya"])] * n, f"round {round_}"


def test_a_database_from_a_newer_pbem_is_refused_not_changed(tmp_path):
    path = tmp_path / "db.sqlite"
    con = sqlite3.connect(path)
    con.execute(f"pragma user_version = {SCHEMA_VERSION + 1}")
    con.close()
    with pytest.raises(StoreError, match="newer pbem") as e:
        Store(path)
    assert e.value.kind == "newer"
    assert sqlite3.connect(path).execute("pragma user_version").fetchone()[0] == SCHEMA_VERSION + 1


# --- lost or damaged: stop before reading any mail


def _folder(tmp_path: Path) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path))
    return cfg


def _pending_mail(tmp_path: Path) -> Path:
    new = tmp_path / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    for d in ("cur", "tmp"):
        (tmp_path / "inbox" / d).mkdir(exist_ok=True)
    mail = new / "1700000000.M1P1.host"
    mail.write_bytes(make_mail("p1@pbem.test", "GUESS 3"))
    return mail


def _tick(cfg: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--config", str(cfg), "tick", "--now", "2026-12-04T20:00"])
    return result.exit_code, result.output


@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_a_lost_database_stops_the_pass_and_the_inbox_is_not_consumed(tmp_path, how):
    cfg = _folder(tmp_path)
    code, out = _tick(cfg)
    assert code == 0, out
    db = tmp_path / "db.sqlite"
    assert marker_path(db).exists()
    for side in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        side.unlink(missing_ok=True)
    if how == "emptied":
        db.write_bytes(b"")
    else:
        db.unlink()
    mail = _pending_mail(tmp_path)
    code, out = _tick(cfg)
    assert code == 1
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in out, out
    assert lines[0].startswith("Erreur\u00a0: la base ") and "Restaurez-la d'une sauvegarde" in lines[0]
    assert ("est vide (0 octet)" if how == "emptied" else "a disparu") in lines[0]
    assert mail.exists()  # still new, unread: not taken into a new database
    assert not db.exists() or db.stat().st_size == 0
    # the MJ who wants a new database deletes the marker, as the line says
    marker_path(db).unlink()
    code, out = _tick(cfg)
    assert code == 0 and not mail.exists(), out


def test_a_file_that_is_no_database_is_refused(tmp_path):
    path = tmp_path / "db.sqlite"
    path.write_bytes(b"these are not the pages you are looking for" * 100)
    with pytest.raises(StoreError, match="not an SQLite database") as e:
        Store(path)
    assert e.value.kind == "damaged"
    assert "endommagée" in e.value.msg.fr and "sqlite3" in e.value.msg.fr


def _damage(path: Path) -> None:
    """Overwrite a database's pages after the first with garbage (its header stays good)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\x5a" * (len(data) - page)
    path.write_bytes(bytes(data))


def _filled_database(path: Path) -> None:
    store = Store(path)
    store.store_raw([(f"k{i}", os.urandom(3000)) for i in range(50)], datetime(2026, 12, 4, 20, 0, tzinfo=UTC))
    store.db.execute("pragma wal_checkpoint(truncate)")
    store.close()


def test_damaged_pages_stop_pbem_with_one_line_and_doctor_says_so(tmp_path):
    cfg = _folder(tmp_path)
    db = tmp_path / "db.sqlite"
    _filled_database(db)
    _damage(db)
    mail = _pending_mail(tmp_path)
    code, out = _tick(cfg)
    assert code == 1 and "Traceback" not in out
    assert out.startswith("Erreur\u00a0: la base ") and "est endommagée" in out, out
    assert mail.exists()
    doctor = CliRunner().invoke(main, ["--config", str(cfg), "doctor"])
    assert doctor.exit_code == 1
    base = [line for line in doctor.output.splitlines() if line.startswith("[") and "] base" in line]
    assert len(base) == 1 and base[0].startswith("[ÉCHEC] base") and "endommagée" in base[0], doctor.output


def test_doctor_checks_a_sound_database_without_writing(tmp_path):
    cfg = _folder(tmp_path)
    db = tmp_path / "db.sqlite"
    _filled_database(db)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir() if p.is_file()}
    doctor = CliRunner().invoke(main, ["--config", str(cfg), "doctor"])
    base = [line for line in doctor.output.splitlines() if "] base" in line]
    assert base and base[0].startswith("[ok] base") and "intacte" in base[0], doctor.output
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir() if p.is_file() and p.name in before} == before


# --- a full disk, a read-only database: one line, no traceback


def test_a_full_disk_is_one_french_line(tmp_path, monkeypatch):
    cfg = _folder(tmp_path)
    assert _tick(cfg)[0] == 0
    real = Store.__init__

    def small(self, *args, **kwargs):  # the disk is full: SQLite may not grow the file by a page more
        real(self, *args, **kwargs)
        pages = self.db.execute("pragma page_count").fetchone()[0]
        self.db.execute(f"pragma max_page_count = {pages}")

    monkeypatch.setattr(Store, "__init__", small)
    mail = _pending_mail(tmp_path)
    for i in range(30):
        mail.with_name(f"17000000{i:02}.M1P1.host").write_bytes(make_mail("p1@pbem.test", "x" * 4000))
    code, out = _tick(cfg)
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 1 and "Traceback" not in out, out
    assert len(lines) == 1 and "est plein" in lines[0] and "libérez de la place" in lines[0], out
    assert mail.exists()  # nothing was stored: the mail waits in the mailbox


def test_a_read_only_database_is_one_french_line(tmp_path, monkeypatch):
    cfg = _folder(tmp_path)
    assert _tick(cfg)[0] == 0
    real = Store.__init__

    def read_only(self, *args, **kwargs):
        real(self, *args, **kwargs)
        self.db.execute("pragma query_only = on")

    monkeypatch.setattr(Store, "__init__", read_only)
    result = CliRunner().invoke(main, ["--config", str(cfg), "game", "new", "toy1", "--now", "2026-12-04T20:00"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert result.output.startswith("Erreur\u00a0: pbem ne peut pas écrire ") and "lecture seule" in result.output


def test_storage_errors_are_told_apart_by_their_codes_and_a_bug_is_not_one(tmp_path):
    con = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError) as missing:
        con.execute("select nope from sqlite_master")
    assert storage_error(missing.value, tmp_path / "db") is None  # a bug keeps its traceback
    assert storage_error(OSError(28, "No space left on device", str(tmp_path / "f")), tmp_path / "db").kind == "full"
    assert storage_error(OSError(30, "Read-only file system"), tmp_path / "db").kind == "readonly"
    assert storage_error(ValueError("x"), tmp_path / "db") is None


def test_the_daemon_stops_on_a_lost_database_with_the_same_line(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, top="poll_seconds = 1"))
    assert _tick(cfg)[0] == 0
    db = tmp_path / "db.sqlite"
    for side in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        side.unlink(missing_ok=True)
    db.write_bytes(b"")
    mail = _pending_mail(tmp_path)
    done = subprocess.run(pbem_command(cfg, "run"), env=pbem_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "Erreur\u00a0: la base " in done.stderr and "est vide (0 octet)" in done.stderr, done.stderr
    assert mail.exists() and db.stat().st_size == 0
