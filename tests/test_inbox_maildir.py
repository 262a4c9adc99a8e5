"""MaildirSource: no servers needed."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from pbem.mail.inbox import (
    MaildirSource,
    MemoryCursorStore,
    RawMessage,
    ensure_maildir,
)
from pbem.mail.secrets import CredentialError, password_from_command, password_from_env


def msg(i: int) -> bytes:
    return (
        f"From: p{i}@pbem.test\r\nSubject: ordre {i}\r\nMessage-ID: <{i}@x>\r\n\r\nESCOUADE {i}\r\n".encode()
    )


def drop(path: Path, i: int, mtime: float | None = None) -> str:
    """Deliver like an MTA: write into tmp/, rename into new/."""
    key = ensure_maildir(path).add(msg(i))
    if mtime is not None:
        os.utime(path / "new" / key, (mtime, mtime))
    return key


class Sink:
    def __init__(self, fail: bool = False) -> None:
        self.batches: list[list[RawMessage]] = []
        self.fail = fail

    def __call__(self, batch: list[RawMessage]) -> None:
        if self.fail:
            raise RuntimeError("database down")
        self.batches.append(batch)

    @property
    def keys(self) -> list[str]:
        return [m.key for b in self.batches for m in b]


def test_fetch_in_mtime_order_marks_seen_and_not_again(tmp_path):
    keys = [drop(tmp_path, i, mtime=1_700_000_000 + (5 - i)) for i in range(5)]  # newest first
    src = MaildirSource(tmp_path, MemoryCursorStore(), None)
    sink = Sink()
    assert src.fetch_new(sink) == 5
    assert sink.keys == [f"maildir:{tmp_path}:{k}" for k in reversed(keys)]
    assert b"ESCOUADE 4" in sink.batches[0][0].raw and sink.batches[0][0].raw == msg(4)
    assert os.listdir(tmp_path / "new") == []
    assert sorted(os.listdir(tmp_path / "cur")) == sorted(f"{k}:2,S" for k in keys)
    assert src.fetch_new(Sink()) == 0
    drop(tmp_path, 9)
    again = Sink()
    assert src.fetch_new(again) == 1 and again.batches[0][0].raw == msg(9)


def test_sink_failure_leaves_messages_for_next_time(tmp_path):
    drop(tmp_path, 1)
    drop(tmp_path, 2)
    cursors = MemoryCursorStore()
    src = MaildirSource(tmp_path, cursors, None)
    with pytest.raises(RuntimeError):
        src.fetch_new(Sink(fail=True))
    assert len(os.listdir(tmp_path / "new")) == 2
    assert cursors.get_cursor(src.name) is None
    sink = Sink()
    assert src.fetch_new(sink) == 2


def test_crash_after_store_before_move_redelivers_same_key(tmp_path, monkeypatch):
    drop(tmp_path, 1)
    src = MaildirSource(tmp_path, MemoryCursorStore(), None)
    first = Sink()
    monkeypatch.setattr(src, "_mark_seen", lambda fname: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        src.fetch_new(first)
    monkeypatch.undo()
    second = Sink()
    assert src.fetch_new(second) == 1
    assert first.keys == second.keys  # same key: the store drops the duplicate


def test_cur_messages_after_cursor_are_read_flags_ignored(tmp_path):
    cursors = MemoryCursorStore()
    src = MaildirSource(tmp_path, cursors, None)
    drop(tmp_path, 1, mtime=1_700_000_000)
    assert src.fetch_new(Sink()) == 1
    # a mail client moved a newer message to cur/ and marked it read before pbem ran
    key = drop(tmp_path, 2, mtime=1_700_000_100)
    os.rename(tmp_path / "new" / key, tmp_path / "cur" / f"{key}:2,S")
    sink = Sink()
    assert src.fetch_new(sink) == 1 and sink.batches[0][0].raw == msg(2)
    assert src.fetch_new(Sink()) == 0
    # restart with the stored cursor: nothing old comes back
    assert MaildirSource(tmp_path, cursors, None).fetch_new(Sink()) == 0


def test_batches(tmp_path):
    for i in range(12):
        drop(tmp_path, i, mtime=1_700_000_000 + i)
    sink = Sink()
    assert MaildirSource(tmp_path, MemoryCursorStore(), None, batch_size=5).fetch_new(sink) == 12
    assert [len(b) for b in sink.batches] == [5, 5, 2]


def test_processed_folder(tmp_path):
    for i in range(3):
        drop(tmp_path, i)
    src = MaildirSource(tmp_path, MemoryCursorStore(), "Processed")
    sink = Sink()
    assert src.fetch_new(sink) == 3
    src.after_processed(sink.keys[:2])
    assert len(os.listdir(tmp_path / "cur")) == 1
    assert len(os.listdir(tmp_path / ".Processed" / "cur")) == 2
    assert src.fetch_new(Sink()) == 0
    other = tmp_path.parent / f"{tmp_path.name}-done"
    src2 = MaildirSource(tmp_path, MemoryCursorStore(), str(other))
    src2.after_processed(sink.keys[2:])
    assert os.listdir(tmp_path / "cur") == [] and len(os.listdir(other / "cur")) == 1


def test_wait(tmp_path):
    src = MaildirSource(tmp_path, MemoryCursorStore(), None, poll_interval=0.05)
    t0 = time.monotonic()
    assert src.wait(0.3) is False
    assert time.monotonic() - t0 >= 0.29
    timer = threading.Timer(0.2, drop, (tmp_path, 1))
    timer.start()
    t0 = time.monotonic()
    assert src.wait(5) is True
    assert time.monotonic() - t0 < 4.5  # woken by the mail, before its 5 s ran out (generous under load)
    timer.join()


def test_password_helpers(monkeypatch):
    monkeypatch.setenv("PBEM_TEST_PW", "s3cret")
    assert password_from_env("PBEM_TEST_PW")() == "s3cret"
    with pytest.raises(CredentialError, match="PBEM_TEST_NOPE"):
        password_from_env("PBEM_TEST_NOPE")()
    assert password_from_command(f"{sys.executable} -c 'print(\"  tok en \")'")() == "tok en"
    with pytest.raises(CredentialError, match="exit code 3: boom"):
        password_from_command(
            f"{sys.executable} -c 'import sys; print(\"boom\", file=sys.stderr); sys.exit(3)'"
        )()
    with pytest.raises(CredentialError, match="not found"):
        password_from_command("/nonexistent/pass-helper show pbem")()
    with pytest.raises(CredentialError, match="printed nothing"):
        password_from_command("true")()
    # no shell: metacharacters are plain arguments
    out = password_from_command("echo $HOME ; rm")()
    assert out == "$HOME ; rm"
