"""Results held for the MJ's approval (``publish = "mj"``): the MJ reminded of them, and their approval.

At the deadline the step is resolved and recorded as usual; the MJ receives the digest and a
request for approval with the forum post as it will go out; nothing reaches the players or the
forum until he approves (APPROUVE by mail, `pbem turn publish`), optionally with a chronicle, a
free text that heads the forum post.  Orders he corrected meanwhile (CORRIGE, `pbem orders set
--turn`) are applied first: the step is computed again before anything goes out.  While results
wait, the next step's clock waits too (no reminder, no resolution); when they go out, its deadline
stays on the calendar if at least half a step is left, else it moves by the time the MJ took
(like after a pause: `pbem.engine.steps.calendar`).  A reminder goes to the MJ once the wait passes ``approval_reminder``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.due import approval_reminder_due
from pbem.engine.steps import calendar, corrections
from pbem.engine.steps.publish import approved, write_forum_now
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg
from pbem.outbox import Letter


def remind(table: Table, now: datetime) -> list[str]:
    """Once the results wait longer than ``approval_reminder``, the MJ is reminded (once)."""
    held = calendar.held(table)
    s = table.settings
    if held is None or not approval_reminder_due(held, s, now):
        return []
    rec = table.store.record(table.id, held.seq)
    assert rec is not None
    t = table.renderer.mail_text("approval", tag=table.tag, title=rec.title, turn=held.turn,
                                        forum=None, players=0, privates=0, reminder=True,
                                        held_at=table.local(held.held_at))
    with table.store.atomic():
        table.store.mark_reminded(table.id, held.seq, now)
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
    held = calendar.held(table)
    if held is None:
        raise EngineError(Msg(f"aucun résultat de {table.id} n'attend votre approbation",
                              f"no results of {table.id} wait for approval"))
    st = table.step_noun()
    if turn is not None and turn != held.turn:
        raise EngineError(Msg(f"les résultats en attente sont ceux {st.of} {held.turn}, pas {st.of} {turn}",
                              f"the results waiting for approval are those of step {held.turn}, not {turn}"))
    corrected = [o for o in table.store.current_orders(table.id, held.turn).values() if o.source == "correction"]
    rerun = changed = False
    with table.store.atomic():
        if corrected:
            result = corrections.rerun(table, held.turn, now, publish=True, announce=False)
            rerun, changed = True, bool(result.diff or result.state_changed)
        text = chronicle.strip() if chronicle and chronicle.strip() else held.chronicle  # (or the one saved before)
        table.store.approve(table.id, held.seq, now, by, text)
        g = calendar.after_wait(table, table.row, held, now)
        out = approved(table, g, held, now, digest=changed)
        table.store.log(table.id, now, by, "results published", {"turn": held.turn, "rerun": rerun,
                                                                     "chronicle": text})
    write_forum_now(table)  # (by mail, the tick writes it once the batch is committed)
    rec = table.store.record(table.id, held.seq)
    assert rec is not None
    return Published(held.turn, rec.title, sum(1 for m in out if m.kind == "private"),
                     any(m.kind == "public" for m in out), len(text.splitlines()) if text else 0, rerun, changed,
                     table.local(g.deadline))
