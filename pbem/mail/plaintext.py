"""The text of a mail made plain: one kind of newline and space, no invisible characters, and the order text cut
from what a mail client adds around it (quoted replies and their attribution, forwarded headers, signatures)."""

from __future__ import annotations

import re
import unicodedata

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
