"""Step records as stored: a step's orders, defaults, rolls and events <-> the JSON columns of the ``steps`` table.

A record holds everything a step was: the state before, the orders with their sources, who got
the defaults, every roll, every event with its audience, and the state after.  Re-runs, reports,
digests and exports all read a step back from here.

An immediate order (``kind = "action"``, a 1626 test) changes little of a state that keeps growing,
so its record keeps the change (``state_patch``, `pbem.statediff`) from the record before it
instead of two whole states; every `ACTION_CHECKPOINT`-th record, and any whose change would be
large, keeps its whole state after (a checkpoint), so a state is rebuilt from at most that many
changes (`state_after_json`).  The state before an action is the state after the record before it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pbem import serial, statediff
from pbem.clock import iso
from pbem.core import Audience, Event, Order
from pbem.dice import Roll


def sourced_orders_json(orders: Mapping[str, Sequence[Order]],
                        sources: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """A step's orders as recorded: each player's orders with where they came from (mail, MJ, default)."""
    return {p: {"orders": [[o.verb, list(o.args), o.text] for o in os], **sources[p]} for p, os in orders.items()}


def events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "audience": [e.audience.kind, list(e.audience.players)], "data": serial.to_data(e.data)}
            for e in events]


def events_from_json(data: Sequence[Mapping[str, Any]]) -> list[Event]:
    return [Event(d["kind"], Audience(d["audience"][0], tuple(d["audience"][1])), d["data"]) for d in data]


def rolls_json(rolls: Sequence[Roll]) -> list[list[Any]]:
    """``[purpose, low, high, result]``, and ``kind, drawn`` when the roll says what it gave (`Roll`)."""
    return [[r.purpose, r.low, r.high, r.result, *((r.kind, r.drawn) if r.kind else ())] for r in rolls]


def rolls_from_json(data: Sequence[Sequence[Any]]) -> list[Roll]:
    """Rolls as stored (four fields in records written before rolls said what they gave)."""
    return [Roll(d[0], d[1], d[2], d[3], False, *(d[4:6] if len(d) >= 6 else ())) for d in data]


def record_events(rec: Mapping[str, Any]) -> list[Event]:
    """The events of a stored record."""
    return events_from_json(json.loads(rec["events"]))


def record(game_id: str, seq: int, kind: str, turn: int, title: str, context: str, before: Any,
           orders: Mapping[str, Any], defaults: Sequence[str], rolls: Sequence[Roll], events: Sequence[Event],
           after: Any, now: datetime) -> dict[str, Any]:
    """A ``steps`` row: ``kind`` is ``setup``, ``step`` (a resolved step) or ``action`` (an immediate order)."""
    return {
        "game": game_id, "seq": seq, "kind": kind, "turn": turn, "title": title, "dice_context": context,
        "state_before": serial.dumps(before) if before is not None else None,
        "orders": json.dumps(orders, ensure_ascii=False, sort_keys=True), "defaults": json.dumps(list(defaults)),
        "rolls": json.dumps(rolls_json(rolls)), "events": json.dumps(events_json(events), ensure_ascii=False),
        "state_after": serial.dumps(after), "resolved_at": iso(now), "published": 1, "forum_written": 0,
    }


ACTION_CHECKPOINT = 50
"""An action record keeps its whole state after when its number is a multiple of this."""


def action_record(game_id: str, seq: int, turn: int, title: str, before_json: str, player: str, order: Order,
                  rolls: Sequence[Roll], events: Sequence[Event], after: Any, titles: Mapping[str, str],
                  now: datetime) -> dict[str, Any]:
    """A ``records`` row for an immediate order: its change of state (or, at a checkpoint, the whole state after).

    ``titles`` is what each reader concerned calls it (the MJ under `pbem.core.MJ`): a report
    shown later uses the reader's own title, never the MJ's.
    """
    after_json = serial.dumps(after)
    changes = statediff.diff(json.loads(before_json), json.loads(after_json))
    patch = json.dumps(changes, ensure_ascii=False, separators=(",", ":"))
    checkpoint = seq % ACTION_CHECKPOINT == 0 or len(patch) * 2 > len(after_json)
    return {
        "game": game_id, "seq": seq, "kind": "action", "turn": turn, "title": title, "dice_context": f"action-{seq}",
        "state_before": None,
        "orders": json.dumps({player: [[order.verb, list(order.args), order.text]]}, ensure_ascii=False,
                             sort_keys=True),
        "defaults": "[]", "rolls": json.dumps(rolls_json(rolls)),
        "events": json.dumps(events_json(events), ensure_ascii=False),
        "state_after": after_json if checkpoint else None, "state_patch": None if checkpoint else patch,
        "changed": int(bool(changes)), "titles": json.dumps(dict(titles), ensure_ascii=False, sort_keys=True),
        "resolved_at": iso(now), "published": 1, "forum_written": 1,
    }


def state_after_json(records: Sequence[Mapping[str, Any]], seq: int) -> str:
    """The state after record ``seq``, rebuilt from the last whole state at or before it and the changes since.

    ``records`` are a game's records in order (at least those up to ``seq``).
    """
    chain: list[Mapping[str, Any]] = []
    for rec in reversed([r for r in records if r["seq"] <= seq]):
        chain.append(rec)
        if rec["state_after"] is not None:
            break
    else:
        raise ValueError(f"record {seq}: no whole state to rebuild it from")
    data = json.loads(chain[-1]["state_after"])
    for rec in reversed(chain[:-1]):
        data = statediff.apply(data, json.loads(rec["state_patch"]))
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
