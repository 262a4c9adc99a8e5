"""Figure 3, SMTP sending: `pbem.outbox.send_due` through `SmtpTransport` to the loopback sink, beside a
bare smtplib loop on one connection sending the same bytes; the median of per-round ratios."""

from __future__ import annotations

import random
import shutil
import smtplib
import tempfile
import time
from datetime import timedelta
from pathlib import Path

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
from bench.mails import GAME_ADDRESS, START
from pbem.store import Store

TARGET = 1.2


def run(opts: Options, report: Report) -> None:
    env = mail_env()
    if env is None:
        skipped_without_servers(report, "3 SMTP", "ratio pbem / bare")
        return
    from pbem.mail.transport import SmtpTransport
    from pbem.outbox import Letter, queue, send_due

    n = opts.mails
    rounds = 1 if opts.quick else 3
    report.say(f"\n[3] SMTP sending of {n} queued mails to the loopback sink (port {env['MAIL_SMTP_PORT']}), "
               f"median of {rounds} rounds' ratios")
    rcpt = "x@example.org"
    host, port = env["MAIL_HOST"], int(env["MAIL_SMTP_PORT"])
    rng = random.Random(7)

    def fill() -> tuple[Store, Path]:
        tmpdir = Path(tempfile.mkdtemp(prefix="pbem-bench-smtp-"))
        st = Store(tmpdir / "db.sqlite")
        letters = [Letter(f"ack-bench-{i}", "jeu1", 1, "ack", rcpt, f"[PMB] Re: ordres ({i})",
                          "Bonjour,\n\nVos ordres pour le tour 1 :\n  ESCOUADE Aymeric de Montfort : OK\n"
                          f"  ENQUÊTE Héloïse Lebrun : OK\n\n{rng.randrange(10**6)} erreurs : aucune.\n"
                          "Date limite : vendredi 11 décembre 2026 à 21 h.\n")
                   for i in range(n)]
        with st.atomic():
            queue(st, letters, sender=GAME_ADDRESS, sender_name="Pour Ma Belle", now=START)
        return st, tmpdir

    st, tmpdir = fill()
    raws = [raw for i in st.outbox_items() if (raw := st.outbox_raw(i.id)) is not None]
    st.close()
    shutil.rmtree(tmpdir, ignore_errors=True)

    def bare() -> float:
        t0 = time.perf_counter()
        s = smtplib.SMTP(host, port, timeout=60)
        try:
            s.ehlo()
            for raw in raws:
                s.sendmail(GAME_ADDRESS, [rcpt], raw)
        finally:
            s.quit()
        return time.perf_counter() - t0

    def pbem_send() -> float:
        stx, tmpd = fill()
        tr = SmtpTransport(host, port, security="none")
        try:
            t0 = time.perf_counter()
            total = 0
            while True:
                rep = send_due(stx, tr, sender=GAME_ADDRESS, now=START + timedelta(minutes=1))
                total += rep.sent
                if rep.sent == 0:
                    break
                assert rep.failed == 0 and rep.retrying == 0
            dt = time.perf_counter() - t0
            assert total == n, total
            return dt
        finally:
            tr.close()
            stx.close()
            shutil.rmtree(tmpd, ignore_errors=True)

    runs = in_rounds(rounds, {"bare": bare, "pbem": pbem_send})
    b, p = median(runs["bare"]), median(runs["pbem"])
    ratio = median_ratio(runs["pbem"], runs["bare"])
    report.say(f"    pbem send_due/SmtpTransport: {p:.3f} s ({n / p:.0f} msg/s); runs {rounded(runs['pbem'])}")
    report.say(f"    bare smtplib loop:           {b:.3f} s ({n / b:.0f} msg/s); runs {rounded(runs['bare'])}")
    report.row("3 SMTP", "pbem send_due via SmtpTransport", f"{n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg")
    report.row("3 SMTP", "bare smtplib loop, one connection", f"{n / b:.0f} msg/s, {b / n * 1000:.3f} ms/msg")
    report.row("3 SMTP", "ratio pbem / bare", f"{ratio:.2f}", f"<= {TARGET:g}", ratio <= TARGET)
