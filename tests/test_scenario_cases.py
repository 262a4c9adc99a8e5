"""Every case file under docs/rules/*-cases/ plays and meets what it expects (they double as documentation)."""

from __future__ import annotations

from pathlib import Path

import pytest
from case_plays import SHARED, played

from pbem.scenario import load_case
from pbem.scenario.report import case_lines, passed

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted(ROOT.glob("docs/rules/*-cases/*.toml"))


def test_there_are_case_files_for_every_game() -> None:
    by_game = {p.parent.name for p in CASES}
    assert by_game == {"pmb-cases", "intrigue-cases", "1626-cases", "pourleroi-cases", "courtisans-cases"}
    assert all(sum(1 for p in CASES if p.parent.name == g) >= 20 for g in by_game)


@SHARED
@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case_file(path: Path) -> None:
    result = played(path)
    assert passed(result), "\n".join(case_lines(result, "fr", quiet=True))


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case_file_cites_its_rule(path: Path) -> None:
    """Each file opens with a comment citing the rule sentence, and says it in ``regle``; its name starts with its number."""
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith("# ") and path.stem.split("-")[0] in first, first
    case = load_case(path)
    assert case.rule and case.title and case.origin
