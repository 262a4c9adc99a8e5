"""Write (or check) the generated tables of docs/scenarios.md: event kinds with their data, roll purposes.

    .venv/bin/python scripts/scenario_doc.py          # rewrite the tables
    .venv/bin/python scripts/scenario_doc.py check    # exit 1 if they are out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

from pbem.scenario.catalog import fill, generated_sections

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenarios.md"


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    new = fill(text, generated_sections())
    if argv[1:2] == ["check"]:
        if new != text:
            print(f"{DOC} is out of date: run .venv/bin/python scripts/scenario_doc.py")
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    print(f"{DOC} written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
