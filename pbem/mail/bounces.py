"""Bounces: which of our mails could not be delivered, to whom, and why.

A delivery status notification (RFC 3464: ``multipart/report; report-type=delivery-status``, as Gmail,
Microsoft Exchange and Postfix send them) names each recipient with an action and a status, and
usually returns the headers of the mail that failed, our Message-ID among them.  A non-standard
report (a plain-text « Non remis » from a French provider) is read for addresses and the usual
phrases.  `read_bounce` says what it found; the engine matches it to the outbox.  No database here.
Like every reader of mail, it reads a bounded part of the mail (`MAX_SCAN`, `pbem.limits`) in time
proportional to it, and never raises.
"""

from __future__ import annotations

import email
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message
from email.policy import compat32
from typing import Protocol, TypeVar

from pbem import limits
from pbem.mail.reading import text_codec, too_complex, within_caps

OUR_MESSAGE_ID = re.compile(rb"<pbem\.[0-9a-f]{32}@[A-Za-z0-9.-]+>")
"""The Message-IDs pbem gives its mails (`pbem.outbox.message_id`), wherever they appear in a bounce."""
# an address starts where a run of its characters starts (else a long run with no @ is tried from each
# of its characters: the square of its length), and nothing is given back once taken
_LOCAL = r"A-Za-z0-9.!#$%&'*+/=?^_`{|}~-"
_ADDRESS = re.compile(rf"(?<![{_LOCAL}])[{_LOCAL}]++@[A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)+")
_TAG = re.compile(r"<[^<>]*+>")
_STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
_FULL = re.compile(r"mailbox (?:is )?full|over ?quota|quota exceeded|out of storage|insufficient storage|"
                   r"bo[iî]te (?:aux lettres |de r[ée]ception )?(?:est )?pleine|quota (?:est )?d[ée]pass[ée]",
                   re.IGNORECASE)
_UNKNOWN = re.compile(r"user unknown|does not exist|no such user|recipient not found|address rejected|"
                      r"unknown user|n'existe pas|inconnu|introuvable", re.IGNORECASE)
MAX_SCAN = 200_000
"""Bytes of a bounce read for Message-IDs and addresses (the returned mail may be large)."""


@dataclass(frozen=True)
class Bounce:
    """What a bounce reports: the recipients that failed, our Message-IDs it returns, and why."""

    recipients: tuple[str, ...]
    message_ids: tuple[str, ...]
    action: str  # failed | delayed
    status: str  # "5.2.2", or "" when the report gives none
    reason: str  # the diagnostic, in one line (truncated)
    kind: str  # mailbox-full | unknown-user | other

    @property
    def permanent(self) -> bool:
        return self.action == "failed"

    def summary(self) -> str:
        """One line for the outbox row and the MJ digest."""
        why = {"mailbox-full": "mailbox full", "unknown-user": "no such address"}.get(self.kind, "undeliverable")
        status = f"{self.status} " if self.status else ""
        return f"{status}{why}" + (f": {self.reason}" if self.reason else "")


def read_bounce(raw: bytes, own_addresses: tuple[str, ...] = ()) -> Bounce | None:
    """The failure a bounce reports, or None when it reports none (a delay notice is reported as delayed)."""
    head = within_caps(raw[:MAX_SCAN * 5], [])  # (headers of more than the cap: those only)
    message: Message | None = None
    if too_complex(head) is None:  # (else it is not parsed: its text is scanned below)
        try:
            message = email.message_from_bytes(head, policy=compat32)
        except Exception:  # a bounce that cannot be parsed still has its text scanned below
            message = None
    ids = tuple(dict.fromkeys(m.decode("ascii") for m in OUR_MESSAGE_ID.findall(raw[:MAX_SCAN * 5])))
    own = {a.lower() for a in own_addresses}
    fields = _delivery_status(message) if message is not None else []
    text = _human_text(message) if message is not None else raw[:MAX_SCAN].decode("utf-8", "replace")
    recipients: list[str] = []
    actions: list[str] = []
    status = ""
    reason = ""
    for f in fields:
        who = _address(f.get("final-recipient", "") or f.get("original-recipient", ""))
        if who:
            recipients.append(who)
        actions.append(f.get("action", "").strip().lower())
        status = status or _status(f.get("status", ""))
        reason = reason or " ".join(f.get("diagnostic-code", "").split(";", 1)[-1].split())
    if message is not None:
        for value in (message.get_all("X-Failed-Recipients") or [])[:limits.MAX_HEADER_VALUES]:
            recipients += [a.lower() for a in _ADDRESS.findall(str(value)[:limits.MAX_HEADER_CHARS])]
    if not recipients:  # no machine-readable report: the addresses the text names
        recipients = [a.lower() for a in _ADDRESS.findall(text)]
    recipients = [r for r in dict.fromkeys(recipients) if r not in own and not _is_daemon(r)][:limits.MAX_ADDRESSES]
    if not recipients and not ids:
        return None
    if actions and all(a == "delayed" for a in actions):
        action = "delayed"
    elif actions and not any(a == "failed" for a in actions) and any(a in ("delivered", "relayed", "expanded")
                                                                        for a in actions):
        return None  # a success notice
    else:
        action = "failed"
    status = status or _status(text)
    blob = f"{reason} {text}"
    kind = "mailbox-full" if _FULL.search(blob) or status.startswith(("5.2.2", "4.2.2")) else (
        "unknown-user" if _UNKNOWN.search(blob) or status.startswith(("5.1.1", "5.1.10")) else "other")
    if not reason:
        reason = next((line.strip() for line in text.splitlines() if _FULL.search(line) or _UNKNOWN.search(line)), "")
    return Bounce(tuple(recipients), ids, action, status, reason[:200], kind)


def _is_daemon(address: str) -> bool:
    local = address.partition("@")[0]
    return local in ("mailer-daemon", "postmaster", "mail-daemon", "mailerdaemon", "noreply", "no-reply")


def _address(value: str) -> str:
    """``rfc822; Bob@Example.org`` -> ``bob@example.org``."""
    found = _ADDRESS.search(value)
    return found.group(0).lower() if found else ""


def _status(text: str) -> str:
    found = _STATUS.search(text)
    return ".".join(found.groups()) if found else ""


def _delivery_status(message: Message) -> list[dict[str, str]]:
    """The per-recipient field groups of the message/delivery-status part (RFC 3464), lower-case names."""
    groups: list[dict[str, str]] = []
    for seen, part in enumerate(message.walk()):
        if seen >= limits.MAX_PARTS:
            break
        if part.get_content_type() != "message/delivery-status":
            continue
        payload = part.get_payload()
        blocks: list[str] = []
        if isinstance(payload, list):  # the stdlib reads each field group as a little message: its fields as
            # written (not `str(block)`, which folds them again, a long one at a cost of its square)
            blocks = ["\n".join(f"{name}: {str(value)[:limits.MAX_HEADER_CHARS]}" for name, value in block.raw_items())
                      for block in payload[:limits.MAX_PARTS] if isinstance(block, Message)]
        elif isinstance(payload, str):
            blocks = re.split(r"\r?\n\r?\n", payload)
        for block in blocks:
            fields = _fields(block)
            if "final-recipient" in fields or "original-recipient" in fields or "action" in fields:
                groups.append(fields)
    return groups


def _fields(block: str) -> dict[str, str]:
    """A field group's fields, continuation lines joined (each value cut at `limits.MAX_HEADER_CHARS`)."""
    pieces: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in block[:MAX_SCAN].splitlines():
        if line[:1] in (" ", "\t") and current is not None:
            current.append(line.strip())  # (in a list: adding to the text each time cost its square)
        elif ":" in line:
            name, _, value = line.partition(":")
            current = [value.strip()]
            pieces.setdefault(name.strip().lower(), current)  # a repeated field: the first one counts
    return {name: " ".join(value)[:limits.MAX_HEADER_CHARS] for name, value in pieces.items()}


def _human_text(message: Message) -> str:
    """The readable part of a bounce (the notification, not the returned mail), as text."""
    for seen, part in enumerate(message.walk()):
        if seen >= limits.MAX_PARTS:
            break
        if part.get_content_maintype() == "multipart":
            continue
        if part.get_content_type() in ("message/delivery-status", "message/rfc822", "text/rfc822-headers"):
            continue
        if part.get_content_maintype() != "text":
            continue
        try:
            data = part.get_payload(decode=True)
        except Exception:
            continue
        if not isinstance(data, bytes):
            continue
        text = _decode(data[:MAX_SCAN], part.get_content_charset())
        if part.get_content_subtype() == "html":
            text = _TAG.sub(" ", text)
        return text
    return ""


def _decode(data: bytes, charset: str | None) -> str:
    """A part's text in its declared charset if Python has it, else UTF-8 (never raises)."""
    codec = text_codec(charset) if charset else None
    try:
        return data.decode(codec or "utf-8", "replace")
    except (LookupError, ValueError, TypeError):  # (a codec that refuses "replace")
        return data.decode("utf-8", "replace")


class SentRow(Protocol):
    """What matching reads of an outgoing mail's row (`pbem.store.OutboxRow`)."""

    @property
    def id(self) -> str: ...


Row = TypeVar("Row", bound=SentRow)
Row_co = TypeVar("Row_co", bound=SentRow, covariant=True)


class SentMail(Protocol[Row_co]):
    """What matching needs of the outbox (`pbem.store.Store` provides it, with its `pbem.store.OutboxRow`)."""

    def outbox_row(self, item_id: str) -> Row_co | None: ...

    def last_sent_to(self, rcpt: str, kinds: Sequence[str]) -> Row_co | None: ...


BOUNCING_KINDS = ("private", "ack", "reminder", "notice", "digest", "public", "stranger")


def match(bounce: Bounce, sent: SentMail[Row]) -> list[Row]:
    """The outbox rows a bounce is about: the mails whose Message-ID it returns, else the last mail sent
    to each recipient it names (a report that returns no headers)."""
    rows = [row for mid in bounce.message_ids if (row := sent.outbox_row(mid)) is not None]
    if not rows:
        rows = [row for rcpt in bounce.recipients if (row := sent.last_sent_to(rcpt, BOUNCING_KINDS)) is not None]
    return list({row.id: row for row in rows}.values())
