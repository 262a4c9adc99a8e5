"""The options of Pour Ma Belle: their defaults, their allowed values, and the check that refuses any other.

Each debatable ruling of the rule text is an option here (see docs/rules/pmb.md, « Options »);
the defaults follow the text where it speaks, the earlier rulings where it is silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.core import GameOptions
from pbem.games.pmb import roles as R
from pbem.grammar import setup_refused

CHOICES: dict[str, tuple[Any, ...]] = {
    "verdict_default": ("liberer", "mort"),
    "prison_turns": (1, 2),
    "lord_commandant_counts": (False, True),
    "own_camp_attempt": ("anonyme", "nombre", "noms"),
    "lord_commandant_revealed": (True, False),
    "fidele_squads": ("cible", "libre"),
    "squad_order": ("tirage", "alphabetique"),
    "revelation": ("affiliation", "role"),
}
"""Options with a closed list of values; the first value is the default."""

DEFAULT_OPTIONS: dict[str, Any] = {
    "roles": "auto",
    "places": "auto",
    "max_turns": 60,
    **{key: values[0] for key, values in CHOICES.items()},
}

ROLE_COUNT_KEYS: tuple[str, ...] = ("gardes", "sergents", "hm_min", "hm_max")
PLACE_KEYS: tuple[str, ...] = (R.VISENYA, R.FOSSEDRAGON)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"« {value} »" if isinstance(value, str) else str(value)


def _show_en(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"'{value}'" if isinstance(value, str) else str(value)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count_table(key: str, value: Any, keys: tuple[str, ...], *, low: int) -> dict[str, int]:
    """A table of whole numbers (``roles``, ``places``): only ``keys``, each an integer ≥ ``low``."""
    if not isinstance(value, Mapping):
        listed_fr = ", ".join(keys)
        raise setup_refused(f"option {key} : « auto » ou un tableau {{{listed_fr}}}",
                      f"option {key}: 'auto' or a table {{{listed_fr}}}")
    out: dict[str, int] = {}
    for k, v in value.items():
        if k not in keys:
            listed = " ou ".join(keys) if len(keys) == 2 else ", ".join(keys[:-1]) + " ou " + keys[-1]
            listed_en = " or ".join(keys) if len(keys) == 2 else ", ".join(keys[:-1]) + " or " + keys[-1]
            raise setup_refused(f"option {key} : clé inconnue « {k} » (clés possibles : {listed})",
                          f"option {key}: unknown key '{k}' (allowed keys: {listed_en})")
        if not _is_int(v) or v < low:
            raise setup_refused(f"option {key}.{k} : un nombre entier d'au moins {low}, pas {_show(v)}",
                          f"option {key}.{k}: a whole number of at least {low}, not {_show_en(v)}")
        out[str(k)] = int(v)
    return out


def check_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Every option with its value (defaults filled in); `SetupError` naming the allowed values otherwise.

    This is the check config reading should call when it loads ``[games.<id>.options]``
    (see the report: the `Ruleset` protocol has no such hook yet); `setup` calls it too.
    """
    opts = dict(DEFAULT_OPTIONS)
    for key, value in options.items():
        if key not in DEFAULT_OPTIONS:
            names = ", ".join(sorted(DEFAULT_OPTIONS))
            raise setup_refused(f"option inconnue « {key} » (options de Pour Ma Belle : {names})",
                          f"unknown option '{key}' (Pour Ma Belle options: {names})")
        if key in CHOICES:
            allowed = CHOICES[key]
            # True == 1 in Python: compare types too, so that prison_turns = true is refused
            if not any(value == a and type(value) is type(a) for a in allowed):
                fr = " ou ".join(_show(a) for a in allowed)
                en = " or ".join(_show_en(a) for a in allowed)
                raise setup_refused(f"option {key} : {_show(value)} n'est pas une valeur possible ({fr})",
                              f"option {key}: {_show_en(value)} is not an allowed value ({en})")
        elif key == "max_turns":
            if not _is_int(value) or value < 0:
                raise setup_refused(f"option max_turns : un nombre entier de tours (0 : sans limite), pas {_show(value)}",
                              f"option max_turns: a whole number of turns (0: no limit), not {_show_en(value)}")
        elif key == "roles" and value != "auto":
            counts = _count_table(key, value, ROLE_COUNT_KEYS, low=1)
            if counts.get("gardes", 3) > 7:
                raise setup_refused("option roles.gardes : la Garde Royale compte au plus 7 Gardes",
                              "option roles.gardes: the Garde Royale has at most 7 Gardes")
            if "hm_min" in counts and "hm_max" in counts and counts["hm_min"] > counts["hm_max"]:
                raise setup_refused(f"option roles : hm_min ({counts['hm_min']}) dépasse hm_max ({counts['hm_max']})",
                              f"option roles: hm_min ({counts['hm_min']}) is above hm_max ({counts['hm_max']})")
        elif key == "places" and value != "auto":
            counts = _count_table(key, value, PLACE_KEYS, low=0)
            missing = [k for k in PLACE_KEYS if k not in counts]
            if missing:
                raise setup_refused(f"option places : il manque {' et '.join(missing)}",
                              f"option places: {' and '.join(missing)} missing")
        opts[key] = value
    return opts


def option(options: Mapping[str, Any], key: str) -> Any:
    """The value of an option in a game's stored options (a game stored before the option existed gets its default)."""
    return options.get(key, DEFAULT_OPTIONS[key])


OPTIONS = GameOptions("Pour Ma Belle", DEFAULT_OPTIONS, check_options)
"""What reading config.toml needs of the game (`pbem.games.Game.options`): the ruleset is not loaded for it."""
