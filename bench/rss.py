"""Figure 5, the daemon's idle memory: `pbem run` on the embedded Maildir default (the repository's
config.toml), its VmRSS a few seconds after it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import ROOT, Options, Report


def run(opts: Options, report: Report) -> None:
    wait = 1 if opts.quick else 3
    report.say("\n[5] daemon idle RSS (pbem run, embedded Maildir default)")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-rss-") as tmp:
        cfg = Path(tmp) / "config.toml"
        text = (ROOT / "config.toml").read_text("utf-8")
        text = text.replace('"data/1626/personnages.toml"', f'"{ROOT / "data/1626/personnages.toml"}"')
        cfg.write_text(text, "utf-8")
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "--config", str(cfg), "run"], cwd=tmp,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            time.sleep(wait)
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
    report.say(f"    VmRSS after {wait} s: {mb:.1f} MiB (exit code after SIGTERM: {proc.returncode})")
    report.row("5 daemon", "idle RSS of pbem run", f"{mb:.1f} MiB", "no target given (informational)", None)


