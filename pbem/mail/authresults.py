"""Reading one Authentication-Results header (RFC 8601): the receiving server's word on SPF, DKIM and DMARC.

The header reflects what a sender chose (the envelope's local part, the HELO name, the DKIM
domain), so it is read as hostile text: at most `MAX_CHARS` characters, one pass with no
recursion (comments nest by a counter, runs of characters are taken by simple regular
expressions that cannot backtrack), and no RFC 2047 decoding: an encoded word is plain text
in this header, as RFC 8601 says.  Quoted strings and comments never end a result: only a
``;`` outside them does.  A header that does not follow the grammar is refused whole
(`AuthResError`), never read in part: a forger gains nothing from a header half understood.

Comments are read two ways.  In RFC 5322 a ``"`` inside a comment is a plain character; but
servers reflect the envelope address inside a comment (``(domain of "a)b"@x.org designates
…)``), where a quoted local part holding ``)`` would close the comment early and let what
follows read as a result.  So a header whose comments hold a ``"`` is also read with quoted
strings inside comments honoured, and refused unless both readings succeed and agree.

What no reader can catch: a server that writes what the sender chose with neither quotes nor
escapes (a HELO name holding ``) ; dkim=pass …`` copied raw into a comment).  The server's own
DMARC result, which refuses the mail when it fails (`pbem.mail.senders.auth_verdict`), is the
defence left there.

The usual header is read whole by a few regular expressions (`_fast`); any other, step by step
(`Reader`, which counts its steps).  Both read alike, which the tests check on random headers.

Leniencies, each seen in real headers, none of which can start a result: empty results
(``;;``, a trailing ``;``), a property without a ptype (``action=none``, ``x-bits=2048``),
and property values with ``/``, ``+`` or ``=`` (a DKIM ``header.b``).

Why not the ``authres`` package (1.2.0, which dkimpy's ARC code uses too): it copies the rest of
the header at every token (quadratic: 0.37 s for 37 KB here), nests comments by recursion (a
RecursionError past a thousand ``(``), and silently drops a property it cannot read.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pbem import limits

MAX_CHARS = limits.MAX_AUTH_RESULTS_CHARS
"""The longest header read: real ones hold a few hundred characters (several signatures, a few thousand)."""
MAX_ITEMS = 256
"""The most results and properties read in one header (real ones: a dozen or two)."""


class AuthResError(ValueError):
    """The header does not follow RFC 8601 (or is too long, or reads two ways): none of it is believed."""


# (named tuples, not dataclasses: a dozen are made for every mail read, at a tenth of the cost)


class Property(NamedTuple):
    """One ``ptype.name=value`` of a result (``header.d=example.org``); ptype ``""`` for a bare ``key=value``."""

    ptype: str
    name: str
    value: str
    """As written, quoted strings unquoted (a quoted local part keeps its quotes: ``"a;b"@x.org``)."""

    @property
    def key(self) -> str:
        return f"{self.ptype}.{self.name}" if self.ptype else self.name


class Result(NamedTuple):
    """One ``method=result`` of the header, with its reason and properties (method, result, keys lower-case)."""

    method: str
    result: str
    version: str = ""
    reason: str = ""
    properties: tuple[Property, ...] = ()

    def values(self, key: str) -> tuple[str, ...]:
        """Every value of a property (``header.d``, or ``x-bits`` for a bare one), in the order written."""
        ptype, _dot, name = key.rpartition(".")
        return tuple(p.value for p in self.properties if p.name == name and p.ptype == ptype)


class Header(NamedTuple):
    """A whole header: who wrote it (``authserv_id``, lower-case), its version, and its results (none: ``()``)."""

    authserv_id: str
    version: str = ""
    results: tuple[Result, ...] = ()


_SIMPLE_CFWS = re.compile(r"(?:[ \t\r\n]++|\([^()\\]*+\))++")  # white space and comments without nesting or escapes
_SIMPLE_CFWS_NO_QUOTE = re.compile(r'(?:[ \t\r\n]++|\([^()\\"]*+\))++')
_SEPARATORS = re.compile(r"(?:;[ \t\r\n]*+)++")
_OPEN = re.compile(r"\(+")
_CLOSE = re.compile(r"\)+")
_CTEXT = re.compile(r"[^()\\]+")
_CTEXT_NO_QUOTE = re.compile(r'[^()\\"]+')
_QUOTED = re.compile(r'"((?:[^"\\]++|\\.)*+)"', re.DOTALL)
_PAIR = re.compile(r"\\(.)", re.DOTALL)
_KEYWORD = re.compile(r"[A-Za-z0-9_-]+")
_DIGITS = re.compile(r"[0-9]+")
_TOKEN = re.compile(r'[^\x00-\x20\x7f()<>@,;:\\"/\[\]?=]+')  # RFC 2045's token (UTF-8 allowed, RFC 6532)
_PVALUE = re.compile(r'[^\x00-\x20\x7f()";\\]+')
# The usual header read whole by a few regular expressions (`_fast`): white space and comments with no
# nesting, quote or escape (which both readings read alike), a token for authserv-id, keywords and
# unquoted values.  Possessive throughout, so nothing backtracks; any other header is read step by step.
_C = r'(?:[ \t\r\n]++|\([^()\\"]*+\))*+'
_KW = r"[A-Za-z0-9_-]++"
_F_HEAD = rf'{_C}(?P<id>[^\x00-\x20\x7f()<>@,;:\\"/\[\]?=]++){_C}(?:(?P<version>[0-9]++){_C})?+'
_F_RESULT = rf"(?P<method>{_KW}){_C}(?:/{_C}(?P<mversion>[0-9]++){_C})?+={_C}(?P<result>{_KW}){_C}"
_F_PROPERTY = rf'(?P<key>{_KW}){_C}(?:\.{_C}(?P<name>{_KW}){_C})?+={_C}(?P<value>[^\x00-\x20\x7f()";\\]++)?+{_C}'
_F_PROPERTIES = "(?:" + re.sub(r"\?P<\w+>", "", _F_PROPERTY) + ")*+"
_FAST_HEAD = re.compile(_F_HEAD)
_FAST_SEGMENT = re.compile(rf"(?:;{_C})++(?:{_F_RESULT}(?P<properties>{_F_PROPERTIES}))?+")
_FAST_PROPERTY = re.compile(_F_PROPERTY)


def parse(value: str, max_chars: int = MAX_CHARS) -> Header:
    """The header's value (folded or not) read; raises `AuthResError` saying what is wrong."""
    if len(value) > max_chars:
        raise AuthResError(f"longer than {max_chars} characters")
    fast = _fast(value)
    header = fast if fast is not None else Reader(value, quotes_in_comments=False).header()
    if '"' in value and "(" in value:
        other = Reader(value, quotes_in_comments=True).header()
        if other != header:
            raise AuthResError("reads two ways (a quoted string inside a comment)")
    return header


def _fast(value: str) -> Header | None:
    """The usual header read whole by `_FAST_HEAD` and `_FAST_SEGMENT`, or None to read it step by step.

    The segments must follow each other to the end (nothing skipped).  Reads exactly as `Reader`
    would (the tests compare them), and leaves to it whatever it would refuse or read otherwise:
    no result, ``none``, a reason, too many items.
    """
    head = _FAST_HEAD.match(value)
    if head is None:
        return None
    version = head.group("version") or ""
    if version and version.lstrip("0") != "1":
        return None
    results: list[Result] = []
    items = 0
    end = head.end()
    for segment in _FAST_SEGMENT.finditer(value, end):
        if segment.start() != end:
            return None
        end = segment.end()
        method, method_version, result, written = segment.group("method", "mversion", "result", "properties")
        if method is None:
            continue
        properties = tuple(Property(key.lower(), name.lower(), pvalue) if name else Property("", key.lower(), pvalue)
                           for key, name, pvalue in _FAST_PROPERTY.findall(written))
        if properties and not properties[0].ptype and properties[0].name == "reason":
            return None
        items += 1 + len(properties)
        if items > MAX_ITEMS:
            return None
        results.append(Result(method.lower(), result.lower(), method_version or "", "", properties))
    if end != len(value) or not results:
        return None
    return Header(head.group("id").lower(), version, tuple(results))


class Reader:
    """One left-to-right reading of a header value (`parse` makes one or two).

    Every step consumes at least one character or raises; ``steps`` counts them (the tests
    check it stays under the length), and the regular expressions each step matches are
    anchored runs of character classes that never backtrack.
    """

    def __init__(self, text: str, *, quotes_in_comments: bool):
        self.text = text
        self.pos = 0
        self.quotes_in_comments = quotes_in_comments
        self.steps = 0
        self._items = 0

    # --- the grammar (RFC 8601 section 2.2) ---

    def header(self) -> Header:
        authserv_id, version = self._head()
        if version and version.lstrip("0") != "1":
            raise self._error(f"unknown version {version[:20]}")
        results: list[Result] = []
        none = False
        while self.pos < len(self.text):
            self.steps += 1
            if self._at(";"):
                self._match(_SEPARATORS)
                self._cfws()
                continue
            if none:
                raise self._error("a result after 'none'")
            method = self._keyword("a method").lower()
            self._cfws()
            if method == "none" and not results and not self._at("=") and not self._at("/"):
                none = True
                continue
            version_of_method, result = self._method_rest()
            self._count_item()
            results.append(self._properties(method, version_of_method, result))
        if not results and not none:
            raise self._error("no result, not even 'none'")
        return Header(authserv_id.lower(), version, tuple(results))

    def _head(self) -> tuple[str, str]:
        """The authserv-id and the version (``""`` if none), up to the first ``;``."""
        self._cfws()
        authserv_id = self._value()
        if not authserv_id:
            raise self._error("no authserv-id")
        self._cfws()
        if self._at("=") or self._at("."):
            raise self._error("no authserv-id (the header starts with a result)")
        version = self._match(_DIGITS)
        if version:
            self._cfws()
        if not self._at(";"):
            raise self._error("expected ';' after the authserv-id")
        return authserv_id, version

    def _method_rest(self) -> tuple[str, str]:
        """After the method: its version (``/1``) and ``=`` the result."""
        version = ""
        if self._at("/"):
            self.pos += 1
            self._cfws()
            version = self._match(_DIGITS)
            if not version:
                raise self._error("expected a method version after '/'")
            self._cfws()
        self._expect("=")
        self._cfws()
        result = self._keyword("a result").lower()
        self._cfws()
        return version, result

    def _properties(self, method: str, version: str, result: str) -> Result:
        """The reason and properties of a result, up to the next ``;`` or the end."""
        reason = ""
        properties: list[Property] = []
        while self.pos < len(self.text) and not self._at(";"):
            self.steps += 1
            self._count_item()
            key = self._keyword("a property").lower()
            self._cfws()
            if key == "reason" and not reason and not properties and self._at("="):
                self.pos += 1
                self._cfws()
                reason = self._value()
                self._cfws()
            elif self._at("."):
                self.pos += 1
                self._cfws()
                name = self._keyword("a property name").lower()
                self._cfws()
                self._expect("=")
                properties.append(Property(key, name, self._pvalue()))
            elif self._at("="):
                self.pos += 1
                properties.append(Property("", key, self._pvalue()))
            else:
                raise self._error(f"expected '.' or '=' after {key[:40]}")
        return Result(method, result, version, reason, tuple(properties))

    def _pvalue(self) -> str:
        """``[CFWS] ( value / [ [ local-part ] "@" ] domain-name ) [CFWS]``, leniently (see the module doc)."""
        self._cfws()
        if self._at('"'):
            local = self._quoted()
            if self._at("@"):
                self.pos += 1
                domain = self._match(_PVALUE)
                if not domain:
                    raise self._error("expected a domain after '@'")
                value = f'"{local}"@{domain}'
            else:
                value = local
        else:
            value = self._match(_PVALUE)
        self._cfws()
        return value

    def _value(self) -> str:
        """RFC 2045's ``value``: a token or a quoted string (unquoted)."""
        return self._quoted() if self._at('"') else self._match(_TOKEN)

    # --- lexical pieces ---

    def _cfws(self) -> None:
        """Skip white space and comments (nested, with quoted pairs), however long, in one pass."""
        simple = _SIMPLE_CFWS_NO_QUOTE if self.quotes_in_comments else _SIMPLE_CFWS
        while True:
            self.steps += 1
            self._match(simple)
            if not self._at("("):
                return
            self._comment()

    def _comment(self) -> None:
        text, pos, depth, steps = self.text, self.pos, 0, 0
        plain = _CTEXT_NO_QUOTE if self.quotes_in_comments else _CTEXT
        end = len(text)
        while pos < end:
            steps += 1
            char = text[pos]
            if char == "(":
                run = _OPEN.match(text, pos)
                assert run is not None
                depth += run.end() - pos
                pos = run.end()
            elif char == ")":
                run = _CLOSE.match(text, pos)
                assert run is not None
                if run.end() - pos >= depth:  # this run closes the comment
                    self.pos, self.steps = pos + depth, self.steps + steps
                    return
                depth -= run.end() - pos
                pos = run.end()
            elif char == "\\":
                if pos + 1 >= end:
                    raise self._error("a '\\' at the end of a comment", pos)
                pos += 2
            elif char == '"':  # only when quotes are honoured inside comments
                quoted = _QUOTED.match(text, pos)
                if quoted is None:
                    raise self._error("unclosed quoted string inside a comment", pos)
                pos = quoted.end()
            else:
                run = plain.match(text, pos)
                assert run is not None
                pos = run.end()
        raise self._error("unclosed comment", self.pos)

    def _quoted(self) -> str:
        found = _QUOTED.match(self.text, self.pos)
        if found is None:
            raise self._error("unclosed quoted string")
        self.pos = found.end()
        content = found.group(1)
        return _PAIR.sub(r"\1", content) if "\\" in content else content

    def _count_item(self) -> None:
        self._items += 1
        if self._items > MAX_ITEMS:
            raise self._error(f"more than {MAX_ITEMS} results and properties")

    def _keyword(self, what: str) -> str:
        word = self._match(_KEYWORD)
        if not word:
            raise self._error(f"expected {what}")
        return word

    def _match(self, pattern: re.Pattern[str]) -> str:
        found = pattern.match(self.text, self.pos)
        if found is None:
            return ""
        self.pos = found.end()
        return found.group()

    def _at(self, char: str) -> bool:
        return self.text.startswith(char, self.pos)

    def _expect(self, char: str) -> None:
        if not self._at(char):
            raise self._error(f"expected '{char}'")
        self.pos += 1

    def _error(self, what: str, pos: int | None = None) -> AuthResError:
        at = self.pos if pos is None else pos
        return AuthResError(f"{what} at character {at + 1}")
