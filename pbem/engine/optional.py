"""The methods a ruleset may have beyond `pbem.core.Ruleset`, called when it has them.

* ``parse_order(..., author=MJ)``: the line was written by the MJ for a player (``POUR``), so a 1626
  test the MJ sets is rolled at once instead of becoming the player's request;
* ``action_title(state_before, player, order, viewer) -> Msg``: what an immediate order is called in
  the subject and heading of ``viewer``'s mail (a secret test must not be named to its player);
* ``batch_title(state, [(player, order), …]) -> Msg``: the subject of the MJ's digest of a batch;
* ``check_options(options)``: every option value checked when the config is read (`SetupError`);
* ``check_roster(text, options)``: a roster file checked when it is read, each fault with its line;
* ``pending_requests(state) -> [(number, player, what), …]``: players' requests that wait for the MJ
  (1626's tests), which his mail may answer in a sentence (« SR 15 pour le test d'Isaac »).
* ``dead(state) -> [player, …]``: the players whose seat plays no more because the rules killed it (Pour Ma
  Belle's dead): the MJ's lists show them as dead, and the calendar's notices (deadline, pause) no longer go
  to them; their results and the end of the game still do.

Without them the engine does what it did before: the order as typed for titles, options checked
at the start of the game.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pbem.core import JSON, Msg, Order, Ruleset


@lru_cache(maxsize=64)  # (by ruleset class)
def _takes_author(kind: type) -> bool:
    method = getattr(kind, "parse_order", None)
    try:
        return method is not None and "author" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def parse_order(ruleset: Ruleset, state: Any, player: str, line: str, accepted: Sequence[Order],
                author: str | None = None) -> Order:
    """`Ruleset.parse_order`, telling the ruleset who wrote the line when it wants to know."""
    if author is not None and _takes_author(type(ruleset)):
        return ruleset.parse_order(state, player, line, accepted, author=author)  # type: ignore[call-arg]
    return ruleset.parse_order(state, player, line, accepted)


def action_title(ruleset: Ruleset, state: Any, player: str, order: Order, viewer: str, lang: str) -> str:
    """The title of an immediate order for one reader: the ruleset's, else the order as typed."""
    method = getattr(ruleset, "action_title", None)
    if method is not None:
        try:
            title = method(state, player, order, viewer)
        except Exception:  # a title is never worth losing the order's mail: fall back on the line
            title = None
        if isinstance(title, Msg):
            return title.get(lang)
    return order.text or order.verb


def batch_title(ruleset: Ruleset, states: Sequence[Any], actions: Sequence[tuple[str, Order]],
                fallback: Sequence[str], lang: str) -> str:
    """The subject of the MJ's digest of several immediate orders.

    ``states`` are the states before each action: the ruleset's ``batch_title`` is asked with the
    first one, then with the last (an answer to a request made in the same batch only exists in a
    later state).  Without a title from the ruleset: the titles of the actions (``fallback``).
    """
    method = getattr(ruleset, "batch_title", None)
    if method is not None:
        for state in (states[0], states[-1]) if len(states) > 1 else states[:1]:
            try:
                title = method(state, list(actions))
            except Exception:
                continue
            if isinstance(title, Msg):
                return title.get(lang)
    unique = list(dict.fromkeys(fallback))
    return unique[0] if len(unique) == 1 else " ; ".join(unique[:3]) + (" …" if len(unique) > 3 else "")


def check_options(ruleset: Ruleset, options: Mapping[str, JSON]) -> None:
    """The ruleset's own check of its option values (`SetupError`), if it has one."""
    method = getattr(ruleset, "check_options", None)
    if method is not None:
        method(options)


def check_roster(ruleset: Ruleset, text: str, options: Mapping[str, JSON]) -> bool:
    """The ruleset's own check of a roster file's text (`SetupError` with line numbers); False if it has none."""
    method = getattr(ruleset, "check_roster", None)
    if method is None:
        return False
    method(text, options)
    return True


def requests(ruleset: Ruleset, state: Any) -> list[tuple[int, str, str]] | None:
    """The players' requests waiting for the MJ (number, player, what), or None for a game that has none."""
    method = getattr(ruleset, "pending_requests", None)
    if method is None:
        return None
    return [(int(n), str(p), str(what)) for n, p, what in method(state)]


def dead(ruleset: Ruleset, state: Any) -> frozenset[str]:
    """The players the rules killed (``dead``, if the ruleset has it; none otherwise, and none before the start)."""
    method = getattr(ruleset, "dead", None)
    if method is None or state is None:
        return frozenset()
    return frozenset(method(state))
