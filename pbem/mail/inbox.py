"""Sources of raw incoming messages: a local Maildir and an IMAP folder.

This module knows nothing of games or of the database. Persistence comes in as a
`CursorStore`; each batch of messages goes to a `sink` callable that must store it
durably before returning. Only then does a source move its cursor (IMAP) or mark the
messages (Maildir). A crash in between re-delivers the same keys, which the store
drops as duplicates: delivery is at least once, never "at most once".

IMAP: new mail is found by UIDVALIDITY + last seen UID (cursor "uidvalidity:lastuid"),
never by \\Seen, and bodies are fetched with BODY.PEEK[] so the flags the MJ sees in
the same mailbox are left alone.
"""

from __future__ import annotations

import ast
import contextlib
import logging
import mailbox
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import ssl

    from imapclient import IMAPClient

from pbem.mail.secrets import CredentialError, SecretProvider

log = logging.getLogger(__name__)

Sink = Callable[[list["RawMessage"]], None]

# Longest single IDLE before re-issuing it (RFC 2177: servers may drop an IDLE after 30 min).
_IDLE_CHUNK_SECONDS = 25 * 60

HEADER_PEEK_BYTES = 65_536
"""The most of a message `newest_maildir_headers` and `ImapSource.newest_headers` read (its header block)."""


@dataclass(frozen=True)
class RawMessage:
    """One message as stored by its source: `key` is stable and unique within the source."""

    key: str
    raw: bytes
    received: datetime | None = None
    """When the mailbox received it (IMAP INTERNALDATE, Maildir file time), if known: deadlines are judged by it."""


class CursorStore(Protocol):
    def get_cursor(self, source: str) -> str | None: ...
    def set_cursor(self, source: str, value: str) -> None: ...


class MailSource(Protocol):
    name: str

    def fetch_new(self, sink: Sink) -> int: ...
    def after_processed(self, keys: list[str]) -> None: ...
    def wait(self, timeout: float) -> bool: ...
    def close(self) -> None: ...


class MemoryCursorStore:
    """A dict-backed `CursorStore` (tests, dry runs)."""

    def __init__(self, initial: dict[str, str] | None = None) -> None:
        self.cursors: dict[str, str] = dict(initial or {})

    def get_cursor(self, source: str) -> str | None:
        return self.cursors.get(source)

    def set_cursor(self, source: str, value: str) -> None:
        self.cursors[source] = value


class MailSourceError(Exception):
    """The source cannot be read now (server unreachable, folder missing...). Retry later."""


class MailAuthError(MailSourceError):
    """Login refused or credentials unavailable: a configuration problem, retrying will not help."""


def make_ssl_context(cafile: str | None = None) -> ssl.SSLContext:
    import ssl  # TLS is loaded when a connection needs it, for speed (a Maildir set-up never does); no circle

    """A verifying TLS context (system CAs, or only `cafile` when given)."""
    return ssl.create_default_context(cafile=cafile)


def ensure_maildir(path: str | os.PathLike[str]) -> mailbox.Maildir:
    """Open a Maildir, creating tmp/ new/ cur/ as needed (also inside an existing empty directory,
    which `mailbox.Maildir(create=True)` leaves alone)."""
    for sub in ("tmp", "new", "cur"):
        os.makedirs(os.path.join(path, sub), exist_ok=True)
    return mailbox.Maildir(path, create=False)


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# --------------------------------------------------------------------------- Maildir


class MaildirSource:
    """Messages of a local Maildir (the embedded default inbox `data/mail/inbox`).

    Pending = every file in new/, plus files in cur/ that sort after the cursor
    (mtime, then unique name): flags are not used to find new mail. After `sink`
    returns, each message is moved new/ -> cur/ with the S flag. With `processed_folder`
    (a Maildir++ folder name, or an absolute path to another Maildir),
    `after_processed` then moves it there.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        cursors: CursorStore,
        processed_folder: str | None = None,
        batch_size: int = 500,
        poll_interval: float = 0.2,
    ) -> None:
        self.path = Path(path)
        self.name = f"maildir:{self.path}"
        self.cursors = cursors
        self.processed_folder = processed_folder
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        self.box = ensure_maildir(self.path)

    # a sort position "mtime_ns:unique-name": compares correctly once zero-padded
    @staticmethod
    def _position(mtime_ns: int, key: str) -> str:
        return f"{mtime_ns:020d}:{key}"

    def _key(self, unique: str) -> str:
        return f"maildir:{self.path}:{unique}"

    def _pending(self) -> list[tuple[str, str, str]]:
        """(position, subdir, filename) of pending messages, sorted."""
        cursor = self.cursors.get_cursor(self.name)
        found: list[tuple[str, str, str]] = []
        for sub in ("new", "cur"):
            try:
                entries = list(os.scandir(self.path / sub))
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.name.startswith(".") or not entry.is_file():
                    continue
                try:
                    mtime = entry.stat().st_mtime_ns
                except FileNotFoundError:  # moved away meanwhile
                    continue
                pos = self._position(mtime, entry.name.split(":", 1)[0])
                if sub == "new" or cursor is None or pos > cursor:
                    found.append((pos, sub, entry.name))
        found.sort()
        return found

    def fetch_new(self, sink: Sink) -> int:
        pending = self._pending()
        count = 0
        for i in range(0, len(pending), self.batch_size):
            part = pending[i : i + self.batch_size]
            batch: list[RawMessage] = []
            kept: list[tuple[str, str, str]] = []
            for pos, sub, fname in part:
                try:
                    path = self.path / sub / fname
                    raw = path.read_bytes()
                    received = datetime.fromtimestamp(path.stat().st_mtime, UTC)
                except FileNotFoundError:
                    continue
                batch.append(RawMessage(self._key(fname.split(":", 1)[0]), raw, received))
                kept.append((pos, sub, fname))
            if not batch:
                continue
            sink(batch)  # stored durably from here on
            for _pos, sub, fname in kept:
                if sub == "new":
                    self._mark_seen(fname)
            top = kept[-1][0]
            old = self.cursors.get_cursor(self.name)
            if old is None or top > old:
                self.cursors.set_cursor(self.name, top)
            count += len(batch)
        return count

    def _mark_seen(self, fname: str) -> None:
        unique = fname.split(":", 1)[0]
        with contextlib.suppress(FileNotFoundError):
            os.rename(self.path / "new" / fname, self.path / "cur" / f"{unique}:2,S")

    def _processed_path(self) -> Path:
        assert self.processed_folder is not None
        if os.path.isabs(self.processed_folder):
            target = Path(self.processed_folder)
        else:
            target = self.path / f".{self.processed_folder}"
        ensure_maildir(target)
        return target

    def after_processed(self, keys: list[str]) -> None:
        if not self.processed_folder or not keys:
            return
        wanted = {k.rsplit(":", 1)[1] for k in keys if k.startswith(self.name + ":")}
        if not wanted:
            return
        target = self._processed_path()
        for sub in ("cur", "new"):
            try:
                names = os.listdir(self.path / sub)
            except FileNotFoundError:
                continue
            for fname in names:
                unique = fname.split(":", 1)[0]
                if unique in wanted:
                    dest = target / "cur" / (fname if sub == "cur" else f"{unique}:2,S")
                    with contextlib.suppress(FileNotFoundError):
                        os.rename(self.path / sub / fname, dest)

    def wait(self, timeout: float) -> bool:
        """Poll new/ until something is there or `timeout` passes."""
        end = time.monotonic() + timeout
        new = self.path / "new"
        while True:
            try:
                if any(not n.startswith(".") for n in os.listdir(new)):
                    return True
            except FileNotFoundError:
                pass
            left = end - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(self.poll_interval, left))

    def close(self) -> None:
        pass


def newest_maildir_headers(path: str | os.PathLike[str], count: int, processed_folder: str | None = None,
                           max_bytes: int = HEADER_PEEK_BYTES) -> list[bytes]:
    """The header blocks of the ``count`` newest messages of a Maildir and its processed folder, newest first.

    Only reads (for `pbem doctor`): nothing is created, marked or moved.
    """
    roots = [Path(path)]
    if processed_folder:
        roots.append(Path(processed_folder) if os.path.isabs(processed_folder) else Path(path) / f".{processed_folder}")
    found: list[tuple[int, str]] = []
    for root in roots:
        for sub in ("new", "cur"):
            try:
                entries = list(os.scandir(root / sub))
            except (FileNotFoundError, NotADirectoryError):
                continue
            for entry in entries:
                if entry.name.startswith(".") or not entry.is_file():
                    continue
                with contextlib.suppress(FileNotFoundError):
                    found.append((entry.stat().st_mtime_ns, entry.path))
    found.sort(reverse=True)
    blocks: list[bytes] = []
    for _mtime, file in found[:count]:
        try:
            with open(file, "rb") as f:
                blocks.append(_header_block(f.read(max_bytes)))
        except OSError:
            continue
    return blocks


def _header_block(data: bytes) -> bytes:
    """A message's first bytes up to the blank line that ends its header (all of them without one)."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := data.find(sep)) >= 0]
    return data[: min(ends)] if ends else data


# --------------------------------------------------------------------------- IMAP

# IMAP and TLS (imaplib, imapclient, ssl) are loaded when an `ImapSource` first needs them, for speed: a
# cron's pass on a Maildir set-up never does, and they cost more than the rest of its start (issue #24).
# No circle is dodged: they are the standard library and a third-party package.


def _imap_error() -> type[Exception]:
    """The IMAP protocol's error (``imaplib.IMAP4.error``, the base of every imapclient exception)."""
    import imaplib

    return imaplib.IMAP4.error


def _imap_errors() -> tuple[type[BaseException], ...]:
    """Errors meaning "the connection or server is in trouble" (imaplib.IMAP4.error covers every
    imapclient exception, abort included; OSError covers sockets, timeouts and TLS)."""
    return (OSError, _imap_error(), EOFError)


def _certificate_refused(e: BaseException) -> bool:
    import ssl

    return isinstance(e, ssl.SSLCertVerificationError)


class ImapSource:
    """New messages of one IMAP folder, fetched in batches by UID."""

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password_provider: SecretProvider | None = None,
        folder: str = "INBOX",
        ssl: bool = True,
        starttls: bool = False,
        ssl_context: ssl.SSLContext | None = None,
        oauth2_token_provider: SecretProvider | None = None,
        *,
        cursors: CursorStore,
        processed_folder: str | None = None,
        batch_size: int = 500,
        timeout: float = 30,
        cafile: str | None = None,
    ) -> None:
        if password_provider is None and oauth2_token_provider is None:
            raise ValueError("ImapSource needs a password_provider or an oauth2_token_provider")
        if ssl and starttls:
            raise ValueError("choose ssl (implicit TLS) or starttls, not both")
        self.host, self.port, self.user, self.folder = host, port, user, folder
        self.password_provider = password_provider
        self.oauth2_token_provider = oauth2_token_provider
        self.use_ssl, self.starttls = ssl, starttls
        self.ssl_context = ssl_context
        self.cafile = cafile
        self.cursors = cursors
        self.processed_folder = processed_folder
        self.batch_size = batch_size
        self.timeout = timeout
        self.name = f"imap:{user}@{host}/{folder}"
        self.last_poll_round_trips = 0
        self.connections_opened = 0
        self._client: IMAPClient | None = None
        self._uidvalidity: int | None = None
        self._processed_ready = False
        self._rt_manual = 0

    # ---- connection

    def _where(self) -> str:
        return f"{self.user}@{self.host}:{self.port}"

    def _context(self) -> ssl.SSLContext:
        return self.ssl_context or make_ssl_context(self.cafile)

    def _connect(self) -> IMAPClient:
        """Open and log in (raises the underlying errors; callers translate them)."""
        from imapclient import IMAPClient  # (loaded when needed, for speed: see `_imap_errors`)
        from imapclient.exceptions import LoginError

        client = IMAPClient(
            self.host,
            port=self.port,
            ssl=self.use_ssl,
            ssl_context=self._context() if self.use_ssl else None,
            timeout=self.timeout,
        )
        self.connections_opened += 1
        self._rt_manual += 1  # greeting (and TLS handshake)
        try:
            if self.starttls:
                client.starttls(self._context())
            try:
                if self.oauth2_token_provider is not None:
                    client.oauth2_login(self.user, self.oauth2_token_provider())
                else:
                    assert self.password_provider is not None
                    client.login(self.user, self.password_provider())
            except CredentialError as e:
                raise MailAuthError(f"IMAP {self._where()}: no credentials: {e}") from e
            except LoginError as e:
                raise MailAuthError(f"IMAP login refused for {self._where()}: {_text(e)}") from e
            # keep the CAPABILITY list sent with the LOGIN reply (SELECT would discard it,
            # costing a CAPABILITY round trip later)
            client.capabilities()
        except BaseException:
            _quiet_shutdown(client)
            raise
        return client

    def _tag_count(self) -> int:
        imap = getattr(self._client, "_imap", None)
        n = getattr(imap, "tagnum", None)
        return n if isinstance(n, int) else 0

    def _drop(self) -> None:
        if self._client is not None:
            _quiet_shutdown(self._client)
        self._client = None
        self._processed_ready = False

    def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(*_imap_errors()):
                self._client.logout()
        self._drop()

    def _error(self, what: str, e: BaseException) -> MailSourceError:
        self._drop()
        if isinstance(e, MailSourceError):
            return e
        if _certificate_refused(e):
            return MailAuthError(f"IMAP {self._where()}: TLS certificate rejected: {e}")
        return MailSourceError(f"IMAP {self._where()} {what} failed: {type(e).__name__}: {_text(e)}")

    def _select(self) -> dict[bytes, Any]:
        """Connect if needed and (re)select the folder. A stale reused connection is
        reopened once. Read-only unless messages must be moved."""
        readonly = self.processed_folder is None
        for attempt in (0, 1):
            fresh = self._client is None
            try:
                if self._client is None:
                    self._client = self._connect()
                return self._client.select_folder(self.folder, readonly=readonly)
            except MailAuthError:
                self._drop()
                raise
            except _imap_errors() as e:
                if fresh or attempt == 1 or _certificate_refused(e):
                    raise self._error(f"select {self.folder!r}", e) from e
                log.info("IMAP %s: connection lost (%s), reconnecting", self._where(), e)
                self._drop()
        raise AssertionError("unreachable")

    # ---- cursor

    def _read_cursor(self, uidvalidity: int) -> tuple[int, bool]:
        """(last seen uid, whether the stored cursor belonged to another UIDVALIDITY)."""
        value = self.cursors.get_cursor(self.name)
        if not value:
            return 0, False
        try:
            uv_s, last_s = value.split(":", 1)
            uv, last = int(uv_s), int(last_s)
        except ValueError:
            log.warning("IMAP %s: unreadable cursor %r, rescanning the folder", self.name, value)
            return 0, True
        if uv != uidvalidity:
            log.warning(
                "IMAP %s: UIDVALIDITY changed %s -> %s, rescanning the folder from UID 1",
                self.name,
                uv,
                uidvalidity,
            )
            return 0, True
        return last, False

    def key_for(self, uidvalidity: int, uid: int) -> str:
        return f"{self.name}:{uidvalidity}:{uid}"

    # ---- polling

    def fetch_new(self, sink: Sink) -> int:
        """Hand every message after the cursor to `sink`, batch by batch; returns how many.
        Round trips: SELECT, then (only when UIDNEXT shows something new) one SEARCH and one
        FETCH per `batch_size` messages, plus the login on a new connection."""
        self._rt_manual = 0
        start_tags = self._tag_count()
        opened_before = self.connections_opened
        try:
            return self._fetch_new(sink)
        finally:
            # tag counter restarts on a new connection: count the last one in full then
            tags = self._tag_count() - (start_tags if self.connections_opened == opened_before else 0)
            self.last_poll_round_trips = tags + self._rt_manual

    def _fetch_new(self, sink: Sink) -> int:
        info = self._select()
        client = self._client
        assert client is not None
        uidvalidity = int(info[b"UIDVALIDITY"])
        self._uidvalidity = uidvalidity
        last, reset = self._read_cursor(uidvalidity)
        uidnext = info.get(b"UIDNEXT")
        if uidnext is not None and int(uidnext) <= last + 1:
            return 0
        try:
            found = client.search(["UID", f"{last + 1}:*"])
        except _imap_errors() as e:
            raise self._error("search", e) from e
        uids = sorted(u for u in found if u > last)  # "n:*" always matches the highest UID
        if not uids:
            # nothing after `last` exists, so no UID below the UIDNEXT seen at SELECT is pending
            # (the gap was expunged): move past it so idle polls stay one SELECT
            top = max(last, int(uidnext) - 1) if uidnext is not None else last
            if reset or top != last:
                self.cursors.set_cursor(self.name, f"{uidvalidity}:{top}")
            return 0
        count = 0
        for chunk in _chunks(uids, self.batch_size):
            try:
                data = _fetch_bodies(client, chunk)
                unread = [uid for uid in chunk if uid not in data or data[uid][1] is None]
                if unread:  # a shape the fast reading does not know (or expunged meanwhile): imapclient's parser
                    data.update(_fetch_bodies_slowly(client, unread, data))
            except _imap_errors() as e:
                raise self._error("fetch", e) from e
            batch = [RawMessage(self.key_for(uidvalidity, uid), *data[uid]) for uid in chunk if uid in data]
            if batch:
                sink(batch)  # durably stored once this returns
                count += len(batch)
            self.cursors.set_cursor(self.name, f"{uidvalidity}:{chunk[-1]}")
        return count

    def after_processed(self, keys: list[str]) -> None:
        """Move processed messages to `processed_folder` (no-op when unset)."""
        if not self.processed_folder or not keys:
            return
        prefix = f"{self.name}:"
        by_uv: dict[int, list[int]] = {}
        for k in keys:
            if k.startswith(prefix):
                uv_s, uid_s = k[len(prefix) :].split(":")
                by_uv.setdefault(int(uv_s), []).append(int(uid_s))
        if not by_uv:
            return
        info = self._select()
        client = self._client
        assert client is not None
        uids = sorted(by_uv.get(int(info[b"UIDVALIDITY"]), []))
        if not uids:
            return
        try:
            if not self._processed_ready:
                if not client.folder_exists(self.processed_folder):
                    client.create_folder(self.processed_folder)
                self._processed_ready = True
            for chunk in _chunks(uids, self.batch_size):
                if client.has_capability("MOVE"):
                    client.move(chunk, self.processed_folder)
                else:
                    client.copy(chunk, self.processed_folder)
                    client.delete_messages(chunk, silent=True)
                    if client.has_capability("UIDPLUS"):
                        client.uid_expunge(chunk)
                    else:
                        client.expunge()
        except _imap_errors() as e:
            raise self._error(f"move to {self.processed_folder!r}", e) from e

    def wait(self, timeout: float) -> bool:
        """Block up to `timeout` seconds for new mail: IMAP IDLE when the server has it, else
        sleep. True if something may have arrived (always True after a plain sleep)."""
        info = self._select()
        client = self._client
        assert client is not None
        uidvalidity = int(info[b"UIDVALIDITY"])
        last, reset = self._read_cursor(uidvalidity)
        uidnext = info.get(b"UIDNEXT")
        if reset or uidnext is None or int(uidnext) > last + 1:
            return True  # already something after the cursor
        if not client.has_capability("IDLE"):
            time.sleep(timeout)
            return True
        end = time.monotonic() + timeout
        try:
            while True:
                left = end - time.monotonic()
                if left <= 0:
                    return False
                client.idle()
                try:
                    responses = client.idle_check(timeout=min(left, _IDLE_CHUNK_SECONDS))
                finally:
                    done = client.idle_done()
                responses = list(responses) + list(done[1])
                if any(_is_news(r) for r in responses):
                    return True
                if any(_is_bye(r) for r in responses):
                    raise EOFError("server said BYE during IDLE")
        except _imap_errors() as e:
            raise self._error("idle", e) from e

    def check_login(self) -> None:
        """For `pbem doctor`: connect, log in, open the folder read-only, log out."""
        try:
            client = self._connect()
        except MailSourceError:
            raise
        except _imap_errors() as e:
            if _certificate_refused(e):
                raise MailAuthError(f"IMAP {self._where()}: TLS certificate rejected: {e}") from e
            raise MailSourceError(
                f"IMAP {self._where()} connect failed: {type(e).__name__}: {_text(e)}"
            ) from e
        try:
            client.select_folder(self.folder, readonly=True)
            client.logout()
        except _imap_errors() as e:
            _quiet_shutdown(client)
            raise MailSourceError(f"IMAP {self._where()}: cannot open {self.folder!r}: {_text(e)}") from e

    def newest_headers(self, count: int, max_bytes: int = HEADER_PEEK_BYTES) -> list[bytes]:
        """The header blocks of the ``count`` newest messages (highest UIDs) of the folder, then of the
        processed folder if the folder holds fewer; newest first.

        Only reads (for `pbem doctor`): folders opened with EXAMINE, headers fetched with
        BODY.PEEK, nothing marked or moved.
        """
        try:
            client = self._connect()
        except MailSourceError:
            raise
        except _imap_errors() as e:
            raise MailSourceError(f"IMAP {self._where()} connect failed: {type(e).__name__}: {_text(e)}") from e
        blocks: list[bytes] = []
        try:
            for folder in (self.folder, self.processed_folder):
                if folder is None or len(blocks) >= count:
                    continue
                try:
                    client.select_folder(folder, readonly=True)
                except _imap_error():
                    if folder == self.folder:
                        raise
                    continue  # (no processed folder yet)
                uids = sorted(client.search("ALL"))[len(blocks) - count:]
                fetched = client.fetch(uids, [f"BODY.PEEK[HEADER]<0.{max_bytes}>"]) if uids else {}
                for uid in reversed(uids):
                    item = fetched.get(uid, {})
                    block = next((v for k, v in item.items() if k.startswith(b"BODY[HEADER]")), None)
                    if isinstance(block, (bytes, bytearray)):
                        blocks.append(bytes(block))
            client.logout()
        except _imap_errors() as e:
            _quiet_shutdown(client)
            raise MailSourceError(f"IMAP {self._where()}: cannot read the newest mails: {_text(e)}") from e
        return blocks


_FETCH_UID = re.compile(rb"\bUID (\d+)")
_BODY_LITERAL = re.compile(rb"BODY\[\] \{\d+\}\s*\Z")
_FETCH_DATE = re.compile(rb'INTERNALDATE "(\s?\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)"')
_MONTHS = {m: i for i, m in enumerate(
    [b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov", b"dec"], 1)}


def _fetch_bodies(client: IMAPClient, uids: Sequence[int]) -> dict[int, tuple[bytes, datetime | None]]:
    """``UID FETCH uids (BODY.PEEK[] INTERNALDATE)``: uid -> (raw message, receipt time in UTC).

    One command, sent through imaplib (which reads the message literals) rather than
    `IMAPClient.fetch`, whose pure-Python tokenizer costs more than the network here: the
    response has one fixed shape, read with two regular expressions.  Untagged FETCH lines
    without a body (flag changes by another client) are ignored.
    """
    imap = client._imap
    typ, data = imap.uid("FETCH", ",".join(map(str, uids)), "(BODY.PEEK[] INTERNALDATE)")
    if typ != "OK":
        raise _imap_error()(f"UID FETCH failed: {data!r}"[:300])
    found: dict[int, tuple[bytes, datetime | None]] = {}
    for index, item in enumerate(data):
        if not isinstance(item, tuple) or len(item) != 2:
            continue
        head, literal = item
        if _BODY_LITERAL.search(head) is None:  # the literal is not the message (not asked for)
            continue
        after = data[index + 1] if index + 1 < len(data) and isinstance(data[index + 1], bytes) else b""
        uid = _FETCH_UID.search(head) or _FETCH_UID.search(after)
        if uid is None:
            continue
        found[int(uid.group(1))] = (bytes(literal), _internal_date(_FETCH_DATE.search(head) or
                                                                    _FETCH_DATE.search(after)))
    return found


def _fetch_bodies_slowly(client: IMAPClient, uids: Sequence[int],
                         known: dict[int, tuple[bytes, datetime | None]]) -> dict[int, tuple[bytes, datetime | None]]:
    """`_fetch_bodies` through `IMAPClient.fetch`, for the rare responses it could not read (one more round trip)."""
    found: dict[int, tuple[bytes, datetime | None]] = {}
    for uid, item in client.fetch(uids, ["BODY.PEEK[]", "INTERNALDATE"]).items():
        body = item.get(b"BODY[]")
        raw = bytes(body) if isinstance(body, (bytes, bytearray)) else known.get(uid, (None, None))[0]
        if raw is None:
            continue
        when = item.get(b"INTERNALDATE")
        received = (when if when.tzinfo else when.astimezone()).astimezone(UTC) if isinstance(when, datetime) else None
        found[uid] = (raw, received)
    return found


def _internal_date(match: re.Match[bytes] | None) -> datetime | None:
    """The server's receipt time (an INTERNALDATE matched by `_FETCH_DATE`) as an aware UTC datetime."""
    if match is None:
        return None
    day, month, year, hh, mm, ss, sign, oh, om = match.groups()
    number = _MONTHS.get(month.lower())
    if number is None:
        return None
    offset = timedelta(hours=int(oh), minutes=int(om))
    try:
        local = datetime(int(year), number, int(day), int(hh), int(mm), int(ss),
                         tzinfo=timezone(offset if sign == b"+" else -offset))
    except ValueError:
        return None
    return local.astimezone(UTC)


def _is_news(resp: Any) -> bool:
    return isinstance(resp, tuple) and len(resp) >= 2 and resp[1] in (b"EXISTS", b"RECENT") and resp[0] != 0


def _is_bye(resp: Any) -> bool:
    return isinstance(resp, tuple) and len(resp) >= 1 and resp[0] == b"BYE"


def _text(e: BaseException) -> str:
    msg = str(e)
    if msg.startswith(("b'", 'b"')):  # imaplib stringifies the server's bytes
        with contextlib.suppress(ValueError, SyntaxError, AttributeError):
            msg = ast.literal_eval(msg).decode("utf-8", "replace")
    return msg or type(e).__name__


def _quiet_shutdown(client: IMAPClient) -> None:
    with contextlib.suppress(Exception):
        client.shutdown()
