"""A game's life: created, players registered, started from the roster, players removed or replaced, finished."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from pbem.clock import add_duration
from pbem.config import check_game_id
from pbem.core import Msg, Seat, SetupError
from pbem.dice import Dice, commitment, new_seed
from pbem.engine.passwords import new_password
from pbem.engine.steps import letters, publish, turns
from pbem.engine.table import EngineError, Table
from pbem.mail.addresses import address_problem, reserved_problem
from pbem.names import fold, name_words, skeleton
from pbem.outbox import Letter
from pbem.roster import RosterError, read_roster
from pbem.store import GameRow, Phase, PlayerRow, StepRecord

SETUP_TITLE = Msg("Début de partie", "Game start")
NAME_OK = re.compile(r"^[\w][\w .'\-]{0,38}[\w.]$|^\w$")
"""A player name: letters, digits, spaces, - ' . only, 1 to 40 characters."""


def new_game(table: Table, now: datetime, seed: str | None = None) -> GameRow:
    """Create a game from its config section; registration opens now."""
    s = table.settings
    check_game_id(table.id)  # (config.toml is checked as it loads; a config made in code is checked here)
    if table.store.game(table.id) is not None:
        raise EngineError(Msg(f"la partie {table.id} existe déjà",
                              f"game {table.id!r} already exists"))
    check_roster(table)  # a faulty sheets file is refused before anyone registers
    seed = seed or new_seed()
    row = GameRow(id=table.id, ruleset=s.ruleset, phase=Phase.REGISTRATION, seed=seed, commitment=commitment(seed),
                  turn=0, deadline=add_duration(now, s.registration, table.config.timezone), early_at=None,
                  state=None, reminders_sent=(), created_at=now, seed_revealed=False)
    with table.store.atomic():
        table.store.add_game(row)
        table.store.log(table.id, now, "mj", "game new", {"ruleset": s.ruleset, "commitment": row.commitment})
    return row


def start_game(table: Table, now: datetime, *, base: datetime | None = None) -> GameRow:
    """Close registration, seat the players, run the ruleset's setup and mail everyone their start.

    ``base`` is where the first deadline is counted from: the scheduled end of registration when the
    clock starts the game, else now.
    """
    g = table.row
    if g.phase != "registration":
        raise EngineError(Msg(f"la partie {table.id} a déjà commencé",
                              f"game {table.id} has already started"))
    s = table.settings
    players = table.store.players(table.id)
    if len(players) < s.min_players:
        raise EngineError(Msg(f"partie {table.id} : {len(players)} inscrits, il en faut au moins {s.min_players} "
                              "(ou baissez min_players dans config.toml)",
                              f"game {table.id}: {len(players)} players registered, at least {s.min_players} needed"))
    ruleset = table.ruleset
    fixed = roster_file(table)
    seats = []
    for p in players:
        extra = fixed.get(fold(p.name), {})
        seats.append(Seat(p.name, p.seat.get("role") or extra.get("role"),
                          p.seat.get("data") or extra.get("data", {}), p.gender or extra.get("gender")))
        if extra.get("gender") and not p.gender:  # the MJ's roster gives it when the player did not
            table.store.set_gender(table.id, p.name, extra["gender"])
            table.forget_roster()
    dice = Dice(g.seed, "setup")
    try:
        state, events = ruleset.setup(seats, dict(s.options), dice)
    except SetupError as e:
        raise EngineError(Msg(f"la partie {table.id} ne peut pas commencer : {e.msg.fr} "
                              f"(voir docs/rules/{s.ruleset}.md)",
                              f"game {table.id} cannot start: {e.msg.en} (see docs/rules/{s.ruleset}.md)")) from None
    with table.store.atomic():
        seq = table.store.next_seq(table.id)
        text = table.encode(state)
        rec = StepRecord(table.id, seq, "setup", 0, SETUP_TITLE.get(s.language), "setup", None, {},
                         (), tuple(dice.rolls), tuple(events), text, now)
        table.store.add_record(rec)
        g = turns.open_step(table, g, state, 1, now, phase=Phase.RUNNING, base=base, text=text)
        table.outgoing.queue(letters.step_letters(table, g, seq, 0, events, state, now, setup=True, rec=rec), now)
        table.store.log(table.id, now, "mj", "game start", {"players": [p.name for p in players]})
    publish.write_forum(table)
    return g


def check_roster(table: Table) -> None:
    """The game's roster file read and, when the ruleset checks rosters (1626 sheets), every fault with its line."""
    s = table.settings
    if s.roster is None:
        return
    try:
        text = s.roster.read_text(encoding="utf-8")
    except OSError as e:
        raise EngineError(Msg(f"fichier de joueurs {s.roster} : {e}",
                              f"roster file {s.roster}: {e}")) from None
    try:
        table.ruleset.check_roster(text, dict(s.options))
    except SetupError as e:
        raise EngineError(Msg(f"fichier de joueurs {s.roster} refusé :\n{e.msg.fr}",
                              f"roster file {s.roster} refused:\n{e.msg.en}")) from None


def roster_file(table: Table) -> dict[str, dict[str, Any]]:
    """Roles and sheets the MJ prepared in the game's roster file, by folded player name."""
    path = table.settings.roster
    if path is None:
        return {}
    check_roster(table)
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise EngineError(Msg(f"fichier de joueurs {path}\u00a0: {e}", f"roster file {path}: {e}")) from None
    try:
        entries = read_roster(doc)
    except RosterError as e:
        raise EngineError(Msg(f"fichier de joueurs {path}\u00a0: {e.key}\u00a0: {e.msg.fr}",
                              f"roster file {path}: {e}")) from None
    return {fold(x.name): {"role": x.role, "data": dict(x.data), "gender": x.gender} for x in entries}


def finish(table: Table, now: datetime) -> GameRow:
    """The MJ ends a game that has no end of its own (a 1626 campaign) or stops one: the seed is revealed."""
    g = table.row
    if g.phase == "finished":
        raise EngineError(Msg(f"la partie {table.id} est déjà terminée",
                              f"game {table.id} is already finished"))
    with table.store.atomic():
        g = replace(g, phase=Phase.FINISHED, deadline=None, early_at=None,
                       seed_revealed=True)
        table.store.save_game(g)
        table.store.log(table.id, now, "mj", "game finish", {"turn": g.turn})
    return g


# --- players ---


def add_player(table: Table, name: str, address: str, now: datetime, *, role: str | None = None,
               data: Mapping[str, Any] | None = None, password: str | None = None, by: str = "mj",
               gender: str | None = None) -> PlayerRow:
    """Register a player (during registration only); the name and address must be free.

    ``gender`` (``"f"`` or ``"m"``) makes the texts agree with the player; without it they are neutral.
    """
    g = table.row
    if g.phase != "registration":
        raise EngineError(Msg(f"la partie {table.id} a commencé : un joueur ne peut plus qu'être remplacé "
                              "(pbem player replace, ou REMPLACE par courriel)",
                              f"game {table.id} has started: players can only be replaced (pbem player replace)"))
    name = " ".join(name.split())
    if not NAME_OK.match(name):
        raise EngineError(Msg(f"nom de joueur refusé «\u00a0{name}\u00a0»\u00a0: lettres, chiffres, espaces, - ' . "
                              "seulement, de 1 à 40 caractères",
                              f"invalid player name {name!r}: letters, digits, spaces, - ' . only, 1 to 40 characters"),
                          "invalid_name")
    address = address.strip().lower()
    problem = address_problem(address)
    if problem is not None:
        raise EngineError(Msg(f"adresse refusée «\u00a0{address}\u00a0»\u00a0: {problem.fr}",
                              f"invalid address {address!r}: {problem.en}"), "invalid_address", {"reason": problem})
    reserved = reserved_problem(address, table.config.address, table.settings.mj)
    if reserved is not None:  # the game writing to itself, or the MJ's mail read as a player's
        raise EngineError(reserved, "address_reserved")
    look = skeleton(name)
    for p in table.store.players(table.id):
        if fold(p.name) == fold(name):
            raise EngineError(Msg(f"le nom «\u00a0{p.name}\u00a0» est déjà pris dans {table.id}",
                                  f"the name {p.name!r} is already taken in {table.id}"), "name_taken")
        if skeleton(p.name) == look:  # « Аrya » with a Cyrillic А beside « Arya »
            raise EngineError(Msg(f"le nom «\u00a0{name}\u00a0» ressemble trop à «\u00a0{p.name}\u00a0», déjà pris "
                                  f"dans {table.id}\u00a0: choisissez-en un autre",
                                  f"the name {name!r} looks too much like {p.name!r}, already registered in "
                                  f"{table.id}: choose another one"), "name_lookalike", {"other": p.name})
        if p.address == address:
            raise EngineError(Msg(f"{address} est déjà inscrit dans {table.id}, sous le nom «\u00a0{p.name}\u00a0»",
                                  f"{address} is already registered in {table.id} as {p.name!r}"), "address_taken")
    nicknamed = {key: owner for owner, nicks in table.store.nicknames(table.id).items() for nick in nicks
                 for key in name_words(nick)}
    clash = next((nicknamed[key] for key in sorted(name_words(name)) if key in nicknamed), None)
    if clash is not None:  # (the MJ's mail would name the newcomer where he means the nicknamed player)
        raise EngineError(Msg(f"le nom «\u00a0{name}\u00a0» est un surnom de {clash} dans {table.id}\u00a0: "
                              "choisissez-en un autre",
                              f"the name {name!r} is a nickname of {clash} in {table.id}: choose another one"),
                          "name_taken")
    seat: dict[str, Any] = {}
    if role:
        seat["role"] = role
    if data:
        seat["data"] = dict(data)
    given = table.settings.passwords and password is None and by == "mj"  # the MJ registers: pbem makes one
    if given:
        password = new_password()
    row = PlayerRow(game=table.id, name=name, address=address, status="active", seat=seat, password=password,
                    registered_at=now, gender=gender)
    table.store.add_player(row)
    table.store.log(table.id, now, by, "player add", {"name": name, "address": address, "role": role,
                                                        **({"gender": gender} if gender else {}),
                                                        **({"password": "made and mailed"} if given else {})})
    table.forget_roster()
    if given:
        t = table.renderer.mail_text("password_given", tag=table.tag, player=name, password=password,
                                     game_title=table.settings.title, gender=gender)
        table.outgoing.queue([Letter(f"password-{table.id}-{name}-{address}", table.id, 0, "notice", address,
                                     t.subject, t.body)], now)
    return row


MAX_NICKNAMES = 5
"""How many nicknames one player may have (each is a word the MJ's mail reader looks for)."""


def set_nicknames(table: Table, name: str, nicknames: Sequence[str], now: datetime) -> tuple[str, tuple[str, ...]]:
    """Give a player the names the MJ calls him by in his mail (« Littlefinger » for Petit-Doigt); none: forget
    them.  The MJ's mail reader takes a nickname for the player as a guess, so it asks before acting.  A nickname
    must name no one else: not another player, nor another player's nickname.  Returns (player, nicknames)."""
    player = table.player_named(name)
    given = tuple(dict.fromkeys(" ".join(n.split()) for n in nicknames if n.strip()))
    if len(given) > MAX_NICKNAMES:
        raise EngineError(Msg(f"au plus {MAX_NICKNAMES} surnoms par joueur", f"at most {MAX_NICKNAMES} nicknames a player"))
    others = table.store.nicknames(table.id)
    taken = {key: p.name for p in table.store.players(table.id, include_removed=True) if p.name != player.name
             for text in (p.name, *others.get(p.name, ())) for key in name_words(text)}
    for nick in given:
        if not NAME_OK.match(nick):
            raise EngineError(Msg(f"surnom refusé «\u00a0{nick}\u00a0»\u00a0: lettres, chiffres, espaces, - ' . "
                                  "seulement, de 1 à 40 caractères",
                                  f"invalid nickname {nick!r}: letters, digits, spaces, - ' . only, 1 to 40 characters"))
        # (a word of another player's name or nickname would be read as him first, with no question asked)
        clash = next((taken[key] for key in sorted(name_words(nick)) if key in taken), None)
        if clash is not None:
            raise EngineError(Msg(f"«\u00a0{nick}\u00a0» désigne déjà {clash} dans {table.id}\u00a0: "
                                  "choisissez un autre surnom",
                                  f"{nick!r} already stands for {clash} in {table.id}: choose another nickname"))
    table.store.set_nicknames(table.id, player.name, given)
    table.store.log(table.id, now, "mj", "player nickname", {"player": player.name, "nicknames": list(given)})
    return player.name, given
