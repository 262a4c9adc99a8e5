"""Commands that destroy or publish: they refuse what is not theirs to touch and say exactly what they did.

`pbem archive` into a folder pbem did not write (the game folder itself) is refused and deletes nothing;
written again into its own archive it replaces its files only.  Through the real CLI on a toy game.
"""

from __future__ import annotations

import json

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.archive import MARKER
from pbem.cli import main


@pytest.fixture
def run(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path))
    runner = CliRunner()

    def invoke(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args], catch_exceptions=False)
        assert (result.exit_code == 0) == ok, result.output
        return result.output.replace("\u00a0", " ")

    return invoke


@pytest.fixture
def played(run, tmp_path):
    run("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Bran", "bran@pbem.test", "--now", "2026-12-01T20:00")
    run("game", "start", "toy1", "--now", "2026-12-01T20:00")
    run("orders", "set", "toy1", "Arya", "GUESS 4", "--now", "2026-12-01T21:00")
    run("turn", "resolve", "toy1", "--now", "2026-12-01T22:00")
    return run


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_archive_into_the_game_folder_is_refused_and_deletes_nothing(played, tmp_path):
    before = _files(tmp_path)
    assert "config.toml" in before and "db.sqlite" in before
    out = played("archive", "toy1", str(tmp_path), ok=False)
    assert out.startswith("Erreur : ") and "n'est pas vide et pbem archive n'y a jamais écrit" in out
    assert len(out.strip().splitlines()) == 1
    assert _files(tmp_path) == before  # not one file touched
    # a folder holding anything else, a file instead of a folder: the same
    other = tmp_path / "photos"
    other.mkdir()
    (other / "vacances.jpg").write_bytes(b"\xff\xd8")
    assert "jamais écrit" in played("archive", "toy1", str(other), ok=False)
    assert (other / "vacances.jpg").exists()


def test_archive_written_again_replaces_its_own_files_only_and_says_so(played, tmp_path):
    site = tmp_path / "site"
    out = played("archive", "toy1", str(site))
    assert "dans " + str(site) in out and "remplacée" not in out
    first = _files(site)
    assert MARKER in first and "index.html" in first
    (site / "notes-du-mj.txt").write_text("à garder")
    # a marker someone edited to reach outside the folder: those lines are not obeyed
    marker = site / MARKER
    marker.write_text(marker.read_text() + "../config.toml\n/etc/hostname\nimages/../../db.sqlite\n")
    out = played("archive", "toy1", str(site))
    assert "l'archive écrite là avant (" in out and "fichiers) est remplacée" in out
    assert "\n1 fichier que pbem n'a pas écrit y reste tel quel\n" in out
    assert (site / "notes-du-mj.txt").read_text() == "à garder"
    assert (tmp_path / "config.toml").exists() and (tmp_path / "db.sqlite").exists()
    assert sorted(set(_files(site)) - {"notes-du-mj.txt"}) == first


def test_archive_into_an_empty_folder_is_fine(played, tmp_path):
    empty = tmp_path / "vide"
    empty.mkdir()
    played("archive", "toy1", str(empty))
    assert (empty / "index.html").exists() and (empty / MARKER).exists()


# --- pbem export --public: what pbem verify needs, nothing else


def test_the_public_export_holds_what_verify_needs_and_no_address_state_or_event(played, tmp_path):
    run = played
    out = run("export", "toy1", "--json", "--public", ok=False)
    assert out.startswith("Erreur : la graine de toy1 n'est pas encore révélée") and len(out.splitlines()) == 1
    assert "ne vont pas ensemble" in run("export", "toy1", "--json", "--public", "--with-seed", ok=False)
    run("game", "finish", "toy1", "--yes", "--now", "2026-12-02T10:00")
    result = CliRunner().invoke(main, ["--config", str(tmp_path / "config.toml"), "export", "toy1", "--json",
                                       "--public"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "export public de toy1 : l'empreinte, la graine révélée et" in result.stderr.replace("\u00a0", " ")
    text = result.stdout
    for secret in ("@", "arya@pbem.test", "state", "events", "orders", "journal", "players", "address", "GUESS"):
        assert secret not in text, secret
    assert set(data) == {"game", "ruleset", "phase", "turn", "public", "commitment", "seed", "records"}
    assert data["seed"] == "ab" * 32 and [r["turn"] for r in data["records"]] == [0, 1]
    full = json.loads(run("export", "toy1", "--json"))
    assert sum(len(r["rolls"]) for r in data["records"]) == sum(len(r["rolls"]) for r in full["records"]) > 0
    path = tmp_path / "public.json"
    path.write_text(result.stdout)
    assert "OK : la graine correspond à son empreinte" in run("verify", "--file", str(path))
    # a roll changed in the file: verify says so, from the public export alone
    data["records"][1]["rolls"][0][3] += 1
    path.write_text(json.dumps(data))
    assert "la graine donne" in run("verify", "--file", str(path), ok=False)


def test_pbem_demo_replaces_only_a_folder_a_demo_wrote(tmp_path):
    target = tmp_path / "mine" / "pmb"
    target.mkdir(parents=True)
    (target / "notes.txt").write_text("mes notes")
    result = CliRunner().invoke(main, ["demo", "pmb", "--dir", str(tmp_path / "mine")])
    assert result.exit_code == 1 and "aucune démo n'y a écrit" in result.output, result.output
    assert (target / "notes.txt").read_text() == "mes notes"


def test_a_command_that_queues_mail_says_how_many_and_to_whom(run):
    out = run("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")
    assert "en file d'envoi" not in out  # nothing queued, nothing said
    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Bran", "bran@pbem.test", "--now", "2026-12-01T20:00")
    out = run("game", "start", "toy1", "--now", "2026-12-01T20:00")
    assert ("courriels en file d'envoi (le prochain pbem tick les envoie) : arya@pbem.test, bran@pbem.test et "
            "le MJ (mj@pbem.test)") in out, out
    out = run("player", "remove", "toy1", "Bran", "--now", "2026-12-01T21:00")
    assert out.splitlines()[-1] == "1 courriel en file d'envoi (le prochain pbem tick l'envoie) : bran@pbem.test"
    out = run("player", "replace", "toy1", "Bran", "jeanne@pbem.test", "--now", "2026-12-01T21:30")
    assert "1 courriel en file d'envoi (le prochain pbem tick l'envoie) : jeanne@pbem.test" in out  # (briefing)
    assert "en file d'envoi" not in run("player", "list", "toy1")  # reading commands say nothing of it
