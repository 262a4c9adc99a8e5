"""`pbem doctor` against the real servers: good logins pass, a wrong password is named, nothing is written."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main

pytestmark = pytest.mark.mail


def _config(tmp_path, mail_env, password_env: str) -> str:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f"""
[pbem]
database = "{tmp_path}/db.sqlite"
address = "{mail_env.addr('game')}"
[mailbox]
kind = "imap"
host = "{mail_env.host}"
port = {mail_env.imaps_port}
security = "ssl"
cafile = "{mail_env.cafile}"
user = "{mail_env.addr('game')}"
password_env = "{password_env}"
[outbox]
kind = "smtp"
host = "{mail_env.host}"
port = {mail_env.submission_port}
security = "starttls"
cafile = "{mail_env.cafile}"
user = "{mail_env.addr('game')}"
password_env = "{password_env}"
""")
    return str(cfg)


def test_doctor_checks_real_logins_and_writes_nothing(tmp_path, mail_env, monkeypatch):
    monkeypatch.setenv("GOOD_PW", mail_env.password)
    monkeypatch.setenv("BAD_PW", "wrong")
    ok = CliRunner().invoke(main, ["--config", _config(tmp_path, mail_env, "GOOD_PW"), "doctor"])
    assert ok.exit_code == 0, ok.output
    out = ok.output.replace("\u00a0", " ")  # (doctor speaks the configured language: French here)
    assert "[ok] mailbox : connexion IMAP" in out and "[ok] outbox : connexion SMTP" in out
    bad = CliRunner().invoke(main, ["--config", _config(tmp_path, mail_env, "BAD_PW"), "doctor"])
    assert bad.exit_code == 1
    assert "[ÉCHEC] mailbox" in bad.output and "[ÉCHEC] outbox" in bad.output
    assert not (tmp_path / "db.sqlite").exists()
