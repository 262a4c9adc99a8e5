"""Bounces: which of our mails could not be delivered, to whom, and why.

A delivery status notification (RFC 3464: ``multipart/report; report-type=delivery-status``, as Gmail,
Microsoft Exchange and Postfix send them) names each recipient with an action and a status, and
usually returns the headers of the mail that failed, our Message-ID among them.  A non-standard
report (a plain-text « Non remis » from a French provider) is read for addresses and the usual
phrases.  `read_bounce` says what it found; the engine matches it to the outbox.  No database here.
"""

from __future__ import annotations

import email
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import Message
from email.policy import compat32
from typing import Any, Protocol

OUR_MESSAGE_ID = re.compile(rb"<pbem\.[0-9a-f]{32}@[A-Za-z0-9.-]+>")
"""The Message-IDs pbem gives its mails (`pbem.outbox.message_id`), wherever they appear in a bounce."""
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
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
    try:
        message = email.message_from_bytes(raw[:MAX_SCAN * 5], policy=compat32)
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
        for value in message.get_all("X-Failed-Recipients") or []:
            recipients += [a.lower() for a in _ADDRESS.findall(str(value))]
    if not recipients:  # no machine-readable report: the addresses the text names
        recipients = [a.lower() for a in _ADDRESS.findall(text)]
    recipients = [r for r in dict.fromkeys(recipients) if r not in own and not _is_daemon(r)]
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
    for part in message.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        payload = part.get_payload()
        blocks: list[str] = []
        if isinstance(payload, list):  # the stdlib reads each field group as a little message
            blocks = [str(block) for block in payload]
        elif isinstance(payload, str):
            blocks = re.split(r"\r?\n\r?\n", payload)
        for block in blocks:
            fields = _fields(block)
            if "final-recipient" in fields or "original-recipient" in fields or "action" in fields:
                groups.append(fields)
    return groups


def _fields(block: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    name = ""
    for line in block.splitlines():
        if line[:1] in (" ", "\t") and name:
            fields[name] += " " + line.strip()
        elif ":" in line:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            fields.setdefault(name, value.strip())
    return fields


def _human_text(message: Message) -> str:
    """The readable part of a bounce (the notification, not the returned mail), as text."""
    for part in message.walk():
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
        text = data[:MAX_SCAN].decode(part.get_content_charset() or "utf-8", "replace")
        if part.get_content_subtype() == "html":
            text = re.sub(r"<[^>]+>", " ", text)
        return text
    return ""


class SentMail(Protocol):
    """What matching needs of the outbox (`pbem.store.Store` provides it)."""

    def outbox_row(self, item_id: str) -> dict[str, Any] | None: ...

    def last_sent_to(self, rcpt: str, kinds: Sequence[str]) -> dict[str, Any] | None: ...


BOUNCING_KINDS = ("private", "ack", "reminder", "notice", "digest", "public", "stranger")


def match(bounce: Bounce, sent: SentMail) -> list[dict[str, Any]]:
    """The outbox rows a bounce is about: the mails whose Message-ID it returns, else the last mail sent
    to each recipient it names (a report that returns no headers)."""
    rows = [row for mid in bounce.message_ids if (row := sent.outbox_row(mid)) is not None]
    if not rows:
        rows = [row for rcpt in bounce.recipients if (row := sent.last_sent_to(rcpt, BOUNCING_KINDS)) is not None]
    return list({row["id"]: row for row in rows}.values())
