"""Roster files: one reading (`pbem.roster`) for a game's ``roster`` file and for scenario files."""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import make_config

from pbem.engine import Engine, EngineError
from pbem.roster import RosterError, read_roster
from pbem.store import Store

ROOT = Path(__file__).resolve().parents[1]
ROSTER = ROOT / "docs/rules/pmb-cases/listes/21-joueurs.toml"
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def test_entries_names_roles_and_data() -> None:
    doc = tomllib.loads("""
[[personnage]]
joueur = "Armand"
nom = "Armand de Sillègue"
prestige = 10
[[joueur]]
player = "ser  Schlingue"
role = "stark_hm"
sergent = "Bran"
[[seat]]
nom = "Olenna"
""")
    entries = read_roster(doc)
    assert [(e.name, e.role, dict(e.data), e.where) for e in entries] == [
        ("Armand", None, {"nom": "Armand de Sillègue", "prestige": 10}, "personnage[1]"),
        ("ser Schlingue", "stark_hm", {"sergent": "Bran"}, "joueur[1]"),
        ("Olenna", None, {"nom": "Olenna"}, "seat[1]"),
    ]
    assert entries[1].seat().data == {"sergent": "Bran"}


@pytest.mark.parametrize(("text", "key"), [
    ("[[joueur]]\nrole = \"garde\"\n", "joueur[1]"),
    ("[[joueur]]\njoueur = \"A\"\n[[joueur]]\njoueur = \"B\"\nrole = 2\n", "joueur[2].role"),
    ("joueur = \"A\"\n", "joueur"),
])
def test_errors_name_the_entry(text: str, key: str) -> None:
    with pytest.raises(RosterError) as caught:
        read_roster(tomllib.loads(text))
    assert caught.value.key == key and str(caught.value).startswith(f"{key}: ")


def test_the_engine_starts_a_game_from_the_roster_file_the_cases_use(tmp_path: Path) -> None:
    cfg = make_config(tmp_path, ruleset="pmb", game_id="pmb1", tag="PMB",
                      extra_game={"roster": str(ROSTER), "options": {"places": {"visenya": 3, "fossedragon": 4}}})
    entries = read_roster(tomllib.loads(ROSTER.read_text(encoding="utf-8")))
    store = Store(cfg.database)
    try:
        e = Engine(cfg, store)
        e.new_game("pmb1", T0, seed="ab" * 16)
        for i, entry in enumerate(entries):
            e.add_player("pmb1", entry.name.upper() if i == 0 else entry.name, f"p{i}@pbem.test", T0)
        e.start_game("pmb1", T0)
        state = e.state(e.game("pmb1"))
    finally:
        store.close()
    for entry in entries:
        name = entry.name.upper() if entry is entries[0] else entry.name  # matched by folded name
        p = state.players[name]
        assert p.code == entry.role
        assert p.location == entry.data.get("location", "donjon")
        assert p.sergent == entry.data.get("sergent")


def test_the_engine_names_a_broken_roster_file(tmp_path: Path) -> None:
    bad = tmp_path / "roster.toml"
    bad.write_text('[[joueur]]\nrole = "garde"\n', encoding="utf-8")
    cfg = make_config(tmp_path, ruleset="pmb", game_id="pmb1", tag="PMB", extra_game={"roster": str(bad)})
    store = Store(cfg.database)
    try:
        e = Engine(cfg, store)
        e.new_game("pmb1", T0, seed="ab" * 16)
        for i in range(12):
            e.add_player("pmb1", f"J{i:02d}", f"p{i}@pbem.test", T0)
        with pytest.raises(EngineError, match=r"roster file .*roster.toml: joueur\[1\]: an entry of \[\[joueur\]\] has no 'joueur' name") as raised:
            e.start_game("pmb1", T0)
        assert raised.value.text("fr") == (f"fichier de joueurs {bad}\u00a0: joueur[1]\u00a0: une entrée de "
                                           "[[joueur]] sans nom de joueur (clé « joueur »)")
    finally:
        store.close()
