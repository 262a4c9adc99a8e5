"""Immediate orders (a 1626 test): carried out and recorded, each reader's mail titled for that reader,
one MJ digest per batch of mail, and their history as each reader may see it (RAPPORT, `pbem turn show`).

Titles come from the ruleset when it has ``action_title`` (`pbem.engine.optional`): a secret test is
« Test secret n° 4 » to its player and « Test n° 4 d'Armand (secret) » to the MJ.  The titles are
kept in the record, so a report written later uses the reader's own, never the MJ's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem import serial
from pbem.core import MJ, Event, Order
from pbem.dice import Dice
from pbem.engine import letters, optional
from pbem.engine.context import Context, EngineError
from pbem.engine.phrases import say
from pbem.engine.records import action_record, events_from_json, record_events
from pbem.outbox import Letter
from pbem.store import GameRow


@dataclass(frozen=True)
class Done:
    """One immediate order carried out, as the batch digest lists it."""

    seq: int
    player: str
    order: Order
    state_before: Any


def carry_out(ctx: Context, g: GameRow, state: Any, player: str, order: Order, now: datetime,
              author: str) -> tuple[GameRow, Any, str | None] | None:
    """`Ruleset.immediate`, recorded, its mails queued; None when the order waits for the step.

    Returns the game row, the new state and what the ``author`` of the mail reads in the ack.
    Every other player concerned gets a private mail; the MJ gets it in the digest of the batch
    unless he wrote the mail himself, or the order changed nothing (FICHE, HISTORIQUE).
    """
    game_id = g.id
    ruleset = ctx.ruleset(game_id)
    lang = ctx.settings(game_id).language
    seq = ctx.store.next_seq(game_id)
    dice = Dice(g.seed, f"action-{seq}")
    done = ruleset.immediate(state, player, order, dice)
    if done is None:
        return None
    new_state, events = done
    readers = [p.name for p in ctx.store.players(game_id, include_removed=True)
               if any(e.audience.includes(p.name) and e.audience.kind != "mj" for e in events)]
    titles = {viewer: optional.action_title(ruleset, state, player, order, viewer, lang)
              for viewer in [MJ, *readers]}
    before = g.state if g.state is not None else serial.dumps(state)
    rec = action_record(game_id, seq, g.turn, titles[MJ], before, player, order, dice.rolls, events, new_state,
                        titles, now)
    ctx.store.add_record(rec)
    g = GameRow(**{**g.__dict__, "state": serial.dumps(new_state)})
    ctx.store.save_game(g)
    share = letters.author_share(ctx, game_id, events, author)
    ctx.outgoing.queue(_private_letters(ctx, g, seq, events, author, titles, new_state), now)
    if author != MJ and rec["changed"]:  # a player reading their sheet is no news for the MJ
        ctx.outgoing.gather(f"actions-{game_id}", Done(seq, player, order, state),
                            lambda batch: batch_digest(ctx, game_id, batch), now)
    return g, new_state, share


def _private_letters(ctx: Context, g: GameRow, seq: int, events: Sequence[Event], author: str,
                     titles: Mapping[str, str], state: Any) -> list[Letter]:
    r = ctx.renderer(g.id)
    tag = ctx.tag(g.id)
    out = []
    for p in ctx.store.players(g.id):
        if p.name == author:
            continue
        theirs = letters.told_privately(events, p.name)
        if theirs:
            t = r.mail_text("private", tag=tag, player=p.name, title=titles.get(p.name, ""), events=theirs,
                            status=None, deadline=None, next_title=None, final=None, setup=False,
                            rectificatif=False, defaulted=False, default_lines=[], asked=False, abandoned=False,
                            missed=0, salutation=ctx.salutation(g.id, state, p.name))
            out.append(Letter(f"rec{seq}-private-{p.name}", g.id, g.turn, "private", p.address, t.subject, t.body,
                              record_seq=seq))
    return out


def batch_digest(ctx: Context, game_id: str, batch: Sequence[Done]) -> list[Letter]:
    """One MJ digest for the immediate orders of one batch of mail; its subject names the characters."""
    if not batch:
        return []
    ruleset = ctx.ruleset(game_id)
    s = ctx.settings(game_id)
    r = ctx.renderer(game_id)
    items = []
    for done in batch:
        rec = ctx.store.record(game_id, done.seq)
        assert rec is not None
        items.append(_digest_item(ctx, game_id, rec))
    title = optional.batch_title(ruleset, [d.state_before for d in batch], [(d.player, d.order) for d in batch],
                                 [item["title"] for item in items], s.language)
    failed = letters.unreported_failures(ctx, game_id)
    ctx.store.mark_reported([f["id"] for f in failed])
    t = r.mail_text("digest_actions", tag=ctx.tag(game_id), title=title, items=items, failed=failed)
    key = f"actions-{batch[0].seq}-{batch[-1].seq}-digest"
    g = ctx.game(game_id)
    return [Letter(key, game_id, g.turn, "digest", mj, t.subject, t.body, record_seq=batch[-1].seq) for mj in s.mj]


def _digest_item(ctx: Context, game_id: str, rec: Mapping[str, Any]) -> dict[str, Any]:
    r = ctx.renderer(game_id)
    orders = json.loads(rec["orders"])
    player, given = next(iter(orders.items()))
    return {"seq": rec["seq"], "title": rec["title"], "player": "MJ" if player == MJ else player,
            "lines": [text for _v, _a, text in given],
            "rolls": json.loads(rec["rolls"]), "context": rec["dice_context"],
            "events": [(e.audience.kind, list(e.audience.players), r.event_text(e)) for e in record_events(rec)]}


# --- the history of a game played by immediate orders ---


def action_records(ctx: Context, game_id: str) -> list[dict[str, Any]]:
    """The records of immediate orders that changed the game (tests, requests, wounds; not FICHE or DEMANDES)."""
    return [rec for rec in ctx.store.records(game_id, "action") if rec.get("changed", 1)]


def plays_by_actions(ctx: Context, game_id: str) -> bool:
    """Is this game played by immediate orders only (no step was ever resolved, some orders were)?"""
    return not ctx.store.records(game_id, "step") and bool(ctx.store.records(game_id, "action"))


def history_text(ctx: Context, game_id: str, viewer: str, number: int | None = None) -> str:
    """The immediate orders ``viewer`` was told of, each with the viewer's own title (the MJ: all of them).

    A player reads only the events whose audience includes them, never an MJ-only event: a secret
    test shows them only that it happened.  ``number`` keeps the one record of that number.
    """
    r = ctx.renderer(game_id)
    lang = ctx.settings(game_id).language
    blocks = []
    for rec in action_records(ctx, game_id):
        if number is not None and rec["seq"] != number:
            continue
        events = [e for e in events_from_json(json.loads(rec["events"]))
                  if e.audience.includes(viewer) and (viewer == MJ or e.audience.kind != "mj")]
        if not events:
            continue
        titles = json.loads(rec.get("titles") or "{}")
        title = titles.get(viewer) or (rec["title"] if viewer == MJ else f"n° {rec['seq']}")
        when = ctx.local(rec["resolved_at"])
        head = f"{title} ({say(r, 'record_number', seq=rec['seq'], when=when)})"
        if viewer == MJ:
            orders = json.loads(rec["orders"])
            lines = [f"  {'MJ' if who == MJ else who}{' :' if lang == 'fr' else ':'} {text}"
                     for who, given in orders.items() for _v, _a, text in given]
            rolls = [f"  {line}" for line in r.mail.filters["dice_lines"](json.loads(rec["rolls"]),
                                                                        ctx.settings(game_id).ruleset)]
            body = "\n".join([*lines, *rolls, *(f"  {t}" for t in r.events_text(events))])
        else:
            body = "\n".join(f"  {t}" for t in r.events_text(events))
        blocks.append(f"{head}\n{body}")
    if not blocks:
        if number is not None:
            raise EngineError(f"no immediate order numbered {number} in {game_id}",
                              fr=f"aucun ordre immédiat n° {number} dans {game_id}")
        return say(r, "no_history")
    return "\n\n".join(blocks)


def turn_show(ctx: Context, game_id: str, number: int | None = None) -> str:
    """`pbem turn show`: the digest of a resolved step, or, in a game of immediate orders, its history."""
    if plays_by_actions(ctx, game_id):
        return history_text(ctx, game_id, MJ, number)
    return letters.digest_text(ctx, game_id, number)
