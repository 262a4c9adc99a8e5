"""Is the database there and sound, and what to tell the MJ when it is not: one line in French (and English).

A database that vanished, came back empty, or was damaged must stop pbem before it reads any mail:
a new empty database would take the inbox in, answer players as strangers, and lose the game.
SQLite alone cannot tell "new" from "lost" (it makes an empty file a new database), so pbem leaves
a marker beside every database it has opened (``<database>.marker``): a database missing or empty
while its marker is there was lost, not never made.  A file that is not SQLite's, or whose pages do
not read (``PRAGMA quick_check``, run on open while the file is small enough for it to be cheap, and
always by `pbem doctor`), is damaged.  The storage refusing to write (a full disk, a read-only file
system, a file pbem may not write) is said in one line too (`storage_error`), never a traceback.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from pbem.msg import Msg, PbemError

HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

QUICK_CHECK_BYTES = 16 * 1024 * 1024
"""Databases up to this size are checked page by page (``PRAGMA quick_check``) each time they are opened:
a few milliseconds.  Larger ones are checked by `pbem doctor` (and any damaged page read later stops pbem
with the same message)."""

MARKER_TEXT = ("pbem a ouvert la base {name} ici. Si elle disparaît ou se retrouve vide alors que ce fichier\n"
               "est là, pbem s'arrête au lieu d'en créer une neuve : restaurez-la d'une sauvegarde, ou effacez\n"
               "ce fichier pour repartir d'une base neuve (toutes les parties recommencent).\n\n"
               "pbem opened the database {name} here. If it goes missing or empty while this file is here, pbem\n"
               "stops instead of making a new one: restore it from a backup, or delete this file to start afresh.\n")


def _nb(text: str) -> str:
    """French typography: a non-breaking space before « : ; ! ? », inside « ».  (Only our own text: paths and
    SQLite's words never hold these.)"""
    return (text.replace(" :", "\u00a0:").replace(" ;", "\u00a0;").replace(" ?", "\u00a0?")
            .replace("« ", "«\u00a0").replace(" »", "\u00a0»"))


def _msg(fr: str, en: str) -> Msg:
    return Msg(_nb(fr), en)


class StoreError(PbemError):
    """The database cannot be used: ``kind`` is ``lost``, ``damaged``, ``newer``, ``full``, ``readonly``,
    ``io`` or ``busy``; ``msg`` says what happened and what to do."""

    def __init__(self, kind: str, msg: Msg):
        super().__init__(msg)
        self.kind = kind

    @property
    def stops(self) -> bool:
        """Must pbem stop (the data is lost or damaged), rather than try again at the next pass?"""
        return self.kind in ("lost", "damaged", "newer")


def marker_path(database: str | os.PathLike[str]) -> Path:
    return Path(f"{os.fspath(database)}.marker")


def check_file(database: str | os.PathLike[str]) -> None:
    """Before SQLite opens ``database``: refuse a database that was lost (missing or empty, with its marker)
    or a file that is not a database at all."""
    path = Path(database)
    marker = marker_path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        size = -1
    if size <= 0 and marker.exists() and not _has_wal(path):
        what = ("a disparu", "is missing") if size < 0 else ("est vide (0 octet)", "is empty (0 bytes)")
        raise StoreError("lost", _msg(
            f"la base {path} {what[0]} alors que pbem l'avait ouverte ({marker} en témoigne) : pbem s'arrête "
            f"sans lire le courrier. Restaurez-la d'une sauvegarde ; pour repartir d'une base neuve (toutes les "
            f"parties recommencent), effacez {marker}",
            f"the database {path} {what[1]} although pbem had opened it ({marker} says so): pbem stops without "
            f"reading mail. Restore it from a backup; to start a new database (every game starts again), delete "
            f"{marker}"))
    if size > 0:
        with open(path, "rb") as f:
            head = f.read(len(HEADER))
        if head != HEADER:
            raise damaged(path, "ce fichier n'est pas une base SQLite", "this file is not an SQLite database")


def _has_wal(path: Path) -> bool:
    """A database whose pages are all still in its write-ahead log (never checkpointed) is not lost."""
    wal = Path(f"{path}-wal")
    try:
        return wal.stat().st_size > 0
    except FileNotFoundError:
        return False


def quick_check(conn: sqlite3.Connection, database: str | os.PathLike[str], *, always: bool = False) -> None:
    """``PRAGMA quick_check`` on an open database (when small enough, or ``always``): damaged, it raises."""
    if not always:
        try:
            if Path(database).stat().st_size > QUICK_CHECK_BYTES:
                return
        except OSError:
            return
    rows = conn.execute("PRAGMA quick_check(5)").fetchall()
    if [r[0] for r in rows] != ["ok"]:
        first = str(rows[0][0]) if rows else "?"
        raise damaged(Path(database), f"pages illisibles ({first})", f"unreadable pages ({first})")


def damaged(path: Path, why_fr: str, why_en: str) -> StoreError:
    return StoreError("damaged", _msg(
        f"la base {path} est endommagée ({why_fr}) : pbem s'arrête sans lire le courrier. Arrêtez le démon, "
        f"restaurez la dernière sauvegarde (ou essayez « sqlite3 {path} .recover ») ; pbem doctor la vérifie",
        f"the database {path} is damaged ({why_en}): pbem stops without reading mail. Stop the daemon, restore "
        f"the last backup (or try « sqlite3 {path} .recover »); pbem doctor checks it"))


def write_marker(database: str | os.PathLike[str]) -> None:
    """Leave the marker beside a database pbem has opened (once; a marker that cannot be written is no error:
    the database itself was written)."""
    marker = marker_path(database)
    if marker.exists():
        return
    try:
        marker.write_text(MARKER_TEXT.format(name=Path(database).name), encoding="utf-8")
    except OSError:
        pass


_FULL = {"SQLITE_FULL"}
_READONLY = {"SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH"}
_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}


def storage_error(error: BaseException, database: str | os.PathLike[str]) -> StoreError | None:
    """The one line for a storage failure (SQLite's or the file system's), None for any other error
    (a bug keeps its traceback).  Works on the codes, not on the wording of the messages."""
    path = Path(database)
    if isinstance(error, StoreError):
        return error
    if isinstance(error, sqlite3.Error):
        name = getattr(error, "sqlite_errorname", "") or ""
        base = "_".join(name.split("_")[:2])  # SQLITE_IOERR_WRITE -> SQLITE_IOERR
        if name in _DAMAGED or base in _DAMAGED:
            return damaged(path, str(error), str(error))
        if name in _FULL:
            return full(path)
        if name in _READONLY or base in _READONLY:
            return readonly(path, str(error))
        if name in _BUSY or base in _BUSY:
            return StoreError("busy", _msg(
                f"la base {path} est occupée par un autre programme depuis trop longtemps : réessayez dans "
                f"un instant",
                f"the database {path} has been busy with another program for too long: try again shortly"))
        if base == "SQLITE_IOERR":
            return StoreError("io", _msg(
                f"erreur d'entrée-sortie sur la base {path} ({error}) : vérifiez le disque, puis relancez",
                f"input/output error on the database {path} ({error}): check the disk, then run again"))
        return None
    if isinstance(error, OSError):
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            return full(Path(error.filename) if error.filename else path)
        if error.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            where = Path(error.filename) if error.filename else path
            return readonly(where, error.strerror or str(error))
    return None


def full(path: Path) -> StoreError:
    return StoreError("full", _msg(
        f"le disque de {path} est plein : rien n'a été perdu (le courrier non traité attend dans la boîte) ; "
        f"libérez de la place, puis relancez",
        f"the disk of {path} is full: nothing was lost (unprocessed mail waits in the mailbox); free some "
        f"space, then run again"))


def readonly(path: Path, why: str) -> StoreError:
    return StoreError("readonly", _msg(
        f"pbem ne peut pas écrire {path} ({why}) : le fichier, son dossier ou le disque est en lecture seule ; "
        f"donnez le droit d'écrire à l'utilisateur qui lance pbem, puis relancez",
        f"pbem cannot write {path} ({why}): the file, its folder or the disk is read-only; let the user who "
        f"runs pbem write there, then run again"))


def inspect(database: str | os.PathLike[str]) -> tuple[bool, Msg]:
    """For `pbem doctor`, writing nothing: is the database lost, damaged, from a newer pbem, or sound (every
    page read)?  (ok, what to say)."""
    path = Path(database)
    try:
        check_file(path)
    except StoreError as e:
        return False, e.msg
    if not path.exists() or path.stat().st_size == 0:
        return True, _msg(f"{path} (sera créée)", f"{path} (will be created)")
    try:
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
        try:
            quick_check(conn, path, always=True)
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except StoreError as e:
        return False, e.msg
    except (sqlite3.Error, OSError) as e:
        problem = storage_error(e, path)
        return False, problem.msg if problem is not None else Msg.both(f"{path}: {e}")
    return True, _msg(f"{path} : intacte (chaque page relue), schéma {version}",
                      f"{path}: sound (every page read), schema {version}")
