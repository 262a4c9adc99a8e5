"""Immediate orders (a 1626 test): carried out and recorded, each reader's mail titled for that reader,
one MJ digest per batch of mail, and their history as each reader may see it (RAPPORT, `pbem turn show`).

Titles come from the ruleset's ``action_title`` when it gives one (`pbem.core.Ruleset`): a secret test is
« Test secret n° 4 » to its player and « Test n° 4 d'Armand (secret) » to the MJ.  The titles are
kept in the record, so a report written later uses the reader's own, never the MJ's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pbem.core import MJ, Event, Order, Ruleset
from pbem.dice import Dice
from pbem.engine.phrases import say
from pbem.engine.steps import letters
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.store import GameRow, SourcedOrders, StepRecord
from pbem.store.records import rolls_json


@dataclass(frozen=True)
class Done:
    """One immediate order carried out, as the batch digest lists it."""

    seq: int
    player: str
    order: Order
    state_before: Any


def carry_out(table: Table, g: GameRow, state: Any, player: str, order: Order, now: datetime,
              author: str) -> tuple[GameRow, Any, str | None] | None:
    """`Ruleset.immediate`, recorded, its mails queued; None when the order waits for the step.

    Returns the game row, the new state and what the ``author`` of the mail reads in the ack.
    Every other player concerned gets a private mail; the MJ gets it in the digest of the batch
    unless he wrote the mail himself, or the order changed nothing (FICHE, HISTORIQUE).
    """
    ruleset = table.ruleset
    lang = table.settings.language
    seq = table.store.next_seq(table.id)
    dice = Dice(g.seed, f"action-{seq}")
    done = ruleset.immediate(state, player, order, dice)
    if done is None:
        return None
    new_state, events = done
    readers = [p.name for p in table.store.players(table.id, include_removed=True)
               if any(e.audience.includes(p.name) and e.audience.kind != "mj" for e in events)]
    titles = {viewer: _action_title(ruleset, state, player, order, viewer, lang)
              for viewer in [MJ, *readers]}
    # the state's text made once, from what it shares with the state before (a history of hundreds of
    # tests gains one): the record keeps the change, the game row the whole text, written once
    before = g.state if g.state is not None else table.encode(state)
    after = table.encode(new_state, like=before)
    rec = table.store.add_action(StepRecord(table.id, seq, "action", g.turn, titles[MJ], f"action-{seq}", None,
                                            {player: SourcedOrders((order,))}, (), tuple(dice.rolls), tuple(events),
                                            after, now, titles=titles), table.data_of(before), table.data_of(after))
    g = replace(g, state=after)
    table.store.save_game(g)
    share = letters.author_share(table, events, author)
    table.outgoing.queue(_private_letters(table, g, seq, events, author, titles, new_state), now)
    if author != MJ and rec.changed:  # a player reading their sheet is no news for the MJ
        table.outgoing.gather(f"actions-{table.id}", Done(seq, player, order, state),
                              lambda batch: batch_digest(table, batch), now)
    return g, new_state, share


def _private_letters(table: Table, g: GameRow, seq: int, events: Sequence[Event], author: str,
                     titles: Mapping[str, str], state: Any) -> list[Letter]:
    out = []
    for p in table.store.players(g.id):
        if p.name == author:
            continue
        theirs = letters.told_privately(events, p.name)
        if theirs:
            t = table.mail_to("private", p.name, state, title=titles.get(p.name, ""), events=theirs,
                              status=None, deadline=None, next_title=None, final=None, setup=False,
                              rectificatif=False, defaulted=False, default_lines=[], asked=False, abandoned=False,
                              missed=0, news_shown=0, news_left=0)
            out.append(Letter(f"rec{seq}-private-{p.name}", g.id, g.turn, "private", p.address, t.subject, t.body,
                              record_seq=seq))
    return out


def batch_digest(table: Table, batch: Sequence[Done]) -> list[Letter]:
    """One MJ digest for the immediate orders of one batch of mail; its subject names the characters."""
    if not batch:
        return []
    ruleset = table.ruleset
    s = table.settings
    r = table.renderer
    items = []
    for done in batch:
        rec = table.store.record(table.id, done.seq)
        assert rec is not None
        items.append(_digest_item(table, rec))
    title = _batch_title(ruleset, [d.state_before for d in batch], [(d.player, d.order) for d in batch],
                         [item["title"] for item in items], s.language)
    failed = letters.unreported_failures(table)
    table.store.mark_reported([f.id for f in failed])
    t = r.mail_text("digest_actions", tag=table.tag, title=title, items=items, failed=failed)
    key = f"actions-{batch[0].seq}-{batch[-1].seq}-digest"
    g = table.row
    return [Letter(key, table.id, g.turn, "digest", mj, t.subject, t.body, record_seq=batch[-1].seq) for mj in s.mj]


def _action_title(ruleset: Ruleset[Any], state: Any, player: str, order: Order, viewer: str, lang: str) -> str:
    """The title of an immediate order for one reader: the ruleset's, else the order as typed."""
    try:
        title = ruleset.action_title(state, player, order, viewer)
    except Exception:  # a title is never worth losing the order's mail: fall back on the line
        title = None
    return title.get(lang) if isinstance(title, Msg) else order.text or order.verb


def _batch_title(ruleset: Ruleset[Any], states: Sequence[Any], actions: Sequence[tuple[str, Order]],
                 fallback: Sequence[str], lang: str) -> str:
    """The subject of the MJ's digest of several immediate orders.

    ``states`` are the states before each action: the ruleset's ``batch_title`` is asked with the
    first one, then with the last (an answer to a request made in the same batch only exists in a
    later state).  Without a title from the ruleset: the titles of the actions (``fallback``).
    """
    for state in (states[0], states[-1]) if len(states) > 1 else states[:1]:
        try:
            title = ruleset.batch_title(state, list(actions))
        except Exception:
            continue
        if isinstance(title, Msg):
            return title.get(lang)
    unique = list(dict.fromkeys(fallback))
    return unique[0] if len(unique) == 1 else " ; ".join(unique[:3]) + (" …" if len(unique) > 3 else "")


def _digest_item(table: Table, rec: StepRecord) -> dict[str, Any]:
    r = table.renderer
    player, given = next(iter(rec.orders.items()))
    return {"seq": rec.seq, "title": rec.title, "player": "MJ" if player == MJ else player,
            "lines": [o.text for o in given.orders],
            "rolls": rolls_json(rec.rolls), "context": rec.dice_context,
            "events": [(e.audience.kind, list(e.audience.players), r.event_text(e)) for e in rec.events]}


# --- the history of a game played by immediate orders ---


def action_records(table: Table) -> list[StepRecord]:
    """The records of immediate orders that changed the game (tests, requests, wounds; not FICHE or DEMANDES)."""
    return [rec for rec in table.store.records(table.id, "action") if rec.changed]


def plays_by_actions(table: Table) -> bool:
    """Is this game played by immediate orders only (no step was ever resolved, some orders were)?"""
    return not table.store.has_records(table.id, "step") and table.store.has_records(table.id, "action")


def history_text(table: Table, viewer: str, number: int | None = None) -> str:
    """The immediate orders ``viewer`` was told of, each with the viewer's own title (the MJ: all of them).

    A player reads only the events whose audience includes them, never an MJ-only event: a secret
    test shows them only that it happened.  ``number`` keeps the one record of that number.
    """
    r = table.renderer
    lang = table.settings.language
    blocks = []
    for rec in action_records(table):
        if number is not None and rec.seq != number:
            continue
        events = [e for e in rec.events if e.audience.includes(viewer) and (viewer == MJ or e.audience.kind != "mj")]
        if not events:
            continue
        title = (rec.titles or {}).get(viewer) or (rec.title if viewer == MJ else f"n° {rec.seq}")
        when = table.local(rec.resolved_at)
        head = f"{title} ({say(r, 'record_number', seq=rec.seq, when=when)})"
        if viewer == MJ:
            lines = [f"  {'MJ' if who == MJ else who}{' :' if lang == 'fr' else ':'} {o.text}"
                     for who, given in rec.orders.items() for o in given.orders]
            rolls = [f"  {line}" for line in r.mail.filters["dice_lines"](rec.rolls, table.settings.ruleset)]
            body = "\n".join([*lines, *rolls, *(f"  {t}" for t in r.events_text(events))])
        else:
            body = "\n".join(f"  {t}" for t in r.events_text(events))
        blocks.append(f"{head}\n{body}")
    if not blocks:
        if number is not None:
            raise EngineError(Msg(f"aucun ordre immédiat n° {number} dans {table.id}",
                                  f"no immediate order numbered {number} in {table.id}"))
        return say(r, "no_history")
    return "\n\n".join(blocks)


def turn_show(table: Table, number: int | None = None) -> str:
    """`pbem turn show`: the digest of a resolved step, or, in a game of immediate orders, its history."""
    if plays_by_actions(table):
        return history_text(table, MJ, number)
    return letters.digest_text(table, number)
