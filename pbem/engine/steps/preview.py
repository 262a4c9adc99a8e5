"""A preview of the open step: resolved on a copy, with the orders received so far and the defaults
for the silent, to show the MJ the digest, the forum post and each private letter (njudge PREDICT,
DPjudge PREVIEW).  Nothing is stored or sent: the resolution runs inside a savepoint that is rolled
back, and its letters are kept as text instead of being queued; no forum file is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.engine.steps import letters, turns
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg


@dataclass(frozen=True)
class Preview:
    """What the open step would give now: its title, who got the defaults, and every letter as text."""

    title: str
    defaults: list[str]
    digest: str
    forum: str
    privates: list[tuple[str, str, str]]  # (player, subject, body)


class _RollBack(Exception):
    """Raised inside the savepoint to undo everything the preview wrote."""


def preview_step(table: Table, now: datetime) -> Preview:
    """The open step resolved on a copy now; nothing is stored, queued or written."""
    g = table.row
    if g.phase != "running":
        raise EngineError(Msg(f"la partie {table.id} n'est pas en cours",
                              f"game {table.id} is not running"))
    state = table.decode(g)
    ruleset = table.ruleset
    st = table.step_noun()
    if not ruleset.prompts(state):
        raise EngineError(Msg(f"aucun{st.e} {st.noun} n'est ouvert{st.e} : rien à prévisualiser (les ordres immédiats "
                              "agissent aussitôt)",
                              "no step is open: nothing to preview"))
    s = table.settings
    title = ruleset.step_title(state).get(s.language)
    step = turns.compute_step(table, g.turn, state, g.seed, before=g.state)
    out: list[Preview] = []
    try:
        with table.store.atomic():
            seq = table.store.next_seq(table.id)
            rec = step.record(table.id, seq, g.turn, title, now)
            table.store.add_record(rec)
            g2 = turns.open_step(table, g, step.state, g.turn + 1, now, text=step.text)
            mails = letters.step_letters(table, g2, seq, g.turn, step.events, step.state, now, rec=rec)
            out.append(Preview(
                title, sorted(step.defaults),
                next((m.body for m in mails if m.kind == "digest"), ""),
                letters.forum_text(table, step.state, step.events, title, ruleset.outcome(step.state)),
                [(next((p.name for p in table.store.players(table.id) if p.address == m.to), m.to), m.subject, m.body)
                 for m in mails if m.kind == "private"]))
            raise _RollBack
    except _RollBack:
        pass
    return out[0]
