"""Figures 2 and 4, IMAP: ingest from Dovecot (`ImapSource.fetch_new` into `Store.store_raw`) beside a bare
batched imapclient fetch, the median of per-round ratios; and the round trips of a poll (new mail on a
new connection, an idle poll).  Uses the mailbox of gm@ on the loopback servers, emptied before and after.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import (
    Options,
    Report,
    in_rounds,
    mail_env,
    median,
    median_ratio,
    rounded,
    skipped_without_servers,
)
from bench.mails import make_order_mails, new_game, pmb_available
from pbem.clock import utcnow
from pbem.store import Store

TARGET = 1.5


def client(env: dict[str, str], user: str) -> Any:
    from imapclient import IMAPClient

    c = IMAPClient(env["MAIL_HOST"], port=int(env["MAIL_IMAP_PORT"]), ssl=False, timeout=60)
    c.login(user, env["MAIL_PASSWORD"])
    return c


def clear(env: dict[str, str], user: str) -> None:
    c = client(env, user)
    try:
        c.select_folder("INBOX")
        uids = c.search(["ALL"])
        if uids:
            c.delete_messages(uids)
            c.expunge()
    finally:
        c.logout()


def run(opts: Options, report: Report) -> None:
    env = mail_env()
    if env is None:
        skipped_without_servers(report, "2 IMAP", "ratio pbem / bare")
        return
    from pbem.mail.inbox import ImapSource

    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        _cfg, store, eng, addresses = new_game(Path(tmp), "pmb" if pmb_available() else "1626")
        mails = make_order_mails(eng, addresses, opts.mails)
        store.close()
    n = len(mails)
    rounds = 1 if opts.quick else 3
    user = f"gm@{env['MAIL_DOMAIN']}"
    report.say(f"\n[2] IMAP ingest of {n} messages from Dovecot ({user}), median of {rounds} rounds' ratios")
    clear(env, user)
    try:
        c = client(env, user)
        try:
            for i in range(0, n, 200):
                c.multiappend("INBOX", mails[i:i + 200])
            c.select_folder("INBOX", readonly=True)
            assert len(c.search(["ALL"])) == n
        finally:
            c.logout()

        def bare() -> float:
            t0 = time.perf_counter()
            cl = client(env, user)
            try:
                cl.select_folder("INBOX", readonly=True)
                uids = sorted(cl.search(["UID", "1:*"]))
                for i in range(0, len(uids), 500):
                    data = cl.fetch(uids[i:i + 500], ["BODY.PEEK[]", "RFC822.SIZE"])
                    assert all(len(v[b"BODY[]"]) > 0 for v in data.values())
                return time.perf_counter() - t0
            finally:
                cl.logout()

        rts: list[tuple[int, int]] = []

        def pbem_fetch() -> float:
            """Seconds for ImapSource.fetch_new storing every message durably (the database is created
            before the clock starts, and the idle poll that follows is counted apart, as the bare loop has
            neither)."""
            tmpdir = Path(tempfile.mkdtemp(prefix="pbem-bench-imap-"))
            st = Store(tmpdir / "db.sqlite")
            src = ImapSource(env["MAIL_HOST"], int(env["MAIL_IMAP_PORT"]), user,
                             password_provider=lambda: env["MAIL_PASSWORD"], ssl=False, cursors=st, batch_size=500)
            try:
                t0 = time.perf_counter()
                def keep(batch: list[Any]) -> None:
                    st.store_raw([(m.key, m.raw) for m in batch], utcnow(),
                                 [m.received for m in batch])

                got = src.fetch_new(keep)
                elapsed = time.perf_counter() - t0
                full = src.last_poll_round_trips
                again = src.fetch_new(lambda batch: None)
                assert again == 0 and got == n
                rts.append((full, src.last_poll_round_trips))
                assert st.message_count() == n
                return elapsed
            finally:
                src.close()
                st.close()
                shutil.rmtree(tmpdir, ignore_errors=True)

        runs = in_rounds(rounds, {"bare": bare, "pbem": pbem_fetch})
        b, p = median(runs["bare"]), median(runs["pbem"])
        ratio = median_ratio(runs["pbem"], runs["bare"])
        report.say(f"    pbem ImapSource+store_raw: {p:.3f} s ({n / p:.0f} msg/s); runs {rounded(runs['pbem'])}")
        report.say(f"    bare imapclient fetch:     {b:.3f} s ({n / b:.0f} msg/s); runs {rounded(runs['bare'])}")
        report.row("2 IMAP", "pbem ImapSource.fetch_new + store_raw", f"{n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg")
        report.row("2 IMAP", "bare imapclient batched fetch", f"{n / b:.0f} msg/s, {b / n * 1000:.3f} ms/msg")
        report.row("2 IMAP", "ratio pbem / bare", f"{ratio:.2f}", f"<= {TARGET:g}", ratio <= TARGET)
        full, idle = rts[-1]
        expected = 3 + 2 + (n + 499) // 500  # greeting, CAPABILITY (imaplib), LOGIN, SELECT, SEARCH, FETCH/500
        report.say(f"    round trips: {full} for {n} new messages (new connection), {idle} for an idle poll")
        report.row("4 IMAP round trips", f"poll with {n} new (new connection)", str(full),
                   f"<= {expected}: greeting CAPA LOGIN SELECT SEARCH {(n + 499) // 500}xFETCH", full <= expected)
        report.row("4 IMAP round trips", "idle poll (connection kept)", str(idle), "<= 1 (SELECT)", idle <= 1)
    finally:
        clear(env, user)
