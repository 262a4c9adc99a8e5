"""1626 through the engine's hooks (real engine, Maildir in and out): the MJ's POUR rolls at once, one MJ
digest per batch of tests named after the characters, secret tests named to nobody but the MJ, RAPPORT and
`pbem turn show` list the tests by audience, and the compact action records replay exactly."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pbem.core import MJ
from pbem.demo import MJ_ADDRESS
from pbem.store.records import ACTION_CHECKPOINT, state_after_json

from .test_1626_by_mail import PLAYERS, _one, _start

SECRET_WORDS = re.compile(r"vigilance|perception|\bPE\b|\b23\b|\b17\b|impossible|difficile", re.IGNORECASE)


def test_the_MJs_POUR_test_with_an_SR_is_rolled_at_once(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(MJ_ADDRESS, "POUR Isaac : TEST Vigilance PE SR 17", "MJ")
    d.tick()
    sent = mails.new()
    _, mj_ack = _one(sent, MJ_ADDRESS, "ack")
    assert "Isaac de Porthau, test n° 1 de Vigilance / Perception (SR 17, Difficile)" in mj_ack
    subject, private = _one(sent, PLAYERS["Isaac"], "private")
    assert subject == "[1626] Test n° 1 d'Isaac de Porthau — vos résultats"
    assert "test n° 1 de Vigilance / Perception (SR 17, Difficile)" in private
    assert d.engine.state(d.engine.game("gant")).requests == []  # no request waits: it was rolled
    assert not [m for m in sent if m[1] == "digest"]  # the MJ wrote it: his ack is his digest
    d.close()


def test_a_secret_POUR_test_names_nothing_to_its_player(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(MJ_ADDRESS, "POUR Isaac : TEST Vigilance PE SR 23 SECRET", "MJ")
    d.tick()
    sent = mails.new()
    subject, body = _one(sent, PLAYERS["Isaac"], "private")
    assert subject == "[1626] Test secret n° 1 — vos résultats"
    for text in (subject, body):
        assert not SECRET_WORDS.search(text), text
    # RAPPORT: the player reads that a secret test happened, never what it was
    d.mail(PLAYERS["Isaac"], "RAPPORT", "rapport")
    d.tick()
    _, report = _one(mails.new(), PLAYERS["Isaac"], "ack")
    assert "Test secret n° 1" in report and "lancé en secret" in report
    assert not SECRET_WORDS.search(report.split("RAPPORT", 1)[1]), report
    d.close()


def test_one_MJ_digest_per_batch_of_requests_names_the_characters(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(PLAYERS["Armand"], "TEST Escrime AG\nTEST PE SR 12", "tests")
    d.mail(PLAYERS["Henri"], "TEST Théologie EDU", "un test")
    d.tick()
    sent = mails.new()
    digests = [(s, b) for to, kind, s, b in sent if to == MJ_ADDRESS and kind == "digest"]
    assert len(digests) == 1, [s for s, _ in digests]
    subject, body = digests[0]
    assert subject == "[1626] Tests d'Armand de Sillègue d'Athos et d'Henri d'Aramitz — synthèse MJ"
    for n in (1, 2, 3):
        assert f"Demande n° {n} :" in body
    # the MJ answers both in one mail: each player gets their own result, the MJ reads them in his ack
    d.mail(MJ_ADDRESS, "SR 15 n° 1\nLANCER n° 2\nSR 14 Henri", "réponses")
    d.tick()
    sent = mails.new()
    assert sorted(s for to, kind, s, _ in sent if kind == "private") == [
        "[1626] Test n° 1 d'Armand de Sillègue d'Athos — vos résultats",
        "[1626] Test n° 2 d'Armand de Sillègue d'Athos — vos résultats",
        "[1626] Test n° 3 d'Henri d'Aramitz — vos résultats"]
    d.close()


def test_RAPPORT_and_turn_show_list_the_tests_by_audience(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(MJ_ADDRESS, "TEST Armand Escrime AG SR 15\nTEST Isaac Vigilance PE SR 23 SECRET\nTEST Henri FO SR 12",
           "MJ")
    d.tick()
    mails.new()
    d.mail(PLAYERS["Armand"], "RAPPORT", "rapport")
    d.tick()
    _, report = _one(mails.new(), PLAYERS["Armand"], "ack")
    assert "Test n° 1 d'Armand de Sillègue d'Athos" in report and "Escrime / Agilité (SR 15" in report
    assert "Isaac" not in report and "Henri" not in report  # another's test, secret or not, is not his
    shown = d.engine.digest_text("gant").replace("\u00a0", " ")
    for words in ("Test n° 1 d'Armand de Sillègue d'Athos", "Test n° 2 d'Isaac de Porthau (secret)",
                  "Vigilance / Perception (SR 23", "Test n° 3 d'Henri d'Aramitz", "MJ : TEST SECRET n° 2", "MJ : TEST Henri FO SR 12"):
        assert words in shown, words
    d.close()


def test_action_records_keep_changes_and_replay_exactly(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    names = list(PLAYERS)
    for batch in range(3):
        lines = [f"TEST {names[i % 4]} Escrime AG SR {10 + i % 9}" for i in range(batch * 25, batch * 25 + 25)]
        d.mail(MJ_ADDRESS, "\n".join(lines), "MJ")
        d.tick()
    records = d.store.records("gant")
    actions = [r for r in records if r.kind == "action"]
    assert len(actions) == 75
    assert all(r.state_before is None for r in actions)
    whole = [r.seq for r in actions if r.state_after is not None]
    assert whole == [ACTION_CHECKPOINT]  # one checkpoint among 75; the others keep their change only
    assert state_after_json(records, records[-1].seq) == d.engine.game("gant").state
    assert d.engine.verify("gant") == []
    # a record altered by hand is caught by the replay
    d.store.db.execute("update records set events = ? where seq = ?", [json.dumps([]), actions[10].seq])
    assert any("other events" in p for p in d.engine.verify("gant"))
    assert MJ  # (the MJ's view is what turn show gives)
    d.close()
