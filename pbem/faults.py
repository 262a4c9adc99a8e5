"""Crash points for the crash-safety tests: ``PBEM_CRASH_AT=name[:n]`` kills the process (SIGKILL) at the n-th pass.

A no-op unless that variable is set; it lets tests kill a real `pbem tick` exactly
between two durable steps instead of hoping a timed kill lands there: ``after-fetch``,
``reading`` (a stored mail being read, as a mail that costs too much would keep it),
``between-messages`` and ``batch-before-commit`` (inside an ingest batch, nothing of it
committed), ``after-message`` (a batch committed), ``mid-resolution``, ``mid-send`` (a mail
sent, its bookkeeping not written).  The random-kill test does without them.

``PBEM_PAUSE_AT=name:seconds`` makes every pass stop that long at the crash point ``name`` (a long
pass on purpose, for the tests of stopping `pbem run` during a pass); it logs one line first,
« pause point NAME », so a test knows the pass is there.
"""

from __future__ import annotations

import logging
import os
import signal
import time

_passes: dict[str, int] = {}
log = logging.getLogger("pbem")


def crashpoint(name: str) -> None:
    pause = os.environ.get("PBEM_PAUSE_AT")
    if pause:
        target, _, seconds = pause.partition(":")
        if target == name:
            log.warning("pause point %s: sleeping %s s (PBEM_PAUSE_AT)", name, seconds or "1")
            time.sleep(float(seconds or 1))
    spec = os.environ.get("PBEM_CRASH_AT")
    if not spec:
        return
    target, _, nth = spec.partition(":")
    if target != name:
        return
    _passes[name] = _passes.get(name, 0) + 1
    if _passes[name] >= int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
