"""A cron's `pbem tick` that finds nothing to do loads only what that costs (issue #24, the cold start).

Counted, not timed: the modules a real `pbem tick` process has loaded when it ends, in a `pbem init` folder
(local Maildirs, no game in the database), at its second pass (the first makes the database's tables), and
in one where a game is running with nothing due (what is due is read from the database, `pbem.due`).  The
CPU figure beside the import floor is `make bench`'s figure 12 (bench/coldstart.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# what the pass must not load when the inbox is empty and no game is in the database: the engine and the
# games, IMAP and TLS, Pillow, the scheduler, the archive, Jinja, sqlite-utils, the outbox (no mail queued)
NOT_LOADED = ("pbem.engine", "pbem.games.pmb", "pbem.games.courtisans", "pbem.pictures", "pbem.render",
              "pbem.archive", "imapclient", "imaplib", "ssl", "smtplib", "PIL", "apscheduler", "jinja2",
              "sqlite_utils", "pbem.outbox")

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


# what the pass must not load either when a game is running and nothing is due (its first letters sent):
# the engine, Jinja, Pillow, the outbox
NOT_LOADED_WITH_A_GAME = ("pbem.engine", "pbem.pictures", "pbem.render", "pbem.archive", "imapclient", "imaplib",
                          "ssl", "smtplib", "PIL", "apscheduler", "jinja2", "sqlite_utils", "pbem.outbox")

GAME = """
[games.pmb1]
ruleset = "pmb"
mj = "mj@example.org"
reminder_hours = [24]
[games.pmb1.deadlines]
turn = "7d@21:00"
"""

_START = """
from pbem.cli import main

def run(*args):
    try:
        main(list(args))
    except SystemExit as e:
        assert not e.code, e.code

run("game", "new", "pmb1", "--now", "2026-12-01T12:00")
for i in range(12):
    run("player", "add", "pmb1", f"p{i}", f"p{i}@example.org", "--now", "2026-12-01T12:00")
run("game", "start", "pmb1", "--now", "2026-12-01T12:00")
run("tick", "--now", "2026-12-01T12:00")
"""
"""A game of Pour Ma Belle started on 1 December 2026 at noon: its first step ends a week later, at 21 h."""


@pytest.fixture
def running(folder: Path) -> Path:
    with (folder / "config.toml").open("a", encoding="utf-8") as f:
        f.write(GAME)
    subprocess.run([sys.executable, "-c", _START], cwd=folder, env=_env(), check=True, capture_output=True)
    return folder


def _loaded(names: set[str], among: tuple[str, ...]) -> list[str]:
    return sorted(m for m in names if any(m == n or m.startswith(n + ".") for n in among))


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
    assert _loaded(loaded, NOT_LOADED) == []


def _tick_at(folder: Path, now: str) -> subprocess.CompletedProcess[str]:
    """A pass at ``now`` (the game's calendar, not the machine's); its last line: the modules it loaded."""
    code = _TICK.replace("main(['tick'])", f"main(['tick', '--now', {now!r}])")
    return subprocess.run([sys.executable, "-c", code], cwd=folder, env=_env(), check=True, capture_output=True,
                          text=True)


def test_an_empty_tick_with_a_game_running_and_nothing_due_loads_no_engine_no_jinja(running: Path):
    done = _tick_at(running, "2026-12-03T12:00")  # the deadline is days away, no reminder is owed
    assert "0 courriel relevé ; 0 traité ; 0 envoyé" in done.stdout.replace("\u00a0", " ")
    loaded = set(json.loads(done.stdout.splitlines()[-1]))
    assert "pbem.daemon" in loaded and "pbem.store" in loaded  # (the pass did run)
    assert _loaded(loaded, NOT_LOADED_WITH_A_GAME) == []
    # of the game, only what reading config.toml needs: its options (their check reads the roles' names)
    assert _loaded(loaded, ("pbem.games.pmb",)) == ["pbem.games.pmb", "pbem.games.pmb.options", "pbem.games.pmb.roles"]


def test_a_tick_with_a_reminder_due_still_loads_the_engine_and_sends_it(running: Path):
    """The other side: a day before the deadline, the players are reminded (none gave orders)."""
    done = _tick_at(running, "2026-12-07T21:30")
    said = re.search(r"; (\d+) envoyés.* pmb1 : (\d+) rappels", done.stdout.replace("\u00a0", " "))
    assert said and said[1] == said[2] != "0", done.stdout[:200]  # (a player whose role asks nothing is not)
    assert "pbem.engine" in json.loads(done.stdout.splitlines()[-1])


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
