"""Figure 1, durable ingest: order mails already stored -> parsed, classified, orders stored, ack queued
(`Engine.process_pending`), beside a floor that does what any mail tool must do with the same bytes.

The floor (issue #24: "parse, store, answer"): each mail parsed by `email` (compat32), its text part
decoded, a row stored in SQLite (WAL, ``synchronous=NORMAL`` as pbem's default, one transaction per
batch of 100 as pbem commits), and an answer composed with `email.message.EmailMessage` and stored in an
outbox table.  The parse-only floor of the earlier benches (parse, walk, decode) is measured in the same
rounds and shown for information.  Ingest runs with ``auth = "dkim"`` on mails carrying the headers a
receiving provider adds, and is reported per kind of mail (text only, text + HTML) as well as for the
mix; ``synchronous=FULL`` is measured beside the default.  Every ratio is the median of per-round ratios.
"""

from __future__ import annotations

import cProfile
import email
import io
import pstats
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage
from email.policy import compat32
from email.utils import make_msgid, parseaddr
from pathlib import Path
from typing import Any, cast

from bench.harness import Options, Report, in_rounds, median, median_ratio, rounded, timed
from bench.mails import AUTH, START, make_order_mails, new_game, pmb_available

TARGET = 2.0
BATCH = 100  # what one `process_pending` call takes (pbem.engine.orders.intake.BATCH)


def bare_parse(raw: bytes) -> str:
    """The parse-only floor: parse, walk to the text part, decode it."""
    msg = email.message_from_bytes(raw, policy=compat32)
    for part in msg.walk():
        if part.get_content_type() == "text/plain":
            payload = cast(bytes, part.get_payload(decode=True))
            return payload.decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def _floor_db(root: Path, mails: list[bytes]) -> sqlite3.Connection:
    db = sqlite3.connect(root / "floor.sqlite", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript("""
        create table messages (id integer primary key, raw blob, state text);
        create table orders (message integer, sender text, text text);
        create table outbox (id integer primary key, recipient text, raw blob);
    """)
    with db:
        db.execute("begin")
        db.executemany("insert into messages (raw, state) values (?, 'new')", [(m,) for m in mails])
    return db


def floor_ingest(mails: list[bytes]) -> float:
    """Seconds for the parse-store-answer floor over mails already stored (the database made before the
    clock starts, as pbem's is)."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-floor-"))
    db = _floor_db(tmp, mails)
    try:
        def work() -> None:
            while True:
                db.execute("begin")
                batch = db.execute("select id, raw from messages where state = 'new' order by id limit ?",
                                   (BATCH,)).fetchall()
                if not batch:
                    db.execute("commit")
                    return
                for key, raw in batch:
                    msg = email.message_from_bytes(raw, policy=compat32)
                    text = ""
                    for part in msg.walk():
                        if part.get_content_type() == "text/plain":
                            payload = cast(bytes, part.get_payload(decode=True))
                            text = payload.decode(part.get_content_charset() or "utf-8", "replace")
                            break
                    sender = parseaddr(msg.get("From", ""))[1]
                    db.execute("insert into orders values (?, ?, ?)", (key, sender, text))
                    answer = EmailMessage()
                    answer["From"] = "jeu@pbem.test"
                    answer["To"] = sender
                    answer["Subject"] = "Re: " + str(msg.get("Subject", ""))
                    answer["In-Reply-To"] = str(msg.get("Message-ID", ""))
                    answer["Message-ID"] = make_msgid(domain="pbem.test")
                    answer.set_content("Bien reçu :\n" + text[:2000])
                    db.execute("insert into outbox (recipient, raw) values (?, ?)", (sender, answer.as_bytes()))
                    db.execute("update messages set state = 'done' where id = ?", (key,))
                db.execute("commit")

        return timed(work)
    finally:
        db.close()
        shutil.rmtree(tmp, ignore_errors=True)


def profile_top(fn: Callable[[], Any], n: int = 25) -> tuple[Any, str]:
    prof = cProfile.Profile()
    result = prof.runcall(fn)
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("tottime").print_stats(n)
    buf2 = io.StringIO()
    pstats.Stats(prof, stream=buf2).sort_stats("cumulative").print_stats(n + 15)
    return result, buf.getvalue() + buf2.getvalue()


def ingest_once(mails: list[bytes], ruleset: str, synchronous: str = "normal",
                prof: bool = False) -> tuple[float, str, dict[str, int]]:
    """Seconds for `Engine.process_pending` over mails already stored (a fresh 40-player game each time)."""
    tmpdir = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    _cfg, st, e, _ = new_game(tmpdir, ruleset, synchronous)
    try:
        now = START + timedelta(hours=2)
        st.store_raw([(f"bench:{i}", m) for i, m in enumerate(mails)], now)
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
            dt = timed(work)
        acks = len(st.outbox_items()) - before_q
        assert st.message_count("new") == 0, "messages left unprocessed"
        assert acks == len(mails), f"{acks} acks queued for {len(mails)} mails"
        verdicts: dict[str, int] = {}
        for r in st.db.query("select verdict from messages"):
            v = r["verdict"].split(" (")[0].split(":")[0]
            verdicts[v] = verdicts.get(v, 0) + 1
        return dt, text, verdicts
    finally:
        st.close()
        shutil.rmtree(tmpdir, ignore_errors=True)


def pbem_vs_floors(mails: list[bytes], ruleset: str, rounds: int) -> tuple[dict[str, list[float]], dict[str, int]]:
    """Per round: pbem's ingest, the parse-store-answer floor and the parse-only floor, alternating."""
    verdicts: dict[str, int] = {}

    def pbem() -> float:
        dt, _text, got = ingest_once(mails, ruleset)
        verdicts.update(got)
        return dt

    runs = in_rounds(rounds, {"floor": lambda: floor_ingest(mails), "pbem": pbem,
                              "parse": lambda: timed(lambda: [bare_parse(m) for m in mails])})
    return runs, verdicts


def filesystem(path: Path) -> str:
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


ONE_GAME: dict[str, float] = {}
"""The per-mail figure of this ingest, when it ran (the hosting day shows its own beside it)."""


def run(opts: Options, report: Report) -> None:
    n = opts.mails
    ruleset = "pmb" if pmb_available() else "1626"
    rounds, kind_rounds = (1, 1) if opts.quick else (5, 3)
    report.say(f"\n[1] durable ingest of {n} order mails ({ruleset}, 40 players, auth = \"{AUTH}\" on mails carrying "
               "a provider's Authentication-Results), beside a parse-store-answer floor, "
               f"median of {rounds} rounds' ratios")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as tmp:
        _cfg, store, eng, addresses = new_game(Path(tmp) / "mails", ruleset)
        mails = make_order_mails(eng, addresses, n)
        store.close()
    qp = sum(1 for m in mails if b"quoted-printable" in m)
    alt = [m for m in mails if b"multipart/alternative" in m]
    plain = [m for m in mails if b"multipart/alternative" not in m]
    report.say(f"    {len(mails)} mails, {len(alt)} multipart/alternative (text + HTML), {qp} with quoted-printable "
               f"parts, mean {sum(map(len, mails)) // len(mails)} bytes")

    runs, verdicts = pbem_vs_floors(mails, ruleset, rounds)
    report.say(f"    verdicts: {verdicts}")
    # a player's mail with the same text as one of his a little earlier is a copy, answered as one
    # (`intake`: "duplicate"); the generated mails hold a few, as players' do
    assert all(v in ("ok", "duplicate") for v in verdicts), f"mails refused: {verdicts}"
    p, f, parse = median(runs["pbem"]), median(runs["floor"]), median(runs["parse"])
    ratio = median_ratio(runs["pbem"], runs["floor"])
    parse_ratio = median_ratio(runs["pbem"], runs["parse"])
    report.say(f"    pbem ingest:       {p:.3f} s ({n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg); runs {rounded(runs['pbem'])}")
    report.say(f"    parse+store+answer floor: {f:.3f} s ({f / n * 1000:.3f} ms/msg); runs {rounded(runs['floor'])}")
    report.say(f"    parse-only floor:  {parse:.3f} s ({parse / n * 1000:.3f} ms/msg); runs {rounded(runs['parse'])}")
    ONE_GAME["per_mail"] = p / n
    report.row("1 ingest", "pbem process_pending (mix)", f"{n / p:.0f} msg/s, {p / n * 1000:.3f} ms/msg")
    report.row("1 ingest", "floor: parse+store+answer (mix)", f"{n / f:.0f} msg/s, {f / n * 1000:.3f} ms/msg")
    report.row("1 ingest", "ratio pbem / floor, mix, dkim", f"{ratio:.2f}", f"<= {TARGET:g}", ratio <= TARGET)
    report.row("1 ingest", "ratio pbem / parse-only floor, mix", f"{parse_ratio:.2f}", "informational", None)
    for label, subset in (("text only", plain), ("text + HTML", alt)):
        if not subset:
            continue
        kind_runs, _v = pbem_vs_floors(subset, ruleset, kind_rounds)
        k = len(subset)
        r = median_ratio(kind_runs["pbem"], kind_runs["floor"])
        report.say(f"    {label}: {k} mails, pbem {median(kind_runs['pbem']) / k * 1000:.3f} ms/msg, floor "
                   f"{median(kind_runs['floor']) / k * 1000:.3f} ms/msg, ratio {r:.2f} (parse-only "
                   f"{median_ratio(kind_runs['pbem'], kind_runs['parse']):.2f}); runs {rounded(kind_runs['pbem'], 2)}")
        report.row("1 ingest", f"ratio pbem / floor, {label}",
                   f"{r:.2f} ({median(kind_runs['pbem']) / k * 1000:.2f} ms/msg)", "informational", None)
    sync = in_rounds(kind_rounds, {"normal": lambda: ingest_once(mails, ruleset, "normal")[0],
                                   "full": lambda: ingest_once(mails, ruleset, "full")[0]})
    fs = filesystem(Path(tempfile.gettempdir()))
    full_ratio = median_ratio(sync["full"], sync["normal"])
    report.say(f"    synchronous=FULL vs NORMAL ({fs}): {median(sync['full']) / n * 1000:.2f} vs "
               f"{median(sync['normal']) / n * 1000:.2f} ms/msg (x{full_ratio:.2f}); runs FULL "
               f"{rounded(sync['full'], 2)}, NORMAL {rounded(sync['normal'], 2)}")
    report.row("1 ingest", "synchronous=FULL (mix)", f"{median(sync['full']) / n * 1000:.2f} ms/msg, "
               f"{full_ratio:.2f}x NORMAL", f"informational ({fs})", None)
    if opts.profile:
        _dt, text, _v = ingest_once(mails, ruleset, prof=True)
        report.note(f"ingest profile (cProfile, {n:,} mails):\n" + text)
