"""The CLI speaks the MJ's language: messages in the configured language (French by default), times in the
game's zone, one-line errors for a user's mistake (never a traceback), every option value checked when the
config is read and by pbem doctor; and the MJ's seat commands."""

from __future__ import annotations

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.cli import main
from pbem.folder import DATA


@pytest.fixture
def cli(tmp_path):
    def invoke(*args: str, top: str = "", game: str = "", extra: str = "") -> tuple[int, str]:
        cfg = tmp_path / "config.toml"
        cfg.write_text(toy_config_toml(tmp_path, top=top, game=game) + extra)
        result = CliRunner().invoke(main, ["--config", str(cfg), *args])
        assert "Traceback" not in result.output, result.output
        assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
            repr(result.exception)
        return result.exit_code, result.output.replace("\u00a0", " ")  # (typography: test_typography.py)

    return invoke


def _started(cli) -> None:
    cli("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2025-02-01T14:00")
    for name, address in (("Arya", "a@pbem.test"), ("Bran", "b@pbem.test"), ("Sansa", "s@pbem.test")):
        cli("player", "add", "toy1", name, address, "--now", "2025-02-01T14:00")
    cli("game", "start", "toy1", "--now", "2025-02-01T14:00")


@pytest.mark.parametrize("args", [
    ("game", "status", "pmb9"), ("game", "new", "pmb9"), ("game", "extend", "pmb9", "--hours", "2"),
    ("turn", "show", "pmb9"), ("orders", "show", "pmb9"), ("player", "list", "pmb9"), ("export", "pmb9", "--json"),
    ("game", "pause", "pmb9"), ("turn", "preview", "pmb9"), ("turn", "publish", "pmb9"), ("game", "missing", "pmb9"),
])
def test_an_unknown_game_is_one_line_naming_the_games(cli, args):
    code, out = cli(*args)
    assert code == 1
    assert out.strip() == "Erreur : partie inconnue « pmb9 » (parties de config.toml : toy1)"


def test_errors_in_english_when_the_config_says_so(cli):
    code, out = cli("game", "status", "pmb9", top='language = "en"')
    assert code == 1 and out.strip() == "Error: unknown game 'pmb9' (games in config.toml: toy1)"


def test_malformed_dates_are_one_line(cli):
    _started(cli)
    code, out = cli("game", "extend", "toy1", "--until", "lundi 45 février")
    assert code == 1 and out.count("\n") == 1 and out.startswith("Erreur : --until : ")
    code, out = cli("tick", "--now", "hier soir")
    assert code == 1 and out.strip().startswith("Erreur : --now : une date ISO comme 2026-12-01T21:00")
    code, out = cli("game", "extend", "toy1")
    assert code == 1 and out.strip() == "Erreur : donnez --hours ou --until"


def test_messages_and_times_in_the_games_language_and_zone(cli):
    code, out = cli("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2025-02-01T14:00")
    assert out.splitlines()[0] == "toy1 : inscriptions ouvertes jusqu'au dimanche 2 février 2025 à 14 h"
    code, out = cli("game", "status", "toy1")
    assert "partie toy1 (toy) : inscriptions\n" in out  # (no « étape 0 »: no step is open yet)
    code, out = cli("game", "status", "toy1", top='language = "en"')
    assert "game toy1 (toy): registration\n" in out and "Sunday 2 February 2025 at 14:00" in out


def test_the_mj_seat_commands(cli):
    _started(cli)
    code, out = cli("game", "missing", "toy1", "--now", "2025-02-01T15:00")
    assert code == 0 and "On attend encore : Arya, Bran et Sansa." in out
    code, out = cli("game", "pause", "toy1", "--from", "samedi 8 février", "--until", "lundi 17 février",
                    "--reason", "vacances", "--now", "2025-02-01T15:00")
    assert code == 0 and "toy1 : pause annoncée du samedi 8 février au dimanche 16 février 2025 inclus" in out
    code, out = cli("game", "resume", "toy1", "--now", "2025-02-01T15:05")
    assert code == 0 and "pause annulée" in out
    code, out = cli("turn", "preview", "toy1", "--now", "2025-02-01T16:00")
    assert code == 0 and "APERÇU : Étape 1" in out and "--- À Arya : [TOY] Étape 1 — vos résultats ---" in out
    code, out = cli("player", "absence", "toy1", "Bran", "--from", "3 février", "--until", "10 février",
                    "--now", "2025-02-01T16:00")
    assert code == 0 and "Bran : du lundi 3 février au dimanche 9 février 2025 inclus" in out
    code, out = cli("player", "remove", "toy1", "Bran", "--at-end", "--now", "2025-02-01T16:00")
    assert code == 0 and "toy1 : Bran quitte la partie à la fin de l'étape 1" in out
    code, out = cli("player", "replace", "toy1", "Sansa", "jeanne@pbem.test", "--name", "Jeanne",
                    "--now", "2025-02-01T16:00")
    assert code == 0 and "la place de Sansa est désormais tenue depuis jeanne@pbem.test" in out
    code, out = cli("turn", "publish", "toy1")
    assert code == 1 and out.strip() == "Erreur : aucun résultat de toy1 n'attend votre approbation"


def test_turn_publish_with_a_chronicle_file(cli, tmp_path):
    _started(cli)
    cli("turn", "resolve", "toy1", "--now", "2025-02-02T10:00", game='publish = "mj"')
    (tmp_path / "chronique.txt").write_text("La nuit tombait sur Winterfell.\n", encoding="utf-8")
    code, out = cli("turn", "publish", "toy1", "1", "--chronicle", str(tmp_path / "chronique.txt"),
                    "--now", "2025-02-02T11:00", game='publish = "mj"')
    assert code == 0 and "résultats de « Étape 1 » publiés" in out and "(1 ligne)" in out
    assert (tmp_path / "forum" / "toy1" / "turn-1.bbcode").read_text().startswith("La nuit tombait sur Winterfell.")


INTRIGUE = """
[games.int1]
ruleset = "intrigue"
tag = "INT"
mj = "mj@pbem.test"
[games.int1.options]
mode = "bogus"
"""

GANT = """
[games.gant]
ruleset = "1626"
tag = "1626"
mj = "mj@pbem.test"
roster = "{roster}"
[games.gant.options]
sr_by = "{sr_by}"
"""


def test_every_option_value_is_checked_when_the_config_is_read_and_by_doctor(cli, tmp_path):
    code, out = cli("game", "list", extra=INTRIGUE)
    assert code == 1
    assert out.strip() == ("Erreur : configuration : games.int1.options : mode : valeur inconnue « bogus » "
                           "(valeurs permises : simultaneous, sequential)")
    code, out = cli("doctor", extra=INTRIGUE)
    assert code == 1 and "[ÉCHEC] config : games.int1.options : mode : valeur inconnue « bogus »" in out
    code, out = cli("doctor", extra=GANT.format(roster=DATA / "1626" / "personnages.toml", sr_by="joueur"))
    assert code == 1 and "option sr_by : « mj » ou « player », pas « joueur »" in out


def test_doctor_reads_a_1626_sheets_file_and_names_each_fault_with_its_line(cli, tmp_path):
    sheets = (DATA / "1626" / "personnages.toml").read_text(encoding="utf-8").replace("AG = 7", "AG = 10", 1)
    (tmp_path / "fiches.toml").write_text(sheets, encoding="utf-8")
    code, out = cli("doctor", extra=GANT.format(roster=tmp_path / "fiches.toml", sr_by="mj"))
    assert code == 1 and "fichier de joueurs" in out and "refusé" in out
    assert "ligne " in out and "AG vaut 10 : une caractéristique de personnage ne dépasse pas 9" in out
    code, out = cli("game", "new", "gant", extra=GANT.format(roster=tmp_path / "fiches.toml", sr_by="mj"))
    assert code == 1 and "AG vaut 10" in out  # refused before anyone registers
    code, out = cli("doctor", extra=GANT.format(roster=DATA / "1626" / "personnages.toml", sr_by="mj"))
    assert code == 0 and "fichier de joueurs" in out and "vérifié" in out
