"""`pbem demo` gives exactly the recorded golden set: every outgoing mail, forum file and export, byte for byte.

A refactor must keep this green without touching the manifest.  An intended change of output
records the set again (`python scripts/golden.py record`) in the same commit, saying why.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _golden():  # scripts/ is not a package: load the script as a module
    spec = importlib.util.spec_from_file_location("golden", ROOT / "scripts" / "golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_demo_output_is_byte_identical_to_the_golden_set() -> None:
    golden = _golden()
    files = golden.golden_set()
    assert len(files) > 900  # three whole games: hundreds of mails, forum posts, three exports
    assert golden.differences(files) == []
