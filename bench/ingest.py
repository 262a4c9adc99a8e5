"""`make bench`: pbem's throughput figures, each next to a bare baseline measured in the same run.

Prints a table; every figure has its target and says whether it is met.  Nothing here is a
test: the numbers depend on the machine, only the ratios are meant to be compared.

1. durable ingest: raw bytes already stored -> parsed, classified, orders stored, ack queued
   (`Engine.process_pending`) vs the bare floor (`email.message_from_bytes` + walk + decode);
2. IMAP ingest from Dovecot (`ImapSource.fetch_new` into `Store.store_raw`) vs a bare batched
   imapclient fetch;
3. SMTP sending (`pbem.outbox.send_due` through `SmtpTransport`) vs a bare smtplib loop;
4. IMAP round trips per poll (2,000 new messages; an idle poll);
5. daemon idle RSS (`pbem run` on the embedded Maildir default);
6. Pour Ma Belle: time to resolve one turn at 40, 400, 4,000 and 40,000 players, for several bot seeds
   (CPU time of a loaded state, median of rounds in fresh processes, the worst seed judged;
   `scripts/bench_pmb.py`, optionally beside another checkout);
7. a hosting day: 100 games of three rulesets, 4,000 players in one database, one pass ingesting
   8,000 order mails and resolving every due step, compared with the same games each alone;
8. ack latency: mail delivered to Dovecot -> its ack in the SMTP sink, with `pbem run` on IMAP IDLE;
9. hostile input: each reader of untrusted input (`scripts/hostile.py`), its slowest pathological case
   at 100 KB and at 1 MB measured in the same run (their ratio is about 10 when the reader is linear);
12. cold start: an empty-inbox `pbem tick` in a `pbem init` folder vs `python -c 'import email, sqlite3,
   jinja2'`, CPU of the child processes, alternating, median of rounds (`scripts/bench_coldstart.py`);
13. the PNG level of the board pictures: levels 1-9 on the demo games' pictures, CPU and bytes
   (`scripts/bench_png.py`).

Ingest runs with `auth = "dkim"` on mails carrying the headers a receiving provider adds, and is
reported per kind of mail (text only, text + HTML) as well as for the mix; `synchronous=FULL` is
measured in turn with the default.

Sections 2-4 need the loopback servers (`make bench` starts a set of its own:
`bash scripts/mail-test-servers.sh run .venv/bin/python scripts/bench.py …`); they are reported as skipped otherwise.  IMAP uses the mailbox of
gm@pbem.test, emptied before and after.

    .venv/bin/python scripts/bench.py [--only ingest,imap,smtp,rss,pmb,hosting,latency,hostile] [--profile] [-n 2000]
        [--pmb-rounds 5] [--pmb-compare ../main-checkout]
"""

from __future__ import annotations

import argparse
import cProfile
import email
import io
import os
import pstats
import random
import shutil
import signal
import smtplib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.policy import compat32
from html import escape
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_names import player_names  # noqa: E402

from pbem import config as configmod  # noqa: E402
from pbem.clock import iso  # noqa: E402
from pbem.engine import Engine  # noqa: E402
from pbem.store import Store  # noqa: E402

GAME_ADDRESS = "jeu@pbem.test"
MJ_ADDRESS = "mj@pbem.test"
SEED = "be7c" * 16
START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


@dataclass
class Row:
    section: str
    figure: str
    value: str
    target: str
    met: bool | None  # None: informational


ROWS: list[Row] = []
NOTES: list[str] = []


def row(section: str, figure: str, value: str, target: str = "", met: bool | None = None) -> None:
    ROWS.append(Row(section, figure, value, target, met))


def say(text: str) -> None:
    print(text, flush=True)


# --------------------------------------------------------------------------- a 40-player game


def pmb_available() -> bool:
    try:
        import pbem.games.pmb  # noqa: F401
        from pbem.games import get

        get("pmb")
        return True
    except Exception:
        return False


AUTH = "dkim"
"""The README's recommended sender check: every order mail carries the Authentication-Results its provider adds."""


def game_config(root: Path, ruleset: str, synchronous: str = "normal") -> configmod.Config:
    tag = "PMB" if ruleset == "pmb" else "1626"
    data = {
        "pbem": {"database": str(root / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000, "synchronous": synchronous},
        "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
        "outbox": {"kind": "maildir", "path": str(root / "outbox")},
        "games": {"jeu1": {"ruleset": ruleset, "tag": tag, "title": "Pour Ma Belle", "mj": MJ_ADDRESS,
                           "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00"}, "auth": AUTH,
                           "trusted_authserv": ["mx.google.com"]}},
    }
    return configmod.parse(data, root)


def provider_headers(sender: str, i: int) -> list[tuple[str, str]]:
    """What Gmail's receiving side adds above a message: Received lines, ARC and its Authentication-Results."""
    domain = sender.rpartition("@")[2]
    sig = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 7 + k * 13) % 64]
                  for k in range(300))
    return [
        ("Received", f"by 2002:a05:6402:{i % 9999:x} with SMTP id x{i}csp123456; Fri, 4 Dec 2026 12:{i % 60:02d}:01 "
                     "-0800 (PST)"),
        ("ARC-Authentication-Results", f"i=1; mx.google.com; dkim=pass header.i=@{domain} header.s=s1 "
                                       f"header.b=Ab{i % 1000:03d}xyz; spf=pass (google.com: domain of {sender} "
                                       f"designates 192.0.2.{i % 250 + 1} as permitted sender) smtp.mailfrom={sender}; "
                                       f"dmarc=pass (p=NONE sp=NONE dis=NONE) header.from={domain}"),
        ("Authentication-Results", f"mx.google.com; dkim=pass header.i=@{domain} header.s=s1 header.b=Ab{i % 1000:03d}xyz;"
                                   f" spf=pass (google.com: domain of {sender} designates 192.0.2.{i % 250 + 1} as "
                                   f"permitted sender) smtp.mailfrom={sender}; dmarc=pass (p=NONE sp=NONE dis=NONE) "
                                   f"header.from={domain}"),
        ("Received-SPF", f"pass (google.com: domain of {sender} designates 192.0.2.{i % 250 + 1} as permitted sender) "
                         f"client-ip=192.0.2.{i % 250 + 1};"),
        ("DKIM-Signature", f"v=1; a=rsa-sha256; c=relaxed/relaxed; d={domain}; s=s1; t=1796400000; "
                           f"h=to:subject:message-id:date:from:mime-version:from:to:cc:subject:date:message-id:"
                           f"reply-to; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b={sig}"),
    ]


def new_game(root: Path, ruleset: str, synchronous: str = "normal") -> tuple[configmod.Config, Store, Engine,
                                                                               dict[str, str]]:
    """A running 40-player game (turn 1 open); returns the player -> address map."""
    cfg = game_config(root, ruleset, synchronous)
    store = Store(cfg.database, synchronous=synchronous)
    eng = Engine(cfg, store)
    eng.new_game("jeu1", START, seed=SEED)
    names = player_names(40)
    for i, name in enumerate(names):
        eng.add_player("jeu1", name, f"p{i + 1:02d}@pbem.test", START)
    eng.start_game("jeu1", START + timedelta(minutes=1))
    return cfg, store, eng, {n: f"p{i + 1:02d}@pbem.test" for i, n in enumerate(names)}


def order_lines(eng: Engine, player: str, rng: random.Random) -> list[str]:
    from pbem.games.pmb.bots import random_orders

    g = eng.game("jeu1")
    state = eng.state(g)
    lines: list[str] = []
    for _ in range(6):
        lines += [ln for ln in random_orders(state, player, rng.randrange(1 << 30)) if ln not in lines]
        if len(lines) >= 5:
            break
    want = rng.randint(1, 5)
    lines = lines[:want]
    while len(lines) < want:  # a player with little to order asks for help or status, or mistypes
        lines.append(rng.choice(["ETAT", "ORDRES", "ESCOUADE personne", "AIDE"]))
    return lines


QUOTE = """Le ven. 4 déc. 2026 à 20:05, Pour Ma Belle <jeu@pbem.test> a écrit :
> [PMB] Tour 1 : vos ordres sont attendus
>
> Bonjour {name},
> les ordres du tour 1 sont attendus avant vendredi 11 décembre 2026 à 21 h.
> Vous êtes au Donjon Rouge. Ne dites rien à personne.
> --
> Pour Ma Belle, le MJ automatique
"""
SIGS = ["-- \n{name}\nEnvoyé de mon iPhone", "Cordialement,\n{first}", "-- \n{name}\nhttps://forum.example.org",
        "Envoyé de mon iPhone", "Bonne soirée à tous !\n{first}"]


def make_order_mails(eng: Engine, addresses: dict[str, str], n: int) -> list[bytes]:
    rng = random.Random(2026)
    names = list(addresses)
    return [order_mail(rng, i, names[i % len(names)], addresses[names[i % len(names)]],
                       order_lines(eng, names[i % len(names)], rng), "PMB") for i in range(n)]


def order_mail(rng: random.Random, i: int, name: str, address: str, lines: list[str], tag: str) -> bytes:
    """An order mail as players send them: greetings, signatures, quoted replies, an HTML alternative from
    webmail and phones, and the headers the receiving provider adds (Authentication-Results included)."""
    first = name.split()[0]
    body = "\n".join(lines)
    if rng.random() < 0.5:
        body = rng.choice(["", "", "Bonjour,\n\n"]) + body
    if rng.random() < 0.4:
        body += "\nFIN"
    body += "\n\n" + rng.choice(SIGS).format(name=name, first=first)
    reply = rng.random() < 0.5
    if reply:
        body += "\n\n" + QUOTE.format(name=name)
    m = EmailMessage()
    for header, value in provider_headers(address, i):
        m[header] = value
    m["From"] = f"{name} <{address}>"
    m["To"] = f"Pour Ma Belle <{GAME_ADDRESS}>"
    m["Subject"] = f"Re: [{tag}] Tour 1 : vos ordres" if reply else rng.choice(
        [f"[{tag}] ordres", f"[{tag}] mes ordres du tour 1", f"[{tag}] Ordres — tour 1"])
    m["Date"] = f"Fri, 04 Dec 2026 21:{i // 60 % 60:02d}:{i % 60:02d} +0100"
    m["Message-ID"] = f"<bench-{i}-{rng.randrange(1 << 40):x}@mail.example.org>"
    if reply:
        m["In-Reply-To"] = "<pbem.0123456789abcdef@pbem.test>"
        m["References"] = "<pbem.0123456789abcdef@pbem.test>"
    m["X-Mailer"] = rng.choice(["Apple Mail (2.3731)", "Microsoft Outlook 16.0", "Thunderbird 115.5"])
    m.set_content(body, charset="utf-8", cte="quoted-printable" if i % 2 else "8bit")
    if rng.random() < 0.6:  # webmail and phone clients (Gmail, Outlook, Apple) add an HTML alternative
        html = "".join(f"<div dir=\"ltr\">{escape(line) or '<br>'}</div>\n" for line in body.split("\n"))
        m.add_alternative(f"<html><head><meta charset=\"utf-8\"></head><body>{html}</body></html>\n",
                          subtype="html", charset="utf-8", cte="quoted-printable")
    return m.as_bytes()


def bare_floor(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=compat32)
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            payload = part.get_payload(decode=True)
            return payload.decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def profile_top(fn: Callable[[], Any], n: int = 25) -> tuple[Any, str]:
    prof = cProfile.Profile()
    result = prof.runcall(fn)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(n)
    buf2 = io.StringIO()
    pstats.Stats(prof, stream=buf2).sort_stats("cumulative").print_stats(n + 15)
    return result, buf.getvalue() + buf2.getvalue()


# --------------------------------------------------------------------------- 1. durable ingest


def _ingest_once(mails: list[bytes], ruleset: str, synchronous: str = "normal",
                 prof: bool = False) -> tuple[float, str, dict[str, int]]:
    """Seconds for `Engine.process_pending` over mails already stored (a fresh 40-player game each time)."""
    tmpdir = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    _cfg, st, e, _ = new_game(tmpdir, ruleset, synchronous)
    try:
        now = START + timedelta(hours=2)
        st.store_raw([(f"bench:{i}", m) for i, m in enumerate(mails)], iso(now))
        before_q = len(st.outbox_items())

        def work() -> int:
            done = 0
            while True:
                keys = e.process_pending(now)
                if not keys:
                    return done
                done += len(keys)

        text = ""
        if prof:
            t0 = time.perf_counter()
            _done, text = profile_top(work)
            dt = time.perf_counter() - t0
        else:
            dt = _timed(work)
        acks = len(st.outbox_items()) - before_q
        assert st.message_count("new") == 0, "messages left unprocessed"
        assert acks == len(mails), f"{acks} acks queued for {len(mails)} mails"
        verdicts: dict[str, int] = {}
        for r in st.db.query("select verdict from messages"):
            v = r["verdict"].split(" (")[0]
            verdicts[v] = verdicts.get(v, 0) + 1
        return dt, text, verdicts
    finally:
        st.close()
        shutil.rmtree(tmpdir, ignore_errors=True)


def _ingest_vs_floor(mails: list[bytes], ruleset: str, reps: int,
                     synchronous: str = "normal") -> tuple[float, float, list[float], list[float], dict[str, int]]:
    """Best of ``reps`` for pbem and for the bare floor, measured in turn (a slow spell favours neither)."""
    runs, floors = [], []
    verdicts: dict[str, int] = {}
    for _ in range(reps):
        floors.append(_timed(lambda: [bare_floor(m) for m in mails]))
        dt, _t, verdicts = _ingest_once(mails, ruleset, synchronous)
        runs.append(dt)
    return min(runs), min(floors), runs, floors, verdicts


def _filesystem(path: Path) -> str:
    """The file system a path is on (fsync is free on tmpfs: FULL's cost depends on it)."""
    best, kind = "", "unknown file system"
    try:
        for line in Path("/proc/mounts").read_text().splitlines():
            _dev, mount, fstype = line.split()[:3]
            if str(path.resolve()).startswith(mount) and len(mount) > len(best):
                best, kind = mount, fstype
    except OSError:
        pass
    return kind


def bench_ingest(n: int, ruleset: str, profile: bool) -> list[bytes]:
    say(f"\n[1] durable ingest of {n} order mails ({ruleset}, 40 players, auth = \"{AUTH}\" on mails carrying "
        "a provider's Authentication-Results)")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        cfg, store, eng, addresses = new_game(Path(tmp) / "mails", ruleset)
        mails = make_order_mails(eng, addresses, n)
        store.close()
    qp = sum(1 for m in mails if b"quoted-printable" in m)
    alt = [m for m in mails if b"multipart/alternative" in m]
    plain = [m for m in mails if b"multipart/alternative" not in m]
    say(f"    {len(mails)} mails, {len(alt)} multipart/alternative (text + HTML), {qp} with quoted-printable parts, "
        f"mean {sum(map(len, mails)) // len(mails)} bytes")

    best, floor, runs, floor_runs, verdicts = _ingest_vs_floor(mails, ruleset, 5)
    say(f"    verdicts: {verdicts}")
    assert all(v.startswith("ok") for v in verdicts), f"mails refused: {verdicts}"
    per_msg = best / n * 1000
    ratio = best / floor
    say(f"    pbem ingest: {best:.2f} s ({n / best:.0f} msg/s, {per_msg:.2f} ms/msg); runs {[round(x, 2) for x in runs]}")
    say(f"    bare floor:  {floor:.3f} s ({floor / n * 1000:.3f} ms/msg); runs {[round(x, 3) for x in floor_runs]}")
    ONE_GAME["per_mail"] = best / n
    row("1 ingest", "pbem process_pending (mix)", f"{n / best:.0f} msg/s, {per_msg:.2f} ms/msg")
    row("1 ingest", "bare parse+walk+decode (mix)", f"{n / floor:.0f} msg/s, {floor / n * 1000:.3f} ms/msg")
    row("1 ingest", "ratio pbem / bare, mix, dkim", f"{ratio:.2f}", "<= 2.0", ratio <= 2.0)
    for label, subset in (("text only", plain), ("text + HTML", alt)):
        b, f, r, _fr, _v = _ingest_vs_floor(subset, ruleset, 3)
        say(f"    {label}: {len(subset)} mails, pbem {b / len(subset) * 1000:.3f} ms/msg, floor "
            f"{f / len(subset) * 1000:.3f} ms/msg, ratio {b / f:.2f}; runs {[round(x, 2) for x in r]}")
        row("1 ingest", f"ratio pbem / bare, {label}", f"{b / f:.2f} ({b / len(subset) * 1000:.2f} ms/msg)",
            "informational", None)
    normal_runs, full_runs = [], []
    for _ in range(3):  # in turn, so that a slow spell of the machine favours neither
        normal_runs.append(_ingest_once(mails, ruleset, "normal")[0])
        full_runs.append(_ingest_once(mails, ruleset, "full")[0])
    fs = _filesystem(Path(tempfile.gettempdir()))
    say(f"    synchronous=FULL vs NORMAL ({fs}): {min(full_runs) / n * 1000:.2f} vs "
        f"{min(normal_runs) / n * 1000:.2f} ms/msg ({min(full_runs) / min(normal_runs):.2f}x); runs FULL "
        f"{[round(x, 2) for x in full_runs]}, NORMAL {[round(x, 2) for x in normal_runs]}")
    row("1 ingest", "synchronous=FULL (mix)", f"{min(full_runs) / n * 1000:.2f} ms/msg, "
        f"{min(full_runs) / min(normal_runs):.2f}x NORMAL", f"informational ({fs})", None)
    if profile:
        _dt, text, _v = _ingest_once(mails, ruleset, prof=True)
        NOTES.append("ingest profile (cProfile, 2,000 mails):\n" + text)
    return mails


def _timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


# --------------------------------------------------------------------------- 2 + 4. IMAP


def mail_env() -> dict[str, str] | None:
    keys = ["MAIL_HOST", "MAIL_IMAP_PORT", "MAIL_SMTP_PORT", "MAIL_PASSWORD", "MAIL_DOMAIN", "MAIL_LMTP_PORT",
            "MAIL_SINK_MAILDIR"]
    if not all(os.environ.get(k) for k in keys):
        return None
    return {k: os.environ[k] for k in keys}


def _imap_client(env: dict[str, str], user: str) -> Any:
    from imapclient import IMAPClient

    c = IMAPClient(env["MAIL_HOST"], port=int(env["MAIL_IMAP_PORT"]), ssl=False, timeout=60)
    c.login(user, env["MAIL_PASSWORD"])
    return c


def _clear(env: dict[str, str], user: str) -> None:
    c = _imap_client(env, user)
    try:
        c.select_folder("INBOX")
        uids = c.search(["ALL"])
        if uids:
            c.delete_messages(uids)
            c.expunge()
    finally:
        c.logout()


def bench_imap(env: dict[str, str], mails: list[bytes]) -> None:
    from pbem.mail.inbox import ImapSource

    n = len(mails)
    user = f"gm@{env['MAIL_DOMAIN']}"
    say(f"\n[2] IMAP ingest of {n} messages from Dovecot ({user})")
    _clear(env, user)
    try:
        c = _imap_client(env, user)
        try:
            for i in range(0, n, 200):
                c.multiappend("INBOX", mails[i:i + 200])
            c.select_folder("INBOX", readonly=True)
            assert len(c.search(["ALL"])) == n
        finally:
            c.logout()

        def bare() -> int:
            cl = _imap_client(env, user)
            try:
                cl.select_folder("INBOX", readonly=True)
                uids = sorted(cl.search(["UID", "1:*"]))
                got = 0
                for i in range(0, len(uids), 500):
                    data = cl.fetch(uids[i:i + 500], ["BODY.PEEK[]", "RFC822.SIZE"])
                    got += sum(len(v[b"BODY[]"]) > 0 for v in data.values())
                return got
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
                got = src.fetch_new(lambda batch: st.store_raw([(m.key, m.raw) for m in batch], "now",
                                                               [iso(m.received) if m.received else None
                                                                for m in batch]) and None)
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

        bare_t, pbem_t = [], []
        for _ in range(3):
            bare_t.append(_timed(bare))
            pbem_t.append(pbem_fetch())
        b, p = min(bare_t), min(pbem_t)
        ratio = p / b
        say(f"    pbem ImapSource+store_raw: {p:.3f} s ({n / p:.0f} msg/s); runs {[round(x, 3) for x in pbem_t]}")
        say(f"    bare imapclient fetch:     {b:.3f} s ({n / b:.0f} msg/s); runs {[round(x, 3) for x in bare_t]}")
        row("2 IMAP", "pbem ImapSource.fetch_new + store_raw", f"{n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg")
        row("2 IMAP", "bare imapclient batched fetch", f"{n / b:.0f} msg/s, {b / n * 1000:.3f} ms/msg")
        row("2 IMAP", "ratio pbem / bare", f"{ratio:.2f}", "<= 1.5", ratio <= 1.5)
        full, idle = rts[-1]
        expected = 3 + 2 + (n + 499) // 500  # greeting, CAPABILITY (imaplib), LOGIN, SELECT, SEARCH, FETCH/500
        say(f"    round trips: {full} for {n} new messages (new connection), {idle} for an idle poll")
        row("4 IMAP round trips", f"poll with {n} new (new connection)", str(full),
            f"<= {expected}: greeting CAPA LOGIN SELECT SEARCH {(n + 499) // 500}xFETCH", full <= expected)
        row("4 IMAP round trips", "idle poll (connection kept)", str(idle), "<= 1 (SELECT)", idle <= 1)
    finally:
        _clear(env, user)


# --------------------------------------------------------------------------- 3. SMTP


def bench_smtp(env: dict[str, str], n: int) -> None:
    from pbem.mail.transport import SmtpTransport
    from pbem.outbox import Letter, queue, send_due

    say(f"\n[3] SMTP sending of {n} queued mails to the loopback sink (port {env['MAIL_SMTP_PORT']})")
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
    raws = [st.outbox_raw(i["id"]) for i in st.outbox_items()]
    st.close()
    shutil.rmtree(tmpdir, ignore_errors=True)

    def bare() -> None:
        s = smtplib.SMTP(host, port, timeout=60)
        try:
            s.ehlo()
            for raw in raws:
                s.sendmail(GAME_ADDRESS, [rcpt], raw)
        finally:
            s.quit()

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

    bare_t, pbem_t = [], []
    for _ in range(2):
        bare_t.append(_timed(bare))
        pbem_t.append(pbem_send())
    b, p = min(bare_t), min(pbem_t)
    ratio = p / b
    say(f"    pbem send_due/SmtpTransport: {p:.3f} s ({n / p:.0f} msg/s); runs {[round(x, 3) for x in pbem_t]}")
    say(f"    bare smtplib loop:           {b:.3f} s ({n / b:.0f} msg/s); runs {[round(x, 3) for x in bare_t]}")
    row("3 SMTP", "pbem send_due via SmtpTransport", f"{n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg")
    row("3 SMTP", "bare smtplib loop, one connection", f"{n / b:.0f} msg/s, {b / n * 1000:.3f} ms/msg")
    row("3 SMTP", "ratio pbem / bare", f"{ratio:.2f}", "<= 1.2", ratio <= 1.2)


# --------------------------------------------------------------------------- 7. a hosting day


HOSTING_MIX = (("pmb", 50, 68), ("intrigue", 40, 5), ("1626", 10, 40))
"""(ruleset, games, players each): 100 games, 3,400 + 200 + 400 = 4,000 players."""
ALONE_GAMES = 5
"""How many games of each kind are measured alone (each in its own database) for the comparison."""
ONE_GAME: dict[str, float] = {}
"""The per-mail figure of the one-game ingest [1], when it ran."""


def hosting_config(root: Path, games: list[tuple[str, str]]) -> configmod.Config:
    data = {
        "pbem": {"database": str(root / "db.sqlite"), "address": GAME_ADDRESS, "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris", "reply_cap_per_hour": 1_000_000},
        "mailbox": {"kind": "maildir", "path": str(root / "inbox")},
        "outbox": {"kind": "maildir", "path": str(root / "outbox")},
        "games": {gid: {"ruleset": rs, "tag": gid.upper(), "title": gid, "mj": MJ_ADDRESS,
                        "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00", "short": "1d@21:00"},
                        "auth": AUTH, "trusted_authserv": ["mx.google.com"]} for gid, rs in games},
    }
    return configmod.parse(data, root)


_STATES: dict[tuple[int, str], Any] = {}


def hosting_lines(eng: Engine, gid: str, ruleset: str, player: str, rng: random.Random) -> list[str]:
    key = (id(eng), gid)  # (cleared by each build_hosting)
    if key not in _STATES:
        _STATES[key] = eng.state(eng.game(gid))
    state = _STATES[key]
    if ruleset == "pmb":
        from pbem.games.pmb.bots import random_orders as pmb_orders

        lines = pmb_orders(state, player, rng.randrange(1 << 30))[:4]
    elif ruleset == "intrigue":
        from pbem.games.intrigue.bots import random_orders as intrigue_orders

        lines = intrigue_orders(state, player, rng.randrange(1 << 30))
    else:  # 1626: an immediate test (rolled on receipt), or the sheet
        lines = [rng.choice(["TEST Escrime AG SR 15", "TEST Equitation DEX SR 12", "FICHE"])]
    return lines or ["ETAT"]


def build_hosting(root: Path, spec: list[tuple[str, str, int]], mails_per_player: int,
                  rng: random.Random) -> tuple[Store, Engine, list[bytes], dict[str, int]]:
    """Games ``(id, ruleset, players)`` started in one database, and their order mails (per game count too)."""
    _STATES.clear()
    cfg = hosting_config(root, [(gid, rs) for gid, rs, _n in spec])
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    mails: list[bytes] = []
    per_game: dict[str, int] = {}
    names = player_names(max(n for _g, _r, n in spec))
    sheet = {"caracteristiques": {"FO": 6, "EN": 6, "AG": 7, "DEX": 5, "PE": 5, "INT": 5, "EDU": 6, "CH": 6,
                                  "APP": 5, "BR": 7}, "talents": {"Escrime": 8, "Equitation": 5}}
    for gid, rs, n in spec:
        eng.new_game(gid, START, seed=SEED)
        with store.atomic():
            for i in range(n):
                eng.add_player(gid, names[i], f"{gid}.p{i + 1:03d}@pbem.test", START,
                               data=sheet if rs == "1626" else None)
        eng.start_game(gid, START + timedelta(minutes=1))
    for gid, rs, n in spec:
        for _k in range(mails_per_player):
            for i in range(n):
                lines = hosting_lines(eng, gid, rs, names[i], rng)
                mails.append(order_mail(rng, len(mails), names[i], f"{gid}.p{i + 1:03d}@pbem.test", lines,
                                        gid.upper()))
                per_game[rs] = per_game.get(rs, 0) + 1
    return store, eng, mails, per_game


def hosting_pass(store: Store, eng: Engine, mails: list[bytes]) -> tuple[float, float, int]:
    """(ingest seconds, resolution seconds, steps resolved) of one pass after every deadline."""
    now = START + timedelta(days=5)  # past every game's first deadline; the mail arrived before them
    store.store_raw([(f"h:{i}", m) for i, m in enumerate(mails)], iso(START + timedelta(hours=2)))

    def ingest() -> None:
        while eng.process_pending(now):
            pass

    t_ingest = _timed(ingest)
    before = store.db.execute("select count(*) from records where kind = 'step'").fetchone()[0]
    t_resolve = _timed(lambda: eng.due(now))
    steps = store.db.execute("select count(*) from records where kind = 'step'").fetchone()[0] - before
    assert store.message_count("new") == 0
    return t_ingest, t_resolve, int(steps)


def bench_hosting() -> None:
    spec = [(f"{rs[:3]}{k:02d}", rs, n) for rs, count, n in HOSTING_MIX for k in range(count)]
    players = sum(n for _g, _r, n in spec)
    say(f"\n[7] a hosting day: {len(spec)} games ({', '.join(f'{c} {rs}' for rs, c, _n in HOSTING_MIX)}), "
        f"{players} players in one database, auth = \"{AUTH}\"")
    rng = random.Random(12)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-host-") as tmp:
        t0 = time.perf_counter()
        store, eng, mails, per_kind = build_hosting(Path(tmp) / "day", spec, 2, rng)
        say(f"    set-up: {time.perf_counter() - t0:.0f} s; {len(mails)} order mails ({per_kind})")
        t_ingest, t_resolve, steps = hosting_pass(store, eng, mails)
        store.close()
        # the same games, each alone in a database of its own (same size, same 2 mails a player)
        alone_mail: dict[str, float] = {}
        alone_step: dict[str, float] = {}
        for rs, _count, n in HOSTING_MIX:
            t_mail = t_step = 0.0
            n_mail = n_step = 0
            for j in range(ALONE_GAMES):
                st, e, ms, _k = build_hosting(Path(tmp) / f"alone-{rs}-{j}", [(f"{rs[:3]}{j:02d}", rs, n)], 2,
                                              random.Random(12 + j))
                ti, tr, k = hosting_pass(st, e, ms)
                st.close()
                t_mail, n_mail, t_step, n_step = t_mail + ti, n_mail + len(ms), t_step + tr, n_step + k
            alone_mail[rs] = t_mail / n_mail
            if n_step:
                alone_step[rs] = t_step / n_step
    per_mail = t_ingest / len(mails)
    ref_mail = sum(alone_mail[rs] * c for rs, c in per_kind.items()) / len(mails)
    resolving = {rs: count for rs, count, _n in HOSTING_MIX if rs in alone_step}
    ref_step = sum(alone_step[rs] * c for rs, c in resolving.items()) / max(1, sum(resolving.values()))
    per_step = t_resolve / max(1, steps)
    say(f"    one pass: ingest {t_ingest:.1f} s ({per_mail * 1000:.2f} ms/mail), {steps} steps resolved in "
        f"{t_resolve:.1f} s ({per_step * 1000:.0f} ms each; 1626 has no deadlines: its tests are immediate)")
    say(f"    each kind alone: ingest {', '.join(f'{rs} {v * 1000:.2f}' for rs, v in alone_mail.items())} ms/mail; "
        f"resolution {', '.join(f'{rs} {v * 1000:.0f}' for rs, v in alone_step.items())} ms")
    row("7 hosting day", f"ingest of {len(mails)} mails, {len(spec)} games", f"{per_mail * 1000:.2f} ms/mail")
    row("7 hosting day", "ratio per mail / the same games alone", f"{per_mail / ref_mail:.2f}", "<= 1.3",
        per_mail / ref_mail <= 1.3)
    if "per_mail" in ONE_GAME:
        row("7 hosting day", "ratio per mail / one-game ingest [1]", f"{per_mail / ONE_GAME['per_mail']:.2f}",
            "informational (other mix)", None)
    row("7 hosting day", f"{steps} resolutions in one pass", f"{per_step * 1000:.0f} ms each")
    row("7 hosting day", "ratio per resolution / alone", f"{per_step / ref_step:.2f}", "informational", None)


# --------------------------------------------------------------------------- 8. ack latency


def bench_latency(env: dict[str, str], n: int = 200) -> None:
    """Mail delivered to Dovecot (LMTP) -> its ack in the SMTP sink, with `pbem run` waiting on IMAP IDLE."""
    import smtplib as _smtplib

    say(f"\n[8] ack latency over {n} mails: LMTP delivery to Dovecot -> ack in the SMTP sink (pbem run, IMAP IDLE)")
    sink = Path(os.environ["MAIL_SINK_MAILDIR"]) / "new"
    game_user = f"game@{env['MAIL_DOMAIN']}"
    _clear(env, game_user)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-lat-") as tmp:
        root = Path(tmp)
        cfg_path = root / "config.toml"
        cfg_path.write_text(f"""
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
""")
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
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "--config", str(cfg_path), "run"], cwd=tmp,
                                stdout=subprocess.DEVNULL, stderr=daemon_log,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        latencies: list[float] = []
        try:
            time.sleep(4)  # first poll done, IDLE waiting (and the game's start mails sent)
            seen = set(os.listdir(sink))
            for raw in mails:
                mid = raw.split(b"Message-ID: ", 1)[1].split(b"\n", 1)[0].strip()
                t0 = time.perf_counter()
                with _smtplib.LMTP(env["MAIL_HOST"], int(os.environ["MAIL_LMTP_PORT"])) as lmtp:
                    lmtp.sendmail("sender@example.org", [game_user], raw)
                found = False
                while not found and time.perf_counter() - t0 < 30:
                    for name in os.listdir(sink):
                        if name in seen:
                            continue
                        seen.add(name)
                        try:
                            data = (sink / name).read_bytes()
                        except OSError:
                            continue
                        if b"In-Reply-To: " + mid in data:
                            found = True
                    if not found:
                        time.sleep(0.005)
                if not found:
                    tail = (root / "daemon.log").read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"no ack within 30 s for {mid!r}; pbem run said:\n{tail}")
                latencies.append(time.perf_counter() - t0)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            daemon_log.close()
            _clear(env, game_user)
    latencies.sort()
    median = latencies[len(latencies) // 2]
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    say(f"    median {median * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")
    row("8 ack latency", "median, delivery -> ack", f"{median * 1000:.0f} ms", "<= 1 s", median <= 1.0)
    row("8 ack latency", "99th percentile", f"{p99 * 1000:.0f} ms", "<= 3 s", p99 <= 3.0)


# --------------------------------------------------------------------------- 5. daemon RSS


def bench_rss() -> None:
    say("\n[5] daemon idle RSS (pbem run, embedded Maildir default)")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-rss-") as tmp:
        cfg = Path(tmp) / "config.toml"
        text = (ROOT / "config.toml").read_text("utf-8")
        text = text.replace('"data/1626/personnages.toml"', f'"{ROOT / "data/1626/personnages.toml"}"')
        cfg.write_text(text, "utf-8")
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "--config", str(cfg), "run"], cwd=tmp,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            time.sleep(3)
            status = Path(f"/proc/{proc.pid}/status").read_text()
            if proc.poll() is not None:
                raise RuntimeError(f"pbem run exited: {proc.stderr.read().decode()[-500:] if proc.stderr else ''}")
            rss_kb = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("VmRSS:")))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    mb = rss_kb / 1024
    say(f"    VmRSS after 3 s: {mb:.1f} MiB (exit code after SIGTERM: {proc.returncode})")
    row("5 daemon", "idle RSS of pbem run", f"{mb:.1f} MiB", "no target given (informational)", None)


# --------------------------------------------------------------------------- 6. Pour Ma Belle resolution


def bench_pmb(sizes: list[int], seeds: list[str], rounds: int, compare: Path | None) -> None:
    """Section 6: see `scripts/bench_pmb.py` (how it is measured, and why so)."""
    import bench_pmb as B  # noqa: PLC0415 (scripts/ is on sys.path when this file runs)

    B.section(sizes, seeds, rounds, compare, say, row, player_names)


# --------------------------------------------------------------------------- 9. hostile input


def bench_hostile() -> None:
    import hostile  # (scripts/hostile.py, beside this script)

    say("\n[9] hostile input: every reader of untrusted input, its slowest pathological case at 100 KB and 1 MB")
    worst: dict[int, dict[str, tuple[str, float]]] = {}
    for size in (100_000, 1_000_000):
        with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
            cases, close = hostile.all_cases(Path(tmp))
            try:
                results = hostile.run(cases, size)
            finally:
                close()
        raised = [r.case.name for r in results if r.error]
        if raised:
            NOTES.append(f"hostile input at {size:,} bytes: raised in {', '.join(raised)}")
        worst[size] = hostile.worst_by_reader(results)
    for reader, (shape, big) in worst[1_000_000].items():
        _shape, small = worst[100_000][reader]
        say(f"    {reader:28} {big * 1000:8.1f} ms at 1 MB ({shape}), {small * 1000:7.1f} ms at 100 KB, "
            f"x{big / max(small, 1e-6):.1f}")
        row("9 hostile", f"{reader} (1 MB)", f"{big * 1000:.0f} ms, x{big / max(small, 1e-6):.0f} of 100 KB",
            f"<= {hostile.TARGET_SECONDS:g} s", big <= hostile.TARGET_SECONDS)


# --------------------------------------------------------------------------- 10. the full PMB engine turn


def bench_turn(sizes: list[int], rounds: int, compare: Path | None) -> None:
    """Section 10: see `scripts/bench_turn.py`."""
    import bench_turn as T  # noqa: PLC0415 (scripts/ is on sys.path when this file runs)

    T.section(sizes, rounds, compare, say, row)


# --------------------------------------------------------------------------- 11. a 1626 session, per mail


def bench_1626(n: int, compare: Path | None) -> None:
    """Section 11: see `scripts/bench_1626_mail.py`."""
    import bench_1626_mail as M  # noqa: PLC0415 (scripts/ is on sys.path when this file runs)

    M.section(n, compare, say, row)


# --------------------------------------------------------------------------- 12. the cold start of a tick


def bench_coldstart(rounds: int, compare: Path | None) -> None:
    """Section 12: see `scripts/bench_coldstart.py`."""
    import bench_coldstart as C  # noqa: PLC0415 (scripts/ is on sys.path when this file runs)

    C.section(rounds, compare, say, row)


# --------------------------------------------------------------------------- 13. the pictures' PNG level


def bench_png(demo: Path | None) -> None:
    """Section 13: see `scripts/bench_png.py`."""
    import bench_png as P  # noqa: PLC0415 (scripts/ is on sys.path when this file runs)

    P.section(demo, 30, 3, say, row)


# --------------------------------------------------------------------------- main


def print_table() -> None:
    say("\n" + "=" * 118)
    say(f"{'section':<20} {'figure':<40} {'value':<30} {'target':<20} result")
    say("-" * 118)
    for r in ROWS:
        res = "" if r.met is None else ("met" if r.met else "NOT MET")
        value = r.value
        say(f"{r.section:<20} {r.figure:<40} {value:<30} {r.target:<20} {res}")
    say("=" * 118)
    for note in NOTES:
        say("\n" + note)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=2000, help="number of order mails (default 2000)")
    ap.add_argument("--only", default="ingest,imap,smtp,rss,pmb,hosting,latency,hostile,turn,1626,coldstart,png")
    ap.add_argument("--coldstart-rounds", type=int, default=15, help="rounds of the cold start (section 12)")
    ap.add_argument("--png-demo", type=Path, default=None,
                    help="a folder `pbem demo all --dir` wrote, for section 13 (default: played in a temporary one)")
    ap.add_argument("--turn-sizes", default="400,2000,4000", help="player counts of the full PMB turn (section 10)")
    ap.add_argument("--turn-rounds", type=int, default=3, help="rounds of the full PMB turn (median of them)")
    ap.add_argument("--profile", action="store_true", help="also cProfile the ingest and print the top items")
    ap.add_argument("--pmb-sizes", default="40,400,4000,40000")
    ap.add_argument("--pmb-rounds", type=int, default=5, help="rounds of the PMB section (median of them)")
    ap.add_argument("--pmb-seeds", default=None, help="bot seeds of the PMB section (four hex digits each, "
                    "comma-separated; default: scripts/bench_pmb.py's SEEDS)")
    ap.add_argument("--pmb-compare", type=Path, default=os.environ.get("PBEM_BENCH_COMPARE") or None,
                    help="another checkout whose PMB resolution is measured alongside (or PBEM_BENCH_COMPARE)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    say(f"pbem benchmark: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {args.n} order mails")
    ruleset = "pmb" if pmb_available() else "1626"
    mails: list[bytes] = []
    if only & {"ingest", "imap"}:
        mails = bench_ingest(args.n, ruleset, args.profile) if "ingest" in only else []
        if not mails:
            with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
                _cfg, store, eng, addresses = new_game(Path(tmp), ruleset)
                mails = make_order_mails(eng, addresses, args.n)
                store.close()
    env = mail_env()
    if only & {"imap", "smtp"} and env is None:
        say("\n[2-4] skipped: loopback mail servers not configured (source /tmp/pbem-mailsvc/env.sh)")
        row("2-4 mail servers", "IMAP / SMTP", "skipped: no MAIL_* environment", "", False)
    if env is not None and "imap" in only:
        bench_imap(env, mails)
    if env is not None and "smtp" in only:
        bench_smtp(env, args.n)
    if "rss" in only:
        bench_rss()
    if "hosting" in only and ruleset == "pmb":
        bench_hosting()
    if "latency" in only:
        if env is None:
            row("8 ack latency", "pbem run on IMAP IDLE", "skipped: no MAIL_* environment", "", False)
        else:
            bench_latency(env)
    if "hostile" in only:
        bench_hostile()
    if "pmb" in only:
        if ruleset == "pmb":
            import bench_pmb as B  # noqa: PLC0415

            seeds = [x.strip().lower() for x in args.pmb_seeds.split(",")] if args.pmb_seeds else list(B.SEEDS)
            for seed in seeds:
                B.dice_seed(seed)  # a bad seed is refused before the other sections run
            bench_pmb([int(x) for x in args.pmb_sizes.split(",")], seeds, args.pmb_rounds, args.pmb_compare)
        else:
            row("6 PMB resolve", "pbem.games.pmb", "not importable", "", None)
    if "turn" in only and ruleset == "pmb":
        bench_turn([int(x) for x in args.turn_sizes.split(",")], args.turn_rounds, args.pmb_compare)
    if "1626" in only:
        bench_1626(800, args.pmb_compare)
    if "coldstart" in only:
        bench_coldstart(args.coldstart_rounds, args.pmb_compare)
    if "png" in only:
        bench_png(args.png_demo)
    print_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
