"""What a pass's sending did (`pbem.outbox.sending.send_due`), in a module of its own: a pass with no mail
queued tells it without loading the outbox, which composes mail (`pbem.daemon.tick`, issue #24)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SendReport:
    sent: int
    retrying: int
    failed: int
    stopped: str = ""
    """Why this pass stopped with mails still due: the server is unavailable, or the time budget is used."""
    failures: tuple[str, ...] = ()
    """The mails that failed for good in this pass (recipient: reason), for the operator."""
    budget_used: bool = False
    """Mails are still due: the pass used its time budget (the daemon starts the next pass at once)."""
    blocked: str = ""
    """The server refuses every mail for good (login refused, sender refused): the configuration needs fixing;
    the mail waits meanwhile."""
