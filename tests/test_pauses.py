"""Pauses through the real engine: the clock stops (no resolution, no reminder), players are told when a pause
is announced, begins and ends, and the deadline after it is counted from the resume, on the wall clock of the
game's zone, across a change of summer time.

Each expected deadline is written from the rule (docs/guide-mj.md, « Pause ») : the time left when the pause
began is given back from the resume, then rounded up to the step's time of day (21 h here).
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from helpers import MJ_ADDRESS
from mjseat_helpers import PLAYERS, Table, plain, to

from pbem.render import date_fr

PARIS = ZoneInfo("Europe/Paris")


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS).astimezone(UTC)


def _table(tmp_path, start: datetime, **game) -> Table:
    return Table(tmp_path, start, deadlines={"turn": "2d@21:00", "short": "1d@21:00"}, **game)


@pytest.fixture
def spring(tmp_path):
    """A game started on Thursday 27 March 2025 at 21 h (Paris): step 1 ends on Saturday 29 at 21 h,
    the night before summer time (Sunday 30 March, 2 h -> 3 h)."""
    t = _table(tmp_path, paris(2025, 3, 27, 21, 0))
    assert t.deadline() == paris(2025, 3, 29, 21, 0)
    yield t
    t.close()


def test_a_pause_with_dates_across_the_deadline_and_the_change_of_summer_time(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    answer = t.mj("Pause du samedi 29 au dimanche 30 mars inclus : week-end de Pâques")
    # at the start of the pause (Saturday 0 h) 21 hours were left: given back from Monday 0 h -> Monday 21 h,
    # summer time now (19 h UTC, where the same wall-clock shift in real time would give 20 h UTC)
    assert t.deadline() == paris(2025, 3, 31, 21, 0) == datetime(2025, 3, 31, 19, 0, tzinfo=UTC)
    assert "pause annoncée du samedi 29 mars au dimanche 30 mars 2025 inclus" in answer
    assert "date limite de l'étape en cours : lundi 31 mars 2025 à 21 h (au lieu du samedi 29 mars 2025 à 21 h)" \
        in answer
    announced = to(t.new(), PLAYERS["Arya"], "notice")
    assert announced[0][0] == "[TOY] pause de la partie"
    assert "Motif : week-end de Pâques" in announced[0][1] and "lundi 31 mars 2025 à 21 h" in announced[0][1]
    assert t.due(paris(2025, 3, 29, 0, 5)) == ["toy1: pause began"]
    begun = t.new()
    assert {a for a, k, s, _b in begun if s == "[TOY] la partie est en pause"} == {*PLAYERS.values(), MJ_ADDRESS}
    # the old deadline, and the day of the change, pass: nothing happens (no resolution, no reminder)
    for at in (paris(2025, 3, 29, 21, 0), paris(2025, 3, 30, 3, 30), paris(2025, 3, 30, 21, 0)):
        assert t.due(at) == []
    assert t.new() == [] and t.game().turn == 1
    # orders sent during the pause are kept
    t.mail(PLAYERS["Arya"], "GUESS 6", at=paris(2025, 3, 30, 12, 0))
    t.new()
    assert t.due(paris(2025, 3, 31, 0, 5)) == ["toy1: play resumed"]
    resumed = to(t.new(), PLAYERS["Bran"], "notice")
    assert resumed[0][0] == "[TOY] reprise de la partie" and "lundi 31 mars 2025 à 21 h" in resumed[0][1]
    assert t.due(paris(2025, 3, 31, 20, 59)) == []
    assert t.due(paris(2025, 3, 31, 21, 0)) == ["toy1: turn 1 resolved"]
    assert t.store.record_for_turn("toy1", 1) is not None


def test_a_pause_until_further_notice_then_resumed_gives_back_the_time_left(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)  # 35 hours before the deadline
    answer = t.mj("Mets la partie en pause")
    assert "partie en pause à partir du vendredi 28 mars 2025 à 10 h, jusqu'à nouvel ordre" in answer
    assert "la date limite sera fixée à la reprise" in answer
    t.new()
    assert t.due(paris(2025, 3, 29, 21, 0)) == []  # the deadline is frozen
    assert t.due(paris(2025, 3, 30, 22, 0)) == []
    # a late mail after the frozen deadline does not close the step either
    t.mail(PLAYERS["Bran"], "GUESS 2", at=paris(2025, 3, 30, 22, 30))
    assert t.game().turn == 1 and t.store.record_for_turn("toy1", 1) is None
    t.new()
    t.now = paris(2025, 3, 31, 14, 37)
    answer = t.mj("Reprise")
    # 35 hours from Monday 14 h 37 -> Wednesday 1 h 37, rounded up to the step's 21 h
    assert t.deadline() == paris(2025, 4, 2, 21, 0)
    assert "pause finie : la partie reprend ; date limite de l'étape en cours : mercredi 2 avril 2025 à 21 h" in answer
    assert [s for s, _b in to(t.new(), PLAYERS["Arya"], "notice")] == ["[TOY] reprise de la partie"]
    assert t.due(paris(2025, 4, 2, 21, 0)) == ["toy1: turn 1 resolved"]


@pytest.mark.parametrize("until", ["Pause jusqu'au lundi 31 mars à 9 h", "Pause jusqu'à nouvel ordre"])
def test_a_step_opened_during_a_pause_with_after_early_length_starts_when_it_ends(tmp_path, until):
    t = _table(tmp_path, paris(2025, 3, 27, 21, 0), after_early="length")
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj(until)
    t.now = paris(2025, 3, 28, 12, 0)
    assert t.engine.resolve("toy1", t.now)  # the MJ resolves by hand during the pause
    if "nouvel ordre" in until:
        t.now = paris(2025, 3, 31, 9, 0)
        t.mj("Reprise")
    # step 2 (1d@21:00) counted from Friday noon would end on Saturday 21 h; its clock starts on Monday at 9 h:
    # 33 hours from then -> Tuesday 18 h, rounded up to 21 h
    assert t.deadline() == paris(2025, 4, 1, 21, 0)
    t.close()


@pytest.mark.parametrize("until", ["Pause jusqu'au lundi 31 mars à 9 h", "Pause jusqu'à nouvel ordre"])
def test_a_step_opened_during_a_pause_on_the_calendar_keeps_the_slot_after_the_moved_deadline(spring, until):
    t = spring  # after_early = "calendar" (the toy game's choice): a step closed early keeps the calendar
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj(until)
    t.now = paris(2025, 3, 28, 12, 0)
    assert t.engine.resolve("toy1", t.now)  # the MJ resolves by hand during the pause
    if "nouvel ordre" in until:
        t.now = paris(2025, 3, 31, 9, 0)
        t.mj("Reprise")
    # step 1's deadline, Saturday 21 h, moved by the pause (Friday 10 h -> Monday 9 h: 71 hours) -> Tuesday 20 h,
    # rounded up to 21 h; step 2 (1d@21:00) takes the slot after it: Wednesday 21 h, whichever kind of pause
    assert t.deadline() == paris(2025, 4, 2, 21, 0)


def test_a_step_opened_before_an_announced_pause_is_moved_by_it(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause du lundi 31 mars au mercredi 2 avril inclus")
    assert t.deadline() == paris(2025, 3, 29, 21, 0)  # step 1 ends before the pause: unmoved
    assert t.due(paris(2025, 3, 29, 21, 0)) == ["toy1: turn 1 resolved"]
    assert t.deadline() == paris(2025, 3, 30, 21, 0)  # step 2 (1d) too
    assert t.due(paris(2025, 3, 30, 21, 0)) == ["toy1: turn 2 resolved"]
    # step 3 (2d@21:00) would end on Tuesday 1 April at 21 h, inside the pause (Monday 0 h -> Thursday 0 h):
    # the 72 hours of the pause are added -> Friday 4 April at 21 h
    assert t.deadline() == paris(2025, 4, 4, 21, 0)
    assert t.due(paris(2025, 4, 1, 21, 0)) == ["toy1: pause began"]  # (and nothing resolved)
    t.due(paris(2025, 4, 3, 0, 5))
    assert t.game().turn == 3 and t.store.record_for_turn("toy1", 3) is None


def test_a_pause_called_off_before_it_begins_gives_the_deadline_back(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause du samedi 29 au dimanche 30 mars inclus")
    assert t.deadline() == paris(2025, 3, 31, 21, 0)
    answer = t.mj("Reprise")
    assert "pause annulée" in answer and t.deadline() == paris(2025, 3, 29, 21, 0)
    assert t.due(paris(2025, 3, 29, 21, 0)) == ["toy1: turn 1 resolved"]


def test_two_pauses_at_the_same_time_are_refused(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause du samedi 29 au dimanche 30 mars inclus")
    answer = t.mj("Pause du 30 mars au 2 avril")
    assert "REFUSÉ : une pause est déjà prévue du samedi 29 mars 2025" in answer


def test_reminders_wait_for_the_end_of_the_pause(spring):
    t = spring  # reminder 24 h before the deadline
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause jusqu'à nouvel ordre")
    t.new()
    t.due(paris(2025, 3, 28, 21, 30))  # 24 h before the (frozen) deadline
    assert not [k for _t, k, _s, _b in t.new() if k == "reminder"]
    t.now = paris(2025, 3, 29, 10, 0)
    t.mj("Reprise")  # 35 h given back: Sunday 21 h (summer time), the reminder on Saturday 21 h... after now
    assert t.deadline() == paris(2025, 3, 30, 21, 0)
    t.new()
    t.due(paris(2025, 3, 29, 21, 5))
    reminded = {a for a, k, _s, _b in t.new() if k == "reminder"}
    assert reminded == set(PLAYERS.values())


def test_a_pause_during_the_grace_period_gives_back_the_grace_that_was_left(tmp_path):
    t = _table(tmp_path, paris(2025, 3, 27, 21, 0), grace="2h")  # step 1 ends on Saturday 29 at 21 h, then 2 h of grace
    assert t.due(paris(2025, 3, 29, 21, 5)) == ["toy1: 3 grace notices"]  # nobody has ordered: the grace runs
    t.new()
    t.now = paris(2025, 3, 29, 21, 30)
    t.mj("Pause jusqu'au dimanche 30 mars à 10 h")
    # the pause took 12 h 30 of wall clock (the night of the change to summer time): the deadline moves from
    # Saturday 21 h to Sunday 9 h 30, not rounded to 21 h (it is past already), so 1 h 30 of grace is left at 10 h
    assert t.deadline() == paris(2025, 3, 30, 9, 30)
    assert t.due(paris(2025, 3, 30, 10, 5)) == ["toy1: play resumed"]
    assert t.store.record_for_turn("toy1", 1) is None
    assert not [k for _a, k, _s, _b in t.new() if k == "reminder"]  # the grace notice is not sent twice
    assert t.due(paris(2025, 3, 30, 11, 30)) == ["toy1: turn 1 resolved"]
    t.close()


def test_an_answer_during_a_pause_says_so_and_gives_no_frozen_deadline(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Mets la partie en pause")
    t.mail(PLAYERS["Bran"], "GUESS 2", at=paris(2025, 3, 30, 22, 30))  # after the frozen deadline
    ack = t.last("ack", PLAYERS["Bran"])
    assert ("La partie est en pause jusqu'à nouvel ordre : aucune étape n'est résolue pendant la pause. Vos ordres "
            "sont enregistrés pour cette étape ; ils comptent à sa date limite, et vous pouvez les corriger d'ici là."
            in ack)
    assert "La date limite sera fixée à la reprise : le temps qui restait quand la pause a commencé vous sera rendu." \
        in ack
    assert "samedi 29 mars" not in ack and "Date limite :" not in ack  # the frozen deadline, past already
    # every order in during the pause: resolved once it ends, not at a time inside it
    t.mail(PLAYERS["Arya"], "GUESS 3", at=paris(2025, 3, 30, 23, 0))
    t.mail(PLAYERS["ser Schlingue"], "GUESS 4", at=paris(2025, 3, 30, 23, 1))
    ack = t.last("ack", PLAYERS["ser Schlingue"])
    assert "Tous les ordres sont arrivés : l'étape sera résolue dès la fin de la pause." in ack


def test_an_answer_during_a_dated_pause_gives_the_deadline_after_it(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause du vendredi 28 mars à 10 h au lundi 31 mars à 9 h")
    t.mail(PLAYERS["Bran"], "GUESS 2", at=paris(2025, 3, 29, 12, 0))
    ack = t.last("ack", PLAYERS["Bran"])
    assert "La partie est en pause jusqu'au lundi 31 mars 2025 à 9 h : aucune étape n'est résolue" in ack
    assert f"Date limite, après la pause : {_said(t.deadline())}." in ack


def test_an_answer_before_an_announced_pause_tells_of_it(spring):
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause à partir du samedi 29 mars à 9 h")
    t.mail(PLAYERS["Bran"], "GUESS 2", at=paris(2025, 3, 28, 12, 0))
    ack = t.last("ack", PLAYERS["Bran"])
    assert "Date limite : samedi 29 mars 2025 à 21 h." in ack
    assert ("Une pause est prévue à partir du samedi 29 mars 2025 à 9 h, jusqu'à nouvel ordre : la date limite "
            "sera fixée à la reprise." in ack)


def _said(when: datetime) -> str:
    return plain(date_fr(when.astimezone(PARIS)))


def test_the_results_of_a_step_before_an_announced_pause_tell_the_players_of_it(spring):
    """Each result mail carries the game's calendar ahead (#22): the next deadline and the pause announced."""
    t = spring
    t.now = paris(2025, 3, 28, 10, 0)
    t.mj("Pause du lundi 31 mars au mercredi 2 avril inclus : vacances")
    t.new()
    assert t.due(paris(2025, 3, 29, 21, 0)) == ["toy1: turn 1 resolved"]
    letters = to(t.new(), PLAYERS["Arya"], "private")
    assert letters and all("Pause prévue du lundi 31 mars au mercredi 2 avril 2025 inclus." in plain(body)
                           for _subject, body in letters), letters
    t.mj("Reprise")  # called off before it began: the next letters say nothing of it
    t.new()
    assert t.due(paris(2025, 3, 30, 21, 0)) == ["toy1: turn 2 resolved"]
    (_subject, body), = to(t.new(), PLAYERS["Arya"], "private")
    assert "Pause prévue" not in body
