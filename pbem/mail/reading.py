"""Raw message bytes -> `IncomingMail`: who wrote, about what, and the clean order text.

This module knows nothing of games: it decodes headers (RFC 2047), picks the text
body (text/plain first, else text/html turned into text), decodes it whatever the
declared charset says, and strips what is not the player's own writing (quoted
replies, reply headers of the usual French and English clients, signatures,
"Envoyé de mon iPhone").  `read_message` never raises: a message it cannot make
sense of comes back with an empty body and its ``problems`` listed.
"""

from __future__ import annotations

import binascii
import codecs
import email
import email.utils
import hashlib
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from email.message import Message
from email.policy import compat32
from functools import lru_cache
from html.parser import HTMLParser
from types import MappingProxyType

from pbem.mail import mime

Entity = Message | mime.Part
"""A MIME entity, read by the standard library or by the fast reader (`pbem.mail.mime`)."""

MAX_TEXT_CHARS = 1_000_000
"""A text body longer than this is truncated (orders are a few lines; this bounds the work)."""

MAX_PARTS = 500
"""At most this many MIME parts are looked at."""

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


_PREFIX = re.compile(r"^\s*(?:(?:re|tr|fwd?|aw|wg|réf|ref|rép|rep)\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
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


def plus_tag(address: str) -> str | None:
    """The sub-address of ``local+tag@domain`` (lower-cased), or None."""
    addr = normalise_address(address)
    local, at, _domain = addr.rpartition("@")
    if not at:
        return None
    _base, plus, tag = local.partition("+")
    return tag if plus and tag else None


# --- text normalisation and cleaning ---

_NEWLINES = re.compile(r"\r\n?|[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_SPACES = re.compile(r"[\u00a0\u2007\u202f\u2000-\u200a\u3000]")
_INVISIBLE = re.compile(r"[\u200b-\u200d\u2060\ufeff\u00ad]")
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1b\x1f\x7f]")


_ODD_CHARS = re.compile(
    r"[\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029\u00a0\u2007\u202f\u2000-\u200d\u3000\u2060\ufeff\u00ad]"
)


def normalise_text(text: str) -> str:
    """Unix newlines, NBSP and other spaces -> space, zero-width characters and stray controls removed."""
    if _ODD_CHARS.search(text) is None:
        return text
    text = _NEWLINES.sub("\n", text)
    text = _SPACES.sub(" ", text)
    text = _INVISIBLE.sub("", text)
    return _CONTROLS.sub("", text)


# A reply attribution, on one line or wrapped over two or three by the client ("Le ... <\naddr> a écrit :",
# "Le ... Alice Dupont\n<alice@example.org>\na écrit :").
_ATTRIBUTION_START = re.compile(r"^(?:le|on|am|el|il)\s", re.IGNORECASE)
_ATTRIBUTION_END = re.compile(
    r"(?:(?:^|\s)a\s+[ée]crit|(?:^|\s)wrote|(?:^|\s)schrieb|(?:^|\s)escribió|(?:^|\s)ha\s+scritto)\s*:$",
    re.IGNORECASE,
)
# Lines that start what is not the player's writing: everything from there on is dropped.
_CUT_LINE = re.compile(
    r"""^(?:
        -{2,}\s*(?:original\s+message|message\s+d[’']origine|forwarded\s+message|message\s+transf[ée]r[ée]
                 |mensaje\s+original|urspr[üu]ngliche\s+nachricht)\s*-{2,}
      | _{20,}
      | (?:d[ée]but\s+du\s+message\s+r[ée]exp[ée]di[ée]|begin\s+forwarded\s+message)\s*:
      | envoy[ée]\s+(?:de|depuis|à\s+partir\s+de|a\s+partir\s+de)\s
      | sent\s+(?:from|with)\s+(?:my|mail|outlook|yahoo|samsung|the)\b
      | get\s+outlook\s+for\b
      | t[ée]l[ée]chargez\s+outlook\b
      | obtenir\s+outlook\s+pour\b
      | provenance\s*:\s*courrier\s+pour\s+windows
    )""",
    re.IGNORECASE | re.VERBOSE,
)
# Outlook-style reply header block: "De : X" followed within a few lines by "Envoyé : ..." etc.
_HEADER_FROM = re.compile(r"^\*?(?:de|from|von)\s*:\*?\s*\S", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"^\*?(?:envoy[ée]|sent|date|gesendet|[àa]|to|objet|subject|cc|betreff|an)\s*:", re.IGNORECASE
)
_END_WORDS = frozenset({"fin", "end"})


def _is_end_line(stripped: str) -> bool:
    if len(stripped) > 12 or stripped[0] not in "fFeEéÉèÈêÊëË":
        return False
    word = unicodedata.normalize("NFKD", stripped.rstrip(" .!;:,")).casefold()
    word = "".join(c for c in word if not unicodedata.combining(c))
    return word in _END_WORDS


def _is_attribution(line: str, following: list[str]) -> bool:
    """Is ``line`` an attribution, alone or continued on the next one or two lines (``following``)?"""
    if line.endswith(":") and _ATTRIBUTION_END.search(line):
        return True
    if _ATTRIBUTION_START.match(line) is None:
        return False
    for end in following[:2]:
        end = end.strip()
        if not end:
            return False
        if end.endswith(":") and _ATTRIBUTION_END.search(end) is not None:
            return True
    return False


def _is_reply_header(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM.match(lines[index]):
        return False
    for line in lines[index + 1 : index + 4]:
        if _HEADER_NEXT.match(line.strip()):
            return True
    return False


def clean_order_text(text: str) -> str:
    """Only what the player wrote: one command per line.

    Drops quoted lines (``>``), cuts at the first reply attribution ("Le ... a écrit :",
    "On ... wrote:"), Outlook header block (De :/Envoyé :, From:/Sent:), "-----Original
    Message-----" or separator line, signature delimiter (``--``) and mobile signature
    ("Envoyé de mon iPhone").  A line ``FIN`` / ``END`` ends the orders: it is kept, the
    rest dropped.  Trailing spaces and surrounding blank lines are removed.  Idempotent.
    """
    lines = [line.rstrip() for line in normalise_text(text).split("\n") if not line.lstrip().startswith(">")]
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            kept.append("")
            continue
        if stripped == "--" or _CUT_LINE.match(stripped):
            break
        if _is_attribution(stripped, lines[index + 1 : index + 3]) or _is_reply_header(lines, index):
            break
        kept.append(line)
        if _is_end_line(stripped):
            break
    while kept and not kept[-1]:
        kept.pop()
    start = 0
    while start < len(kept) and not kept[start]:
        start += 1
    return "\n".join(kept[start:])


# --- header decoding ---

_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=")
_FOLDING = re.compile(r"\r?\n")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_FORMAT_CHARS = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad]")
_ANGLE_TOKEN = re.compile(r"<[^<>\s]+>")


def _bytes_to_str(data: bytes, charset: str | None, problems: list[str] | None = None) -> str:
    """Decode with the declared charset, else UTF-8, else cp1252 with replacement; never raises."""
    if charset:
        name = charset.strip().strip('"').split("*", 1)[0]
        try:
            info = codecs.lookup(name)
            if getattr(info, "_is_text_encoding", True):
                return data.decode(info.name)
        except (LookupError, UnicodeError, ValueError, TypeError):
            pass
        if problems is not None:
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
        pending = b""
        pending_charset: str | None = None
        position = 0
        for match in _ENCODED_WORD.finditer(value):
            between = value[position : match.start()]
            charset = match.group(1)
            if between and (pending_charset is None or between.strip()):
                if pending_charset is not None:
                    pieces.append(_bytes_to_str(pending, pending_charset))
                    pending, pending_charset = b"", None
                pieces.append(between)
            if pending_charset is not None and charset.lower() != pending_charset.lower():
                pieces.append(_bytes_to_str(pending, pending_charset))
                pending = b""
            pending += _decode_word(match.group(2), match.group(3))
            pending_charset = charset
            position = match.end()
        if pending_charset is not None:
            pieces.append(_bytes_to_str(pending, pending_charset))
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
    """(display name, normalised address) pairs; display names are RFC 2047-decoded after parsing."""
    result: list[tuple[str, str]] = []
    for raw in values:
        result.extend(_header_addresses(raw))
    return result


@lru_cache(maxsize=4096)
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


def _message_id(value: str, raw: bytes) -> str:
    match = _ANGLE_TOKEN.search(value)
    if match:
        return _UNSAFE.sub("", match.group(0))
    if value.strip():
        return "<" + _UNSAFE.sub("", value.strip().strip("<>"))[:250] + ">"
    return f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _first_token(value: str) -> str:
    match = _ANGLE_TOKEN.search(value)
    return match.group(0) if match else ""


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


def _part_text(part: Entity, problems: list[str]) -> str:
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
    if len(text) > MAX_TEXT_CHARS:
        problems.append("text truncated")
        text = text[:MAX_TEXT_CHARS]
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


_BLOCK_TAGS = frozenset(
    "p div li ul ol tr table h1 h2 h3 h4 h5 h6 pre hr address section article header footer dd dt dl".split()
)
_SKIP_TAGS = frozenset({"script", "style", "head", "title", "blockquote", "template", "noscript"})
_SKIP_CLASSES = ("gmail_quote", "gmail_signature", "yahoo_quoted", "moz-signature")
_STOP_IDS = frozenset({"divrplyfwdmsg", "x_divrplyfwdmsg", "appendonsend", "x_appendonsend"})
_VOID_TAGS = frozenset("br hr img meta link input area base col embed source track wbr".split())


class _HtmlText(HTMLParser):
    """HTML -> plain text: block tags become line breaks; scripts, styles and quoted replies are dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip_tag: str | None = None
        self.skip_depth = 0
        self.stopped = False
        self.pre = 0

    def _newline(self) -> None:
        if self.out and not self.out[-1].endswith("\n"):
            self.out.append("\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag and tag not in _VOID_TAGS:
                self.skip_depth += 1
            return
        classes = ""
        ident = ""
        for name, value in attrs:
            if name == "class" and value:
                classes = value.lower()
            elif name == "id" and value:
                ident = value.lower()
        if ident in _STOP_IDS:
            self.stopped = True
            return
        if tag in _SKIP_TAGS or (classes and any(c in classes for c in _SKIP_CLASSES)):
            if tag not in _VOID_TAGS:
                self.skip_tag, self.skip_depth = tag, 1
            return
        if tag == "br":
            self.out.append("\n")
        elif tag in _BLOCK_TAGS:
            self._newline()
            if tag == "pre":
                self.pre += 1

    def handle_endtag(self, tag: str) -> None:
        if self.stopped:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag:
                self.skip_depth -= 1
                if self.skip_depth <= 0:
                    self.skip_tag = None
            return
        if tag in _BLOCK_TAGS:
            self._newline()
            if tag == "pre" and self.pre:
                self.pre -= 1

    def handle_data(self, data: str) -> None:
        if self.stopped or self.skip_tag is not None:
            return
        if not self.pre:
            data = re.sub(r"[ \t\r\n\f]+", " ", data)
            if self.out and self.out[-1].endswith("\n"):
                data = data.lstrip(" ")
        if data:
            self.out.append(data)


def html_to_text(html: str) -> str:
    """The visible text of an HTML mail body, one line per block; quoted replies (gmail_quote, blockquote) dropped."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # html.parser is lenient, but never let a body stop the mail
        pass
    text = "".join(parser.out)
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
        return html_to_text(_part_text(html_part, problems))
    problems.append("no text part")
    return ""


# --- the message ---


def read_message(raw: bytes) -> IncomingMail:
    """Decode one raw message.  Never raises: whatever cannot be read is listed in ``problems``."""
    if not isinstance(raw, bytes):
        try:
            raw = bytes(raw)
        except Exception:
            raw = str(raw).encode("utf-8", "surrogateescape")
    problems: list[str] = []
    try:
        try:
            return _read(raw, problems, fast=True)
        except mime.Unusual:
            problems.clear()
            return _read(raw, problems, fast=False)
    except Exception as exc:  # last resort: the message is kept, unread
        problems.append(f"unreadable message: {type(exc).__name__}")
        return IncomingMail(message_id=_message_id("", raw), size=len(raw), problems=tuple(problems))


def _read(raw: bytes, problems: list[str], fast: bool) -> IncomingMail:
    """Read with the fast reader when ``fast`` and it is sure of the shape, else with the standard library."""
    if not raw or raw.isspace():
        problems.append("empty message")
        return IncomingMail(message_id=_message_id("", raw), size=len(raw), problems=tuple(problems))
    message: Entity | None = mime.parse(raw) if fast else None
    if message is None:
        message = email.message_from_bytes(raw, policy=compat32)
    found: dict[str, list[str]] = {}
    for name, value in message.raw_items():
        key = name.lower()
        if key in _WANTED:
            found.setdefault(key, []).append(value if isinstance(value, str) else str(value))

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
        message_id=_message_id(decode_header_text(first("message-id")), raw),
        from_addr=from_addr,
        from_name=from_name,
        reply_to=reply_to[0][1] if reply_to else "",
        to_addrs=tuple(dict.fromkeys(to_addrs)),
        delivered_to=tuple(dict.fromkeys(delivered)),
        subject=decode_header_text(first("subject")),
        date=decode_header_text(first("date")),
        in_reply_to=_first_token(first("in-reply-to")),
        references=tuple(_ANGLE_TOKEN.findall(_FOLDING.sub(" ", first("references")))),
        text=text,
        raw_text=raw_text,
        headers=MappingProxyType(headers),
        size=len(raw),
        problems=tuple(problems),
    )
