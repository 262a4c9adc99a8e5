"""Smoke tests of the loopback servers started by scripts/mail-test-servers.sh."""

from __future__ import annotations

import mailbox
import smtplib
import ssl
import threading
import time
import uuid
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient
from imapclient.exceptions import LoginError

pytestmark = pytest.mark.mail


def order(sender: str, to: str, subject: str, body: str = "Armée Paris → Bourgogne\n") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, to, subject
    m.set_content(body)
    return m.as_bytes()


def wait_for(c: IMAPClient, subject: str, folder: str = "INBOX", timeout: float = 30) -> list[int]:
    c.select_folder(folder, readonly=True)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        uids = c.search(["SUBJECT", subject])
        if uids:
            return list(uids)
        time.sleep(0.05)
        c.noop()
    return []


def test_all_users_can_log_in(mail_env):
    users = ["gm", "player1", "player4", "game", "p01", "p40"]
    for u in users:
        with mail_env.imap(u) as c:
            st = c.folder_status("INBOX", ["UIDVALIDITY", "UIDNEXT", "MESSAGES"])
            assert st[b"UIDVALIDITY"] > 0 and st[b"UIDNEXT"] >= 1
    with open(mail_env.users_file) as f:
        assert len(f.readlines()) == 46


def test_imaps_with_selfsigned_ca(mail_env):
    ctx = ssl.create_default_context(cafile=mail_env.cafile)
    with IMAPClient(mail_env.host, port=mail_env.imaps_port, ssl=True, ssl_context=ctx, timeout=10) as c:
        assert c.login(mail_env.addr("gm"), mail_env.password)


def test_imaps_without_ca_is_rejected(mail_env):
    with pytest.raises(ssl.SSLCertVerificationError):
        IMAPClient(mail_env.host, port=mail_env.imaps_port, ssl=True, timeout=10)


def test_bad_password_rejected(mail_env):
    # no auth penalty after failures: with Dovecot's, three failures and a login would take 2 + 4 + 8 s at least
    t0 = time.monotonic()
    for _ in range(3):
        c = IMAPClient(mail_env.host, port=mail_env.imap_port, ssl=False, timeout=10)
        with pytest.raises(LoginError):
            c.login(mail_env.addr("gm"), "wrong")
        c.shutdown()
    with mail_env.imap("gm"):
        pass
    assert time.monotonic() - t0 < 10  # a bound the penalty breaks, generous for a loaded machine


def test_lmtp_delivery_lands_in_inbox(mail_env):
    subj = f"lmtp {uuid.uuid4()}"
    mail_env.deliver("gm", order(mail_env.addr("player1"), mail_env.addr("gm"), subj))
    with mail_env.imap("gm") as c:
        assert wait_for(c, subj)


def test_smtp_sink_stores_and_relays_to_dovecot_user(mail_env):
    subj = f"results {uuid.uuid4()}"
    p1 = mail_env.addr("player1")
    with smtplib.SMTP(mail_env.host, mail_env.smtp_port) as s:
        s.sendmail(mail_env.addr("gm"), [p1, "outsider@example.org"], order(mail_env.addr("gm"), p1, subj))
    hits = [m for m in mailbox.Maildir(mail_env.sink_maildir, create=False) if m["Subject"] == subj]
    assert len(hits) == 1
    assert p1 in hits[0]["X-Sink-Rcpt-To"] and "outsider@example.org" in hits[0]["X-Sink-Rcpt-To"]
    assert hits[0]["X-Sink-Peer"].startswith("127.0.0.1:")
    with mail_env.imap("player1") as c:
        assert wait_for(c, subj)


def test_sink_failure_injection(mail_env):
    p1 = mail_env.addr("player1")
    try:
        mail_env.sink_fail("451")
        with smtplib.SMTP(mail_env.host, mail_env.smtp_port) as s:
            with pytest.raises(smtplib.SMTPRecipientsRefused) as ei:
                s.sendmail(mail_env.addr("gm"), [p1], b"Subject: x\r\n\r\nx\r\n")
            assert ei.value.recipients[p1][0] == 451
            mail_env.sink_fail("550 data")
            with pytest.raises(smtplib.SMTPDataError) as ed:
                s.sendmail(mail_env.addr("gm"), [p1], b"Subject: x\r\n\r\nx\r\n")
            assert ed.value.smtp_code == 550
            mail_env.sink_fail(None)
            assert s.sendmail(mail_env.addr("gm"), [p1], b"Subject: x\r\n\r\nx\r\n") == {}
    finally:
        mail_env.sink_fail(None)


def test_submission_requires_auth_then_relays(mail_env):
    subj = f"submission {uuid.uuid4()}"
    p1, gm = mail_env.addr("player1"), mail_env.addr("gm")
    ctx = ssl.create_default_context(cafile=mail_env.cafile)
    with smtplib.SMTP(mail_env.host, mail_env.submission_port) as s:
        s.starttls(context=ctx)
        with pytest.raises(smtplib.SMTPSenderRefused):
            s.sendmail(gm, [p1], order(gm, p1, subj))
        s.login(gm, mail_env.password)
        s.sendmail(gm, [p1], order(gm, p1, subj))
    with mail_env.imap("player1") as c:
        assert wait_for(c, subj)


def test_idle_sees_new_mail(mail_env):
    subj = f"idle {uuid.uuid4()}"
    with mail_env.imap("gm") as w:
        w.select_folder("INBOX")
        w.idle()

        def deliver() -> None:
            time.sleep(0.3)
            mail_env.deliver("gm", order(mail_env.addr("player1"), mail_env.addr("gm"), subj))

        t = threading.Thread(target=deliver)
        t.start()
        t0 = time.monotonic()
        resp = w.idle_check(timeout=20)
        dt = time.monotonic() - t0
        w.idle_done()
        t.join()
        assert any(r[1] == b"EXISTS" for r in resp), resp
        assert dt < 15, dt  # pushed by the server, well before the IDLE wait runs out (generous under load)
