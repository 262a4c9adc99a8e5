"""`pbem doctor` against the real servers: good logins pass, a wrong password is named, nothing is written."""

from __future__ import annotations

from pathlib import Path

import helpers  # noqa: F401  (registers the toy ruleset)
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
{mail_env.mailbox_toml(password_env=password_env)}[outbox]
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


def test_doctor_reads_who_wrote_the_newest_mails_authentication_results_and_marks_nothing(tmp_path, mail_env,
                                                                                          monkeypatch):
    """Issue 19: trusted_authserv checked against a real box; the mails stay unseen, in their folder."""
    monkeypatch.setenv("GOOD_PW", mail_env.password)
    mail_env.clear("game")
    for i in range(7):  # the two oldest came through another server
        server = "mx.old.example" if i < 2 else "mx.pbem.test"
        mail_env.deliver("game", (f"Authentication-Results: {server}; dkim=pass header.d=example.org\r\n"
                                  f"Authentication-Results: mx.google.com; dkim=pass header.d=example.org\r\n"
                                  f"From: joueur{i}@example.org\r\nSubject: [TOY] ordres {i}\r\n\r\nGUESS 3\r\n").encode())
    cfg = Path(_config(tmp_path, mail_env, "GOOD_PW"))
    cfg.write_text(cfg.read_text() + '\n[games.toy1]\nruleset = "toy"\ntag = "TOY"\nmj = "mj@pbem.test"\nauth = "dkim"\n')
    with mail_env.imap("game") as c:
        c.select_folder("INBOX", readonly=True)
        before = c.get_flags(c.search(["ALL"]))
    result = CliRunner().invoke(main, ["--config", str(cfg), "doctor"])
    out = result.output.replace("\u00a0", " ")
    assert result.exit_code == 0, out
    assert ("[attention] trusted_authserv : l'en-tête Authentication-Results du dessus des 5 derniers courriels "
            "de la boîte est écrit par « mx.pbem.test », pas par trusted_authserv = [\"mx.google.com\"]") in out, out
    assert 'mettez trusted_authserv = ["mx.pbem.test"] dans [mailbox]' in out and "mx.old.example" not in out
    with mail_env.imap("game") as c:
        c.select_folder("INBOX", readonly=True)
        after = c.get_flags(c.search(["ALL"]))
    assert after == before and len(after) == 7 and not any(b"\\Seen" in flags for flags in after.values())
    fixed = cfg.read_text().replace('[outbox]', 'trusted_authserv = "mx.pbem.test"\n[outbox]', 1)
    cfg.write_text(fixed)
    out = CliRunner().invoke(main, ["--config", str(cfg), "doctor"]).output.replace("\u00a0", " ")
    assert '[ok] trusted_authserv : ["mx.pbem.test"] : c\'est bien le serveur' in out, out
