"""The MJ's commands over seats: a player removed (now, or at the end of the open step) or replaced by a newcomer.

A player removed now plays no more from now on: their orders for the open step give way to the
rules' defaults.  Removed at the end of the step, their orders for it stand and they get its
results, then they leave.  A newcomer takes over the seat (the character, its orders, its past)
from a given step, under their own name and address: the departing address gets nothing more,
and the newcomer gets a briefing with everything the seat was told (start mail, private results,
tests), its situation now and the orders expected, and nothing else (`letters.briefing_text`).
Each one concerned is told by mail (`pbem.engine.steps.handover`, which also carries out the changes
planned for the end of a step); the MJ reads in his answer precisely what was done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.engine.steps import handover
from pbem.engine.table import EngineError, Table
from pbem.msg import Msg
from pbem.store import PlayerRow


@dataclass(frozen=True)
class SeatNews:
    """What a removal or replacement did, or will do at the end of a step."""

    player: str
    kind: str  # remove | replace
    now: bool
    after_turn: int | None  # when not now: the step at whose end it happens
    new_name: str | None = None
    new_address: str | None = None
    old_address: str = ""
    orders_dropped: bool = False  # removed now with orders for the open step: they no longer count


def _seat(table: Table, name: str) -> PlayerRow:
    p = table.player_named(name)
    if p.status != "active":
        raise EngineError(Msg(f"{p.name} ne joue déjà plus dans {table.id}",
                              f"{p.name} no longer plays in {table.id}"))
    return p


def remove(table: Table, name: str, now: datetime, *, at_end: bool = False) -> SeatNews:
    """Remove a player, now or at the end of the open step (keeping their orders for it)."""
    p = _seat(table, name)
    g = table.row
    with table.store.atomic():
        if at_end and g.phase == "running" and g.deadline is not None:
            _no_other_change(table, p.name)
            table.store.add_seat_change(table.id, p.name, "remove", g.turn, None, None, p.address, now, None)
            table.store.log(table.id, now, "mj", "player remove at end", {"name": p.name, "turn": g.turn})
            handover.tell(table, "leaving", p.name, p.address, now, turn=g.turn)
            return SeatNews(p.name, "remove", False, g.turn, old_address=p.address)
        dropped = g.phase == "running" and p.name in table.store.ordered_players(table.id, g.turn)
        handover.tell(table, "removed", p.name, p.address, now, turn=g.turn)
        handover.remove_player(table, p, now)
        return SeatNews(p.name, "remove", True, None, old_address=p.address, orders_dropped=dropped)


def check_remove(table: Table, name: str) -> None:
    """Raises when ``name`` cannot be removed (no such player, or no longer playing): before a removal is asked."""
    _seat(table, name)


def check_replace(table: Table, name: str, new_address: str, from_turn: int | None) -> PlayerRow:
    """The seat a replacement would give, or raises: the address is the game's or the MJ's, or already plays
    another seat, or the step is over.  Checked before a replacement is asked, and again when it is done."""
    p = table.player_named(name)
    g = table.row
    address = new_address.strip().lower()
    handover.check_seat_address(table, address)  # as at registration, and never the game's or the MJ's
    other = table.store.player_by_address(table.id, address)
    if other is not None and other.name != p.name:
        raise EngineError(Msg(f"{address} joue déjà {other.name} dans {table.id}",
                              f"{address} already plays {other.name!r} in {table.id}"))
    st = table.step_noun()
    if from_turn is not None and from_turn < g.turn:
        raise EngineError(Msg(f"{st.the} {from_turn} est passé{st.e} : un remplaçant prend la place à partir "
                              f"{st.of} en cours ({g.turn}) ou d'{st.a} suivant{st.e}",
                              f"step {from_turn} is over: a newcomer takes over from the open step {g.turn} or later"))
    return p


def replace(table: Table, name: str, new_name: str, new_address: str, now: datetime, *,
            from_turn: int | None = None) -> SeatNews:
    """A newcomer takes over a seat from step ``from_turn`` (default: the open one, i.e. now).

    A seat whose player was removed may be given to a newcomer too: it plays again from then on.
    """
    p = check_replace(table, name, new_address, from_turn)
    g = table.row
    address = new_address.strip().lower()
    newcomer = " ".join(new_name.split()) or address
    with table.store.atomic():
        if from_turn is not None and from_turn > g.turn:
            _no_other_change(table, p.name)
            table.store.add_seat_change(table.id, p.name, "replace", from_turn - 1, newcomer, address, p.address,
                                      now, None)
            table.store.log(table.id, now, "mj", "player replace later",
                          {"name": p.name, "new": address, "from": from_turn})
            return SeatNews(p.name, "replace", False, from_turn - 1, newcomer, address, p.address)
        table.store.add_seat_change(table.id, p.name, "replace", g.turn - 1, newcomer, address, p.address, now,
                                  now)
        handover.hand_over(table, p, newcomer, address, now)
    return SeatNews(p.name, "replace", True, None, newcomer, address, p.address)


def _no_other_change(table: Table, player: str) -> None:
    for c in table.store.seat_changes(table.id):
        if c.player == player:
            what = "retrait" if c.kind == "remove" else f"remplacement par {c.new_name}"
            raise EngineError(Msg(f"un {what} de {player} est "
                                  f"déjà prévu à la fin {table.step_noun().of} {c.after_turn}",
                                  f"a change of {player}'s seat is already planned"))


def pending_text(table: Table) -> list[str]:
    """The changes planned for the end of a step, one line each (for the MJ's status), in words that need no gender."""
    st = table.step_noun()
    out = []
    for c in table.store.seat_changes(table.id):
        if c.kind == "remove":
            out.append(f"{c.player} : départ à la fin {st.of} {c.after_turn}")
        else:
            out.append(f"{c.player} : place confiée à {c.new_name} <{c.new_address}> à partir {st.of} "
                       f"{c.after_turn + 1}")
    return out
