"""MaildirTransport and failure classes: no servers needed."""

from __future__ import annotations

import mailbox
import os

import pytest

from pbem.mail.transport import (
    ConfigFailure,
    MaildirTransport,
    PermanentFailure,
    SmtpTransport,
    TemporaryFailure,
    Transport,
)


def test_writes_bytes_exactly_into_new(tmp_path):
    out = tmp_path / "outbox"
    t: Transport = MaildirTransport(out)
    raw = b"From: gm@pbem.test\r\nTo: p01@pbem.test\r\nSubject: =?utf-8?q?R=C3=A9sultats?=\r\n\r\nLigne 1\r\nLigne 2\n"
    t.send(raw, "gm@pbem.test", ["p01@pbem.test"])
    t.send(b"Subject: deux\n\nx\n", "gm@pbem.test", ["p02@pbem.test"])
    t.close()
    names = os.listdir(out / "new")
    assert len(names) == 2 and os.listdir(out / "tmp") == []
    contents = {(out / "new" / n).read_bytes() for n in names}
    assert raw in contents  # nothing prepended, line endings untouched
    box = mailbox.Maildir(out, create=False)
    assert sorted(m["Subject"] for m in box) == ["=?utf-8?q?R=C3=A9sultats?=", "deux"]


def test_no_recipient_and_unwritable(tmp_path):
    t = MaildirTransport(tmp_path / "o")
    with pytest.raises(PermanentFailure):
        t.send(b"x", "a@b", [])
    os.chmod(tmp_path / "o" / "tmp", 0o500)
    try:
        if os.geteuid() == 0:  # root ignores permissions: make tmp/ a file instead
            os.chmod(tmp_path / "o" / "tmp", 0o700)
            os.rmdir(tmp_path / "o" / "tmp")
            (tmp_path / "o" / "tmp").write_bytes(b"")
        with pytest.raises(TemporaryFailure):
            t.send(b"x", "a@b", ["c@d"])
    finally:
        if (tmp_path / "o" / "tmp").is_dir():
            os.chmod(tmp_path / "o" / "tmp", 0o700)


def test_failure_hierarchy_and_arguments():
    assert issubclass(ConfigFailure, PermanentFailure)
    assert not issubclass(TemporaryFailure, PermanentFailure)
    with pytest.raises(ValueError):
        SmtpTransport("127.0.0.1", 25, security="tls")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SmtpTransport("127.0.0.1", 25, password_provider=lambda: "x")
