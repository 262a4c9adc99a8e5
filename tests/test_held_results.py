"""Results held for the MJ's approval (``publish = "mj"``) reach nobody before he approves: not a player (acks,
ETAT, RAPPORT, ORDRES, notices), not a stranger, not the archive, not a public export; not even the fact that
the held step ended the game (a late mail was once told « la partie est terminée » hours before the approval).

The toy game through the real engine: its state shows in ETAT as « scores : … » and « step : N », so what a
player reads tells which state it was made from."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers import make_mail
from mjseat_helpers import PLAYERS, T0, Table

from pbem.archive import build
from pbem.engine import EngineError

DEADLINE = T0 + timedelta(days=2)
BEFORE = "scores : Arya=0, Bran=0, ser Schlingue=0"  # the state every player knows
AFTER_STEP = "step : 2"  # only in the state after step 1


@pytest.fixture(params=[1, 4], ids=["the-held-step-ends-the-game", "a-held-step-mid-game"])
def held(request, tmp_path):
    t = Table(tmp_path, publish="mj", options={"steps": request.param})
    t.mail(PLAYERS["Arya"], "GUESS 4")
    t.mail(PLAYERS["ser Schlingue"], "GUESS 8")
    t.new()
    t.steps = request.param
    yield t
    t.close()


def _late_mail(t: Table, sender: str, text: str, received, processed) -> None:
    """A mail the mailbox received at ``received``, read by a pass at ``processed`` (after the deadline)."""
    t.sent += 1
    key = f"late{t.sent}"
    t.store.store_raw([(key, make_mail(sender, text, message_id=f"<late{t.sent}@pbem.test>"))], received,
                      [received])
    t.engine.process_pending(processed)


def _to_players(mails):
    players = set(PLAYERS.values())
    return [(to, k, s, b) for to, k, s, b in mails if to in players]


def test_a_late_mail_is_not_told_the_game_is_over_nor_anything_of_the_results(held):
    t = held
    # Bran's mail came just after the deadline, before any pass: the pass that reads it closes the step first
    _late_mail(t, PLAYERS["Bran"], "GUESS 5\nETAT", DEADLINE + timedelta(minutes=5), DEADLINE + timedelta(hours=1))
    assert t.store.held("toy1") and t.store.record_for_turn("toy1", 1).published is False
    mails = t.new()
    answers = [b for to, k, _s, b in mails if to == PLAYERS["Bran"] and k == "ack"]
    assert len(answers) == 1
    answer = answers[0]
    assert "la partie est terminée" not in answer and "terminée" not in answer
    assert "Trop tard : l'étape 1 a été résolue le" in answer
    assert "vos résultats vous parviendront dès que le MJ les aura publiés" in answer
    assert "Ses ordres n'ont pas été lus" in answer and "Étape 2" not in answer
    assert "GUESS 5\n    -> EN ATTENTE : les résultats de l'étape 1 attendent la publication du MJ" in answer
    assert BEFORE in answer and AFTER_STEP not in answer
    assert [k for _to, k, _s, _b in _to_players(mails)] == ["ack"]  # nothing else went to a player


def test_etat_rapport_ordres_and_orders_while_results_wait(held):
    t = held
    t.due(DEADLINE)
    t.new()
    t.now = DEADLINE + timedelta(hours=2)
    t.mail(PLAYERS["Arya"], "ETAT\nORDRES\nRAPPORT 1\nAIDE\nGUESS 2\nPASSER")
    answer = [b for to, k, _s, b in t.new() if to == PLAYERS["Arya"] and k == "ack"][0]
    assert BEFORE in answer and AFTER_STEP not in answer and "step : 1" in answer
    assert "Vos ordres pour l'étape 1" in answer  # the step the player knows of, with his orders for it
    assert "RAPPORT 1\n    -> ERREUR" in answer  # not his yet
    assert "GUESS 2\n    -> EN ATTENTE" in answer and "PASSER\n    -> EN ATTENTE" in answer
    assert "Les résultats de l'étape 1 attendent la publication du MJ" in answer
    assert "Date limite" not in answer and "terminée" not in answer and "Étape 2" not in answer
    assert "6 lignes lues, 1 erreur, 2 ordres non lus (résultats en attente)." in answer
    assert t.store.current_orders("toy1", 2) == {}  # nothing read for the next step
    # the MJ, who approves, sees the truth
    assert "step : 2" in t.mj("ETAT")


def test_no_notice_to_a_player_or_a_stranger_tells_of_the_held_step(held):
    t = held
    t.due(DEADLINE)
    t.new()
    t.now = DEADLINE + timedelta(hours=1)
    t.engine.remove_player("toy1", "Bran", t.now)  # the seat notice names the step in progress
    t.mail("curieux@pbem.test", "Bonjour, où en est la partie ?")  # a stranger is told where the games stand
    mails = t.new()
    seat = [(s, b) for to, k, s, b in mails if to == PLAYERS["Bran"]]
    stranger = [b for to, _k, _s, b in mails if to == "curieux@pbem.test"]
    assert seat and stranger
    for _s, text in seat:
        assert "Étape 2" not in text and "terminée" not in text
    assert "la partie est terminée" not in stranger[0]


def test_the_archive_and_the_public_export_wait_for_the_approval(held, tmp_path):
    t = held
    t.due(DEADLINE)
    site = build(t.engine, "toy1", tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert not (tmp_path / "site" / "turn-1.html").exists() and not (tmp_path / "site" / "verification.html").exists()
    assert "Partie terminée" not in index and [p.name for p in site.pages if p.name.startswith("turn-")] == ["turn-0.html"]
    if t.steps == 1:  # the held step ended the game: its seed is not out either
        with pytest.raises(EngineError, match="not revealed yet"):
            t.engine.public_export("toy1")
    # approved: everything goes, the archive and the export follow
    t.engine.publish("toy1", DEADLINE + timedelta(hours=3))
    build(t.engine, "toy1", tmp_path / "site")
    assert (tmp_path / "site" / "turn-1.html").exists()
    if t.steps == 1:
        assert (tmp_path / "site" / "verification.html").exists()
        data = t.engine.public_export("toy1")
        assert [r["turn"] for r in data["records"]] == [0, 1] and data["seed"] == "ab" * 32
    mails = _to_players(t.new())
    assert {to for to, k, _s, _b in mails if k == "private"} == set(PLAYERS.values())


def test_a_player_is_told_of_the_end_only_once_it_is_approved(tmp_path):
    t = Table(tmp_path, publish="mj", options={"steps": 1})  # the step held is the game's last
    t.mail(PLAYERS["Arya"], "GUESS 4")
    t.due(DEADLINE)
    t.new()
    t.now = DEADLINE + timedelta(hours=1)
    t.mail(PLAYERS["Bran"], "GUESS 3")
    before = [b for to, k, _s, b in t.new() if to == PLAYERS["Bran"] and k == "ack"][0]
    assert "terminée" not in before and "GUESS 3\n    -> EN ATTENTE" in before
    t.engine.publish("toy1", DEADLINE + timedelta(hours=2))
    assert any(to == PLAYERS["Bran"] and k == "private" for to, k, _s, _b in t.new())
    t.now = DEADLINE + timedelta(hours=3)
    t.mail(PLAYERS["Bran"], "GUESS 3")
    after = [b for to, k, _s, b in t.new() if to == PLAYERS["Bran"] and k == "ack"][0]
    assert "GUESS 3\n    -> ERREUR : la partie est terminée" in after
    t.close()
