"""The game registry and the one ruleset surface: each game declared once, loaded only when asked for,
every hook of `pbem.core.Ruleset` with its default, no probing for one."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbem import games, grammar
from pbem.archive import series
from pbem.core import (
    OrderAmbiguousError,
    OrderNotAllowedError,
    OrderSyntaxError,
    PositionError,
    Ruleset,
    SetupError,
    StepWord,
)
from pbem.dice import Dice
from pbem.pictures import has_picture

ROOT = Path(__file__).resolve().parents[1]
HOOKS = {"step_word", "prompts_public", "game_words", "after_early", "path_options", "check_options",
         "check_roster", "salutation", "action_title", "batch_title", "scenario_setup"}


def test_each_shipped_game_is_one_entry_whose_parts_load() -> None:
    assert [g.name for g in games.GAMES] == ["1626", "pmb", "intrigue", "pourleroi", "courtisans"]
    for game in games.GAMES:
        ruleset = games.get(game.name)
        assert isinstance(ruleset, Ruleset) and ruleset.name == game.name
        for alias in game.aliases:
            assert games.canonical(alias.upper()) == game.name
        for part in (game.picture, game.charts, game.demo, game.bots):
            assert part is None or callable(games.load(part)), part
    assert games.demos() == ["1626", "pmb", "intrigue", "pourleroi", "courtisans"]
    # 1626 has no board to draw and no chart: the entry says so, and the readers follow it
    assert not has_picture("gant") and has_picture("plr")
    assert series.charts("1626", [("0", {})]) == []


def test_naming_a_game_imports_none_of_them() -> None:
    """Reading the registry (config, CLI) loads no game, no picture module, no Pillow."""
    code = ("import sys; from pbem import games; games.canonical('plr'); games.names(); games.demos(); "
            "print(sorted(m for m in sys.modules if m.startswith(('pbem.games.', 'pbem.pictures', 'pbem.demo', "
            "'PIL'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_a_broken_game_does_not_stop_the_others() -> None:
    games.register(games.Game("cassé", "pbem.games.no_such_game:RULESET", aliases=("broken",)))
    try:
        assert games.canonical("broken") == "cassé"
        with pytest.raises(ImportError):
            games.get("cassé")
        assert games.get("pmb").title == "Pour Ma Belle"
    finally:
        games._REGISTERED.pop("cassé")


def test_an_entry_that_is_no_ruleset_is_refused() -> None:
    games.register(games.Game("faux", "pbem.core:StepWord"))
    try:
        with pytest.raises(TypeError, match="no pbem.core.Ruleset"):
            games.get("faux")
    finally:
        games._REGISTERED.pop("faux")


class _Bare(Ruleset[int]):
    """A game that answers the abstract methods and no hook."""

    name = "bare"
    title = "Bare"
    state_type = int
    default_options = {}

    def setup(self, roster, options, dice):
        return 0, []

    def prompts(self, state):
        return []

    def step_title(self, state):
        raise NotImplementedError

    def parse_order(self, state, player, line, accepted, author=None):
        raise NotImplementedError

    def default_orders(self, state, player):
        return []

    def resolve(self, state, orders, dice):
        return state, []

    def immediate(self, state, player, order, dice):
        return None

    def outcome(self, state):
        return None

    def view(self, state, player):
        return {}

    def help(self, state, player):
        return []

    def players(self, state):
        return []


def test_every_hook_has_its_default_on_the_base_class() -> None:
    bare = _Bare()
    assert HOOKS <= set(vars(Ruleset))
    assert bare.step_word == StepWord() and bare.prompts_public is True and bare.after_early is None
    assert bare.game_words == frozenset() and bare.path_options == frozenset()
    bare.check_options({})
    assert bare.check_roster("[[joueur]]", {}) is False
    assert bare.salutation(0, "Arya") is None
    assert bare.action_title(0, "Arya", None, "Arya") is None
    assert bare.batch_title(0, []) is None
    assert bare.scenario_setup([], {}, {}, Dice("00" * 32, "setup")) is None


def test_a_game_missing_a_required_method_cannot_be_made() -> None:
    class Half(Ruleset[int]):
        name = "half"

    with pytest.raises(TypeError, match="abstract"):
        Half()


def test_nothing_probes_a_ruleset_for_a_hook() -> None:
    """No ``getattr(ruleset, ...)``/``hasattr`` on a ruleset and no ``inspect.signature`` in the package."""
    found = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "signature" or (name in ("getattr", "hasattr") and node.args
                                       and "ruleset" in ast.unparse(node.args[0]).lower()):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def test_the_games_refuse_through_the_shared_grammar_kit() -> None:
    """`pbem.grammar` is the one copy of the refusal helpers: no game defines its own again."""
    for make, kind in ((grammar.syntax, OrderSyntaxError), (grammar.refused, OrderNotAllowedError),
                       (grammar.ambiguous, OrderAmbiguousError), (grammar.setup_refused, SetupError)):
        error = make("dit en français", "said in English")
        assert type(error) is kind and (error.msg.fr, error.msg.en) == ("dit en français", "said in English")
    assert grammar.empty_line().msg.en == "empty line"
    assert grammar.position_refused("mains", "deux fois", "twice").key == "mains"
    assert isinstance(grammar.position_refused("mains", "deux fois", "twice"), PositionError)
    copies = []
    for path in sorted((ROOT / "pbem" / "games").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # a function whose whole body is « return SomeError(Msg(fr, en)) » or « return SomeError(msg) »
            if (isinstance(node, ast.FunctionDef) and len(node.body) == 1 and isinstance(node.body[0], ast.Return)
                    and isinstance(call := node.body[0].value, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id.endswith("Error") and all(isinstance(a, (ast.Name, ast.Call)) for a in call.args)
                    and {a.arg for a in node.args.args} == {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
                    - {call.func.id, "Msg"}):
                copies.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert copies == []


@pytest.mark.parametrize("name", [g.name for g in games.GAMES])
def test_what_config_reading_needs_of_a_game_is_what_its_ruleset_says(name):
    """`games.options`, read from a game's light module when it has one, never drifts from its ruleset."""
    declared, ruleset = games.options(name), games.get(name)
    assert (declared.title, dict(declared.default_options), declared.path_options) == (
        ruleset.title, dict(ruleset.default_options), ruleset.path_options)
    with pytest.raises(SetupError):
        declared.check_options({**ruleset.default_options, next(iter(ruleset.default_options)): object()})


@pytest.mark.parametrize(("name", "modules"), [("pmb", ["pbem.games.pmb.options", "pbem.games.pmb.roles"]),
                                               ("1626", ["pbem.games.g1626.options"]),
                                               ("intrigue", ["pbem.games.intrigue.options", "pbem.games.intrigue.state"]),
                                               ("pourleroi", ["pbem.games.pourleroi.cards", "pbem.games.pourleroi.options",
                                                              "pbem.games.pourleroi.state"])])
def test_reading_the_options_of_a_game_that_declares_them_loads_no_rules(name, modules):
    package = games.entry(name).package
    code = (f"import json, sys\nfrom pbem import games\ngames.options({name!r})\n"
            f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({package + '.'!r}))))")
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert json.loads(done.stdout) == modules
