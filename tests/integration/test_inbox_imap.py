"""ImapSource against the loopback Dovecot (scripts/mail-test-servers.sh)."""

from __future__ import annotations

import logging
import math
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator

import pytest

from pbem.mail.inbox import (
    ImapSource,
    MailAuthError,
    MailSourceError,
    MemoryCursorStore,
    RawMessage,
)
from pbem.mail.secrets import password_from_command, password_from_env

pytestmark = pytest.mark.mail

USER = "game"


class Collector:
    """A sink that 'stores' batches; can be told to crash at a given batch."""

    def __init__(self, crash_at_batch: int | None = None, store_before_crash: bool = False) -> None:
        self.keys: list[str] = []
        self.batches: list[int] = []
        self.crash_at_batch = crash_at_batch
        self.store_before_crash = store_before_crash

    def __call__(self, batch: list[RawMessage]) -> None:
        if self.crash_at_batch is not None and len(self.batches) + 1 == self.crash_at_batch:
            self.crash_at_batch = None
            if self.store_before_crash:
                self.keys.extend(m.key for m in batch)
            raise RuntimeError("simulated crash in the sink")
        self.batches.append(len(batch))
        self.keys.extend(m.key for m in batch)


def message(i: int, tag: str) -> bytes:
    return (
        f"From: p{i % 40 + 1:02d}@pbem.test\r\nTo: game@pbem.test\r\nSubject: {tag} ordre {i}\r\n"
        f"Message-ID: <{tag}.{i}@pbem.test>\r\n\r\nESCOUADE {i}\r\n"
    ).encode()


def append(mail_env, folder: str, n: int, tag: str = "t", user: str = USER) -> None:
    with mail_env.imap(user) as c:
        for start in range(0, n, 500):
            c.multiappend(folder, [message(i, tag) for i in range(start, min(n, start + 500))])


@pytest.fixture
def folder(mail_env) -> Iterator[str]:
    name = f"pbem-test-{uuid.uuid4().hex[:10]}"
    with mail_env.imap(USER) as c:
        c.create_folder(name)
    yield name
    with mail_env.imap(USER) as c:
        for _f, _d, other in c.list_folders():
            if other.startswith(name):
                c.delete_folder(other)


def source(mail_env, folder: str = "INBOX", cursors=None, user: str = USER, **kw) -> ImapSource:
    kw.setdefault("ssl", False)
    return ImapSource(
        mail_env.host,
        kw.pop("port", mail_env.imap_port),
        mail_env.addr(user),
        kw.pop("password_provider", lambda: mail_env.password),
        folder=folder,
        cursors=cursors if cursors is not None else MemoryCursorStore(),
        **kw,
    )


def uidvalidity(mail_env, folder: str, user: str = USER) -> int:
    with mail_env.imap(user) as c:
        return int(c.folder_status(folder, ["UIDVALIDITY"])[b"UIDVALIDITY"])


def test_batched_fetch_bounded_round_trips_and_no_seen(mail_env, folder):
    append(mail_env, folder, 1200)
    src = source(mail_env, folder, batch_size=500)
    got = Collector()
    assert src.fetch_new(got) == 1200
    fresh_rt = src.last_poll_round_trips  # includes connect + LOGIN
    assert fresh_rt <= 8, fresh_rt
    assert got.batches == [500, 500, 200]
    assert len(set(got.keys)) == 1200
    uv = uidvalidity(mail_env, folder)
    assert got.keys[0] == f"imap:game@pbem.test@127.0.0.1/{folder}:{uv}:1"
    # SELECT + SEARCH + one FETCH per batch on a kept connection: 2 + ceil(n / batch_size)
    append(mail_env, folder, 1200, tag="u")
    assert src.fetch_new(got) == 1200
    assert src.last_poll_round_trips == 2 + math.ceil(1200 / 500) <= 6
    # an idle poll costs one SELECT
    assert src.fetch_new(got) == 0
    assert src.last_poll_round_trips == 1
    with mail_env.imap(USER) as c:
        c.select_folder(folder, readonly=True)
        flags = c.get_flags(c.search(["ALL"]))
    assert len(flags) == 2400
    assert not [u for u, f in flags.items() if b"\\Seen" in f], "fetching must not set \\Seen"
    src.close()


def test_round_trips_do_not_grow_with_message_count(mail_env, folder):
    counts = {}
    for n in (5, 1200):
        src = source(mail_env, folder, batch_size=2000)
        src.fetch_new(Collector())  # connect and set the cursor
        append(mail_env, folder, n, tag=f"n{n}")
        got = Collector()
        assert src.fetch_new(got) == n
        counts[n] = src.last_poll_round_trips
        src.close()
    assert counts[5] == counts[1200] == 3, counts  # SELECT, SEARCH, FETCH


def test_cursor_second_fetch_empty_then_exactly_one(mail_env, folder):
    append(mail_env, folder, 7)
    cursors = MemoryCursorStore()
    src = source(mail_env, folder, cursors)
    assert src.fetch_new(Collector()) == 7
    uv = uidvalidity(mail_env, folder)
    assert cursors.get_cursor(src.name) == f"{uv}:7"
    assert src.fetch_new(Collector()) == 0
    append(mail_env, folder, 1, tag="late")
    got = Collector()
    assert src.fetch_new(got) == 1
    assert got.keys == [f"{src.name}:{uv}:8"]
    src.close()
    # a new source object (daemon restart) with the same stored cursor sees nothing new
    again = source(mail_env, folder, cursors)
    assert again.fetch_new(Collector()) == 0
    again.close()


def test_message_marked_seen_by_the_mj_is_still_fetched(mail_env, folder):
    append(mail_env, folder, 3)
    src = source(mail_env, folder)
    assert src.fetch_new(Collector()) == 3
    append(mail_env, folder, 2, tag="read-by-mj")
    with mail_env.imap(USER) as mj:
        mj.select_folder(folder)
        mj.add_flags(mj.search(["ALL"]), [b"\\Seen"])
    got = Collector()
    assert src.fetch_new(got) == 2
    assert [k.rsplit(":", 1)[1] for k in got.keys] == ["4", "5"]
    src.close()


def test_uidvalidity_change_rescans(mail_env, folder, caplog):
    append(mail_env, folder, 3)
    cursors = MemoryCursorStore()
    src = source(mail_env, folder, cursors)
    first = Collector()
    assert src.fetch_new(first) == 3
    uv1 = uidvalidity(mail_env, folder)
    with mail_env.imap(USER) as c:  # the folder is recreated: UIDs 1..3 again, new UIDVALIDITY
        c.delete_folder(folder)
        c.create_folder(folder)
    append(mail_env, folder, 3, tag="recreated")
    uv2 = uidvalidity(mail_env, folder)
    assert uv2 != uv1
    got = Collector()
    with caplog.at_level(logging.WARNING, logger="pbem.mail.inbox"):
        assert src.fetch_new(got) == 3
    assert "UIDVALIDITY changed" in caplog.text
    assert got.keys == [f"{src.name}:{uv2}:{u}" for u in (1, 2, 3)]
    assert not set(got.keys) & set(first.keys)
    assert cursors.get_cursor(src.name) == f"{uv2}:3"
    src.close()


def test_crash_mid_poll_and_server_restart_lose_nothing(mail_env, folder):
    n = 1200
    append(mail_env, folder, n)
    uv = uidvalidity(mail_env, folder)
    cursors = MemoryCursorStore()
    src = source(mail_env, folder, cursors, batch_size=500)
    # crash before storing the 2nd batch: cursor stays after the 1st
    sink = Collector(crash_at_batch=2)
    with pytest.raises(RuntimeError, match="simulated crash"):
        src.fetch_new(sink)
    assert len(sink.keys) == 500
    assert cursors.get_cursor(src.name) == f"{uv}:500"
    # crash after storing the (new) 2nd batch, before the source moves its cursor
    sink.crash_at_batch, sink.store_before_crash = 1 + len(sink.batches), True
    with pytest.raises(RuntimeError):
        src.fetch_new(sink)
    assert cursors.get_cursor(src.name) == f"{uv}:500"
    mail_env.restart_dovecot()  # the kept connection is now dead
    assert src.fetch_new(sink) == n - 500  # reconnects by itself
    delivered = Counter(sink.keys)
    expected = {f"{src.name}:{uv}:{u}" for u in range(1, n + 1)}
    assert set(delivered) == expected
    twice = {k for k, c in delivered.items() if c > 1}
    assert twice == {f"{src.name}:{uv}:{u}" for u in range(501, 1001)}  # only the stored-then-crashed batch
    assert max(delivered.values()) == 2
    assert cursors.get_cursor(src.name) == f"{uv}:{n}"
    assert src.connections_opened == 2
    src.close()


def test_unreachable_server_raises_and_keeps_cursor(mail_env, folder):
    cursors = MemoryCursorStore({"imap:game@pbem.test@127.0.0.1/" + folder: "1:5"})
    src = source(mail_env, folder, cursors, port=1, timeout=5)  # nothing listens on port 1
    with pytest.raises(MailSourceError, match="127.0.0.1:1"):
        src.fetch_new(Collector())
    assert cursors.get_cursor(src.name) == "1:5"
    missing = source(mail_env, "no-such-folder-here")
    with pytest.raises(MailSourceError, match="no-such-folder-here"):
        missing.fetch_new(Collector())


def test_imaps_with_ca_file(mail_env, folder):
    append(mail_env, folder, 4)
    src = source(mail_env, folder, port=mail_env.imaps_port, ssl=True, cafile=mail_env.cafile)
    src.check_login()
    got = Collector()
    assert src.fetch_new(got) == 4
    src.close()
    untrusted = source(mail_env, folder, port=mail_env.imaps_port, ssl=True)  # system CAs only
    with pytest.raises(MailAuthError, match="certificate"):
        untrusted.fetch_new(Collector())
    with pytest.raises(MailAuthError, match="certificate"):
        untrusted.check_login()


def test_wait_uses_idle_and_wakes_on_delivery(mail_env):
    user = "p02"
    mail_env.clear(user)
    src = source(mail_env, user=user)
    assert src.fetch_new(Collector()) == 0  # empty, but UIDs were used before: cursor moves past them
    assert src.fetch_new(Collector()) == 0 and src.last_poll_round_trips == 1
    t0 = time.monotonic()
    assert src.wait(1.0) is False
    assert 0.9 <= time.monotonic() - t0 < 10  # waited its second (the upper bound generous under load)
    delivered_at: list[float] = []

    def deliver() -> None:
        time.sleep(0.5)
        mail_env.deliver(user, message(1, "idle"))
        delivered_at.append(time.monotonic())

    t = threading.Thread(target=deliver)
    t.start()
    assert src.wait(20) is True
    woke = time.monotonic()
    t.join()
    assert woke - delivered_at[0] < 15  # woken by IDLE, not by the end of its 20 s
    got = Collector()
    assert src.fetch_new(got) == 1
    # mail already waiting after the cursor: wait() returns at once
    mail_env.deliver(user, message(2, "idle"))
    t0 = time.monotonic()
    assert src.wait(20) is True
    assert time.monotonic() - t0 < 15  # at once, not after its 20 s
    src.close()


def test_password_providers_and_wrong_password(mail_env, folder, monkeypatch):
    cmd = f"{sys.executable} -c 'print(\"{mail_env.password}\")'"
    src = source(mail_env, folder, password_provider=password_from_command(cmd))
    src.check_login()
    assert src.fetch_new(Collector()) == 0
    src.close()
    monkeypatch.setenv("PBEM_TEST_IMAP_PW", mail_env.password)
    source(mail_env, folder, password_provider=password_from_env("PBEM_TEST_IMAP_PW")).check_login()

    wrong = source(mail_env, folder, password_provider=lambda: "wrong")
    with pytest.raises(MailAuthError, match="login refused for game@pbem.test@127.0.0.1"):
        wrong.fetch_new(Collector())
    with pytest.raises(MailAuthError, match="login refused"):
        wrong.check_login()
    failing = source(mail_env, folder, password_provider=password_from_command("false"))
    with pytest.raises(MailAuthError, match="'false' failed with exit code 1"):
        failing.fetch_new(Collector())
    unset = source(mail_env, folder, password_provider=password_from_env("PBEM_TEST_UNSET_VAR_XYZ"))
    with pytest.raises(MailAuthError, match="PBEM_TEST_UNSET_VAR_XYZ"):
        unset.check_login()


def test_processed_folder_move(mail_env, folder):
    append(mail_env, folder, 6)
    done = f"{folder}-done"
    src = source(mail_env, folder, processed_folder=done)
    got = Collector()
    assert src.fetch_new(got) == 6
    src.after_processed(got.keys[:4])
    with mail_env.imap(USER) as c:
        assert c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"] == 2
        assert c.folder_status(done, ["MESSAGES"])[b"MESSAGES"] == 4
        c.select_folder(done, readonly=True)
        assert not [f for f in c.get_flags(c.search(["ALL"])).values() if b"\\Seen" in f]
    assert src.fetch_new(Collector()) == 0
    src.after_processed(got.keys[4:] + ["imap:someone-else@x/INBOX:1:1"])
    with mail_env.imap(USER) as c:
        assert c.folder_status(folder, ["MESSAGES"])[b"MESSAGES"] == 0
        assert c.folder_status(done, ["MESSAGES"])[b"MESSAGES"] == 6
    src.close()


def test_bytes_and_receipt_times_come_back_exactly(mail_env, folder):
    """The fetch reads the response itself: every byte of each message, and the INTERNALDATE in UTC.

    (Past dates: Dovecot keeps an APPEND date only if it is not in the future.)
    """
    from datetime import UTC, datetime, timedelta, timezone

    paris = timezone(timedelta(hours=1))
    bodies = {
        datetime(2025, 12, 4, 20, 59, 59, tzinfo=paris): message(1, "date") + b"\xe9t\xe9 =?\r\n{12}\r\n)\r\n",
        datetime(2025, 3, 5, 1, 2, 3, tzinfo=timezone(-timedelta(hours=5))): message(2, "date"),
        datetime(2025, 7, 14, 9, 0, 0, tzinfo=UTC): b"Subject: BODY[] {99}\r\n\r\nUID 77 INTERNALDATE\r\n",
    }
    with mail_env.imap(USER) as c:
        for when, raw in bodies.items():
            c.append(folder, raw, msg_time=when)
        c.select_folder(folder)
        c.add_flags(c.search(["ALL"])[:1], [b"\\Flagged"])  # flags set by the MJ's own client
    got: list[RawMessage] = []
    src = source(mail_env, folder)
    assert src.fetch_new(got.extend) == 3
    src.close()
    assert [m.raw for m in got] == list(bodies.values())
    assert [m.received for m in got] == [when.astimezone(UTC) for when in bodies]


def test_xoauth2_login_through_the_configured_token_command(mail_env, folder, tmp_path):
    """`oauth2_token_command` in config.toml -> XOAUTH2 login to Dovecot; a bad or expired token is refused."""
    from pbem import config as configmod
    from pbem.daemon import open_mailbox

    user = mail_env.addr(USER)
    tokens = {"good": mail_env.oauth2_token(USER), "forged": mail_env.oauth2_token(USER, forged=True),
              "expired": mail_env.oauth2_token(USER, lifetime=-3600)}
    append(mail_env, folder, 3, tag="oauth")

    def source_with(token: str) -> ImapSource:
        (tmp_path / "token").write_text(token + "\n")
        cfg = configmod.parse({
            "pbem": {"database": str(tmp_path / "db.sqlite"), "address": "jeu@pbem.test"},
            "mailbox": {"kind": "imap", "host": mail_env.host, "port": mail_env.imap_port, "user": user,
                        "security": "none", "folder": folder,
                        "oauth2_token_command": f"cat {tmp_path / 'token'}"},
            "outbox": {"kind": "maildir", "path": str(tmp_path / "out")},
            "games": {},
        }, tmp_path)
        src = open_mailbox(cfg, MemoryCursorStore())
        assert isinstance(src, ImapSource)
        return src

    src = source_with(tokens["good"])
    got = Collector()
    assert src.fetch_new(got) == 3
    src.close()
    for name in ("forged", "expired"):
        src = source_with(tokens[name])
        with pytest.raises(MailAuthError):
            src.fetch_new(Collector())
        src.close()
