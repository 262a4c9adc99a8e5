"""A player's private results go to that player or to the MJ, never to another player: the MJ's RENVOIE by mail
(« Renvoie les résultats du tour 1 d'Arya à Bran » once mailed Arya's secrets to Bran) and `pbem player resend`."""

from __future__ import annotations

from datetime import timedelta

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import toy_config_toml
from mjseat_helpers import PLAYERS, T0, Table, plain, to

from pbem.cli import main
from pbem.engine import EngineError


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "GUESS 4")
    t.due(T0 + timedelta(days=2))
    t.new()
    yield t
    t.close()


@pytest.mark.parametrize("line", ["Renvoie les résultats du tour 1 d'Arya à Bran",
                                  "Renvoie à Bran les résultats d'Arya du tour 1",
                                  "Resend Arya's results of turn 1 to Bran"])
def test_the_mj_cannot_mail_a_players_results_to_another_player(table, line):
    answer = table.mj(line)
    assert "les résultats de Arya ne vont qu'à Arya ou à vous, jamais à un autre joueur" in answer, answer
    mails = table.new()
    assert not to(mails, PLAYERS["Bran"], "notice") and not to(mails, PLAYERS["Arya"], "notice")


def test_to_the_player_or_to_the_mj_still_works(table):
    assert "nouvel envoi à Arya" in table.mj("Renvoie à Arya ses résultats du tour 1")
    assert "le texte suit, plus bas" in table.mj("Renvoie les résultats d'Arya du tour 1 à moi")
    table.new()
    assert "nouvel envoi à Bran" in table.mj("Renvoie le compte rendu du tour 1 à Bran")  # the forum post is public
    sent = to(table.new(), PLAYERS["Bran"], "notice")
    assert len(sent) == 1 and "[b]Étape 1[/b]" in sent[0][1]


def test_the_engine_refuses_it_for_every_caller(table):
    with pytest.raises(EngineError, match="never to another player"):
        table.engine.resend("toy1", "Arya", 1, T0 + timedelta(days=2), to="Bran")
    letter = table.engine.resend("toy1", "Arya", 1, T0 + timedelta(days=2))
    assert letter.to == PLAYERS["Arya"] and letter.subject == "[TOY] Étape 1 — vos résultats (nouvel envoi)"
    report = table.engine.report_text("toy1", "Arya", 1)
    assert report is not None and plain(report).split("\n\n", 1)[1] in plain(letter.body)


def test_pbem_player_resend(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path))
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output.replace("\u00a0", " ")

    run("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Bran", "bran@pbem.test", "--now", "2026-12-01T20:00")
    run("game", "start", "toy1", "--now", "2026-12-01T20:00")
    run("turn", "resolve", "toy1", "--now", "2026-12-01T22:00")
    out = run("player", "resend", "toy1", "Arya", "--to", "Bran", ok=False)
    assert out.startswith("Erreur : les résultats de Arya ne vont qu'à Arya ou à vous") and len(out.splitlines()) == 1
    out = run("player", "resend", "toy1", "arya", "--turn", "1")
    assert out.splitlines() == ["toy1 : résultats de Arya renvoyés (« [TOY] Étape 1 — vos résultats (nouvel envoi) »)",
                                "1 courriel en file d'envoi (le prochain pbem tick l'envoie) : arya@pbem.test"]
    assert "pas de résultats publiés" in run("player", "resend", "toy1", "Arya", "--turn", "5", ok=False)
