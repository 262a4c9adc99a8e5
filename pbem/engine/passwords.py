"""Passwords (``passwords = true``): a mail's password checked, wrong ones slowed down, a seat's first one set.

Each game and address has its count of wrong passwords (`pbem.store.tries`; a right one clears it,
and those older than `FORGET_AFTER` are forgotten).  After `DELAY_AFTER` of them, the address's
next mail is not read before a delay (5 minutes, doubling each time, at most an hour); after
`LOCK_AFTER`, it is not read for an hour (`LOCK`).  A mail that comes during a delay or a lock is
refused unread, its password unchecked, so waiting out the delay is the only way to try again: a
forger gets about one try an hour.  The answers go to the registered address only (the From a
forger wrote is that address), and say the same whether the password was right or wrong; the MJ
gets one summary when an address is locked, not one notice per try (`check` queues it).

A seat without a password (a newcomer who took it over: `handover` clears the old one) sets its
own with its first mail's ``MOTDEPASSE`` line.  `check` is the one way the engine checks a
password: the MJ's mail commands call it too.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.engine.table import Table
from pbem.mail.senders import check_password, given_password
from pbem.outbox import Letter

DELAY_AFTER = 3
"""Wrong passwords after which an address waits before its next mail is read."""
LOCK_AFTER = 10
"""Wrong passwords after which an address is locked for `LOCK`."""
FIRST_DELAY = timedelta(minutes=5)
"""The wait after `DELAY_AFTER` wrong passwords; it doubles with each one more, up to `LOCK`."""
LOCK = timedelta(hours=1)
FORGET_AFTER = timedelta(days=1)
"""Wrong passwords older than this no longer count."""


@dataclass(frozen=True)
class Verdict:
    """What the password check of one mail found.

    ``reason``: ``""`` (fine), ``"wrong"`` (absent or wrong, counted), ``"waiting"`` (refused unread during a
    delay), ``"locked"`` (refused unread during a lock), ``"unset"`` (a seat without a password, and the mail
    gives none).  ``text`` is the mail's text without its password lines (never echoed); ``failures``
    the wrong passwords counted; ``until`` when the address's next mail is read, if it must wait;
    ``chosen``: the password this mail set for a seat that had none."""

    ok: bool
    text: str
    reason: str = ""
    failures: int = 0
    until: datetime | None = None
    chosen: str | None = None


def wait_after(failures: int) -> timedelta | None:
    """How long an address waits after that many wrong passwords in a row (None: it does not)."""
    if failures >= LOCK_AFTER:
        return LOCK
    if failures < DELAY_AFTER:
        return None
    waited: timedelta = FIRST_DELAY * (2 ** (failures - DELAY_AFTER))
    return min(waited, LOCK)


def check(table: Table, address: str, text: str, expected: str | None, now: datetime, *,
          may_set: str | None = None) -> Verdict:
    """Check the password lines of a mail from ``address`` against ``expected`` (None: anything goes, the lines
    are still removed), counting wrong ones.  ``may_set`` names a seat without a password: the mail's
    ``MOTDEPASSE`` line becomes its password (stored here), and a mail without one is refused (``unset``).
    Inside the caller's transaction."""
    store = table.store
    failures = store.password_failures(table.id, address, now - FORGET_AFTER)
    waited = wait_after(len(failures))
    if waited is not None and now < failures[-1] + waited:  # not even checked: waiting is the only way
        return Verdict(False, "", "locked" if len(failures) >= LOCK_AFTER else "waiting", len(failures),
                       failures[-1] + waited)
    if may_set is not None and expected is None:
        chosen = given_password(text)
        _ok, rest = check_password(text, None)
        if not chosen:
            return Verdict(False, rest, "unset")
        store.set_player_password(table.id, may_set, chosen)
        store.log(table.id, now, address, "password set", {"player": may_set})
        return Verdict(True, rest, chosen=chosen)
    ok, rest = check_password(text, expected)
    if ok:
        if failures:
            store.clear_password_failures(table.id, address)
        return Verdict(True, rest)
    store.add_password_failure(table.id, address, now)
    count = len(failures) + 1
    waited = wait_after(count)
    if count >= LOCK_AFTER:
        _summary(table, address, [*failures, now], now)
    return Verdict(False, rest, "wrong", count, now + waited if waited is not None else None)


def _summary(table: Table, address: str, failures: list[datetime], now: datetime) -> None:
    """The MJ's one notice of a lock: how many wrong passwords, from when to when, until when it holds."""
    p = table.store.player_by_address(table.id, address)
    who = p.name if p is not None else None
    t = table.renderer.mail_text("password_locked", tag=table.tag, address=address, player=who,
                                 mj=address in table.settings.mj, failures=len(failures),
                                 first=table.local(failures[0]), last=table.local(failures[-1]),
                                 until=table.local(now + LOCK), lock_after=LOCK_AFTER)
    table.outgoing.queue([Letter(f"password-locked-{table.id}-{address}-{now.isoformat()}", table.id, table.row.turn,
                                 "notice", mj, t.subject, t.body) for mj in table.settings.mj], now)


# --- passwords pbem makes


_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud or copied by hand without a doubt


def new_password() -> str:
    """A password for a player the MJ registers: 12 letters and digits in three groups (about 59 bits)."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(3))
