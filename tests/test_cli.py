"""Every CLI command: documented with an example, and working through CliRunner on a toy game."""

from __future__ import annotations

import json

import click
import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.cli import main


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    """Every command and subcommand (through `list_commands`: the root loads its commands when asked)."""
    out = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        out.append((prefix + name, cmd))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, prefix + name + " "))
    return out


def test_the_command_list_is_whole():
    names = [name for name, _ in _commands(main)]
    assert {"tick", "run", "gc", "game new", "player add", "calendar", "doctor"} <= set(names) and len(names) > 40, names


@pytest.mark.parametrize("name,cmd", _commands(main))
def test_every_command_has_help_and_an_example(name, cmd):
    assert cmd.help and "Example: pbem" in cmd.help, name
    result = CliRunner().invoke(main, [*name.split(), "--help"])
    assert result.exit_code == 0 and "Exemple\u00a0: pbem" in result.output  # French by default (test_cli_help.py)


@pytest.fixture
def run(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path))
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args], catch_exceptions=False)
        assert (result.exit_code == 0) == ok, result.output
        return result.output.replace("\u00a0", " ")  # French non-breaking spaces read as spaces (checked in test_typography.py)

    return invoke


def test_a_game_through_the_cli(run, tmp_path):
    out = run("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")
    assert "inscriptions ouvertes jusqu'au mercredi 2 décembre 2026 à 20 h" in out and "sha256" in out
    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "ser Schlingue", "s@pbem.test", "--now", "2026-12-01T20:00")
    assert "déjà pris" in run("player", "add", "toy1", "arya", "x@pbem.test", ok=False)
    assert "Arya" in run("player", "list", "toy1")
    assert "partie commencée, étape 1" in run("game", "start", "toy1", "--now", "2026-12-01T20:00")
    assert "on attend : Arya et ser Schlingue" in run("game", "status", "toy1")
    assert "OK" in run("orders", "set", "toy1", "arya", "GUESS 4", "--now", "2026-12-01T21:00")
    assert "ordres inchangés" in run("orders", "set", "toy1", "arya", "GUESS 40", ok=False)
    assert "GUESS 4" in run("orders", "show", "toy1")
    assert "date limite désormais vendredi 4 décembre 2026 à 20 h" in run("game", "extend", "toy1", "--hours", "24",
                                                                          "--now", "2026-12-01T21:00")
    assert "étape 1 résolue" in run("turn", "resolve", "toy1", "--now", "2026-12-01T22:00")
    digest = run("turn", "show", "toy1", "1")
    assert "Sans ordres à temps (ordres par défaut) : ser Schlingue." in digest and "target number" in digest
    assert "identique" in run("turn", "rerun", "toy1", "1")
    run("orders", "set", "toy1", "ser Schlingue", "GUESS 9", "--turn", "1")
    out = run("turn", "rerun", "toy1", "1", "--publish", "--now", "2026-12-01T23:00")
    assert "RECTIFICATIF" in out
    assert "en file" in run("outbox", "list")  # (the state in the configured language)
    tick = run("tick", "--now", "2026-12-01T23:05")
    assert "15 envoyés" in tick  # (the summary in the configured language)
    assert "envoyé" in run("outbox", "list", "--status", "sent")
    assert "0 courriel remis en file" in run("outbox", "retry", "--failed")
    export = json.loads(run("export", "toy1", "--json"))
    assert export["seed"] is None and export["records"]
    assert "OK : la graine correspond à son empreinte" in run("verify", "toy1")
    (tmp_path / "x.json").write_text(json.dumps(export))
    assert "pas de graine" in run("verify", "--file", str(tmp_path / "x.json"), ok=False)
    assert "OK" in run("verify", "--file", str(tmp_path / "x.json"), "--seed", "ab" * 32)
    assert "ne correspond pas" in run("verify", "--file", str(tmp_path / "x.json"), "--seed", "cd" * 32, ok=False)
    assert "toy1" in run("game", "list")
    run("player", "remove", "toy1", "Arya")
    run("player", "replace", "toy1", "Arya", "arya2@pbem.test")
    assert "arya2@pbem.test" in run("player", "list", "toy1")
    assert (tmp_path / "forum" / "toy1" / "turn-1.bbcode").exists()
    out = run("game", "finish", "toy1", "--yes")
    assert "partie terminée ; graine " + "ab" * 32 in out
    assert json.loads(run("export", "toy1", "--json"))["seed"] == "ab" * 32  # revealed now
    assert "déjà terminée" in run("game", "finish", "toy1", "--yes", ok=False)


def test_doctor_checks_without_writing(run, tmp_path):
    out = run("doctor")
    assert "[ok] config" in out and "[ok] mailbox" in out and "[ok] outbox" in out
    assert not (tmp_path / "db.sqlite").exists()


def test_config_errors_name_the_key(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path).replace('registration = "1d"', 'registration = "soon"'))
    result = CliRunner().invoke(main, ["--config", str(cfg), "game", "list"])
    assert result.exit_code == 1
    assert "games.toy1.registration" in result.output and "une durée comme 48" in result.output.replace("\u00a0", " ")
    cfg.write_text(toy_config_toml(tmp_path).replace('kind = "maildir"\npath = "' + str(tmp_path) + '/inbox"',
                                                       'kind = "imap"'))
    result = CliRunner().invoke(main, ["--config", str(cfg), "doctor"])
    assert result.exit_code == 1 and "mailbox.host : obligatoire" in result.output.replace("\u00a0", " ")


def test_a_command_that_changes_the_game_waits_for_a_running_pass_then_says_so(tmp_path):
    """Defect 2 of issue 12 for the CLI: `pbem turn resolve` beside a running tick would interleave with it.

    A writing command takes the pass lock like `pbem tick`; while another pass holds it, the command waits
    `lock_wait_seconds`, then says in one line who holds the data, and changes nothing. Reading commands
    do not wait."""
    from pbem.passlock import PassLock

    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, top="lock_wait_seconds = 0.2"))
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str]:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        return result.exit_code, result.output.replace("\u00a0", " ")

    assert invoke("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")[0] == 0
    for name in ("Arya", "Bran"):
        assert invoke("player", "add", "toy1", name, f"{name.lower()}@pbem.test", "--now", "2026-12-01T20:00")[0] == 0
    assert invoke("game", "start", "toy1", "--now", "2026-12-01T20:00")[0] == 0
    lock = PassLock(tmp_path / "db.sqlite")
    assert lock.acquire(who="pbem tick")
    try:
        code, out = invoke("turn", "resolve", "toy1", "--now", "2026-12-01T22:00")
        assert code == 1 and "Traceback" not in out
        assert out.startswith("Erreur : pbem tick (pid ") and "travaille sur ces données : réessayez" in out
        assert len(out.strip().splitlines()) == 1
        code, out = invoke("orders", "set", "toy1", "Arya", "GUESS 4")
        assert code == 1 and "réessayez dans un instant" in out
        code, out = invoke("turn", "preview", "toy1")  # it resolves on a copy it rolls back: it writes too
        assert code == 1 and "réessayez dans un instant" in out and "Traceback" not in out
        code, out = invoke("game", "status", "toy1")  # reading does not wait
        assert code == 0 and "étape 1" in out and "on attend : Arya et Bran" in out
    finally:
        lock.release()
    assert "étape 1 résolue" in invoke("turn", "resolve", "toy1", "--now", "2026-12-01T22:00")[1]
    assert lock.acquire()  # the command gave the lock back
    lock.release()


@pytest.mark.parametrize("args,said", [
    (["game", "status"], "Erreur : il manque l'argument PARTIE (pbem game status --help montre l'usage)"),
    (["game", "stat"], "Erreur : commande inconnue « stat » ; vouliez-vous dire start, status ?"),
    (["game", "extend", "toy1", "--hours", "abc"], "valeur incorrecte pour --hours : « abc » n'est pas un nombre"),
    (["tick", "--nwo", "x"], "Erreur : option inconnue : --nwo ; vouliez-vous dire --now ?"),
    (["game", "status", "toy1", "de", "trop"], "Erreur : argument en trop : de trop"),
    (["gme"], "Erreur : commande inconnue « gme » ; vouliez-vous dire game ?"),
    (["game", "pause", "toy1", "--rom", "x"], "Erreur : option inconnue : --rom ; vouliez-vous dire --from, --now, --reason ?"),
    (["scenario", "run", "/nulle/part.toml"], "le chemin /nulle/part.toml n'existe pas"),
])
def test_a_mistake_in_the_command_line_gets_one_line_in_french_with_where_to_look(args, said):
    result = CliRunner().invoke(main, args, prog_name="pbem")
    out = result.output.replace("\u00a0", " ")
    assert result.exit_code == 2 and said in out, out
    assert len(out.strip().splitlines()) == 1 and "Usage:" not in out and "Traceback" not in out


def test_a_mistake_in_the_command_line_is_said_in_english_with_an_english_config(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, top='language = "en"'))
    result = CliRunner().invoke(main, ["--config", str(cfg), "game", "status"], prog_name="pbem")
    assert result.exit_code == 2
    assert result.output.strip() == "Error: Missing argument 'GAME_ID'. (pbem game status --help shows the usage)"
