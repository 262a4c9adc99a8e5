"""The durable outbox: compose a mail once, queue it with a stable Message-ID, send it until it goes.

A mail is built completely (headers, Date, body) when it is queued, and its bytes
are stored; sending only ever transmits those bytes, so a retry after a crash
sends the same content.  The Message-ID is derived from what the mail is for
(game, record, kind, recipient), so composing the same mail twice after a crash
queues it once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, formataddr

from pbem.clock import iso
from pbem.faults import crashpoint
from pbem.mail.transport import PermanentFailure, TemporaryFailure, Transport
from pbem.store import Store

KINDS = ("ack", "private", "public", "digest", "reminder", "notice")


@dataclass(frozen=True)
class Letter:
    """One mail to queue: who, what, and why (``key`` makes its Message-ID stable)."""

    key: str
    game: str
    turn: int
    kind: str
    to: str
    subject: str
    body: str
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()
    record_seq: int | None = None


def message_id(game: str, key: str, to: str, domain: str) -> str:
    digest = hashlib.sha256(f"{game}\0{key}\0{to}".encode()).hexdigest()[:32]
    return f"<pbem.{digest}@{domain}>"


def _clean_header(value: str) -> str:
    return " ".join(value.replace("\r", " ").replace("\n", " ").split())


def compose(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> tuple[str, bytes]:
    """The Message-ID and the bytes of a letter."""
    if letter.kind not in KINDS:
        raise ValueError(f"unknown mail kind {letter.kind!r}")
    domain = sender.rsplit("@", 1)[-1]
    mid = message_id(letter.game, letter.key, letter.to, domain)
    msg = EmailMessage(policy=SMTP)
    msg["From"] = formataddr((_clean_header(sender_name), sender))
    msg["To"] = letter.to
    msg["Subject"] = _clean_header(letter.subject)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = mid
    if letter.in_reply_to:
        msg["In-Reply-To"] = letter.in_reply_to
        msg["References"] = " ".join([*letter.references, letter.in_reply_to][-10:])
    msg["Auto-Submitted"] = "auto-replied" if letter.kind == "ack" else "auto-generated"
    msg["X-PBEM-Game"] = letter.game
    msg["X-PBEM-Turn"] = str(letter.turn)
    msg["X-PBEM-Kind"] = letter.kind
    msg.set_content(letter.body, charset="utf-8", cte="quoted-printable")
    return mid, msg.as_bytes()


def queue(store: Store, letters: Sequence[Letter], *, sender: str, sender_name: str, now: datetime) -> int:
    """Queue letters (inside the caller's transaction); already queued ones are kept as they are."""
    added = 0
    for letter in letters:
        mid, raw = compose(letter, sender=sender, sender_name=sender_name, now=now)
        added += store.enqueue({
            "id": mid, "game": letter.game, "turn": letter.turn, "kind": letter.kind, "rcpt": letter.to,
            "subject": _clean_header(letter.subject), "raw": raw, "status": "queued", "attempts": 0,
            "next_attempt_at": iso(now), "last_error": "", "created_at": iso(now), "sent_at": "",
            "record_seq": letter.record_seq,
        })
    return added


@dataclass(frozen=True)
class SendReport:
    sent: int
    retrying: int
    failed: int


def send_due(store: Store, transport: Transport, *, sender: str, now: datetime, max_attempts: int = 8,
             retry_base_seconds: int = 60) -> SendReport:
    """Send every queued mail that is due.  Temporary failures back off exponentially; permanent ones stop."""
    sent = retrying = failed = 0
    for item in store.due_outbox(iso(now)):
        raw = store.outbox_raw(item["id"])
        assert raw is not None
        try:
            transport.send(raw, sender, [item["rcpt"]])
        except PermanentFailure as e:
            store.update_outbox(item["id"], status="failed", attempts=item["attempts"] + 1, last_error=str(e)[:500])
            failed += 1
        except TemporaryFailure as e:
            attempts = item["attempts"] + 1
            if attempts >= max_attempts:
                store.update_outbox(item["id"], status="failed", attempts=attempts,
                                    last_error=f"gave up after {attempts} attempts: {e}"[:500])
                failed += 1
            else:
                delay = timedelta(seconds=retry_base_seconds * 2 ** (attempts - 1))
                store.update_outbox(item["id"], attempts=attempts, next_attempt_at=iso(now + delay),
                                    last_error=str(e)[:500])
                retrying += 1
        else:
            crashpoint("mid-send")
            store.update_outbox(item["id"], status="sent", attempts=item["attempts"] + 1, sent_at=iso(now))
            sent += 1
    return SendReport(sent, retrying, failed)


def retry(store: Store, item_ids: Sequence[str], now: datetime) -> int:
    """Put failed or waiting mails back in the queue, due now (`pbem outbox retry`)."""
    n = 0
    for item_id in item_ids:
        if store.outbox_raw(item_id) is not None:
            store.update_outbox(item_id, status="queued", next_attempt_at=iso(now))
            n += 1
    return n
