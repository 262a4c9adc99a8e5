"""BBCode forum posts as safe HTML: everything escaped first, then only the tags pbem's templates write.

Escaping comes first, so a player's name can never become markup: what was text stays text.
Then the known tags are turned into HTML: ``[b] [i] [u] [s]``, ``[table] [tr] [td] [th]``,
``[quote]``, ``[center]``, ``[list] [*]``, and ``[url=http(s)://…]`` (a link is kept only with an
``http`` or ``https`` address; no image or script is ever fetched from elsewhere).  A player's
``[`` arrives here already neutralised by the forum renderer (a zero-width space after it).
"""

from __future__ import annotations

import html
import re

_SIMPLE = {"b": "strong", "i": "em", "u": "u", "s": "s", "quote": "blockquote", "center": "div class=\"center\""}
_TABLE = {"table": "table class=\"bb\"", "tr": "tr", "td": "td", "th": "th"}
_TAG = re.compile(r"\[(/?)(b|i|u|s|quote|center|table|tr|td|th|list)\]|\[\*\]")
_URL = re.compile(r"\[url=(https?://[^\]\s\"<>]+)\](.*?)\[/url\]|\[url\](https?://[^\[\s\"<>]+)\[/url\]", re.S)
_TABLE_BLOCK = re.compile(r"\[table\].*?\[/table\]", re.S)


def to_html(text: str) -> str:
    """A BBCode post as an HTML fragment (paragraph breaks kept; nothing unescaped but pbem's tags)."""
    escaped = html.escape(text, quote=True)
    # inside a table the line ends separate rows, not lines of text
    escaped = _TABLE_BLOCK.sub(lambda m: m.group(0).replace("\n", ""), escaped)
    escaped = _URL.sub(_link, escaped)
    out = _TAG.sub(_tag, escaped)
    paragraphs = [p.strip("\n") for p in re.split(r"\n{2,}", out.strip("\n"))]
    # a paragraph may hold a table or a quote: a <div>, not a <p>, can hold them
    return "\n".join(f'<div class="p">{p.replace(chr(10), "<br>" + chr(10))}</div>' for p in paragraphs if p)


def _tag(m: re.Match[str]) -> str:
    if m.group(0) == "[*]":
        return "<li>"
    close, name = m.group(1), m.group(2)
    if name == "list":
        return "</ul>" if close else "<ul>"
    element = _SIMPLE.get(name) or _TABLE[name]
    return f"</{element.split(' ')[0]}>" if close else f"<{element}>"


def _link(m: re.Match[str]) -> str:
    href = m.group(1) or m.group(3)
    label = m.group(2) if m.group(1) else m.group(3)
    return f'<a href="{href}" rel="nofollow noopener">{label}</a>'
