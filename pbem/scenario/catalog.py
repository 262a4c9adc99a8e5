"""What a scenario file can name, per game: the event kinds with their audiences and data, and the roll purposes.

docs/scenarios.md holds these tables between markers; ``scripts/scenario_doc.py`` writes them and a
test keeps them true.  Event data is *observed*: simulated games (the games' bots, fixed seeds) and
every case file under docs/rules/*-cases/ are played and each event is recorded; the kinds the
code can emit are read from the source (the first argument of ``tell``/``public``/``mj``/``_pub``/
``Event``), so a kind no game reached is reported instead of silently missing.  Roll purposes
come from each game's ``dice.fr.toml`` labels, which a conformance test keeps complete.
"""

from __future__ import annotations

import ast
import importlib
import random
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pbem import games
from pbem.core import JSON, Event, Order, OrderError, Seat
from pbem.dice import Dice
from pbem.render import TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("pmb", "intrigue", "1626", "pourleroi", "courtisans")
_EMITTERS = {"tell", "public", "mj", "_pub", "Event"}
_PRIVATE = {"private"}
"""Helpers whose kind is the second argument (after the readers): Courtisans' ``private(players, kind)``."""
_AUDIENCES = {"public": "public", "players": "joueurs", "mj": "MJ"}


@dataclass
class KindSeen:
    """One event kind as observed: who received it and which data keys it carried."""

    audiences: set[str] = field(default_factory=set)
    keys: dict[str, int] = field(default_factory=dict)
    count: int = 0

    def add(self, event: Event) -> None:
        self.count += 1
        self.audiences.add(_AUDIENCES[event.audience.kind])
        for k in event.data:
            self.keys[k] = self.keys.get(k, 0) + 1


def game_package(game: str) -> Path:
    module = games._REGISTRY[games.canonical(game)][0]
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent


def emitted_kinds(game: str) -> set[str]:
    """Event kinds written in the game's source (string first arguments of the event helpers)."""
    kinds: set[str] = set()
    for path in sorted(game_package(game).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[1] if name in _PRIVATE and len(node.args) > 1 else node.args[0]
            if name in _EMITTERS | _PRIVATE and isinstance(first, ast.Constant) and isinstance(first.value, str):
                kinds.add(first.value)
    return kinds


def _bot_games(game: str, seeds: Iterable[int]) -> Iterable[list[Event]]:
    """Whole games of bot orders (the conformance test's way), each step's events."""
    ruleset = games.get(game)
    bots = importlib.import_module(f"pbem.games.{game_package(game).name}.bots")
    rosters = {"pmb": [f"Joueur {i:02d}" for i in range(40)], "intrigue": ["Lorenzo", "Isabella", "Cesare", "Lucrezia"],
               "pourleroi": ["Colbert", "Fouquet", "Louvois", "Séguier", "Vauban"],
               "courtisans": ["Madame de la Vilenie", "Monsieur de la Fourberye", "Madame de Malveyance",
                              "Monsieur d'Aubigny"]}
    modes: list[dict[str, JSON]] = (
        [{"mode": "simultaneous"}, {"mode": "sequential", "refund_loser": True}] if game == "intrigue" else [{}])
    for seed in seeds:
        for extra in modes:
            seed_hex = f"{seed:064x}"
            options = {**ruleset.default_options, **extra}
            state, events = ruleset.setup([Seat(n) for n in rosters[game]], options, Dice(seed_hex, "setup"))
            yield events
            for step in range(1, 200):
                prompts = ruleset.prompts(state)
                if not prompts:
                    break
                orders: dict[str, list[Order]] = {}
                for player in dict.fromkeys(p.player for p in prompts):
                    accepted: list[Order] = []
                    for line in bots.random_orders(state, player, seed * 1000 + step):
                        try:
                            accepted.append(ruleset.parse_order(state, player, line, accepted))
                        except OrderError:
                            pass
                    if not accepted and random.Random(f"{seed}|{step}|{player}").random() < 0.5:
                        accepted = ruleset.default_orders(state, player)
                    orders[player] = accepted or ruleset.default_orders(state, player)
                state, events = ruleset.resolve(state, orders, Dice(seed_hex, f"step-{step}"))
                yield events


def case_events(game: str) -> Iterable[list[Event]]:
    from pbem.scenario import run_case

    for path in sorted((ROOT / "docs" / "rules" / f"{game}-cases").glob("*.toml")):
        for phase in run_case(path).phases:
            yield phase.events


def observed(game: str, seeds: Iterable[int] = range(8)) -> dict[str, KindSeen]:
    """Every event kind seen in bot games (pmb, intrigue) and in the game's case files."""
    seen: dict[str, KindSeen] = {}
    sources: list[Iterable[list[Event]]] = [case_events(game)]
    if game != "1626":
        sources.append(_bot_games(game, seeds))
    for source in sources:
        for events in source:
            for e in events:
                seen.setdefault(e.kind, KindSeen()).add(e)
    return dict(sorted(seen.items()))


def events_table(game: str, seen: dict[str, KindSeen]) -> list[str]:
    """The Markdown table of a game's event kinds; a key not always present is marked « (parfois) »."""
    lines = ["| type | audience | données |", "| --- | --- | --- |"]
    order = ("public", "joueurs", "MJ")
    for kind, k in seen.items():
        audiences = ", ".join(a for a in order if a in k.audiences)
        keys = ", ".join(f"`{key}`" + ("" if n == k.count else " (parfois)") for key, n in k.keys.items()) or "—"
        lines.append(f"| `{kind}` | {audiences} | {keys} |")
    return lines


_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")


def readable(pattern: str) -> str:
    """A dice label pattern as a purpose with placeholders: ``(?P<who>.+) leaves Visenya \\(40%\\)`` -> ``<who> leaves Visenya (40%)``."""
    text = _GROUP.sub(lambda m: f"<{m.group(1)}>", pattern)
    return re.sub(r"\\(.)", r"\1", text)


def purposes_table(game: str) -> list[str]:
    """The Markdown table of a game's roll purposes, from its ``dice.fr.toml``."""
    doc = tomllib.loads((TEMPLATES / game / "dice.fr.toml").read_text(encoding="utf-8"))
    lines = ["| jet (clé de `des`) | ce qu'il tire |", "| --- | --- |"]
    for entry in doc.get("label", []):
        text = re.sub(r"\{(\w+)\}", r"<\1>", entry["text"])
        lines.append(f"| `{readable(entry['pattern'])}` | {text} |")
    return lines


def generated_sections() -> dict[str, list[str]]:
    """Marker name -> the lines between its markers in docs/scenarios.md."""
    out: dict[str, list[str]] = {}
    for game in GAMES:
        out[f"evenements {game}"] = events_table(game, observed(game))
        out[f"jets {game}"] = purposes_table(game)
    return out


def begin(name: str) -> str:
    return f"<!-- début du tableau généré : {name} (scripts/scenario_doc.py) -->"


def end(name: str) -> str:
    return f"<!-- fin du tableau généré : {name} -->"


def fill(text: str, sections: dict[str, list[str]]) -> str:
    """The document with each generated section replaced (markers kept); KeyError for a missing marker."""
    for name, lines in sections.items():
        head, tail = begin(name), end(name)
        if head not in text or tail not in text:
            raise KeyError(name)
        before, rest = text.split(head, 1)
        _, after = rest.split(tail, 1)
        text = before + head + "\n" + "\n".join(lines) + "\n" + tail + after
    return text
