"""Step records as stored: a step's orders, defaults, rolls and events <-> the JSON columns of the ``steps`` table.

A record holds everything a step was: the state before, the orders with their sources, who got
the defaults, every roll, every event with its audience, and the state after.  Re-runs, reports,
digests and exports all read a step back from here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pbem import serial
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
    return [[r.purpose, r.low, r.high, r.result] for r in rolls]


def rolls_from_json(data: Sequence[Sequence[Any]]) -> list[Roll]:
    return [Roll(p, lo, hi, res) for p, lo, hi, res in data]


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
