"""Scenario files: play one case of a game from a TOML file, with the ruleset alone, and check what it expects.

`run_files` is what ``pbem scenario run`` calls.  The format is in docs/scenarios.md; the modules:
`case` reads and checks a file, `paths` reaches into states and views, `play` plays the case,
`expect` checks the expectations, `report` prints it all in French or English.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pbem.scenario.case import Case, CaseError, load_case
from pbem.scenario.play import CaseResult, play_case
from pbem.scenario.report import case_lines, passed, summary

__all__ = ["Case", "CaseError", "CaseResult", "RunTotals", "case_files", "load_case", "play_case", "run_case",
           "run_files"]


def run_case(path: Path | str) -> CaseResult:
    """Read and play one case (`CaseError` if the file is malformed)."""
    return play_case(load_case(path))


def case_files(paths: Iterable[Path | str]) -> list[Path]:
    """The files to run: each file given, and the ``*.toml`` of each folder given (sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.glob("*.toml")) if p.is_dir() else [p]
    return out


@dataclass
class RunTotals:
    total: int = 0
    failed: int = 0
    malformed: int = 0

    @property
    def exit_code(self) -> int:
        """0: every case passed; 1: a case failed; 2: a file is malformed."""
        return 2 if self.malformed else (1 if self.failed else 0)


def run_files(paths: Iterable[Path | str], lang: str = "fr", *, quiet: bool = False, show_state: bool = False,
              totals: RunTotals | None = None) -> Iterator[str]:
    """Play every case; yield the lines to print (a malformed file is one line); fill ``totals``."""
    totals = totals if totals is not None else RunTotals()
    paths = list(paths)
    files = case_files(paths)
    if not files:
        totals.malformed += 1
        shown = ", ".join(map(str, paths))
        yield (f"{shown}: no .toml case file" if lang == "en" else f"{shown} : aucun fichier de cas .toml")
        return
    for i, path in enumerate(files):
        totals.total += 1
        if i:
            yield ""
        try:
            result = run_case(path)
        except CaseError as e:
            totals.malformed += 1
            yield e.line(lang)
            continue
        if not passed(result):
            totals.failed += 1
        yield from case_lines(result, lang, quiet=quiet, show_state=show_state)
    if len(files) > 1:
        yield ""
        yield summary(totals.total, totals.failed, totals.malformed, lang)
