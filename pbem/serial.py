"""Dataclass trees <-> JSON-compatible data, guided by type hints.

Ruleset states are typed dataclasses; the store keeps them as JSON.  Supported
field types: str, int, float, bool, None, Enum, nested dataclasses, and
list/tuple/frozenset/set/dict (str keys) of those, plus ``X | None``.
Encoding is deterministic (sets are sorted) so equal states give equal bytes.
A dataclass may define ``__post_load__(self)``: `from_data` calls it once the object is decoded,
for what the JSON cannot say (which equal values are one object, say); it must not change the
object's value.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union

T = TypeVar("T")


def to_data(obj: Any) -> Any:
    """Encode a dataclass tree as JSON-compatible data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted((to_data(v) for v in obj), key=lambda v: json.dumps(v, sort_keys=True))
    return obj


def dumps(obj: Any) -> str:
    """Canonical JSON text of a dataclass tree (sorted keys, no spaces, UTF-8 kept)."""
    return json.dumps(to_data(obj), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _post_load(cls: type) -> Any:
    return getattr(cls, "__post_load__", None)


@cache
def _field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = _hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def from_data(tp: Any, data: Any) -> Any:
    """Decode JSON-compatible data into type ``tp`` (a dataclass, container or scalar type)."""
    if tp is Any or tp is str:  # (a str needs no decoding: the shortcut only saves the tests below)
        return data
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        real = [a for a in args if a is not type(None)]
        if len(real) == 1:
            return from_data(real[0], data)
        for a in real:  # scalar unions like int | str: keep the value as is
            if isinstance(a, type) and isinstance(data, a):
                return data
        return data
    if origin in (list, typing.List):  # noqa: UP006
        (arg,) = typing.get_args(tp) or (Any,)
        if arg is str:
            return list(data)
        return [from_data(arg, v) for v in data]
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin in (frozenset, set):
        (arg,) = typing.get_args(tp) or (Any,)
        if arg is str:
            return origin(data)
        return origin(from_data(arg, v) for v in data)
    if origin is dict or origin is typing.Mapping or origin is getattr(typing, "Mapping", None):
        kt, vt = typing.get_args(tp) or (Any, Any)
        if kt is str and vt is str:
            return dict(data)
        return {from_data(kt, k): from_data(vt, v) for k, v in data.items()}
    if origin is not None and str(origin) == "<class 'collections.abc.Mapping'>":
        kt, vt = typing.get_args(tp)
        return {from_data(kt, k): from_data(vt, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        kwargs = {name: from_data(hint, data[name]) for name, hint in _field_hints(tp) if name in data}
        obj = tp(**kwargs)
        loaded = _post_load(tp)
        if loaded is not None:
            loaded(obj)
        return obj
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is float and isinstance(data, int):
        return float(data)
    if tp is int and isinstance(data, str) and data.lstrip("-").isdigit():
        return int(data)  # dict keys come back from JSON as strings
    return data


def loads(tp: type[T], text: str) -> T:
    """Decode `dumps` output back into type ``tp``."""
    return typing.cast(T, from_data(tp, json.loads(text)))
