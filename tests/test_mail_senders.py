"""pbem.mail.senders: loop guards, Authentication-Results verdicts, passwords."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from pbem.mail import authresults
from pbem.mail.reading import IncomingMail, read_message
from pbem.mail.senders import (
    auth_verdict,
    check_password,
    domains_align,
    is_automatic,
)

OWN = ("pourmabelle.lejeu@gmail.com",)
TRUSTED = ("mx.google.com",)


def incoming(
    *,
    from_addr: str = "alice.dupont@gmail.com",
    from_name: str = "Alice",
    subject: str = "[PMB] ordres",
    **headers: str | tuple[str, ...],
) -> IncomingMail:
    kept = {k.replace("_", "-"): (v if isinstance(v, tuple) else (v,)) for k, v in headers.items()}
    return IncomingMail(
        message_id="<x@y>",
        from_addr=from_addr,
        from_name=from_name,
        subject=subject,
        headers=MappingProxyType(kept),
    )


# --- is_automatic ---


def test_a_human_is_answered() -> None:
    assert is_automatic(incoming(return_path="<alice.dupont@gmail.com>", auto_submitted="no"), OWN) is None
    assert is_automatic(incoming(subject="[PMB] absence au tour 4"), OWN) is None
    assert is_automatic(incoming(precedence="normal"), OWN) is None


@pytest.mark.parametrize(
    ("mail", "category"),
    [
        (incoming(return_path="<>"), "bounce"),
        (incoming(return_path=""), "bounce"),
        (incoming(from_addr="MAILER-DAEMON@example.org".lower()), "bounce"),
        (incoming(from_addr="postmaster@orange.fr"), "bounce"),
        (incoming(from_name="Mail Delivery Subsystem", from_addr="x@googlemail.com"), "bounce"),
        (incoming(content_type="multipart/report; report-type=delivery-status; boundary=x"), "bounce"),
        (incoming(x_failed_recipients="a@b.c"), "bounce"),
        (incoming(subject="Undelivered Mail Returned to Sender"), "bounce"),
        (incoming(subject="Non remis : [PMB] Tour 3"), "bounce"),
        (incoming(auto_submitted="auto-replied"), "auto-reply"),
        (incoming(auto_submitted="auto-generated; owner-email=x@y"), "auto-reply"),
        (incoming(precedence="bulk"), "auto-reply"),
        (incoming(precedence="junk"), "auto-reply"),
        (incoming(precedence="list"), "auto-reply"),
        (incoming(x_autoreply="yes"), "auto-reply"),
        (incoming(x_autorespond="vacation"), "auto-reply"),
        (incoming(subject="Réponse automatique : [PMB] Tour 3"), "auto-reply"),
        (incoming(subject="RE: Automatic reply: [PMB] Tour 3"), "auto-reply"),
        (incoming(subject="Out of Office: [PMB]"), "auto-reply"),
        (incoming(subject="Absence"), "auto-reply"),
        (incoming(subject="Absence : retour le 20"), "auto-reply"),
        (incoming(subject="Message d'absence"), "auto-reply"),
        (incoming(list_id="<jdr.lists.example.org>"), "list"),
        (incoming(list_unsubscribe="<mailto:leave@x>"), "list"),
        (incoming(x_pbem_game="pmb1"), "own"),
        (incoming(from_addr="pourmabelle.lejeu@gmail.com"), "own"),
        (incoming(from_addr="pourmabelle.lejeu+pmb1@gmail.com"), "own"),
    ],
)
def test_automatic_mail_is_not_answered(mail: IncomingMail, category: str) -> None:
    reason = is_automatic(mail, OWN)
    assert reason is not None and reason.split(":")[0] == category


def test_own_addresses_are_normalised() -> None:
    assert is_automatic(incoming(from_addr="mj@example.org"), [" <MJ@Example.org> "]) is not None
    assert is_automatic(incoming(from_addr="mj@example.org"), []) is None


def test_is_automatic_on_read_messages() -> None:
    vacation = read_message(
        b"From: K <k@orange.fr>\nSubject: =?UTF-8?Q?R=C3=A9ponse_automatique_:_x?=\nAuto-Submitted: auto-replied\n\nabsent\n"
    )
    assert (is_automatic(vacation, OWN) or "").startswith("auto-reply")
    human = read_message(b"From: K <k@orange.fr>\nSubject: [PMB] x\nAuto-Submitted: no\n\nVOTE\n")
    assert is_automatic(human, OWN) is None


# --- Authentication-Results ---

GMAIL_PASS = (
    "mx.google.com;\r\n       dkim=pass header.i=@gmail.com header.s=20161025 header.b=Qk3xZ2aB;\r\n"
    "       spf=pass (google.com: domain of alice.dupont@gmail.com designates 209.85.220.41 as permitted sender;"
    " more) smtp.mailfrom=alice.dupont@gmail.com;\r\n"
    "       dmarc=pass (p=NONE sp=QUARANTINE dis=NONE) header.from=gmail.com"
)


def test_parse_authentication_results() -> None:
    header = authresults.parse(GMAIL_PASS)
    assert header.authserv_id == "mx.google.com"
    results = header.results
    assert [(r.method, r.result) for r in results] == [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")]
    assert results[0].values("header.i") == ("@gmail.com",)
    assert results[1].values("smtp.mailfrom") == ("alice.dupont@gmail.com",)
    assert authresults.parse("mx.example 1; none") == authresults.Header("mx.example", "1", ())
    with pytest.raises(authresults.AuthResError):
        authresults.parse("")


def test_gmail_pass() -> None:
    verdict = auth_verdict(incoming(authentication_results=GMAIL_PASS), TRUSTED, "dkim")
    assert verdict.ok and (verdict.dkim, verdict.spf) == ("pass", "pass")
    assert auth_verdict(incoming(authentication_results=GMAIL_PASS), TRUSTED, "spf").ok


@pytest.mark.parametrize(
    ("header", "require", "ok", "dkim", "spf"),
    [
        ("mx.google.com; dkim=pass header.d=gmail.com", "dkim", True, "pass", "none"),
        ("mx.google.com; dkim=pass header.d=evil.example", "dkim", False, "unaligned", "none"),
        (
            "mx.google.com; dkim=pass header.d=evil.example; dkim=pass header.d=gmail.com",
            "dkim",
            True,
            "pass",
            "none",
        ),
        (
            "mx.google.com; dkim=fail header.d=gmail.com; spf=pass smtp.mailfrom=a@gmail.com",
            "dkim",
            False,
            "fail",
            "pass",
        ),
        (
            "mx.google.com; dkim=fail header.d=gmail.com; spf=pass smtp.mailfrom=a@gmail.com",
            "dkim_or_spf",
            True,
            "fail",
            "pass",
        ),
        ("mx.google.com; spf=pass smtp.mailfrom=bounce@evil.example", "spf", False, "none", "unaligned"),
        ("mx.google.com; spf=softfail smtp.mailfrom=a@gmail.com", "spf", False, "none", "fail"),
        ("mx.google.com; spf=pass smtp.mailfrom=gmail.com", "spf", True, "none", "pass"),
        ("mx.google.com; dkim=pass header.d=com", "dkim", False, "unaligned", "none"),
        ("mx.google.com; none", "dkim_or_spf", False, "none", "none"),
        ("MX.Google.Com; DKIM=PASS header.d=GMAIL.COM", "dkim", True, "pass", "none"),
        # header.d is the signing domain; header.i counts only without it
        ("mx.google.com; dkim=pass header.d=evil.example header.i=@gmail.com", "dkim", False, "unaligned", "none"),
        ("mx.google.com; dkim=pass header.i=@gmail.com", "dkim", True, "pass", "none"),
        # one result vouching for two domains vouches for none; a value that is no domain aligns with nothing
        ("mx.google.com; dkim=pass header.d=gmail.com header.d=evil.example", "dkim", False, "unaligned", "none"),
        ("mx.google.com; dkim=pass header.d=header.i=@gmail.com", "dkim", False, "unaligned", "none"),
        ('mx.google.com; spf=pass smtp.mailfrom="x@gmail.com"@evil.example', "spf", False, "none", "unaligned"),
        # the server's own DMARC verdict: a fail refuses, whatever DKIM and SPF say
        ("mx.google.com; dkim=pass header.d=gmail.com; dmarc=fail header.from=gmail.com", "dkim", False, "pass",
         "none"),
        ("mx.google.com; dkim=pass header.d=gmail.com; dmarc=fail", "dkim", False, "pass", "none"),
        ("mx.google.com; dkim=pass header.d=gmail.com; dmarc=none header.from=gmail.com", "dkim", True, "pass",
         "none"),
    ],
)
def test_alignment(header: str, require: str, ok: bool, dkim: str, spf: str) -> None:
    verdict = auth_verdict(incoming(authentication_results=header), TRUSTED, require)
    assert (verdict.ok, verdict.dkim, verdict.spf) == (ok, dkim, spf), verdict.reason


def test_subdomain_alignment() -> None:
    mail = incoming(
        from_addr="a@example.org", authentication_results="mx.google.com; dkim=pass header.d=mail.example.org"
    )
    assert auth_verdict(mail, TRUSTED, "dkim").ok
    assert domains_align("example.org", "lists.example.org")
    assert not domains_align("example.org", "badexample.org")


def test_untrusted_authserv_id_is_ignored() -> None:
    mail = incoming(
        authentication_results="evil.example; dkim=pass header.d=gmail.com; spf=pass smtp.mailfrom=gmail.com"
    )
    verdict = auth_verdict(mail, TRUSTED, "dkim_or_spf")
    assert not verdict.ok and "trusted" in verdict.reason


def test_only_the_topmost_header_counts() -> None:
    forged_below = incoming(
        authentication_results=(
            "mx.google.com; dkim=fail header.d=gmail.com; spf=fail smtp.mailfrom=a@gmail.com",
            "mx.google.com; dkim=pass header.d=gmail.com; spf=pass smtp.mailfrom=a@gmail.com",
        )
    )
    assert not auth_verdict(forged_below, TRUSTED, "dkim_or_spf").ok
    untrusted_on_top = incoming(
        authentication_results=(
            "relay.example; dkim=fail header.d=gmail.com",
            "mx.google.com; dkim=pass header.d=gmail.com",
        )
    )
    # a trusted header below an untrusted one may have been written by the sender: never believed
    verdict = auth_verdict(untrusted_on_top, TRUSTED, "dkim")
    assert not verdict.ok and "written by relay.example, not by a trusted server" in verdict.reason
    assert auth_verdict(untrusted_on_top, ["relay.example", "mx.google.com"], "dkim").ok is False


def test_a_header_that_does_not_read_is_refused_saying_why() -> None:
    verdict = auth_verdict(incoming(authentication_results="mx.google.com; dkim=pass (unclosed"), TRUSTED, "dkim")
    assert not verdict.ok and verdict.reason == "topmost Authentication-Results unreadable: unclosed comment at " \
                                                "character 26"
    verdict = auth_verdict(incoming(), TRUSTED, "dkim")
    assert not verdict.ok and verdict.reason == "no Authentication-Results header"


def test_a_strange_authserv_id_is_not_repeated_in_the_reason() -> None:
    mail = incoming(authentication_results='"see http://phish.example"; dkim=pass header.d=gmail.com')
    verdict = auth_verdict(mail, TRUSTED, "dkim")
    assert not verdict.ok and "written by ?, not by a trusted server" in verdict.reason and "phish" not in verdict.reason


def test_requirements() -> None:
    assert auth_verdict(incoming(), TRUSTED, "none").ok
    assert not auth_verdict(incoming(from_addr="", authentication_results=GMAIL_PASS), TRUSTED, "dkim").ok
    with pytest.raises(ValueError):
        auth_verdict(incoming(), TRUSTED, "dmarc-ish")


# --- passwords ---


def test_password_not_required() -> None:
    assert check_password("MOTDEPASSE secret\nVOTE Pour X", None) == (True, "VOTE Pour X")
    assert check_password("VOTE Pour X", None) == (True, "VOTE Pour X")


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("MOTDEPASSE licorne\nVOTE Pour X", True),
        ("VOTE Pour X\n  motdepasse   licorne  ", True),
        ("Password: licorne\nVOTE Pour X", True),
        ("MOT DE PASSE : licorne\nVOTE Pour X", True),
        ("MOTDEPASSE Licorne\nVOTE Pour X", False),
        ("VOTE Pour X", False),
        ("MOTDEPASSE licorne\nPASSWORD autre\nVOTE Pour X", False),
    ],
)
def test_password_required(text: str, ok: bool) -> None:
    result, rest = check_password(text, "licorne")
    assert result is ok
    assert rest.strip() == "VOTE Pour X"


def test_password_line_needs_a_value() -> None:
    assert check_password("PASSWORDS are fun", "x") == (False, "PASSWORDS are fun")
