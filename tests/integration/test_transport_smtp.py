"""SmtpTransport against the loopback SMTP sink and Dovecot submission (scripts/mail-test-servers.sh)."""

from __future__ import annotations

import mailbox
import time
import uuid
from collections.abc import Iterator

import pytest

from pbem.mail.transport import ConfigFailure, PermanentFailure, SmtpTransport, TemporaryFailure

pytestmark = pytest.mark.mail


def mail(sender: str, to: str, subject: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{uuid.uuid4().hex}@pbem.test>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nRésultats du tour.\r\n"
    ).encode()


def sink_copies(mail_env, subject_prefix: str) -> list[mailbox.MaildirMessage]:
    box = mailbox.Maildir(mail_env.sink_maildir, create=False)
    return [m for m in box if str(m["Subject"] or "").startswith(subject_prefix)]


def wait_in_inbox(mail_env, user: str, subject: str, timeout: float = 30) -> bool:
    with mail_env.imap(user) as c:
        c.select_folder("INBOX", readonly=True)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if c.search(["SUBJECT", subject]):
                return True
            time.sleep(0.05)
            c.noop()
    return False


@pytest.fixture
def sink(mail_env) -> Iterator[SmtpTransport]:
    t = SmtpTransport(
        mail_env.host, mail_env.smtp_port, security="none", timeout=10, local_hostname="localhost"
    )
    yield t
    t.close()
    mail_env.sink_fail(None)


def test_send_reaches_recipient_over_imap(mail_env, sink):
    subj = f"tour {uuid.uuid4()}"
    gm, p1 = mail_env.addr("gm"), mail_env.addr("player1")
    sink.send(mail(gm, p1, subj), gm, [p1])
    copies = sink_copies(mail_env, subj)
    assert len(copies) == 1 and copies[0]["X-Sink-Rcpt-To"] == p1 and copies[0]["X-Sink-Mail-From"] == gm
    assert wait_in_inbox(mail_env, "player1", subj)


def test_one_connection_for_fifty_sends(mail_env, sink):
    tag = f"bulk {uuid.uuid4()}"
    gm = mail_env.addr("gm")
    t0 = time.perf_counter()
    for i in range(50):
        p = mail_env.addr(f"p{i % 40 + 1:02d}")
        sink.send(mail(gm, p, f"{tag} {i}"), gm, [p])
    elapsed = time.perf_counter() - t0
    assert sink.connections_opened == 1
    copies = sink_copies(mail_env, tag)
    assert len(copies) == 50
    assert len({m["X-Sink-Peer"] for m in copies}) == 1  # the server saw one client connection
    print(f"[timing] 50 sends on one connection: {elapsed:.3f}s")


def test_temporary_failure_451_then_recovers(mail_env, sink):
    gm, p1 = mail_env.addr("gm"), mail_env.addr("player1")
    sink.send(mail(gm, p1, "warm-up"), gm, [p1])
    mail_env.sink_fail("451")
    with pytest.raises(TemporaryFailure) as ei:
        sink.send(mail(gm, p1, "refused"), gm, [p1])
    assert ei.value.code == 451 and ei.value.refused[p1][0] == 451
    assert not isinstance(ei.value, PermanentFailure)
    mail_env.sink_fail("451 data")
    with pytest.raises(TemporaryFailure, match="451"):
        sink.send(mail(gm, p1, "refused"), gm, [p1])
    mail_env.sink_fail(None)
    subj = f"after 451 {uuid.uuid4()}"
    sink.send(mail(gm, p1, subj), gm, [p1])  # the same connection still works
    assert sink.connections_opened == 1
    assert len(sink_copies(mail_env, subj)) == 1


def test_permanent_failure_550(mail_env, sink):
    gm, p1 = mail_env.addr("gm"), mail_env.addr("player1")
    mail_env.sink_fail("550")
    with pytest.raises(PermanentFailure) as ei:
        sink.send(mail(gm, p1, "x"), gm, [p1])
    assert ei.value.code == 550 and not isinstance(ei.value, ConfigFailure)
    mail_env.sink_fail("550 data")
    with pytest.raises(PermanentFailure) as ed:
        sink.send(mail(gm, p1, "x"), gm, [p1])
    assert ed.value.code == 550
    mail_env.sink_fail("554 mail")
    with pytest.raises(PermanentFailure) as em:
        sink.send(mail(gm, p1, "x"), gm, [p1])
    assert em.value.code == 554


def test_server_down_is_temporary(mail_env):
    t = SmtpTransport(mail_env.host, 1, security="none", timeout=5)  # nothing listens on port 1
    with pytest.raises(TemporaryFailure, match="127.0.0.1:1"):
        t.send(b"Subject: x\r\n\r\nx\r\n", "gm@pbem.test", ["player1@pbem.test"])
    with pytest.raises(TemporaryFailure):
        t.check_login()


def test_submission_starttls_and_ssl_with_login(mail_env):
    gm, p2 = mail_env.addr("gm"), mail_env.addr("player2")
    for security, port in (("starttls", mail_env.submission_port), ("ssl", mail_env.submissions_port)):
        t = SmtpTransport(
            mail_env.host,
            port,
            security=security,
            user=gm,
            password_provider=lambda: mail_env.password,
            cafile=mail_env.cafile,
            timeout=10,
        )
        t.check_login()
        subj = f"{security} {uuid.uuid4()}"
        t.send(mail(gm, p2, subj), gm, [p2])
        t.close()
        assert wait_in_inbox(mail_env, "player2", subj)


def test_check_login_failures_are_config_failures(mail_env):
    gm = mail_env.addr("gm")
    wrong = SmtpTransport(
        mail_env.host,
        mail_env.submission_port,
        user=gm,
        password_provider=lambda: "wrong",
        cafile=mail_env.cafile,
        timeout=10,
    )
    with pytest.raises(ConfigFailure, match="login refused"):
        wrong.check_login()
    untrusted = SmtpTransport(
        mail_env.host, mail_env.submissions_port, security="ssl", user=gm, password_provider=lambda: "x"
    )
    with pytest.raises(ConfigFailure, match="certificate"):
        untrusted.check_login()
    no_auth = SmtpTransport(mail_env.host, mail_env.smtp_port, security="starttls", timeout=10)
    with pytest.raises(ConfigFailure, match="STARTTLS|not support"):
        no_auth.check_login()  # the sink offers no STARTTLS


def test_reconnects_after_server_restart(mail_env):
    gm, p3 = mail_env.addr("gm"), mail_env.addr("player3")
    t = SmtpTransport(
        mail_env.host,
        mail_env.submission_port,
        user=gm,
        password_provider=lambda: mail_env.password,
        cafile=mail_env.cafile,
        timeout=10,
    )
    t.send(mail(gm, p3, "before restart"), gm, [p3])
    mail_env.restart_dovecot()
    subj = f"after restart {uuid.uuid4()}"
    t.send(mail(gm, p3, subj), gm, [p3])
    assert t.connections_opened == 2
    t.close()
    assert wait_in_inbox(mail_env, "player3", subj)


def test_xoauth2_submission(mail_env):
    """XOAUTH2 to Dovecot's submission service: a good token sends, a forged one is a configuration failure."""
    gm, p2 = mail_env.addr("gm"), mail_env.addr("player2")

    def transport(token: str) -> SmtpTransport:
        return SmtpTransport(mail_env.host, mail_env.submission_port, security="starttls", user=gm,
                             oauth2_token_provider=lambda: token, cafile=mail_env.cafile, timeout=10)

    good = transport(mail_env.oauth2_token("gm"))
    subj = f"xoauth2 {uuid.uuid4()}"
    good.send(mail(gm, p2, subj), gm, [p2])
    good.close()
    assert wait_in_inbox(mail_env, "player2", subj)
    with pytest.raises(ConfigFailure, match="login refused"):
        transport(mail_env.oauth2_token("gm", forged=True)).check_login()
