"""The fast MIME reader (`pbem.mail.mime`) reads mail exactly as the standard library does, or declines."""

from __future__ import annotations

import base64
import email
import quopri
from email.policy import compat32
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import mime, reading

CORPUS = sorted((Path(__file__).parent / "fixtures" / "mail").glob("*.eml"))


def read_both(raw: bytes) -> tuple[reading.IncomingMail, reading.IncomingMail]:
    """`read_message` as used (fast reader first) and with the standard parser only."""
    slow_problems: list[str] = []
    try:
        slow = reading._read(raw, slow_problems, fast=False)
    except Exception as exc:  # mirror read_message's last resort
        slow_problems.append(f"unreadable message: {type(exc).__name__}")
        slow = reading.IncomingMail(message_id=reading._message_id("", raw), size=len(raw),
                                    problems=tuple(slow_problems))
    return reading.read_message(raw), slow


def leaves_std(raw: bytes) -> list[tuple[str, str | None, bytes | None]]:
    msg = email.message_from_bytes(raw, policy=compat32)
    return [(p.get_content_type(), p.get("content-disposition"), p.get_payload(decode=True))
            for p in reading._leaf_parts(msg)]


def leaves_fast(part: mime.Part) -> list[tuple[str, str | None, bytes | None]]:
    return [(p.get_content_type(), p.get("content-disposition"), p.get_payload(decode=True))
            for p in reading._leaf_parts(part)]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_reads_the_same_either_way(path: Path) -> None:
    fast, slow = read_both(path.read_bytes())
    assert fast == slow


def test_most_of_the_corpus_takes_the_fast_path() -> None:
    fast = [p.name for p in CORPUS if mime.parse(p.read_bytes()) is not None]
    # the usual client shapes are read fast; forwarded messages, garbage and mbox lines are not
    assert "01_gmail_reply_fr.eml" in fast and "08_multipart_alternative.eml" in fast
    assert "36_forwarded_rfc822.eml" not in fast
    assert len(fast) >= len(CORPUS) // 2, fast


def test_the_usual_multipart_alternative_is_read_fast_and_identically() -> None:
    raw = (b"From: Ana <ana@example.org>\r\nSubject: [PMB] ordres\r\nMIME-Version: 1.0\r\n"
           b'Content-Type: multipart/alternative; boundary="000000000000abcd"\r\n\r\n'
           b"--000000000000abcd\r\nContent-Type: text/plain; charset=\"UTF-8\"\r\n"
           b"Content-Transfer-Encoding: quoted-printable\r\n\r\nESCOUADE B=C3=A9atrice\r\n\r\n"
           b"--000000000000abcd\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div>ESCOUADE</div>\r\n"
           b"--000000000000abcd--\r\n")
    part = mime.parse(raw)
    assert part is not None and part.is_multipart()
    assert leaves_fast(part) == leaves_std(raw)
    fast, slow = read_both(raw)
    assert fast == slow and fast.text == "ESCOUADE Béatrice"


@pytest.mark.parametrize("raw", [
    # a line that starts like a delimiter, right before a real one (found by a review's fuzzer)
    b"From: a@b\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nhello\n--bX\n"
    b"--b\nContent-Type: text/html\n\n<p>x</p>\n--b--\n",
    b"From: a@b\nContent-Type: multipart/mixed; boundary=b\n\n--bX\n--b\n\nFIRST\n--b\n\nSECOND\n--b--\n",
    # "boundary=" inside another parameter's quotes is no boundary
    b'From: a@b\nContent-Type: multipart/mixed; x="a; boundary=b;"\n\n--b\n\nhi\n--b--\n',
])
def test_shapes_that_once_fooled_the_fast_reader(raw: bytes) -> None:
    fast, slow = read_both(raw)
    assert fast == slow


@pytest.mark.parametrize(("raw", "fields"), [
    (b"From: a@b\nSubject:  x\n\nhi\n", [("From", "a@b"), ("Subject", "x")]),
    (b"From: a@b\r\nSubject: x\r\n y\r\n\r\nhi\r\n", [("From", "a@b"), ("Subject", "x\r\n y")]),
    (b"From: a@b\r\nX-Empty:\r\n\nhi\n", [("From", "a@b"), ("X-Empty", "")]),  # CRLF fields, LF empty line
    (b"From: a@b\nX-Tab:\tv  \n\r\nhi\r\n", [("From", "a@b"), ("X-Tab", "v  ")]),
])
def test_header_fields_as_the_standard_library_reads_them(raw: bytes, fields: list[tuple[str, str]]) -> None:
    split = mime._headers(raw)
    assert split is not None and split[0] == fields
    assert split[0] == list(email.message_from_bytes(raw, policy=compat32).raw_items())


@pytest.mark.parametrize("raw", [
    b"From x@y Mon Jan  1 00:00:00 2026\nFrom: a@b\n\nhi\n",  # mbox line
    b"From: a@b\rSubject: x\r\rhi\r",  # lone CRs
    b"From: a@b\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\n\nhi\n",  # no closing delimiter
    b"From: a@b\nContent-Type: multipart/mixed\n\nhi\n",  # no boundary
    b"From: a@b\nContent-Type: message/rfc822\n\nFrom: c@d\n\nhi\n",
    b"From: a@b\nContent-Type: multipart/mixed; boundary*=utf-8''zz\n\n--zz\n\nhi\n--zz--\n",
    b" folded first\nFrom: a@b\n\nhi\n",
    b"From: a@b\nnot a header\n\nhi\n",
    b"From: a@b\nnot a header: though a colon follows\n\nhi\n",  # a field found inside a line is no field
    b"From: a@b\r\nSubject: x\r\n  junk line\r\nbroken\r\n\r\nhi\r\n",
    b"From: a@b\n: no name\n\nhi\n",
    b"From: a@b\nSubject: only headers\n",
])
def test_unusual_shapes_go_to_the_standard_parser(raw: bytes) -> None:
    assert mime.parse(raw) is None
    fast, slow = read_both(raw)
    assert fast == slow


def test_base64_needing_repair_falls_back_while_decoding() -> None:
    raw = (b"From: a@b.org\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
           + base64.b64encode(b"ORDRES\n")[:-2] + b"\n")
    part = mime.parse(raw)
    assert part is not None
    with pytest.raises(mime.Unusual):
        part.get_payload(decode=True)
    fast, slow = read_both(raw)
    assert fast == slow and "InvalidBase64PaddingDefect" in " ".join(fast.problems)


# --------------------------------------------------------------------------- generated mail

EOLS = st.sampled_from([b"\r\n", b"\n"])
BODY_TEXT = st.lists(
    st.sampled_from(list("abcdeéèàçôABCZ 0123:;-=.>\t") + ["\n", "--", "\n--b1\n", "\n--b1--\n", "\n--b1x\n", "\n--b1x", "=\n", "€"]),
    max_size=40).map("".join)
CHARSETS = st.sampled_from(["utf-8", "UTF-8", '"utf-8"', "iso-8859-1", "windows-1252", "x-unknown", ""])
ENCODINGS = st.sampled_from(["7bit", "8bit", "quoted-printable", "base64", "base64-bad", "QUOTED-PRINTABLE",
                             "binary", "x-uuencode", "base64 "])


@st.composite
def leaf(draw: st.DrawFn, eol: bytes) -> bytes:
    ctype = draw(st.sampled_from(["text/plain", "text/html", "application/pdf", "TEXT/PLAIN", "text", None]))
    charset = draw(CHARSETS)
    cte = draw(ENCODINGS)
    text = draw(BODY_TEXT)
    encoding_name = charset.strip('"') if charset.strip('"') in ("utf-8", "UTF-8", "iso-8859-1", "windows-1252") \
        else "utf-8"
    try:
        data = text.encode(encoding_name)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    if cte.strip().lower() == "quoted-printable":
        data = quopri.encodestring(data)
    elif cte.startswith("base64"):
        data = base64.encodebytes(data)
        if cte == "base64-bad":
            cte, data = "base64", data.rstrip(b"=\n") + b"\n"
    headers = []
    if ctype is not None:
        headers.append(f"Content-Type: {ctype}" + (f"; charset={charset}" if charset else ""))
    if draw(st.booleans()):
        headers.append(f"Content-Transfer-Encoding: {cte}")
    if draw(st.booleans()):
        headers.append(draw(st.sampled_from(["Content-Disposition: attachment; filename=a.txt",
                                             "Content-Disposition: inline"])))
    head = eol.join(h.encode() for h in headers)
    body = data.replace(b"\r\n", b"\n").replace(b"\n", eol)
    return (head + eol if head else b"") + eol + body


@st.composite
def message(draw: st.DrawFn) -> bytes:
    eol = draw(EOLS)
    heads = [b"From: " + draw(st.sampled_from([b"Ana <ana@example.org>", b"=?utf-8?q?B=C3=A9a?= <bea@example.org>",
                                               b"\"Zo\xc3\xa9\" <zoe@example.org>", b"x@y.org"])),
             b"Subject: " + draw(st.sampled_from([b"[PMB] ordres", b"Re: [PMB]" + eol + b" ordres", b""])),
             b"Message-ID: <m1@example.org>"]
    if draw(st.booleans()):
        heads.append(b"Authentication-Results: mx.google.com; dkim=pass header.d=example.org")
    kind = draw(st.sampled_from(["leaf", "multi", "multi", "nested"]))
    if kind == "leaf":
        part = draw(leaf(eol))
        return eol.join(heads) + eol + part
    boundary = draw(st.sampled_from(["b1", "=_b1", "b1 two", "b1.x"]))
    quoted = draw(st.booleans()) or " " in boundary
    b = boundary.encode()
    value = b'"' + b + b'"' if quoted else b
    params = draw(st.sampled_from([
        b"; boundary=" + value, b";" + eol + b" boundary=" + value, b"; charset=utf-8; boundary=" + value,
        b'; boundary=' + value + b'; x="y;z"', b"; boundary= " + value + b" ", b"; BOUNDARY=" + value,
        b'; boundary="<' + b + b'>"', b"; boundary=" + value + b"; boundary=other", b'; x="boundary=zz"; boundary='
        + value, b"; boundary=" + value + b"\t; x=1"]))
    heads.append(b"Content-Type: multipart/" + draw(st.sampled_from([b"alternative", b"mixed", b"related", b"digest"]))
                 + params)
    if draw(st.booleans()):
        heads.append(draw(st.sampled_from([b"X-Empty:", b"X-Blank:   " + eol + b" folded", b"X-Tab:\tvalue  "])))
    parts = [draw(leaf(eol)) for _ in range(draw(st.integers(1, 3)))]
    if kind == "nested":
        inner = (b"Content-Type: multipart/alternative; boundary=in" + eol + eol + b"--in" + eol + parts[0]
                 + eol + b"--in--" + eol)
        parts[0] = inner
    chunks = [eol.join(heads) + eol + eol]
    if draw(st.booleans()):
        chunks.append(b"This is a multi-part message in MIME format." + eol)
    for p in parts:
        chunks.append(b"--" + b + draw(st.sampled_from([b"", b" ", b"\t "])) + eol + p + eol)
    closing = draw(st.sampled_from(["close", "close", "close-ws", "none", "no-eol"]))
    if closing == "close":
        chunks.append(b"--" + b + b"--" + eol)
    elif closing == "close-ws":
        chunks.append(b"--" + b + b"--  " + eol + b"epilogue" + eol)
    elif closing == "no-eol":
        chunks.append(b"--" + b + b"--")
    return b"".join(chunks)


@given(message())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_mail_reads_the_same_either_way(raw: bytes) -> None:
    fast, slow = read_both(raw)
    assert fast == slow
    part = mime.parse(raw)
    if part is not None:
        try:
            mine = leaves_fast(part)
        except mime.Unusual:
            return
        assert mine == leaves_std(raw)


def test_generated_mail_mostly_takes_the_fast_path() -> None:
    """Guards the test above against passing only because the fast reader declines everything."""
    taken = []

    @given(message())
    @settings(max_examples=200, deadline=None, database=None, derandomize=True)
    def count(raw: bytes) -> None:
        taken.append(mime.parse(raw) is not None)

    count()
    # about a third of the generated shapes are clean (the rest: nested, digest, unclosed, odd types)
    assert sum(taken) >= len(taken) // 5, (sum(taken), len(taken))
