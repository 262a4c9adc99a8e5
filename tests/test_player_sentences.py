"""A player's common commands said in a sentence, read by the MJ's reader (issue #21): « je serai absent du 15 au
20 février », « je passe mon tour », « où en est la partie ? », « comment je donne mes ordres ? »; and prose
that begins near an order word is the player's text, never « vouliez-vous dire … ? » nor an error (1626's
« Je pense que… » is no misspelt JET).  Through the real engine.
"""

from __future__ import annotations

from helpers import body, outbox_messages
from mjseat_helpers import PLAYERS, T0, Table

from pbem.demo import SEED, Demo
from pbem.folder import DATA


def _ack(t: Table, player: str) -> str:
    return t.last("ack", PLAYERS[player])


def test_an_absence_said_in_a_sentence_is_recorded(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "Bonjour,\nJe serai absent du 15 au 20 février, désolé !\nArya")
    (a,) = t.store.absences("toy1", player="Arya")
    assert a.starts_at.astimezone(t.cfg.timezone).day == 15 and a.ends_at.astimezone(t.cfg.timezone).day == 21
    assert "OK : absence enregistrée du samedi 15 février au jeudi 20 février 2025 inclus" in _ack(t, "Arya")
    t.mail(PLAYERS["Bran"], "Je serai peut-être absent du 15 au 20 février")  # a maybe is no absence
    assert t.store.absences("toy1", player="Bran") == []
    t.close()


def test_passing_said_in_a_sentence_is_PASSER(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Bran"], "Je passe mon tour")
    assert t.store.current_orders("toy1", 1)["Bran"].source == "pass"
    t.close()


def test_status_and_help_asked_in_a_sentence(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "Où en est la partie ?")
    assert "scores : Arya=0" in _ack(t, "Arya") and "ERREUR" not in _ack(t, "Arya")  # (the toy game's ETAT)
    t.mail(PLAYERS["Arya"], "Comment je donne mes ordres ?")
    assert "GUESS" in _ack(t, "Arya") and "ERREUR" not in _ack(t, "Arya")
    t.close()


def test_a_sentence_that_begins_near_an_order_word_is_prose_not_an_error(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "Rolf a dit que je devais attendre la fin du tour, je crois")  # « Rolf » is near ROLL
    answer = _ack(t, "Arya")
    assert "vouliez-vous dire" not in answer and "erreur" not in answer.lower().replace("aucune erreur", "")
    assert "Rolf a dit que je devais attendre" in answer
    t.mail(PLAYERS["Arya"], "Rol 4")  # (a real typo of an order is still answered)
    assert "vouliez-vous dire ROLL" in _ack(t, "Arya")
    t.close()


def test_in_1626_a_sentence_beginning_with_Je_is_no_misspelt_JET(tmp_path):
    d = Demo(tmp_path / "1626", "gant", {"ruleset": "1626", "tag": "1626", "registration": "1d",
                                         "roster": str(DATA / "1626" / "personnages.toml")})
    d.engine.new_game("gant", d.now, seed=SEED)
    players = {"Armand": "a@x.org", "Isaac": "i@x.org"}
    for name, address in players.items():
        d.mail(address, f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.engine.start_game("gant", d.now)
    d.mail(players["Isaac"], "Je pense que Armand va rater son jet, haha.\nJe regarde ma fiche ce soir.", "test")
    d.tick()
    answer = body(outbox_messages(d.store, kind="ack", rcpt=players["Isaac"])[-1])
    assert "JET" not in answer and "vouliez-vous dire" not in answer
    assert "Je pense que Armand va rater son jet" in answer
    d.mail(players["Isaac"], "Je Escrime AG", "test")  # a misspelt JET that reads as no sentence is still asked about
    d.tick()
    assert "vouliez-vous dire" in body(outbox_messages(d.store, kind="ack", rcpt=players["Isaac"])[-1])
    _ = T0
