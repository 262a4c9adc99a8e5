"""Issue #22: what goes wrong with the real IMAP server reaches a French MJ in French (`pbem doctor`, `pbem tick`)."""

from __future__ import annotations

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner

from pbem.cli import main

pytestmark = pytest.mark.mail

ENGLISH = ("failed", "refused for", "cannot open", "connect", "fetched", "processed", "select")


def _config(tmp_path, mail_env, *, folder: str = "INBOX", password_env: str = "GOOD_PW") -> str:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"""
[pbem]
database = "{tmp_path}/db.sqlite"
address = "{mail_env.addr('game')}"
{mail_env.mailbox_toml(password_env=password_env, folder=folder)}[outbox]
kind = "maildir"
path = "{tmp_path}/outbox"
""")
    return str(cfg)


def _english_left(text: str) -> list[str]:
    """The English words of pbem's own lines left in ``text`` (the server's quoted reply taken out)."""
    outside = "".join(part.split("»", 1)[-1] for part in text.split("«"))
    return [word for word in ENGLISH if word in outside]


def test_doctor_says_a_refused_login_and_a_missing_folder_in_french(tmp_path, mail_env, monkeypatch):
    monkeypatch.setenv("GOOD_PW", mail_env.password)
    monkeypatch.setenv("BAD_PW", "wrong")
    bad = CliRunner().invoke(main, ["--config", _config(tmp_path, mail_env, password_env="BAD_PW"), "doctor"])
    line = next(x for x in bad.output.splitlines() if "mailbox" in x)
    assert "identifiant refusé" in line and not _english_left(line), line
    missing = CliRunner().invoke(main, ["--config", _config(tmp_path, mail_env, folder="Jeux perdus"), "doctor"])
    line = next(x for x in missing.output.splitlines() if "mailbox" in x)
    assert "[ÉCHEC]" in line and "impossible d'ouvrir le dossier « Jeux perdus »" in line.replace("\u00a0", " "), line
    assert not _english_left(line), line


def test_a_tick_that_cannot_read_the_folder_says_so_in_french(tmp_path, mail_env, monkeypatch):
    monkeypatch.setenv("GOOD_PW", mail_env.password)
    result = CliRunner().invoke(main, ["--config", _config(tmp_path, mail_env, folder="Jeux perdus"), "tick"])
    text = result.output.replace("\u00a0", " ")
    assert "relève du courrier en échec : IMAP" in text, text
    assert "ouverture du dossier « Jeux perdus » : erreur IMAP («" in text, text
    assert "0 courriel relevé" in text and not _english_left(text), text
