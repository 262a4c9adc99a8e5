"""Each case file under docs/rules/*-cases/ played once per worker, for the tests that read its play.

tests/test_scenario_cases.py checks each play; tests/test_scenario_docs.py reads the events of the same plays
(`pbem.scenario.catalog.case_events`).  A case is deterministic (a fixed file, fixed seeds): playing it again
only cost the time.  The tests of both files go to one worker (`SHARED`)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from pbem.scenario import CaseResult, run_case

SHARED = pytest.mark.xdist_group("case-plays")


def played(path: Path | str) -> CaseResult:
    """`run_case` of ``path``, played at the first call for that file on this worker."""
    return _played(Path(path).resolve())


@functools.cache
def _played(path: Path) -> CaseResult:
    return run_case(path)
