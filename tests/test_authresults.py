"""pbem.mail.authresults: RFC 8601 Authentication-Results read strictly, in linear time, or refused.

Real headers of the usual providers; the grammar's corners (comments nested and escaped, quoted
strings, version, ``none``, folding); round trips of generated headers (written with random
comments and folding, read back the same, through `read_message` too); no crash on any text;
and a step count under the length for megabyte-long pathological headers.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail import authresults
from pbem.mail.authresults import AuthResError, Header, Property, Result, parse
from pbem.mail.reading import read_message
from pbem.mail.senders import auth_verdict

# --- real headers ---

GMAIL = ("mx.google.com;\r\n       dkim=pass header.i=@gmail.com header.s=20230601 header.b=Ab/c+d9E;\r\n"
         "       spf=pass (google.com: domain of alice@gmail.com designates 209.85.220.41 as permitted sender)"
         " smtp.mailfrom=alice@gmail.com;\r\n       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com")
OPENDKIM = ('mail.example.org; dkim=pass (2048-bit key; unprotected) header.d=x.org header.i=@x.org '
            'header.a=rsa-sha256 header.s=s1 header.b="Ab12cD34"; dkim-atps=neutral')
RSPAMD = ('mx.example.org; dkim=pass header.d=x.org header.s=s1 header.b=XXXX; spf=pass (mx.example.org: domain of '
          '"user@x.org" designates 192.0.2.1 as permitted sender) smtp.mailfrom=user@x.org; '
          'dmarc=pass (policy=none) header.from=x.org')
YAHOO = ("atlas-production.v2-mail-prod1-gq1.omega.yahoo.com; dkim=pass header.i=@gmail.com header.s=20230601; "
         "spf=pass smtp.mailfrom=gmail.com; dmarc=pass(p=NONE,sp=QUARANTINE) header.from=gmail.com;")
FASTMAIL = ("mx6.messagingengine.com; dkim=pass (2048-bit rsa key sha256) header.d=x.org header.i=@x.org "
            "header.b=Ab1cD2eF header.a=rsa-sha256 header.s=fm1 x-bits=2048; dmarc=pass policy.published-domain-policy"
            "=none policy.applied-disposition=none policy.evaluated-disposition=none (p=none,d=none,d.eval=none) "
            "policy.policy-from=p header.from=x.org; spf=pass smtp.mailfrom=a@x.org smtp.helo=mail.x.org")
OUTLOOK = ("spf=pass (sender IP is 209.85.128.44) smtp.mailfrom=gmail.com; dkim=pass (signature was verified) "
           "header.d=gmail.com;dmarc=pass action=none header.from=gmail.com;compauth=pass reason=100")


def _summary(header: Header) -> list[tuple[str, str, dict[str, tuple[str, ...]]]]:
    return [(r.method, r.result, {p.key: r.values(p.key) for p in r.properties}) for r in header.results]


def test_gmail() -> None:
    header = parse(GMAIL)
    assert header.authserv_id == "mx.google.com" and header.version == ""
    assert _summary(header) == [
        ("dkim", "pass", {"header.i": ("@gmail.com",), "header.s": ("20230601",), "header.b": ("Ab/c+d9E",)}),
        ("spf", "pass", {"smtp.mailfrom": ("alice@gmail.com",)}),
        ("dmarc", "pass", {"header.from": ("gmail.com",)}),
    ]


def test_opendkim_comment_with_a_semicolon_and_a_quoted_value() -> None:
    header = parse(OPENDKIM)
    assert [(r.method, r.result) for r in header.results] == [("dkim", "pass"), ("dkim-atps", "neutral")]
    assert header.results[0].values("header.b") == ("Ab12cD34",)
    assert header.results[0].values("header.d") == ("x.org",)


def test_rspamd_quotes_the_envelope_inside_a_comment() -> None:
    header = parse(RSPAMD)
    assert [r.method for r in header.results] == ["dkim", "spf", "dmarc"]
    assert header.results[1].values("smtp.mailfrom") == ("user@x.org",)


def test_yahoo_comment_right_after_the_result_and_a_trailing_semicolon() -> None:
    header = parse(YAHOO)
    assert [(r.method, r.result) for r in header.results] == [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")]


def test_fastmail_bare_and_dotted_policy_properties() -> None:
    header = parse(FASTMAIL)
    dkim, dmarc, spf = header.results
    assert dkim.values("x-bits") == ("2048",) and dkim.values("header.d") == ("x.org",)
    assert dmarc.values("policy.published-domain-policy") == ("none",) and dmarc.values("header.from") == ("x.org",)
    assert spf.values("smtp.helo") == ("mail.x.org",)


def test_outlook_writes_no_authserv_id_and_is_refused_saying_so() -> None:
    with pytest.raises(AuthResError, match="no authserv-id"):
        parse(OUTLOOK)


# --- the grammar's corners ---


@pytest.mark.parametrize(("value", "expected"), [
    ("mx.example 1; none", Header("mx.example", "1", ())),
    ("mx.example; none", Header("mx.example", "", ())),
    ('"Mx.Example"; none', Header("mx.example", "", ())),
    ("mx.example (the (nested) comment \\) still) 1 (v1); none (nothing)", Header("mx.example", "1", ())),
    ("MX.Example;DKIM=PASS Header.D=Example.ORG", Header("mx.example", "", (
        Result("dkim", "pass", properties=(Property("header", "d", "Example.ORG"),)),))),
    ("mx; dkim/1 = pass reason = \"good sig\" header . d = x.org", Header("mx", "", (
        Result("dkim", "pass", "1", "good sig", (Property("header", "d", "x.org"),)),))),
    ("mx; spf=pass smtp.mailfrom=\"a b;c\\\"d\"@x.org", Header("mx", "", (
        Result("spf", "pass", properties=(Property("smtp", "mailfrom", '"a b;c"d"@x.org'),)),))),
    ("mx; spf=pass smtp.mailfrom==?utf-8?q?x=3B_dkim=3Dpass?=@x.org", Header("mx", "", (
        Result("spf", "pass", properties=(Property("smtp", "mailfrom", "=?utf-8?q?x=3B_dkim=3Dpass?=@x.org"),)),))),
    ("mx;;; spf=none;;", Header("mx", "", (Result("spf", "none"),))),
    ("mx;\r\n\tspf=none\r\n (folded\r\n comment);\r\n dkim=none", Header("mx", "", (
        Result("spf", "none"), Result("dkim", "none")))),
    ("mx; spf=pass smtp.mailfrom=", Header("mx", "", (Result("spf", "pass", properties=(
        Property("smtp", "mailfrom", ""),)),))),
    ("mx; auth=pass smtp.auth=\"\"", Header("mx", "", (Result("auth", "pass", properties=(
        Property("smtp", "auth", ""),)),))),
])
def test_grammar(value: str, expected: Header) -> None:
    assert parse(value) == expected


@pytest.mark.parametrize(("value", "why"), [
    ("", "no authserv-id"),
    ("   (only a comment)", "no authserv-id"),
    ("mx.example", "expected ';'"),
    ("mx.example 2; none", "unknown version"),
    ("mx.example; ", "no result"),
    ("mx.example; none; dkim=pass", "a result after 'none'"),
    ("mx.example; dkim", "expected '='"),
    ("mx.example; dkim=", "expected a result"),
    ("mx.example; dkim/=pass", "method version"),
    ("mx.example; dkim=pass header", "expected '.' or '='"),
    ("mx.example; dkim=pass header.d", "expected '='"),
    ("mx.example; dkim=pass (unclosed", "unclosed comment"),
    ("mx.example; dkim=pass (a \\", "at the end of a comment"),
    ("mx.example; dkim=pass header.d=\"x.org", "unclosed quoted string"),
    ("mx.example; dkim=pass header.d=\"x\"@", "expected a domain"),
    ("mx.example; dkim=pass ) header.d=x.org", "expected a property"),
    ("mx.example; dkim=pass header.d=a\"b\"", "expected a property"),
    ("mx.example; dkim=pass (a \"b) header.s=x (\" c) header.d=x.org", "reads two ways"),
    ("mx.example; dkim=pass (a \"b) c\" d) header.d=x.org", "expected '.' or '='"),
    ("mx.example; dkim=pass (a \"b c) header.d=x.org", "unclosed quoted string inside a comment"),
])
def test_refused(value: str, why: str) -> None:
    with pytest.raises(AuthResError, match=why):
        parse(value)


def test_a_header_longer_than_the_cap_is_refused_before_it_is_read() -> None:
    value = "mx.example; dkim=pass header.d=x.org (" + "a" * authresults.MAX_CHARS + ")"
    with pytest.raises(AuthResError, match="longer than"):
        parse(value)
    assert parse(value, max_chars=len(value)).results[0].values("header.d") == ("x.org",)


def test_too_many_results_or_properties_are_refused() -> None:
    with pytest.raises(AuthResError, match="more than 256"):
        parse("mx" + "; a=b" * 257)
    with pytest.raises(AuthResError, match="more than 256"):
        parse("mx; dkim=pass" + " header.s=x" * 256)
    assert len(parse("mx" + "; a=b" * 256).results) == 256


# --- the attacks: a ';' or a ')' the sender put in the envelope never starts a result ---


def test_a_quoted_local_part_with_a_semicolon_stays_one_value() -> None:
    header = parse('mx.google.com; spf=pass smtp.mailfrom="x; dkim=pass header.d=mj.example y"@evil.example')
    assert [r.method for r in header.results] == ["spf"]
    assert header.results[0].values("smtp.mailfrom") == ('"x; dkim=pass header.d=mj.example y"@evil.example',)


def test_a_quoted_local_part_closing_the_spf_comment_is_refused() -> None:
    local = '"x) ; dkim=pass header.d=mj.example (y"@evil.example'
    value = (f"mx.google.com; spf=pass (google.com: domain of {local} designates 192.0.2.1 as permitted sender) "
             f"smtp.mailfrom={local}")
    # read as RFC 5322 alone, the comment would end at « x) » and « dkim=pass » would be a result:
    strict = authresults.Reader(value, quotes_in_comments=False).header()
    assert [r.method for r in strict.results] == ["spf", "dkim"]
    with pytest.raises(AuthResError, match="reads two ways"):
        parse(value)


def test_an_encoded_word_is_not_decoded() -> None:
    local = "=?utf-8?q?x=29_=3B_dkim=3Dpass_header.d=3Dmj.example_=28?=@evil.example"
    header = parse(f"mx.google.com; spf=pass (google.com: domain of {local} designates 192.0.2.1) "
                   f"smtp.mailfrom={local}")
    assert [r.method for r in header.results] == ["spf"]
    assert header.results[0].values("smtp.mailfrom") == (local,)
    raw = (f"Authentication-Results: mx.google.com; spf=pass smtp.mailfrom={local}\r\n"
           "From: mj@mj.example\r\nSubject: x\r\n\r\nbody\r\n").encode()
    assert read_message(raw).headers["authentication-results"] == (f"mx.google.com; spf=pass smtp.mailfrom={local}",)


# --- round trips: any header written with comments, quotes and folding reads back the same ---

_KEYWORD = st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8)
_RUN = st.text("abcXYZ0189.@/+=-_é?", min_size=1, max_size=12)  # unquoted property values
_TOKEN = st.text("abcdefghijklmnopqrstuvwxyz0123456789.-", min_size=1, max_size=15)
_METHOD = _KEYWORD.filter(lambda k: k != "none")  # (« none » alone is the no-result form)
_BARE_NAME = _KEYWORD.filter(lambda k: k != "reason")  # (« reason= » first is the reason)


def _quote(content: str) -> str:
    return '"' + content.replace("\\", "\\\\").replace('"', '\\"') + '"'


_QUOTED_TEXT = {spaces: st.text("ab;()=.@\"\\/é" + (" " if spaces else ""), max_size=10) for spaces in (False, True)}


def _quoted_text(spaces: bool) -> st.SearchStrategy[str]:
    return _QUOTED_TEXT[spaces]


def _balanced(pieces: list[str]) -> str:
    """A comment made of pieces, its parentheses balanced (a ``)`` with nothing open is dropped, the open ones closed)."""
    out, depth = ["("], 1
    for piece in pieces:
        if piece == ")" and depth == 1:
            continue
        depth += {"(": 1, ")": -1}.get(piece, 0)
        out.append(piece)
    return "".join(out) + ")" * depth


# a comment that both readings read alike: nested comments, quoted pairs, quotes only in balanced pairs
_COMMENT = st.lists(st.sampled_from(["(", ")", "(", ")", "a", "b c", ";", "=", ".", "@", "é", ":", " ", "\\(",
                                     "\\)", "\\\\", '\\"', "\\a", '"ab"', '" ; = "', '""', "pass;dkim=pass"]),
                    max_size=8).map(_balanced)
_SPACE = {fold: st.sampled_from([" ", "\t", "  "] + (["\r\n ", "\r\n\t"] if fold else [])) for fold in (False, True)}
_CFWS = {fold: st.lists(st.one_of(_SPACE[fold], _SPACE[fold], _COMMENT), max_size=3).map("".join)
         for fold in (False, True)}


@st.composite
def _pvalue(draw: st.DrawFn, spaces: bool) -> tuple[str, str]:
    """(as written, as read)."""
    kind = draw(st.sampled_from(["run", "quoted", "local"]))
    if kind == "run":
        value = draw(_RUN)
        return value, value
    content = draw(_quoted_text(spaces))
    if kind == "quoted":
        return _quote(content), content
    domain = draw(_TOKEN)
    return f"{_quote(content)}@{domain}", f'"{content}"@{domain}'


@st.composite
def headers(draw: st.DrawFn, spaces: bool = True, fold: bool = True) -> tuple[str, Header]:
    """A header as written (random white space, comments and folding) and as it must read."""
    def sep(required: bool = False) -> str:
        return draw(_CFWS[fold]) or (" " if required else "")

    if draw(st.booleans()):
        authserv, written = draw(_TOKEN), None
    else:
        authserv = draw(st.text("abcdefgh.-é;()" + (" " if spaces else ""), min_size=1, max_size=12))
        written = _quote(authserv)
    out = [sep(), written or authserv]
    version = draw(st.sampled_from(["", "1"]))
    if version:
        out += [sep(required=True), version]
    results: list[Result] = []
    for _ in range(draw(st.integers(0, 5))):
        method = draw(_METHOD)
        mversion = draw(st.sampled_from(["", "1", "12"]))
        result = draw(_KEYWORD)
        out += [sep(), ";", sep(), method]
        if mversion:
            out += [sep(), "/", sep(), mversion]
        out += [sep(), "=", sep(), result]
        reason = ""
        if draw(st.booleans()):
            reason = draw(st.one_of(_TOKEN, _quoted_text(spaces)))
            out += [sep(required=True), "reason", sep(), "=", sep(),
                    reason if reason and all(c in "abcdefghijklmnopqrstuvwxyz0123456789.-" for c in reason)
                    else _quote(reason)]
        props: list[Property] = []
        for _ in range(draw(st.integers(0, 4))):
            ptype = draw(st.sampled_from(["", "smtp", "header", "policy", "body", "x-custom"]))
            name = draw(_KEYWORD if ptype else _BARE_NAME)
            written_value, value = draw(_pvalue(spaces))
            out += [sep(required=True), ptype]
            if ptype:
                out += [sep(), ".", sep()]
            out += [name, sep(), "=", sep(), written_value]
            props.append(Property(ptype, name, value))
        results.append(Result(method, result, mversion, reason, tuple(props)))
    if not results:
        out += [sep(), ";", sep(), "none"]
    if draw(st.booleans()):
        out += [sep(), ";"]
    out.append(sep())
    return "".join(out), Header(authserv.lower(), version, tuple(results))


@settings(max_examples=200, deadline=None, database=None)
@given(headers())
def test_round_trip(case: tuple[str, Header]) -> None:
    written, expected = case
    assert parse(written) == expected
    assert _step_by_step(written) == expected  # (parse reads the usual header whole: both must agree)


@settings(max_examples=100, deadline=None, database=None)
@given(headers(spaces=False))
def test_round_trip_through_a_folded_raw_header(case: tuple[str, Header]) -> None:
    """The header as a mail carries it (folded lines, CRLF), read by `read_message`, then parsed."""
    written, expected = case
    raw = ("Authentication-Results: " + written.strip().replace("\r\n", "\n").replace("\n", "\r\n") +
           "\r\nFrom: a@x.org\r\nSubject: x\r\n\r\nbody\r\n").encode()
    assert parse(read_message(raw).headers["authentication-results"][0]) == expected


_SPECIALS = st.lists(st.sampled_from(list(';()"\\=./@ \t\r\nab1é') + ["mx", "dkim", "none", "pass", "header.d",
                                                                          "reason"]), max_size=80).map("".join)


@settings(max_examples=1000, deadline=None, database=None)
@given(_SPECIALS)
def test_any_text_reads_or_is_refused_never_crashes(value: str) -> None:
    assert _parsed(value) == _step_by_step(value)


def _parsed(value: str) -> Header | None:
    try:
        return parse(value)
    except AuthResError:
        return None


def _step_by_step(value: str) -> Header | None:
    """`parse` without its whole-header fast reading: the `Reader` (both readings when comments hold quotes)."""
    try:
        header = authresults.Reader(value, quotes_in_comments=False).header()
        if '"' in value and "(" in value and authresults.Reader(value, quotes_in_comments=True).header() != header:
            return None
    except AuthResError:
        return None
    return header


def test_the_usual_headers_are_read_whole_and_the_others_step_by_step() -> None:
    for value in (GMAIL, YAHOO, FASTMAIL, "mx; dkim=pass header.d=x.org (a comment)"):
        assert authresults._fast(value) == _step_by_step(value) is not None
    for value in (OPENDKIM, RSPAMD, "mx; none", "mx; dkim=pass reason=x", "mx; dkim=pass ((nested))",
                  '"mx"; dkim=pass', 'mx; spf=pass smtp.mailfrom="a b"@x.org', "mx; dkim=pass header.d=x.org )"):
        assert authresults._fast(value) is None, value


@settings(max_examples=150, deadline=None, database=None)
@given(headers(), st.integers(0, 10_000), st.sampled_from(list(';()"\\=. ')))
def test_a_header_with_one_character_changed_reads_or_is_refused(case: tuple[str, Header], where: int,
                                                                  char: str) -> None:
    written, _expected = case
    at = where % (len(written) + 1)
    changed = written[:at] + char + written[at:]
    assert _parsed(changed) == _step_by_step(changed)


# --- linear time: a step count under the length, whatever the header holds ---

_HUGE = 1_000_000
_PATHOLOGICAL = {
    "nested comments": "mx; dkim=pass " + "(" * _HUGE,
    "balanced nesting": "mx; dkim=pass " + "(" * (_HUGE // 2) + ")" * (_HUGE // 2),
    "open and close": "mx; dkim=pass " + "(()" * (_HUGE // 3),
    "empty comments": "mx; dkim=pass " + "()" * (_HUGE // 2),
    "quotes in a comment": 'mx; dkim=pass header.d="x" (' + '(")' * (_HUGE // 3),
    "balanced quotes in a comment": 'mx; dkim=pass header.d="x" (' + '"a" ' * (_HUGE // 4) + ")",
    "quotes": "mx; dkim=pass header.d=" + '"' * _HUGE,
    "an open quote": 'mx; dkim=pass header.d="' + "a" * _HUGE,
    "escapes": "mx; dkim=pass (" + "\\" * _HUGE,
    "escaped letters": "mx; dkim=pass (" + "\\a" * (_HUGE // 2),
    "semicolons": "mx" + ";" * _HUGE,
    "semicolons and comments": "mx" + ";()" * (_HUGE // 3),
    "results": "mx" + "; a=b" * (_HUGE // 5),
    "properties": "mx; dkim=pass" + " header.d=x" * (_HUGE // 11),
    "equal signs": "mx; dkim=pass x" + "=x" * (_HUGE // 2),
    "white space": "mx;" + " " * _HUGE,
    "encoded words": "mx; spf=pass smtp.mailfrom=" + "=?utf-8?q?x=3B?=" * (_HUGE // 16),
}


@pytest.mark.parametrize("name", sorted(_PATHOLOGICAL))
def test_a_megabyte_header_costs_steps_under_its_length(name: str) -> None:
    value = _PATHOLOGICAL[name]
    for quotes in (False, True):
        reader = authresults.Reader(value, quotes_in_comments=quotes)
        try:
            reader.header()
        except AuthResError:
            pass
        assert reader.steps <= len(value), (name, quotes, reader.steps)


def test_the_whole_header_reading_of_a_megabyte_header_is_linear_too() -> None:
    """`parse` reads the usual header with a few regular expressions first: possessive, so linear.

    A generous bound per header (each takes well under a second): this only catches one gone quadratic."""
    for name, value in _PATHOLOGICAL.items():
        started = time.perf_counter()
        authresults._fast(value)
        assert time.perf_counter() - started < 10, name


def test_a_megabyte_header_in_a_mail_is_refused_at_once() -> None:
    """Through the real path (read the mail, then its topmost header): the cap answers before any reading.

    A generous bound (the whole takes milliseconds): this only catches a reader gone quadratic."""
    for name, value in _PATHOLOGICAL.items():
        raw = (f"Authentication-Results: {value}\r\nFrom: mj@mj.example\r\nSubject: x\r\n\r\nbody\r\n").encode()
        started = time.perf_counter()
        verdict = auth_verdict(read_message(raw), ["mx"], "dkim")
        assert time.perf_counter() - started < 5, name
        assert not verdict.ok, name
        assert "longer than 16384 characters" in verdict.reason or name == "white space", (name, verdict.reason)


def test_an_overlong_header_is_refused_not_cut_into_another_verdict() -> None:
    """The mail reader cuts long header values; a cut Authentication-Results must not read as the part before the cut.

    The receiving server reflects the envelope sender: with a local part padded so that an ordinary header's cut
    falls right after an aligned domain, a cut header would read ``spf=pass smtp.mailfrom=…@mj.example``."""
    from pbem import limits

    prefix = "mx; dkim=fail header.d=evil.example; spf=pass smtp.mailfrom="
    local = "a" * (limits.MAX_HEADER_CHARS - len(prefix) - len("@mj.example"))
    value = f"{prefix}{local}@mj.example.evil.example"
    assert value.index("@mj.example") + len("@mj.example") == limits.MAX_HEADER_CHARS
    raw = (f"Authentication-Results: {value}\r\nFrom: mj@mj.example\r\nSubject: x\r\n\r\nbody\r\n").encode()
    verdict = auth_verdict(read_message(raw), ["mx"], "spf")
    assert not verdict.ok, verdict
