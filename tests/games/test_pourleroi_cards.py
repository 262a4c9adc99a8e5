"""Pour le Roi (et Moi): the card file (data/pourleroi/cartes.toml), its checks and the option that swaps it."""

from __future__ import annotations

import tomllib

import pytest

from pbem.core import Seat, SetupError
from pbem.dice import Dice
from pbem.games.pourleroi import RULESET
from pbem.games.pourleroi import cards as C

from .pourleroi_helpers import NAMES, SEED


def _shipped() -> dict:
    return tomllib.loads(C.default_path().read_text("utf-8"))


def test_the_shipped_file_holds_the_published_box():
    """108 cards: 54 Government, 15 King, 39 Gold (the published game); values 1 to 4, letters from A."""
    m = C.load()
    assert (len(m.government), len(m.kings), len(m.gold), len(m.all_cards())) == (54, 15, 39, 108)
    assert [x.code for x in m.ministries] == ["GUE", "MAR", "FIN", "JUS", "AFF", "MAI"]
    assert [x.players for x in m.ministries] == [2, 2, 2, 2, 2, 5]  # the sixth ministry only at five
    assert set(m.government.values()) == {1, 2, 3, 4}
    for x in m.ministries:
        mine = {c: v for c, v in m.government.items() if c.startswith(x.code + "-")}
        assert sorted(C.letter_of(c) for c in mine) == list("ABCDEFGHI")
        assert sorted(mine.values()) == [1, 1, 1, 2, 2, 2, 3, 3, 4]
    assert sorted(m.gold.values()) == [1] * 13 + [2] * 13 + [3] * 13
    assert all(C.parse_symbols(s) for s in m.kings.values())
    assert {k: (p.gold_per_value, p.random) for k, p in m.preparation.items()} == {
        "2": (4, 22), "3": (3, 13), "4": (2, 8), "5": (0, 0)}


def _error(doc: dict) -> str:
    with pytest.raises(C.CardFileError) as e:
        C.parse(doc, "essai.toml")
    return str(e.value)


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["ministere"][0].update(valeur=3), "essai.toml : [[ministere]] n° 1 : clé inconnue « valeur »"),
    (lambda d: d["ministere"][1].pop("cartes"), "ministère MAR : la clé « cartes » manque"),
    (lambda d: d["ministere"][0]["cartes"].update(a=2), "ministère GUE : lettre « a » : une seule majuscule"),
    (lambda d: d["ministere"][0]["cartes"].update(B=0), "ministère GUE, carte B : la valeur doit être un entier d'au moins 1"),
    (lambda d: d["ministere"][2].update(code="GUE"), "ministère GUE : code en double"),
    (lambda d: d["ministere"][2].update(code="Finances"), "code « Finances » : 2 à 4 majuscules"),
    (lambda d: d["ministere"][5].update(joueurs=6), "« joueurs » vaut au plus 5 (trouvé 6)"),
    (lambda d: d["roi"][0].update(symboles=["×2"]), "[[roi]] n° 1 : symbole « ×2 » illisible"),
    (lambda d: d["roi"][0].update(symboles=["+1 ZZZ"]), "le symbole « +1 ZZZ » nomme un ministère inconnu"),
    (lambda d: d["roi"][1].update(symboles=["+1 GUE", "-1 GUE"]), "chaque symbole d'une carte change une fonction différente"),
    (lambda d: d["or"][1].update(valeur=1), "[[or]] n° 2 : la valeur 1 est déjà décrite plus haut"),
    (lambda d: d["or"][0].update(nombre=0), "[[or]] n° 1 : « nombre » doit valoir au moins 1 (trouvé 0)"),
    (lambda d: d["preparation"].pop("3"), "[preparation] à 3 joueurs : la ligne « 3 = { or_par_valeur = …, hasard = … } » manque"),
    (lambda d: d["preparation"].update({"6": {"or_par_valeur": 0, "hasard": 0}}), "[preparation] : ligne « 6 » inconnue"),
    (lambda d: d["preparation"]["2"].update(or_par_valeur=14),
     "[preparation] à 2 joueurs : il faudrait retirer 14 cartes Or de valeur 1, il n'y en a que 13"),
    (lambda d: d["preparation"]["2"].update(hasard=85), "il resterait 2 cartes dans la pioche, moins qu'un tour de don (3 cartes)"),
    (lambda d: d.update(jokers=[]), "essai.toml : clé inconnue « jokers »"),
])
def test_a_wrong_card_file_is_refused_with_the_entry_and_the_reason(change, expected):
    doc = _shipped()
    change(doc)
    assert expected in _error(doc)


def test_a_toml_syntax_error_names_the_file_and_the_line(tmp_path):
    bad = tmp_path / "mes-cartes.toml"
    bad.write_text("[[ministere]]\ncode = \"GUE\n", encoding="utf-8")
    with pytest.raises(C.CardFileError, match=r"mes-cartes.toml : TOML invalide .*line 2"):
        C.load(bad)


def test_the_option_cards_swaps_the_file_and_the_game_keeps_its_material(tmp_path):
    text = C.default_path().read_text("utf-8").replace("nom = \"Guerre\"", "nom = \"Armée\"")
    mine = tmp_path / "cartes.toml"
    mine.write_text(text, encoding="utf-8")
    state, events = RULESET.setup([Seat(p) for p in NAMES[:3]], {"cards": str(mine)}, Dice(SEED, "setup"))
    assert state.material.ministry("GUE").fr == "Armée"
    assert state.material.source == "cartes.toml"
    mine.write_text(text.replace("Armée", "Ost"), encoding="utf-8")  # edited during the game: no effect
    assert state.material.ministry("GUE").fr == "Armée"
    assert events[0].data["ministries"][0]["fr"] == "Armée"


def test_a_missing_or_broken_file_stops_the_set_up_with_a_clear_message(tmp_path):
    with pytest.raises(SetupError) as e:
        RULESET.setup([Seat(p) for p in NAMES[:3]], {"cards": str(tmp_path / "absent.toml")}, Dice(SEED, "setup"))
    assert "absent.toml illisible" in e.value.msg.fr
    doc = C.default_path().read_text("utf-8").replace("hasard = 22", "hasard = -1")
    (tmp_path / "neg.toml").write_text(doc, encoding="utf-8")
    with pytest.raises(SetupError) as e:
        RULESET.setup([Seat(p) for p in NAMES[:3]], {"cards": str(tmp_path / "neg.toml")}, Dice(SEED, "setup"))
    assert "« hasard » doit valoir au moins 0 (trouvé -1)" in e.value.msg.fr


def test_fixed_ministry_symbols_are_played_without_a_choice(tmp_path):
    doc = _shipped()
    doc["roi"] = [{"symboles": ["+1 GUE", "-1 FIN"], "nombre": 15}]
    m = C.parse(doc)
    assert set(m.kings.values()) == {"+1 GUE, -1 FIN"}
    from pbem.games.pourleroi import king as K

    from .pourleroi_helpers import arrange

    st = arrange(3)
    st = type(st)(**{**st.__dict__, "material": m})
    assert K.legal_changes(st, "ROI-01") == [("GUE+", "FIN-")]
    assert not K.needs_choice(st, "ROI-01")


@pytest.mark.parametrize("options, fragment", [
    ({"seating": "north"}, "seating : draw ou roster"),
    ({"default_placement": ["centre", "centre", "garder"]}, "default_placement"),
    ({"unpayable_bids": "maybe"}, "unpayable_bids : refuse ou accept"),
    ({"auction_prompts": "some"}, "auction_prompts : everyone, everyone_waited ou bidders"),
    ({"colour": "red"}, "option inconnue « colour »"),
])
def test_bad_options_are_refused_at_set_up(options, fragment):
    with pytest.raises(SetupError) as e:
        RULESET.setup([Seat(p) for p in NAMES[:3]], options, Dice(SEED, "setup"))
    assert fragment in e.value.msg.fr
