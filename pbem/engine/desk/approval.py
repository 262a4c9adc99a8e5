"""Results held for the MJ's approval (``publish = "mj"``), and what holds the clock of a game.

At the deadline the step is resolved and recorded as usual; the MJ receives the digest and a
request for approval with the forum post as it will go out; nothing reaches the players or the
forum until he approves (APPROUVE by mail, `pbem turn publish`), optionally with a chronicle, a
free text that heads the forum post.  Orders he corrected meanwhile (CORRIGE, `pbem orders set
--turn`) are applied first: the step is computed again before anything goes out.  While results
wait, the next step's clock waits too (no reminder, no resolution); when they go out, its deadline
stays on the calendar if at least half a step is left, else it moves by the time the MJ took
(like after a pause).  A reminder goes to the MJ once the wait passes ``approval_reminder``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from pbem import serial
from pbem.clock import iso, parse_iso
from pbem.engine.desk import pauses
from pbem.engine.steps import letters
from pbem.engine.steps.records import record_events
from pbem.engine.table import EngineError, Table
from pbem.outbox import Attachment, Letter
from pbem.store import GameRow, HeldRow


def waiting(table: Table) -> HeldRow | None:
    """The step whose results wait for the MJ's approval, if any."""
    held = table.store.held(table.id)
    return held[0] if held else None


def clock_held(table: Table, when: datetime) -> bool:
    """Is the game's clock held at ``when`` (a pause, or results waiting for approval)?"""
    return pauses.active(table, when) is not None or waiting(table) is not None


def send_or_hold(table: Table, g: GameRow, seq: int, turn: int, mails: Sequence[Letter], now: datetime, *,
                 missed: Mapping[str, int] | None = None, abandoned_before: frozenset[str] = frozenset()) -> None:
    """The mails of a step just resolved go: all of them, then the seats that change hands at its end;
    with ``publish = "mj"``, the MJ's digest only (and a request for approval): every other mail waits
    for him, the public one with its picture and the players' notices of defaults and abandonment
    included.  What the missed steps (NMR) said at the resolution is kept with the hold, so the
    letters sent at the approval say it too.

    Called by `turns.resolve` inside its transaction; ``g`` is the game with the next step open.
    """
    from pbem.engine.desk import seats

    if table.settings.publish != "mj":
        table.outgoing.queue(mails, now)
        seats.step_done(table, turn, now)
        return
    table.store.hold(g.id, seq, turn, iso(now), json.dumps({"missed": dict(missed or {}),
                                                          "abandoned_before": sorted(abandoned_before)}))
    table.store.log(g.id, iso(now), "pbem", "results held", {"turn": turn, "seq": seq})
    picture = next((m.attachments for m in mails if m.kind == "public" and m.attachments), ())
    table.outgoing.queue([m for m in mails if m.kind == "digest"] + _request(table, g, seq, turn, picture, now), now)


def _request(table: Table, g: GameRow, seq: int, turn: int, picture: Sequence[Attachment],
             now: datetime) -> list[Letter]:
    """The MJ is asked to approve: the forum post as it will go out, with its picture attached."""
    rec = table.store.record(g.id, seq)
    assert rec is not None
    ruleset = table.ruleset
    state = serial.loads(ruleset.state_type, rec["state_after"])
    forum = letters.forum_text(table, state, record_events(rec), rec["title"], ruleset.outcome(state))
    privates = sum(1 for p in table.store.players(g.id) if letters.told_to(record_events(rec), p.name))
    t = table.renderer.mail_text("approval", tag=table.tag, title=rec["title"], turn=turn, forum=forum,
                                     players=len(table.store.players(g.id)), privates=privates, reminder=False,
                                     held_at=table.local(iso(now)))
    return [Letter(f"rec{seq}-approval", g.id, turn, "notice", mj, t.subject, t.body, record_seq=seq,
                   attachments=tuple(picture)) for mj in table.settings.mj]


def remind(table: Table, now: datetime) -> list[str]:
    """Once the results wait longer than ``approval_reminder``, the MJ is reminded (once)."""
    held = waiting(table)
    s = table.settings
    if held is None or held.reminded_at or now - parse_iso(held.held_at) < s.approval_reminder.delta:
        return []
    rec = table.store.record(table.id, held.seq)
    assert rec is not None
    t = table.renderer.mail_text("approval", tag=table.tag, title=rec["title"], turn=held.turn,
                                        forum=None, players=0, privates=0, reminder=True,
                                        held_at=table.local(held.held_at))
    with table.store.atomic():
        table.store.mark_reminded(table.id, held.seq, iso(now))
        table.outgoing.queue([Letter(f"rec{held.seq}-approval-reminder", table.id, held.turn, "notice", mj, t.subject,
                                   t.body, record_seq=held.seq) for mj in s.mj], now)
    return [f"{table.id}: the MJ reminded that turn {held.turn} waits for approval"]


@dataclass(frozen=True)
class Published:
    """What an approval sent: for the MJ's answer, which says precisely what was done."""

    turn: int
    title: str
    privates: int
    forum: bool
    chronicle_lines: int
    rerun: bool  # corrected orders: the step was computed again before going out
    changed: bool  # ... and its results changed
    deadline: datetime | None


def publish(table: Table, now: datetime, *, turn: int | None = None, chronicle: str | None = None,
            by: str = "mj") -> Published:
    """Send the held results of a step (re-run first if orders were corrected); the chronicle heads the forum post."""
    from pbem.engine.desk import seats
    from pbem.engine.steps import corrections

    held = waiting(table)
    if held is None:
        raise EngineError(f"no results of {table.id} wait for approval",
                          fr=f"aucun résultat de {table.id} n'attend votre approbation")
    st = table.step_noun()
    if turn is not None and turn != held.turn:
        raise EngineError(f"the results waiting for approval are those of step {held.turn}, not {turn}",
                          fr=f"les résultats en attente sont ceux {st.of} {held.turn}, pas {st.of} {turn}")
    corrected = [o for o in table.store.current_orders(table.id, held.turn).values() if o.source == "correction"]
    rerun = changed = False
    with table.store.atomic():
        if corrected:
            result = corrections.rerun(table, held.turn, now, publish=True, announce=False)
            rerun, changed = True, bool(result.diff or result.state_changed)
        text = chronicle.strip() if chronicle and chronicle.strip() else None
        table.store.approve(table.id, held.seq, iso(now), by, text)
        g = _deadline_after_wait(table, table.row, held, now)
        rec = table.store.record(table.id, held.seq)
        assert rec is not None
        state = serial.loads(table.ruleset.state_type, rec["state_after"])
        news = json.loads(held.news) if held.news else {}
        out = letters.step_letters(table, g, held.seq, held.turn, record_events(rec), state, now,
                                   key_prefix=f"rec{held.seq}-approved", missed=news.get("missed"),
                                   abandoned_before=frozenset(news.get("abandoned_before", ())), digest=changed)
        table.outgoing.queue(out, now)
        seats.step_done(table, held.turn, now)
        table.store.log(table.id, iso(now), by, "results published", {"turn": held.turn, "rerun": rerun,
                                                                     "chronicle": text})
    if not table.outgoing.holding_batch:  # by mail, the tick writes it once the batch is committed
        letters.write_forum(table)
    return Published(held.turn, rec["title"], sum(1 for m in out if m.kind == "private"),
                     any(m.kind == "public" for m in out), len(text.splitlines()) if text else 0, rerun, changed,
                     table.local(g.deadline))


def _deadline_after_wait(table: Table, g: GameRow, held: HeldRow, now: datetime) -> GameRow:
    """The next step keeps its calendar deadline if half a step is left; else it gets the time the MJ took."""
    if g.deadline is None or g.phase != "running":
        return g
    deadline = parse_iso(g.deadline)
    length = pauses.step_length(table, g)
    if deadline - now >= length.delta / 2:
        return g
    return pauses.save_deadline(table, g, pauses.shifted(deadline, parse_iso(held.held_at), now, table, length.at), now)
