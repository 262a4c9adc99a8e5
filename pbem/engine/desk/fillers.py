"""The slots of each MJ command, found by type in a clause of a sentence, in any order: one filler per command
(`fill_dates`, `fill_orders`, `fill_seats`, over what they share in `clause`).

A filler is handed a `Clause` (the words of the command, the triggers found in them, what was said before
in the mail) and returns its readings: the slots it filled, which of them were guessed, what is missing or
cannot be (a step already resolved), the candidates of an ambiguous name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.engine.desk.clause import Clause
from pbem.engine.desk.fill_dates import absence, deadline, pause, resume
from pbem.engine.desk.fill_orders import (
    answer,
    approve,
    chronicle,
    correct,
    for_player,
    rerun,
    resend,
    simple,
)
from pbem.engine.desk.fill_seats import finish, register, remove, replace
from pbem.engine.desk.readings import Reading

FILLERS: dict[str, Callable[[Clause], Any]] = {
    "EXTEND": deadline, "EARLIER": deadline, "DEADLINE": deadline, "PAUSE": pause, "RESUME": resume,
    "MISSING": simple, "PREVIEW": simple, "HELP": simple, "RESEND": resend, "FOR": for_player, "CORRECT": correct,
    "RERUN": rerun, "REMOVE": remove, "REPLACE": replace, "APPROVE": approve, "CHRONICLE": chronicle,
    "ABSENCE": absence, "REGISTER": register, "FINISH": finish, "SR": answer, "ROLL": answer,
    "REFUSE_TEST": answer,
}


def fill(c: Clause) -> list[Reading]:
    """The readings of a clause (none: its trigger was no command after all)."""
    out = FILLERS[c.head.command](c)
    if out is None:
        return []
    return list(out) if isinstance(out, list) else [out]

