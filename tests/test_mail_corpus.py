"""Every message of tests/fixtures/mail/ is read, and checked against the README's verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.reading import IncomingMail, plus_tag, read_message, subject_tags
from pbem.mail.senders import auth_verdict, is_automatic

CORPUS = Path(__file__).parent / "fixtures" / "mail"
OWN = ("pourmabelle.lejeu@gmail.com",)
TRUSTED = ("mx.google.com",)

TWO_ORDERS_GMAIL = "ESCOUADE ser Schlingue, dame Ombeline\nVOTE Pour ser Schlingue"

# file -> expected cleaned text (None: not checked), loop-guard category (None: a human), auth ok (None: not checked)
EXPECTED: dict[str, tuple[str | None, str | None, bool | None]] = {
    "01_gmail_reply_fr.eml": (TWO_ORDERS_GMAIL, None, True),
    "02_outlook_reply_fr.eml": (
        "ESCOUADE dame Ombeline\nSOUTIEN ser Schlingue\n\nCordialement,\nBernard",
        None,
        False,
    ),
    "03_outlook_reply_en.eml": ("VOTE Contre dame Ombeline", None, False),
    "04_apple_mail_fr.eml": ("VOTE Contre dame Ombeline", None, None),
    "05_thunderbird_fr.eml": (
        "ESCOUADE ser Schlingue, dame Ombeline, messire Bertrand\nVOTE Pour messire Bertrand",
        None,
        None,
    ),
    "06_iphone.eml": ("CIBLE dame Ombeline", None, None),
    "07_html_only_gmail.eml": (
        "ESCOUADE ser Schlingue, dame Ombeline d'Aigremont\nVOTE Pour Sér Schlingue",
        None,
        True,
    ),
    "08_multipart_alternative.eml": ("VOTE Pour ser Schlingue\nCIBLE messire Bertrand", None, True),
    "09_base64_body.eml": ("ESCOUADE Sér Schlingue, Dame Ombeline\nFIN", None, True),
    "10_quoted_printable.eml": (
        "ESCOUADE messire Bertrand de la Tour-Prévôté, dame Ombeline d'Aigremont, ser Schlingue le Bref, Édouard",
        None,
        True,
    ),
    "11_iso_8859_1.eml": ("ESCOUADE dame Ombeline, ser Schlingue\nVOTE Contre le Régent élu", None, None),
    "12_windows_1252.eml": ("CIBLE l’œil du Régent — 5 €", None, None),
    "13_unknown_charset.eml": ("VOTE Pour ser Schlingue à l'unanimité", None, None),
    "14_empty.eml": ("", None, False),
    "15_whitespace_only.eml": ("", None, None),
    "16_big_attachment.eml": ("ESCOUADE ser Schlingue\nCi-joint la carte.", None, True),
    "17_bounce_dsn.eml": (None, "bounce", None),
    "18_vacation_autoreply.eml": (None, "auto-reply", None),
    "19_newsletter_bulk.eml": (None, "auto-reply", None),
    "20_mailing_list.eml": (None, "list", None),
    "21_forged_from.eml": ("VOTE Contre ser Schlingue", None, False),
    "22_gmail_dkim_pass.eml": ("VOTE Pour ser Schlingue", None, True),
    "23_header_injection_name.eml": ("VOTE Pour ser Schlingue", None, False),
    "24_template_injection.eml": (
        "INSCRIPTION {{ 7*7 }}\nVOTE Pour {% raw %}{{ config }}{% endraw %}",
        None,
        None,
    ),
    "25_bbcode_registration.eml": ("INSCRIPTION [url=http://evil.example/]ser Schlingue[/url]", None, None),
    "26_fin_signature_junk.eml": ("VOTE Pour ser Schlingue\nCIBLE dame Ombeline\nFin.", None, True),
    "27_orders_after_signature.eml": ("VOTE Pour ser Schlingue", None, True),
    "28_inscription.eml": ("INSCRIPTION ser Schlingue\n\nBonjour, je m'inscris !", None, True),
    "29_participer.eml": ("Bonjour,\n\nJe souhaite participer à ce jeu.\n\nBertrand", None, None),
    "30_accents_odd_case.eml": ("escouade Sér Schlingue, DAME ombeline\nVoTe pOuR sér schlingue", None, True),
    "31_own_mail.eml": (None, "own", None),
    "32_no_from.eml": ("VOTE Pour ser Schlingue", None, False),
    "33_crlf.eml": ("ESCOUADE ser Schlingue\nVOTE Pour dame Ombeline", None, True),
    "34_lf.eml": ("ESCOUADE ser Schlingue\nVOTE Pour dame Ombeline", None, True),
    "35_long_line.eml": ("CIBLE dame Ombeline\n" + ("Le blabla " * 10_000).rstrip(), None, True),
    "36_forwarded_rfc822.eml": (
        "Voici mes ordres du tour précédent, transférés.\nVOTE Pour ser Schlingue",
        None,
        None,
    ),
    "37_delivered_to_plus.eml": ("VOTE Pour ser Schlingue", None, None),
    "38_garbage.eml": (None, None, False),
    "39_truncated.eml": ("VOTE Pour ser Schlingue\nCIBLE dame Ombeline", None, True),
    "40_outlook_original_message_en.eml": ("VOTE Pour dame Ombeline", None, None),
    "41_gmail_inline_forward.eml": ("Je renvoie mes ordres :", None, True),
    "42_outlook_html_fr.eml": ("ESCOUADE dame Ombeline\nVOTE Contre ser Schlingue", None, None),
    "43_postmaster_bounce.eml": (None, "bounce", None),
    "44_outlook_autoreply_en.eml": (None, "auto-reply", None),
    "45_password.eml": ("MOTDEPASSE licorne\nVOTE Pour ser Schlingue", None, True),
    "46_utf8_raw_headers.eml": ("VOTE Pour ser Schlingue", None, None),
}

FILES = sorted(p.name for p in CORPUS.glob("*.eml"))


def read(name: str) -> IncomingMail:
    return read_message((CORPUS / name).read_bytes())


def test_corpus_is_complete() -> None:
    assert len(FILES) >= 34
    assert set(FILES) == set(EXPECTED), "every .eml needs an expectation (and every expectation a file)"
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    for name in FILES:
        assert f"`{name}`" in readme


@pytest.mark.parametrize("name", FILES)
def test_corpus_message(name: str) -> None:
    mail = read(name)
    text, category, auth_ok = EXPECTED[name]
    assert mail.size == (CORPUS / name).stat().st_size
    assert mail.message_id.startswith("<") and mail.message_id.endswith(">")
    assert "\n" not in mail.subject and "\r" not in mail.subject
    assert "\n" not in mail.from_name and "\r" not in mail.from_name
    if text is not None:
        assert mail.text == text
    reason = is_automatic(mail, OWN)
    if category is None:
        assert reason is None
    else:
        assert reason is not None and reason.split(":")[0] == category
    if auth_ok is not None:
        assert auth_verdict(mail, TRUSTED, "dkim_or_spf").ok is auth_ok


def test_gmail_reply_headers() -> None:
    mail = read("01_gmail_reply_fr.eml")
    assert mail.from_addr == "alice.dupont@gmail.com"
    assert mail.from_name == "Alice Dupont"
    assert mail.subject == "Re: [PMB] Tour 3"
    assert subject_tags(mail.subject) == ["pmb"]
    assert mail.in_reply_to == "<pmb1.turn3@pbem.example>"
    assert mail.references == ("<pmb1.turn2@pbem.example>", "<pmb1.turn3@pbem.example>")
    assert mail.delivered_to == ("pourmabelle.lejeu@gmail.com",)
    assert "a écrit" in mail.raw_text and "> Tour 3" in mail.raw_text
    assert mail.problems == ()


def test_outlook_subject_with_nbsp_prefix() -> None:
    mail = read("02_outlook_reply_fr.eml")
    assert mail.subject == "RE : [PMB] Tour 3"
    assert subject_tags(mail.subject) == ["pmb"]


def test_header_injection_stays_on_one_line() -> None:
    mail = read("23_header_injection_name.eml")
    assert mail.from_addr == "alice.dupont@gmail.com"
    assert mail.from_name == "Alice Bcc: victim@example.com X-Evil: 1"
    assert mail.subject == "[PMB] ordres Bcc: victim@example.com"
    assert mail.to_addrs == ("pourmabelle.lejeu@gmail.com",)


def test_template_syntax_is_plain_text() -> None:
    mail = read("24_template_injection.eml")
    assert mail.from_name == "{{ 7*7 }} {% raw %}"
    assert mail.subject == "[PMB] {{ 7*7 }}"


def test_charsets_in_headers() -> None:
    assert read("11_iso_8859_1.eml").subject == "[PMB] ordres tour 3 été"
    assert read("11_iso_8859_1.eml").from_name == "Gérard Lemaire"
    assert read("04_apple_mail_fr.eml").from_name == "Dorothée Lefèvre"
    raw8 = read("46_utf8_raw_headers.eml")
    assert (raw8.from_name, raw8.subject) == ("Hélène Côté", "[PMB] ordres été")
    assert any("x-klingon" in p for p in read("13_unknown_charset.eml").problems)


def test_crlf_and_lf_read_alike() -> None:
    crlf, lf = read("33_crlf.eml"), read("34_lf.eml")
    assert (crlf.text, crlf.raw_text, crlf.subject, crlf.headers) == (
        lf.text,
        lf.raw_text,
        lf.subject,
        lf.headers,
    )


def test_bcc_routing_by_plus_address() -> None:
    mail = read("37_delivered_to_plus.eml")
    assert mail.to_addrs == ("alice.dupont@gmail.com",)
    assert mail.delivered_to == ("pourmabelle.lejeu+pmb1@gmail.com",)
    assert [plus_tag(a) for a in mail.recipients] == ["pmb1", None]
    assert subject_tags(mail.subject) == []


def test_degenerate_messages() -> None:
    empty = read("14_empty.eml")
    assert empty.problems == ("empty message",) and empty.message_id.endswith("@pbem.invalid>")
    assert "no From address" in read("32_no_from.eml").problems
    assert read("32_no_from.eml").message_id.endswith("@pbem.invalid>")
    assert any("defects" in p for p in read("39_truncated.eml").problems)
    big = read("16_big_attachment.eml")
    assert big.size > 4_000_000 and big.problems == ()


def test_loop_guard_headers_are_kept() -> None:
    forged = read("21_forged_from.eml")
    assert len(forged.headers["authentication-results"]) == 2
    assert forged.headers["authentication-results"][0].startswith("mx.google.com; dkim=fail")
    own = read("31_own_mail.eml")
    assert own.header("X-PBEM-Game") == "pmb1" and own.header("x-pbem-kind") == "ack"
    assert read("17_bounce_dsn.eml").header("content-type").startswith("multipart/report")
    assert read("17_bounce_dsn.eml").header("return-path") == "<>"


def test_forged_authentication_results_below_ours_are_ignored() -> None:
    verdict = auth_verdict(read("21_forged_from.eml"), TRUSTED, "dkim_or_spf")
    assert (verdict.ok, verdict.dkim, verdict.spf) == (False, "fail", "fail")
