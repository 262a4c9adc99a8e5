"""Paths into a state or a view (``players.Arya.alive``), and patches that set a position from a scenario file.

A path is dotted keys and list indexes (from 0, as in JSON).  A key may itself contain dots or
spaces (``players.ser Schlingue.alive``): at each level the longest key that exists is taken.
A state is patched through its JSON form (`pbem.serial`), then decoded and type-checked against
the state's dataclasses, so a wrong key or a value of the wrong type is refused by name.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, Union

from pbem import serial
from pbem.core import Msg
from pbem.msg import PbemError


class PathError(PbemError):
    """A path that leads nowhere, or a patch value of the wrong type; ``at`` is the path so far."""

    def __init__(self, at: str, msg: Msg):
        super().__init__(msg, f"{at}: {msg.en}")
        self.at = at


def _keys_shown(node: Mapping[str, Any]) -> str:
    keys = list(node)
    shown = ", ".join(keys[:15])
    return shown + (", …" if len(keys) > 15 else "")


def _step(node: Any, parts: list[str], done: str) -> tuple[str, Any, list[str]]:
    """The next key under ``node`` for the remaining ``parts``: (key, child, parts left)."""
    if isinstance(node, Mapping):
        for n in range(len(parts), 0, -1):
            key = ".".join(parts[:n])
            if key in node:
                return key, node[key], parts[n:]
        raise PathError(done or parts[0], Msg(f"pas de clé « {parts[0]} » ici ; clés : {_keys_shown(node)}",
                                              f"no key '{parts[0]}' here; keys: {_keys_shown(node)}"))
    if isinstance(node, list):
        head = parts[0]
        if head.isdigit() and int(head) < len(node):
            return head, node[int(head)], parts[1:]
        raise PathError(done or head, Msg(f"« {head} » : un indice de 0 à {len(node) - 1} est attendu dans cette liste",
                                          f"'{head}': an index from 0 to {len(node) - 1} is expected in this list"))
    raise PathError(done or parts[0], Msg(f"« {parts[0]} » : la valeur {serial_show(node)} n'a pas de clés",
                                          f"'{parts[0]}': the value {serial_show(node)} has no keys"))


def split(path: str | tuple[str, ...]) -> list[str]:
    return list(path) if isinstance(path, tuple) else path.split(".")


def lookup(data: Any, path: str | tuple[str, ...]) -> Any:
    """The value at ``path``; `PathError` if it does not exist."""
    parts = split(path)
    node, done = data, ""
    while parts:
        key, node, parts = _step(node, parts, done)
        done = f"{done}.{key}" if done else key
    return node


def exists(data: Any, path: str | tuple[str, ...]) -> bool:
    try:
        lookup(data, path)
    except PathError:
        return False
    return True


def _merge(node: Any, patch: Mapping[str, Any], done: str) -> None:
    """Set every patch entry into ``node`` (a dict), in place: tables merge, other values replace."""
    for raw_key, value in patch.items():
        parts = raw_key.split(".")
        parent, at = node, done
        while True:
            key, child, rest = _step(parent, parts, at)
            at = f"{at}.{key}" if at else key
            if not rest:
                break
            parent, parts = child, rest
        if isinstance(value, Mapping) and isinstance(child, dict) and child:
            _merge(child, value, at)
        elif isinstance(parent, list):
            parent[int(key)] = value
        else:
            parent[key] = value


def patch_state(state_type: type[Any], state: Any, patch: Mapping[str, Any]) -> Any:
    """A new state: ``state`` with the patch applied (keys must exist; values are type-checked)."""
    data = serial.to_data(state)
    _merge(data, patch, "")
    return decode(state_type, data)


def decode(state_type: type[Any], data: Any) -> Any:
    """A whole state from its JSON form, type-checked field by field."""
    check(state_type, data, "")
    return serial.from_data(state_type, data)


# ---------------------------------------------------------------- type checks (what `serial` leaves to trust)


_SCALARS: dict[type, tuple[str, str]] = {
    bool: ("true ou false", "true or false"),
    int: ("un nombre entier", "a whole number"),
    float: ("un nombre", "a number"),
    str: ("un texte", "a text"),
}


def _fits_scalar(tp: type, value: Any) -> bool:
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, tp)


def _wrong(at: str, fr: str, en: str, value: Any) -> PathError:
    return PathError(at or "(état)", Msg(f"attendu : {fr}, reçu {serial_show(value)}",
                                         f"expected {en}, got {serial_show(value)}"))


def check(tp: Any, value: Any, at: str) -> None:
    """Raise `PathError` where ``value`` does not fit type ``tp`` (dataclass fields, containers, scalars)."""
    if tp is Any or tp is object:
        return
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if value is None and type(None) in args:
            return
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                check(a, value, at)
                return
            except PathError as e:
                errors.append(e)
        if errors:
            raise errors[0]
        return
    if origin in (list, tuple, set, frozenset):
        if not isinstance(value, list):
            raise _wrong(at, "une liste", "a list", value)
        items: list[Any] = [a for a in typing.get_args(tp) if a is not Ellipsis] or [Any]
        for i, v in enumerate(value):
            check(items[min(i, len(items) - 1)] if origin is tuple else items[0], v, f"{at}.{i}")
        return
    if origin is dict or (origin is not None and str(origin) == "<class 'collections.abc.Mapping'>"):
        if not isinstance(value, Mapping):
            raise _wrong(at, "une table", "a table", value)
        _, vt = typing.get_args(tp) or (Any, Any)
        for k, v in value.items():
            check(vt, v, f"{at}.{k}" if at else str(k))
        return
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(value, Mapping):
            raise _wrong(at, "une table", "a table", value)
        hints = typing.get_type_hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        for k in value:
            if k not in names:
                raise PathError(f"{at}.{k}" if at else k, Msg(f"champ inconnu ; champs : {', '.join(sorted(names))}",
                                                              f"unknown field; fields: {', '.join(sorted(names))}"))
        for f in dataclasses.fields(tp):
            sub = f"{at}.{f.name}" if at else f.name
            if f.name in value:
                check(hints[f.name], value[f.name], sub)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise PathError(sub, Msg("champ obligatoire manquant", "required field missing"))
        return
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        if value not in {m.value for m in tp}:
            allowed = ", ".join(str(m.value) for m in tp)
            raise _wrong(at, f"une valeur parmi {allowed}", f"one of {allowed}", value)
        return
    if isinstance(tp, type) and tp in _SCALARS:
        if not _fits_scalar(tp, value):
            fr, en = _SCALARS[tp]
            raise _wrong(at, fr, en, value)


def serial_show(value: Any) -> str:
    """A value as a scenario file would write it (TOML-like, short)."""
    if value is None:
        return "@nul"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {serial_show(v)}" for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(serial_show(v) for v in value) + "]"
    return str(value)
