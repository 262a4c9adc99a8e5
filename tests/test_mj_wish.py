"""A player's wish in the game's words (`Ruleset.wish_words`, issue #21), through the real engine: the MJ's
« Bran veut remercier Arya » is echoed as the order it means and nothing is done; his OUI gives that order."""

from __future__ import annotations

from datetime import timedelta

import pytest
from mjseat_helpers import PLAYERS, T0, Table, to
from toy_ruleset import Toy


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setattr(Toy, "wish_words", {"remercier": "GIFT", "thank": "GIFT"})
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "GUESS 4")
    t.due(T0 + timedelta(days=2))  # step 2, the gifts
    t.new()
    yield t
    t.close()


def test_a_wish_is_echoed_as_its_order_and_given_by_OUI(table):
    answer = table.mj("Bran veut remercier Arya")
    assert "-> À CONFIRMER : J'ai compris : POUR Bran : GIFT Arya (à vérifier : l'ordre)" in answer
    assert not to(table.new(), PLAYERS["Bran"], "notice")  # nothing given on the guess
    answer = table.mj_reply("OUI")
    assert "OK : confirmation reçue" in answer and "-> OK : ordre enregistré pour Bran" in answer
    (told,) = to(table.new(), PLAYERS["Bran"], "notice")
    assert "  GIFT Arya" in told[1]
    assert "OK : confirmation reçue" not in table.mj_reply("OUI")  # once


def test_a_wish_of_a_word_the_game_does_not_declare_is_no_order(table, monkeypatch):
    monkeypatch.setattr(Toy, "wish_words", {})
    answer = table.mj("Bran veut remercier Arya")
    assert "POUR Bran" not in answer and not to(table.new(), PLAYERS["Bran"], "notice")
