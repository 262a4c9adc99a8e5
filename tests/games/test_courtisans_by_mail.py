"""Courtisans played by mail through the platform: Maildir in, engine, Maildir out, simulated time."""

from __future__ import annotations

import email
import mailbox
import tempfile
from email.policy import default
from pathlib import Path

from fresh import digest, replay

from pbem import serial
from pbem.demo import COURTISANS, COURTISANS_GAME, MJ_ADDRESS, play_bot_game
from pbem.games.courtisans.bots import random_orders
from pbem.games.courtisans.etiquette import salutation


def _mails(d) -> list[tuple[str, str, str, str]]:
    """(kind, recipient, subject, body) of every mail sent, in the order they were queued.

    The order is the outbox's (queue time, then row): Maildir file names do not sort by time (their
    microseconds have no leading zeros), so the last mail to a player is not the last file name."""
    box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
    sent = {str(m["Message-ID"]): m for m in (email.message_from_bytes(box.get_bytes(k), policy=default)
                                              for k in box.keys())}
    out = []
    for item in d.store.outbox_items(game="courtisans"):
        raw = d.store.outbox_raw(item.id)
        mid = str(email.message_from_bytes(raw, policy=default)["Message-ID"])
        m = sent[mid]
        out.append((str(m["X-PBEM-Kind"]), str(m["To"]), str(m["Subject"]), m.get_body(("plain",)).get_content()))
    return out


def test_courtisans_4_players_by_mail_one_step_per_turn_to_the_end(demo_games):
    d = demo_games.games["courtisans"]  # the demo's game: 4 players, COURTISANS_GAME, the bots, 150 steps at most
    g = d.engine.game("courtisans")
    assert g.phase == "finished" and g.seed_revealed
    ruleset = d.engine.ruleset("courtisans")
    records = [(r, serial.loads(ruleset.state_type, r.state_after)) for r in d.store.records("courtisans")]
    final = records[-1][1]
    outcome = ruleset.outcome(final)
    assert outcome is not None and outcome.winners and final.end in ("target", "rounds")
    steps = records[1:]
    assert all(r.kind == "step" for r, _ in steps)
    for rec, _ in steps:
        prompted = [p.player for p in ruleset.prompts(serial.loads(ruleset.state_type, rec.state_before))]
        assert list(rec.orders) == prompted and len(prompted) == 1  # only whose turn it is
    sent = _mails(d)
    kinds: dict[str, int] = {}
    for kind, *_ in sent:
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds["private"] == 4 * len(records) and kinds["digest"] == len(records)
    assert d.engine.verify("courtisans") == []
    # the turn resolves as soon as its player's orders are in; a silent player waits for the deadline (2 days)
    defaulted = [r for r, _ in steps if r.defaults]
    quick = [r for r, _ in steps if not r.defaults]
    assert defaulted and quick
    times = {r.seq: r.resolved_at for r, _ in records}
    for r in quick:
        assert (times[r.seq] - times[r.seq - 1]).total_seconds() < 3600
    for r in defaulted:
        assert (times[r.seq] - times[r.seq - 1]).total_seconds() >= 2 * 86400
    # étiquette: every private mail opens with the player's form of address as it stood after that step
    mails = [m for m in sent if m[0] == "private"]
    addresses = {p.address: p.name for p in d.store.players("courtisans")}
    last = {}
    for _, to, _, body in mails:
        last[addresses[to.split("<")[-1].strip(">").strip()]] = body
    for name, body in last.items():
        assert body.startswith(f"Bonjour {salutation(final, name)},"), body[:80]
    titled = [b for _, _, _, b in mails if b.startswith(("Bonjour Monsieur le ", "Bonjour Madame la "))]
    assert titled  # somebody earned a title, and the mails say it


def test_the_mj_fines_by_mail_and_the_player_is_told(tmp_path):
    d = play_bot_game(tmp_path / "f", "courtisans", COURTISANS_GAME, COURTISANS, random_orders, 3)
    try:
        state = d.engine.state(d.engine.game("courtisans"))
        target = state.seats[1]
        before = state.courtiers[target].livres
        d.mail(MJ_ADDRESS, f"AMENDE {target} 1000\nAVERTISSEMENT {target}", "étiquette")
        d.tick()
        state = d.engine.state(d.engine.game("courtisans"))
        assert state.courtiers[target].livres == before - 1000 and state.courtiers[target].warnings == 1
        mails = _mails(d)
        ack = [b for kind, to, _, b in mails if kind == "ack" and MJ_ADDRESS in to][-1]
        assert "amende de 1\u202f000 livres" in ack and ack.count("-> OK") == 2
        told = [b for kind, to, s, b in mails if kind == "private" and "AMENDE" in s]
        assert len(told) == 1 and "pour manquement à l'étiquette" in told[0]
    finally:
        d.close()


def _sent(d) -> list[bytes]:
    """Every mail sent (sorted) and the forum posts, as bytes."""
    box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
    out = sorted(box.get_bytes(k) for k in box.keys())
    out.append(b"".join(p.read_bytes() for p in sorted((d.root / "forum").rglob("*.bbcode"))))
    return out


def sent_by_a_new_play() -> str:
    """(run by `fresh.replay` in another process) the digest of what a new play of the demo's game sends."""
    with tempfile.TemporaryDirectory() as tmp:
        d = play_bot_game(Path(tmp) / "b", "courtisans", COURTISANS_GAME, COURTISANS, random_orders, 150)
        try:
            assert d.engine.game("courtisans").phase == "finished"
            return digest(_sent(d))
        finally:
            d.close()


def test_a_whole_game_replayed_by_mail_gives_byte_identical_mail_and_forum(demo_games):
    """The same mails, seed and clock give the same mails and forum posts byte for byte, in another process
    with other string hashes (`fresh.replay`) than the session's play of the demo game."""
    d = demo_games.games["courtisans"]
    assert d.engine.game("courtisans").phase == "finished"
    first = _sent(d)
    assert len(first) > 300
    assert replay("games.test_courtisans_by_mail:sent_by_a_new_play") == digest(first)
