"""Dataclass trees <-> JSON-compatible data, guided by type hints.

Ruleset states are typed dataclasses; the store keeps them as JSON.  Supported
field types: str, int, float, bool, None, Enum, nested dataclasses, and
list/tuple/frozenset/set/dict (str keys) of those, plus ``X | None`` (a `collections.abc` Set or
Mapping that is not a set or dict is written as the one it stands for; an ``abc.Set`` hint reads a frozenset).
Encoding is deterministic (sets are sorted) so equal states give equal bytes.
A dataclass may define ``__post_load__(self)``: `from_data` calls it once the object is decoded,
for what the JSON cannot say (which equal values are one object, say); it must not change the
object's value.

Each type gets its own encoder and decoder, made once (`_encoder`, `_decoder`): a state of
thousands of records is walked without asking the type hints again at every value.

**Shared records** (`Memo`).  A ruleset returns a new state that shares what did not change
with the old one (a 1626 test appends one record to a history of hundreds).  Decoding and
encoding may take a `Memo`: it remembers, for every *frozen* dataclass record of a state, the
JSON data it was read from or written as; encoding the next state with it reuses that data for
every record the two states share (the same object), and only encodes the new ones.  The data
are equal either way (a frozen record cannot change, and rulesets never change a state in
place: `pbem.core.Ruleset`), so the text is byte for byte the same; what changes is the cost:
in proportion to what changed, not to the state.  `pbem.statediff` compares shared data by
identity, so the difference of two such states costs what changed too.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import operator
import types
import typing
from collections import abc
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar, Union

T = TypeVar("T")
_Table = TypeVar("_Table", dict[int, tuple[Any, Any]], set[int])

class Memo:
    """What `to_data` and `from_data` remember of one state: each frozen record with its JSON data
    (``records``: id(record) -> (record, data)), and, once `canonical` has written them, the text of
    each record's data (``texts``: id(data) -> (data, text)).

    A list of records is kept too, by the complement of its first item's id (``~id``, negative: never
    a record's key): ``records[~id(first record)] = (list, data)`` and ``texts[~id(first data)] =
    (data, text)``.  A history that gained a record starts with the same items as the one before:
    its data and text are then the old ones and the new items' (`_extended`), found without walking
    the old items one by one in Python."""

    __slots__ = ("data", "records", "texts")

    def __init__(self) -> None:
        self.records: dict[int, tuple[Any, Any]] = {}
        self.data: set[int] = set()
        """The ids of the records' data (`canonical` tells a record's data from another mapping by it)."""
        self.texts: dict[int, tuple[Any, str]] = {}

    def __bool__(self) -> bool:
        return bool(self.records)

_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_data(obj: Any, prev: Memo | None = None, memo: Memo | None = None) -> Any:
    """Encode a dataclass tree as JSON-compatible data.

    ``prev``: the memo of a state this one may share records with (their data is reused);
    ``memo``: filled with this state's frozen records and their data (the next encoding's ``prev``).
    """
    return _encode(obj, prev, memo)


def _encode(obj: Any, prev: Memo | None, memo: Memo | None) -> Any:
    kind = type(obj)
    if kind in _SCALARS:
        return obj
    return _encoder(kind)(obj, prev, memo)  # type: ignore[arg-type]


Encoder = Callable[[Any, "Memo | None", "Memo | None"], Any]


@lru_cache(maxsize=1024)  # (by type)
def _encoder(kind: type) -> Encoder:
    if dataclasses.is_dataclass(kind):
        return _record_encoder(kind)
    if issubclass(kind, enum.Enum):
        return lambda obj, prev, memo: obj.value
    if issubclass(kind, dict):
        return lambda obj, prev, memo: {str(k): _encode(v, prev, memo) for k, v in obj.items()}
    if issubclass(kind, (list, tuple)):
        return _encode_list
    if issubclass(kind, (set, frozenset, abc.Set)):  # (a `Set` that is not a set: as the set it stands for)
        return lambda obj, prev, memo: sorted((_encode(v, prev, memo) for v in obj),
                                              key=lambda v: json.dumps(v, sort_keys=True))
    if issubclass(kind, abc.Mapping):  # (a `Mapping` that is not a dict: as the dict it stands for)
        return lambda obj, prev, memo: {str(k): _encode(v, prev, memo) for k, v in obj.items()}
    return lambda obj, prev, memo: obj


def _extended(new: Any, old: Any) -> bool:
    """Does ``new`` (a list or tuple) start with the very items of ``old`` (the same objects)?"""
    k = len(old)
    return len(new) >= k and type(new) is type(old) and all(map(operator.is_, new[:k], old))


def _carried(items: Any) -> int:
    """How many entries a memo carried over from state to state may hold beside a list of ``items``."""
    return 2 * len(items) + 1024


def _encode_list(obj: Any, prev: Memo | None, memo: Memo | None) -> Any:
    if memo is not None and obj:
        key = ~id(obj[0])
        hit = prev.records.get(key) if prev is not None else None
        if (prev is not None and hit is not None and len(prev.records) <= _carried(obj)
                and _extended(obj, hit[0])):  # (a history that gained records: the old data, and theirs)
            old, data = hit
            # the memo carried over whole: records the state before had and this one left are only looked up by
            # identity, never written; `_carried` bounds them (past it, the list is walked anew).  The state
            # before's tables are handed on rather than copied (`_handed_on`): a copy costs the whole history
            memo.records = _handed_on(prev.records, memo.records)
            memo.data = _handed_on(prev.data, memo.data)
            out = [*data, *(_encode(v, prev, memo) for v in obj[len(old):])]
        else:
            out = _encode_items(obj, prev, memo)
        memo.records[key] = (obj, out)
        return out
    return _encode_items(obj, prev, memo)


def _handed_on(before: _Table, mine: _Table) -> _Table:
    """``before`` (a table of the state before's memo) with ``mine``'s entries added: the state before's table
    itself when it is the larger, so carrying a memo over costs what this state added, not the history.  The
    state before's memo then holds this state's entries too; it stays right (every entry is found by identity,
    and a list's entry that no longer extends is walked anew), only a little larger."""
    if len(before) < len(mine):
        mine.update(before)
        return mine
    before.update(mine)
    return before


def _encode_items(obj: Any, prev: Memo | None, memo: Memo | None) -> Any:
    if prev is None or not prev.records:
        return [_encode(v, prev, memo) for v in obj]
    # a list of records most of which the state before had (a history): each found at once
    known = prev.records.get
    out = []
    for v in obj:
        key = id(v)
        hit = known(key)
        if hit is not None and hit[0] is v:
            if memo is not None:  # (its tables looked up each time: a list inside may hand them on, `_handed_on`)
                memo.records[key] = hit
                memo.data.add(id(hit[1]))
            out.append(hit[1])
        else:
            out.append(_encode(v, prev, memo))
    return out


def _record_encoder(kind: type) -> Encoder:
    names = tuple(f.name for f in dataclasses.fields(kind))
    frozen = bool(kind.__dataclass_params__.frozen)  # type: ignore[attr-defined]

    def encode(obj: Any, prev: Memo | None, memo: Memo | None) -> Any:
        if frozen and (prev is not None or memo is not None):
            key = id(obj)
            hit = prev.records.get(key) if prev is not None else None
            if hit is None or hit[0] is not obj:
                hit = (obj, {name: _encode(getattr(obj, name), prev, memo) for name in names})
            if memo is not None:
                memo.records[key] = hit
                memo.data.add(id(hit[1]))
            return hit[1]
        return {name: _encode(getattr(obj, name), prev, memo) for name in names}

    return encode


def dumps(obj: Any, prev: Memo | None = None, memo: Memo | None = None) -> str:
    """Canonical JSON text of a dataclass tree (sorted keys, no spaces, UTF-8 kept); ``prev`` and
    ``memo`` as in `to_data`."""
    return _TEXT.encode(to_data(obj, prev, memo))


def canonical(data: Any, prev: Memo | None = None, memo: Memo | None = None) -> str:
    """The canonical JSON text of data that `to_data` gave (what `dumps` writes).

    With the ``memo`` `to_data` filled, each frozen record's text is written once and kept in it, and
    the text of a record that ``prev`` knows (the same data) is taken from there: a state that shares
    most of its records with the one before is written at the cost of what changed (and of joining
    the pieces), not re-encoded whole.
    """
    if memo is None or not memo.records:
        return _TEXT.encode(data)
    records = memo.data
    parts: list[str] = []
    _write(data, records, prev.texts if prev is not None else {}, memo, parts)
    return "".join(parts)


def _write(value: Any, records: set[int], known: dict[int, tuple[Any, str]], memo: Memo,
           parts: list[str]) -> None:
    """Append the canonical text of ``value`` to ``parts``: a record's data from ``known`` (else written, and
    kept in ``texts``); a list of plain values, or a plain value, by the C encoder at once."""
    kind = type(value)
    if kind is dict:
        key = id(value)
        if key in records:
            hit = known.get(key)
            if hit is None or hit[0] is not value:
                if _leaf(value):  # (a record of plain values: at once)
                    hit = (value, _TEXT.encode(value))
                else:
                    mine: list[str] = []
                    _write_dict(value, records, known, memo, mine)
                    hit = (value, "".join(mine))
            memo.texts[key] = hit
            parts.append(hit[1])
            return
        _write_dict(value, records, known, memo, parts)
    elif kind is list and value and type(value[0]) in (dict, list):
        lkey = ~id(value[0])
        old = known.get(lkey)
        start = 0
        pieces: list[str] = []
        if old is not None and len(known) <= _carried(value) and _extended(value, old[0]):  # (as it was)
            start = len(old[0])
            memo.texts = _handed_on(known, memo.texts)  # (see `Memo`, `_handed_on`)
            pieces.append(old[1][1:-1])
            if not pieces[0]:
                pieces.pop()
        for item in value[start:] if start else value:
            key = id(item)
            hit = known.get(key)
            if hit is not None and hit[0] is item:  # (a record the state before had: its text as it was)
                memo.texts[key] = hit
                pieces.append(hit[1])
            else:
                mine = []
                _write(item, records, known, memo, mine)
                pieces.append("".join(mine))
        text = f"[{','.join(pieces)}]"
        memo.texts[lkey] = (value, text)
        parts.append(text)
    else:  # a plain value, or a list of them (a state's lists hold one kind of thing)
        parts.append(_TEXT.encode(value))


def _leaf(value: dict[str, Any]) -> bool:
    """Does this data hold plain values and lists of them only (no record, no mapping inside)?"""
    for v in value.values():
        kind = type(v)
        if kind is dict or (kind is list and v and type(v[0]) in (dict, list)):
            return False
    return True


def _write_dict(value: dict[str, Any], records: set[int], known: dict[int, tuple[Any, str]],
                memo: Memo, parts: list[str]) -> None:
    parts.append("{")
    for i, name in enumerate(sorted(value)):
        parts.append(f"{',' if i else ''}{_TEXT.encode(name)}:")
        _write(value[name], records, known, memo, parts)
    parts.append("}")


_TEXT = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
"""The canonical encoder (`json.dumps` with these options builds one per call)."""


@lru_cache(maxsize=1024)  # (by dataclass)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@lru_cache(maxsize=1024)  # (by dataclass)
def _post_load(cls: type) -> Any:
    return getattr(cls, "__post_load__", None)


@lru_cache(maxsize=1024)  # (by dataclass)
def _field_hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = _hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def from_data(tp: Any, data: Any, memo: Memo | None = None) -> Any:
    """Decode JSON-compatible data into type ``tp`` (a dataclass, container or scalar type).

    ``memo``: filled with the frozen records decoded and the data each was read from (for `to_data`).
    """
    return _decoder(tp)(data, memo)


Decoder = Callable[[Any, "Memo | None"], Any]


def _same(data: Any, memo: Memo | None) -> Any:
    return data


@lru_cache(maxsize=1024)  # (by type)
def _decoder(tp: Any) -> Decoder:
    if tp is Any or tp is str:
        return _same
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        args = typing.get_args(tp)
        real = [a for a in args if a is not type(None)]
        if len(real) != 1:  # scalar unions like int | str: the value as it is
            return _same
        inner = _decoder(real[0])
        if inner is _same:
            return _same
        return lambda data, memo: None if data is None else inner(data, memo)
    if origin in (list, typing.List):  # noqa: UP006
        (arg,) = typing.get_args(tp) or (Any,)
        item = _decoder(arg)
        if item is _same:
            return lambda data, memo: list(data)
        return lambda data, memo: [item(v, memo) for v in data]
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            one = _decoder(args[0])
            return lambda data, memo: tuple(one(v, memo) for v in data)
        each = tuple(_decoder(a) for a in args)
        return lambda data, memo: tuple(d(v, memo) for d, v in zip(each, data, strict=True))
    if origin in (frozenset, set, abc.Set):
        (arg,) = typing.get_args(tp) or (Any,)
        item = _decoder(arg)
        make = frozenset if origin is abc.Set else origin
        if item is _same:
            return lambda data, memo: make(data)
        return lambda data, memo: make(item(v, memo) for v in data)
    if origin is dict or origin is typing.Mapping or (origin is not None and str(origin) ==
                                                       "<class 'collections.abc.Mapping'>"):
        kt, vt = typing.get_args(tp) or (Any, Any)
        key, value = _decoder(kt), _decoder(vt)
        if key is _same and value is _same:
            return lambda data, memo: dict(data)
        if key is _same:
            return lambda data, memo: {k: value(v, memo) for k, v in data.items()}
        return lambda data, memo: {key(k, memo): value(v, memo) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _record_decoder(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return lambda data, memo: tp(data)
    if tp is float:
        return lambda data, memo: float(data) if isinstance(data, int) else data
    if tp is int:  # dict keys come back from JSON as strings
        return lambda data, memo: int(data) if isinstance(data, str) and data.lstrip("-").isdigit() else data
    return _same


def _record_decoder(kind: type) -> Decoder:
    made: list[tuple[tuple[tuple[str, Decoder], ...], frozenset[str]]] = []
    """(its fields' decoders, their names), made at the first use: a record may hold records of its own type."""
    frozen = bool(kind.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    loaded = _post_load(kind)

    def decode(data: Any, memo: Memo | None) -> Any:
        if not made:
            fields = tuple((name, _decoder(hint)) for name, hint in _field_hints(kind))
            made.append((fields, frozenset(name for name, _d in fields)))
        fields, names = made[0]
        obj = kind(**{name: d(data[name], memo) for name, d in fields if name in data})
        if loaded is not None:
            loaded(obj)
        if memo is not None and frozen and len(data) == len(names) and names.issuperset(data):
            memo.data.add(id(data))
            memo.records[id(obj)] = (obj, data)  # (only data with every field and no other: as it would encode)
        return obj

    return decode


def loads(tp: type[T], text: str, memo: Memo | None = None) -> T:
    """Decode `dumps` output back into type ``tp`` (``memo`` as in `from_data`)."""
    return typing.cast(T, from_data(tp, json.loads(text), memo))
