"""Two mails of a player that arrived at the same time (the same second, as the store keeps it): the one
written last wins, by its Date header, then by its Message-ID, whichever was read first (#21)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers import body, make_config, make_mail, outbox_messages

from pbem.engine import Engine
from pbem.mail.reading import IncomingMail, arrival_order, written_at
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
ARRIVED = datetime(2026, 12, 1, 20, 30, tzinfo=UTC)


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


def guess(e: Engine) -> tuple:
    return e.store.current_orders("toy1", 1)["Arya"].orders[0].args


def mail(text: str, mid: str, date: str | None) -> bytes:
    headers = {"Date": date} if date else {}
    return make_mail("p0@pbem.test", text, message_id=mid, **headers)


def test_the_date_header_orders_two_mails_of_the_same_second(eng):
    # stored (and so fetched) in the wrong order: the one written last came first
    eng.store.store_raw([("k1", mail("GUESS 7", "<b@x>", "Tue, 01 Dec 2026 21:29:50 +0100")),
                         ("k2", mail("GUESS 3", "<a@x>", "Tue, 01 Dec 2026 20:29:10 +0000"))], ARRIVED)
    eng.process_pending(T0.replace(minute=31))
    assert guess(eng) == (7,)


def test_the_message_id_orders_two_mails_of_the_same_date(eng):
    date = "Tue, 01 Dec 2026 21:29:50 +0100"
    eng.store.store_raw([("k1", mail("GUESS 7", "<msg-2@x>", date)),
                         ("k2", mail("GUESS 3", "<msg-1@x>", date))], ARRIVED)
    eng.process_pending(T0.replace(minute=31))
    assert guess(eng) == (7,)


def test_mails_without_a_date_keep_the_mailbox_order(eng):
    eng.store.store_raw([("k1", mail("GUESS 3", "<z@x>", None)), ("k2", mail("GUESS 7", "<a@x>", None))], ARRIVED)
    eng.process_pending(T0.replace(minute=31))
    assert guess(eng) == (7,)


def test_a_mail_written_earlier_read_in_a_later_pass_does_not_win(eng):
    later = T0.replace(minute=31)
    eng.store.store_raw([("k1", mail("GUESS 7", "<b@x>", "Tue, 01 Dec 2026 20:29:50 +0000"))], ARRIVED)
    eng.process_pending(later)
    # the next pass finds a mail that arrived in the same second but was written before it
    eng.store.store_raw([("k2", mail("GUESS 3", "<a@x>", "Tue, 01 Dec 2026 20:29:10 +0000"))], ARRIVED)
    eng.process_pending(later)
    assert guess(eng) == (7,)
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "Un message arrivé en même temps que celui-ci" in ack and "mais écrit après lui, a déjà été lu" in ack
    # and one written after it, in a later pass, still replaces it
    eng.store.store_raw([("k3", mail("GUESS 9", "<c@x>", "Tue, 01 Dec 2026 20:29:59 +0000"))], ARRIVED)
    eng.process_pending(later)
    assert guess(eng) == (9,)


def test_a_mail_that_arrived_later_wins_whatever_its_date_says(eng):
    eng.store.store_raw([("k1", mail("GUESS 7", "<b@x>", "Tue, 01 Dec 2026 23:00:00 +0000"))], ARRIVED)
    eng.store.store_raw([("k2", mail("GUESS 3", "<a@x>", "Tue, 01 Dec 2026 20:00:00 +0000"))],
                        ARRIVED.replace(second=1))
    eng.process_pending(T0.replace(minute=31))
    assert guess(eng) == (3,)  # the Date only breaks ties: a client's clock is not the mailbox's


@pytest.mark.parametrize(("date", "expected"), [
    ("Tue, 01 Dec 2026 21:29:50 +0100", datetime(2026, 12, 1, 20, 29, 50, tzinfo=UTC)),
    ("Tue, 01 Dec 2026 20:29:50 -0000", datetime(2026, 12, 1, 20, 29, 50, tzinfo=UTC)),
    ("", None), ("hier soir", None), ("Tue, 01 Dec 2026 25:61:99 +0100", None), ("1" * 5000, None),
])
def test_the_date_header_is_read_or_ignored(date, expected):
    assert written_at(IncomingMail("<m@x>", date=date)) == expected


def test_a_mail_without_a_date_comes_first_in_its_second():
    when = datetime(2026, 12, 1, 20, 30, tzinfo=UTC)
    dated = IncomingMail("<a@x>", date="Tue, 01 Dec 2026 20:00:00 +0000")
    assert arrival_order(when, IncomingMail("<z@x>")) < arrival_order(when, dated)
