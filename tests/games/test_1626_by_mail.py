"""1626 through the platform: tests asked by mail are answered at once, to the player and the MJ;
secret tests reach the MJ only; MJ orders and typos get the right answer."""

from __future__ import annotations

import email
import mailbox
from email.policy import default

from pbem.demo import demo_1626


def _mails(root):
    box = mailbox.Maildir(str(root / "mail" / "outbox"), create=False)
    out = []
    for key in sorted(box.keys()):
        m = email.message_from_bytes(box.get_bytes(key), policy=default)
        out.append((str(m["To"]), str(m["X-PBEM-Kind"]), m.get_body(("plain",)).get_content().replace("\r\n", "\n")
                    .replace("\u00a0", " ")))  # French non-breaking spaces read as spaces
    return out


def test_1626_session_by_mail(tmp_path):
    lines = demo_1626(tmp_path / "1626")
    assert any("game gant: running" in line for line in lines)
    mails = _mails(tmp_path / "1626")
    armand = [body for to, kind, body in mails if to == "joueur0@example.org" and kind == "ack"]
    tests = next(b for b in armand if "TEST Escrime AG SR 15" in b)
    assert "Escrime / Agilité (SR 15, Assez difficile)" in tests and "2d6+2" in tests  # Armand is a master
    last = next(b for b in armand if "TEST Eloquence CH SR 14" in b)  # Maildir names do not sort by time
    assert "FIN\n    -> OK : fin des ordres" in last and "Cordialement" not in last
    henri = next(b for to, kind, b in mails if to == "joueur2@example.org" and kind == "ack" and "Eloquance" in b)
    assert "vouliez-vous dire Eloquence ?" in henri
    # the MJ's secret test: the MJ sees the numbers, Isaac only learns that a roll happened
    mj_ack = next(b for to, kind, b in mails if to == "mj@example.org" and kind == "ack" and "SECRET" in b)
    assert "Vigilance / Perception (SR 17" in mj_ack
    isaac = [b for to, kind, b in mails if to == "joueur1@example.org" and kind == "private"]
    assert any("lancé en secret" in b for b in isaac)
    assert not any("Vigilance / Perception (SR 17" in b for b in isaac)
    # every public test result also reaches the MJ at once
    digests = [b for to, kind, b in mails if to == "mj@example.org" and kind == "digest"]
    assert any("Escrime / Agilité (SR 15" in b for b in digests)
