"""A toy game driven by mail through the real engine, for the MJ's seat tests: feed mails, read what went out."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.engine import Engine
from pbem.engine.desk.readings import Intent, Thread, View
from pbem.games.pmb.ruleset import PmbRuleset
from pbem.store import Store

T0 = datetime(2025, 2, 1, 13, 0, tzinfo=UTC)  # Saturday 1 February 2025, 14 h in Paris
PLAYERS = {"Arya": "p0@pbem.test", "ser Schlingue": "p1@pbem.test", "Bran": "p2@pbem.test"}


class Table:
    """One toy game (simultaneous odd steps, sequential even ones) with three players and its MJ."""

    def __init__(self, tmp: Path, start: datetime = T0, top: dict[str, Any] | None = None, **game: Any):
        self.cfg = make_config(tmp, extra_game=game, top=top)
        self.store = Store(self.cfg.database)
        self.engine = Engine(self.cfg, self.store)
        self.now = start
        self.sent = 0
        self.seen: set[str] = set()
        self.engine.new_game("toy1", start, seed="ab" * 32)
        for name, address in PLAYERS.items():
            self.mail(address, f"INSCRIPTION {name}\nMOTDEPASSE secret-{len(name)}")
        self.engine.start_game("toy1", start)
        self.new()

    def mail(self, sender: str, text: str, subject: str = "[TOY] ordres", at: datetime | None = None,
             reply_to: str | None = None) -> str:
        """A mail processed as it would be by a tick (its answer queued); returns the verdict.  ``reply_to``: the
        Message-ID of one of our mails it answers (In-Reply-To and References)."""
        self.sent += 1
        when = at or self.now
        thread = {"In_Reply_To": reply_to, "References": reply_to} if reply_to else {}
        raw = make_mail(sender, text, subject=subject, message_id=f"<t{self.sent}@pbem.test>", **thread)
        key = f"k{self.sent}"
        self.store.store_raw([(key, raw)], when)
        return self.engine.process_message(key, raw, when)

    def mj(self, text: str, at: datetime | None = None) -> str:
        """The MJ writes: the answer he gets (its body)."""
        self.mail(MJ_ADDRESS, text, "[TOY] MJ", at)
        return self.last("ack", MJ_ADDRESS)

    def mj_reply(self, text: str, at: datetime | None = None) -> str:
        """The MJ answers our last answer to him (its Message-ID in In-Reply-To): the answer he gets to that."""
        self.mail(MJ_ADDRESS, text, "Re: [TOY] MJ", at, reply_to=self.last_id("ack", MJ_ADDRESS))
        return self.last("ack", MJ_ADDRESS)

    def mj_answer(self, text: str, reply_to: str, at: datetime | None = None) -> str:
        """The MJ answers one of our mails (``reply_to``, its Message-ID): the answer he gets to that."""
        self.mail(MJ_ADDRESS, text, "Re: [TOY] MJ", at, reply_to=reply_to)
        return self.last("ack", MJ_ADDRESS)

    def mj_confirmed(self, text: str, at: datetime | None = None) -> str:
        """The MJ writes a command that waits for his confirmation, then answers OUI with its code: his last answer."""
        asked = self.mj(text, at)
        code = re.search(r"Code : ([A-Z2-9]{3}-[A-Z2-9]{3})", asked)
        assert "À CONFIRMER" in asked, asked
        return self.mj_reply(f"OUI {code.group(1) if code else ''}", at)

    def last_id(self, kind: str, rcpt: str) -> str:
        found = outbox_messages(self.store, kind=kind, rcpt=rcpt)
        assert found, (kind, rcpt)
        return str(found[-1]["Message-ID"])

    def last(self, kind: str, rcpt: str) -> str:
        found = outbox_messages(self.store, kind=kind, rcpt=rcpt)
        assert found, (kind, rcpt)
        return plain(body(found[-1]))

    def new(self) -> list[tuple[str, str, str, str]]:
        """(to, kind, subject, body) of the mails queued since the last call."""
        out = []
        for item in self.store.outbox_items():
            if item.id in self.seen:
                continue
            self.seen.add(item.id)
            m = outbox_messages(self.store, id=item.id)[0]
            out.append((str(m["To"]), str(m["X-PBEM-Kind"]), plain(str(m["Subject"])), plain(body(m))))
        return out

    def due(self, at: datetime) -> list[str]:
        self.now = at
        return self.engine.due(at)

    def game(self) -> Any:
        return self.engine.game("toy1")

    def deadline(self) -> datetime:
        g = self.game()
        assert g.deadline
        return g.deadline.astimezone(UTC)

    def close(self) -> None:
        self.store.close()


def plain(text: str) -> str:
    """A text with its non-breaking spaces (French typography, checked in test_typography.py) as plain spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def to(mails: list[tuple[str, str, str, str]], address: str, kind: str | None = None) -> list[tuple[str, str]]:
    """(subject, body) of the mails to an address (of one kind)."""
    return [(s, b) for t, k, s, b in mails if t == address and (kind is None or k == kind)]


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def example_views(*, paused: bool = False, confirming: bool = False) -> list[View]:
    """The worlds of the guide's examples (1 February 2025; Arya, Bran and Isaac): tour 3 open, or tour 4 open with
    tour 3 held for approval (« Prolonge le tour 3 », « Approuve le tour 3 » come from different days)."""
    tz = ZoneInfo("Europe/Paris")
    thread = Thread("confirmation", pending=(Intent("REMOVE", {"player": "Bran", "when": "now"}),)) \
        if confirming else None
    return [View(datetime(2025, 2, 1, 14, 0, tzinfo=tz), tz, ("Arya", "Bran", "Isaac"), frozenset({"Arya"}),
                 deadline=datetime(2025, 2, 3, 21, 0, tzinfo=tz), step_hours=48, open_turn=turn, last_turn=turn - 1,
                 held=held, paused=paused, order_words={"guess": "GUESS", "escouade": "ESCOUADE", "passer": "PASSER"},
                 wish_words={w: k for w, k in PmbRuleset.wish_words.items() if k == "ESCOUADE"}, thread=thread) for turn, held in ((3, None), (4, 3))]
