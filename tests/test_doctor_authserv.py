"""`pbem doctor` checks trusted_authserv against the topmost Authentication-Results of the box's newest mails.

On a Maildir box (the IMAP one is in tests/integration/test_doctor.py): a mismatch is a warning in the
configured language that names the value to put; the box is only read (names, times and contents of its
files unchanged, nothing created).
"""

from __future__ import annotations

import os
from pathlib import Path

import helpers  # noqa: F401  (registers the toy ruleset)
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.cli import main


def _config(tmp_path: Path, *, mailbox: str = "", game: str = 'auth = "dkim"', top: str = "") -> Path:
    cfg = tmp_path / "config.toml"
    text = toy_config_toml(tmp_path, top=top, game=game)
    if mailbox:
        text = text.replace("[mailbox]\n", f"[mailbox]\n{mailbox}\n", 1)
    cfg.write_text(text)
    return cfg


def _deliver(tmp_path: Path, *results: str, name: str = "1", sub: str = "new", mtime: int = 1_700_000_000) -> Path:
    folder = tmp_path / "inbox" / sub
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name if sub == "new" else f"{name}:2,S")
    head = "".join(f"Authentication-Results: {r}\r\n" for r in results)
    path.write_bytes((head + "From: joueur@x.org\r\nSubject: [TOY] ordres\r\n\r\nGUESS 3\r\n").encode())
    os.utime(path, (mtime, mtime))
    return path


def _snapshot(root: Path) -> list[tuple[str, int, bytes]]:
    return sorted((str(p.relative_to(root)), p.stat().st_mtime_ns, p.read_bytes()) for p in root.rglob("*")
                  if p.is_file())


def _doctor(cfg: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--config", str(cfg), "doctor"])
    return result.exit_code, result.output.replace("\u00a0", " ")


def test_another_server_on_top_is_a_warning_naming_the_value_to_put(tmp_path):
    cfg = _config(tmp_path)
    for i in range(3):
        _deliver(tmp_path, "mx.example.org; dkim=pass header.d=x.org", "mx.google.com; dkim=pass header.d=x.org",
                 name=str(i), sub="cur" if i else "new", mtime=1_700_000_000 + i)
    before = _snapshot(tmp_path / "inbox")
    code, out = _doctor(cfg)
    assert code == 0, out
    assert ("[attention] trusted_authserv : l'en-tête Authentication-Results du dessus des 3 derniers courriels "
            "de la boîte est écrit par « mx.example.org », pas par trusted_authserv = [\"mx.google.com\"] ; pbem "
            "refusera le courrier des parties qui vérifient les expéditeurs : mettez trusted_authserv = "
            "[\"mx.example.org\"] dans [mailbox]") in out
    assert _snapshot(tmp_path / "inbox") == before  # read only: nothing marked, moved or created
    assert not (tmp_path / "db.sqlite").exists()


def test_the_right_server_is_confirmed(tmp_path):
    cfg = _config(tmp_path, mailbox='trusted_authserv = "mx.example.org"')
    _deliver(tmp_path, "mx.example.org 1; dkim=pass header.d=x.org")
    code, out = _doctor(cfg)
    assert code == 0 and "[attention]" not in out, out
    assert ('[ok] trusted_authserv : ["mx.example.org"] : c\'est bien le serveur qui a écrit l\'en-tête '
            "Authentication-Results du dessus du dernier courriel de la boîte") in out


def test_only_the_newest_mails_count(tmp_path):
    cfg = _config(tmp_path, mailbox='trusted_authserv = "mx.new.example"')
    for i in range(8):  # the old server delivered the three oldest
        _deliver(tmp_path, f"mx.{'old' if i < 3 else 'new'}.example; none", name=str(i), mtime=1_700_000_000 + i)
    code, out = _doctor(cfg)
    assert 'trusted_authserv : ["mx.new.example"] : c\'est bien le serveur' in out and "mx.old" not in out, out


def test_some_mails_by_another_server_are_named(tmp_path):
    cfg = _config(tmp_path)
    for i, writer in enumerate(["mx.google.com", "mx.google.com", "relay.example"]):
        _deliver(tmp_path, f"{writer}; none", name=str(i), mtime=1_700_000_000 + i)
    code, out = _doctor(cfg)
    assert "c'est bien le serveur" in out
    assert ("[attention] trusted_authserv : d'autres serveurs ont écrit l'en-tête du dessus de certains courriels (relay.example) : "
            "des courriels transférés ? pbem les refusera") in out


def test_an_empty_box_and_a_box_without_the_header_are_warnings(tmp_path):
    cfg = _config(tmp_path)
    code, out = _doctor(cfg)
    assert code == 0 and "[attention] trusted_authserv : la boîte est vide" in out, out
    assert not (tmp_path / "inbox").exists()  # (doctor creates nothing)
    _deliver(tmp_path)
    code, out = _doctor(cfg)
    assert ("[attention] trusted_authserv : le dernier courriel de la boîte ne porte pas d'en-tête Authentication-Results ; le serveur "
            "qui remplit la boîte n'en écrit pas, et auth refusera votre courrier et celui des joueurs : mettez "
            "plutôt passwords = true") in out


def test_an_unreadable_topmost_header_is_said(tmp_path):
    cfg = _config(tmp_path)
    _deliver(tmp_path, "spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=x.org; dkim=pass header.d=x.org")
    code, out = _doctor(cfg)
    assert ("l'en-tête Authentication-Results du dessus est illisible dans 1 courriel sur 1 (topmost "
            "Authentication-Results unreadable: no authserv-id") in out, out


def test_english_when_the_config_says_so(tmp_path):
    cfg = _config(tmp_path, top='language = "en"')
    _deliver(tmp_path, "mx.example.org; none")
    code, out = _doctor(cfg)
    assert ('[warning] trusted_authserv: the topmost Authentication-Results of the newest mail of the mailbox '
            'is written by "mx.example.org", not by trusted_authserv = ["mx.google.com"]; pbem will refuse the mail '
            'of the games that check senders: put trusted_authserv = ["mx.example.org"] in [mailbox]') in out, out


def test_a_per_game_setting_is_told_to_move(tmp_path):
    cfg = _config(tmp_path, game='auth = "dkim"\ntrusted_authserv = ["mx.example.org"]')
    _deliver(tmp_path, "mx.example.org; none")
    code, out = _doctor(cfg)
    assert ("[attention] trusted_authserv : trusted_authserv est réglé dans [games.toy1] ; mettez-le plutôt dans [mailbox]") in out
    assert "[\"mx.example.org\"] : c'est bien le serveur" in out


def test_not_checked_when_no_game_checks_senders(tmp_path):
    cfg = _config(tmp_path, game="")
    _deliver(tmp_path, "mx.example.org; none")
    code, out = _doctor(cfg)
    assert code == 0 and "trusted_authserv" not in out


def test_a_forged_name_is_not_echoed(tmp_path):
    cfg = _config(tmp_path)
    _deliver(tmp_path, '"\x1b[31mclick http://evil.example"; none')
    code, out = _doctor(cfg)
    assert "écrit par « ? »" in out and "\x1b" not in out and "evil" not in out
