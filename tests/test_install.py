"""pbem as an installed tool: its version, `pbem run -v`, the guide and rules it carries, the config examples."""

from __future__ import annotations

import logging
from importlib.metadata import version

from click.testing import CliRunner

from pbem.cli import main


def test_version_is_the_installed_package_s():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"pbem {version('pbem')}\n"


def test_run_takes_verbose_as_people_expect(monkeypatch, tmp_path):
    """`pbem run -v` (and --verbose) turns pbem's detail on; without it, pbem at INFO and the scheduler's
    bookkeeping at WARNING.  (The daemon itself is tested in test_daemon.py: here only what the option sets.)"""
    import pbem.daemon

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(pbem.daemon, "run", lambda cfg: seen.append(
        (logging.getLogger("pbem").level, logging.getLogger("apscheduler").level)))
    cfg = tmp_path / "config.toml"
    cfg.write_text('[pbem]\naddress = "jeu@pbem.test"\n[mailbox]\nkind = "maildir"\n[outbox]\nkind = "maildir"\n')
    levels = {name: logging.getLogger(name).level for name in ("", "pbem", "apscheduler")}
    try:
        for args in (["run", "-v"], ["run", "--verbose"], ["run"]):
            result = CliRunner().invoke(main, ["--config", str(cfg), *args])
            assert result.exit_code == 0, result.output
    finally:  # (the loggers are the process's: the other tests keep theirs)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
    assert seen == [(logging.DEBUG, logging.INFO), (logging.DEBUG, logging.INFO), (logging.INFO, logging.WARNING)]
