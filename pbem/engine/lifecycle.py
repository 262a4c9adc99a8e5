"""A game's life: created, players registered, started from the roster, players removed or replaced, finished."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pbem.clock import add_duration, iso
from pbem.core import Msg, Seat, SetupError
from pbem.dice import Dice, commitment, new_seed
from pbem.engine import letters, optional, turns
from pbem.engine.context import Context, EngineError
from pbem.engine.records import record
from pbem.mail.addresses import address_problem
from pbem.names import fold
from pbem.roster import RosterError, read_roster
from pbem.store import GameRow, PlayerRow

SETUP_TITLE = Msg("Début de partie", "Game start")
NAME_OK = re.compile(r"^[\w][\w .'\-]{0,38}[\w.]$|^\w$")
"""A player name: letters, digits, spaces, - ' . only, 1 to 40 characters."""


def new_game(ctx: Context, game_id: str, now: datetime, seed: str | None = None) -> GameRow:
    """Create a game from its config section; registration opens now."""
    s = ctx.settings(game_id)
    if ctx.store.game(game_id) is not None:
        raise EngineError(f"game {game_id!r} already exists", fr=f"la partie {game_id} existe déjà")
    check_roster(ctx, game_id)  # a faulty sheets file is refused before anyone registers
    seed = seed or new_seed()
    row = GameRow(id=game_id, ruleset=s.ruleset, phase="registration", seed=seed, commitment=commitment(seed),
                  turn=0, deadline=iso(add_duration(now, s.registration, ctx.config.timezone)), early_at=None,
                  state=None, reminders_sent=(), created_at=iso(now), seed_revealed=False)
    with ctx.store.atomic():
        ctx.store.add_game(row)
        ctx.store.log(game_id, iso(now), "mj", "game new", {"ruleset": s.ruleset, "commitment": row.commitment})
    return row


def start_game(ctx: Context, game_id: str, now: datetime, *, base: datetime | None = None) -> GameRow:
    """Close registration, seat the players, run the ruleset's setup and mail everyone their start.

    ``base`` is where the first deadline is counted from: the scheduled end of registration when the
    clock starts the game, else now.
    """
    g = ctx.game(game_id)
    if g.phase != "registration":
        raise EngineError(f"game {game_id} has already started", fr=f"la partie {game_id} a déjà commencé")
    s = ctx.settings(game_id)
    players = ctx.store.players(game_id)
    if len(players) < s.min_players:
        raise EngineError(f"game {game_id}: {len(players)} players registered, at least {s.min_players} needed",
                          fr=f"partie {game_id} : {len(players)} inscrits, il en faut au moins {s.min_players} "
                             "(ou baissez min_players dans config.toml)")
    ruleset = ctx.ruleset(game_id)
    fixed = roster_file(ctx, game_id)
    seats = []
    for p in players:
        extra = fixed.get(fold(p.name), {})
        seats.append(Seat(p.name, p.seat.get("role") or extra.get("role"),
                          p.seat.get("data") or extra.get("data", {}), p.gender or extra.get("gender")))
        if extra.get("gender") and not p.gender:  # the MJ's roster gives it when the player did not
            ctx.store.set_gender(game_id, p.name, extra["gender"])
            ctx.forget_roster(game_id)
    dice = Dice(g.seed, "setup")
    try:
        state, events = ruleset.setup(seats, dict(s.options), dice)
    except SetupError as e:
        raise EngineError(f"game {game_id} cannot start: {e.msg.en} (see docs/rules/{s.ruleset}.md)",
                          fr=f"la partie {game_id} ne peut pas commencer : {e.msg.fr} "
                             f"(voir docs/rules/{s.ruleset}.md)") from None
    with ctx.store.atomic():
        seq = ctx.store.next_seq(game_id)
        ctx.store.add_record(record(game_id, seq, "setup", 0, SETUP_TITLE.get(s.language),
                                    "setup", None, {}, [], dice.rolls, events, state, now))
        g = turns.open_step(ctx, g, state, 1, now, phase="running", base=base)
        ctx.outgoing.queue(letters.step_letters(ctx, g, seq, 0, events, state, now, setup=True), now)
        ctx.store.log(game_id, iso(now), "mj", "game start", {"players": [p.name for p in players]})
    letters.write_forum(ctx, game_id)
    return g


def check_roster(ctx: Context, game_id: str) -> None:
    """The game's roster file read and, when the ruleset checks rosters (1626 sheets), every fault with its line."""
    s = ctx.settings(game_id)
    if s.roster is None:
        return
    try:
        text = s.roster.read_text(encoding="utf-8")
    except OSError as e:
        raise EngineError(f"roster file {s.roster}: {e}", fr=f"fichier de joueurs {s.roster} : {e}") from None
    try:
        optional.check_roster(ctx.ruleset(game_id), text, dict(s.options))
    except SetupError as e:
        raise EngineError(f"roster file {s.roster} refused:\n{e.msg.en}",
                          fr=f"fichier de joueurs {s.roster} refusé :\n{e.msg.fr}") from None


def roster_file(ctx: Context, game_id: str) -> dict[str, dict[str, Any]]:
    """Roles and sheets the MJ prepared in the game's roster file, by folded player name."""
    path = ctx.settings(game_id).roster
    if path is None:
        return {}
    check_roster(ctx, game_id)
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise EngineError(f"roster file {path}: {e}") from None
    try:
        entries = read_roster(doc)
    except RosterError as e:
        raise EngineError(f"roster file {path}: {e}") from None
    return {fold(x.name): {"role": x.role, "data": dict(x.data), "gender": x.gender} for x in entries}


def finish(ctx: Context, game_id: str, now: datetime) -> GameRow:
    """The MJ ends a game that has no end of its own (a 1626 campaign) or stops one: the seed is revealed."""
    g = ctx.game(game_id)
    if g.phase == "finished":
        raise EngineError(f"game {game_id} is already finished", fr=f"la partie {game_id} est déjà terminée")
    with ctx.store.atomic():
        g = GameRow(**{**g.__dict__, "phase": "finished", "deadline": None, "early_at": None,
                       "seed_revealed": True})
        ctx.store.save_game(g)
        ctx.store.log(game_id, iso(now), "mj", "game finish", {"turn": g.turn})
    return g


# --- players ---


def add_player(ctx: Context, game_id: str, name: str, address: str, now: datetime, *, role: str | None = None,
               data: Mapping[str, Any] | None = None, password: str | None = None, by: str = "mj",
               gender: str | None = None) -> PlayerRow:
    """Register a player (during registration only); the name and address must be free.

    ``gender`` (``"f"`` or ``"m"``) makes the texts agree with the player; without it they are neutral.
    """
    g = ctx.game(game_id)
    if g.phase != "registration":
        raise EngineError(f"game {game_id} has started: players can only be replaced (pbem player replace)",
                          fr=f"la partie {game_id} a commencé : un joueur ne peut plus qu'être remplacé "
                             "(pbem player replace, ou REMPLACE par courriel)")
    name = " ".join(name.split())
    if not NAME_OK.match(name):
        raise EngineError(f"invalid player name {name!r}: letters, digits, spaces, - ' . only, 1 to 40 characters",
                          "invalid_name")
    address = address.strip().lower()
    problem = address_problem(address)
    if problem is not None:
        raise EngineError(f"invalid address {address!r}: {problem.en}", "invalid_address", {"reason": problem})
    for p in ctx.store.players(game_id):
        if fold(p.name) == fold(name):
            raise EngineError(f"the name {p.name!r} is already taken in {game_id}", "name_taken")
        if p.address == address:
            raise EngineError(f"{address} is already registered in {game_id} as {p.name!r}", "address_taken")
    seat: dict[str, Any] = {}
    if role:
        seat["role"] = role
    if data:
        seat["data"] = dict(data)
    row = PlayerRow(game=game_id, name=name, address=address, status="active", seat=seat, password=password,
                    registered_at=iso(now), gender=gender)
    ctx.store.add_player(row)
    ctx.store.log(game_id, iso(now), by, "player add", {"name": name, "address": address, "role": role,
                                                        **({"gender": gender} if gender else {})})
    ctx.forget_roster(game_id)
    return row


def remove_player(ctx: Context, game_id: str, name: str, now: datetime) -> None:
    p = ctx.player_named(game_id, name)
    with ctx.store.atomic():
        ctx.store.set_player_status(game_id, p.name, "removed")
        ctx.store.log(game_id, iso(now), "mj", "player remove", {"name": p.name})
    ctx.forget_roster(game_id)


def replace_player(ctx: Context, game_id: str, name: str, new_address: str, now: datetime) -> None:
    """A new person takes over a seat: same character, new address."""
    p = ctx.player_named(game_id, name)
    new_address = new_address.strip().lower()
    problem = address_problem(new_address)
    if problem is not None:
        raise EngineError(f"invalid address {new_address!r}: {problem.en}",
                          fr=f"adresse invalide « {new_address} » : {problem.fr}")
    other = ctx.store.player_by_address(game_id, new_address)
    if other is not None and other.name != p.name:
        raise EngineError(f"{new_address} already plays {other.name!r} in {game_id}",
                          fr=f"{new_address} joue déjà {other.name} dans {game_id}")
    with ctx.store.atomic():
        ctx.store.set_player_address(game_id, p.name, new_address)
        ctx.store.set_player_status(game_id, p.name, "active")
        ctx.store.set_missed(game_id, {p.name: 0})  # a new person: a fresh start
        ctx.store.log(game_id, iso(now), "mj", "player replace", {"name": p.name, "old": p.address,
                                                                    "new": new_address})
    ctx.forget_roster(game_id)
