"""An HTML mail body -> its visible text, one line per block, in time proportional to its length.

The standard library's `html.parser` rescans an unclosed tag from each of its ``<`` until the
end of the data: an HTML-only mail of 100 KB of ``<a `` took 342 s to read.  This reader
tokenizes as browsers do (HTML5): a tag that is still open at the end of the text swallows the
rest, a comment runs to ``-->`` or to the end, ``<script>`` and ``<style>`` are raw text up to
their end tag; every character is looked at a bounded number of times.  What it keeps is what
`html.parser` kept on well-formed mail: block tags become line breaks; scripts, styles, quoted
replies (gmail_quote, blockquote…) and what follows Outlook's reply divider are dropped;
character references are decoded.  Knows nothing of games.
"""

from __future__ import annotations

import re
from html import unescape

from pbem.limits import MAX_HTML_CHARS

_NAME = r"[a-zA-Z][^\t\n\r\f />\x00]*"
# One token at a time, each alternative possessive: a failed start tag has looked at most at the rest once,
# and the alternative that follows it (a tag open to the end) then takes that rest.  A comment is ended by a
# search from where it starts (a pattern would look for « --> » again from each « <!-- » left open).
_TOKEN = re.compile(
    rf"""
      (?P<data>(?:[^<]++|<(?![a-zA-Z!?/]))++)
    | <(?P<start>{_NAME})(?P<attrs>(?:[^>=]|=\s*+(?:"[^"]*+"|'[^']*+')|=)*+)>
    | </(?P<end>{_NAME})[^>]*+>
    | (?P<comment><!--)
    | (?P<decl><[!?/][^>]*+>)
    | (?P<open><.*)
    """,
    re.VERBOSE | re.DOTALL,
)
_ATTR = re.compile(r"""([^\s/>=][^\s/>=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?""")
_RAW_TEXT = frozenset({"script", "style"})
_BEFORE_SLASH = frozenset(" \t\n\r\f\"'")
"""What may come before the ``/`` of a self-closing tag (``<br />``, ``<img src="x"/>``); after another
character the ``/`` ends a bare attribute value (``<a href=http://x/>``), as `html.parser` read it."""
_WHITE = re.compile(r"[ \t\r\n\f]+")

_BLOCK_TAGS = frozenset(
    "p div li ul ol tr table h1 h2 h3 h4 h5 h6 pre hr address section article header footer dd dt dl".split()
)
_SKIP_TAGS = frozenset({"script", "style", "head", "title", "blockquote", "template", "noscript"})
_SKIP_CLASSES = ("gmail_quote", "gmail_signature", "yahoo_quoted", "moz-signature")
_STOP_IDS = frozenset({"divrplyfwdmsg", "x_divrplyfwdmsg", "appendonsend", "x_appendonsend"})
_VOID_TAGS = frozenset("br hr img meta link input area base col embed source track wbr".split())


class _Text:
    """What the tokens say: block tags become line breaks; scripts, styles and quoted replies are dropped."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.skip_tag: str | None = None
        self.skip_depth = 0
        self.stopped = False
        self.pre = 0

    def _newline(self) -> None:
        if self.out and not self.out[-1].endswith("\n"):
            self.out.append("\n")

    def start(self, tag: str, attrs: str) -> None:
        if self.stopped:
            return
        if self.skip_tag is not None:
            if tag == self.skip_tag and tag not in _VOID_TAGS:
                self.skip_depth += 1
            return
        classes, ident = _class_and_id(attrs)
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

    def end(self, tag: str) -> None:
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

    def data(self, data: str) -> None:
        if self.stopped or self.skip_tag is not None:
            return
        data = unescape(data)
        if not self.pre:
            data = _WHITE.sub(" ", data)
            if self.out and self.out[-1].endswith("\n"):
                data = data.lstrip(" ")
        if data:
            self.out.append(data)


def _class_and_id(attrs: str) -> tuple[str, str]:
    """The ``class`` and ``id`` values of a start tag's attributes (lower-case, references decoded); the
    last given wins, as `html.parser` handed them over.  Only tags that name a class or an id are read."""
    lowered = attrs.lower()
    if "class" not in lowered and "id" not in lowered:
        return "", ""
    classes = ident = ""
    for match in _ATTR.finditer(attrs):
        name = match.group(1).lower()
        if name not in ("class", "id"):
            continue
        value = next((v for v in match.group(2, 3, 4) if v is not None), "")
        value = unescape(value).lower()
        if not value:
            continue
        if name == "class":
            classes = value
        else:
            ident = value
    return classes, ident


def html_to_text(html: str) -> str:
    """The visible text of an HTML mail body, one line per block; quoted replies (gmail_quote, blockquote) dropped.

    Reads at most `MAX_HTML_CHARS` characters.
    """
    html = html[:MAX_HTML_CHARS]
    text = _Text()
    lowered: str | None = None
    pos, end = 0, len(html)
    while pos < end:
        jump = end  # where to go on when a comment or a raw text ends the tokens read so far (else: the end)
        for token in _TOKEN.finditer(html, pos):
            kind = token.lastgroup
            if kind == "data":
                text.data(token.group(1))
            elif kind == "attrs":
                tag = token.group(2).lower()
                attrs = token.group(3)
                text.start(tag, attrs)
                if attrs.endswith("/") and (len(attrs) == 1 or attrs[-2] in _BEFORE_SLASH):  # <br/>: start and end
                    text.end(tag)
                elif tag in _RAW_TEXT:  # no tags inside: the text up to </script>, </style> (or the end)
                    lowered = html.lower() if lowered is None else lowered
                    close = lowered.find("</" + tag, token.end())
                    jump = end if close < 0 else close
                    break
            elif kind == "end":
                text.end(token.group(4).lower())
            elif kind == "comment":  # up to its -->, or to the end: a search from here on, never from behind
                close = html.find("-->", token.end())
                jump = end if close < 0 else close + 3
                break
            # declarations and a tag open to the end of the text show nothing
        pos = jump
    return "".join(text.out)
