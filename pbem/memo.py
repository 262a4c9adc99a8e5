"""Bounded memos: `functools.lru_cache` that also refuses to remember calls on long texts.

A daemon lives for months and reads what strangers write.  A cache keyed on a whole header
value or a whole line keeps every distinct one it is given: before this, 900 mails with a 1 MB
header took the daemon from 41 to 1,257 MiB.  Every cache in pbem is bounded twice: by its number
of entries (``maxsize``) and by the size of what it keeps (a call whose text, bytes or tuple
arguments are longer than ``max_key`` characters in all is computed and not remembered).
`tests/test_memory_bounds.py` finds every cache of the package and checks both bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, update_wrapper
from typing import Any, ParamSpec, Protocol, TypeVar, cast

from pbem.limits import MAX_KEY_CHARS

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


def key_size(value: object) -> int:
    """How many characters (bytes, items) a cache key keeps alive: texts and bytes count their length,
    tuples and frozensets the sum of their items'; anything else (numbers, dates, types) counts 0."""
    if isinstance(value, (str, bytes)):
        return len(value)
    if isinstance(value, (tuple, frozenset)):
        return sum(key_size(item) + 1 for item in value)
    return 0


class Memo(Protocol[P, R_co]):
    """A memoized function: called as the function, with `functools.lru_cache`'s ``cache_info`` and
    ``cache_clear``, and its two bounds."""

    maxsize: int
    max_key: int

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...

    def cache_info(self) -> Any: ...

    def cache_clear(self) -> None: ...


def memo(maxsize: int, max_key: int = MAX_KEY_CHARS) -> Callable[[Callable[P, R]], Memo[P, R]]:
    """Decorator: remember up to ``maxsize`` calls, none whose arguments keep more than ``max_key``
    characters in all (`key_size`)."""
    if maxsize <= 0:
        raise ValueError("a bounded memo needs a positive maxsize")

    def wrap(function: Callable[P, R]) -> Memo[P, R]:
        fn: Callable[..., Any] = function
        cached = lru_cache(maxsize=maxsize)(fn)
        code = getattr(fn, "__code__", None)
        one_text = code is not None and code.co_argcount == 1 and not code.co_flags & 0x0C  # (no *args, **kwargs)

        def one(arg: Any) -> Any:  # the hot case (`pbem.names.fold`): one argument, no packing of arguments
            if (len(arg) if type(arg) is str else key_size(arg)) > max_key:
                return fn(arg)
            return cached(arg)

        def many(*args: Any, **kwargs: Any) -> Any:
            size = sum(key_size(a) for a in args) + sum(key_size(v) for v in kwargs.values())
            return fn(*args, **kwargs) if size > max_key else cached(*args, **kwargs)

        call: Callable[..., Any] = one if one_text else many
        update_wrapper(call, fn)
        wrapper = cast(Any, call)
        wrapper.cache_info = cached.cache_info
        wrapper.cache_clear = cached.cache_clear
        wrapper.maxsize = maxsize
        wrapper.max_key = max_key
        return cast("Memo[P, R]", wrapper)
    return wrap
