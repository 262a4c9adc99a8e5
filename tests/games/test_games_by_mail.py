"""Whole games played by mail through the platform (Maildir in, engine, Maildir out, simulated time)."""

from __future__ import annotations

import json
import mailbox
import re

import pytest

from pbem import serial
from pbem.demo import play_bot_game

FIVE = ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"]


def _records(d):
    ruleset = d.engine.ruleset(d.game_id)
    return [(r, serial.loads(ruleset.state_type, r["state_after"])) for r in d.store.records(d.game_id)]


def _outbox_kinds(d) -> dict[str, int]:
    box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
    kinds: dict[str, int] = {}
    for key in box.keys():
        k = str(box[key]["X-PBEM-Kind"])
        kinds[k] = kinds.get(k, 0) + 1
    return kinds


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_intrigue_5_players_by_mail_conserves_money_and_ends_after_round_7(tmp_path, mode):
    from pbem.games.intrigue import invariant_problems, money_conserved
    from pbem.games.intrigue.bots import random_orders

    d = play_bot_game(tmp_path / mode, "intrigue", {
        "ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d",
        "deadlines": {"turn": "1d", "short": "6h"}, "options": {"mode": mode}}, FIVE, random_orders, 400)
    try:
        assert d.engine.game("intrigue").phase == "finished"
        records = _records(d)
        assert records[0][0]["kind"] == "setup"
        for rec, state in records:
            assert money_conserved(state), (rec["seq"], rec["title"])
            assert invariant_problems(state) == [], rec["title"]
        final = records[-1][1]
        assert final.round == 7
        outcome = d.engine.ruleset("intrigue").outcome(final)
        assert outcome is not None and outcome.winners
        steps = len(records) - 1
        kinds = _outbox_kinds(d)
        assert kinds["private"] == 5 * (steps + 1)  # every player, every step and the start
        assert kinds["ack"] >= 5  # registrations at least
        forum = list((d.root / "forum" / "intrigue").glob("turn-*.bbcode"))
        assert len(forum) == steps + 1
        assert any(json.loads(r["defaults"]) for r, _ in records[1:])  # late players got their defaults
    finally:
        d.close()


def test_pour_ma_belle_40_players_from_registration_to_victory_by_mail(tmp_path):
    from pbem.games.pmb.bots import random_orders

    names = [f"Joueur {i:02d}" for i in range(40)]
    d = play_bot_game(tmp_path / "pmb", "pmb1", {
        "ruleset": "pmb", "tag": "PMB", "registration": "3d@21:00", "deadlines": {"turn": "2d@21:00"}},
        names, random_orders, 80)
    try:
        g = d.engine.game("pmb1")
        assert g.phase == "finished" and g.seed_revealed
        assert len(d.store.players("pmb1")) == 40  # everyone registered by mail
        records = _records(d)
        ruleset = d.engine.ruleset("pmb1")
        outcome = ruleset.outcome(records[-1][1])
        assert outcome is not None and outcome.winners
        steps = len(records) - 1
        kinds = _outbox_kinds(d)
        assert kinds["private"] == 40 * (steps + 1)
        assert kinds["digest"] == steps + 1 and kinds["public"] == steps + 1
        assert d.engine.verify("pmb1") == []
        # the public report never names a role before the final reveal
        roles = ["Garde Royal", "Lord Commandant", "Conseil Restreint", "Chuchoteurs", "Argentier", "Mestre",
                 "sergent", "Homme de Main", "fidèle", "chef Stark", "chef Tyrell"]
        posts = sorted((d.root / "forum" / "pmb1").glob("turn-*.bbcode"), key=lambda p: int(p.stem[5:]))
        for path in posts[:-1]:
            # the rules make a rebel chef's death public ("La mort du chef rebelle est une information publique")
            text = re.sub(r"son chef [^.]* est mort", "", path.read_text("utf-8"))
            found = [r for r in roles if re.search(rf"\b{r}\b", text)]  # "la Garde Royale" (arrests) is public
            assert not found, (path.name, found)
    finally:
        d.close()


def test_same_mails_and_seed_give_byte_identical_outgoing_mail(tmp_path):
    """Determinism end to end: two runs of a whole Intrigue game by mail send exactly the same bytes."""
    from pbem.games.intrigue.bots import random_orders

    runs = []
    for run in ("a", "b"):
        d = play_bot_game(tmp_path / run, "intrigue", {
            "ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d",
            "deadlines": {"turn": "1d", "short": "6h"}}, FIVE, random_orders, 60)
        try:
            box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
            runs.append(sorted(box.get_bytes(k) for k in box.keys()))
            runs[-1].append(b"".join(p.read_bytes() for p in sorted((d.root / "forum").rglob("*.bbcode"))))
        finally:
            d.close()
    assert len(runs[0]) > 100 and runs[0] == runs[1]
