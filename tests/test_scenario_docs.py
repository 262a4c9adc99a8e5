"""docs/scenarios.md stays true: its generated tables, its examples, the keys it documents."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from case_plays import SHARED, played

from pbem import scenario
from pbem.scenario import case as case_format
from pbem.scenario import catalog, load_case, run_case
from pbem.scenario.catalog import GAMES, emitted_kinds, fill, generated_sections
from pbem.scenario.report import passed

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "scenarios.md"
ROSTER = ROOT / "docs/rules/pmb-cases/listes/21-joueurs.toml"
HEAD = f'jeu = "pmb"\njoueurs_fichier = "{ROSTER}"\noptions.places = {{ visenya = 3, fossedragon = 4 }}\n'


# The three tests below read the same plays: every case file of a game (`catalog.case_events`, which
# tests/test_scenario_cases.py plays too) and its bot games (`catalog.observed`, which also reads the case
# files).  Each is played once per worker and kept (they are deterministic: fixed files, fixed seeds), and
# these tests go to one worker with the case files' (`case_plays.SHARED`), instead of the case files four
# times and the bot games twice.
_observed = catalog.observed


@functools.cache
def _kept_observed(game: str) -> dict[str, catalog.KindSeen]:
    return _observed(game)


@pytest.fixture
def plays_kept(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`catalog` reads each game's plays through the kept ones (its own functions build the tables, as they do
    for scripts/scenario_doc.py)."""
    monkeypatch.setattr(scenario, "run_case", played)  # (catalog.case_events imports it when it runs)
    monkeypatch.setattr(catalog, "observed", lambda game, seeds=None: (
        _kept_observed(game) if seeds is None else _observed(game, seeds)))
    yield


@SHARED
def test_generated_tables_are_up_to_date(plays_kept: None) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert fill(text, generated_sections()) == text, "run .venv/bin/python scripts/scenario_doc.py"


@SHARED
@pytest.mark.parametrize("game", GAMES)
def test_every_event_kind_the_code_can_emit_was_seen(plays_kept: None, game: str) -> None:
    """A kind the bot games and the case files never produce would have no data in the table: add a case file."""
    missing = emitted_kinds(game) - set(catalog.observed(game))
    assert not missing, f"{game}: no case file or bot game produces {sorted(missing)}"


@SHARED
@pytest.mark.parametrize("game", GAMES)
def test_every_event_kind_the_code_can_emit_is_played_by_a_case_file(plays_kept: None, game: str) -> None:
    """Not only seen in bot games: each kind has a case file that shows when it happens (the cases double as docs)."""
    seen = {e.kind for events in catalog.case_events(game) for e in events}
    missing = emitted_kinds(game) - seen
    assert not missing, f"{game}: no case file produces {sorted(missing)}"


def _toml_blocks() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_first_example_is_a_case_that_passes(tmp_path: Path) -> None:
    first = _toml_blocks()[0].replace('joueurs_fichier = "listes/21-joueurs.toml"', f'joueurs_fichier = "{ROSTER}"')
    path = tmp_path / "exemple.toml"
    path.write_text(first, encoding="utf-8")
    assert passed(run_case(path))


def test_the_other_examples_are_accepted_as_written(tmp_path: Path) -> None:
    blocks = _toml_blocks()[1:]
    assert len(blocks) >= 5
    for i, block in enumerate(blocks):
        path = tmp_path / f"bloc{i}.toml"
        path.write_text(HEAD + block, encoding="utf-8")
        case = load_case(path)  # a malformed example would raise CaseError here
        if "[etat]" in block or "[[etape]]" in block:
            run_case(case.path)  # the position and the orders of the examples fit the game


def test_every_key_of_the_format_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    keys = set(case_format.TOP_KEYS) | {"titre", "etat", "ordres", "des", "resoudre", "repeter", "attendu"} | {
        "evenement", "erreur", "note", "etat", "vue", "fait", "jets", "sollicites", "issue", "refus_mise_en_place",
        "type", "donnees", "audience", "pour", "pas_pour", "cle", "nombre", "joueur", "ligne", "message",
        "chemin", "fini", "vainqueurs", "resume", "attendu", *case_format.FACT_TESTS}
    undocumented = sorted(k for k in keys if f"`{k}`" not in text and f"{k} =" not in text and f"[{k}]" not in text)
    assert not undocumented


CASE_LINK = re.compile(r"\[`[^`]+`\]\(((?:pmb|intrigue|1626|pourleroi|courtisans)-cases/[^)]+\.toml)\)")


@pytest.mark.parametrize("game", ["pmb", "intrigue", "1626", "pourleroi", "courtisans"])
def test_every_case_file_is_named_in_its_rules_document(game: str) -> None:
    """docs/rules/<game>.md names each case beside the sentence (or the ruling) it plays; every link leads to a file."""
    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    linked = set(CASE_LINK.findall(doc))
    assert all((ROOT / "docs" / "rules" / link).is_file() for link in linked), sorted(
        link for link in linked if not (ROOT / "docs" / "rules" / link).is_file())
    files = {f"{game}-cases/{p.name}" for p in (ROOT / "docs" / "rules" / f"{game}-cases").glob("*.toml")}
    assert not files - linked, sorted(files - linked)


@pytest.mark.parametrize("game", ["pmb", "intrigue", "1626", "pourleroi", "courtisans"])
def test_every_test_its_rules_document_names_exists(game: str) -> None:
    """The per-sentence table of docs/rules/<game>.md names tests beside the sentences: each is defined in tests/."""
    doc = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(test_\w+)`", doc))
    defined = {m for p in (ROOT / "tests").rglob("test_*.py")
               for m in re.findall(r"^\s*def (test_\w+)", p.read_text(encoding="utf-8"), flags=re.M)}
    assert named and not named - defined, sorted(named - defined)
