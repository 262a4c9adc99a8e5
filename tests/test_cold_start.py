"""A cron's `pbem tick` that finds nothing to do loads only what that costs (issue #24, the cold start).

Counted, not timed: the modules a real `pbem tick` process has loaded when it ends, in a `pbem init` folder
(local Maildirs, no game in the database), at its second pass (the first makes the database's tables).  The CPU figure beside the import floor is `make bench`'s
figure 12 (bench/coldstart.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# what the pass must not load when the inbox is empty and no game is in the database: the engine and the
# games, IMAP and TLS, Pillow, the scheduler, the archive, Jinja, sqlite-utils
NOT_LOADED = ("pbem.engine", "pbem.games.pmb", "pbem.games.courtisans", "pbem.pictures", "pbem.render",
              "pbem.archive", "imapclient", "imaplib", "ssl", "smtplib", "PIL", "apscheduler", "jinja2",
              "sqlite_utils")

_TICK = ("import json, sys\n"
         "from pbem.cli import main\n"
         "try:\n"
         "    main(['tick'])\n"
         "except SystemExit as e:\n"
         "    assert not e.code, e.code\n"
         "print(json.dumps(sorted(sys.modules)))\n")


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PBEM_CONFIG", "PBEM_CRASH_AT", "PBEM_PAUSE_AT")}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    where = tmp_path / "jeu"
    subprocess.run([sys.executable, "-m", "pbem", "init", str(where)], env=_env(), check=True,
                   capture_output=True)
    return where


def _loaded_by_a_tick(folder: Path) -> set[str]:
    """The modules of the second pass (the first one may make the database's tables, with sqlite-utils)."""
    subprocess.run([sys.executable, "-m", "pbem", "tick"], cwd=folder, env=_env(), check=True, capture_output=True)
    done = subprocess.run([sys.executable, "-c", _TICK], cwd=folder, env=_env(), check=True, capture_output=True,
                          text=True)
    assert "0 courriel relevé" in done.stdout
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_an_empty_tick_in_an_init_folder_loads_no_engine_no_tls_no_jinja(folder: Path):
    loaded = _loaded_by_a_tick(folder)
    assert "pbem.daemon" in loaded and "pbem.store" in loaded  # (the pass did run)
    assert sorted(m for m in loaded if m.split(".")[0] in {n.split(".")[0] for n in NOT_LOADED}
                  and any(m == n or m.startswith(n + ".") for n in NOT_LOADED)) == []


def test_a_tick_with_mail_waiting_still_loads_the_engine_and_reads_it(folder: Path):
    """The other side: a mail in the inbox is fetched, stored and read (the engine is loaded for it)."""
    new = folder / "data" / "mail" / "inbox" / "new"
    new.mkdir(parents=True, exist_ok=True)
    (new / "1.eml").write_bytes(b"From: someone@example.org\r\nTo: jeu@example.org\r\nSubject: bonjour\r\n"
                                b"Message-ID: <1@example.org>\r\n\r\nBonjour.\r\n")
    code = _TICK.replace("print(json.dumps(sorted(sys.modules)))", "print('engine' in repr(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, env=_env(), check=True, capture_output=True,
                          text=True)
    assert "1 courriel relevé ; 1 traité" in done.stdout.replace("\u00a0", " ")
    assert done.stdout.splitlines()[-1] == "True"
