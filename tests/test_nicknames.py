"""Issue #21: the nicknames an MJ gives players (`pbem player nickname`), read in his mail as a guess that he
confirms, never as a certainty; refused when they would name someone else."""

from __future__ import annotations

from datetime import UTC, datetime

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages, toy_config_toml

from pbem.cli import main
from pbem.engine import Engine, EngineError
from pbem.engine.desk.slots import Roster, plain, words_of
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
ROSTER = ["Petit-Doigt", "Bronn", "Jon Snow", "Jon Arryn"]


def _word(text: str):
    (tok,) = plain(words_of(text))
    return tok


def test_a_nickname_is_read_as_the_player_it_stands_for() -> None:
    roster = Roster(ROSTER, nicknames={"Petit-Doigt": ("Littlefinger",), "Jon Snow": ("le Bâtard",)})
    assert roster.loose(_word("Littlefinger")) == ("Petit-Doigt", ())
    assert roster.loose(_word("littlefinger")) == ("Petit-Doigt", ())
    assert roster.loose(_word("batard")) == ("Jon Snow", ())  # (a word of a nickname, accents aside)
    assert Roster(ROSTER).loose(_word("Littlefinger")) == (None, ())  # (no nickname: near no name)


def test_a_word_two_players_nicknames_share_names_neither() -> None:
    roster = Roster(ROSTER, nicknames={"Jon Snow": ("le Corbeau",), "Jon Arryn": ("Corbeau blanc",)})
    assert roster.loose(_word("Corbeau")) != ("Jon Snow", ())
    assert roster.loose(_word("Corbeau")) != ("Jon Arryn", ())
    assert roster.loose(_word("corbeaublanc")) == ("Jon Arryn", ())


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path, extra_game={"mj": [MJ_ADDRESS]})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(ROSTER):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    return e


def _refusal(eng, name: str, nicknames: list[str]) -> str:
    with pytest.raises(EngineError) as refused:
        eng.set_nicknames("toy1", name, nicknames, T0)
    return refused.value.text("fr")


def test_nicknames_that_would_name_someone_else_are_refused(eng) -> None:
    assert "désigne déjà Bronn" in _refusal(eng, "Petit-Doigt", ["bronn"])
    eng.set_nicknames("toy1", "Jon Snow", ["Corbeau"], T0)
    assert "désigne déjà Jon Snow" in _refusal(eng, "Jon Arryn", ["corbeau"])
    assert "pas de joueur" in _refusal(eng, "Daenerys", ["Khaleesi"])
    assert "surnom refusé" in _refusal(eng, "Bronn", ["<script>"])
    assert "au plus 5 surnoms" in _refusal(eng, "Bronn", [f"Surnom{i}" for i in range(6)])
    # a word of another player's name would be read as him, with no question asked (« Snow sera absent »)
    assert "désigne déjà Jon Snow" in _refusal(eng, "Petit-Doigt", ["Snow"])
    eng.set_nicknames("toy1", "Bronn", ["Limier"], T0)
    assert "désigne déjà Bronn" in _refusal(eng, "Jon Arryn", ["le Limier"])  # (the same key, « limier »)
    eng.set_nicknames("toy1", "Bronn", [], T0)
    assert eng.store.nicknames("toy1") == {"Jon Snow": ("Corbeau",)}
    eng.set_nicknames("toy1", "Jon Snow", [], T0)  # (none: forgotten)
    assert eng.store.nicknames("toy1") == {}


def test_a_newcomer_cannot_register_under_a_nickname(tmp_path) -> None:
    cfg = make_config(tmp_path, extra_game={"mj": [MJ_ADDRESS]})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    e.add_player("toy1", "Petit-Doigt", "pd@pbem.test", T0)
    e.set_nicknames("toy1", "Petit-Doigt", ["Littlefinger"], T0)
    with pytest.raises(EngineError) as refused:
        e.add_player("toy1", "Littlefinger", "lf@pbem.test", T0)
    assert "est un surnom de Petit-Doigt" in refused.value.text("fr")


def _mj(eng, text: str, n: int) -> str:
    raw = make_mail(MJ_ADDRESS, text, subject="[TOY] MJ", message_id=f"<mj{n}@pbem.test>")
    eng.store.store_raw([(f"k{n}", raw)], T0)
    eng.process_message(f"k{n}", raw, T0)
    return body(outbox_messages(eng.store, kind="ack", rcpt=MJ_ADDRESS)[-1]).replace("\u00a0", " ")


def test_the_mj_s_mail_naming_a_nickname_is_asked_about_then_nothing_is_done(eng) -> None:
    refused = _mj(eng, "Retire Littlefinger à la fin du tour.", 1)
    assert "aucun joueur ne s'appelle « Littlefinger »" in refused
    eng.set_nicknames("toy1", "Petit-Doigt", ["Littlefinger"], T0)
    asked = _mj(eng, "Retire Littlefinger à la fin du tour, merci.", 2)
    assert "Petit-Doigt" in asked and "OUI" in asked, asked
    assert [p.name for p in eng.store.players("toy1")] == ROSTER  # (asked: nobody removed yet)


def test_the_cli_gives_lists_and_forgets_nicknames(tmp_path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path))

    def run(*args: str, ok: bool = True) -> str:
        result = CliRunner().invoke(main, ["--config", str(cfg), *args], catch_exceptions=False)
        assert (result.exit_code == 0) == ok, result.output
        return result.output.replace("\u00a0", " ")

    run("game", "new", "toy1", "--seed", "ab" * 32, "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Petit-Doigt", "pd@pbem.test", "--now", "2026-12-01T20:00")
    run("player", "add", "toy1", "Bronn", "b@pbem.test", "--now", "2026-12-01T20:00")
    said = run("player", "nickname", "toy1", "petit doigt", "Littlefinger", "PD")
    assert said == ("toy1 : Petit-Doigt peut aussi s'appeler « Littlefinger » ou « PD » dans vos courriels (pbem vous "
                    "demandera de confirmer)\n")
    assert "(Littlefinger, PD)" in run("player", "list", "toy1")
    refused = run("player", "nickname", "toy1", "Bronn", "PD", ok=False)
    assert "désigne déjà Petit-Doigt" in refused and "Traceback" not in refused and refused.count("\n") == 1
    assert run("player", "nickname", "toy1", "Petit-Doigt") == "toy1 : Petit-Doigt n'a plus de surnom\n"
    assert "Littlefinger" not in run("player", "list", "toy1")
