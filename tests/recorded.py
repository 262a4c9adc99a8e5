"""Recorded games for the picture and archive tests: the demo's games, played again by mail in a folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem import demo
from pbem.demo import Demo, play_bot_game


def intrigue(root: Path, **game: Any) -> Demo:
    from pbem.games.intrigue.bots import random_orders

    return play_bot_game(root, "intrigue", {"ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d",
                                            "deadlines": {"turn": "1d", "short": "12h"}, **game},
                         ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"], random_orders, 60)


def pmb(root: Path, players: int = 40, **game: Any) -> Demo:
    from pbem.games.pmb.bots import random_orders

    names = [f"{first} {last}" for first, last in zip(
        ["Arya", "Bran", "Cersei", "Davos", "Edmure", "Gendry", "Hodor", "Ilyn", "Jaime", "Kevan"] * 4,
        ["Snow", "Rivers", "Sand", "Stone", "Hill", "Flowers", "Waters", "Pyke"] * 5, strict=False)]
    return play_bot_game(root, "pmb1", {"ruleset": "pmb", "tag": "PMB", "registration": "3d@21:00",
                                        "deadlines": {"turn": "2d@21:00"}, **game}, names[:players], random_orders, 80)


def g1626(root: Path) -> Demo:
    """The 1626 demo; it closes its store, so its folder is opened again (a `Demo` without the wipe)."""
    from pbem import config as configmod
    from pbem.engine import Engine
    from pbem.store import Store

    demo.demo_1626(root)
    game_id = "gant"
    d = Demo.__new__(Demo)
    data = {"pbem": {"database": "pbem.sqlite", "address": demo.GAME_ADDRESS, "forum_dir": "forum"},
            "mailbox": {"kind": "maildir", "path": "mail/inbox"}, "outbox": {"kind": "maildir", "path": "mail/outbox"},
            "games": {game_id: {"mj": demo.MJ_ADDRESS, "ruleset": "1626", "tag": "1626"}}}
    d.root, d.game_id = root, game_id
    d.config = configmod.parse(data, root)
    d.store = Store(d.config.database)
    d.engine = Engine(d.config, d.store)
    return d


def play_all(root: Path) -> dict[str, Demo]:
    return {"intrigue": intrigue(root / "intrigue"), "pmb": pmb(root / "pmb"), "1626": g1626(root / "1626")}
