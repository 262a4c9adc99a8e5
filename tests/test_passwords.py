"""Passwords (``passwords = true``): a replaced seat's password cleared and chosen again by the newcomer, a
player the MJ registers given one by mail, and wrong passwords slowed down then locked, per game and address,
with one summary for the MJ.  Through the real engine on the toy game (times are simulated)."""

from __future__ import annotations

from datetime import timedelta

import helpers  # noqa: F401  (registers the toy ruleset)
import pytest
from click.testing import CliRunner
from helpers import MJ_ADDRESS, body, outbox_messages, toy_config_toml
from mjseat_helpers import PLAYERS, T0, Table, plain

from pbem.cli import main
from pbem.engine import passwords

ARYA = PLAYERS["Arya"]
RIGHT = "MOTDEPASSE secret-4\nGUESS 3"  # Arya's password (mjseat_helpers registers « secret-<len(name)> »)
WRONG = "MOTDEPASSE devine\nGUESS 3"


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv("TOY_MJ_PASSWORD", "sel-et-poivre")
    t = Table(tmp_path, passwords=True, mj_password_env="TOY_MJ_PASSWORD")
    yield t
    t.close()


def _notices(t, rcpt):
    return [(s, b) for to, k, s, b in t.new() if to == rcpt and k == "notice"]


def test_a_replaced_seat_loses_its_password_and_the_newcomer_sets_his_own(game):
    t = game
    assert t.mail(ARYA, RIGHT).startswith("ok")
    t.engine.replace_player("toy1", "Arya", "jeanne@pbem.test", t.now, new_name="Jeanne")
    assert t.store.player("toy1", "Arya").password is None  # the old password stops working
    briefing = [b for to, k, _s, b in t.new() if to == "jeanne@pbem.test" and k == "private"]
    assert briefing and "ligne MOTDEPASSE suivie du mot de passe que vous choisissez" in briefing[0]
    # a mail without a password is refused, and the newcomer is told to choose one
    assert t.mail("jeanne@pbem.test", "GUESS 5") == "rejected: no password set yet"
    told = _notices(t, "jeanne@pbem.test")
    assert told and told[0][0] == "[TOY] choisissez votre mot de passe"
    assert t.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)  # (the refused mail's GUESS 5 is not)
    # the first password given becomes the seat's; the old one no longer opens it
    assert t.mail("jeanne@pbem.test", "MOTDEPASSE neuf\nGUESS 5").startswith("ok")
    assert t.store.player("toy1", "Arya").password == "neuf"
    assert t.mail("jeanne@pbem.test", "MOTDEPASSE secret-4\nGUESS 6").startswith("rejected")
    assert t.mail("jeanne@pbem.test", "MOTDEPASSE neuf\nGUESS 7").startswith("ok")
    assert t.store.current_orders("toy1", 1)["Arya"].orders[0].args == (7,)


def test_wrong_passwords_wait_then_lock_and_the_mj_gets_one_summary(game):
    t = game
    t.new()
    start = t.now
    # two wrong passwords: refused, the player told each time, no wait yet
    for i in range(2):
        assert t.mail(ARYA, WRONG, at=start + timedelta(seconds=i)).startswith("rejected: authentication failed")
    told = _notices(t, ARYA)
    assert len(told) == 2 and "ne sera pas lu avant" not in told[1][1]
    # the third starts a wait of 5 minutes: even the right password is not checked before it ends
    third = start + timedelta(minutes=1)
    t.mail(ARYA, WRONG, at=third)
    assert "le prochain courriel de votre adresse pour cette partie ne sera pas lu avant le" in _notices(t, ARYA)[0][1]
    t.now = third + timedelta(minutes=4)
    assert t.mail(ARYA, RIGHT, at=t.now).startswith("rejected: 3 wrong passwords, not read before")
    wait = _notices(t, ARYA)
    assert wait and wait[0][0] == "[TOY] message non lu : trop de mots de passe erronés"
    assert "Renvoyez-le après le" in wait[0][1]
    t.mail(ARYA, RIGHT, at=t.now + timedelta(seconds=1))  # the same wait: no second notice
    assert _notices(t, ARYA) == []
    assert "Arya" not in t.store.current_orders("toy1", 1)
    # once it is over, the right password goes through and the count starts again
    t.now = third + timedelta(minutes=5)
    assert t.mail(ARYA, RIGHT, at=t.now).startswith("ok")
    assert t.store.password_failures("toy1", ARYA, T0) == []
    # ten wrong ones, each after its wait: the address is locked for an hour, the MJ told once
    when = t.now
    for n in range(1, passwords.LOCK_AFTER + 1):
        assert t.mail(ARYA, WRONG, at=when).startswith("rejected: authentication failed"), n
        when += (passwords.wait_after(n) or timedelta(0)) + timedelta(seconds=1)
    locked_at = when - (passwords.LOCK + timedelta(seconds=1))
    mails = t.new()
    to_mj = [s for to, k, s, _b in mails if to == MJ_ADDRESS]
    assert to_mj == ["[TOY] adresse bloquée : trop de mots de passe erronés"]  # one summary, not one per try
    summary = next(plain(b) for to, _k, s, b in mails if to == MJ_ADDRESS)
    assert "10 courriels au mot de passe absent ou faux sont venus de p0@pbem.test (l'adresse de Arya)" in summary
    assert "ne sont plus lus jusqu'au" in summary
    assert t.mail(ARYA, RIGHT, at=locked_at + timedelta(minutes=59)).startswith("rejected: 10 wrong passwords")
    assert "elle est bloquée une heure" in _notices(t, ARYA)[0][1]
    assert t.mail(ARYA, RIGHT, at=locked_at + timedelta(hours=1)).startswith("ok")


def test_the_count_is_per_game_and_address(game):
    t = game
    t.new()
    for i in range(passwords.DELAY_AFTER):
        t.mail(ARYA, WRONG, at=t.now + timedelta(seconds=i))
    bran = PLAYERS["Bran"]  # another address of the same game: untouched
    assert t.mail(bran, "MOTDEPASSE secret-4\nGUESS 2", at=t.now + timedelta(seconds=10)).startswith("ok")
    assert t.store.password_failures("toy1", bran, T0) == []
    assert len(t.store.password_failures("toy1", ARYA, T0)) == passwords.DELAY_AFTER


def test_the_mj_address_is_slowed_down_too_and_told_at_its_own_address(game):
    t = game
    t.new()
    for i in range(passwords.DELAY_AFTER):
        assert t.mail(MJ_ADDRESS, "MOTDEPASSE non\nProlonge de 24h", "[TOY] MJ",
                      at=t.now + timedelta(seconds=i)).startswith("rejected")
    assert t.mail(MJ_ADDRESS, "MOTDEPASSE sel-et-poivre\nProlonge de 24h", "[TOY] MJ",
                  at=t.now + timedelta(minutes=1)).startswith("rejected: 3 wrong passwords")
    subjects = [s for to, k, s, _b in t.new() if to == MJ_ADDRESS]
    assert subjects.count("[TOY] message refusé à votre nom") == 3
    assert "[TOY] message non lu : trop de mots de passe erronés" in subjects


def test_a_player_the_mj_registers_gets_a_password_by_mail(tmp_path, monkeypatch):
    monkeypatch.setenv("TOY_MJ_PASSWORD", "sel-et-poivre")
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, game='passwords = true\nmj_password_env = "TOY_MJ_PASSWORD"'))
    runner = CliRunner()
    assert runner.invoke(main, ["--config", str(cfg), "game", "new", "toy1"]).exit_code == 0
    result = runner.invoke(main, ["--config", str(cfg), "player", "add", "toy1", "Olenna", "olenna@pbem.test",
                                  "--gender", "f"])
    assert result.exit_code == 0, result.output
    out = result.output.replace("\u00a0", " ")
    assert "un mot de passe est créé pour cette place et part par courriel à olenna@pbem.test" in out
    assert "1 courriel en file d'envoi (le prochain pbem tick l'envoie) : olenna@pbem.test" in out
    from pbem import config as configmod
    from pbem.store import Store

    store = Store(configmod.load(cfg).database)
    password = store.player("toy1", "Olenna").password
    assert password and len(password) == 14 and password not in result.output  # never shown on the terminal
    mails = outbox_messages(store, rcpt="olenna@pbem.test")
    assert len(mails) == 1 and f"MOTDEPASSE {password}" in body(mails[0])
    assert "Le MJ vous a inscrite à" in body(mails[0])
    assert store.journal("toy1", "player add")[0].detail["password"] == "made and mailed"
    store.close()


def test_passwords_pbem_makes_differ_and_avoid_look_alike_characters():
    made = {passwords.new_password() for _ in range(200)}
    assert len(made) == 200
    assert not any(set(p) & set("01ilo") for p in made)
