"""Players' absences through the real engine: declared by mail, seen by the MJ, and the game's policy:
defaults applied silently, or the deadline waiting for the absent player (up to a limit)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS
from mjseat_helpers import PLAYERS, T0, Table, to


@pytest.mark.parametrize("line", ["ABSENCE du 3 au 10 février", "absence du lundi 3 au lundi 10 février inclus",
                                  "Absence jusqu'au 10 février", "ABSENCE du 3 février au 10 février",
                                  "away from 3 to 10 February", "absence pendant 9 jours"])
def test_an_absence_declared_by_mail(tmp_path, line):
    t = Table(tmp_path)
    t.mail(PLAYERS["Bran"], line)
    ack = t.last("ack", PLAYERS["Bran"])
    assert re.search(r"OK : absence enregistrée du (samedi 1er|lundi 3) février (à 14 h )?au lundi 10 février 2025", ack)
    assert "sans ordres de votre part, les ordres par défaut s'appliqueront, sans rappel" in ack
    (absence,) = t.store.absences("toy1", player="Bran")
    assert absence.ends_at >= datetime(2025, 2, 10, 13, 0, tzinfo=UTC)
    t.close()


def test_an_absence_called_off_and_a_bad_one(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Bran"], "ABSENCE du 3 au 10 février")
    t.mail(PLAYERS["Bran"], "ABSENCE ANNULER")
    assert "absence annulée : vos ordres sont de nouveau attendus" in t.last("ack", PLAYERS["Bran"])
    assert t.store.absences("toy1", player="Bran") == []
    t.mail(PLAYERS["Bran"], "ABSENCE quand je peux")
    assert "écrivez par exemple ABSENCE du 8 au 16 février" in t.last("ack", PLAYERS["Bran"])
    t.close()


def test_with_defaults_an_absent_player_is_not_reminded_nor_awaited_and_the_MJ_sees_it(tmp_path):
    t = Table(tmp_path, early_delay_minutes=0)
    t.mail(PLAYERS["Bran"], "ABSENCE du 1er au 10 février")
    answer = t.mj("Qui manque ?")
    assert "Absents : Bran (du samedi 1er février à 14 h au lundi 10 février 2025 inclus)" in answer
    t.new()
    t.due(T0 + timedelta(days=1, hours=1))  # 24 h before the deadline: reminders
    assert {a for a, k, _s, _b in t.new() if k == "reminder"} == {PLAYERS["Arya"], PLAYERS["ser Schlingue"]}
    t.mail(PLAYERS["Arya"], "GUESS 3")
    t.mail(PLAYERS["ser Schlingue"], "GUESS 7")  # everyone present has ordered: early resolution
    assert t.game().early_at is not None
    t.due(T0 + timedelta(days=1, hours=2))
    assert t.store.record_for_turn("toy1", 1) is not None
    mails = t.new()
    bran = to(mails, PLAYERS["Bran"], "private")[0][1]
    assert "Nous n'avons pas reçu vos ordres" not in bran  # silently
    digest = to(mails, MJ_ADDRESS, "digest")[0][1]
    assert "== Absences ==\n  Bran : absence déclarée du samedi 1er février" in digest
    assert "Sans ordres à temps (ordres par défaut) : Bran." in digest
    # a declared absence is no missed step (NMR): Bran's count stays where it was
    assert {p.name: p.missed for p in t.store.players("toy1")} == {"Arya": 0, "ser Schlingue": 0, "Bran": 0}
    t.close()


def test_with_wait_the_deadline_waits_for_the_absent_player_up_to_the_limit(tmp_path):
    t = Table(tmp_path, absence="wait", absence_wait="4d")
    t.mail(PLAYERS["Bran"], "ABSENCE du 2 au 4 février")
    deadline = t.deadline()  # Monday 3 February, 14 h
    t.new()
    assert t.due(deadline) == ["toy1: deadline held for an absent player"]
    assert t.deadline() == datetime(2025, 2, 4, 23, 0, tzinfo=UTC)  # Bran is back on Wednesday 5 at 0 h
    notices = to(t.new(), PLAYERS["Arya"], "notice")
    assert notices and "la partie attend le retour de Bran" in notices[0][1]
    t.mail(PLAYERS["Bran"], "ABSENCE du 5 au 20 février", at=datetime(2025, 2, 4, 12, 0, tzinfo=UTC))
    assert t.due(t.deadline()) == ["toy1: deadline held for an absent player"]
    assert t.deadline() == deadline + timedelta(days=4)  # never more than absence_wait past the deadline
    assert t.due(t.deadline()) == ["toy1: turn 1 resolved"]
    t.close()


def test_with_wait_a_mail_after_a_missed_deadline_finds_it_held_as_the_tick_would(tmp_path):
    """No pass ran at the deadline (an outage); the first mail read after it closes the step only as the pass
    would have at the deadline: here the absent player holds it back, and the mail counts for the open step."""
    t = Table(tmp_path, absence="wait", absence_wait="4d")
    t.mail(PLAYERS["Bran"], "ABSENCE du 2 au 4 février")
    deadline = t.deadline()
    t.mail(PLAYERS["Arya"], "GUESS 3", at=deadline + timedelta(hours=2))
    assert t.store.record_for_turn("toy1", 1) is None
    assert t.deadline() == datetime(2025, 2, 4, 23, 0, tzinfo=UTC)  # Bran is back on Wednesday 5 at 0 h
    assert t.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)
    assert "la partie attend le retour de Bran" in t.last("notice", PLAYERS["Arya"])
    t.close()
