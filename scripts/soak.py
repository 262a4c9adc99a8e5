"""`make soak`: the long fault campaign.  Prints a table; exits 1 if any round ends different.

Each round plays a whole game twice: once quietly (no kill, no fault), once under faults:
- every pass's `pbem tick` is SIGKILLed several times after random delays, then run to its end;
- the loopback SMTP server (`tests/scripted_smtp.py`) is given a fault for the whole of some passes:
  421 at connection, 451 to RCPT or DATA, the connection dropped, DATA stalled past the timeout;
  it refuses a stranger's address with 550 in both runs (a permanent failure outside any game);
- some passes start two ticks at once (cron overlap; the second waits for the first);
- a few mails of each step are damaged copies (bytes flipped, cut short, headers lost, 8-bit junk
  in From, a non-ASCII address), the same in both runs.
After the last pass the server is healed and ticks run (simulated clock 5 minutes apart) until the
outbox is empty: the drain time, in passes, wall-clock seconds and simulated minutes (the capped
backoff, `retry_max_seconds` = 600 here, bounds the wait).  Then the two runs are compared: every table
that matters, the export, and the (Message-ID, body) of every mail the server accepted.

    .venv/bin/python scripts/soak.py [--rounds 3] [--steps 8] [--kills-per-pass 6] [--seed 1]

All traffic stays on 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

import campaign  # noqa: E402
from campaign import STRANGER, Pass, Run, compare, deliver, make_run, schedule, setup_game, snapshot  # noqa: E402

FAULTS: list[tuple[str, list[tuple[str, str]]]] = [
    ("421 at connection", [("connect", "421")]),
    ("451 to RCPT", [("rcpt", "451")]),
    ("451 to DATA", [("data", "451")]),
    ("connection dropped", [("mail", "drop")]),
    ("DATA stalled 3 s", [("data", "stall:3")]),
    ("421 to any command", [("any", "421")]),
]
ALWAYS = [(f"rcpt={STRANGER}", "550")]
MAX_DRAIN_PASSES = 60


def mutate(rng: random.Random, raw: bytes) -> bytes:
    """A damaged copy of a mail (a new Message-ID, so it is not a mere duplicate)."""
    head, _, body = raw.partition(b"\n\n")
    head = head.replace(b"Message-ID: <", b"Message-ID: <m%d." % rng.randrange(10**9), 1)
    kind = rng.randrange(6)
    if kind == 0:  # bytes flipped
        data = bytearray(head + b"\n\n" + body)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] = rng.randrange(256)
        return bytes(data)
    if kind == 1:  # cut short
        whole = head + b"\n\n" + body
        return whole[: rng.randrange(1, len(whole))]
    if kind == 2:  # a header lost
        lines = head.split(b"\n")
        lines.pop(rng.randrange(len(lines)))
        return b"\n".join(lines) + b"\n\n" + body
    if kind == 3:  # 8-bit junk in From
        return head.replace(b"From: ", b"From: Jos\xe9 \xff\xfe ", 1) + b"\n\n" + body
    if kind == 4:  # a non-ASCII address
        return head.replace(b"From: p", "From: José <josé.p".encode(), 1).replace(b"test\n", b"test>\n", 1) \
            + b"\n\n" + body
    return head + b"\n\n" + body.replace(b"\n", b"\r\r\n") + b"\x00" * rng.randint(0, 3)


def faulty_pass(run: Run, p: Pass, rng: random.Random, kills: int, overlap: bool) -> None:
    deliver(run, p)
    for _ in range(kills):
        campaign.tick(run, p.now, kill_after=rng.uniform(0.02, max(run.durations, default=1.0)))
    if overlap:  # two at once, the first maybe killed
        first = campaign.start_tick(run, p.now)
        time.sleep(rng.uniform(0, 0.2))
        second = campaign.start_tick(run, p.now)
        if rng.random() < 0.5:
            time.sleep(rng.uniform(0, 0.5))
            if first.poll() is None:
                first.kill()
                run.kills += 1
        for proc in (first, second):
            _out, err = proc.communicate(timeout=300)
            if b"Traceback" in err:
                raise AssertionError(err.decode(errors="replace")[-3000:])
    campaign.tick(run, p.now)


def queued(run: Run) -> int:
    db = sqlite3.connect(f"file:{run.root / 'db.sqlite'}?mode=ro", uri=True)
    try:
        return int(db.execute("select count(*) from outbox where status = 'queued'").fetchone()[0])
    finally:
        db.close()


def one_round(root: Path, seed: int, steps: int, kills_per_pass: int) -> dict[str, object]:
    rng = random.Random(seed)
    mails_rng = random.Random(seed * 7919)
    reference = make_run(root / "reference", steps=steps, timeout=1)
    soak = make_run(root / "soak", steps=steps, timeout=1)
    try:
        for run in (reference, soak):
            run.smtp.smtputf8 = True
            run.smtp.set_faults(*ALWAYS)
        seating = setup_game(reference, 6)
        assert setup_game(soak, 6) == seating
        passes = schedule(seating, steps, rng=mails_rng, mutate=mutate, strangers=True)
        for p in passes:
            campaign.run_pass(reference, p, None)
        faults_used: list[str] = []
        for i, p in enumerate(passes):
            last = i >= len(passes) - 2  # the last resolution's mail always meets a fault and waits for the healing
            name, rules = FAULTS[rng.randrange(len(FAULTS))] if last or rng.random() < 0.5 else ("none", [])
            faults_used.append(name)
            soak.smtp.set_faults(*ALWAYS, *rules)
            faulty_pass(soak, p, rng, kills_per_pass, overlap=rng.random() < 0.3)
        soak.smtp.set_faults(*ALWAYS)  # healed
        healed = time.monotonic()
        now = passes[-1].now
        drain_passes = 0
        while queued(soak) and drain_passes < MAX_DRAIN_PASSES:
            now += timedelta(minutes=5)
            campaign.tick(soak, now)
            drain_passes += 1
        drain_wall = time.monotonic() - healed
        # the reference gets the same extra passes (they send nothing there: its queue is empty)
        ref_now = passes[-1].now
        for _ in range(drain_passes):
            ref_now += timedelta(minutes=5)
            campaign.tick(reference, ref_now)
        result = compare(snapshot(reference), snapshot(soak))
        return {"seed": seed, "kills": soak.kills, "ticks": soak.ticks, "identical": result.identical,
                "differing": result.differing, "missing": result.missing, "changed": result.changed,
                "duplicated": result.duplicated, "drain_passes": drain_passes, "drain_wall": drain_wall,
                "left": queued(soak), "faults": sum(1 for f in faults_used if f != "none"),
                "mails": soak.delivered}
    finally:
        reference.close()
        soak.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--kills-per-pass", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows = []
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pbem-soak-") as tmp:
        for r in range(args.rounds):
            row = one_round(Path(tmp) / f"round{r}", args.seed + r, args.steps, args.kills_per_pass)
            rows.append(row)
            print(f"round {r + 1}: {row['kills']} kills, identical={row['identical']} {row['differing'] or ''}",
                  flush=True)
    print()
    head = (f"{'round':>5} {'kills':>6} {'ticks':>6} {'faulty passes':>13} {'mails in':>8} {'identical':>9} "
            f"{'missing':>7} {'changed':>7} {'duplicated':>10} {'drain passes':>12} {'drain s':>8} {'drain min':>9}")
    print(head)
    print("-" * len(head))
    for i, row in enumerate(rows):
        print(f"{i + 1:>5} {row['kills']:>6} {row['ticks']:>6} {row['faults']:>13} {row['mails']:>8} "
              f"{'yes' if row['identical'] else 'NO':>9} {row['missing']:>7} {row['changed']:>7} "
              f"{row['duplicated']:>10} {row['drain_passes']:>12} {row['drain_wall']:>8.1f} "
              f"{5 * int(str(row['drain_passes'])):>9}")
    total_kills = sum(int(str(r["kills"])) for r in rows)
    same = sum(1 for r in rows if r["identical"])
    print("-" * len(head))
    print(f"total: {total_kills} kills, {same}/{len(rows)} rounds identical, "
          f"{sum(int(str(r['missing'])) for r in rows)} mails missing, "
          f"{sum(int(str(r['changed'])) for r in rows)} changed, "
          f"{sum(int(str(r['duplicated'])) for r in rows)} duplicated (same bytes again), "
          f"{time.monotonic() - started:.0f} s")
    ok = same == len(rows) and all(r["left"] == 0 for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
