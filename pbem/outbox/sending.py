"""Sending the queued mail: its stored bytes, with retries (days, capped backoff, one wait for a down server, a
time budget per pass); and requeueing mail that failed."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.faults import crashpoint
from pbem.mail.transport import PermanentFailure, Transport, TransportFailure
from pbem.sendreport import SendReport
from pbem.store import Store

log = logging.getLogger("pbem")


@dataclass(frozen=True)
class RetryPolicy:
    """How long and how often a mail that could not be sent is tried again (`[outbox]` in config.toml)."""

    horizon: timedelta = timedelta(days=5)
    """A mail not sent this long after it was queued fails (``retry_days``)."""
    base_seconds: int = 60
    """The first wait after a temporary failure; it doubles at each attempt (``retry_base_seconds``)..."""
    max_seconds: int = 1800
    """...up to this (``retry_max_seconds``): an outage is noticed over within that."""

    def delay(self, attempts: int) -> timedelta:
        return timedelta(seconds=min(self.max_seconds, self.base_seconds * 2 ** min(max(attempts - 1, 0), 30)))


def send_due(store: Store, transport: Transport, *, sender: str, now: datetime,
             retry: RetryPolicy = RetryPolicy(), budget_seconds: float | None = None,
             clock: Callable[[], float] = time.monotonic) -> SendReport:
    """Send the queued mails that are due, oldest first, for at most ``budget_seconds`` (the rest waits).

    A failure that concerns one mail (a refused recipient, content refused, an address only SMTPUTF8
    could carry) is that mail's alone: permanent, it fails; temporary, it is tried again later with a
    capped exponential backoff.  A failure of the server (down, closing, stalled, login refused) makes
    every due mail wait together, on the backoff of the oldest, so a stuck server costs one connection
    attempt per retry, not one per mail; the first mail the server takes again makes them due at once.
    A mail still unsent ``retry.horizon`` after it was queued fails.  An unexpected error while sending
    one mail fails that mail and the others go on.
    """
    started = clock()
    sent = retrying = failed = 0
    failures: list[str] = []
    for row in store.expire_outbox(now - retry.horizon, f"not sent within {_span(retry.horizon)}"):
        failed += 1
        failures.append(f"{row.rcpt}: not sent within {_span(retry.horizon)}")
    wait = store.server_wait()
    if wait is not None and wait[0] > now:  # the server is known to be unavailable until then: new mail waits too
        store.defer_due_outbox(now, wait[0], "waiting for the SMTP server to answer again")
    attempted: set[str] = set()
    released = False
    while True:
        batch = [item for item in store.due_outbox(now, limit=100) if item.id not in attempted]
        if not batch:
            return SendReport(sent, retrying, failed, "", tuple(failures))
        for item in batch:
            if budget_seconds is not None and clock() - started >= budget_seconds:
                return SendReport(sent, retrying, failed, f"send budget of {budget_seconds:g} s used",
                                  tuple(failures), budget_used=True)
            attempted.add(item.id)
            raw = store.outbox_raw(item.id)
            assert raw is not None
            attempts = item.attempts + 1
            try:
                transport.send(raw, sender, [item.rcpt])
            except TransportFailure as e:
                if isinstance(e, PermanentFailure) and e.scope == "mail":
                    store.update_outbox(item.id, status="failed", attempts=attempts, deferred="",
                                        last_error=str(e)[:500])
                    failed += 1
                    failures.append(f"{item.rcpt}: {e}")
                    continue
                if e.scope == "mail":  # a temporary refusal of this mail alone (greylisting, mailbox full)
                    store.update_outbox(item.id, attempts=attempts, deferred="mail", last_error=str(e)[:500],
                                        next_attempt_at=now + retry.delay(attempts))
                    retrying += 1
                    continue
                most = max(attempts, (wait[1] + 1) if wait else 0)
                until = now + retry.delay(most)
                store.update_outbox(item.id, attempts=attempts, deferred="server", last_error=str(e)[:500],
                                    next_attempt_at=until)
                retrying += 1 + store.defer_due_outbox(now, until, f"waiting for the SMTP server: {e}")
                return SendReport(sent, retrying, failed, f"SMTP server unavailable: {e}", tuple(failures),
                                  blocked=str(e) if isinstance(e, PermanentFailure) else "")
            except Exception as e:  # a bug must not hold the other mails back
                log.exception("sending mail %s failed", item.id)
                store.update_outbox(item.id, status="failed", attempts=attempts, deferred="",
                                    last_error=f"internal error: {type(e).__name__}: {e}"[:500])
                failed += 1
                failures.append(f"{item.rcpt}: internal error: {type(e).__name__}: {e}")
                continue
            crashpoint("mid-send")
            store.update_outbox(item.id, status="sent", attempts=attempts, sent_at=now, deferred="")
            sent += 1
            if not released:  # the server answers: what waited for it goes now
                released = True
                store.release_server_wait(now)
                wait = None


def _span(delta: timedelta) -> str:
    hours = delta.total_seconds() / 3600
    count, unit = (hours / 24, "day") if hours >= 24 else (hours, "hour")
    return f"{count:g} {unit}" + ("" if count == 1 else "s")


def retry(store: Store, item_ids: Sequence[str], now: datetime) -> int:
    """Put failed or waiting mails back in the queue, due now (`pbem outbox retry`)."""
    n = 0
    for item_id in item_ids:
        if store.outbox_raw(item_id) is not None:
            store.update_outbox(item_id, status="queued", next_attempt_at=now, deferred="")
            n += 1
    return n
