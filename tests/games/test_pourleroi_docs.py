"""docs/rules/pourleroi.md says what pbem does: every example line is accepted as written, every test it cites exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.core import replace
from pbem.games.pourleroi import RULESET
from pbem.games.pourleroi.state import KingToPlay

from .pourleroi_helpers import arrange, auction_of, begin, step

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules" / "pourleroi.md").read_text("utf-8")


def _examples() -> dict[str, list[str]]:
    blocks = re.findall(r"<!-- exemples: ([\w-]+) -->\n```text\n(.*?)```", DOC, flags=re.S)
    return {kind: [ln for ln in text.splitlines() if ln.strip()] for kind, text in blocks}


def _king(card: str):
    st = arrange(3)
    return replace(st, kings_pending=(KingToPlay("Anne", card, "keep"),),
                   out_of_box=tuple(c for c in st.out_of_box if c != card)), "Anne"


def _situation(kind: str):
    if kind == "place":
        st, _ = begin(arrange(3, deck=["GUE-C", "GUE-A", "GUE-B", "MAR-A", "MAR-B"]))
        return st, "Anne"
    if kind == "centre":
        st, _ = begin(arrange(4, deck=["MAR-A", "MAR-B", "GUE-C", "OR-14", "ROI-13", "FIN-A"]))
        st, _ = step(st, {"Anne": ["GARDER"]})
        st, _ = step(st, {"Anne": ["NEUTRE"]})
        return st, "Blaise"
    if kind == "roi":
        return _king("ROI-07")
    if kind == "roi-fixe":
        return _king("ROI-13")
    if kind == "enchere":
        st, _ = auction_of(arrange(3, hands={"Anne": ["OR-27", "OR-14"], "Blaise": ["OR-01"]}),
                           ["GUE-D", "MAR-E", "ROI-13", "OR-15"])
        return st, "Anne"
    st, _ = auction_of(arrange(3, hands={"Anne": ["GUE-A", "OR-01", "MAR-B", "FIN-C"], "Blaise": ["OR-02"]}),
                       ["OR-27"])
    return st, "Anne"


def test_the_documentation_has_examples_for_every_step():
    assert set(_examples()) == {"place", "centre", "roi", "roi-fixe", "enchere", "enchere-or"}


@pytest.mark.parametrize("kind", ["place", "centre", "roi", "roi-fixe", "enchere", "enchere-or"])
def test_every_example_line_of_the_documentation_is_accepted_as_written(kind):
    state, player = _situation(kind)
    assert any(p.player == player for p in RULESET.prompts(state)), kind
    for line in _examples()[kind]:
        RULESET.parse_order(state, player, line, [])


def test_every_test_the_sentence_table_cites_exists():
    cited = set(re.findall(r"`(test_\w+)`", DOC))
    sources = "".join(p.read_text("utf-8") for p in Path(__file__).parent.glob("test_pourleroi*.py"))
    defined = set(re.findall(r"^def (test_\w+)", sources, flags=re.M))
    assert len(cited) > 40 and cited <= defined, sorted(cited - defined)


def test_the_sentence_table_numbers_every_sentence_of_the_text_once():
    rows = re.findall(r"^\| (\d+) \|", DOC, flags=re.M)
    assert [int(r) for r in rows] == list(range(1, 55))
