"""Recorded games for the golden, picture, archive and by-mail tests: the demo's games, played once per session.

`play_demos` plays every demo exactly as `pbem demo` does (the golden set is taken from that very play,
before any test reads the games) and keeps the games open; the session fixture ``demo_games``
(conftest.py) shares them, and ``recorded_games`` is its Intrigue, Pour Ma Belle and 1626.  The
functions below play a game of the same kind with other options (``recorded.intrigue(root, pictures=False)``).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from pbem import pictures
from pbem.core import Event
from pbem.demo import Demo, play_bot_game
from pbem.pictures.scene import Scene

ROOT = Path(__file__).resolve().parents[1]


def golden_module() -> ModuleType:
    """scripts/golden.py (scripts/ is not a package: loaded as a module)."""
    spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class Drawn:
    """One call of a board drawer: the ruleset, and the view (as JSON), events and title it was given."""

    ruleset: str
    view: dict[str, Any]
    events: list[Event]
    title: str


@dataclass
class DemoGames:
    games: dict[str, Demo]
    """Every demo game by its demo name (`pbem.demo.DEMOS`: 1626, pmb, intrigue, pourleroi, courtisans), open."""
    golden: dict[str, bytes]
    """The golden set of this play (`scripts/golden.py`), taken before any test read the games."""
    drawn: list[Drawn] = field(default_factory=list)
    """Every call of a board drawer during the play (the picture tests check what it was given)."""

    def close(self) -> None:
        for d in self.games.values():
            d.close()


def play_demos(root: Path) -> DemoGames:
    golden = golden_module()
    drawn: list[Drawn] = []
    real = pictures.drawer

    def recording(ruleset: str) -> pictures.Drawer:
        draw = real(ruleset)

        def spy(view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene:
            drawn.append(Drawn(ruleset, json.loads(json.dumps(view)), list(events), title))
            return draw(view, events, title)
        return spy

    kept: list[Demo] = []
    pictures.drawer = recording  # type: ignore[assignment]
    try:
        exports = golden.play_demos(root, keep_open=kept)
    finally:
        pictures.drawer = real  # type: ignore[assignment]
    games = {d.root.name: d for d in kept}
    return DemoGames(games, golden.collect(root, exports), drawn)


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
