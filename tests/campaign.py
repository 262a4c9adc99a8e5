"""The fault campaign: a multi-step game driven by real `pbem tick` processes, killed at random, compared
with the same game run without a single kill.

Used by the random-kill test of `make test` (`tests/integration/test_random_kills.py`, a few kills)
and by `make soak` (`scripts/soak.py`: hundreds of kills, SMTP faults, overlapping ticks, mutated
mail).  Kills are SIGKILLs after a random delay, not the project's own crash points: they land
wherever the process happens to be.  Everything else is fixed: the seed, the mails (arrival
times included), the simulated clock of each pass, so two runs must end identical.

A run has its own directory, database, Maildir inbox and scripted loopback SMTP server
(`scripted_smtp.ScriptedSmtp`), whose every accepted message is kept for the comparison.
"""

from __future__ import annotations

import mailbox
import os
import random
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from helpers import pbem_command, pbem_env
from scripted_smtp import ScriptedSmtp

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
GAME = "rk"
DOMAIN = "campaign.test"
STRANGER = f"stranger@{DOMAIN}"
"""Writes without a game tag to a two-game address: answered outside any game (the soak refuses its mail)."""

CONFIG = """
[pbem]
database = "{root}/db.sqlite"
address = "jeu@{domain}"
forum_dir = "{root}/forum"
lock_wait_seconds = {lock_wait}

[mailbox]
kind = "maildir"
path = "{root}/inbox"

[outbox]
kind = "smtp"
host = "127.0.0.1"
port = {port}
security = "none"
timeout_seconds = {timeout}
connect_timeout_seconds = 2
send_budget_seconds = 30
retry_base_seconds = 60
retry_max_seconds = 600

[games.{game}]
ruleset = "toy"
tag = "RK"
mj = "mj@{domain}"
registration = "1d"
early_resolution = false
options = {{ steps = {steps} }}

[games.{game}.deadlines]
turn = "2d"
short = "1d"

[games.other]
ruleset = "toy"
tag = "OTHER"
mj = "mj@{domain}"
"""


@dataclass
class Pass:
    """One `pbem tick` of the schedule: mails that arrived before it, and its simulated time."""

    now: datetime
    mails: list[bytes] = field(default_factory=list)


@dataclass
class Run:
    root: Path
    cfg_path: Path
    smtp: ScriptedSmtp
    kills: int = 0
    ticks: int = 0
    delivered: int = 0
    durations: list[float] = field(default_factory=list)
    """How long each tick that ran to its end took (kill delays are drawn within that)."""

    def close(self) -> None:
        self.smtp.stop()


def make_run(root: Path, *, steps: int = 4, timeout: float = 5, lock_wait: float = 30) -> Run:
    root.mkdir(parents=True, exist_ok=True)
    smtp = ScriptedSmtp().start()
    cfg_path = root / "config.toml"
    cfg_path.write_text(CONFIG.format(root=root, domain=DOMAIN, port=smtp.port, game=GAME, steps=steps,
                                      timeout=timeout, lock_wait=lock_wait))
    return Run(root, cfg_path, smtp)


def setup_game(run: Run, players: int) -> list[str]:
    """Create, fill and start the game (in this process, before any kill); returns the seating order."""
    from pbem import config as configmod
    from pbem.engine import Engine
    from pbem.store import Store

    cfg = configmod.load(run.cfg_path)
    store = Store(cfg.database)
    try:
        eng = Engine(cfg, store)
        eng.new_game(GAME, T0, seed="c0ffee" * 10 + "beef")
        for i in range(players):
            eng.add_player(GAME, f"Joueur {i + 1}", f"p{i + 1:02d}@{DOMAIN}", T0)
        eng.start_game(GAME, T0)
        return list(eng.state(eng.game(GAME)).players)
    finally:
        store.close()


def order_mail(sender: str, lines: list[str], message_id: str, subject: str = "[RK] ordres") -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = f"jeu@{DOMAIN}"
    m["Subject"] = subject
    m["Message-ID"] = message_id
    m["Date"] = "Tue, 01 Dec 2026 21:00:00 +0100"
    m.set_content("\n".join(lines) + "\n\n-- \nEnvoyé de mon iPhone\n")
    return m.as_bytes()


def schedule(seating: list[str], steps: int, *, rng: random.Random | None = None,
             mutate: Callable[[random.Random, bytes], bytes] | None = None, strangers: bool = False) -> list[Pass]:
    """The passes of a whole game: orders for each step, then its deadline (simultaneous steps last
    2 days, sequential ones 1).  With ``mutate``, some mails are damaged copies (the soak)."""
    players = sorted(seating)
    passes: list[Pass] = []
    now = T0
    for step in range(1, steps + 1):
        mails: list[bytes] = []
        for i, name in enumerate(players):
            address = f"p{int(name.split()[-1]):02d}@{DOMAIN}"
            if step % 2:
                lines = [f"GUESS {(3 * i + step) % 10 + 1}"] + (["ROLL"] if i % 3 == 0 else [])
            else:
                lines = [f"GIFT {players[(i + step) % len(players)]}"]
            if i == 1:
                lines.append("GUESS 42")  # an error in every step: the ack says so
            mails.append(order_mail(address, lines, f"<s{step}p{i}@{DOMAIN}>"))
        if strangers:
            mails.append(order_mail(STRANGER, ["bonjour"], f"<stranger{step}@{DOMAIN}>", subject="une question"))
        if mutate is not None and rng is not None:
            mails += [mutate(rng, rng.choice(mails)) for _ in range(3)]
        passes.append(Pass(now + timedelta(hours=1), mails))
        now += timedelta(days=2 if step % 2 else 1)
        passes.append(Pass(now + timedelta(minutes=1)))
    passes.append(Pass(now + timedelta(hours=1)))  # the final mails go out
    return passes


def deliver(run: Run, p: Pass) -> None:
    """Put a pass's mails in the inbox, each with its own arrival time (the file's mtime)."""
    box = mailbox.Maildir(str(run.root / "inbox"), create=True)
    for i, raw in enumerate(p.mails):
        key = box.add(raw)
        arrived = (p.now - timedelta(minutes=30) + timedelta(seconds=i)).timestamp()
        path = run.root / "inbox" / "new" / key
        os.utime(path, (arrived, arrived))
        run.delivered += 1


def start_tick(run: Run, now: datetime) -> subprocess.Popen[bytes]:
    run.ticks += 1
    return subprocess.Popen(pbem_command(run.cfg_path, "tick", "--now", now.isoformat()), env=pbem_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def tick(run: Run, now: datetime, *, kill_after: float | None = None, timeout: float = 180) -> int | None:
    """One `pbem tick`; with ``kill_after``, SIGKILLed after that many seconds if still running.

    Returns its exit code (None when it was killed).  Raises if a tick that ran to its end failed
    with a traceback (a crash of pbem itself, not an error the pass reports)."""
    started = time.monotonic()
    proc = start_tick(run, now)
    if kill_after is not None:
        try:
            proc.wait(kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            run.kills += 1
            return None
    _out, err = proc.communicate(timeout=timeout)
    run.durations.append(time.monotonic() - started)
    if b"Traceback" in err:
        raise AssertionError(f"pbem tick crashed:\n{err.decode(errors='replace')[-3000:]}")
    return proc.returncode


def run_pass(run: Run, p: Pass, rng: random.Random | None, *, kills: int = 0) -> int | None:
    """Deliver a pass's mail, then tick it: ``kills`` times killed at random, then once to its end.

    Each kill comes after a delay drawn uniformly within the longest tick seen so far (1 s before
    any), so it lands anywhere in a tick: starting up, fetching, processing, resolving, sending.  A
    tick that ends before its kill is drawn again (at most ``4 * kills`` tries), within that tick's own
    length: the next tick of the same pass is like it (often a short one, its work done), and the longest
    tick seen can be several times a usual one, so most kills would then come too late (on a loaded
    machine, or when fast temporary files make the ticks short beside their start-up)."""
    deliver(run, p)
    landed = tries = 0
    within = max(run.durations, default=1.0)
    while landed < kills and tries < 4 * kills:
        assert rng is not None
        tries += 1
        if tick(run, p.now, kill_after=rng.uniform(0.02, within)) is None:
            landed += 1
        else:
            within = max(run.durations[-1], 0.05)
    return tick(run, p.now)


def _rows(db: sqlite3.Connection, sql: str) -> list[tuple[Any, ...]]:
    return sorted(db.execute(sql).fetchall(), key=repr)


def snapshot(run: Run) -> dict[str, Any]:
    """Every table that matters, without what legitimately differs between runs (storage keys, row ids,
    retry bookkeeping), the export, and the mails the SMTP server accepted."""
    db = sqlite3.connect(f"file:{run.root / 'db.sqlite'}?mode=ro", uri=True)
    try:
        tables = {
            "games": _rows(db, "select * from games"),
            "players": _rows(db, "select * from players"),
            "records": _rows(db, "select * from records"),
            "orders": _rows(db, "select game, turn, player, orders, lines, source, message_key, received_at, "
                                "current from orders"),
            "journal": _rows(db, "select game, at, who, action, detail from journal"),
            "messages": _rows(db, "select message_id, received_at, size, status, game, sender, verdict, "
                                  "processed_at from messages"),
            "outbox": _rows(db, "select id, game, turn, kind, rcpt, subject, raw, status, created_at, record_seq "
                                "from outbox"),
        }
    finally:
        db.close()
    proc = subprocess.run(pbem_command(run.cfg_path, "export", GAME, "--json", "--with-seed"), env=pbem_env(),
                          capture_output=True, text=True, timeout=120, check=True)
    copies: dict[str, list[bytes]] = {}
    for item in run.smtp.received:
        mid = next((line.split(b":", 1)[1].strip().decode() for line in item.data.split(b"\r\n")
                    if line.lower().startswith(b"message-id:")), "?")
        copies.setdefault(mid, []).append(item.data)
    return {"tables": tables, "export": proc.stdout, "copies": copies}


@dataclass
class Comparison:
    identical: bool
    differing: list[str]
    missing: int
    changed: int
    duplicated: int


def compare(reference: dict[str, Any], other: dict[str, Any]) -> Comparison:
    """Tables and export equal?  Mails missing, sent with another content, or sent more than once."""
    differing = [name for name in reference["tables"] if reference["tables"][name] != other["tables"][name]]
    if reference["export"] != other["export"]:
        differing.append("export")
    ref, got = reference["copies"], other["copies"]
    missing = sum(1 for mid in ref if mid not in got)
    changed = sum(1 for mid, c in got.items() if len(set(c)) > 1 or (mid in ref and c[0] != ref[mid][0]))
    changed += sum(1 for mid in got if mid not in ref)
    duplicated = sum(len(c) - 1 for c in got.values())
    return Comparison(not differing and not missing and not changed, differing, missing, changed, duplicated)

