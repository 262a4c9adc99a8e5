"""The outbox composer: hand-built bytes equal to what `EmailMessage` + `policy.SMTP` makes, and parse back."""

from __future__ import annotations

import email
import random
from datetime import UTC, datetime, timedelta, timezone
from email.policy import default

import pytest

from pbem.outbox import Letter, compose, compose_slow

NOW = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)

WORDS = ["ordres", "Re:", "[PMB]", "tour", "1", "réponse", "—", "Héloïse", "ESCOUADE", "=", "=?utf-8?q?x?=",
         "a" * 80, "x@y", "«", "»", "ENQUÊTE", "d'Aubigné", "Fwd:", "(tour", "2)", "\t", "🐉", "TOY", ";", '"q"']
BODY_LINES = ["Bonjour Héloïse,", "", "Vos ordres pour le tour 1 :", "  ESCOUADE Aymeric de Montfort : OK",
              "  ENQUETE = ? : erreur", "x" * 77, "y" * 78, "z" * 79, "w" * 200, "trailing space ", "tab\t",
              "From the start", ".", "é" * 40, "\u00a0insécable", "a=b", "=" * 90, "ligne\rcr", "🐉 dragon",
              "    indentation", "fin"]


def _letter(rng: random.Random, i: int) -> Letter:
    subject = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 14)))
    body = "\n".join(rng.choice(BODY_LINES) for _ in range(rng.randint(0, 12)))
    if rng.random() < 0.3:
        body += "\n"
    if rng.random() < 0.2:
        body += " "
    reply = rng.random() < 0.6
    refs = tuple(f"<ref{j}.{rng.randrange(10**9)}@mail.example.org>" for j in range(rng.randint(0, 12))) if reply else ()
    to = rng.choice(["p01@pbem.test", "Joueur.Un+pmb@example.org", "x@example.org", "Héloïse <h@example.org>",
                     "weird@[127.0.0.1]", "a.b@c"])
    irt = rng.choice(["<abc@x.org>", "<CAF=3DoW+x@mail.gmail.com>", "<" + "k" * 90 + "@x.org>", "<a b@c>",
                      "<é@x.org>"]) if reply else None
    kind = rng.choice(["ack", "private", "public", "digest", "reminder", "notice"])
    return Letter(f"key-{i}", rng.choice(["pmb1", "toy1"]), rng.randint(0, 30), kind, to, subject, body,
                  in_reply_to=irt, references=refs)


@pytest.mark.parametrize("seed", range(4))
def test_fast_compose_is_byte_identical_to_email_message(seed):
    rng = random.Random(seed)
    names = ["Pour Ma Belle", "1626, le gant et l'épée", "pbem", "Intrigue", 'Le "MJ"']
    for i in range(500):
        letter = _letter(rng, i)
        now = NOW + timedelta(minutes=rng.randrange(10**6))
        if rng.random() < 0.3:
            now = now.astimezone(timezone(timedelta(hours=1)))
        name = rng.choice(names)
        assert compose(letter, sender="jeu@pbem.test", sender_name=name, now=now) == \
            compose_slow(letter, sender="jeu@pbem.test", sender_name=name, now=now), letter


def test_composed_mail_parses_back_to_the_same_headers_and_body():
    letter = Letter("ack-1", "pmb1", 3, "ack", "p01@pbem.test", "[PMB] Re: mes ordres — tour 3 (Héloïse)",
                    "Bonjour Héloïse,\n\nESCOUADE Aymeric de Montfort : OK\n" + "é" * 100 + "\nfin \n",
                    in_reply_to="<abc@mail.example.org>", references=("<r1@x.org>",))
    mid, raw = compose(letter, sender="jeu@pbem.test", sender_name="Pour Ma Belle", now=NOW)
    assert raw.isascii() and all(len(line) <= 78 for line in raw.split(b"\r\n"))
    msg = email.message_from_bytes(raw, policy=default)
    assert msg["Subject"] == letter.subject
    assert msg["To"] == letter.to
    assert msg["From"] == "Pour Ma Belle <jeu@pbem.test>"
    assert msg["Message-ID"] == mid
    assert msg["In-Reply-To"] == "<abc@mail.example.org>"
    assert msg["References"] == "<r1@x.org> <abc@mail.example.org>"
    assert msg["Date"] == "Fri, 04 Dec 2026 19:00:00 +0000"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert (msg["X-PBEM-Game"], msg["X-PBEM-Turn"], msg["X-PBEM-Kind"]) == ("pmb1", "3", "ack")
    assert msg.get_content_type() == "text/plain" and msg.get_content_charset() == "utf-8"
    assert msg.get_content().replace("\r\n", "\n") == letter.body
    assert not msg.defects


def test_header_folding_matches_the_email_package():
    import string

    from pbem.outbox.compose import _email_header_line, _header_line

    rng = random.Random(1)
    for _ in range(5000):
        words = ["".join(rng.choice(string.ascii_letters + '<>@.;()"[],:=?') for _ in range(
            rng.choice([1, 2, 5, 10, 20, 35, 60, 70, 75, 76, 77, 80]))) for _ in range(rng.randint(1, 12))]
        value = " ".join(words)
        name = rng.choice(["References", "In-Reply-To", "Subject", "X-PBEM-Game"])
        assert _header_line(name, value) == _email_header_line(name, value), (name, value)


def test_display_names_with_commas_and_accents_stay_one_address():
    import email
    from email.policy import default

    from pbem.outbox import Letter, compose

    letter = Letter("k", "gant", 1, "ack", "p@x.org", "Re: test", "ok\n")
    _, raw = compose(letter, sender="jeu@x.org", sender_name="1626, le gant et l'épée", now=NOW)
    msg = email.message_from_bytes(raw, policy=default)
    (addr,) = msg["From"].addresses
    assert addr.display_name == "1626, le gant et l'épée" and addr.addr_spec == "jeu@x.org"


@pytest.mark.parametrize("seed", range(3))
def test_every_subject_reads_back_exactly_as_written(seed):
    """The email package's own folding loses the space between two encoded words (« résultatstrès »):
    such subjects are encoded whole, so the player's client shows exactly what pbem wrote."""
    rng = random.Random(seed)
    words = ["vos", "résultats", "très", "longs", "—", "Tour", "12", "[PMB]", "RECTIFICATIF", ":", "éèà",
             "d'Athos", "n°", "4", "Mme", "la", "Duchesse", "de", "Fourberye", "«", "»", "\u00a0:", "ordres"]
    for i in range(400):
        subject = " ".join(rng.choice(words) for _ in range(rng.randint(1, 22))).strip()  # as pbem trims it
        letter = Letter(f"s{i}", "pmb1", 1, "private", "p01@pbem.test", subject, "corps")
        _mid, raw = compose(letter, sender="jeu@pbem.test", sender_name="Pour Ma Belle", now=NOW)
        assert email.message_from_bytes(raw, policy=default)["Subject"] == subject
        assert max(len(line) for line in raw.split(b"\r\n\r\n")[0].split(b"\r\n")) <= 78


def test_a_long_accented_subject_keeps_its_spaces():
    subject = "RECTIFICATIF : [PMB] Tour 12 — vos résultats très longs avec des accents éèà et la suite"
    letter = Letter("s", "pmb1", 1, "private", "p01@pbem.test", subject, "corps")
    for make in (compose, compose_slow):
        _mid, raw = make(letter, sender="jeu@pbem.test", sender_name="Pour Ma Belle", now=NOW)
        assert email.message_from_bytes(raw, policy=default)["Subject"] == subject
