"""HTML mail bodies to text in linear time (`pbem.mail.markup`), giving what `html.parser` gave on real mail.

The reader replaced `html.parser`, which rescanned an unclosed tag from each of its ``<`` (100 KB of
``<a `` took 342 s).  Its former use is kept here as the oracle: on the corpus's HTML parts and on
generated well-formed bodies, both give the same text; on a tag left open at the end of the text the
new reader drops the rest, as browsers do.
"""

from __future__ import annotations

import email
import re
from email.policy import compat32
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail import markup
from pbem.mail.reading import html_to_text, normalise_text

TESTS = Path(__file__).parent

_BLOCK = markup._BLOCK_TAGS
_SKIP = markup._SKIP_TAGS
_VOID = markup._VOID_TAGS


class _Oracle(HTMLParser):
    """The former reader: the standard library's parser and the same rules of what is shown."""

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
            if tag == self.skip_tag and tag not in _VOID:
                self.skip_depth += 1
            return
        classes = ident = ""
        for name, value in attrs:
            if name == "class" and value:
                classes = value.lower()
            elif name == "id" and value:
                ident = value.lower()
        if ident in markup._STOP_IDS:
            self.stopped = True
            return
        if tag in _SKIP or (classes and any(c in classes for c in markup._SKIP_CLASSES)):
            if tag not in _VOID:
                self.skip_tag, self.skip_depth = tag, 1
            return
        if tag == "br":
            self.out.append("\n")
        elif tag in _BLOCK:
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
        if tag in _BLOCK:
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


def oracle(html: str) -> str:
    parser = _Oracle()
    parser.feed(html)
    parser.close()
    return "\n".join(line.strip(" ") for line in normalise_text("".join(parser.out)).split("\n"))


def _corpus_html() -> list[str]:
    found = []
    for path in sorted(TESTS.rglob("*.eml")):  # (every mail of the tests: the corpus and the cases)
        message = email.message_from_bytes(path.read_bytes(), policy=compat32)
        for part in message.walk():
            if part.get_content_type() == "text/html":
                data = part.get_payload(decode=True)
                if isinstance(data, bytes):
                    found.append(data.decode(part.get_content_charset() or "utf-8", "replace"))
    return found


def test_the_corpus_reads_as_before() -> None:
    bodies = _corpus_html()
    assert len(bodies) >= 10
    for html in bodies:
        assert html_to_text(html) == oracle(html)


_TAGS = ["p", "div", "br", "b", "i", "blockquote", "pre", "span", "a", "table", "tr", "td", "li", "ul", "script",
         "style", "hr", "img", "head", "title", "DIV", "P", "Br"]
_ATTRS = ["", ' class="gmail_quote"', ' id="divRplyFwdMsg"', ' style="color: red"', " class=moz-signature",
          ' href="a>b"', " title='q'", ' dir="ltr"', ' class="x gmail_signature"', " data-x=1", ' alt="&lt;3"']
_TEXTS = ["Bonjour", "ESCOUADE &amp; Fitz", "a  b\n c", "&eacute;t&#233;", "  ", "l&#x27;autre", "<3 ok", "5 > 3",
          "VOTE\tPour X", "&nbsp;", "« ordres »"]


@st.composite
def _html(draw: st.DrawFn, depth: int = 0) -> str:
    out = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.integers(0, 3))
        if kind <= 1 or depth >= 4:
            out.append(draw(st.sampled_from(_TEXTS)))
        elif kind == 2:
            tag = draw(st.sampled_from(_TAGS))
            attrs = draw(st.sampled_from(_ATTRS))
            if tag.lower() in _VOID:
                out.append(f"<{tag}{attrs}>" if draw(st.booleans()) else f"<{tag}{attrs} />")
            elif tag.lower() in ("script", "style"):
                out.append(f"<{tag}{attrs}>if (a < b) {{ x = '<b>'; }}</{tag}>")
            else:
                out.append(f"<{tag}{attrs}>{draw(_html(depth + 1))}</{tag}>")
        else:
            out.append(draw(st.sampled_from(["<!-- c -->", "<!DOCTYPE html>", "<![CDATA[x]]>", "<?xml x?>"])))
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(_html())
def test_well_formed_bodies_read_as_before(html: str) -> None:
    assert html_to_text(html) == oracle(html)


def test_what_is_left_open_at_the_end_is_dropped_as_browsers_do() -> None:
    assert html_to_text("<p>ordres</p><a href=\"x") == "ordres\n"
    assert html_to_text("<p>ordres</p><!-- pas fini") == "ordres\n"
    assert html_to_text("<p>ordres</p><script>x = 1") == "ordres\n"
    assert html_to_text("<p>ordres</p>" + "<a " * 1000) == "ordres\n"
    assert html_to_text("a < b <<< c") == "a < b <<< c"


def test_a_body_is_read_up_to_its_cap() -> None:
    html = "<p>GUESS 3</p>" + "<p>" + "x" * (markup.MAX_HTML_CHARS + 10) + "</p><p>GUESS 4</p>"
    assert html_to_text(html).startswith("GUESS 3\n") and "GUESS 4" not in html_to_text(html)
