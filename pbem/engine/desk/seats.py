"""Seats changing hands: a player removed (now, or at the end of the open step) or replaced by a newcomer.

A player removed now plays no more from now on: their orders for the open step give way to the
rules' defaults.  Removed at the end of the step, their orders for it stand and they get its
results, then they leave.  A newcomer takes over the seat (the character, its orders, its past)
from a given step, under their own name and address: the departing address gets nothing more,
and the newcomer gets a briefing with everything the seat was told (start mail, private results,
tests), its situation now and the orders expected, and nothing else (`letters.briefing_text`).
Each one concerned is told by mail; the MJ reads in his answer precisely what was done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem.clock import iso
from pbem.engine.steps import actions, letters, lifecycle
from pbem.engine.table import Context, EngineError
from pbem.mail.addresses import address_problem
from pbem.outbox import Letter
from pbem.store import PlayerRow, SeatChangeRow


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


def _seat(ctx: Context, game_id: str, name: str) -> PlayerRow:
    p = ctx.player_named(game_id, name)
    if p.status != "active":
        raise EngineError(f"{p.name} no longer plays in {game_id}", fr=f"{p.name} ne joue déjà plus dans {game_id}")
    return p


def remove(ctx: Context, game_id: str, name: str, now: datetime, *, at_end: bool = False) -> SeatNews:
    """Remove a player, now or at the end of the open step (keeping their orders for it)."""
    p = _seat(ctx, game_id, name)
    g = ctx.game(game_id)
    with ctx.store.atomic():
        if at_end and g.phase == "running" and g.deadline is not None:
            _no_other_change(ctx, game_id, p.name)
            ctx.store.add_seat_change(game_id, p.name, "remove", g.turn, None, None, p.address, iso(now), None)
            ctx.store.log(game_id, iso(now), "mj", "player remove at end", {"name": p.name, "turn": g.turn})
            _tell(ctx, game_id, "leaving", p.name, p.address, now, turn=g.turn)
            return SeatNews(p.name, "remove", False, g.turn, old_address=p.address)
        dropped = g.phase == "running" and p.name in ctx.store.ordered_players(game_id, g.turn)
        _tell(ctx, game_id, "removed", p.name, p.address, now, turn=g.turn)
        lifecycle.remove_player(ctx, game_id, p.name, now)
        return SeatNews(p.name, "remove", True, None, old_address=p.address, orders_dropped=dropped)


def replace(ctx: Context, game_id: str, name: str, new_name: str, new_address: str, now: datetime, *,
            from_turn: int | None = None) -> SeatNews:
    """A newcomer takes over a seat from step ``from_turn`` (default: the open one, i.e. now).

    A seat whose player was removed may be given to a newcomer too: it plays again from then on.
    """
    p = ctx.player_named(game_id, name)
    g = ctx.game(game_id)
    address = new_address.strip().lower()
    problem = address_problem(address)
    if problem is not None:  # the same reasons as at registration (`pbem.mail.addresses`)
        raise EngineError(f"invalid address {new_address!r}: {problem.en}",
                          fr=f"adresse invalide « {new_address} » : {problem.fr}")
    other = ctx.store.player_by_address(game_id, address)
    if other is not None and other.name != p.name:
        raise EngineError(f"{address} already plays {other.name!r} in {game_id}",
                          fr=f"{address} joue déjà {other.name} dans {game_id}")
    newcomer = " ".join(new_name.split()) or address
    st = ctx.step_noun(game_id)
    if from_turn is not None and from_turn < g.turn:
        raise EngineError(f"step {from_turn} is over: a newcomer takes over from the open step {g.turn} or later",
                          fr=f"{st.the} {from_turn} est passé{st.e} : un remplaçant prend la place à partir "
                             f"{st.of} en cours ({g.turn}) ou d'{st.a} suivant{st.e}")
    with ctx.store.atomic():
        if from_turn is not None and from_turn > g.turn:
            _no_other_change(ctx, game_id, p.name)
            ctx.store.add_seat_change(game_id, p.name, "replace", from_turn - 1, newcomer, address, p.address,
                                      iso(now), None)
            ctx.store.log(game_id, iso(now), "mj", "player replace later",
                          {"name": p.name, "new": address, "from": from_turn})
            return SeatNews(p.name, "replace", False, from_turn - 1, newcomer, address, p.address)
        ctx.store.add_seat_change(game_id, p.name, "replace", g.turn - 1, newcomer, address, p.address, iso(now),
                                  iso(now))
        _hand_over(ctx, game_id, p, newcomer, address, now)
    return SeatNews(p.name, "replace", True, None, newcomer, address, p.address)


def _no_other_change(ctx: Context, game_id: str, player: str) -> None:
    for c in ctx.store.seat_changes(game_id):
        if c.player == player:
            what = "retrait" if c.kind == "remove" else f"remplacement par {c.new_name}"
            raise EngineError(f"a change of {player}'s seat is already planned", fr=f"un {what} de {player} est "
                              f"déjà prévu à la fin {ctx.step_noun(game_id).of} {c.after_turn}")


def _hand_over(ctx: Context, game_id: str, p: PlayerRow, newcomer: str, address: str, now: datetime) -> None:
    """The seat goes to the newcomer: the old address is told and hears no more; the newcomer is briefed."""
    if p.status == "active":  # (a removed player was told already)
        _tell(ctx, game_id, "replaced", p.name, p.address, now, turn=ctx.game(game_id).turn, newcomer=newcomer)
    history = actions.history_text(ctx, game_id, p.name) if actions.action_records(ctx, game_id) else None
    brief = letters.briefing_text(ctx, game_id, p.name, newcomer, history)
    lifecycle.replace_player(ctx, game_id, p.name, address, now)
    g = ctx.game(game_id)
    ctx.outgoing.queue([Letter(f"briefing-{g.turn}-{p.name}-{address}", game_id, g.turn, "private", address,
                               brief.subject, brief.body)], now)
    ctx.store.log(game_id, iso(now), "mj", "player briefed", {"name": p.name, "newcomer": newcomer, "to": address})


def step_done(ctx: Context, game_id: str, turn: int, now: datetime) -> list[SeatChangeRow]:
    """The changes planned for the end of step ``turn``, carried out (its results went out first)."""
    done = []
    for c in ctx.store.seat_changes(game_id):
        if c.after_turn > turn:
            continue
        p = ctx.store.player(game_id, c.player)
        if p is not None and (p.status == "active" or c.kind == "replace"):
            if c.kind == "remove":
                _tell(ctx, game_id, "removed", p.name, p.address, now, turn=turn, at_end=True)
                lifecycle.remove_player(ctx, game_id, p.name, now)
            else:
                _hand_over(ctx, game_id, p, c.new_name or "", c.new_address or "", now)
        ctx.store.seat_change_done(c.id, iso(now))
        done.append(c)
    return done


def _tell(ctx: Context, game_id: str, what: str, player: str, address: str, now: datetime, *, turn: int,
          newcomer: str | None = None, at_end: bool = False) -> None:
    """The departing player is told (removed now, leaving at the end of the step, replaced)."""
    r = ctx.renderer(game_id)
    state = ctx.state_cached(ctx.game(game_id))
    title = ctx.ruleset(game_id).step_title(state).get(ctx.settings(game_id).language) if state is not None else ""
    t = r.mail_text("seat", tag=ctx.tag(game_id), what=what, player=player, newcomer=newcomer, title=title,
                    at_end=at_end, game_title=ctx.settings(game_id).title,
                    salutation=ctx.salutation(game_id, state, player))
    ctx.outgoing.queue([Letter(f"seat-{what}-{turn}-{player}-{address}", game_id, turn, "notice", address, t.subject,
                               t.body)], now)


def pending_text(ctx: Context, game_id: str) -> list[str]:
    """The changes planned for the end of a step, one line each (for the MJ's status), in words that need no gender."""
    st = ctx.step_noun(game_id)
    out = []
    for c in ctx.store.seat_changes(game_id):
        if c.kind == "remove":
            out.append(f"{c.player} : départ à la fin {st.of} {c.after_turn}")
        else:
            out.append(f"{c.player} : place confiée à {c.new_name} <{c.new_address}> à partir {st.of} "
                       f"{c.after_turn + 1}")
    return out
