"""The same mail sent twice (a client that sends it again with a new Message-ID: same sender, subject and
text, minutes apart) makes one request, not two; its copy is answered that it was read once (#21)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from games.test_1626_by_mail import PLAYERS, _start
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.demo import MJ_ADDRESS as DEMO_MJ
from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran", "Cersei"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    yield e
    e.store.close()


def feed(e: Engine, key: str, text: str, mid: str, when: datetime, sender: str = "p0@pbem.test",
         **headers: str) -> str:
    raw = make_mail(sender, text, message_id=mid, **headers)
    e.store.store_raw([(key, raw)], when)
    return e.process_message(key, raw, when, when)


def test_a_mail_sent_again_minutes_later_is_read_once(eng):
    assert feed(eng, "k1", "GUESS 3\nROLL", "<a@x>", T0).startswith("ok")
    verdict = feed(eng, "k2", "GUESS 3\nROLL", "<b@x>", T0 + timedelta(minutes=3))
    assert verdict.startswith("duplicate: the same text as k1")
    assert len(eng.store.order_history("toy1", 1, "Arya")) == 1
    rolls = [r for r in eng.store.records("toy1", "action")]
    assert len(rolls) == 1  # the immediate order was carried out once
    acks = outbox_messages(eng.store, rcpt="p0@pbem.test", kind="ack")
    assert len(acks) == 2
    copy = body(acks[-1])
    assert "Ce message est arrivé deux fois, avec le même texte" in copy
    assert "Il n'a été lu qu'une fois" in copy


def test_two_copies_in_one_batch_make_one_request(eng):
    for key, mid in (("k1", "<a@x>"), ("k2", "<b@x>")):
        eng.store.store_raw([(key, make_mail("p0@pbem.test", "ROLL", message_id=mid))], T0)
    eng.process_pending(T0)
    assert len(eng.store.records("toy1", "action")) == 1
    verdicts = [m.verdict for m in eng.store.messages()]
    assert verdicts[0].startswith("ok") and verdicts[1].startswith("duplicate")


def test_what_is_not_the_same_request_is_read(eng):
    assert feed(eng, "k1", "GUESS 3", "<a@x>", T0).startswith("ok")
    # another text, another subject, an answer to another mail, another sender: each is a new request
    assert feed(eng, "k2", "GUESS 4", "<b@x>", T0 + timedelta(minutes=1)).startswith("ok")
    raw = make_mail("p0@pbem.test", "GUESS 4", subject="[TOY] mes ordres", message_id="<c@x>")
    eng.store.store_raw([("k3", raw)], T0)
    assert eng.process_message("k3", raw, T0 + timedelta(minutes=2), T0 + timedelta(minutes=2)).startswith("ok")
    assert feed(eng, "k4", "GUESS 4", "<d@x>", T0 + timedelta(minutes=2), In_Reply_To="<pbem.1@pbem.test>"
                ).startswith("ok")
    assert feed(eng, "k5", "GUESS 4", "<e@x>", T0 + timedelta(minutes=2), sender="p1@pbem.test").startswith("ok")
    # and the same text long after the first is a new request too
    assert feed(eng, "k6", "GUESS 3", "<f@x>", T0 + timedelta(minutes=6)).startswith("ok")
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)


def test_the_same_text_again_after_another_mail_is_meant(eng):
    """A client's copies come back to back; the same text sent again after another mail of the same sender is
    his choice (« GUESS 3 », « GUESS 4 », « GUESS 3 » again: he changed his mind twice)."""
    assert feed(eng, "k1", "GUESS 3", "<a@x>", T0).startswith("ok")
    assert feed(eng, "k2", "GUESS 4", "<b@x>", T0 + timedelta(minutes=1)).startswith("ok")
    assert feed(eng, "k3", "GUESS 3", "<c@x>", T0 + timedelta(minutes=2)).startswith("ok")
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)
    assert feed(eng, "k4", "GUESS 3", "<d@x>", T0 + timedelta(minutes=3)).startswith("duplicate: the same text as k3")


def test_in_one_batch_too_only_the_senders_last_mail_counts(eng):
    for key, mid, text in (("k1", "<a@x>", "GUESS 3"), ("k2", "<b@x>", "GUESS 4"), ("k3", "<c@x>", "GUESS 3"),
                           ("k4", "<d@x>", "GUESS 3")):
        eng.store.store_raw([(key, make_mail("p0@pbem.test", text, message_id=mid))], T0)
    eng.process_pending(T0)
    verdicts = [m.verdict for m in eng.store.messages()]
    assert [v.split(" ")[0] for v in verdicts] == ["ok", "ok", "ok", "duplicate:"], verdicts
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)


def test_spaces_and_a_line_break_more_are_the_same_text(eng):
    assert feed(eng, "k1", "GUESS 3\nROLL", "<a@x>", T0).startswith("ok")
    assert feed(eng, "k2", "GUESS  3\n\nROLL\n", "<b@x>", T0 + timedelta(minutes=1)).startswith("duplicate")


def test_the_same_line_once_the_game_moved_on_is_a_new_request(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    assert feed(e, "k1", "AIDE", "<a@x>", T0).startswith("ok")
    e.start_game("toy1", T0 + timedelta(minutes=1))
    assert feed(e, "k2", "AIDE", "<b@x>", T0 + timedelta(minutes=2)).startswith("ok")
    assert "Ordres possibles pour" in body(outbox_messages(e.store, kind="ack", rcpt="p0@pbem.test")[-1])
    e.store.close()


def test_the_mjs_command_sent_twice_is_carried_out_once(eng):
    first = T0 + timedelta(hours=1)
    assert feed(eng, "k1", "PROLONGE 24h", "<a@x>", first, sender=MJ_ADDRESS).startswith("ok")
    deadline = eng.game("toy1").deadline
    assert feed(eng, "k2", "PROLONGE 24h", "<b@x>", first + timedelta(minutes=2),
                sender=MJ_ADDRESS).startswith("duplicate")
    assert eng.game("toy1").deadline == deadline


def test_1626_a_test_sent_twice_reaches_the_mj_once(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(PLAYERS["Henri"], "TEST Théologie EDU", "un test")
    d.mail(PLAYERS["Henri"], "TEST Théologie EDU", "un test")  # the phone sent it twice
    d.tick(timedelta(minutes=1))
    d.now += timedelta(minutes=2)
    d.mail(PLAYERS["Henri"], "TEST Théologie EDU", "un test")  # and once more a few minutes later
    d.tick(timedelta(minutes=1))
    sent = mails.new()
    digests = [b for t, k, _s, b in sent if t == DEMO_MJ and k == "digest"]
    assert len(digests) == 1 and "Demande n° 1 : Henri d'Aramitz demande un test de Théologie/EDU." in digests[0]
    assert "Demande n° 2" not in digests[0]
    acks = [b for t, k, _s, b in sent if t == PLAYERS["Henri"] and k == "ack"]
    assert len(acks) == 3 and sum("est arrivé deux fois" in b for b in acks) == 2
    d.close()


def test_the_mjs_command_sent_again_with_his_password_is_read(tmp_path, monkeypatch):
    """A destructive command asked for confirmation, sent again at once with the MJ password: not a copy."""
    from mjseat_helpers import Table

    monkeypatch.setenv("TOY_MJ_PASSWORD", "sel-et-poivre")
    t = Table(tmp_path, mj_password_env="TOY_MJ_PASSWORD")
    t.new()
    assert "À CONFIRMER" in t.mj("Retire Bran")
    answer = t.mj("Retire Bran\nMOTDEPASSE sel-et-poivre")
    assert "Bran quitte la partie" in answer and t.store.player("toy1", "Bran").status != "active"
    t.close()
