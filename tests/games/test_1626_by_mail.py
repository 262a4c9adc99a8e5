"""1626 through the platform (the real engine, Maildir in and out, simulated time): the MJ sets the SR
of the tests players ask for, secret tests reveal nothing to the player, opposed tests reach both
players, wounds show on the sheet."""

from __future__ import annotations

import email
import mailbox
import re
from email.policy import default
from pathlib import Path

from pbem.demo import MJ_ADDRESS, SEED, Demo, demo_1626

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = {"Armand": "joueur0@example.org", "Isaac": "joueur1@example.org", "Henri": "joueur2@example.org",
           "Charles": "joueur3@example.org"}


class Mails:
    """The outbox, read again after each tick: (to, kind, subject, body) of the mails not seen yet.

    French non-breaking spaces read as plain spaces, so that the texts below are written as typed."""

    def __init__(self, root: Path) -> None:
        self.box = mailbox.Maildir(str(root / "mail" / "outbox"), create=False)
        self.seen: set[str] = set()

    def new(self) -> list[tuple[str, str, str, str]]:
        out = []
        for key in sorted(self.box.keys()):
            if key in self.seen:
                continue
            self.seen.add(key)
            m = email.message_from_bytes(self.box.get_bytes(key), policy=default)
            body = m.get_body(("plain",)).get_content().replace("\r\n", "\n").replace("\u00a0", " ")
            out.append((str(m["To"]), str(m["X-PBEM-Kind"]), str(m["Subject"]).replace("\u00a0", " "), body))
        return out


def _start(tmp_path: Path, **options: object) -> tuple[Demo, Mails]:
    d = Demo(tmp_path / "1626", "gant", {"ruleset": "1626", "tag": "1626", "registration": "1d",
                                         "roster": str(ROOT / "data/1626/personnages.toml"), "options": options})
    d.engine.new_game("gant", d.now, seed=SEED)
    for name, address in PLAYERS.items():
        d.mail(address, f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.engine.start_game("gant", d.now)
    d.tick()
    mails = Mails(d.root)
    mails.new()
    return d, mails


def _one(mails: list[tuple[str, str, str, str]], to: str, kind: str) -> tuple[str, str]:
    found = [(s, b) for t, k, s, b in mails if t == to and k == kind]
    assert len(found) == 1, (to, kind, [(t, k, s) for t, k, s, _ in mails])
    return found[0]


def test_1626_a_players_test_reaches_the_MJ_who_answers_with_the_SR(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(PLAYERS["Henri"], "TEST Théologie EDU", "un test")
    d.tick()
    sent = mails.new()
    _, ack = _one(sent, PLAYERS["Henri"], "ack")
    assert "Votre demande de test n° 1 (Théologie/EDU) est transmise au MJ, qui fixe le SR" in ack
    _, digest = _one(sent, MJ_ADDRESS, "digest")
    assert "Demande n° 1 : Henri d'Aramitz demande un test de Théologie/EDU." in digest
    assert "Répondez « SR 15 n° 1 »" in digest
    # the MJ answers from his phone, one line
    d.mail(MJ_ADDRESS, "SR 17", "Re: [1626] TEST Théologie EDU")
    d.tick()
    sent = mails.new()
    _, mj_ack = _one(sent, MJ_ADDRESS, "ack")
    assert "Henri d'Aramitz, test n° 1 de Théologie / Éducation (SR 17, Difficile) : 9 + 8 + 2d6" in mj_ack
    _, private = _one(sent, PLAYERS["Henri"], "private")
    assert "test n° 1 de Théologie / Éducation (SR 17, Difficile)" in private
    d.close()


def test_1626_a_secret_test_tells_the_player_only_that_a_test_happened(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(MJ_ADDRESS, "TEST Isaac Vigilance PE SR 23 SECRET", "MJ")
    d.tick()
    sent = mails.new()
    _, mj_ack = _one(sent, MJ_ADDRESS, "ack")
    assert "[Test secret] Isaac de Porthau, test n° 1 de Vigilance / Perception (SR 23, Impossible)" in mj_ack
    subject, body = _one(sent, PLAYERS["Isaac"], "private")
    assert "Isaac de Porthau, test n° 1 lancé en secret : seul le MJ en connaît le résultat." in body
    for text in (subject, body):
        assert not re.search(r"vigilance|perception|\bPE\b|\b23\b|impossible", text, re.IGNORECASE), text
    # a secret request the player makes: the MJ's answer does not reveal the SR either
    d.mail(PLAYERS["Henri"], "TEST Baratin CH SECRET", "test")
    d.tick()
    mails.new()
    d.mail(MJ_ADDRESS, "SR 21 Henri", "Re: test")
    d.tick()
    subject, body = _one(mails.new(), PLAYERS["Henri"], "private")
    assert "test n° 2 lancé en secret" in body
    for text in (subject, body):
        assert not re.search(r"baratin|charisme|\bCH\b|\b21\b", text, re.IGNORECASE), text
    # POUR: the engine tells the ruleset the MJ wrote it (author=MJ): the test is rolled at once, in secret
    d.mail(MJ_ADDRESS, "POUR Isaac : TEST Vigilance PE SR 23 SECRET", "MJ")
    d.tick()
    isaac = [(s, b) for to, kind, s, b in mails.new() if to == PLAYERS["Isaac"]]
    assert [b.splitlines()[-1] for _, b in isaac] == [
        "Isaac de Porthau, test n° 3 lancé en secret : seul le MJ en connaît le résultat."]
    for subject, body in isaac:
        for text in (subject, body):
            assert not re.search(r"vigilance|perception|\bPE\b|\b23\b", text, re.IGNORECASE), text
    d.close()


def test_1626_an_opposed_test_reaches_both_players(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(PLAYERS["Armand"], "TEST Escrime AG CONTRE Isaac", "duel")
    d.tick()
    sent = mails.new()
    assert "Armand de Sillègue d'Athos demande un test d'Escrime/AG contre Isaac de Porthau (Escrime/AG)" in _one(
        sent, MJ_ADDRESS, "digest")[1]
    d.mail(MJ_ADDRESS, "LANCER", "Re: duel")
    d.tick()
    sent = mails.new()
    _, armand = _one(sent, PLAYERS["Armand"], "private")
    _, isaac = _one(sent, PLAYERS["Isaac"], "private")
    for body in (armand, isaac):
        assert "Test n° 1, en opposition : Armand de Sillègue d'Athos, Escrime / Agilité : 7 + 9 + 2d6+2" in body
        assert "contre Isaac de Porthau, Escrime / Agilité : 5 + 7 + d10" in body
    d.close()


def test_1626_wounds_and_care_show_on_the_sheet(tmp_path: Path) -> None:
    d, mails = _start(tmp_path)
    d.mail(MJ_ADDRESS, "BLESSURE Charles 9", "MJ")
    d.tick()
    _, private = _one(mails.new(), PLAYERS["Charles"], "private")
    assert "Blessure de Charles de Batz : − 9 PV ; il lui reste 19 PV sur 28." in private
    d.mail(PLAYERS["Charles"], "FICHE", "fiche")
    d.tick()
    _, ack = _one(mails.new(), PLAYERS["Charles"], "ack")
    assert "Points de vie : 19 sur 28 (EN × 4 + BR)" in ack and "Chance inouïe : 2 restantes sur 2" in ack
    d.close()


def test_1626_players_may_set_the_SR_when_the_table_allows_it(tmp_path: Path) -> None:
    d, mails = _start(tmp_path, sr_by="player")
    d.mail(PLAYERS["Armand"], "TEST Escrime AG SR 15", "test")
    d.tick()
    sent = mails.new()
    _, ack = _one(sent, PLAYERS["Armand"], "ack")
    assert "Escrime / Agilité (SR 15, Assez difficile)" in ack and "2d6+2" in ack  # Armand is a master
    assert "Escrime / Agilité (SR 15" in _one(sent, MJ_ADDRESS, "digest")[1]
    d.close()


def test_1626_demo_session_by_mail(tmp_path: Path) -> None:
    """The demo (pbem demo 1626) plays: typo answered with a suggestion, FIN ends the orders."""
    lines = demo_1626(tmp_path / "1626")
    assert any("partie gant\u00a0: en cours" in line for line in lines)  # (the demo speaks French by default)
    box = mailbox.Maildir(str(tmp_path / "1626" / "mail" / "outbox"), create=False)
    bodies = [(str(m["To"]), m.get_body(("plain",)).get_content().replace("\u00a0", " ")) for m in
              (email.message_from_bytes(box.get_bytes(k), policy=default) for k in box.keys())]
    henri = next(b for to, b in bodies if to == "joueur2@example.org" and "Eloquance" in b)
    assert "vouliez-vous dire Eloquence ?" in henri
    last = next(b for to, b in bodies if to == "joueur0@example.org" and "TEST Eloquence CH SR 14" in b)
    assert "FIN\n    -> OK : fin des ordres" in last.replace("\r\n", "\n") and "Cordialement" not in last
