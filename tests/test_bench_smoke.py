"""`python -m bench --quick`: every figure module runs at small sizes and prints its rows, with numbers.

A smoke test of the bench's code, not of pbem's speed (the figures are `make bench`'s, never a test's):
it checks that each module of `bench.FIGURES` ran and added a row, and that every row's value holds a
number; not what the numbers are.  Without the loopback servers the mail figures say they were skipped;
the `mail` test runs those with the servers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _figures() -> dict[str, str]:
    """`bench.FIGURES`, read from the repository's bench/ (not installed: it is not in the wheel)."""
    spec = importlib.util.spec_from_file_location("bench_figures", ROOT / "bench" / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures: dict[str, str] = module.FIGURES
    return figures


FIGURES = _figures()
NEEDS_SERVERS = ("imap", "smtp", "latency")


def _quick(tmp_path: Path, env: dict[str, str], *names: str) -> tuple[str, list[dict[str, object]]]:
    rows_file = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--rows-json", str(rows_file), *names],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows: list[dict[str, object]] = json.loads(rows_file.read_text(encoding="utf-8"))
    return done.stdout, rows


def _numeric(value: object) -> bool:
    return bool(re.search(r"\d", str(value)))


def test_every_figure_runs_in_quick_mode_and_prints_its_rows(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAIL_") and k != "PBEM_CONFIG"}
    env["PYTHONPATH"] = str(ROOT)
    out, rows = _quick(tmp_path, env)
    assert {r["source"] for r in rows} == set(FIGURES)
    for r in rows:
        assert str(r["value"]) in out  # the table printed it
        if r["source"] in NEEDS_SERVERS:
            assert "skipped" in str(r["value"])
        else:
            assert _numeric(r["value"]), r
    assert out.count("nproc") == 2  # the machine's load, at the start and at the end


@pytest.mark.mail
def test_the_mail_figures_run_in_quick_mode_with_the_servers(tmp_path: Path, mail_env: object) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    _out, rows = _quick(tmp_path, env, *NEEDS_SERVERS)
    assert {r["source"] for r in rows} == set(NEEDS_SERVERS)
    assert all(_numeric(r["value"]) and "skipped" not in str(r["value"]) for r in rows), rows
    assert any("addition over the bare client" in str(r["figure"]) for r in rows)


def test_a_workers_peak_memory_is_its_own_not_its_parents() -> None:
    """A worker started by a big process reports its own peak (Linux carries ``ru_maxrss`` over exec)."""
    parent = ("import subprocess, sys\n"
              "ballast = b'x' * (300 << 20)\n"  # written pages: resident
              "child = 'from bench.harness import peak_rss_mib; print(peak_rss_mib())'\n"
              "print(subprocess.run([sys.executable, '-c', child], capture_output=True, text=True, check=True).stdout)\n")
    done = subprocess.run([sys.executable, "-c", parent], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120, check=True)
    assert float(done.stdout.strip()) < 150, done.stdout
