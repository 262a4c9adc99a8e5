"""Intrigue's options: their defaults, their allowed values, and the check that refuses any other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.core import JSON, GameOptions, Msg, SetupError
from pbem.games.intrigue.state import (
    DEFAULT_POST_VALUES,
    MINIMUM_BRIBES,
    MODES,
    MOTIFS,
    REFUND_CONFLICTS,
    Options,
)

DEFAULT_OPTIONS: Mapping[str, JSON] = {
    "mode": "simultaneous",
    "refund_loser": False,
    "post_values": list(DEFAULT_POST_VALUES),
    "seating": "draw",
    "minimum_bribe": 0,
    "refund_conflicts": "internal",
}
"""Every option the game understands, with its default (see ``docs/rules/intrigue.md``)."""

CHOICES: Mapping[str, tuple[JSON, ...]] = {
    "mode": MODES,
    "refund_loser": (False, True),
    "seating": ("draw", "roster"),
    "minimum_bribe": MINIMUM_BRIBES,
    "refund_conflicts": REFUND_CONFLICTS,
}
"""The allowed values of every option but ``post_values``."""


def _allowed(values: Sequence[JSON]) -> str:
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def read_options(options: Mapping[str, JSON]) -> Options:
    """The options given in the game's config, checked; an unknown key or value is a `SetupError` naming the allowed ones."""
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        known = ", ".join(DEFAULT_OPTIONS)
        raise SetupError(Msg(f"options inconnues : {', '.join(unknown)} (options connues : {known})",
                             f"unknown options: {', '.join(unknown)} (known options: {known})"))
    opts = {**DEFAULT_OPTIONS, **options}
    for key, allowed in CHOICES.items():
        value = opts[key]
        # True == 1 and 0 == False in Python: a value must also have the type of the allowed ones
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise SetupError(Msg(f"{key} : valeur inconnue « {value} » (valeurs permises : {_allowed(allowed)})",
                                 f"{key}: unknown value '{value}' (allowed: {_allowed(allowed)})"))
    values = opts["post_values"]
    if (
        not isinstance(values, (list, tuple))
        or len(values) != len(MOTIFS)
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)
        or len(set(values)) != len(values)
    ):
        raise SetupError(Msg(f"post_values : 5 valeurs entières positives, distinctes (pas {values})",
                             f"post_values: 5 distinct positive whole numbers (not {values})"))
    return Options(
        mode=str(opts["mode"]),
        refund_loser=bool(opts["refund_loser"]),
        post_values=tuple(sorted(int(v) for v in values)),
        seating=str(opts["seating"]),
        minimum_bribe=int(opts["minimum_bribe"]),
        refund_conflicts=str(opts["refund_conflicts"]),
    )


OPTIONS = GameOptions("Intrigue", DEFAULT_OPTIONS, read_options)
"""What reading config.toml needs of the game (`pbem.games.Game.options`): the ruleset is not loaded for it."""
