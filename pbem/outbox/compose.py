"""A letter composed once into the bytes that will be sent, with a stable Message-ID, and queued.

A mail is built completely (headers, Date, body) when it is queued, and its bytes are stored;
sending only ever transmits those bytes (`pbem.outbox.sending`), so a retry after a crash sends
the same content.  The Message-ID is derived from what the mail is for (game, record, kind,
recipient), so composing the same mail twice after a crash queues it once.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import message_from_bytes
from email.header import Header
from email.headerregistry import Address
from email.message import EmailMessage, MIMEPart
from email.policy import SMTP, default
from email.utils import format_datetime, parseaddr
from functools import lru_cache
from typing import Any

from pbem.clock import iso
from pbem.memo import memo
from pbem.store import Store

log = logging.getLogger("pbem")

KINDS = ("ack", "private", "public", "digest", "reminder", "notice", "stranger")

_KIND_WORDS_FR = {"ack": "réponse", "private": "privé", "public": "forum", "digest": "synthèse", "reminder": "rappel",
                  "notice": "avis", "stranger": "inconnu"}


def said_kind(kind: str, lang: str) -> str:
    """A kind of mail as the MJ reads it (`pbem outbox list`, the demo's report): the code in English."""
    return kind if lang == "en" else _KIND_WORDS_FR.get(kind, kind)


_KIND_COUNTS_FR = {"ack": ("réponse", "réponses"), "private": ("courriel privé", "courriels privés"),
                   "public": ("compte rendu pour le forum", "comptes rendus pour le forum"),
                   "digest": ("synthèse du MJ", "synthèses du MJ"), "reminder": ("rappel", "rappels"),
                   "notice": ("avis", "avis"), "stranger": ("réponse à un inconnu", "réponses à des inconnus")}


def counted_kind(n: int, kind: str, lang: str) -> str:
    """« 80 courriels privés » (English: « 80 private », the code)."""
    if lang == "en" or kind not in _KIND_COUNTS_FR:
        return f"{n} {kind}"
    one, many = _KIND_COUNTS_FR[kind]
    return f"{n}\u00a0{one if n <= 1 else many}"


@dataclass(frozen=True)
class Attachment:
    """A file sent with a letter (the picture of a step's board with the forum post)."""

    filename: str
    content_type: str
    data: bytes


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
    attachments: tuple[Attachment, ...] = ()


def message_id(game: str, key: str, to: str, domain: str) -> str:
    digest = hashlib.sha256(f"{game}\0{key}\0{to}".encode()).hexdigest()[:32]
    return f"<pbem.{digest}@{domain}>"


_HEADER_SPACE = re.compile(r"[^\S\u00a0\u202f]+")
"""White space of any kind (line breaks included), but the non-breaking spaces French typography puts."""


def _clean_header(value: str) -> str:
    """One line, runs of white space as one space; non-breaking spaces kept (French subjects carry them:
    « rappel\u00a0: vos ordres »), as `str.split` would not."""
    return _HEADER_SPACE.sub(" ", value).strip()


def compose(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> tuple[str, bytes]:
    """The Message-ID and the bytes of a letter.

    The bytes are exactly what `email.message.EmailMessage` with `email.policy.SMTP` produces
    (`compose_slow`), built directly: header lines that need no encoding or unusual folding
    are written as they are, the others (non-ASCII subjects, odd addresses) are encoded and
    folded by the `email` package itself, one header at a time and cached.  A letter with
    attachments is a ``multipart/mixed`` mail (`compose_with_attachments`); one without stays the
    single text part it always was.
    """
    if letter.attachments:
        return compose_with_attachments(letter, sender=sender, sender_name=sender_name, now=now)
    if letter.kind not in KINDS:
        raise ValueError(f"unknown mail kind {letter.kind!r}")
    domain = sender.rsplit("@", 1)[-1]
    mid = message_id(letter.game, letter.key, letter.to, domain)
    headers = [_from_line(sender_name, sender), _to_line(letter.to),
               _subject_line(_clean_header(letter.subject)), _date_line(now, now.utcoffset()),
               _header_line("Message-ID", mid, msgid=True)]
    in_reply_to, references = thread_ids(letter)
    if in_reply_to:
        headers.append(_msgid_line("In-Reply-To", [in_reply_to]))
        headers.append(_msgid_line("References", references))
    headers.append(_trailer(letter.game, letter.turn, letter.kind))
    return mid, b"".join(headers) + b"\r\n" + _qp_body(letter.body)


def compose_slow(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> tuple[str, bytes]:
    """`compose` through `EmailMessage` (the reference the fast path must match byte for byte)."""
    mid, msg = _message(letter, sender=sender, sender_name=sender_name, now=now)
    return mid, msg.as_bytes(policy=_REFERENCE.clone(utf8=_utf8_address(letter.to)))


def compose_with_attachments(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> tuple[str, bytes]:
    """The text part as `compose_slow` writes it, then each attachment, in a ``multipart/mixed`` mail.

    The MIME boundary is derived from the Message-ID, not drawn at random, so composing the same
    letter again gives the same bytes (replays and re-sends stay byte-identical).
    """
    mid, msg = _message(letter, sender=sender, sender_name=sender_name, now=now)
    msg.make_mixed()
    for a in letter.attachments:
        maintype, _, subtype = a.content_type.partition("/")
        part = MIMEPart(policy=SMTP)  # a part, not a message: no MIME-Version of its own
        part.set_content(a.data, maintype=maintype, subtype=subtype, disposition="attachment", filename=a.filename)
        msg.attach(part)  # type: ignore[arg-type]  # typeshed wants a message; a part is what MIME means
    msg.set_boundary("pbem-" + hashlib.sha256(mid.encode()).hexdigest()[:40])
    return mid, msg.as_bytes(policy=_REFERENCE.clone(utf8=_utf8_address(letter.to)))


def _message(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> tuple[str, EmailMessage]:
    """The Message-ID and the `EmailMessage` of a letter's text (headers and body, no attachment)."""
    if letter.kind not in KINDS:
        raise ValueError(f"unknown mail kind {letter.kind!r}")
    domain = sender.rsplit("@", 1)[-1]
    mid = message_id(letter.game, letter.key, letter.to, domain)
    msg = EmailMessage(policy=_REFERENCE)
    msg["From"] = _sender(sender_name, sender)
    if not _utf8_address(letter.to) and _parses(letter.to):
        msg["To"] = letter.to
    else:  # written raw in UTF-8, as SMTPUTF8 carries it (an encoded word is no address)
        msg.set_raw("To", _clean_header(letter.to))
    subject = _clean_header(letter.subject)
    raw_subject = _subject_encoded(subject)
    if raw_subject is None:
        msg["Subject"] = subject
    else:  # the email package would lose a space between encoded words: our own encoding, as it is
        msg.set_raw("Subject", raw_subject)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = mid
    in_reply_to, references = thread_ids(letter)
    if in_reply_to:
        # message ids are folded between ids, never encoded (an encoded id threads nothing)
        msg.set_raw("In-Reply-To", in_reply_to)
        msg.set_raw("References", _fold_ids("References", references))
    msg["Auto-Submitted"] = "auto-replied" if letter.kind == "ack" else "auto-generated"
    msg["X-PBEM-Game"] = letter.game
    msg["X-PBEM-Turn"] = str(letter.turn)
    msg["X-PBEM-Kind"] = letter.kind
    msg.set_content(letter.body, charset="utf-8", cte="quoted-printable")
    return mid, msg


_REFERENCE = SMTP.clone(refold_source="none")
"""`email.policy.SMTP`, except that headers set raw (`set_raw`) are written as they are: already folded."""

_MSGID_OK = re.compile(r"<[!-;=?-~]+>\Z")  # printable ASCII without spaces and angle brackets inside


def thread_ids(letter: Letter) -> tuple[str | None, list[str]]:
    """The In-Reply-To id and the References ids (the last ten, the replied-to one last) a letter carries.

    Ids that no header can carry as they are (spaces, non-ASCII characters) are left out: an
    encoded id would thread nothing, and a mail without the header is still a good answer.
    """
    if not letter.in_reply_to:
        return None, []
    irt = letter.in_reply_to.strip()
    refs = [r for r in (x.strip() for x in letter.references) if _MSGID_OK.match(r) and r != irt]
    if not _MSGID_OK.match(irt):
        return None, []
    return irt, [*refs, irt][-10:]


def _fold_ids(name: str, ids: Sequence[str]) -> str:
    """Message ids joined by spaces, folded between ids at 78 characters (an id longer than that stays whole)."""
    lines: list[str] = []
    current = ""
    width = len(name) + 2
    for mid in ids:
        if current and width + 1 + len(mid) > _MAX_LINE:
            lines.append(current)
            current, width = mid, 1 + len(mid)
        elif current:
            current += " " + mid
            width += 1 + len(mid)
        else:
            current = mid
            width += len(mid)
    lines.append(current)
    return "\n ".join(lines)


def _msgid_line(name: str, ids: Sequence[str]) -> bytes:
    return f"{name}: {_fold_ids(name, ids)}".replace("\n", "\r\n").encode("ascii") + b"\r\n"


def _to_line(to: str) -> bytes:
    """The To line: ASCII addresses as `email.policy.SMTP` writes them, others raw in UTF-8 (for SMTPUTF8)."""
    if not _utf8_address(to):
        try:
            return _recurring_line("To", to, address=True)
        except Exception:  # an address the email package cannot parse: written as it is, the server judges it
            return f"To: {_clean_header(to)}\r\n".encode("ascii", "replace")
    return f"To: {_clean_header(to)}\r\n".encode()


def _parses(to: str) -> bool:
    try:
        EmailMessage(policy=SMTP)["To"] = to
    except Exception:
        return False
    return True


def _utf8_address(to: str) -> bool:
    """Is the address itself (not a display name) non-ASCII, so that only SMTPUTF8 can carry it?"""
    return not to.isascii() and not parseaddr(to)[1].isascii()


_MIME_TAIL = (b"Content-Type: text/plain; charset=\"utf-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n"
              b"MIME-Version: 1.0\r\n")
_MAX_LINE: int = SMTP.max_line_length or 78  # 78
# printable ASCII without "=?" (an encoded word would be decoded and re-encoded), single spaces, no edge spaces
_PLAIN = re.compile(r"[!-~]+(?: [!-~]+)*\Z")
_SIMPLE_ADDR = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                          r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\Z")
_SIMPLE_MSGID = re.compile(r"<[A-Za-z0-9._-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>\Z")
_DATE = re.compile(r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                   r"\d{4} \d\d:\d\d:\d\d [+-]\d{4}\Z")


def _header_line(name: str, value: str, *, address: bool = False, msgid: bool = False, date: bool = False) -> bytes:
    """``Name: value`` folded and terminated by CRLF, exactly as `email.policy.SMTP` writes it."""
    if "=?" not in value and _PLAIN.match(value):
        if address:
            ok = _SIMPLE_ADDR.match(value) is not None
        elif msgid:
            ok = _SIMPLE_MSGID.match(value) is not None
        elif date:
            ok = _DATE.match(value) is not None and value[-5:] != "-0000"
        else:
            ok = True
        if ok:
            line = f"{name}: {value}"
            if len(line) <= _MAX_LINE:
                return line.encode("ascii") + b"\r\n"
            if not (address or msgid or date):
                folded = _fold_words(line)
                if folded is not None:
                    return folded
    return _email_header_line(name, value)


def _fold_words(line: str) -> bytes | None:
    """Greedy folding at spaces, as the email package folds unstructured ASCII text (None: not that simple)."""
    name, value = line.split(": ", 1)
    if len(value) + 1 <= _MAX_LINE:  # the whole value fits on a line of its own: it goes there
        return f"{name}:\r\n {value}\r\n".encode("ascii")
    words = line.split(" ")
    if any(len(w) > _MAX_LINE - 2 for w in words):
        return None
    out: list[str] = []
    cur = words[0]
    for w in words[1:]:
        if len(cur) + 1 + len(w) <= _MAX_LINE:
            cur += " " + w
        else:
            out.append(cur)
            cur = " " + w
    out.append(cur)
    return ("\r\n".join(out) + "\r\n").encode("ascii")


_recurring_line = memo(maxsize=4096)(_header_line)
"""`_header_line` for values that recur from mail to mail (recipients, subjects)."""


@memo(maxsize=4096)
def _subject_encoded(subject: str) -> str | None:
    """The Subject value encoded whole (RFC 2047, folded) when the email package's own folding would change it.

    `email.policy.SMTP` folds a non-ASCII subject into encoded words and plain words; where two
    encoded words meet, the space between them is lost on decoding (« vos résultatstrès longs »).
    Such a subject is encoded whole by `email.header.Header`, which keeps every space inside the
    encoded words.  None: the email package's folding reads back exactly (the usual case).
    """
    if subject.isascii():
        return None
    line = _email_header_line("Subject", subject)
    if message_from_bytes(line + b"\r\n", policy=default)["Subject"] == subject:
        return None
    return Header(subject, "utf-8", header_name="Subject").encode(linesep="\r\n")


def _subject_line(subject: str) -> bytes:
    """The Subject header line as sent: the email package's folding, or the whole-encoded value."""
    raw = _subject_encoded(subject)
    return _recurring_line("Subject", subject) if raw is None else f"Subject: {raw}\r\n".encode("ascii")


@lru_cache(maxsize=64)
def _date_line(now: datetime, offset: timedelta | None) -> bytes:
    """The Date line (``offset`` is part of the cache key: equal instants in two zones are written apart)."""
    return _header_line("Date", format_datetime(now), date=True)


@lru_cache(maxsize=256)
def _trailer(game: str, turn: int, kind: str) -> bytes:
    """Auto-Submitted, the X-PBEM-* headers and the MIME headers: the same for every mail of a kind."""
    return b"".join([b"Auto-Submitted: auto-replied\r\n" if kind == "ack" else b"Auto-Submitted: auto-generated\r\n",
                     _header_line("X-PBEM-Game", game), _header_line("X-PBEM-Turn", str(turn)),
                     _header_line("X-PBEM-Kind", kind), _MIME_TAIL])


@memo(maxsize=4096)
def _email_header_line(name: str, value: str) -> bytes:
    """One header encoded (RFC 2047) and folded by the email package."""
    msg = EmailMessage(policy=SMTP)
    msg[name] = value
    return msg.as_bytes().split(b"\r\n\r\n", 1)[0] + b"\r\n"


@lru_cache(maxsize=64)
def _from_line(sender_name: str, sender: str) -> bytes:
    """The From line; the display name goes through `Address` so commas and accents are quoted and encoded."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = _sender(sender_name, sender)
    return msg.as_bytes().split(b"\r\n\r\n", 1)[0] + b"\r\n"


def _sender(sender_name: str, sender: str) -> Address:
    local, _, domain = sender.rpartition("@")
    return Address(display_name=_clean_header(sender_name), username=local, domain=domain)


def _qp_body(body: str) -> bytes:
    """The quoted-printable UTF-8 body, CRLF line ends, as ``set_content(cte="quoted-printable")`` encodes it."""
    return b"".join([_qp_line(line) for line in body.encode("utf-8").splitlines()]) or b"\r\n"


_QP_QUOTE = re.compile(r"([^\t\n\r !-<>-~]+)")


@memo(maxsize=4096)
def _qp_escape(run: str) -> str:
    """``=XX`` escapes for a run of characters that need them (an accented letter is one run of two bytes)."""
    return "=" + run.encode("latin-1").hex("=").upper()


@memo(maxsize=8192)
def _qp_line(line: bytes) -> bytes:
    """One body line encoded as `email.quoprimime.body_encode` encodes it, with its CRLF.

    Lines are encoded independently there, so they can be cached: most lines of an answer
    ("Voici ce que j'ai compris...", the deadline, the help line) recur from mail to mail.
    Escapes are made run by run (an accented letter is one run), not byte by byte.
    """
    text = line.decode("latin-1")  # one character per byte
    pieces = _QP_QUOTE.split(text)
    if len(pieces) > 1:
        pieces[1::2] = [_qp_escape(run) for run in pieces[1::2]]
        text = "".join(pieces)
    if len(text) <= _MAX_LINE and text[-1:] not in (" ", "\t"):
        return text.encode("ascii") + b"\r\n"
    return "\r\n".join(_qp_break(text, _MAX_LINE)).encode("ascii") + b"\r\n"


def _qp_break(line: str, maxlinelen: int) -> list[str]:
    """One escaped line cut with soft line breaks exactly as `email.quoprimime.body_encode` cuts it."""
    soft_break = "=\r\n"
    maxlinelen1 = maxlinelen - 1
    out: list[str] = []
    start = 0
    laststart = len(line) - 1 - maxlinelen
    while start <= laststart:
        stop = start + maxlinelen1
        if line[stop - 2] == "=":  # never split an "=XX" escape
            out.append(line[start:stop - 1])
            start = stop - 2
        elif line[stop - 1] == "=":
            out.append(line[start:stop])
            start = stop - 1
        else:
            out.append(line[start:stop] + "=")
            start = stop
    if line and line[-1] in " \t":  # a blank at the end of a line is quoted (or protected by a soft break)
        room = start - laststart
        if room >= 3:
            q = _QP_ESCAPES[line[-1]]
        elif room == 2:
            q = line[-1] + soft_break
        else:
            q = soft_break + _QP_ESCAPES[line[-1]]
        out.append(line[start:-1] + q)
    else:
        out.append(line[start:])
    return out


_QP_ESCAPES = {" ": "=20", "\t": "=09"}


def queue(store: Store, letters: Sequence[Letter], *, sender: str, sender_name: str, now: datetime) -> int:
    """Queue letters (inside the caller's transaction); already queued ones are kept as they are."""
    return store.enqueue([outbox_item(letter, sender=sender, sender_name=sender_name, now=now) for letter in letters])


def outbox_item(letter: Letter, *, sender: str, sender_name: str, now: datetime) -> dict[str, Any]:
    """The outbox row of a letter: composed now, due now."""
    mid, raw = compose(letter, sender=sender, sender_name=sender_name, now=now)
    when = iso(now)
    return {"id": mid, "game": letter.game, "turn": letter.turn, "kind": letter.kind, "rcpt": letter.to,
            "subject": _clean_header(letter.subject), "raw": raw, "status": "queued", "attempts": 0,
            "next_attempt_at": when, "last_error": "", "created_at": when, "sent_at": "",
            "record_seq": letter.record_seq}
