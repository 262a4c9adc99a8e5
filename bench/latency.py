"""Figure 8, ack latency: a mail delivered to Dovecot (LMTP) -> its ack in the SMTP sink, with `pbem run`
waiting on IMAP IDLE; and beside it, in the same run, a bare IDLE client (imapclient IDLE, fetch, parse,
an smtplib reply) doing the same trip on another mailbox.

Dovecot holds IDLE notifications for about half a second, so most of the end-to-end figure is the
server's (each mail is delivered once both clients are back in IDLE: `SETTLE`).  What pbem adds is the
median of the per-mail differences, pbem's trip minus the bare client's, the two measured one after the
other for each mail (the order alternating).
"""

from __future__ import annotations

import email
import os
import random
import signal
import smtplib
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import compat32
from email.utils import make_msgid, parseaddr
from pathlib import Path

from bench.harness import (
    ROOT,
    Options,
    Report,
    mail_env,
    median,
    median_difference,
    skipped_without_servers,
    worker_argv,
    worker_env,
)
from bench.imap import clear
from bench.mails import AUTH, MJ_ADDRESS, SEED, order_lines, order_mail
from bench.names import player_names

MEDIAN_TARGET = 1.0
P99_TARGET = 3.0
WAIT = 30.0  # seconds for one ack before the run is given up
SETTLE = 0.25
"""Seconds between an answer and the next delivery, so that both clients are back in IDLE: a mail that
arrives while a client is still busy with the last one is seen without waiting for IDLE (pbem and the
bare client both look for new mail before they idle), which would time the two unequally."""


def config_text(root: Path, env: dict[str, str], game_user: str) -> str:
    return f"""
[pbem]
database = "{root}/db.sqlite"
address = "{game_user}"
forum_dir = "{root}/forum"
poll_seconds = 600
reply_cap_per_hour = 1000000

[mailbox]
kind = "imap"
host = "{env['MAIL_HOST']}"
port = {env['MAIL_IMAP_PORT']}
user = "{game_user}"
password_env = "MAIL_PASSWORD"
security = "none"
idle = true

[outbox]
kind = "smtp"
host = "{env['MAIL_HOST']}"
port = {env['MAIL_SMTP_PORT']}
security = "none"

[games.jeu1]
ruleset = "pmb"
tag = "PMB"
mj = "{MJ_ADDRESS}"
registration = "3d@21:00"
auth = "{AUTH}"
[games.jeu1.deadlines]
turn = "2d@21:00"
"""


def bare_idle_client(user: str) -> None:
    """The floor, run as a worker until it is sent SIGTERM: wait on IMAP IDLE, fetch each new message,
    parse it and answer it by SMTP (one connection kept, as pbem keeps its own)."""
    from imapclient import IMAPClient

    env = mail_env()
    assert env is not None
    imap = IMAPClient(env["MAIL_HOST"], port=int(env["MAIL_IMAP_PORT"]), ssl=False, timeout=60)
    imap.login(user, env["MAIL_PASSWORD"])
    imap.select_folder("INBOX")
    seen = set(imap.search(["ALL"]))
    smtp = smtplib.SMTP(env["MAIL_HOST"], int(env["MAIL_SMTP_PORT"]), timeout=60)
    smtp.ehlo()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("ready", flush=True)
    while True:
        # new mail first, then IDLE: a message delivered while the last was being answered is seen here
        # (its EXISTS came before the IDLE); the folder selected again each time, as pbem's wait does
        # (Dovecot may not notify a session that idles again right after answering)
        imap.select_folder("INBOX")
        new = [uid for uid in imap.search(["ALL"]) if uid not in seen]
        if not new:
            imap.idle()
            imap.idle_check(timeout=30)
            imap.idle_done()
            continue
        for uid, data in imap.fetch(new, ["BODY.PEEK[]"]).items():
            seen.add(uid)
            msg = email.message_from_bytes(data[b"BODY[]"], policy=compat32)
            sender = parseaddr(msg.get("From", ""))[1]
            answer = EmailMessage()
            answer["From"] = user
            answer["To"] = sender
            answer["Subject"] = "Re: " + str(msg.get("Subject", ""))
            answer["In-Reply-To"] = str(msg.get("Message-ID", ""))
            answer["Message-ID"] = make_msgid(domain="pbem.test")
            answer.set_content("Bien reçu.")
            smtp.sendmail(user, [sender], answer.as_bytes())


def trip(env: dict[str, str], sink: Path, seen: set[str], user: str, raw: bytes) -> float:
    """Seconds from the LMTP delivery of ``raw`` to ``user`` to its answer (In-Reply-To) in the sink."""
    mid = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip()
    time.sleep(SETTLE)
    t0 = time.perf_counter()
    with smtplib.LMTP(env["MAIL_HOST"], int(env["MAIL_LMTP_PORT"])) as lmtp:
        lmtp.sendmail("sender@example.org", [user], raw)
    while time.perf_counter() - t0 < WAIT:
        for name in os.listdir(sink):
            if name in seen:
                continue
            seen.add(name)
            try:
                data = (sink / name).read_bytes()
            except OSError:
                continue
            if b"In-Reply-To: " + mid in data:
                return time.perf_counter() - t0
        time.sleep(0.005)
    raise TimeoutError(f"no answer within {WAIT:g} s for {mid!r} sent to {user}")


def first_pass_sent(database: Path, daemon: subprocess.Popen[bytes]) -> None:
    """Wait until pbem run's first pass has sent the game's start mails (nothing queued is left): the
    first delivery must find it done (a fixed wait of 4 s, before, was most of a --quick run's figure)."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=WAIT)
    try:
        end = time.monotonic() + WAIT
        while db.execute("select 1 from outbox where status = 'queued' limit 1").fetchone() is not None:
            if daemon.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"pbem run did not send the start mails within {WAIT:g} s")
            time.sleep(0.02)
    finally:
        db.close()


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def run(opts: Options, report: Report) -> None:
    env = mail_env()
    if env is None:
        skipped_without_servers(report, "8 ack latency", "pbem run on IMAP IDLE")
        return
    from pbem import config as configmod
    from pbem.engine import Engine
    from pbem.store import Store

    n = opts.latency_mails
    report.say(f"\n[8] ack latency over {n} mails: LMTP delivery to Dovecot -> answer in the SMTP sink; pbem run on "
               "IMAP IDLE, and a bare IDLE client on another mailbox, one after the other for each mail")
    sink = Path(env["MAIL_SINK_MAILDIR"]) / "new"
    game_user = f"game@{env['MAIL_DOMAIN']}"
    bare_user = f"player1@{env['MAIL_DOMAIN']}"
    clear(env, game_user)
    clear(env, bare_user)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-lat-") as tmp:
        root = Path(tmp)
        cfg_path = root / "config.toml"
        cfg_path.write_text(config_text(root, env, game_user))
        cfg = configmod.load(cfg_path)
        store = Store(cfg.database)
        eng = Engine(cfg, store)
        now = datetime.now(UTC)
        eng.new_game("jeu1", now - timedelta(minutes=5), seed=SEED)
        names = player_names(40)
        addresses = {nm: f"p{i + 1:02d}@{env['MAIL_DOMAIN']}" for i, nm in enumerate(names)}
        for nm, addr in addresses.items():
            eng.add_player("jeu1", nm, addr, now - timedelta(minutes=5))
        eng.start_game("jeu1", now - timedelta(minutes=4))
        rng = random.Random(8)
        mails = []
        for i in range(n):
            nm = names[i % len(names)]
            mails.append(order_mail(rng, i, nm, addresses[nm], order_lines(eng, nm, rng), "PMB"))
        store.close()
        daemon_log = open(root / "daemon.log", "wb")  # noqa: SIM115 (closed below)
        daemon = subprocess.Popen([sys.executable, "-m", "pbem", "--config", str(cfg_path), "run"], cwd=tmp,
                                  stdout=subprocess.DEVNULL, stderr=daemon_log,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)})
        bare_log = open(root / "bare.log", "wb")  # noqa: SIM115 (closed below)
        bare = subprocess.Popen(worker_argv("bench.latency", "--bare-idle", bare_user), cwd=tmp,
                                stdout=subprocess.PIPE, stderr=bare_log, env=worker_env(ROOT))
        pbem_s: list[float] = []
        bare_s: list[float] = []
        try:
            assert bare.stdout is not None
            if bare.stdout.readline().strip() != b"ready":
                raise RuntimeError("the bare IDLE client did not start")
            first_pass_sent(cfg.database, daemon)
            time.sleep(2 * SETTLE)  # IDLE waiting: its thread started with that pass, which sent 40 mails since
            seen = set(os.listdir(sink))
            for i, raw in enumerate(mails):
                runs: list[tuple[list[float], str, bytes]] = [
                    (pbem_s, game_user, raw), (bare_s, bare_user, raw.replace(b"<bench-", b"<bare-", 1))]
                for out, user, message in (runs if i % 2 == 0 else runs[::-1]):
                    try:
                        out.append(trip(env, sink, seen, user, message))
                    except TimeoutError as e:
                        tail = (root / "daemon.log").read_text(errors="replace")[-3000:]
                        bare_tail = (root / "bare.log").read_text(errors="replace")[-3000:]
                        raise RuntimeError(f"{e}; pbem run said:\n{tail}\nthe bare client said:\n{bare_tail}") from None
        finally:
            stop(daemon)
            stop(bare)
            daemon_log.close()
            bare_log.close()
            clear(env, game_user)
            clear(env, bare_user)
    med, p99 = median(pbem_s), percentile(pbem_s, 0.99)
    bare_med = median(bare_s)
    added = median_difference(pbem_s, bare_s)
    report.say(f"    pbem run: median {med * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {max(pbem_s) * 1000:.0f} ms")
    report.say(f"    bare IDLE client: median {bare_med * 1000:.0f} ms, p99 {percentile(bare_s, 0.99) * 1000:.0f} ms")
    report.say(f"    pbem's own addition (median of per-mail differences): {added * 1000:+.0f} ms")
    report.row("8 ack latency", "median, delivery -> ack (end to end)", f"{med * 1000:.0f} ms",
               f"<= {MEDIAN_TARGET:g} s", med <= MEDIAN_TARGET)
    report.row("8 ack latency", "99th percentile (end to end)", f"{p99 * 1000:.0f} ms", f"<= {P99_TARGET:g} s",
               p99 <= P99_TARGET)
    report.row("8 ack latency", "bare IDLE client, median", f"{bare_med * 1000:.0f} ms", "informational", None)
    report.row("8 ack latency", "pbem's addition over the bare client", f"{added * 1000:+.0f} ms",
               "informational (#24: none)", None)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--bare-idle"]:
        bare_idle_client(sys.argv[2])
