"""Seats changing hands: a player leaves the game, or a newcomer takes over a seat and is briefed; and the
changes the MJ planned for the end of a step, carried out once its results went out (`step_done`).

The departing player is told by mail and hears nothing more; the newcomer gets a briefing with
everything the seat was told (start mail, private results, tests), its situation now and the
orders expected, and nothing else (`letters.briefing_text`).  The MJ's commands that decide these
changes are in `pbem.engine.desk.seats`.
"""

from __future__ import annotations

from datetime import datetime

from pbem.engine.steps import actions, letters
from pbem.engine.table import EngineError, Table
from pbem.mail.addresses import address_problem, reserved_problem
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.store import PlayerRow, SeatChangeRow


def remove_player(table: Table, p: PlayerRow, now: datetime) -> None:
    """The seat ``p`` (the caller found it already) leaves the game."""
    with table.store.atomic():
        table.store.set_player_status(table.id, p.name, "removed")
        table.store.log(table.id, now, "mj", "player remove", {"name": p.name})
    table.forget_roster()


def replace_player(table: Table, p: PlayerRow, new_address: str, now: datetime) -> None:
    """A new person takes over the seat ``p`` (the caller found it already): same character, new address."""
    new_address = new_address.strip().lower()
    check_seat_address(table, new_address)
    other = table.store.player_by_address(table.id, new_address)
    if other is not None and other.name != p.name:
        raise EngineError(Msg(f"{new_address} joue déjà {other.name} dans {table.id}",
                              f"{new_address} already plays {other.name!r} in {table.id}"))
    with table.store.atomic():
        table.store.set_player_address(table.id, p.name, new_address)
        if new_address != p.address:  # a new person: the old password stops working, the newcomer sets his own
            table.store.set_player_password(table.id, p.name, None)
        table.store.set_player_status(table.id, p.name, "active")
        table.store.set_missed(table.id, {p.name: 0})  # a new person: a fresh start
        table.store.log(table.id, now, "mj", "player replace", {"name": p.name, "old": p.address,
                                                                    "new": new_address})
    table.forget_roster()


def check_seat_address(table: Table, address: str) -> None:
    """A seat's new address: one pbem can write to, and neither the game's own nor an MJ's (raises)."""
    problem = address_problem(address)
    if problem is not None:
        raise EngineError(Msg(f"adresse invalide « {address} » : {problem.fr}",
                              f"invalid address {address!r}: {problem.en}"))
    reserved = reserved_problem(address, table.config.address, table.settings.mj)
    if reserved is not None:
        raise EngineError(reserved, "address_reserved")


def hand_over(table: Table, p: PlayerRow, newcomer: str, address: str, now: datetime) -> None:
    """The seat goes to the newcomer: the old address is told and hears no more; the newcomer is briefed."""
    if p.status == "active":  # (a removed player was told already)
        tell(table, "replaced", p.name, p.address, now, turn=table.row.turn, newcomer=newcomer)
    history = actions.history_text(table, p.name) if actions.action_records(table) else None
    brief = letters.briefing_text(table, p.name, newcomer, history)
    replace_player(table, p, address, now)  # (checks the address first)
    g = table.row
    table.outgoing.queue([Letter(f"briefing-{g.turn}-{p.name}-{address}", table.id, g.turn, "private", address,
                                 brief.subject, brief.body)], now)
    table.store.log(table.id, now, "mj", "player briefed", {"name": p.name, "newcomer": newcomer, "to": address})


def step_done(table: Table, turn: int, now: datetime) -> list[SeatChangeRow]:
    """The changes planned for the end of step ``turn``, carried out (its results went out first)."""
    done = []
    for c in table.store.seat_changes(table.id):
        if c.after_turn > turn:
            continue
        p = table.store.player(table.id, c.player)
        if p is not None and (p.status == "active" or c.kind == "replace"):
            if c.kind == "remove":
                tell(table, "removed", p.name, p.address, now, turn=turn, at_end=True)
                remove_player(table, p, now)
            else:
                hand_over(table, p, c.new_name or "", c.new_address or "", now)
        table.store.seat_change_done(c.id, now)
        done.append(c)
    return done


def tell(table: Table, what: str, player: str, address: str, now: datetime, *, turn: int,
         newcomer: str | None = None, at_end: bool = False) -> None:
    """The departing player is told (removed now, leaving at the end of the step, replaced)."""
    state = table.known().state  # (never the step after results still held for the MJ)
    title = table.ruleset.step_title(state).get(table.settings.language) if state is not None else ""
    t = table.mail_to("seat", player, state, what=what, newcomer=newcomer, title=title,
                      at_end=at_end, game_title=table.settings.title)
    table.outgoing.queue([Letter(f"seat-{what}-{turn}-{player}-{address}", table.id, turn, "notice", address,
                                 t.subject, t.body)], now)
