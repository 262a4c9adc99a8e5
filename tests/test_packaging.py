"""pbem installed like a tool: a wheel built from the repo, installed (not editable) into a fresh venv outside
the repo, runs a game from a folder made by `pbem init`: a mail dropped in the inbox gets its ack."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import zipfile
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GAME = """
[games.pmb1]
ruleset = "pmb"
tag = "PMB"
title = "Pour Ma Belle"
mj = "mj@example.org"
registration = "3d@21:00"
"""


def _run(*args: str | Path, cwd: Path) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.slow
def test_a_built_wheel_runs_a_game_from_a_folder_made_by_init(tmp_path):
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, ROOT,
         cwd=tmp_path)
    (wheel,) = wheels.glob("pbem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/templates/common/ack.fr.j2" in names and "pbem/data/config.toml" in names
    assert "pbem/data/1626/personnages.toml" in names
    assert not any(n.startswith(("tests/", "bench/", "scripts/")) for n in names)  # the repo's tools stay home
    # the MJ's guide and every rules page travel in the wheel (setup.py copies docs/ in)
    assert {"pbem/docs/guide-mj.md", "pbem/docs/scenarios.md"} <= set(names)
    assert {f"pbem/docs/rules/{g}.md" for g in ("pmb", "intrigue", "1626", "courtisans", "pourleroi")} <= set(names)
    # a fresh venv outside the repo; pbem itself from the wheel, its dependencies seen through a .pth
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    site = Path(sysconfig.get_paths(vars={"base": str(venv), "platbase": str(venv)})["purelib"])
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "--no-deps", "-q", wheel,
         cwd=tmp_path)
    pbem = venv / "bin" / "pbem"
    where = _run(venv / "bin" / "python", "-c", "import pbem, pbem.render as r; print(pbem.__file__, r.TEMPLATES)",
                 cwd=tmp_path)
    assert str(venv) in where and str(ROOT) not in where  # the installed copy, not the source tree

    assert _run(pbem, "--version", cwd=tmp_path) == f"pbem {version('pbem')}\n"
    guide = _run(pbem, "guide", cwd=tmp_path)
    assert guide == (ROOT / "docs" / "guide-mj.md").read_text(encoding="utf-8")
    assert str(venv) in _run(pbem, "guide", "pmb", "--path", cwd=tmp_path)  # the wheel's copy, not the source's

    folder = tmp_path / "mon jeu"
    _run(pbem, "init", folder, cwd=tmp_path)
    assert (folder / "docs" / "rules" / "intrigue.md").read_text(encoding="utf-8") == (
        ROOT / "docs" / "rules" / "intrigue.md").read_text(encoding="utf-8")
    with open(folder / "config.toml", "a", encoding="utf-8") as f:
        f.write(GAME)
    assert "FAIL" not in _run(pbem, "doctor", cwd=folder)
    _run(pbem, "game", "new", "pmb1", cwd=folder)
    mail = EmailMessage()
    mail["From"] = "Olenna <olenna@example.org>"
    mail["To"] = "jeu@example.org"
    mail["Subject"] = "[PMB] inscription"
    mail["Message-ID"] = "<inscription-1@example.org>"
    mail.set_content("INSCRIPTION Olenna\n")
    (folder / "data" / "mail" / "inbox" / "new").mkdir(parents=True)
    (folder / "data" / "mail" / "inbox" / "new" / "1.eml").write_bytes(mail.as_bytes())
    # the pass as cron runs it: the line LISEZMOI gives, in cron's bare environment (no PATH to pbem, HOME elsewhere)
    (cron_line,) = [x.strip() for x in (folder / "LISEZMOI.md").read_text(encoding="utf-8").splitlines()
                    if x.strip().startswith("*/5 * * * * ")]
    assert str(venv) in cron_line and "data/pbem.log" in cron_line
    subprocess.run(["sh", "-c", cron_line.removeprefix("*/5 * * * * ")], check=True, timeout=120, cwd=tmp_path,
                   env={"HOME": str(tmp_path), "LOGNAME": "mj", "SHELL": "/bin/sh", "PATH": "/usr/bin:/bin"})
    assert "1 traité" in (folder / "data" / "pbem.log").read_text(encoding="utf-8")  # (the folder's language)
    (sent,) = (folder / "data" / "mail" / "outbox" / "new").iterdir()
    ack = message_from_bytes(sent.read_bytes(), policy=default)
    assert ack["To"] == "olenna@example.org" and ack["In-Reply-To"] == "<inscription-1@example.org>"
    assert "Olenna" in ack.get_content()
