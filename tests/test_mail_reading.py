"""pbem.mail.reading: cleaning per client, routing helpers, header decoding, charsets, robustness."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import limits
from pbem.limits import MAX_TEXT_CHARS
from pbem.mail.reading import (
    clean_order_text,
    decode_header_text,
    html_to_text,
    normalise_address,
    plus_tag,
    read_message,
    subject_tags,
)

CORPUS = Path(__file__).parent / "fixtures" / "mail"


def mail(headers: str, body: bytes | str, *, content_type: str = "text/plain; charset=utf-8") -> bytes:
    head = headers.strip("\n") + f"\nContent-Type: {content_type}\n\n"
    return head.encode("utf-8") + (body.encode("utf-8") if isinstance(body, str) else body)


BASIC = "From: Alice <alice@example.org>\nTo: pourmabelle.lejeu@gmail.com\nSubject: [PMB] ordres"

# --- clean_order_text, one client at a time ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Gmail (French), attribution wrapped over two lines, NBSP before the colon
        (
            "VOTE Pour ser Schlingue\n\nLe mer. 15 janv. 2020 à 21:04, Pour Ma Belle <\n"
            "pourmabelle.lejeu@gmail.com> a écrit\u00a0:\n\n> Tour 3\n",
            "VOTE Pour ser Schlingue",
        ),
        # Gmail (French) on one line
        ("CIBLE X\nLe jeu. 16 janv. 2020 à 08:00, MJ <mj@x.fr> a écrit :\n> a\n", "CIBLE X"),
        # Gmail (English)
        ("VOTE Pour X\n\nOn Wed, Jan 15, 2020 at 9:04 PM Pour Ma Belle <a@b.c> wrote:\n> x\n", "VOTE Pour X"),
        ("VOTE Pour X\nOn Wed, Jan 15, 2020 at 9:04 PM Pour Ma Belle <\na@b.c> wrote:\n> x\n", "VOTE Pour X"),
        # Apple Mail (French)
        ("VOTE Contre Y\n\nLe 15 janv. 2020 à 21:04, X <x@y.fr> a écrit :\n\n> Tour 3\n", "VOTE Contre Y"),
        # Thunderbird (French)
        ("ESCOUADE A, B\nLe 15/01/2020 à 21:04, Pour Ma Belle a écrit :\n> Tour 3\n", "ESCOUADE A, B"),
        # Outlook (French) with and without the separator line
        (
            "ESCOUADE A\n\n________________________________\nDe : MJ <mj@x.fr>\nEnvoyé : mercredi\nÀ : moi\n",
            "ESCOUADE A",
        ),
        (
            "ESCOUADE A\nDe : MJ <mj@x.fr>\nEnvoyé : mercredi 15 janvier 2020 21:04\nÀ : moi\nObjet : x\n\nTour 3",
            "ESCOUADE A",
        ),
        ("ESCOUADE A\n*De :* MJ\n*Envoyé :* mercredi\n", "ESCOUADE A"),
        # Outlook (English)
        (
            "VOTE Pour X\nFrom: MJ <mj@x.fr>\nSent: Wednesday, January 15, 2020 9:04 PM\nTo: me\n",
            "VOTE Pour X",
        ),
        ("VOTE Pour X\n-----Original Message-----\nFrom: MJ\n", "VOTE Pour X"),
        ("VOTE Pour X\n-----Message d'origine-----\nDe : MJ\n", "VOTE Pour X"),
        ("VOTE Pour X\n---------- Forwarded message ---------\nFrom: MJ\n", "VOTE Pour X"),
        ("VOTE Pour X\n-------- Message transféré --------\nSujet : x\n", "VOTE Pour X"),
        # mobile signatures
        ("CIBLE Z\n\nEnvoyé de mon iPhone\n\n> Le 15 janv. a écrit :\n", "CIBLE Z"),
        ("CIBLE Z\nEnvoyé de mon iPad", "CIBLE Z"),
        ("CIBLE Z\nSent from my iPhone", "CIBLE Z"),
        ("CIBLE Z\nEnvoyé depuis mon smartphone Samsung Galaxy.", "CIBLE Z"),
        ("CIBLE Z\n\nGet Outlook for Android<https://aka.ms/ghei36>\n", "CIBLE Z"),
        ("CIBLE Z\n\nTéléchargez Outlook pour Android\n", "CIBLE Z"),
        # signature delimiters
        ("VOTE Pour X\n-- \nAlice\nCIBLE Y\n", "VOTE Pour X"),
        ("VOTE Pour X\n--\nAlice\n", "VOTE Pour X"),
        # quoted lines anywhere are dropped
        ("> quoted\nVOTE Pour X\n  > also quoted\nCIBLE Y", "VOTE Pour X\nCIBLE Y"),
        # FIN / END end the orders (kept), any case, accents, punctuation
        ("VOTE Pour X\nFIN\nCIBLE Y", "VOTE Pour X\nFIN"),
        ("VOTE Pour X\nfin.\nCIBLE Y", "VOTE Pour X\nfin."),
        ("VOTE Pour X\n  Fîn !\nCIBLE Y", "VOTE Pour X\n  Fîn !"),
        ("VOTE Pour X\nEnd\nCIBLE Y", "VOTE Pour X\nEnd"),
        ("VOTE Pour X\nFINAL\nfin de partie\nCIBLE Y", "VOTE Pour X\nFINAL\nfin de partie\nCIBLE Y"),
        # blank lines and trailing spaces
        ("\n\n  \nVOTE Pour X   \n\n\nCIBLE Y\t\n\n", "VOTE Pour X\n\n\nCIBLE Y"),
        ("", ""),
        ("\u00a0\u200b\n \n", ""),
        # ordinary lines that look a bit like markers are kept
        (
            "De : rien\nLe conseil vote\nOn verra\nLes --- tirets ---",
            "De : rien\nLe conseil vote\nOn verra\nLes --- tirets ---",
        ),
    ],
)
def test_clean_order_text(text: str, expected: str) -> None:
    assert clean_order_text(text) == expected
    assert clean_order_text(expected) == expected


def test_clean_normalises_newlines_and_spaces() -> None:
    assert clean_order_text("VOTE\u00a0Pour X\r\nCIBLE\u200b Y\rFIN") == "VOTE Pour X\nCIBLE Y\nFIN"


# --- routing helpers ---


@pytest.mark.parametrize(
    ("subject", "tags"),
    [
        ("[PMB] ordres tour 3", ["pmb"]),
        ("Re: [pmb1] ordres", ["pmb1"]),
        ("RE : TR: Fwd: [PMB2] Tour 3", ["pmb2"]),
        ("Re: Re: [ PMB ] x [pmb] [1626]", ["pmb", "1626"]),
        ("ordres tour 3", []),
        ("", []),
        ("[] vide [", []),
    ],
)
def test_subject_tags(subject: str, tags: list[str]) -> None:
    assert subject_tags(subject) == tags


@pytest.mark.parametrize(
    ("address", "tag"),
    [
        ("pourmabelle.lejeu+pmb1@gmail.com", "pmb1"),
        ("<PourMaBelle.LeJeu+PMB1@Gmail.com>", "pmb1"),
        ("pourmabelle.lejeu@gmail.com", None),
        ("pourmabelle.lejeu+@gmail.com", None),
        ("not an address", None),
    ],
)
def test_plus_tag(address: str, tag: str | None) -> None:
    assert plus_tag(address) == tag


def test_normalise_address_keeps_dots() -> None:
    assert normalise_address("  <Pour.Ma.Belle@GMail.com> ") == "pour.ma.belle@gmail.com"


# --- headers ---


def test_header_injection_through_encoded_words() -> None:
    name = base64.b64encode(b"Eve\r\nBcc: victim@example.com").decode()
    raw = mail(
        f"From: =?utf-8?b?{name}?= <eve@example.org>\nTo: a@b.c\n"
        "Subject: =?utf-8?q?[PMB]=0D=0ABcc:_x@y.z?= =?utf-8?q?=0A=0Dz?=",
        "VOTE",
    )
    message = read_message(raw)
    assert message.from_addr == "eve@example.org"
    for value in (message.from_name, message.subject):
        assert not any(c in value for c in "\r\n\x00\t")
    assert message.subject == "[PMB] Bcc: x@y.z z"


@pytest.mark.parametrize(
    ("value", "decoded"),
    [
        ("=?UTF-8?Q?=C3?= =?UTF-8?Q?=A9t=C3=A9?=", "été"),  # a character split over two encoded words
        ("=?ISO-8859-1?Q?Ser_Schl=FCngue?=", "Ser Schlüngue"),
        ("=?utf-8?B?w6l0w6k?=", "été"),  # missing base64 padding
        ("Re: =?utf-8?q?caf=C3=A9?= et =?utf-8?q?th=C3=A9?=", "Re: café et thé"),
        ("=?x-unknown?q?caf=C3=A9?=", "café"),
        ("=?utf-8*fr?q?caf=C3=A9?=", "café"),
        ("a\r\n\tfolded\r\n subject", "a folded subject"),
        ("bidi \u202eevil\u202c", "bidi evil"),
        ("", ""),
    ],
)
def test_decode_header_text(value: str, decoded: str) -> None:
    assert decode_header_text(value) == decoded


def test_message_headers() -> None:
    raw = mail(
        'From: "Dupont, Alice" <Alice.Dupont@Example.ORG>\nReply-To: other@example.org\n'
        "To: Game <pourmabelle.lejeu@gmail.com>, b@example.org\nCc: c@example.org\n"
        "Delivered-To: pourmabelle.lejeu+pmb1@gmail.com\nX-Original-To: pourmabelle.lejeu+pmb1@gmail.com\n"
        "Message-ID:  <abc@example.org> \nIn-Reply-To: <x@y>\nReferences: <a@b>\n <c@d>\n"
        "Subject: [PMB] ordres\nDate: Wed, 15 Jan 2020 21:31:00 +0100\n"
        "Authentication-Results: one; spf=pass\nAuthentication-Results: two; dkim=pass\nX-Unrelated: 1",
        "VOTE",
    )
    message = read_message(raw)
    assert message.from_addr == "alice.dupont@example.org"
    assert message.from_name == "Dupont, Alice"
    assert message.reply_to == "other@example.org"
    assert message.to_addrs == ("pourmabelle.lejeu@gmail.com", "b@example.org", "c@example.org")
    assert message.delivered_to == ("pourmabelle.lejeu+pmb1@gmail.com",)
    assert message.message_id == "<abc@example.org>"
    assert (message.in_reply_to, message.references) == ("<x@y>", ("<a@b>", "<c@d>"))
    assert message.date == "Wed, 15 Jan 2020 21:31:00 +0100"
    assert message.headers["authentication-results"] == ("one; spf=pass", "two; dkim=pass")
    assert "x-unrelated" not in message.headers
    assert message.size == len(raw)


def test_generated_message_id_is_deterministic() -> None:
    raw = mail(BASIC, "VOTE")
    first, second = read_message(raw), read_message(raw)
    assert first.message_id == second.message_id
    assert first.message_id.startswith("<") and first.message_id.endswith("@pbem.invalid>")
    assert read_message(raw + b"x").message_id != first.message_id


def test_from_with_comment_and_bare_address() -> None:
    assert read_message(mail("From: alice@example.org (Alice)", "x")).from_addr == "alice@example.org"
    assert read_message(mail("From: ALICE@EXAMPLE.ORG", "x")).from_addr == "alice@example.org"
    broken = read_message(mail("From: ser Schlingue", "x"))
    assert broken.from_addr == "" and "no From address" in broken.problems


# --- bodies and charsets ---


@pytest.mark.parametrize(
    ("charset", "body", "expected"),
    [
        ("iso-8859-1", "Régent".encode("latin-1"), "Régent"),
        ("windows-1252", "l’œil €".encode("cp1252"), "l’œil €"),
        ("us-ascii", "Régent".encode(), "Régent"),  # mislabelled UTF-8
        ("utf-8", "Régent".encode("latin-1"), "Régent"),  # mislabelled latin-1
        ("x-klingon", "Régent".encode(), "Régent"),
        ("zlib", b"abc", "abc"),  # a codec that is not a text encoding
        ("", b"abc", "abc"),
    ],
)
def test_body_charsets(charset: str, body: bytes, expected: str) -> None:
    message = read_message(mail(BASIC, body, content_type=f'text/plain; charset="{charset}"'))
    assert message.text == expected


def test_quoted_printable_and_base64() -> None:
    qp = read_message(
        BASIC.encode()
        + b"\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
        b"VOTE Pour S=C3=A9r Schlin=\ngue\n"
    )
    assert qp.text == "VOTE Pour Sér Schlingue"
    b64 = read_message(
        BASIC.encode()
        + b"\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes("CIBLE Sér\nFIN\n".encode())
    )
    assert b64.text == "CIBLE Sér\nFIN"


def test_format_flowed() -> None:
    body = "ESCOUADE A, B, \nC\n VOTE Pour X\n> quoted \n> more\n-- \nsig"
    message = read_message(mail(BASIC, body, content_type="text/plain; charset=utf-8; format=flowed"))
    assert message.text == "ESCOUADE A, B, C\nVOTE Pour X"
    delsp = read_message(mail(BASIC, "ESCOU \nADE A", content_type="text/plain; format=flowed; delsp=yes"))
    assert delsp.text == "ESCOUADE A"


def test_attachment_text_is_skipped() -> None:
    body = (
        "--b\nContent-Type: text/plain\nContent-Disposition: attachment; filename=notes.txt\n\nNOT ME\n"
        "--b\nContent-Type: text/plain; charset=utf-8\n\nVOTE Pour X\n--b--\n"
    )
    message = read_message(mail(BASIC, body, content_type='multipart/mixed; boundary="b"'))
    assert message.text == "VOTE Pour X"


def test_no_text_part() -> None:
    body = "--b\nContent-Type: image/png\n\nxx\n--b--\n"
    message = read_message(mail(BASIC, body, content_type='multipart/mixed; boundary="b"'))
    assert message.text == "" and "no text part" in message.problems


def test_html_to_text() -> None:
    html = (
        "<html><head><style>p{}</style><script>x()</script></head><body>"
        "<p>VOTE  Pour\n X</p><div>CIBLE&nbsp;Y &amp; Z</div><ul><li>un</li><li>deux</li></ul>"
        "ligne<br>suite<br/><blockquote type=cite>cité<blockquote>imbriqué</blockquote>encore</blockquote>"
        '<div class="gmail_quote">Le ... a écrit :<div>quoted</div></div><pre>a   b\nc</pre>'
        '<div class="gmail_signature">Alice</div>'
        '<div id="divRplyFwdMsg"><b>De :</b> MJ</div><p>original</p></body></html>'
    )
    assert html_to_text(html) == "VOTE Pour X\nCIBLE Y & Z\nun\ndeux\nligne\nsuite\na   b\nc\n"
    assert html_to_text("<p>unclosed <b>bold <div>x") == "unclosed bold\nx"
    assert html_to_text("<<<>>>&&&;;<!-- c --><![CDATA[x]]>") is not None


def test_long_text_is_truncated() -> None:
    message = read_message(mail(BASIC, "a" * (MAX_TEXT_CHARS + 100)))
    assert len(message.raw_text) == MAX_TEXT_CHARS and "text truncated" in message.problems


def test_nested_multiparts_do_not_explode() -> None:
    depth = 200
    body = "".join(f"--b{i}\nContent-Type: multipart/mixed; boundary=b{i + 1}\n\n" for i in range(depth))
    body += f"--b{depth}\nContent-Type: text/plain\n\nVOTE\n"
    message = read_message(mail(BASIC, body, content_type="multipart/mixed; boundary=b0"))
    assert isinstance(message.text, str)


# --- robustness properties ---


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_read_message_never_raises_on_bytes(raw: bytes) -> None:
    message = read_message(raw)
    assert message.size == len(raw)
    assert "\n" not in message.subject and "\n" not in message.from_name


HEADERISH = st.sampled_from(
    [
        b"From: =?utf-8?b?",
        b"Content-Type: multipart/mixed; boundary=",
        b"Content-Transfer-Encoding: base64\n",
        b"\n--",
        b"=?",
        b"?=",
        b"\r\n\r\n",
        b"charset=",
        b"\xff\xfe",
        b"<div class=gmail_quote>",
        b"format=flowed",
    ]
)
SMALL_CORPUS = [p.read_bytes() for p in sorted(CORPUS.glob("*.eml")) if p.stat().st_size < 200_000]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(SMALL_CORPUS),
    st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), st.binary(max_size=20) | HEADERISH), max_size=8),
)
def test_read_message_never_raises_on_mutated_corpus(
    raw: bytes, edits: list[tuple[float, int, bytes]]
) -> None:
    data = bytearray(raw)
    for where, how, chunk in edits:
        at = int(where * len(data))
        if how == 0:
            data[at:at] = chunk
        elif how == 1:
            del data[at : at + len(chunk) + 1]
        elif how == 2:
            data[at : at + len(chunk)] = chunk
        else:
            del data[at:]
    message = read_message(bytes(data))
    assert clean_order_text(message.text) == message.text


LINES = st.sampled_from(
    [
        "VOTE Pour X",
        "Le mer. 15 janv. 2020 à 21:04, MJ <",
        "mj@x.fr> a écrit :",
        "Le conseil",
        "On Wed wrote:",
        "> quoted",
        "De : MJ",
        "Envoyé : mer",
        "From: a",
        "Sent: b",
        "-- ",
        "--",
        "FIN",
        "fin.",
        "Envoyé de mon iPhone",
        "________________________________",
        "",
        "   ",
        "\u00a0",
        "\t x \t",
    ]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(LINES | st.text(max_size=30), max_size=12), st.sampled_from(["\n", "\r\n", "\r"]))
def test_clean_order_text_is_idempotent(lines: list[str], eol: str) -> None:
    once = clean_order_text(eol.join(lines))
    assert clean_order_text(once) == once
    assert not once.startswith("\n") and not once.endswith("\n")
    assert all(not line.endswith(" ") for line in once.split("\n"))


@given(st.text(max_size=200))
def test_decode_header_text_is_one_clean_line(value: str) -> None:
    decoded = decode_header_text(value)
    assert not any(c in decoded for c in "\r\n\t\x00\x85\u2028\u2029")
    assert decoded == decoded.strip()


@given(st.text(alphabet=st.sampled_from(list("ab@.<>\"é") + [" ", "\t", "\n", "\x1f", "\x85", "\u00a0", "\u2003",
                                                             "\u3000", "\u200b", "\ufeff"]), max_size=12))
def test_an_address_has_white_space_exactly_when_a_character_is_one(text: str) -> None:
    from pbem.mail.reading import _has_space

    assert _has_space(text) == any(c.isspace() for c in text)


# --- caps on what is read (pbem.limits, issue #19)


def test_headers_are_read_within_their_caps() -> None:
    references = " ".join(f"<r{i}@x>" for i in range(100)) + " <" + "y" * 300 + "@x>"
    to = ", ".join(f"p{i}@example.org" for i in range(limits.MAX_ADDRESSES + 50))
    raw = (f"From: a@example.org\nTo: {to}\nSubject: {'s' * 5000}\nReferences: {references}\n"
           f"Message-ID: <{'m' * 300}@x>\nIn-Reply-To: <{'i' * 300}@x>\n"
           + "".join(f"Received: by relay{i}\n" for i in range(10))
           + "".join(f"Authentication-Results: mx{i}; dkim=pass\n" for i in range(limits.MAX_HEADER_VALUES + 10))
           + f"X-Mailer: {'z' * 40000}\n\nGUESS 3\n").encode()
    mail = read_message(raw)
    assert mail.text == "GUESS 3"
    assert len(mail.subject) == limits.MAX_SUBJECT_CHARS
    assert mail.references == tuple(f"<r{i}@x>" for i in range(80, 100))  # the last ones; the absurd one left out
    assert mail.message_id.endswith("@pbem.invalid>") and len(mail.message_id) < 100 and mail.in_reply_to == ""
    assert len(mail.to_addrs) == limits.MAX_ADDRESSES
    assert len(mail.headers["authentication-results"]) == limits.MAX_HEADER_VALUES
    assert mail.headers["authentication-results"][0] == "mx0; dkim=pass"  # the topmost ones
    assert len(mail.header("x-mailer")) == limits.MAX_HEADER_CHARS


def test_a_mail_whose_headers_pass_their_cap_is_read_for_its_headers_only() -> None:
    raw = b"From: a@example.org\nSubject: [TOY] x\n" + b"X-Pad: y\n" * (limits.MAX_HEADER_BYTES // 9 + 10) + b"\nGUESS 3\n"
    mail = read_message(raw)
    assert mail.from_addr == "a@example.org" and mail.subject == "[TOY] x" and mail.text == ""
    assert mail.problems[0] == f"too big: headers of more than {limits.MAX_HEADER_BYTES} bytes, the body not read"
    assert mail.size == len(raw)


def test_a_charset_name_python_does_not_ship_is_decoded_as_utf8() -> None:
    body = "é".encode()
    for charset in ("x-unknown", "punycode", "idna", "base64", "a" * 100, "utf-8\x00"):
        message = read_message(mail(BASIC, body, content_type=f"text/plain; charset=\"{charset}\""))
        assert message.text == "é", charset
    assert read_message(mail(BASIC, "é".encode("latin-1"), content_type="text/plain; charset=ISO_8859-1")).text == "é"
