"""What a seat may not be given: the game's own address or the MJ's (REMPLACE, `pbem player replace`, a
registration), a name that passes for another's on screen (a Cyrillic « Аrya » beside « Arya »); and a game id
that would put files outside their folder (« ../x »)."""

from __future__ import annotations

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import GAME_ADDRESS, MJ_ADDRESS, body, make_config, make_mail, outbox_messages, toy_config_toml
from mjseat_helpers import PLAYERS, T0, Table

from pbem.cli import main
from pbem.config import ConfigError
from pbem.engine import Engine, EngineError
from pbem.names import skeleton
from pbem.store import Store


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.close()


@pytest.mark.parametrize("address", [GAME_ADDRESS, "JEU+toy1@pbem.test", MJ_ADDRESS, "mj+x@pbem.test"])
def test_replace_by_mail_refuses_the_games_and_the_mjs_address(table, address):
    answer = table.mj(f"Remplace Bran par Jeanne <{address}>")
    assert table.store.player("toy1", "Bran").address == PLAYERS["Bran"]  # nothing changed
    said = "est l'adresse du jeu lui-même" if address.lower().startswith("jeu") else "est l'adresse du MJ"
    assert said in answer, answer
    assert not [m for m in table.new() if m[1] == "private"]  # no briefing went anywhere


@pytest.mark.parametrize("address", [GAME_ADDRESS, MJ_ADDRESS])
def test_replace_from_the_cli_and_later_steps_refuse_them_too(table, address):
    with pytest.raises(EngineError, match="address"):
        table.engine.replace_player("toy1", "Bran", address, T0)
    with pytest.raises(EngineError, match="address"):
        table.engine.replace_player("toy1", "Bran", address, T0, from_turn=3)
    assert table.store.seat_changes("toy1") == []


def test_registration_refuses_them(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    with pytest.raises(EngineError, match="the MJ's address"):
        e.add_player("toy1", "Cersei", MJ_ADDRESS, T0)
    with pytest.raises(EngineError, match="the game's own address"):
        e.add_player("toy1", "Cersei", GAME_ADDRESS, T0)


@pytest.mark.parametrize("lookalike", ["\u0410rya", "Ary\u0430", "\u0391rya", "Arуa", "ARYA", "A rya", "Arya."])
def test_a_name_that_looks_like_a_registered_one_is_refused(tmp_path, lookalike):
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    e.add_player("toy1", "Arya", "arya@pbem.test", T0)
    with pytest.raises(EngineError) as refused:
        e.add_player("toy1", lookalike, "other@pbem.test", T0)
    assert refused.value.key in ("name_taken", "name_lookalike")
    assert [p.name for p in store.players("toy1")] == ["Arya"]
    # by mail too, with the answer in French
    store.store_raw([("k", make_mail("twin@pbem.test", f"INSCRIPTION {lookalike}"))], T0)
    e.process_message("k", store.message_raw("k"), T0)
    assert [p.name for p in store.players("toy1")] == ["Arya"]
    answer = body(outbox_messages(store, rcpt="twin@pbem.test")[-1])
    assert "ressemble trop à « Arya », un nom déjà pris" in answer or "ce nom est déjà pris" in answer, answer


def test_skeletons_tell_apart_names_that_differ_to_the_eye():
    assert skeleton("Jon") == skeleton("J0n") == skeleton("Jоn")  # a zero, a Cyrillic о
    assert skeleton("Ilyn") == skeleton("llyn")
    for a, b in [("Arya", "Aria"), ("Bran", "Brandon"), ("Olenna", "Olena"), ("Clara", "Dara")]:
        assert skeleton(a) != skeleton(b), (a, b)


@pytest.mark.parametrize("gid", ["../x", "a/b", ".hidden", "pmb 1", "x" * 41, "jeu.1", ""])
def test_a_game_id_outside_the_safe_characters_is_refused_at_config_load(tmp_path, gid):
    with pytest.raises(ConfigError, match="a game id is letters, digits"):
        make_config(tmp_path, game_id=gid)


def test_the_cli_says_it_in_one_line_and_writes_nothing(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path).replace("[games.toy1]", '[games."../../evil"]'))
    result = CliRunner().invoke(main, ["--config", str(cfg), "game", "new", "../../evil"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    text = result.output.replace("\u00a0", " ")
    assert "un identifiant de partie ne contient que des lettres, des chiffres, - et _" in text
    assert len(text.strip().splitlines()) == 1
    assert not (tmp_path / "db.sqlite").exists() and not (tmp_path.parent / "evil").exists()
