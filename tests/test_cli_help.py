"""`pbem --help` and `pbem <command> --help` speak the configured language: French by default (the texts
beside each command, `pbem.cli.shell.french`), English with ``language = "en"`` (the docstrings and options' ``help=``)."""

from __future__ import annotations

import inspect
import re

import click
import pytest
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.cli import main
from pbem.cli.shell import SHARED_OPTIONS, french_help, option_help

BAD = re.compile(r" [:;?!]|« | »|\(s\)|\(e\)")  # as tests/test_typography.py


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    out = [(prefix.strip(), group)] if not prefix else []
    ctx = click.Context(group)  # (through list_commands: the root loads its commands when asked)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        out.append((prefix + name, cmd))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, prefix + name + " "))
    return out


COMMANDS = _commands(main)
assert len(COMMANDS) > 40, [name for name, _ in COMMANDS]  # (every command, not the root alone)
IDS = [name or "pbem" for name, _ in COMMANDS]
HELP = {name: entry for name, cmd in COMMANDS if (entry := french_help(cmd)) is not None}  # (beside each command)


def _options(cmd: click.Command) -> list[click.Option]:
    return [p for p in cmd.params if isinstance(p, click.Option)]


def _first_line(cmd: click.Command) -> str:
    return re.sub(r" +", " ", inspect.cleandoc(cmd.help or "").splitlines()[0])


def _example(text: str, word: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(word)).partition(": ")[2]


def _help(name: str, env: dict[str, str], *config: str) -> str:
    result = CliRunner(env=env).invoke(main, [*config, *name.split(), "--help"])
    assert result.exit_code == 0, result.output
    return re.sub(r"[ \n]+", " ", result.output)  # as one line: click wraps at the terminal's width


@pytest.fixture
def english(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(toy_config_toml(tmp_path, top='language = "en"', with_game=False), encoding="utf-8")
    return str(path)


@pytest.fixture
def french(tmp_path):
    return {"PBEM_CONFIG": str(tmp_path / "absent.toml")}  # no config to read: French


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=IDS)
def test_every_command_has_a_french_help_with_the_same_example(name, cmd):
    entry = HELP[name]
    assert "Exemple\u00a0: pbem " in entry.text, name
    assert _example(entry.text, "Exemple\u00a0:") == _example(inspect.cleandoc(cmd.help or ""), "Example:"), name


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=IDS)
def test_its_help_is_french_by_default(name, cmd, french):
    out = _help(name, french)
    assert "Exemple\u00a0: pbem" in out and out.startswith("Usage\u00a0: ") and "Options\u00a0:" in out
    assert _first_line(cmd) not in out and "Example:" not in out and "Show this message" not in out
    if isinstance(cmd, click.Group):
        assert "Commandes\u00a0:" in out and "Commands:" not in out and "COMMANDE [ARGUMENTS]..." in out
        for sub in cmd.commands.values():  # each subcommand's line is its French description, cut
            assert HELP[f"{name} {sub.name}".strip()].text.split()[0] in out


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=IDS)
def test_each_option_has_a_french_help(name, cmd, french):
    out = _help(name, french)
    for option in _options(cmd):
        text = option_help(cmd, option.name or "")
        assert text, (name, option.name)
        assert text.split("(")[0].strip() in out, (name, option.name)
        if option.help:
            assert option.help.split()[0] + " " + option.help.split()[1] not in out, (name, option.name)
    assert SHARED_OPTIONS["help"] in out


def test_no_french_entry_without_its_command_or_option():
    commands = dict(COMMANDS)
    assert set(HELP) == set(commands)
    for name, entry in HELP.items():
        assert set(entry.options) <= {o.name for o in _options(commands[name])}, name


def test_the_french_help_reads_like_french():
    texts = [e.text for e in HELP.values()] + [t for e in HELP.values() for t in e.options.values()]
    texts += list(SHARED_OPTIONS.values())
    assert not [t for t in texts if BAD.search(t)]


def test_french_help_says_the_defaults_and_types_in_french(french):
    out = _help("", french)
    assert "--config FICHIER" in out and "[par défaut\u00a0: config.toml]" in out and "default:" not in out
    assert "--hours NOMBRE" in _help("game extend", french)


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=IDS)
def test_an_english_config_gives_the_docstrings(name, cmd, english):
    out = _help(name, {}, "--config", english)
    assert out.startswith("Usage: ") and "Show this message and exit." in out
    assert _first_line(cmd) in out and "Example: pbem" in out and "Exemple" not in out
    for option in _options(cmd):
        if option.help:
            assert option.help.split()[0] in out, (name, option.name)


def test_the_english_config_found_through_the_environment(english):
    out = _help("", {"PBEM_CONFIG": english})
    assert "pbem: play-by-email game master automation." in out and "Commands:" in out


def test_a_group_without_its_command_shows_its_help_in_the_configured_language(french, english):
    result = CliRunner(env=french).invoke(main, ["game"])
    assert "Créer, lancer et consulter les parties." in result.output and "Commandes\u00a0:" in result.output
    result = CliRunner().invoke(main, ["--config", english, "game"])
    assert "Create, start and inspect games." in result.output and "Commands:" in result.output
