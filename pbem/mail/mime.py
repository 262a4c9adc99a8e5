"""A strict, fast reader for the common shapes of order mail; anything unusual is left to the standard library.

`email.message_from_bytes` costs about 0.15 ms a message here, half of it compiling a
regular expression for each new multipart boundary.  Order mail is nearly always one
text part, or a text/plain + text/html pair: `parse` reads those shapes with plain
byte searches and returns an object with the few `email.message.Message` methods
`pbem.mail.reading` uses, giving exactly what the standard parser (``policy=compat32``)
would give.  For anything it is not sure of (nested multiparts, forwarded messages,
lone CRs, malformed headers or boundaries, 8-bit part headers, RFC 2231 parameters,
base64 that needs repair...) it returns None, or raises `Unusual` while decoding, and
the caller uses the standard parser.  `tests/test_mime.py` checks both give the same
result on the mail corpus and on generated mail.
"""

from __future__ import annotations

import binascii
import quopri
import re
from collections.abc import Iterator
from email.message import Message
from itertools import pairwise

# one header field: a name, a colon, the blanks after it, the rest of the line and its continuation lines
# (a surrogate stands for 8-bit)
# (tried at line starts only, taking what it takes for good: a long line that is no field is read once, not
# again from each of its characters)
_FIELD = re.compile(r"^([\x21-\x39\x3b-\x7e]++):([ \t]*+)([^\n]*+\n(?:[ \t][^\n]*+\n)*+)", re.MULTILINE)
_BOUNDARY = re.compile(r';\s*boundary\s*=\s*(?:"([^"\\<>]*)"|([^";\\<>\s]+))\s*(?:;|$)', re.IGNORECASE)
_SIMPLE_TYPE = re.compile(r"\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:;|$)")
_PLAIN_ENCODINGS = frozenset({"", "7bit", "8bit", "binary"})
MAX_PARTS = 50
"""More parts than this: the standard parser (which `reading` also bounds) does the work."""


class Unusual(Exception):
    """Raised while decoding a part the fast reader cannot decode exactly like the standard library."""


class Part:
    """One MIME entity: its headers as `Message.raw_items` gives them, and its body or its sub-parts."""

    __slots__ = ("_headers", "_first", "_body", "_parts", "_ctype", "defects")

    def __init__(self, headers: list[tuple[str, str]], body: bytes, parts: list[Part] | None) -> None:
        self._headers = headers
        # lower-case name -> the first value, as `Message.get` finds it
        self._first: dict[str, str] = {}
        for key, value in headers:
            self._first.setdefault(key.lower(), value)
        self._body = body
        self._parts = parts
        self._ctype: str | None = None
        self.defects: list[object] = []

    def raw_items(self) -> Iterator[tuple[str, str]]:
        return iter(self._headers)

    def get(self, name: str, failobj: str | None = None) -> str | None:
        return self._first.get(name.lower(), failobj)

    def get_content_type(self) -> str:
        if self._ctype is None:
            value = self.get("content-type")
            ctype = value.partition(";")[0].strip().lower() if value is not None else "text/plain"
            self._ctype = ctype if ctype.count("/") == 1 else "text/plain"
        return self._ctype

    def get_content_maintype(self) -> str:
        return self.get_content_type().split("/")[0]

    def is_multipart(self) -> bool:
        return self._parts is not None

    def get_payload(self, decode: bool = False) -> list[Part] | bytes | None:
        if self._parts is not None:
            return None if decode else self._parts
        if not decode:
            raise Unusual("undecoded payload asked for")
        cte = str(self.get("content-transfer-encoding", "")).lower()
        if cte == "quoted-printable":
            return quopri.decodestring(self._body)
        if cte == "base64":
            data = b"".join(self._body.splitlines())
            if len(data) % 4:
                raise Unusual("base64 padding")
            try:
                return binascii.a2b_base64(data, strict_mode=True)
            except binascii.Error:
                raise Unusual("base64 that needs repair") from None
        if cte in ("x-uuencode", "uuencode", "uue", "x-uue"):
            raise Unusual("uuencode")
        return self._body


def parse(raw: bytes) -> Part | None:
    """The message read the way `email.message_from_bytes(raw, policy=compat32)` would, or None if unsure."""
    if raw.startswith(b"From ") or raw.count(b"\r") != raw.count(b"\r\n"):
        return None  # an mbox line, or lone CRs (line breaks to the standard parser)
    split = _headers(raw)
    if split is None:
        return None
    headers, body_at = split
    top = Part(headers, b"", None)
    if not _usable_headers(top, top_level=True):
        return None
    maintype = top.get_content_maintype()
    if maintype == "message":
        return None
    if maintype != "multipart":
        top._body = raw[body_at:]
        return top
    parts = _multipart(top, raw, body_at)
    if parts is None:
        return None
    top._parts = parts
    return top


def _headers(data: bytes) -> tuple[list[tuple[str, str]], int] | None:
    """Header fields up to the first empty line, and where the body starts; None if any line is odd."""
    if data.startswith((b"\n", b"\r\n")):
        return [], 1 if data[0] == 10 else 2
    end = data.find(b"\n\n")
    crlf_end = data.find(b"\n\r\n")
    if crlf_end >= 0 and (end < 0 or crlf_end < end):
        body_at, blank = crlf_end + 3, 2
    elif end >= 0:
        body_at, blank = end + 2, 1
    else:
        return None  # no blank line after the headers: rare, left to the standard parser
    block = data[:body_at].decode("ascii", "surrogateescape")
    fields = _FIELD.findall(block)
    # Fields found apart are all fields only if they are the whole block but its empty line: any line
    # that is neither a header nor a continuation is text no field takes (nor can the empty line be).
    # (One pass: checking the block against a whole-block pattern first read it twice.)
    if sum(len(name) + len(blanks) + len(value) for name, blanks, value in fields) + len(fields) != len(block) - blank:
        return None
    # as compat32's header_source_parse: leading blanks of the first line go, folding stays
    return [(name, value.rstrip("\r\n")) for name, _blanks, value in fields], body_at


def _usable_headers(part: Part, top_level: bool) -> bool:
    """The headers that steer parsing are plain ASCII in a form the fast reader reads like the standard one."""
    if not top_level and not all(value.isascii() for _name, value in part._headers):
        return False
    for key in ("content-type", "content-transfer-encoding", "content-disposition"):  # (only the first counts)
        value = part._first.get(key)
        if value is not None and not value.isascii():
            return False
    content_type = part._first.get("content-type")
    return content_type is None or _SIMPLE_TYPE.match(content_type) is not None


def _boundary(part: Part) -> str | None:
    """The boundary exactly as the standard library reads it (quotes, RFC 2231), via a one-header Message."""
    value = part.get("content-type")
    if value is None or "*" in value:
        return None
    match = _BOUNDARY.search(value) if value.lower().count("boundary") == 1 else None
    # read directly only the usual ``boundary="..."`` (its quotes the only ones) or ``boundary=token`` (no quotes
    # at all): a "boundary=" inside another parameter's quotes is no boundary
    if match is not None and value.count('"') == (2 if match.group(1) is not None else 0):
        boundary = (match.group(1) if match.group(1) is not None else match.group(2)).rstrip()
    else:
        probe = Message()
        probe["Content-Type"] = value
        boundary = probe.get_boundary()
    return boundary if boundary and boundary.isascii() else None


def _multipart(part: Part, data: bytes, body_at: int) -> list[Part] | None:
    """The sub-parts of a flat multipart, cut at its boundary lines as feedparser cuts them."""
    if part.get_content_type() == "multipart/digest":
        return None  # its parts default to message/rfc822
    if str(part.get("content-transfer-encoding", "8bit")).lower() not in ("7bit", "8bit", "binary"):
        return None
    boundary = _boundary(part)
    if boundary is None:
        return None
    separator = b"--" + boundary.encode("ascii")
    delimiters: list[tuple[int, int, bool]] = []  # (line start, line end, closing)
    pos = body_at
    while True:
        if pos == body_at and data.startswith(separator, pos):
            hit = pos
        else:
            # from the line break before ``pos``: the line starting there may be a delimiter itself
            found = data.find(b"\n" + separator, pos - 1 if pos > body_at else pos)
            if found < 0:
                return None  # no closing delimiter: a defect, left to the standard parser
            hit = found + 1
        nl = data.find(b"\n", hit)
        line_end = len(data) if nl < 0 else nl + 1
        rest = data[hit + len(separator):line_end].rstrip(b"\r\n")
        closing = rest.startswith(b"--")
        if closing:
            rest = rest[2:]
        pos = line_end if nl >= 0 else len(data)
        if rest.strip(b" \t"):
            if nl < 0:
                return None
            continue  # "--boundary" followed by more text is not a delimiter line
        if delimiters and delimiters[-1][1] == hit:
            return None  # two delimiter lines in a row: left to the standard parser
        delimiters.append((hit, line_end, closing))
        if closing:
            break
        if len(delimiters) > MAX_PARTS:
            return None
    if len(delimiters) < 2:
        return None
    parts: list[Part] = []
    for (_start, content_at, _closing), (next_start, _end, _c) in pairwise(delimiters):
        content = data[content_at:next_start]
        split = _headers(content)
        if split is None:
            return None
        headers, sub_body_at = split
        sub = Part(headers, b"", None)
        if not _usable_headers(sub, top_level=False) or sub.get_content_maintype() in ("multipart", "message"):
            return None
        body = content[sub_body_at:]
        # RFC 2046: the line break before a delimiter belongs to the delimiter
        if body.endswith(b"\r\n"):
            body = body[:-2]
        elif body.endswith(b"\n"):
            body = body[:-1]
        sub._body = body
        parts.append(sub)
    return parts
