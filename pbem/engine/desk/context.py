"""An MJ's mail in its context: the game as the reader may know it (a `View` made from the game's `Table`), and
the mail it answers or forwards (the `Thread`): our confirmation of his commands, a digest, a notice about a
player or a test, a stranger's mail forwarded (« inscris-le »).

The thread is known from our own mails only (its In-Reply-To and References, looked up among the mails we
sent and the confirmations we asked for) and, for a forwarded mail, from the forwarded header block in his
text; nothing a stranger wrote decides which thread a mail is in.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from pbem.engine.desk.readings import Intent, Request, Thread, View, slots_from_json
from pbem.engine.desk.slots import Roster, plain, words_of
from pbem.engine.steps import calendar
from pbem.engine.table import Table
from pbem.engine.words import is_pass
from pbem.mail.reading import IncomingMail, read_message
from pbem.names import fold
from pbem.store import ConfirmationRow

_FORWARDED_FROM = re.compile(r"^[>\s]{0,8}(?:de|from|von|exp[ée]diteur)\s{0,4}:[ \t]{0,4}([^\n]{0,200})$",
                             re.IGNORECASE | re.MULTILINE)
_ADDRESS = re.compile(r"<?([A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8})>?")
_TEST_NUMBER = re.compile(r"n°\s?(\d{1,9})")
MAX_THREAD_TEXT = 20_000
"""How much of our own mail (or of the MJ's, for a forwarded header) is read for what it is about."""


def view_of(table: Table, mail: IncomingMail, now: datetime, pending: ConfirmationRow | None) -> View:
    """What the reader may know of the game when it reads this MJ mail."""
    g = table.row
    state = table.state
    running = g.phase == "running"
    held = calendar.held(table)
    pauses = table.store.pauses(table.id)
    players = tuple(p.name for p in table.store.players(table.id, include_removed=True))
    requests = [(int(n), str(who), str(what)) for n, who, what in table.ruleset.pending_requests(state)] \
        if state is not None else None
    view = View(
        now=now, tz=table.config.timezone, players=players,
        women=frozenset(n for n, gender in table.store.genders(table.id).items() if gender == "f"),
        nicknames=table.store.nicknames(table.id),
        deadline=g.deadline if running else None, step_hours=_step_hours(table, state),
        open_turn=g.turn if running else None, last_turn=max(g.turn - 1, 0) if running else g.turn,
        held=held.turn if held else None, paused=any(p.starts_at <= now for p in pauses),
        pause_planned=any(p.starts_at > now for p in pauses),
        absent=frozenset(a.player for a in table.store.absences(table.id, after=now)),
        requests=tuple(Request(n, p, what) for n, p, what in requests) if requests is not None else None,
        order_words=order_words(table, state), wish_words=wish_words(table, state), lang=table.settings.language, step_word=table.step_word)
    return replace(view, thread=thread_of(table, mail, pending, players))


def _step_hours(table: Table, state: Any) -> float | None:
    """How long a step lasts (« prolonge d'un tour »)."""
    if state is None:
        return None
    prompts = table.prompts(state)
    length = table.settings.deadlines.get(prompts[0].deadline if prompts else "turn")
    return (length.days * 24 + length.seconds / 3600) if length is not None and not length.empty else None


def order_words(table: Table, state: Any) -> dict[str, str]:
    """The words of the orders a player gives (folded word -> keyword, from AIDE), with the common PASSER."""
    words: dict[str, str] = {}
    if state is None:
        return words
    players = table.ruleset.players(state)
    if players:
        for h in table.ruleset.help(state, players[0]):
            head = h.syntax.split()[0] if h.syntax.split() else ""
            if head.isalpha():
                for word in (head, *h.aliases):
                    words.setdefault(fold(word), head.upper())
    if is_pass(table, "PASSER"):
        words.update({"passer": "PASSER", "pass": "PASSER"})
    return words


def wish_words(table: Table, state: Any) -> dict[str, str]:
    """The game's verbs of a wish (`Ruleset.wish_words`), for the orders a player of this game can give."""
    orders = set(order_words(table, state).values())
    return {fold(w): k for w, k in table.ruleset.wish_words.items() if k in orders}


def thread_of(table: Table, mail: IncomingMail, pending: ConfirmationRow | None, players: tuple[str, ...]) -> \
        Thread | None:
    """The mail this one answers (one of ours) or forwards (a stranger's)."""
    if pending is not None:
        tz = table.config.timezone
        return Thread("confirmation", turn=pending.turn, pending=tuple(
            Intent(str(c["command"]), slots_from_json(c["slots"], tz)) for c in pending.commands))
    for mid in [mail.in_reply_to, *reversed(mail.references)]:
        row = table.store.outbox_row(mid) if mid else None
        if row is None or row.game != table.id:
            continue
        text = read_message(table.store.outbox_raw(mid) or b"").text[:MAX_THREAD_TEXT]
        about = named_in(text, players)
        numbers = tuple(dict.fromkeys(int(n) for n in _TEST_NUMBER.findall(text)))
        if row.kind == "digest":
            return Thread("digest", turn=row.turn, players=about if len(about) == 1 else ())
        return Thread("notice", turn=row.turn, players=about, requests=numbers if len(numbers) == 1 else ())
    stranger = forwarded(mail, table)
    return Thread("stranger", stranger=stranger) if stranger is not None else None


def named_in(text: str, players: tuple[str, ...]) -> tuple[str, ...]:
    """The players a text of ours names, in order."""
    roster = Roster(players)
    names: list[str] = []
    for line in text.splitlines()[:200]:
        for h in roster.scan(plain(words_of(line[:500]))):
            if h.name is not None and h.name not in names:
                names.append(h.name)
    return tuple(names)


def forwarded(mail: IncomingMail, table: Table) -> tuple[str, str] | None:
    """The sender of a mail the MJ forwards (the « De : » or « From: » line of its header block), if any."""
    ours = {table.config.address.lower(), *(a.lower() for a in table.settings.mj), mail.from_addr.lower()}
    for m in _FORWARDED_FROM.finditer(mail.raw_text[:MAX_THREAD_TEXT]):
        value = m.group(1).strip()
        address = _ADDRESS.search(value)
        if address is None or address.group(1).lower() in ours:
            continue
        name = value[:address.start()].strip(" \"'<>,")
        return (name or address.group(1).split("@")[0], address.group(1).lower())
    return None
