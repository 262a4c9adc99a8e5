"""The difference between two JSON values as a short list of changes, and applying it back.

An immediate order (a 1626 test) changes a few fields of a state that keeps growing (its history):
storing the change instead of two whole states keeps a long session's records small.  The
changes are plain JSON, so they are stored, exported and replayed like the rest of a record:

* ``["=", path, value]``: the value at ``path`` becomes ``value``;
* ``["-", path]``: the key at the end of ``path`` is removed from its object;
* ``["+", path, items]``: ``items`` are appended to the list at ``path``;
* ``["<", path, n]``: the list at ``path`` is cut to its first ``n`` items.

A path is a list of object keys and list indices from the root (``[]`` is the root itself); the
changes come in the order of the keys, sorted, as canonical JSON writes them.
`apply(a, diff(a, b)) == b` for any JSON values ``a`` and ``b``; ``a`` is never modified.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

Change = list[Any]
Path = list[str | int]


def diff(a: Any, b: Any) -> list[Change]:
    """The changes that turn ``a`` into ``b`` (empty when they are equal)."""
    out: list[Change] = []
    _diff(a, b, [], out)
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same JSON types all the way down (``1`` is not ``true``, nor ``1.0``)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)  # -0.0 is stored as written
    return bool(a == b)


def _diff(a: Any, b: Any, path: Path, out: list[Change]) -> None:
    if a is b:  # (data shared by two states, `pbem.serial.Memo`: nothing to walk)
        return
    if isinstance(a, dict) and isinstance(b, dict):
        # keys in sorted order, as canonical JSON has them (data from `pbem.serial.to_data` has field order)
        for key in sorted(a):
            if key not in b:
                out.append(["-", [*path, key]])
        for key in sorted(b):
            value = b[key]
            if key not in a:
                out.append(["=", [*path, key], value])
            else:
                _diff(a[key], value, [*path, key], out)
        return
    if isinstance(a, list) and isinstance(b, list):
        common = min(len(a), len(b))
        if all(map(operator.is_, a[:common], b[:common])):  # (a history that gained items: checked at C speed)
            changed: list[int] = []
        else:
            changed = [i for i in range(common) if a[i] is not b[i] and not _same(a[i], b[i])]
        if len(changed) > max(4, common // 2):  # mostly different: the whole list says it more briefly
            out.append(["=", path, b])
            return
        for i in changed:
            _diff(a[i], b[i], [*path, i], out)
        if len(b) > len(a):
            out.append(["+", path, b[len(a):]])
        elif len(b) < len(a):
            out.append(["<", path, len(b)])
        return
    if not _same(a, b):
        out.append(["=", path, b])


def apply(a: Any, changes: Sequence[Change]) -> Any:
    """``a`` with the changes made (copied along the changed paths only; ``a`` is left as it was)."""
    root = [a]
    for change in changes:
        op, path = change[0], list(change[1])
        parent: Any = root
        key: str | int = 0
        # copy every container on the way down, so the original value is never touched
        for step in path:
            parent[key] = _copy(parent[key])
            parent, key = parent[key], step
        if op == "=":
            parent[key] = change[2]
        elif op == "-":
            del parent[key]
        elif op == "+":
            parent[key] = [*parent[key], *change[2]]
        elif op == "<":
            parent[key] = list(parent[key][:int(change[2])])
        else:
            raise ValueError(f"unknown change {op!r}")
    return root[0]


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value
