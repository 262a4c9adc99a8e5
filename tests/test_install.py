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
    bookkeeping at ERROR (its « skipped » warnings are a poll that fell during a pass: normal).  (The daemon itself is tested in test_daemon.py: here only what the option sets.)"""
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
    assert seen == [(logging.DEBUG, logging.INFO), (logging.DEBUG, logging.INFO), (logging.INFO, logging.ERROR)]


def _example_blocks(text: str) -> dict[str, str]:
    """The commented game examples of a config.toml, each uncommented: ``# [games.x]`` to the next blank line."""
    blocks: dict[str, str] = {}
    current: list[str] | None = None
    for line in text.splitlines() + [""]:
        if line.startswith("# [games.") and "." not in line[len("# [games."):].rstrip("]"):
            current = blocks.setdefault(line[len("# [games."):].rstrip("]"), [])  # type: ignore[assignment]
        if current is not None:
            if not line.startswith("# "):
                current = None
                continue
            current.append(line[2:])
    return {gid: "\n".join(lines) + "\n" for gid, lines in blocks.items()}  # type: ignore[misc]


def test_the_config_pbem_init_writes_has_a_working_example_of_every_game(tmp_path):
    """Each commented example, uncommented alone, is a game config.toml accepts (its options checked by its
    ruleset), and every game pbem has is there."""
    from pbem import config as configmod
    from pbem import games
    from pbem.folder import DATA, init_folder

    text = (DATA / "config.toml").read_text(encoding="utf-8")
    examples = _example_blocks(text)
    init_folder(tmp_path / "g", pbem_command="pbem")
    rulesets = set()
    for gid, block in examples.items():
        path = tmp_path / "g" / "config.toml"
        path.write_text(text + "\n" + block, encoding="utf-8")
        cfg = configmod.load(path)
        assert list(cfg.games) == [gid]
        rulesets.add(cfg.games[gid].ruleset)
        assert cfg.games[gid].title and cfg.games[gid].mj
    # (the games pbem itself ships: the registry's modules under pbem.games; tests register their toy beside them)
    shipped = {n for n in games.names() if games.entry(n).ruleset.startswith("pbem.games.")}
    assert len(shipped) == 5 and rulesets == shipped


def test_guide_prints_the_mj_guide_and_each_game_s_rules(tmp_path):
    from pbem.guide import docs_dir

    runner = CliRunner()
    assert runner.invoke(main, ["guide"]).output == (docs_dir() / "guide-mj.md").read_text(encoding="utf-8")
    pmb = runner.invoke(main, ["guide", "pourmabelle"])  # an alias names its game
    assert pmb.exit_code == 0 and pmb.output == (docs_dir() / "rules" / "pmb.md").read_text(encoding="utf-8")
    listed = runner.invoke(main, ["guide", "--list"]).output.split()
    assert listed == ["guide", "scenarios", "1626", "courtisans", "intrigue", "pmb", "pourleroi"]
    wrong = runner.invoke(main, ["guide", "diplomatie"])
    assert wrong.exit_code == 1 and wrong.output.count("\n") == 1 and "Traceback" not in wrong.output
    assert wrong.output.startswith("Erreur\u00a0: pas de page «\u00a0diplomatie\u00a0»")
    assert wrong.output.rstrip().endswith("pmb et pourleroi")


def test_init_copies_the_guide_and_rules_beside_the_config_that_points_to_them(tmp_path):
    from pbem.folder import init_folder

    init_folder(tmp_path / "g", pbem_command="pbem")
    assert (tmp_path / "g" / "docs" / "guide-mj.md").is_file()
    for game in ("pmb", "intrigue", "1626", "courtisans", "pourleroi"):
        assert (tmp_path / "g" / "docs" / "rules" / f"{game}.md").is_file()
    # the config's pointer « voir docs/rules/<jeu>.md » is true in the folder
    assert "docs/rules/<jeu>.md" in (tmp_path / "g" / "config.toml").read_text(encoding="utf-8")


def test_guide_names_pages_never_paths(tmp_path):
    outside = tmp_path / "secret.md"
    outside.write_text("not a page")
    result = CliRunner().invoke(main, ["guide", f"../../../../../../../../..{outside.with_suffix('')}"])
    assert result.exit_code != 0 and "not a page" not in result.output and "pas de page" in result.output
