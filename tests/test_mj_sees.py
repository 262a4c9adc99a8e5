"""What the MJ reads of a game is true (#21, #22): `pbem game status` shows a pause and results waiting for his
approval, counts the players as QUI MANQUE does once one is removed; `pbem player list` shows the dead as dead
and the removed as removed; `pbem game list` says « terminée au tour 6 ».  And the dead and the removed are no
longer told of the calendar (a deadline moved, a pause), while their results still reach them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from helpers import make_config, toy_config_toml

from pbem.cli import main
from pbem.demo import Demo, play_bot_game
from pbem.engine import Engine
from pbem.games.pmb.bots import random_orders
from pbem.store import Store

PMB_NAMES = ["Arya Snow", "Bran Rivers", "Cersei Sand", "Davos Stone", "Edmure Hill", "Gendry Flowers", "Hodor Waters",
             "Ilyn Pyke", "Jaime Snow", "Kevan Rivers", "Arya Sand", "Bran Stone"]
PMB_GAME = {"ruleset": "pmb", "tag": "PMB", "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00"}}
DEAD = "Arya Snow"  # (the seed of the demo kills her in the first turn)


@pytest.fixture
def cli(tmp_path):
    def invoke(*args: str, game: str = "", config: str | None = None) -> str:
        cfg = tmp_path / "config.toml"
        cfg.write_text(config if config is not None else toy_config_toml(tmp_path, game=game))
        result = CliRunner().invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        return result.output.replace("\u00a0", " ")

    return invoke


def _started(cli, game: str = "") -> None:
    cli("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2025-02-01T14:00", game=game)
    for name, address in (("Arya", "a@pbem.test"), ("Bran", "b@pbem.test"), ("Sansa", "s@pbem.test")):
        cli("player", "add", "toy1", name, address, "--now", "2025-02-01T14:00", game=game)
    cli("game", "start", "toy1", "--now", "2025-02-01T14:00", game=game)


def test_game_status_shows_a_pause_until_further_notice_without_its_frozen_deadline(cli):
    _started(cli)
    cli("game", "pause", "toy1", "--now", "2025-02-02T10:00")
    out = cli("game", "status", "toy1", "--now", "2025-02-05T10:00")
    assert "en pause jusqu'à nouvel ordre : la date limite sera fixée à la reprise" in out
    assert "date limite :" not in out  # (frozen, past already)
    cli("game", "resume", "toy1", "--now", "2025-02-05T11:00")
    assert "pause" not in cli("game", "status", "toy1", "--now", "2025-02-05T12:00")


def test_game_status_shows_a_dated_pause_and_one_to_come(cli):
    _started(cli)
    cli("game", "pause", "toy1", "--from", "samedi 8 février", "--until", "lundi 17 février",
        "--now", "2025-02-01T15:00")
    out = cli("game", "status", "toy1", "--now", "2025-02-01T16:00")
    assert "pause prévue du samedi 8 février au dimanche 16 février 2025 inclus" in out
    assert "date limite : lundi 3 février 2025 à 14 h" in out
    out = cli("game", "status", "toy1", "--now", "2025-02-09T16:00")
    assert "en pause jusqu'au dimanche 16 février 2025 inclus" in out and "fixée à la reprise" not in out


def test_game_status_shows_results_waiting_for_approval(cli):
    _started(cli, game='publish = "mj"')
    cli("turn", "resolve", "toy1", "--now", "2025-02-02T10:00", game='publish = "mj"')
    out = cli("game", "status", "toy1", "--now", "2025-02-02T11:00", game='publish = "mj"')
    assert "résultats de l'étape 1 en attente de votre approbation (pbem turn publish toy1)" in out


def test_game_status_and_qui_manque_count_the_same_players_after_a_removal(cli):
    _started(cli)
    cli("player", "remove", "toy1", "Bran", "--now", "2025-02-01T15:00")
    status = cli("game", "status", "toy1", "--now", "2025-02-01T16:00")
    missing = cli("game", "missing", "toy1", "--now", "2025-02-01T16:00")
    assert "ordres reçus : 0 sur 2" in status and "on attend : Arya et Sansa" in status
    assert "aucun des 2 joueurs n'a encore donné ses ordres" in missing
    assert "On attend encore : Arya et Sansa." in missing


def test_a_finished_game_is_listed_as_finished_at_its_last_step(cli):
    _started(cli, game="[games.toy1.options]\nsteps = 2")
    for day in (2, 3):
        cli("turn", "resolve", "toy1", "--now", f"2025-02-0{day}T10:00", game="[games.toy1.options]\nsteps = 2")
    out = cli("game", "list", game="[games.toy1.options]\nsteps = 2")
    assert "toy1         [TOY] Toy : terminée à l'étape 2" in out
    assert "étape 3" not in out
    out = cli("game", "status", "toy1", game="[games.toy1.options]\nsteps = 2")
    assert "partie toy1 (toy) : terminée à l'étape 2" in out


def test_a_running_game_is_listed_with_its_step(cli):
    _started(cli)
    assert "[TOY] Toy : en cours, étape 1" in cli("game", "list")
    assert "partie toy1 (toy) : en cours, étape 1" in cli("game", "status", "toy1")


# --- Pour Ma Belle, where players die


@pytest.fixture
def pmb(tmp_path) -> Demo:
    d = play_bot_game(tmp_path / "pmb", "pmb1", PMB_GAME, PMB_NAMES, random_orders, 1)
    g = d.engine.game("pmb1")
    assert g.phase == "running" and d.engine.ruleset("pmb1").dead(d.engine.state(g)) == [DEAD]
    yield d
    d.close()


def _pmb_config(d: Demo) -> str:
    return (f'[pbem]\ndatabase = "{d.root}/pbem.sqlite"\naddress = "pourmabelle.lejeu@example.org"\n'
            f'forum_dir = "{d.root}/forum"\n[mailbox]\nkind = "maildir"\npath = "{d.root}/mail/inbox"\n'
            f'[outbox]\nkind = "maildir"\npath = "{d.root}/mail/outbox"\n[games.pmb1]\nruleset = "pmb"\ntag = "PMB"\n'
            'mj = "mj@example.org"\nregistration = "3d@21:00"\n[games.pmb1.deadlines]\nturn = "2d@21:00"\n')


def _line(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(name + " "))


def test_player_list_shows_the_dead_as_dead_and_the_removed_as_removed(cli, pmb):
    config = _pmb_config(pmb)
    out = cli("player", "list", "pmb1", config=config)
    assert _line(out, DEAD).endswith("a perdu la vie")  # (no gender given: neutral)
    assert _line(out, "Bran Rivers").endswith("en jeu")
    pmb.store.set_gender("pmb1", DEAD, "f")
    assert _line(cli("player", "list", "pmb1", config=config), DEAD).endswith(" morte")
    cli("player", "remove", "pmb1", "Bran Rivers", config=config)
    assert _line(cli("player", "list", "pmb1", config=config), "Bran Rivers").endswith("a quitté la partie")
    pmb.store.set_gender("pmb1", "Bran Rivers", "m")
    assert _line(cli("player", "list", "pmb1", config=config), "Bran Rivers").endswith("retiré de la partie")
    assert f"morts : {DEAD}" in cli("game", "status", "pmb1", config=config)


def test_the_dead_are_not_told_of_a_deadline_moved_or_a_pause_but_get_their_results(pmb):
    e, now = pmb.engine, pmb.now + timedelta(minutes=1)
    address = {p.name: p.address for p in pmb.store.players("pmb1")}
    before = {i.id for i in pmb.store.outbox_items()}
    e.extend("pmb1", e.game("pmb1").deadline + timedelta(hours=5), now)
    e.pause("pmb1", None, None, "", now)
    e.resume("pmb1", now + timedelta(hours=1))
    told = [i for i in pmb.store.outbox_items() if i.id not in before]
    to = {i.rcpt for i in told if i.kind == "notice"}
    assert address[DEAD] not in to and address["Bran Rivers"] in to
    assert len([i for i in told if i.rcpt == address["Bran Rivers"]]) == 3  # deadline, pause, resume
    before = {i.id for i in pmb.store.outbox_items()}
    e.resolve("pmb1", now + timedelta(hours=2))
    results = {i.rcpt for i in pmb.store.outbox_items() if i.id not in before and i.kind == "private"}
    assert address[DEAD] in results  # what happens to the game still reaches her, as its end will


def test_the_removed_are_not_told_of_a_deadline_moved(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    t0 = datetime(2025, 2, 1, 13, 0, tzinfo=UTC)
    e.new_game("toy1", t0, seed="ab" * 32)
    for name, address in (("Arya", "a@pbem.test"), ("Bran", "b@pbem.test"), ("Sansa", "s@pbem.test")):
        e.add_player("toy1", name, address, t0)
    e.start_game("toy1", t0)
    e.remove_player("toy1", "Bran", t0)
    before = {i.id for i in e.store.outbox_items()}
    e.extend("toy1", e.game("toy1").deadline + timedelta(hours=5), t0 + timedelta(hours=1))
    e.pause("toy1", None, None, "", t0 + timedelta(hours=1))
    told = {i.rcpt for i in e.store.outbox_items() if i.id not in before}
    assert told == {"a@pbem.test", "s@pbem.test"}  # (the MJ reads what he did in his answer)
    e.store.close()
