"""Who is told what, checked on the letters as sent: every mail to a player holds only facts that player may learn.

The rules tests check the events' audiences; this checks the filter that turns a step's events into each
reader's letter (`pbem.engine.letters`), on every demo game played by mail (``demo_games``): for each mail
sent to a player about a step (its record), the text of every event of that step whose audience leaves
the player out must not be in it, and the text of every event told to them by name must be in the step's
private letter (so the check reads the letters as they are written: it could not pass by reading nothing).  An event text that
another event the player may read also says (two players told the same sentence) proves nothing and is
left out, as is one the public forum post of that step says.
"""

from __future__ import annotations

import re
from email import message_from_bytes
from email.policy import default
from typing import Any

import pytest

_SPACE = re.compile(r"\s+")


def plain(text: str) -> str:
    """Text with every run of white space (line breaks of a wrapped paragraph, French non-breaking spaces)
    as one space."""
    return _SPACE.sub(" ", text.replace("\u00a0", " ").replace("\u202f", " ")).strip()


def mail_text(raw: bytes) -> str:
    part = message_from_bytes(raw, policy=default).get_body(("plain",))
    assert part is not None
    return plain(str(part.get_content()))


def letters_by_record(d: Any) -> list[tuple[Any, str, str, str]]:
    """(record, reader, kind, text) of every mail sent to a player about a record of the game."""
    players = {p.address: p.name for p in d.store.players(d.game_id)}
    records = {r.seq: r for r in d.store.records(d.game_id)}
    rows = d.store.db.execute("select id, kind, rcpt, record_seq from outbox where game = ? and record_seq is not null",
                              [d.game_id]).fetchall()
    out = []
    for mid, kind, rcpt, seq in rows:
        if rcpt in players and seq in records:
            out.append((records[seq], players[rcpt], kind, mail_text(d.store.outbox_raw(mid))))
    return out


@pytest.mark.parametrize("game", ["pmb", "intrigue", "1626", "pourleroi", "courtisans"])
def test_every_letter_to_a_player_holds_only_what_that_player_may_learn(demo_games: Any, game: str) -> None:
    d = demo_games.games[game]
    r = d.engine.renderer(d.game_id)
    letters = letters_by_record(d)
    assert letters, f"{game}: no letter about a step reached a player"
    texts: dict[int, list[tuple[Any, str]]] = {}  # record seq -> (event, its text)
    checked_hidden = checked_told = 0
    for rec, reader, kind, text in letters:
        if rec.seq not in texts:
            texts[rec.seq] = [(e, plain(r.event_text(e))) for e in rec.events]
        told = [(e, t) for e, t in texts[rec.seq] if e.audience.includes(reader) and e.audience.kind != "mj"]
        hidden = [(e, t) for e, t in texts[rec.seq] if not e.audience.includes(reader) or e.audience.kind == "mj"]
        said_to_reader = " \n ".join(t for _, t in told)
        public = plain((d.root / "forum" / d.game_id / f"turn-{rec.turn}.bbcode").read_text("utf-8")) \
            if (d.root / "forum" / d.game_id / f"turn-{rec.turn}.bbcode").exists() else ""
        for e, t in hidden:
            if not t or t in said_to_reader or t in public:
                continue  # the same sentence is the reader's to read anyway
            assert t not in text, (game, rec.seq, reader, kind, e.kind, e.audience, t)
            checked_hidden += 1
        if kind == "private" and rec.kind != "action":
            for e, t in told:  # the step's letter tells the reader everything told to them by name
                if t and e.audience.kind == "players":
                    assert t in text, (game, rec.seq, reader, e.kind, t)
                    checked_told += 1
    assert checked_told > 0, f"{game}: no event told to a player was found in a letter"
    if game != "1626":  # (the 1626 demo's tests tell the MJ and their player, and the other players nothing)
        assert checked_hidden > 0, f"{game}: no letter was checked against a fact kept from its reader"


def test_the_mj_digest_holds_every_event_even_those_kept_from_every_player(demo_games: Any) -> None:
    """The other side of the filter: the MJ's digest of a step carries the MJ-only events too."""
    d = demo_games.games["pmb"]
    r = d.engine.renderer(d.game_id)
    mj_only = 0
    rows = d.store.db.execute("select id, record_seq from outbox where game = ? and kind = 'digest' "
                              "and record_seq is not null", [d.game_id]).fetchall()
    records = {rec.seq: rec for rec in d.store.records(d.game_id)}
    for mid, seq in rows:
        text = mail_text(d.store.outbox_raw(mid))
        for e in records[seq].events:
            if e.audience.kind == "mj":
                assert plain(r.event_text(e)) in text, (seq, e.kind)
                mj_only += 1
    assert mj_only > 0
