"""Reading a UID FETCH (BODY.PEEK[] INTERNALDATE) response as imaplib hands it over (no server needed)."""

from __future__ import annotations

from datetime import UTC, datetime

from pbem.mail.inbox import _fetch_bodies


class FakeImap:
    def __init__(self, data: list) -> None:
        self.data = data
        self.asked: tuple = ()

    def uid(self, command: str, *args: str) -> tuple[str, list]:
        self.asked = (command, *args)
        return "OK", self.data


class FakeClient:
    def __init__(self, data: list) -> None:
        self._imap = FakeImap(data)


def test_items_in_either_order_flag_lines_and_odd_dates():
    data = [
        (b'1 (UID 11 INTERNALDATE " 4-Dec-2026 21:00:00 +0100" BODY[] {5}', b"hello"),
        b")",
        b"2 (UID 12 FLAGS (\\Seen))",  # another client changed flags meanwhile: no body, ignored
        (b"3 (UID 13 BODY[] {3}", b"abc"),
        b' INTERNALDATE "31-dec-2026 23:30:00 -0330")',  # the date after the literal
        (b'4 (UID 14 INTERNALDATE "30-Feb-2026 10:00:00 +0000" BODY[] {2}', b"xy"),  # impossible date
        b")",
        (b'5 (UID 15 INTERNALDATE "01-Jan-2027 00:00:00 +0000" BODY[HEADER] {2}', b"hh"),  # not the message
        b")",
    ]
    client = FakeClient(data)
    got = _fetch_bodies(client, [11, 12, 13, 14, 15])  # type: ignore[arg-type]
    assert client._imap.asked == ("FETCH", "11,12,13,14,15", "(BODY.PEEK[] INTERNALDATE)")
    assert got == {
        11: (b"hello", datetime(2026, 12, 4, 20, 0, tzinfo=UTC)),
        13: (b"abc", datetime(2027, 1, 1, 3, 0, tzinfo=UTC)),
        14: (b"xy", None),
    }


def test_an_unpadded_day_is_read():
    data = [(b'1 (UID 21 INTERNALDATE "4-Dec-2026 21:00:00 +0100" BODY[] {2}', b"hi"), b")"]
    assert _fetch_bodies(FakeClient(data), [21]) == {21: (b"hi", datetime(2026, 12, 4, 20, 0, tzinfo=UTC))}  # type: ignore[arg-type]


def test_what_the_fast_reading_misses_is_fetched_again_through_imapclient():
    from pbem.mail.inbox import _fetch_bodies_slowly

    class SlowClient(FakeClient):
        def fetch(self, uids, items):
            assert items == ["BODY.PEEK[]", "INTERNALDATE"]
            return {31: {b"BODY[]": b"quoted body", b"INTERNALDATE": datetime(2026, 12, 4, 21, 0)},  # naive: local
                    32: {b"INTERNALDATE": datetime(2026, 12, 4, 20, 0, tzinfo=UTC)},  # no body this time
                    33: {b"BODY[]": None}}

    # 31 came as a quoted string (not a literal), 32's date came apart; 33 was expunged meanwhile
    data = [b'1 (UID 31 INTERNALDATE "04-Dec-2026 21:00:00 +0000" BODY[] "quoted body")',
            (b"2 (UID 32 BODY[] {4}", b"body"), b")"]
    client = SlowClient(data)
    fast = _fetch_bodies(client, [31, 32, 33])  # type: ignore[arg-type]
    assert fast == {32: (b"body", None)}
    slow = _fetch_bodies_slowly(client, [31, 32, 33], fast)  # type: ignore[arg-type]
    assert slow[31][0] == b"quoted body" and slow[31][1] is not None and slow[31][1].tzinfo is UTC
    assert slow[32] == (b"body", datetime(2026, 12, 4, 20, 0, tzinfo=UTC))
    assert 33 not in slow
