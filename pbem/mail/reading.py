"""Raw message bytes -> `IncomingMail`: who wrote, about what, and the clean order text.

This module knows nothing of games: it decodes headers (RFC 2047), picks the text
body (text/plain first, else text/html turned into text), decodes it whatever the
declared charset says, and strips what is not the player's own writing (quoted
replies, reply headers of the usual French and English clients, signatures,
"Envoyé de mon iPhone").  `read_message` never raises: a message it cannot make
sense of comes back with an empty body and its ``problems`` listed.

Every part of it reads a bounded amount (`pbem.limits`) in time proportional to it: a mail too
big, headers too long or MIME too deeply nested are listed as problems starting with ``too``
(`COSTLY_PROBLEMS`), and what was beyond the cap is not read.
"""

from __future__ import annotations

import binascii
import codecs
import email
import email.utils
import encodings
import encodings.aliases
import hashlib
import pkgutil
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from email.message import Message
from email.policy import compat32
from types import MappingProxyType

from pbem import limits
from pbem.mail import markup, mime
from pbem.mail.plaintext import clean_order_text, normalise_text
from pbem.memo import memo

Entity = Message | mime.Part
"""A MIME entity, read by the standard library or by the fast reader (`pbem.mail.mime`)."""

MAX_TEXT_CHARS = limits.MAX_TEXT_CHARS
"""A text body longer than this is truncated (orders are a few lines; this bounds the work)."""

MAX_PARTS = limits.MAX_PARTS
"""At most this many MIME parts are looked at."""

COSTLY_PROBLEMS = ("too big", "too complex", "too costly")
"""How the problems of a mail that was not read whole because of a cap begin (`pbem.limits`)."""

LOOP_GUARD_HEADERS: tuple[str, ...] = (
    "auto-submitted",
    "precedence",
    "x-autoreply",
    "x-autorespond",
    "list-id",
    "list-unsubscribe",
    "return-path",
    "content-type",
    "x-failed-recipients",
    "authentication-results",
    "x-pbem-game",
    "x-pbem-kind",
    # what tells bulk mail from a person's (`pbem.mail.senders.is_bulk`)
    "feedback-id",
    "x-spam-flag",
    "x-spam-status",
    "x-mailer",
    "x-campaign",
    "x-mailjet-campaign",
)
"""The headers kept in `IncomingMail.headers` (lower-case names, top-level part only)."""

_NOT_DECODED = frozenset({"authentication-results"})
"""Kept as written, only unfolded: RFC 8601 has no encoded words, and decoding one the sender wrote
(in the envelope address the receiving server reflects) could make a ``;`` or a ``)`` of it."""
_ADDRESS_HEADERS = ("from", "reply-to", "to", "cc", "delivered-to", "x-original-to", "envelope-to")
_TEXT_HEADERS = ("subject", "message-id", "date", "in-reply-to", "references")
_WANTED = frozenset(LOOP_GUARD_HEADERS + _ADDRESS_HEADERS + _TEXT_HEADERS)


@dataclass(frozen=True)
class IncomingMail:
    """One received message, decoded.  Addresses are normalised (`normalise_address`)."""

    message_id: str
    from_addr: str = ""
    from_name: str = ""
    reply_to: str = ""
    to_addrs: tuple[str, ...] = ()
    """To and Cc addresses, in order, without duplicates."""
    delivered_to: tuple[str, ...] = ()
    """Delivered-To, X-Original-To and Envelope-To addresses (the envelope recipient, e.g. a Bcc)."""
    subject: str = ""
    date: str = ""
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    text: str = ""
    """The order text: the body with quotes, reply headers and signatures removed (`clean_order_text`)."""
    raw_text: str = ""
    """The whole decoded text body, newlines and spaces normalised, before cleaning."""
    headers: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """`LOOP_GUARD_HEADERS` present in the message: lower-case name -> every value, top first."""
    size: int = 0
    problems: tuple[str, ...] = ()
    """What went wrong while reading (undecodable charset, no text part, parse error...)."""

    def header(self, name: str) -> str:
        """The first value of a kept header, or ``""``."""
        values = self.headers.get(name.lower(), ())
        return values[0] if values else ""

    @property
    def recipients(self) -> tuple[str, ...]:
        """Every address the message was sent to: envelope first, then To/Cc."""
        return tuple(dict.fromkeys(self.delivered_to + self.to_addrs))


# --- public helpers ---


def normalise_address(addr: str) -> str:
    """Lower-case, without surrounding whitespace or angle brackets.  Dots are kept (no Gmail folding)."""
    return addr.strip().strip("<>").strip().lower()


# (no two \s* side by side: "re" and a million spaces would be tried every way of sharing them)
_PREFIX = re.compile(r"^\s*+(?:(?:re|tr|fwd?|aw|wg|réf|ref|rép|rep)\s*+(?:\[\d+\]\s*+)?:\s*+)+", re.IGNORECASE)
_TAG = re.compile(r"\[([^\[\]]{1,64})\]")


def subject_tags(subject: str) -> list[str]:
    """Bracketed tags of a subject, lower-cased, in order: ``"RE : [PMB1] ordres"`` -> ``["pmb1"]``."""
    rest = _PREFIX.sub("", subject)
    tags: list[str] = []
    for match in _TAG.finditer(rest):
        tag = " ".join(match.group(1).split()).lower()
        if tag and tag not in tags:
            tags.append(tag)
    return tags


def subject_words(subject: str) -> str:
    """A subject without its reply prefixes and tags: ``"RE : [PMB1] mes ordres"`` -> ``"mes ordres"``."""
    return " ".join(_TAG.sub(" ", _PREFIX.sub("", subject)).split())


def plus_tag(address: str) -> str | None:
    """The sub-address of ``local+tag@domain`` (lower-cased), or None."""
    addr = normalise_address(address)
    local, at, _domain = addr.rpartition("@")
    if not at:
        return None
    _base, plus, tag = local.partition("+")
    return tag if plus and tag else None


_MAX_DATE_CHARS = 200
"""A Date header longer than this is no date (RFC 5322 dates are about 31 characters)."""
NO_DATE = datetime.min.replace(tzinfo=UTC)
"""Where a mail without a readable Date header stands among mails that arrived at the same time: first."""


def written_at(mail: IncomingMail) -> datetime | None:
    """When the sender's client says the mail was written (its Date header), in UTC; None if absent or unreadable.

    A date without a zone (``-0000``) is read as UTC.
    """
    text = mail.date.strip()
    if not text or len(text) > _MAX_DATE_CHARS:
        return None
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)


def arrival_order(received: datetime, mail: IncomingMail) -> tuple[datetime, datetime, str]:
    """How mails are ordered: by arrival; two that arrived at the same time (within the second the store
    keeps) by their Date header, then by Message-ID, so that the one written last comes last.

    A mail without a readable Date comes before the dated ones of its second, and mails without one keep
    the mailbox's order among themselves (the key ties: sorts are stable).
    """
    written = written_at(mail)
    return received, written or NO_DATE, mail.message_id if written is not None else ""


# --- header decoding ---

_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=")
_FOLDING = re.compile(r"\r?\n")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_FORMAT_CHARS = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]")
_ANGLE_TOKEN = re.compile(r"<[^<>\s]+>")


def _known_codecs() -> frozenset[str]:
    """The names (`encodings.normalize_encoding`, lower case) of the text codecs Python ships, but the two
    whose decoder costs the square of the text (punycode, idna: no mail is written in them)."""
    names = {name for _finder, name, _pkg in pkgutil.iter_modules(encodings.__path__)}
    names |= set(encodings.aliases.aliases) | set(encodings.aliases.aliases.values())
    return frozenset(n.lower() for n in names) - {"punycode", "idna", "aliases"}


_KNOWN_CODECS = _known_codecs()
_CHARSET_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+-]*")


@memo(maxsize=256, max_key=limits.MAX_CHARSET_CHARS)
def text_codec(charset: str) -> str | None:
    """The Python codec a declared charset names, or None.  Only names Python knows are looked up, under
    their normal spelling: `codecs.lookup` remembers every name it is asked for, found or not, for ever."""
    name = charset.strip().strip('"').split("*", 1)[0]
    if len(name) > limits.MAX_CHARSET_CHARS or not _CHARSET_NAME.fullmatch(name):
        return None
    normal = encodings.normalize_encoding(name).lower()
    if normal not in _KNOWN_CODECS:
        return None
    try:
        info = codecs.lookup(normal)
    except LookupError:
        return None
    return info.name if getattr(info, "_is_text_encoding", True) else None


def _bytes_to_str(data: bytes, charset: str | None, problems: list[str] | None = None) -> str:
    """Decode with the declared charset, else UTF-8, else cp1252 with replacement; never raises."""
    if charset:
        codec = text_codec(charset) if len(charset) <= limits.MAX_CHARSET_CHARS + 2 else None  # (+ its quotes)
        if codec is not None:
            try:
                return data.decode(codec)
            except (UnicodeError, ValueError, TypeError, LookupError):
                pass
        if problems is not None:
            name = charset.strip().strip('"').split("*", 1)[0]
            problems.append(f"charset {name[:40]!r} unusable, decoded as UTF-8/cp1252")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _fix_8bit(value: str) -> str:
    """Header values parsed from bytes carry raw 8-bit bytes as surrogates: decode them as UTF-8/cp1252."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return _bytes_to_str(value.encode("utf-8", "surrogateescape"), None)


def _decode_word(encoding: str, payload: str) -> bytes:
    if encoding in "bB":
        payload = payload + "=" * (-len(payload) % 4)
        try:
            return binascii.a2b_base64(payload.encode("ascii", "replace"))
        except (binascii.Error, ValueError):
            return payload.encode("ascii", "replace")
    return binascii.a2b_qp(payload.encode("ascii", "replace"), header=True)


def decode_header_text(value: str | None) -> str:
    """RFC 2047 decoding, unfolded, with every control character (CR, LF, TAB...) turned into a space."""
    if not value:
        return ""
    if value.isascii() and value.isprintable() and "=?" not in value:  # the usual case: nothing to decode
        return " ".join(value.split())
    value = _FOLDING.sub("", _fix_8bit(value))
    if value.isascii() and "=?" not in value:  # a folded line (a long Authentication-Results)
        return " ".join((value if value.isprintable() else _UNSAFE.sub(" ", value)).split())
    if "=?" in value:
        pieces: list[str] = []
        pending: list[bytes] = []  # the bytes of adjacent words of one charset (a list: adding to bytes costs its square)
        pending_charset: str | None = None
        position = 0
        for match in _ENCODED_WORD.finditer(value):
            between = value[position : match.start()]
            charset = match.group(1)
            if between and (pending_charset is None or between.strip()):
                if pending_charset is not None:
                    pieces.append(_bytes_to_str(b"".join(pending), pending_charset))
                    pending, pending_charset = [], None
                pieces.append(between)
            if pending_charset is not None and charset.lower() != pending_charset.lower():
                pieces.append(_bytes_to_str(b"".join(pending), pending_charset))
                pending = []
            pending.append(_decode_word(match.group(2), match.group(3)))
            pending_charset = charset
            position = match.end()
        if pending_charset is not None:
            pieces.append(_bytes_to_str(b"".join(pending), pending_charset))
        pieces.append(value[position:])
        value = "".join(pieces)
    value = _FORMAT_CHARS.sub("", _UNSAFE.sub(" ", value))
    return " ".join(value.split())


def unfold_header_text(value: str | None) -> str:
    """A header value unfolded, every run of white space or control characters one space, nothing decoded."""
    if not value:
        return ""
    return " ".join(_UNSAFE.sub(" ", _FOLDING.sub("", _fix_8bit(value))).split())


_BARE_ADDRESS = re.compile(r"(?<![^\s<>\"'@,;:()\[\]])[^\s<>\"'@,;:()\[\]]++@[^\s<>\"'@,;:()\[\]]++")


def _simple_addresses(raw: str) -> list[tuple[str, str]] | None:
    """Fast path for the usual ``Name <a@b>, "Name" <c@d>, e@f`` lists; None when the full parser is needed."""
    if "(" in raw or ";" in raw or "\\" in raw:
        return None
    items = raw.split(",") if '"' not in raw else [raw]
    pairs: list[tuple[str, str]] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        name, lt, rest = item.partition("<")
        if lt:
            addr, gt, tail = rest.partition(">")
            name = name.strip()
            if not gt or tail.strip() or "<" in addr or ">" in name:
                return None
            if name.startswith('"'):
                if len(name) < 2 or not name.endswith('"') or '"' in name[1:-1]:
                    return None
                name = name[1:-1]
            elif '"' in name:
                return None
            pairs.append((name, addr.strip()))
        elif '"' in item or ">" in item or len(item.split()) != 1:
            return None
        else:
            pairs.append(("", item))
    return pairs


def _addresses(values: list[str]) -> list[tuple[str, str]]:
    """(display name, normalised address) pairs; display names are RFC 2047-decoded after parsing.
    At most `limits.MAX_ADDRESSES` of them."""
    result: list[tuple[str, str]] = []
    for raw in values:
        result.extend(_header_addresses(raw[:limits.MAX_HEADER_CHARS]))
        if len(result) >= limits.MAX_ADDRESSES:
            return result[:limits.MAX_ADDRESSES]
    return result


@memo(maxsize=4096)
def _header_addresses(raw: str) -> tuple[tuple[str, str], ...]:
    """The pairs of one address header's value (remembered: a game's mail comes from its players' few
    addresses, always to the same one)."""
    result: list[tuple[str, str]] = []
    raw = _FOLDING.sub("", _fix_8bit(raw))
    pairs = _simple_addresses(raw)
    if pairs is None:
        try:
            pairs = email.utils.getaddresses([raw])
        except Exception:  # the parser has raised on odd inputs in some Python versions
            pairs = []
    found = unusable = False
    for name, addr in pairs:
        if _has_space(addr.strip()):
            if "<" in raw:  # a space inside angle brackets: no address, and no guessing at a part of it
                unusable = True
                continue
            name, addr = _split_bare(name, addr)
        addr = normalise_address(_UNSAFE.sub("", addr))
        local, _at, domain = addr.rpartition("@")
        if local and domain and not _has_space(addr):
            result.append((decode_header_text(name) if name else "", addr))
            found = True
    if not found and not unusable:
        match = _BARE_ADDRESS.search(raw)
        if match:
            result.append(("", normalise_address(match.group(0))))
    return tuple(result)


def _has_space(text: str) -> bool:
    """Is there white space (as `str.isspace` counts it) in ``text``?  (`str.split` looks in C, not a
    character at a time in Python: an address is checked twice a header.)"""
    return bool(text) and text.split() != [text]


def _split_bare(name: str, addr: str) -> tuple[str, str]:
    """``Jean Dupont jean@example.org`` (no angle brackets) read as mail clients read it: the last word with
    an ``@`` is the address, the words before it the display name (RFC 2047 words decoded later)."""
    words = addr.split()
    at = [i for i, w in enumerate(words) if "@" in w]
    if not at:
        return name, addr
    i = at[-1]
    before = " ".join(words[:i]).strip().strip('"')
    return (name or before), words[i].strip("<>\"'()[],;")


_MAX_ID_CHARS = 250
"""A Message-ID longer than this is no Message-ID (RFC 5322 lines are 998 characters at most; real ids
are under a hundred): it is replaced by a digest of it, and not echoed in References."""


def _message_id(value: str, raw: bytes) -> str:
    match = _ANGLE_TOKEN.search(value)
    if match and len(match.group(0)) > _MAX_ID_CHARS:
        return f"<{hashlib.sha256(match.group(0).encode('utf-8', 'replace')).hexdigest()}@pbem.invalid>"
    if match:
        return _UNSAFE.sub("", match.group(0))
    if value.strip():
        return "<" + _UNSAFE.sub("", value.strip().strip("<>"))[:250] + ">"
    return f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _first_token(value: str) -> str:
    match = _ANGLE_TOKEN.search(value)
    return match.group(0) if match and len(match.group(0)) <= _MAX_ID_CHARS else ""


def _references(value: str) -> tuple[str, ...]:
    """The Message-IDs of References: the last `limits.MAX_REFERENCES`, none longer than a Message-ID can be."""
    ids = [t for t in _ANGLE_TOKEN.findall(_FOLDING.sub(" ", value)) if len(t) <= _MAX_ID_CHARS]
    return tuple(ids[-limits.MAX_REFERENCES:])


# --- body extraction ---


def _leaf_parts(message: Entity) -> Iterator[Entity]:
    """Non-multipart parts in document order; forwarded messages (message/*) are not entered."""
    stack: list[Entity] = [message]
    seen = 0
    while stack and seen < MAX_PARTS:
        part = stack.pop()
        seen += 1
        if part.is_multipart():
            if part is not message and part.get_content_maintype() == "message":
                continue
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend(item for item in reversed(payload) if isinstance(item, (Message, mime.Part)))
        else:
            yield part


def _is_attachment(part: Entity) -> bool:
    disposition = part.get("Content-Disposition")
    return disposition is not None and str(disposition).strip().lower().startswith("attachment")


_PARAM = re.compile(r';\s*([A-Za-z0-9_.*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))')


def _content_params(part: Entity) -> dict[str, str]:
    """Content-Type parameters: lower-case names, unquoted values (RFC 2231 ``name*=charset''value`` simplified)."""
    header = part.get("Content-Type")
    if header is None:
        return {}
    params: dict[str, str] = {}
    for name, quoted, bare in _PARAM.findall(str(header)):
        name = name.lower()
        value = quoted if quoted else bare
        if name.endswith("*"):
            name = name.rstrip("*")
            value = value.rpartition("'")[2] if value.count("'") >= 2 else value
        params.setdefault(name, value.strip())
    return params


def _part_text(part: Entity, problems: list[str], cap: int = MAX_TEXT_CHARS) -> str:
    try:
        data = part.get_payload(decode=True)
    except mime.Unusual:
        raise
    except Exception as exc:
        problems.append(f"undecodable part: {type(exc).__name__}")
        return ""
    if not isinstance(data, bytes):
        return ""
    params = _content_params(part)
    text = _bytes_to_str(data, params.get("charset") or None, problems)
    if len(text) > cap:
        problems.append("text truncated")
        text = text[:cap]
    flowed = params.get("format", "").lower() == "flowed"
    delsp = params.get("delsp", "").lower() == "yes"
    text = normalise_text(text)
    return _unflow(text, delsp) if flowed else text


def _unflow(text: str, delsp: bool) -> str:
    """RFC 3676 format=flowed: join soft-broken lines (ending with a space); quoted lines left alone."""
    out: list[str] = []
    paragraph: list[str] = []
    for line in text.split("\n"):
        if line.startswith(">") or line == "-- ":
            if paragraph:
                out.append("".join(paragraph))
                paragraph = []
            out.append(line)
            continue
        if line.startswith(" "):
            line = line[1:]
        if line.endswith(" ") and line.strip():
            paragraph.append(line[:-1] if delsp else line)
            continue
        paragraph.append(line)
        out.append("".join(paragraph))
        paragraph = []
    if paragraph:
        out.append("".join(paragraph))
    return "\n".join(out)


def html_to_text(html: str) -> str:
    """The visible text of an HTML mail body, one line per block; quoted replies (gmail_quote, blockquote) dropped
    (`pbem.mail.markup`, in linear time)."""
    text = markup.html_to_text(html)
    return "\n".join(line.strip(" ") for line in normalise_text(text).split("\n"))


def _body(message: Entity, problems: list[str]) -> str:
    html_part: Entity | None = None
    for part in _leaf_parts(message):
        if _is_attachment(part):
            continue
        content_type = part.get_content_type()
        if content_type == "text/plain":
            return _part_text(part, problems)
        if content_type == "text/html" and html_part is None:
            html_part = part
    if html_part is not None:
        return html_to_text(_part_text(html_part, problems, limits.MAX_HTML_CHARS))
    problems.append("no text part")
    return ""


# --- the message ---


def read_message(raw: bytes, read_bytes: int = limits.MAX_READ_BYTES) -> IncomingMail:
    """Decode one raw message, read up to ``read_bytes`` (`within_caps`; the config's ``max_message_bytes``).
    Never raises: whatever cannot be read is listed in ``problems``."""
    if not isinstance(raw, bytes):
        try:
            raw = bytes(raw)
        except Exception:
            raw = str(raw).encode("utf-8", "surrogateescape")
    capped: list[str] = []
    readable = within_caps(raw, capped, read_bytes)
    problems = list(capped)
    try:
        try:
            return _read(readable, problems, fast=True, whole=raw)
        except mime.Unusual:
            problems[:] = capped
            return _read(readable, problems, fast=False, whole=raw)
    except Exception as exc:  # last resort: the message is kept, unread
        problems.append(f"unreadable message: {type(exc).__name__}")
        return IncomingMail(message_id=_message_id("", raw), size=len(raw), problems=tuple(problems))


def within_caps(raw: bytes, problems: list[str], read_bytes: int = limits.MAX_READ_BYTES) -> bytes:
    """The part of a raw mail that is read: all of it, or what the caps of `pbem.limits` let through
    (each cap met is listed in ``problems``, starting with one of `COSTLY_PROBLEMS`).

    Headers longer than `limits.MAX_HEADER_BYTES` are read up to the cap, and the body not at all; a mail
    longer than ``read_bytes`` (the config's ``max_message_bytes``, never above `limits.MAX_READ_BYTES`) is read
    up to it (its text usually comes first).
    """
    read_bytes = max(1, min(read_bytes, limits.MAX_READ_BYTES))
    if len(raw) > limits.MAX_HEADER_BYTES and _header_end(raw) < 0:
        problems.append(f"too big: headers of more than {limits.MAX_HEADER_BYTES} bytes, the body not read")
        cut = raw.rfind(b"\n", 0, limits.MAX_HEADER_BYTES)
        return raw[:cut if cut > 0 else limits.MAX_HEADER_BYTES] + b"\n\n"
    if len(raw) > read_bytes:
        problems.append(f"too big: {len(raw)} bytes, the first {read_bytes} read")
        raw = raw[:read_bytes]
    return raw


def _header_end(raw: bytes) -> int:
    """Where the blank line after the headers begins (the line break that ends the last header, its CR
    aside), if within `limits.MAX_HEADER_BYTES`; else -1."""
    if raw.startswith((b"\n", b"\r\n")):
        return 0
    stop = limits.MAX_HEADER_BYTES + 4
    ends = [at for at in (raw.find(b"\n\n", 0, stop), raw.find(b"\n\r\n", 0, stop)) if at >= 0]
    return min(ends) if ends else -1


def _standard_parse(raw: bytes, problems: list[str]) -> Message:
    """The standard library's reading of a mail the fast reader is unsure of: whole, or its headers only
    when it is too complex for that parser (`too_complex`, listed in ``problems``)."""
    why = too_complex(raw)
    if why is not None:
        problems.append(why)
        end = _header_end(raw)
        raw = raw[:end].rstrip(b"\r") + b"\n\n" if end >= 0 else raw
    return email.message_from_bytes(raw, policy=compat32)


def too_complex(raw: bytes) -> str | None:
    """Why the standard library's parser must not be given this mail (``too complex: …``), or None: more
    multipart boundaries than `limits.MAX_BOUNDARIES` (it checks each line against each open one), or more
    delimiter-like lines than `limits.MAX_DELIMITER_LINES` (a Message object for each part)."""
    boundaries = raw.lower().count(b"boundary")
    if boundaries > limits.MAX_BOUNDARIES:
        return f"too complex: {boundaries} multipart boundaries (at most {limits.MAX_BOUNDARIES}), the body not read"
    delimiters = raw.count(b"\n--")
    if delimiters > limits.MAX_DELIMITER_LINES:
        return f"too complex: {delimiters} delimiter lines (at most {limits.MAX_DELIMITER_LINES}), the body not read"
    return None


def read_envelope(raw: bytes, problem: str) -> IncomingMail:
    """Who wrote a mail and about what, its body not read: for a mail set aside (``problem`` says why,
    starting with one of `COSTLY_PROBLEMS`).  Only the headers are read, up to `limits.MAX_HEADER_BYTES`."""
    end = _header_end(raw)
    if end >= 0:
        head = raw[:end].rstrip(b"\r")
    else:
        cut = raw.rfind(b"\n", 0, limits.MAX_HEADER_BYTES)
        head = raw[:cut] if cut > 0 else raw[:limits.MAX_HEADER_BYTES]
    mail = read_message(head + b"\n\n")
    message_id = mail.message_id if not mail.message_id.endswith("@pbem.invalid>") else _message_id("", raw)
    return replace(mail, message_id=message_id, text="", raw_text="", size=len(raw), problems=(problem,))


def costly(mail: IncomingMail) -> str | None:
    """Which cap kept a mail from being read whole, if one did: ``headers`` (too long), ``size`` (a mail
    too big), ``nesting`` (MIME too deeply nested) or ``attempts`` (passes stopped while reading it)."""
    for problem in mail.problems:
        if problem.startswith("too big: headers"):
            return "headers"
        if problem.startswith("too big"):
            return "size"
        if problem.startswith("too complex"):
            return "nesting"
        if problem.startswith("too costly"):
            return "attempts"
    return None


def _read(raw: bytes, problems: list[str], fast: bool, whole: bytes | None = None) -> IncomingMail:
    """Read with the fast reader when ``fast`` and it is sure of the shape, else with the standard library.
    ``raw`` is what the caps let through of the mail, ``whole`` the mail (its size, its fallback Message-ID)."""
    whole = raw if whole is None else whole
    if not raw or raw.isspace():
        problems.append("empty message")
        return IncomingMail(message_id=_message_id("", whole), size=len(whole), problems=tuple(problems))
    message: Entity | None = mime.parse(raw) if fast else None
    if message is None:
        message = _standard_parse(raw, problems)
    found: dict[str, list[str]] = {}
    for name, value in message.raw_items():
        key = name.lower()
        if key in _WANTED:
            whole_value = value if isinstance(value, str) else str(value)
            # A cut Authentication-Results could read as another verdict: let its reader see that it is too long.
            cap = limits.MAX_AUTH_RESULTS_CHARS + 1 if key in _NOT_DECODED else limits.MAX_HEADER_CHARS
            text = whole_value[:cap]
            values = found.get(key)
            if values is None:
                found[key] = [text]
            elif len(values) < limits.MAX_HEADER_VALUES:  # the topmost ones
                values.append(text)

    def first(key: str) -> str:
        values = found.get(key)
        return values[0] if values else ""

    senders = _addresses(found.get("from", [])[:1])
    from_name, from_addr = senders[0] if senders else ("", "")
    if not from_addr:
        problems.append("no From address")
    reply_to = _addresses(found.get("reply-to", [])[:1])
    to_addrs = [addr for _name, addr in _addresses(found.get("to", []) + found.get("cc", []))]
    delivered = [
        addr
        for _name, addr in _addresses(
            found.get("delivered-to", []) + found.get("x-original-to", []) + found.get("envelope-to", [])
        )
    ]
    headers = {
        key: tuple((unfold_header_text if key in _NOT_DECODED else decode_header_text)(value) for value in found[key])
        for key in LOOP_GUARD_HEADERS
        if key in found
    }
    raw_text = ""
    try:
        raw_text = _body(message, problems)
    except mime.Unusual:
        raise
    except Exception as exc:
        problems.append(f"unreadable body: {type(exc).__name__}")
    text = clean_order_text(raw_text)
    if message.defects:
        problems.append("defects: " + ", ".join(sorted({type(d).__name__ for d in message.defects})))
    return IncomingMail(
        message_id=_message_id(decode_header_text(first("message-id")), whole),
        from_addr=from_addr,
        from_name=from_name,
        reply_to=reply_to[0][1] if reply_to else "",
        to_addrs=tuple(dict.fromkeys(to_addrs)),
        delivered_to=tuple(dict.fromkeys(delivered)),
        subject=decode_header_text(first("subject"))[:limits.MAX_SUBJECT_CHARS],
        date=decode_header_text(first("date")),
        in_reply_to=_first_token(first("in-reply-to")),
        references=_references(first("references")),
        text=text,
        raw_text=raw_text,
        headers=MappingProxyType(headers),
        size=len(whole),
        problems=tuple(problems),
    )
