"""A resolved step's results taken out: its letters sent or held for the MJ, the seats that change hands at its
end, its forum file and picture.  Resolution (`turns.resolve`), approval (`desk.approval.publish`) and a
published re-run (`corrections.rerun`) all take results out here, and only here.

With ``publish = "mj"`` the MJ gets the digest and a request for approval with the forum post as it
will go out; everything else waits for him (`resolved`), then goes when he approves (`approved`).
The forum files are written after the transaction that queued the step's mail commits
(`write_forum`); a crash in between leaves them to write, and the next pass writes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.engine.steps import handover, letters
from pbem.engine.table import Table
from pbem.outbox import Attachment, Letter
from pbem.store import GameRow, HeldRow, StepRecord


def resolved(table: Table, g: GameRow, rec: StepRecord, state: Any, now: datetime, *,
             missed: Mapping[str, int], abandoned_before: frozenset[str]) -> None:
    """The mails of a step just resolved go: all of them, then the seats that change hands at its end;
    with ``publish = "mj"``, the MJ's digest only (and a request for approval): every other mail waits
    for him, the public one with its picture and the players' notices of defaults and abandonment
    included.  What the missed steps (NMR) said at the resolution is kept with the hold, so the
    letters sent at the approval say it too.

    Called by `turns.resolve` inside its transaction; ``g`` is the game with the next step open, ``rec``
    the step's record, ``state`` the state after it.
    """
    seq, turn = rec.seq, rec.turn
    mails = letters.step_letters(table, g, seq, turn, rec.events, state, now, missed=missed,
                                 abandoned_before=abandoned_before, rec=rec)
    if table.settings.publish != "mj":
        table.outgoing.queue(mails, now)
        handover.step_done(table, turn, now)
        return
    table.store.hold(g.id, seq, turn, now, missed=missed, abandoned_before=sorted(abandoned_before))
    table.store.log(g.id, now, "pbem", "results held", {"turn": turn, "seq": seq})
    picture = next((m.attachments for m in mails if m.kind == "public" and m.attachments), ())
    table.outgoing.queue([m for m in mails if m.kind == "digest"] + _request(table, g, rec, picture, now), now)


def _request(table: Table, g: GameRow, rec: StepRecord, picture: Sequence[Attachment],
             now: datetime) -> list[Letter]:
    """The MJ is asked to approve: the forum post as it will go out, with its picture attached."""
    seq, turn = rec.seq, rec.turn
    forum = letters.forum_files(table, rec).text
    readers = letters.Readers(rec.events)
    privates = sum(1 for p in table.store.players(g.id) if readers.told_anything(p.name))
    t = table.renderer.mail_text("approval", tag=table.tag, title=rec.title, turn=turn, forum=forum,
                                 players=len(table.store.players(g.id)), privates=privates, reminder=False,
                                 held_at=table.local(now))
    return [Letter(f"rec{seq}-approval", g.id, turn, "notice", mj, t.subject, t.body, record_seq=seq,
                   attachments=tuple(picture)) for mj in table.settings.mj]


def approved(table: Table, g: GameRow, waited: HeldRow, now: datetime, *, digest: bool) -> list[Letter]:
    """The results the MJ approved go out, with what NMR said when the step was resolved, then the seats
    that change hands at its end.  ``digest``: the MJ gets the digest again (his corrections changed them).
    Returns the letters queued."""
    rec = table.store.record(table.id, waited.seq)
    assert rec is not None
    state = table.decode_json(rec.state_after)
    out = letters.step_letters(table, g, waited.seq, waited.turn, rec.events, state, now,
                               key_prefix=f"rec{waited.seq}-approved", missed=waited.missed,
                               abandoned_before=frozenset(waited.abandoned_before), digest=digest, rec=rec)
    table.outgoing.queue(out, now)
    handover.step_done(table, waited.turn, now)
    return out


def rectified(table: Table, g: GameRow, rec: StepRecord, state: Any, now: datetime, *, version: int) -> None:
    """A resolved step computed again with the MJ's corrections (``rec``, its new record): its new results
    go as a RECTIFICATIF."""
    table.outgoing.queue(letters.step_letters(table, g, rec.seq, rec.turn, rec.events, state, now, rectificatif=True,
                                              key_prefix=f"rec{rec.seq}-v{version}", rec=rec), now)


# --- the forum files


def forum_path(table: Table, turn: int, suffix: str = "") -> Path:
    return table.config.forum_dir / table.id / f"turn-{turn}{suffix}.bbcode"


def picture_path(table: Table, turn: int) -> Path:
    """The picture beside a step's BBCode file: ``turn-<N>.png``."""
    return forum_path(table, turn).with_suffix(".png")


def write_forum(table: Table) -> list[Path]:
    """Write the forum files of resolved steps not written yet, post and picture (after the commit; safe to repeat)."""
    written = []
    for rec in table.store.records_to_post(table.id):  # (not those held for approval)
        made = letters.forum_files(table, rec)  # (drawn once: as the step's public mail has them)
        text = letters.with_chronicle(made.text, table.store.chronicle(table.id, rec.seq))
        path = forum_path(table, rec.turn)
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, text.encode("utf-8"))
        written.append(path)
        picture = made.picture
        if picture is not None:
            _write(picture_path(table, rec.turn), picture.png)
            written.append(picture_path(table, rec.turn))
        table.store.mark_forum_written(table.id, rec.seq)
    return written


def write_forum_now(table: Table) -> None:
    """The forum files, now, unless a batch of mail is being processed: its pass writes them once it commits."""
    if not table.outgoing.holding_batch:
        write_forum(table)


def _write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a reader never sees half of it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
