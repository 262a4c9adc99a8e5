"""Replays in a fresh interpreter with another PYTHONHASHSEED, for the determinism tests.

Playing a game twice in one process proves little: both plays share the string hashes (so every set's
order), the caches and whatever module state the first play left.  `replay` runs a function of a test
module in a new `python` whose string hashes differ from this process's (checked, not assumed) and
returns what it returned (JSON); the test compares it with the same function's value here.  A function
meant for this returns a `digest` of what it played (its mails, its transcript), not the bytes.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parent
PROBE = "pbem determinism probe"


def digest(items: bytes | str | Iterable[bytes | str]) -> str:
    """A SHA-256 naming bytes, a text, or a sequence of them in order."""
    if isinstance(items, (bytes, str)):
        items = [items]
    h = hashlib.sha256()
    for item in items:
        data = item.encode() if isinstance(item, str) else item
        h.update(hashlib.sha256(data).digest())
    return h.hexdigest()


def other_hash_seed() -> str:
    """A PYTHONHASHSEED unlike this process's (a number when it has one, else 1: this process's is random)."""
    mine = os.environ.get("PYTHONHASHSEED", "")
    return str((int(mine) + 1) % 2**32) if mine.isdigit() else "1"


def replay(target: str, *args: Any, timeout: float = 900) -> Any:
    """``module:function(*args)`` run in a fresh interpreter with another hash seed; what it returned."""
    env = dict(os.environ, PYTHONPATH=str(TESTS), PYTHONHASHSEED=other_hash_seed())
    env.pop("PBEM_CRASH_AT", None)
    env.pop("PBEM_PAUSE_AT", None)
    code = "import sys, fresh; fresh._child(sys.argv[1], sys.argv[2])"
    done = subprocess.run([sys.executable, "-c", code, target, json.dumps(args)], env=env, cwd=TESTS,
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"replay of {target} failed:\n{done.stderr[-4000:]}"
    probe, value = done.stdout.strip().splitlines()[-2:]
    assert int(probe) != hash(PROBE), "the replay ran with this process's string hashes"
    return json.loads(value)


def _child(target: str, args: str) -> None:
    module, _, function = target.partition(":")
    value = getattr(importlib.import_module(module), function)(*json.loads(args))
    print(hash(PROBE))
    print(json.dumps(value))
