"""A subset of the independent corpus of MJ mails (tests/fixtures/mjmail/corpus.toml) sent by mail through the
real engine, in a toy game that has the corpus's roster, clock and deadline: what the MJ's answer says of each
(done, asked, refused, nothing) agrees with what the case expects, and nothing changes in the game unless the
case expects that command done; a destructive one waits for the OUI with the code of our answer.

The subset is every case of the corpus's main game that does not depend on what the toy game cannot have:
no state or thread of its own (a pause, a held step, a reply), one command, no step number (the toy game is at
its first step, the corpus's at its fourth) and no command that needs the game's history or its own orders
(POUR, CORRIGE, RECALCULE, RENVOIE, APPROUVE, CHRONIQUE, INSCRIPTION, 1626's answers).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages
from mjmail_corpus import CORPUS, HELDOUT, MISSES, load

from pbem.engine import Engine
from pbem.store import Store

DATA = load(CORPUS)
WORLD = DATA["world"]
ROSTER = WORLD["games"]["pmb1"]["roster"]
NOW = datetime(2025, 2, 10, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))  # the corpus's now; its deadline is 11 Feb 21 h
HISTORY = {"FOR", "CORRECT", "RERUN", "RESEND", "APPROVE", "CHRONICLE", "REGISTER", "SR", "ROLL", "REFUSE_TEST",
           "CONFIRM", "RESUME"}
"""Commands that need what the toy game cannot have (resolved steps, a held step, a pause, the game's orders)."""
DESTRUCTIVE = {"REMOVE", "REPLACE", "FINISH"}
STEP_NUMBER = re.compile(r"(?i)\b(tour|turn|étape|etape|step)s?\s*(n°\s*)?\d|\bT\d\b")


def _subset() -> list[dict[str, Any]]:
    out = []
    for case in DATA["case"]:
        if case.get("game", "pmb1") != "pmb1" or case.get("state") or case.get("reply_to") or case.get("commands"):
            continue
        if case.get("command") in HISTORY or STEP_NUMBER.search(case["body"]):
            continue
        out.append(case)
    return out


SUBSET = _subset()


class Game:
    """The toy game with the corpus's fourteen players, its MJ, and the mails he sends."""

    def __init__(self, tmp: Path, **top: Any):
        cfg = make_config(tmp, top=top, extra_game={"deadlines": {"turn": "1d@21:00", "short": "1d@21:00"},
                                           "mj": [MJ_ADDRESS, "mj2@pbem.test"]})
        self.store = Store(cfg.database)
        self.engine = Engine(cfg, self.store)
        self.engine.new_game("toy1", NOW, seed="ab" * 32)
        for i, name in enumerate(ROSTER):
            self.engine.add_player("toy1", name, f"p{i}@pbem.test", NOW)
        for name, given in WORLD["games"]["pmb1"].get("nicknames", {}).items():  # (as `pbem player nickname`)
            self.engine.set_nicknames("toy1", name, given, NOW)
        self.engine.start_game("toy1", NOW)
        self.sent = 0

    def mj(self, text: str, reply_to: str | None = None, subject: str = "[TOY] MJ", at: datetime = NOW) -> \
            tuple[str, str]:
        """The MJ's mail, received ``at``, processed: our answer's body and Message-ID."""
        self.send(text, reply_to, subject, at)
        answer = outbox_messages(self.store, kind="ack", rcpt=MJ_ADDRESS)[-1]
        return body(answer).replace("\u00a0", " "), str(answer["Message-ID"])

    def send(self, text: str, reply_to: str | None = None, subject: str = "[TOY] MJ",
             at: datetime = NOW) -> list[tuple[str, str, str]]:
        """The MJ's mail, received ``at``, processed: (game, kind, recipient) of each mail it queued."""
        mark = self.store.outbox_mark()
        self.sent += 1
        thread = {"In_Reply_To": reply_to, "References": reply_to} if reply_to else {}
        raw = make_mail(MJ_ADDRESS, text, subject=f"Re: {subject}" if reply_to else subject,
                        message_id=f"<mj{self.sent}@pbem.test>", **thread)
        self.store.store_raw([(f"k{self.sent}", raw)], at)
        self.engine.process_message(f"k{self.sent}", raw, at)
        return self.store.queued_since(mark)

    def state(self) -> tuple[Any, ...]:
        """What an MJ command can change: the deadline and phase, the seats, pauses, absences, seat changes."""
        g = self.store.game("toy1")
        return (g.deadline, g.phase, g.turn,
                tuple((p.name, p.status, p.address) for p in self.store.players("toy1")),
                tuple(self.store.pauses("toy1")), tuple(self.store.absences("toy1")),
                tuple(self.store.seat_changes("toy1")))

    def notices_to_the_mjs(self) -> list[str]:
        return [m["To"] for m in outbox_messages(self.store, kind="notice") if m["To"] in (MJ_ADDRESS, "mj2@pbem.test")]


def _labels(answer: str) -> list[str]:
    return re.findall(r"\n    -> ([A-ZÀ-Ü ]+?)(?: :|\n|$)", answer)


def test_the_subset_is_a_fair_share_of_the_corpus():
    kinds = {c["expect"] for c in SUBSET}
    assert len(SUBSET) >= 120 and kinds == {"do", "ask", "refuse", "none"}, (len(SUBSET), kinds)


@pytest.mark.parametrize("case", SUBSET, ids=[c["id"] for c in SUBSET])
def test_a_corpus_mail_through_the_engine(tmp_path, case):
    if case["id"] in MISSES:
        pytest.xfail(MISSES[case["id"]])
    game = Game(tmp_path)
    before = game.state()
    answer, answer_id = game.mj(case["body"], subject=case.get("subject", "[TOY] MJ").replace("[PMB]", "[TOY]"))
    labels = _labels(answer)
    expect, command = case["expect"], case.get("command")
    if expect == "none":
        assert labels == [] and game.state() == before, answer
        return
    if expect == "refuse" and command is None and not labels:  # no intent at all: the list of commands
        assert "Les commandes du MJ" in answer and game.state() == before, answer
        return
    if expect == "refuse":
        assert labels and all(label in ("REFUSÉ", "AMBIGU", "INCOMPRIS") for label in labels), answer
        assert game.state() == before, answer
        return
    if expect == "ask" or command in DESTRUCTIVE:
        assert labels == ["À CONFIRMER"], answer
        assert "J'ai compris : " in answer and game.state() == before, answer
        if expect == "do":  # destructive, certain: the OUI with our answer's code carries it out, once
            code = re.search(r"Code : ([A-Z2-9]{3}-[A-Z2-9]{3})", answer)
            assert code is not None, answer
            done, _ = game.mj(f"OUI {code.group(1)}", reply_to=answer_id)
            assert "OK" in _labels(done) and game.state() != before, done
            assert sorted(game.notices_to_the_mjs()) == sorted([MJ_ADDRESS, "mj2@pbem.test"])
            after = game.state()
            # (a quarter of an hour later: the same text minutes apart is a copy, answered as such, `test_resent`)
            again, _ = game.mj(f"OUI {code.group(1)}", reply_to=answer_id, at=NOW + timedelta(minutes=15))
            assert "rien n'est fait deux fois" in again and game.state() == after
        return
    assert labels and set(labels) == {"OK"}, answer
    changed = game.state() != before
    assert changed == (command not in ("MISSING", "HELP", "PREVIEW")), answer


@pytest.mark.parametrize("path", [CORPUS, HELDOUT], ids=["corpus", "heldout"])
def test_every_mail_of_both_sets_gets_an_answer_and_crashes_nothing(tmp_path, path):
    """All of them, one after the other in one game (whatever each changes): each is answered, none raises."""
    game = Game(tmp_path, reply_cap_per_hour=10_000)
    for case in load(path)["case"]:
        subject = case.get("subject", "[TOY] MJ").replace("[PMB]", "[TOY]").replace("[1626]", "[TOY]")
        queued = game.send(case["body"], subject=subject)
        assert [q for q in queued if q[1:] == ("ack", MJ_ADDRESS)], case["id"]
