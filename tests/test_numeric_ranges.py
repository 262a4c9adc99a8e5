"""Every numeric slot of every game's orders has a range (issue #19): a number past it, with twenty or four
hundred digits, or a digit `int` does not read (« ² »), is answered with an order error, never a crash and
never accepted.  The lines are the bots' legal orders of each game and the MJ's orders of 1626, each number
in them replaced in turn."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.core import MJ, OrderError
from pbem.games.pourleroi.orders import match_cards
from pbem.names import whole_number

ROOT = Path(__file__).resolve().parents[1]
HUGE = ["99999999999999999999", "9" * 400, "1000000"]
ODD = ["²", "٣", "0", "-5", "1.5"]


def _hostile() -> Any:  # scripts/ is not a package: load the script as a module (its running games)
    spec = importlib.util.spec_from_file_location("hostile", ROOT / "scripts" / "hostile.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hostile"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Any:
    g = _hostile().Games(tmp_path_factory.mktemp("games"))
    yield g
    g.close()


def _lines(games: Any, gid: str) -> list[tuple[str, str]]:
    """(who writes, line) for a game: the bots' orders, or for 1626 the players' and the MJ's orders."""
    state = games.engine.state(games.engine.game(gid))
    rs = games.engine.ruleset(gid)
    if gid == "1626":
        names = rs.players(state)
        n0 = state.characters[names[0]].name
        mj = [f"BLESSURE {n0} 3", f"SOIN {n0} 2", f"PRESTIGE {n0} +2", f"PRESTIGE {n0} =5", f"TALENT {n0} Escrime +1",
              "SR 15 n° 1", "LANCER n° 2", "REFUSER n° 1", f"TEST {n0} Escrime AG SR 15",
              f"TEST {n0} Escrime AG CONTRE Garde 12 2d6+2", f"TEST {n0} AG SR 12 +3", f"TEST {n0} AG SR 12 -3"]
        players = ["TEST Escrime AG SR 15", "TEST PE SR 12", "TEST Escrime AG SR 15 +2", "TEST Escrime AG SR 15 -3"]
        return [(names[1], line) for line in players] + [(MJ, line) for line in mj]
    bots = importlib.import_module(f"pbem.games.{gid}.bots")
    found: set[tuple[str, str]] = set()
    for player in rs.players(state):
        for seed in range(20):
            found.update((player, line) for line in bots.random_orders(state, player, seed))
    return sorted(found)


@pytest.mark.parametrize("gid", ["1626", "pmb", "intrigue", "pourleroi", "courtisans"])
def test_no_number_of_an_order_crashes_or_passes_its_range(games: Any, gid: str) -> None:
    state = games.engine.state(games.engine.game(gid))
    rs = games.engine.ruleset(gid)
    tried = 0
    for who, line in _lines(games, gid):
        tokens = line.split()
        for i, token in enumerate(tokens):
            if not re.search(r"\d", token):
                continue
            for number in HUGE + ODD:
                changed = " ".join([*tokens[:i], re.sub(r"\d+", number, token, count=1), *tokens[i + 1:]])
                tried += 1
                try:
                    order = rs.parse_order(state, who, changed, [], author=MJ if who == MJ else None)
                except OrderError:
                    continue
                assert number not in HUGE, f"{gid}: {changed!r} accepted as {order}"
    assert tried > (30 if gid == "1626" else 0) or gid == "pourleroi"  # (its first step has no number)


def test_a_card_by_its_place_is_a_small_number_in_pour_le_roi(games: Any) -> None:
    state = games.engine.state(games.engine.game("pourleroi"))
    cards = list(state.material.all_cards())[:3]
    assert match_cards(state.material, ["1"], cards, numbered=True) == match_cards(state.material, ["١"], cards,
                                                                                    numbered=True)
    for typed in ("²", "0", "4", "9" * 400):
        with pytest.raises(OrderError):
            match_cards(state.material, [typed], cards, numbered=True)


@pytest.mark.parametrize(("line", "said"), [
    ("BLESSURE {n} 1000", "les points de vie : un nombre entier de 1 à 999, pas « 1000 »"),
    ("SOIN {n} ²", "SOIN <personnage> <points de vie>"),
    ("PRESTIGE {n} +99999999999999999999", "le prestige : un nombre entier de 0 à 999 999, pas « 999999999999… »"),
    ("TALENT {n} Escrime =150", "le talent : un nombre entier de 0 à 99, pas « 150 »"),
    ("TALENT {n} Escrime +95", "ne peut dépasser 99"),
    ("TEST {n} Escrime AG SR 150", "le SR : un nombre entier de 1 à 99, pas « 150 »"),
    ("TEST {n} Escrime AG SR 15 +500", "le modificateur : un nombre entier de 0 à 99, pas « 500 »"),
    ("TEST {n} Escrime AG CONTRE Garde 5000", "le score du PNJ : un nombre entier de 0 à 99, pas « 5000 »"),
    ("LANCER n° 99999999999", "le numéro de demande : un nombre entier de 0 à 999 999 999"),
])
def test_1626_says_the_range_of_each_number(games: Any, line: str, said: str) -> None:
    state = games.engine.state(games.engine.game("1626"))
    rs = games.engine.ruleset("1626")
    name = state.characters[rs.players(state)[0]].name
    with pytest.raises(OrderError) as caught:
        rs.parse_order(state, MJ, line.format(n=name), [])
    assert said in caught.value.msg.fr.replace("\u00a0", " ").replace("\u202f", " ")


def test_whole_number_reads_any_decimal_digits_within_its_range() -> None:
    assert whole_number("42", 1, 99) == 42 and whole_number("٤٢", 1, 99) == 42
    for typed in ("0", "100", "²", "-1", "4 2", "", "9" * 5000):
        with pytest.raises(OrderError):
            whole_number(typed, 1, 99)
