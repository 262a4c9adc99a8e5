"""Crash points for the crash-safety tests: ``PBEM_CRASH_AT=name[:n]`` kills the process (SIGKILL) at the n-th pass.

A no-op unless that variable is set; it lets tests kill a real `pbem tick` exactly
between two durable steps instead of hoping a timed kill lands there: ``after-fetch``,
``reading`` (a stored mail being read, as a mail that costs too much would keep it),
``between-messages`` and ``batch-before-commit`` (inside an ingest batch, nothing of it
committed), ``after-message`` (a batch committed), ``mid-resolution``, ``mid-send`` (a mail
sent, its bookkeeping not written).  The random-kill test does without them.
"""

from __future__ import annotations

import os
import signal

_passes: dict[str, int] = {}


def crashpoint(name: str) -> None:
    spec = os.environ.get("PBEM_CRASH_AT")
    if not spec:
        return
    target, _, nth = spec.partition(":")
    if target != name:
        return
    _passes[name] = _passes.get(name, 0) + 1
    if _passes[name] >= int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
