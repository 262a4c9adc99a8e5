"""`pbem demo` gives exactly the recorded golden set: every outgoing mail, forum file and export, byte for byte.

A refactor must keep this green without touching the manifest.  An intended change of output
records the set again (`python scripts/golden.py record`) in the same commit, saying why.

The games are the session's demo games (``demo_games``, played once as `pbem demo` plays them); the
golden set is taken from them before any other test reads them.  The manifest was recorded by
another process, so this also checks that a demo plays the same in any process, whatever its hash seed.
"""

from __future__ import annotations

from typing import Any

from recorded import golden_module


def test_demo_output_is_byte_identical_to_the_golden_set(demo_games: Any) -> None:
    files = demo_games.golden
    assert len(files) > 900  # three whole games: hundreds of mails, forum posts, three exports
    assert set(demo_games.games) == {"1626", "pmb", "intrigue", "pourleroi", "courtisans"}
    assert golden_module().differences(files) == []
