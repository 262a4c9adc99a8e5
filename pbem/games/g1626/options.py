"""1626: the game options a table may set in its config, and their checking."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import JSON, GameOptions, Msg, SetupError

DEFAULT_OPTIONS: Mapping[str, JSON] = {
    "sr_by": "mj",
    "secret_tests": False,
    "opposed_ties": "defender",
    "extra_gifts": (),
}
"""``sr_by``: who sets the SR of a player's test (``mj``: the test is a request the MJ answers; ``player``).
``secret_tests``: every test is secret.  ``opposed_ties``: who wins an opposed test on equal totals.
``extra_gifts``: gifts the MJ adds to the rules' list."""

CHOICES: Mapping[str, tuple[str, ...]] = {
    "sr_by": ("mj", "player"),
    "opposed_ties": ("defender", "draw", "reroll"),
}


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with every value checked; `SetupError` naming the allowed values otherwise.

    Pure, so the config reader and ``pbem doctor`` can call it before the game starts.
    """
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise SetupError(Msg(f"option inconnue : {', '.join(unknown)} (options : {', '.join(DEFAULT_OPTIONS)})",
                             f"unknown option: {', '.join(unknown)} (options: {', '.join(DEFAULT_OPTIONS)})"))
    checked = {**DEFAULT_OPTIONS, **options}
    for key, value in checked.items():
        default = DEFAULT_OPTIONS[key]
        if key in CHOICES and value not in CHOICES[key]:
            allowed = " ou ".join(f"« {c} »" for c in CHOICES[key])
            allowed_en = " or ".join(f"'{c}'" for c in CHOICES[key])
            raise SetupError(Msg(f"option {key} : {allowed}, pas « {value} »", f"option {key}: {allowed_en}, not '{value}'"))
        if isinstance(default, bool) and not isinstance(value, bool):
            raise SetupError(Msg(f"option {key} : true ou false, pas « {value} »", f"option {key}: true or false, not '{value}'"))
        if isinstance(default, tuple):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v.strip() for v in value):
                raise SetupError(Msg(f"option {key} : une liste de noms, par exemple [\"Duelliste\"]",
                                     f"option {key}: a list of names, for instance [\"Duelliste\"]"))
            checked[key] = tuple(" ".join(v.split()) for v in value)
    return checked


OPTIONS = GameOptions("1626, le gant et l'épée", DEFAULT_OPTIONS, check_options)
"""What reading config.toml needs of the game (`pbem.games.Game.options`): the ruleset is not loaded for it."""
