"""Whole games played by mail through the platform (Maildir in, engine, Maildir out, simulated time)."""

from __future__ import annotations

import mailbox
import re
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fresh import digest, replay

from pbem import serial
from pbem.demo import play_bot_game

FIVE = ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"]


def _records(d):
    ruleset = d.engine.ruleset(d.game_id)
    return [(r, serial.loads(ruleset.state_type, r.state_after)) for r in d.store.records(d.game_id)]


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
        assert records[0][0].kind == "setup"
        for rec, state in records:
            assert money_conserved(state), (rec.seq, rec.title)
            assert invariant_problems(state) == [], rec.title
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
        assert any(r.defaults for r, _ in records[1:])  # late players got their defaults
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
            text = re.sub(r"son chef [^.]* (?:est mort|est morte|a perdu la vie)", "", path.read_text("utf-8"))
            found = [r for r in roles if re.search(rf"\b{r}\b", text)]  # "la Garde Royale" (arrests) is public
            assert not found, (path.name, found)
    finally:
        d.close()


def _intrigue_sent(root) -> list[bytes]:
    """A whole Intrigue game by mail: every mail sent (sorted) and the forum posts, as bytes."""
    from pbem.games.intrigue.bots import random_orders

    d = play_bot_game(root, "intrigue", {
        "ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d",
        "deadlines": {"turn": "1d", "short": "6h"}}, FIVE, random_orders, 60)
    try:
        box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
        sent = sorted(box.get_bytes(k) for k in box.keys())
        sent.append(b"".join(p.read_bytes() for p in sorted((d.root / "forum").rglob("*.bbcode"))))
        return sent
    finally:
        d.close()


def intrigue_sent_digest() -> str:
    """(run by `fresh.replay` in another process)"""
    with tempfile.TemporaryDirectory() as tmp:
        return digest(_intrigue_sent(Path(tmp) / "b"))


def test_same_mails_and_seed_give_byte_identical_outgoing_mail(tmp_path):
    """Determinism end to end: two runs of a whole Intrigue game by mail send exactly the same bytes, the
    second in another process whose string hashes (so set orders) differ."""
    with ThreadPoolExecutor(1) as pool:
        again = pool.submit(replay, "games.test_games_by_mail:intrigue_sent_digest")
        first = _intrigue_sent(tmp_path / "a")
        assert len(first) > 100 and again.result() == digest(first)


ROLE_WORDS = {  # the French role names of the start mails, back to role codes (rule text, "Glossaire")
    "Garde Royal": "garde", "Lord Commandant de la Garde Royale": "lord_commandant",
    "Maître des Chuchoteurs du Conseil Restreint": "chuchoteurs", "Grand Argentier du Conseil Restreint": "argentier",
    "Grand Mestre du Conseil Restreint": "mestre", "fidèle Lannister": "fidele",
    "chef Stark": "stark_chef", "sergent Stark": "stark_sergent", "Homme de Main Stark": "stark_hm",
    "chef Tyrell": "tyrell_chef", "sergent Tyrell": "tyrell_sergent", "Homme de Main Tyrell": "tyrell_hm",
}


@pytest.mark.parametrize("seed", ["01", "02", "03"])
def test_pour_ma_belle_start_mails_tell_exactly_what_the_rules_allow(tmp_path, seed):
    """Oracle from the rule text ("Au départ du jeu un Homme de Main ne connaît que l'identité de son sergent.
    Un sergent connaît le chef et ses Hommes de Main. Le chef connaît toute l'organisation."; the Donjon Rouge
    members know each other's exact roles; nobody knows the fidèles), checked on the mails as sent."""
    from .tests_helpers_pmb import start_mails

    state, mails = start_mails(tmp_path, seed * 32)
    players = state.players
    donjon = [n for n, p in players.items() if p.code in ("garde", "lord_commandant", "chuchoteurs", "argentier",
                                                          "mestre")]
    for name, p in players.items():
        text = mails[name]
        found = re.search(r"Vous connaissez : (.*?)\.(?:\n|$)", text)
        told = {}
        if found:
            for item in re.findall(r"([^,()]+?) \(([^()]*(?:\([^()]*\))?[^()]*)\)", found.group(1)):
                told[re.sub(r"^et ", "", item[0].strip())] = ROLE_WORDS[item[1].strip()]  # « A (…), B (…) et C (…) »
        team, rank = p.code.split("_") if "_" in p.code and p.code != "lord_commandant" else ("lannister", p.code)
        if name in donjon:
            allowed = {n: players[n].code for n in donjon if n != name}
        elif rank == "hm":
            allowed = {p.sergent: players[p.sergent].code} if p.sergent else {}
        elif rank == "sergent":
            chef = next(n for n, q in players.items() if q.code == f"{team}_chef")
            allowed = {chef: f"{team}_chef", **{n: q.code for n, q in players.items() if q.sergent == name}}
        elif rank == "chef":
            allowed = {n: q.code for n, q in players.items() if q.team == team and n != name}
        else:  # fidèle
            allowed = {}
        assert told == allowed, (name, p.code)
        if rank == "chef":
            assert len(told) >= 11  # 3 sergents and 8-11 Hommes de Main: the parse really read the list
        # and nothing else in the mail names a role: only "Vous êtes <own role>." and the list above
        rest = text.replace(found.group(0) if found else "", "")
        own = next(w for w, c in ROLE_WORDS.items() if c == p.code)
        rest = rest.replace(f"Vous êtes {own}.", "")
        assert not [w for w in ROLE_WORDS if w in rest], (name, rest)


def test_pour_ma_belle_etat_shows_roles_to_the_mj_only(tmp_path):
    from email import message_from_bytes
    from email.policy import default

    from helpers import MJ_ADDRESS, make_config, make_mail

    from pbem.engine import Engine
    from pbem.store import Store

    from .tests_helpers_pmb import T0, start_mails

    start_mails(tmp_path, "07" * 32)  # a 40-player game, started through the engine
    cfg = make_config(tmp_path, ruleset="pmb", game_id="pmb1", tag="PMB")
    store = Store(cfg.database)
    engine = Engine(cfg, store)
    store.store_raw([("mj", make_mail(MJ_ADDRESS, "ETAT\nAIDE", message_id="<mj@x>")),
                     ("p0", make_mail("p0@pbem.test", "ETAT", message_id="<p0@x>"))], T0)
    engine.process_pending(T0)
    answers = {}
    for item in store.outbox_items(game="pmb1"):
        if item.kind == "ack":
            msg = message_from_bytes(store.outbox_raw(item.id), policy=default)
            answers[item.rcpt] = msg.get_body(("plain",)).get_content().replace("\u00a0", " ")
    store.close()
    assert "Rôles (vue du MJ)" in answers[MJ_ADDRESS] and "POUR <joueur> : <ordre>" in answers[MJ_ADDRESS]
    assert "Rôles (vue du MJ)" not in answers["p0@pbem.test"]
    assert "Vous êtes" in answers["p0@pbem.test"]  # a player's ETAT shows their own role and knowledge only
