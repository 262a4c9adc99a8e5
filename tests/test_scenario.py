"""The scenario runner itself: cases that must fail do fail, malformed files get one line, the CLI, both languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.scenario import CaseError, RunTotals, load_case, run_case, run_files
from pbem.scenario.report import case_lines, passed

ROOT = Path(__file__).resolve().parents[1]
PMB_ROSTER = ROOT / "docs/rules/pmb-cases/listes/21-joueurs.toml"

PMB_HEAD = f"""
jeu = "pmb"
titre = "essai"
joueurs_fichier = "{PMB_ROSTER}"
options.places = {{ visenya = 3, fossedragon = 4 }}
"""

KILL = PMB_HEAD + """
[[etape]]
ordres.Arya = ["ESCOUADE Garlan"]
ordres.Sansa = ["ESCOUADE Garlan"]
des."Garlan denounces a teammate (15%)" = false
"""

SHEET = """
jeu = "1626"
[[personnage]]
joueur = "Armand"
nom = "Armand de Sillègue"
caracteristiques = { FO = 5, EN = 5, AG = 6, DEX = 5, PE = 4, INT = 5, EDU = 4, CH = 5, APP = 5, BR = 6 }
talents = { Escrime = 5 }
"""


def write(tmp_path: Path, text: str, name: str = "cas.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def report(path: Path, lang: str = "fr") -> str:
    return "\n".join(run_files([path], lang))


# ---------------------------------------------------------------- a case that holds, and the same case broken


def test_a_true_expectation_passes(tmp_path: Path) -> None:
    result = run_case(write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = false\n'))
    assert passed(result) and len(result.checks) == 1


def test_a_wrong_expectation_fails_and_says_what_was_found(tmp_path: Path) -> None:
    result = run_case(write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = true\n'))
    assert not passed(result)
    text = "\n".join(case_lines(result, "fr"))
    assert "✗ état : players.Garlan.alive = true" in text and "trouvé : false" in text
    assert "Résultat : ÉCHEC, 1 attendu sur 1 non tenu." in text


def test_a_wrong_event_expectation_lists_the_events_of_that_kind(tmp_path: Path) -> None:
    case = KILL + """
[[etape.attendu.evenement]]
type = "squad_killed"
donnees = { target = "Loras" }
"""
    result = run_case(write(tmp_path, case))
    assert not passed(result)
    detail = result.checks[0].detail
    assert detail is not None and "squad_killed" in detail.fr and '"Garlan"' in detail.fr


def test_an_event_that_must_not_happen(tmp_path: Path) -> None:
    case = KILL + '[[etape.attendu.evenement]]\ntype = "death"\nnombre = 0\n'
    assert not passed(run_case(write(tmp_path, case)))
    case = KILL + '[[etape.attendu.evenement]]\ntype = "death"\nnombre = 1\naudience = "public"\n'
    assert passed(run_case(write(tmp_path, case)))


def test_audience_filters(tmp_path: Path) -> None:
    base = KILL + '[[etape.attendu.evenement]]\ntype = "squad_killed"\n'
    assert passed(run_case(write(tmp_path, base + 'audience = ["Sansa", "Arya"]\n')))
    assert not passed(run_case(write(tmp_path, base + 'audience = ["Arya"]\n')))
    assert passed(run_case(write(tmp_path, base + 'pour = ["Arya"]\npas_pour = ["Garlan"]\n')))
    assert not passed(run_case(write(tmp_path, base + 'audience = "public"\n')))
    death = KILL + '[[etape.attendu.evenement]]\ntype = "death"\npas_pour = ["Tywin"]\n'
    assert not passed(run_case(write(tmp_path, death)))  # a public event is read by everyone


def test_a_refused_line_nobody_expected_fails_the_case(tmp_path: Path) -> None:
    case = KILL.replace('ordres.Arya = ["ESCOUADE Garlan"]', 'ordres.Arya = ["ESCOUADE Garlan", "DANSER"]')
    result = run_case(write(tmp_path, case + '[etape.attendu.etat]\n"players.Garlan.alive" = false\n'))
    assert not passed(result)
    assert any("ligne refusée sans que ce soit attendu" in c.what.fr and "DANSER" in c.what.fr for c in result.checks)


def test_an_expected_refusal_that_does_not_happen_fails(tmp_path: Path) -> None:
    case = KILL + '[[etape.attendu.erreur]]\njoueur = "Arya"\nligne = "ESCOUADE Garlan"\n'
    result = run_case(write(tmp_path, case))
    assert not passed(result)
    detail = result.checks[0].detail
    assert detail is not None and "aucune ligne de ce joueur n'a été refusée" in detail.fr


def test_an_expected_refusal_of_the_wrong_kind_fails(tmp_path: Path) -> None:
    case = PMB_HEAD + '[[etape]]\nresoudre = false\nordres.Arya = ["DANSER"]\n' \
        '[[etape.attendu.erreur]]\njoueur = "Arya"\ntype = "ambigu"\n'
    assert not passed(run_case(write(tmp_path, case)))
    assert passed(run_case(write(tmp_path, case.replace('"ambigu"', '"incompris"'))))
    assert passed(run_case(write(tmp_path, case.replace('"ambigu"', '"not understood"'))))


def test_a_case_that_expects_nothing_fails(tmp_path: Path) -> None:
    result = run_case(write(tmp_path, KILL))
    assert not passed(result)
    assert "n'attend rien" in "\n".join(case_lines(result, "fr"))


# ---------------------------------------------------------------- forced dice


def test_a_forced_die_out_of_range_fails_the_case(tmp_path: Path) -> None:
    case = SHEET + '[[etape]]\nordres.Armand = ["TEST AG SR 15"]\nordres."@mj" = ["LANCER"]\ndes."test #1 AG (Armand): d10" = 11\n' \
        '[[etape.attendu.evenement]]\ntype = "test_result"\n'
    result = run_case(write(tmp_path, case))
    assert not passed(result)
    failure = result.phases[-1].failure
    assert failure is not None and "hors limites" in failure.fr and "de 1 à 10" in failure.fr
    assert "out of range" in failure.en


def test_a_forced_success_on_an_impossible_chance_is_refused() -> None:
    from pbem.dice import Dice, ForcedDiceError, Forcing

    with pytest.raises(ForcedDiceError, match="impossible"):
        Dice("00", "x", Forcing({"never": True})).chance(0, "never")
    with pytest.raises(ForcedDiceError, match="impossible"):
        Dice("00", "x", Forcing({"always": False})).chance(100, "always")


def test_an_unknown_purpose_used_in_a_case_fails(tmp_path: Path) -> None:
    case = KILL + 'des."Garlan denunces a teammate (15%)" = true\n' \
        '[etape.attendu.etat]\n"players.Garlan.alive" = false\n'
    result = run_case(write(tmp_path, case))
    assert not passed(result)
    failed = [c for c in result.checks if not c.ok]
    assert len(failed) == 1 and "jamais tiré" in failed[0].what.fr
    assert failed[0].detail is not None and "Garlan denounces a teammate (15%)" in failed[0].detail.fr


def test_forced_values_left_unused_fail(tmp_path: Path) -> None:
    case = SHEET + '[[etape]]\nordres.Armand = ["TEST AG SR 15"]\nordres."@mj" = ["LANCER"]\ndes."test #1 AG (Armand): d10" = [3, 4]\n' \
        '[[etape.attendu.evenement]]\ntype = "test_result"\ndonnees = { faces = [3] }\n'
    result = run_case(write(tmp_path, case))
    assert not passed(result)
    assert any("1 valeur inutilisée" in c.what.fr for c in result.checks)


def test_forced_rolls_are_shown_as_forced(tmp_path: Path) -> None:
    case = SHEET + '[[etape]]\nordres.Armand = ["TEST AG SR 15"]\nordres."@mj" = ["LANCER"]\ndes."test #1 AG (Armand): d10" = 3\n' \
        '[etape.attendu.jets]\n"test #1 *" = 1\n'
    path = write(tmp_path, case)
    # the roll's French label carries its non-breaking space (render.dice_label, as templates do)
    assert "« test #1 AG (Armand): d10 » (test n° 1 AG (Armand)\u00a0: d10) : 3 (de 1 à 10), forcé" in report(path)
    assert "'test #1 AG (Armand): d10': 3 (from 1 to 10), forced" in report(path, "en")


def test_dice_forcing_by_item_order_and_pattern() -> None:
    from dataclasses import dataclass

    from pbem.dice import Dice, ForcedDiceError, Forcing, derive, verify

    @dataclass
    class Squad:
        camp: str
        members: list[str]

    squads = [Squad("stark", ["A", "B"]), Squad("tyrell", ["C"])]
    forcing = Forcing({
        "pick": "y", "order": [{"camp": "tyrell"}, {"camp": "stark"}], "two": [["c", "a"]], "* leaves": [True, False],
        "roll": 55, "n": [2, 5],
    })
    d = Dice("ab", "step-1", forcing)
    assert d.choice(["x", "y", "z"], "pick") == "y"
    assert d.shuffle(squads, "order") == [squads[1], squads[0]]
    assert d.sample(["a", "b", "c"], 2, "two") == ["c", "a"]
    assert d.chance(40, "Robb leaves") is True and d.chance(40, "Olenna leaves") is False
    assert d.chance(40, "Sansa leaves") in (True, False)  # values used up: drawn as usual
    assert d.chance(50, "roll") is False  # 55 > 50
    assert (d.randint(1, 6, "n"), d.d(6, "n")) == (2, 5)
    assert forcing.unused() == []
    forced = [r for r in d.rolls if r.forced]
    assert len(forced) == len(d.rolls) - 1
    # the recorded draws of a forced shuffle replay the same order through Fisher-Yates
    out = list(squads)
    for r in (r for r in d.rolls if r.purpose == "order"):
        out[r.high], out[r.result] = out[r.result], out[r.high]
    assert out == [squads[1], squads[0]]
    # verify() flags forced rolls: they do not come from the seed
    problems = verify("ab", "step-1", d.rolls)
    assert len(problems) == len(forced) and all("forced" in p for p in problems)
    free = next(r for r in d.rolls if not r.forced)
    assert free.result == derive(b"ab", "step-1", free.purpose, 0, free.low, free.high)
    with pytest.raises(ForcedDiceError, match="not among"):
        Dice("ab", "x", Forcing({"p": "w"})).choice(["x", "y"], "p")
    with pytest.raises(ForcedDiceError, match="several items"):
        Dice("ab", "x", Forcing({"p": {"camp": "stark"}})).choice([squads[0], Squad("stark", ["D"])], "p")
    with pytest.raises(ForcedDiceError, match="list of 2 items"):
        Dice("ab", "x", Forcing({"p": ["a"]})).shuffle(["a", "b"], "p")
    with pytest.raises(ForcedDiceError):
        Dice("ab", "x", Forcing({"p": True})).randint(1, 6, "p")


def test_unforced_dice_are_unchanged() -> None:
    """Forcing one purpose does not move the rolls of the others (draws are per purpose)."""
    from pbem.dice import Dice, Forcing

    plain, forced = Dice("cd", "step-2"), Dice("cd", "step-2", Forcing({"a": 1}))
    assert forced.d(6, "a") == 1
    assert [plain.d(20, "b") for _ in range(5)] == [forced.d(20, "b") for _ in range(5)]


# ---------------------------------------------------------------- malformed files: one line naming the file and the key


@pytest.mark.parametrize(("text", "key", "said"), [
    ("jeu = \"pmb\"\n[[etape]\n", "(TOML)", "TOML invalide"),
    ("titre = \"x\"\n", "jeu", "clé obligatoire manquante"),
    ("jeu = \"echecs\"\n[[joueur]]\njoueur = \"A\"\n", "jeu", "jeu inconnu « echecs » ; jeux connus : "),
    ("jeu = \"pmb\"\nbizarre = 1\n", "bizarre", "clé inconnue"),
    ("jeu = \"pmb\"\n", "joueur", "ni liste de joueurs"),
    ("jeu = \"pmb\"\n[[joueur]]\nrole = \"garde\"\n", "joueur[1]", "sans nom de joueur"),
    ("jeu = \"pmb\"\n[[joueur]]\njoueur = \"A\"\nrole = 3\n", "joueur[1].role", "code de rôle"),
    ("jeu = \"pmb\"\njoueurs_fichier = \"absent.toml\"\n", "joueurs_fichier", "fichier de joueurs lisible"),
    (PMB_HEAD + "[[etape]]\nordres.Arya = \"\"\nordres.Sansa = 3\n", "etape[1].ordres.Sansa", "liste de lignes d'ordres"),
    (PMB_HEAD + "[[etape]]\nresoudre = \"oui\"\n", "etape[1].resoudre", "true ou false"),
    (PMB_HEAD + "[[etape]]\n[[etape.attendu.fait]]\nchemin = \"turn\"\negal = 1\nabsent = true\n",
     "etape[1].attendu.fait[1].chemin", "un seul test parmi"),
    (PMB_HEAD + "[[etape]]\n[[etape.attendu.erreur]]\njoueur = \"A\"\ntype = \"grave\"\n",
     "etape[1].attendu.erreur[1].type", "« incompris », « refusé » ou « ambigu »"),
    (PMB_HEAD + "[[etape]]\n[[etape.attendu.erreur]]\ntype = \"refusé\"\n", "etape[1].attendu.erreur[1].joueur",
     "clé obligatoire manquante"),
    (PMB_HEAD + "[[etape]]\n[[etape.attendu.evenement]]\naudience = \"forum\"\n",
     "etape[1].attendu.evenement[1].audience", "« public », « mj » ou une liste de joueurs"),
    (PMB_HEAD + "[[etape]]\n[etape.attendu]\nsollicites = \"Arya\"\n", "etape[1].attendu.sollicites", "une liste de joueurs"),
    (PMB_HEAD + "[[etape]]\n[etape.attendu]\nrefus_mise_en_place = \"x\"\n", "etape[1].attendu.refus_mise_en_place",
     "clé inconnue"),
    (PMB_HEAD + "[[etape]]\n[etape.attendu.jets]\n\"x\" = -1\n", "etape[1].attendu.jets.x", "nombre entier positif"),
    (PMB_HEAD + "graine = \"é\"\n", "graine", "ASCII"),
])
def test_malformed_files_get_one_line(tmp_path: Path, text: str, key: str, said: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CaseError) as caught:
        load_case(path)
    line = caught.value.line("fr")
    assert "\n" not in line and line.startswith(f"{path} : {key} : ") and said in line, line
    assert caught.value.line("en").startswith(f"{path}: {key}: ")


@pytest.mark.parametrize(("patch", "key", "said"), [
    ('"players.Nobody.alive" = false', "etape[1].etat.players", "pas de clé « Nobody »"),
    ('"players.Arya.alive" = "non"', "etape[1].etat.players.Arya.alive", "attendu : true ou false, reçu \"non\""),
    ('"players.Arya.age" = 3', "etape[1].etat.players.Arya", "pas de clé « age »"),
    ('"players.Arya.since" = 1.5', "etape[1].etat.players.Arya.since", "un nombre entier"),
    ('"prisoners.0" = 1', "etape[1].etat.prisoners", "un indice de 0 à"),
])
def test_a_patch_that_does_not_fit_the_state_is_malformed(tmp_path: Path, patch: str, key: str, said: str) -> None:
    path = write(tmp_path, PMB_HEAD + f"[[etape]]\n[etape.etat]\n{patch}\n")
    with pytest.raises(CaseError) as caught:
        run_case(path)
    line = caught.value.line("fr")
    assert line.startswith(f"{path} : {key}") and said in line, line


def test_a_whole_state_without_roster(tmp_path: Path) -> None:
    """``[etat]`` alone is the whole state (here, a 1626 game written out); a missing field is named."""
    case = """
jeu = "1626"
[etat]
roster = ["Armand"]
tests = 4
[etat.characters.Armand]
player = "Armand"
name = "Armand"
caracs = { FO = 5, EN = 5, AG = 6, DEX = 5, PE = 4, INT = 5, EDU = 4, CH = 5, APP = 5, BR = 6 }
talents = {}
[[etape]]
ordres.Armand = ["TEST AG SR 10"]
ordres."@mj" = ["LANCER"]
[[etape.attendu.evenement]]
type = "test_result"
donnees = { number = 5 }
"""
    assert passed(run_case(write(tmp_path, case)))
    with pytest.raises(CaseError) as caught:
        run_case(write(tmp_path, case.replace('name = "Armand"\n', "")))
    assert "etat.characters.Armand.name" in caught.value.line("fr") and "champ obligatoire manquant" in caught.value.line("fr")


def test_a_state_file_from_an_export(tmp_path: Path) -> None:
    import json

    from pbem import serial
    from pbem.core import Seat
    from pbem.dice import Dice
    from pbem.games import get

    state, _ = get("1626").setup([Seat("Armand", data={"caracs": dict.fromkeys("FO EN AG DEX PE INT EDU CH APP BR".split(), 5)})],
                                 {}, Dice("00", "setup"))
    (tmp_path / "etat.json").write_text(json.dumps(serial.to_data(state)), encoding="utf-8")
    case = 'jeu = "1626"\netat_fichier = "etat.json"\n[etat]\ntests = 2\n' \
        '[[etape]]\nordres.Armand = ["TEST AG SR 10"]\nordres."@mj" = ["LANCER"]\n[[etape.attendu.evenement]]\ntype = "test_result"\ndonnees = { number = 3 }\n'
    assert passed(run_case(write(tmp_path, case)))


# ---------------------------------------------------------------- set-up expectations


def test_an_unexpected_setup_refusal_fails_and_an_expected_one_passes(tmp_path: Path) -> None:
    five = 'jeu = "pmb"\n' + "".join(f'[[joueur]]\njoueur = "J{i}"\n' for i in range(5))
    result = run_case(write(tmp_path, five))
    assert not passed(result) and result.phases[0].failure is not None
    assert "mise en place refusée" in result.phases[0].failure.fr
    assert passed(run_case(write(tmp_path, five + '[attendu]\nrefus_mise_en_place = "au moins 12"\n')))
    assert not passed(run_case(write(tmp_path, PMB_HEAD + '[attendu]\nrefus_mise_en_place = "au moins 12"\n')))


# ---------------------------------------------------------------- the report, in French and in English


def test_the_report_renders_the_events_with_their_audiences(tmp_path: Path) -> None:
    path = write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = false\n')
    fr, en = report(path), report(path, "en")
    assert "[public] Garlan a perdu la vie." in fr and "[à Arya et Sansa] " in fr
    assert "-- Étape 1 : Tour 1" in fr and "Résultat : réussi, 1 attendu tenu." in fr
    assert "[MJ] [MJ]" not in fr
    assert "[to Arya and Sansa] " in en and "-- Step 1: Turn 1" in en and "Result: passed, 1 expectation met." in en
    assert "Garlan" in en and "Résultat" not in en


def test_the_same_case_prints_the_same_report(tmp_path: Path) -> None:
    path = write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = false\n')
    assert report(path) == report(path)


def test_mj_orders_on_behalf_of_a_player(tmp_path: Path) -> None:
    """``POUR`` goes the engine's way: the line is parsed as the player's (at 1626, a request the MJ then rolls)."""
    case = SHEET + '[[etape]]\nordres."@mj" = ["POUR armand : TEST AG SR 12", "POUR Zorro : TEST AG SR 12", "LANCER"]\n' \
        '[[etape.attendu.evenement]]\ntype = "test_requested"\naudience = ["Armand"]\ndonnees = { number = 1, sr = 12 }\n' \
        '[[etape.attendu.evenement]]\ntype = "test_result"\naudience = ["Armand"]\ndonnees = { number = 1, sr = 12 }\n' \
        '[[etape.attendu.erreur]]\njoueur = "@mj"\nligne = "POUR Zorro : TEST AG SR 12"\n'
    path = write(tmp_path, case)
    assert passed(run_case(path))
    assert "@mj : POUR armand : TEST AG SR 12 → exécuté aussitôt (pour Armand)" in report(path)


# ---------------------------------------------------------------- the CLI


def test_cli_exit_codes_and_output(tmp_path: Path) -> None:
    good = write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = false\n', "bon.toml")
    bad = write(tmp_path, KILL + '[etape.attendu.etat]\n"players.Garlan.alive" = true\n', "faux.toml")
    broken = write(tmp_path, 'jeu = "pmb"\nbizarre = 1\n', "casse.toml")
    runner = CliRunner()
    r = runner.invoke(main, ["scenario", "run", str(good)])
    assert r.exit_code == 0 and "Résultat : réussi" in r.output and "Bilan" not in r.output
    r = runner.invoke(main, ["scenario", "run", "--lang", "en", str(good)])
    assert r.exit_code == 0 and "Result: passed" in r.output
    r = runner.invoke(main, ["scenario", "run", str(bad)])
    assert r.exit_code == 1 and "Résultat : ÉCHEC" in r.output
    r = runner.invoke(main, ["scenario", "run", str(broken)])
    assert r.exit_code == 2 and r.output.strip() == f"{broken} : bizarre : clé inconnue ; clés permises ici : " + \
        r.output.strip().split("clés permises ici : ")[1]
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1
    r = runner.invoke(main, ["scenario", "run", "--lang", "en", str(broken)])
    assert r.exit_code == 2 and f"{broken}: bizarre: unknown key" in r.output
    r = runner.invoke(main, ["scenario", "run", str(tmp_path)])  # a folder: every case in it, then a summary
    assert r.exit_code == 2 and "Bilan : 3 cas, 1 en échec et 1 mal formé." in r.output
    r = runner.invoke(main, ["scenario", "run", "-q", "--lang", "en", str(good), str(bad)])
    assert r.exit_code == 1 and "Summary: 2 cases, 1 failed." in r.output
    assert "Events:" not in r.output and "✗ state: players.Garlan.alive = true" in r.output
    r = runner.invoke(main, ["scenario", "run", str(tmp_path / "absent.toml")])
    assert r.exit_code == 2 and "absent.toml n'existe pas" in r.output and "Traceback" not in r.output
    (tmp_path / "vide").mkdir()
    r = runner.invoke(main, ["scenario", "run", str(tmp_path / "vide")])
    assert r.exit_code == 2 and r.output == f"{tmp_path / 'vide'} : aucun fichier de cas .toml\n"


def test_cli_prints_the_final_state_on_request(tmp_path: Path) -> None:
    path = write(tmp_path, SHEET + '[[etape]]\nordres.Armand = ["TEST AG SR 1"]\n'
                 '[etape.attendu.etat]\ntests = 1\n')
    r = CliRunner().invoke(main, ["scenario", "run", "--etat", str(path)])
    assert r.exit_code == 0 and "-- État final" in r.output and '"tests": 1' in r.output


def test_run_files_counts(tmp_path: Path) -> None:
    totals = RunTotals()
    lines = list(run_files([ROOT / "docs/rules/1626-cases"], "fr", quiet=True, totals=totals))
    assert totals.total >= 20 and totals.failed == 0 and totals.malformed == 0 and totals.exit_code == 0
    assert lines[-1] == f"Bilan : {totals.total} cas, tous réussis."


# ---------------------------------------------------------------- a game's own position, repeated steps


ROI = """
jeu = "pourleroi"
options = { seating = "roster" }
[[joueur]]
joueur = "Anne"
[[joueur]]
joueur = "Blaise"
[[joueur]]
joueur = "Claude"
"""


def test_a_position_sets_exactly_the_cards_in_play(tmp_path: Path) -> None:
    case = ROI + '[position]\npioche = ["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]\nmains.Blaise = ["OR-01"]\n' \
        '[attendu.etat]\n"round.drawn" = "GUE-A"\ndeck = ["GUE-B", "GUE-C", "GUE-D", "MAR-A"]\nremoved = []\n' \
        '"hands.Blaise" = ["OR-01"]\n'
    result = run_case(write(tmp_path, case))
    assert passed(result), "\n".join(case_lines(result, "fr"))
    from pbem.games.pourleroi import conservation_problems

    assert conservation_problems(result.state) == []  # every other card is out of the box, each in one place
    assert "seules les cartes qu'elle nomme sont en jeu" in report(write(tmp_path, case))


@pytest.mark.parametrize(("position", "key", "said"), [
    ('pioche = ["GUE-Z"]', "position.pioche.0", "carte inconnue « GUE-Z »"),
    ('pioche = ["GUE-A"]\nneutre = ["gue-a"]', "position.neutre.0", "GUE-A figure deux fois"),
    ('mains.Zoe = ["GUE-A"]', "position.mains.Zoe", "joueur inconnu « Zoe »"),
    ('fonctions = { GUE = 7 }', "position.fonctions.GUE", "de 1 à 6"),
    ('pile = ["GUE-A"]', "position.pile", "clé inconnue"),
    ('pioche = ["GUE-A"]\nenchere = { pile = ["GUE-B"] }', "position.enchere", "pioche épuisée"),
])
def test_a_wrong_position_is_a_malformed_file(tmp_path: Path, position: str, key: str, said: str) -> None:
    path = write(tmp_path, ROI + "[position]\n" + position + "\n[attendu.etat]\nround = \"@nul\"\n")
    with pytest.raises(CaseError) as caught:
        run_case(path)
    line = caught.value.line("fr")
    assert line.startswith(f"{path} : {key} : ") and said in line, line


def test_a_game_without_positions_says_so(tmp_path: Path) -> None:
    with pytest.raises(CaseError) as caught:
        run_case(write(tmp_path, KILL.replace("[[etape]]", '[position]\npioche = []\n[[etape]]', 1)))
    assert "position" in caught.value.key and "[etat]" in caught.value.line("fr")
    with pytest.raises(CaseError):
        load_case(write(tmp_path, 'jeu = "pourleroi"\n[etat]\nturn = 1\n[position]\npioche = []\n'))


def test_a_repeated_step_plays_again_and_checks_after_the_last(tmp_path: Path) -> None:
    """Three silent steps of the donor: centre, centre, then neutral (the default order), then the forced keep."""
    case = ROI + '[position]\npioche = ["GUE-A", "GUE-B", "GUE-C", "GUE-D", "MAR-A"]\n' \
        '[[etape]]\nrepeter = 3\n[etape.attendu.etat]\n"hands.Anne" = ["GUE-D"]\nneutral = ["GUE-C"]\n' \
        '[[etape.attendu.evenement]]\ntype = "card_placed"\nnombre = 4\n'
    result = run_case(write(tmp_path, case))
    assert passed(result), "\n".join(case_lines(result, "fr"))
    assert len(result.phases) == 2 and len(result.phases[1].defaults) == 3
    once = run_case(write(tmp_path, case.replace("repeter = 3", "repeter = 1")))
    assert not passed(once)
    with pytest.raises(CaseError) as caught:
        load_case(write(tmp_path, case.replace("repeter = 3", "repeter = 0")))
    assert caught.value.key == "etape[1].repeter"


def test_prompts_may_say_who_is_waited_for(tmp_path: Path) -> None:
    """At a Pour le Roi auction everyone is asked, only those who can pay are waited for."""
    base = ROI + '[position]\nmains = { Anne = ["OR-01"], Blaise = ["OR-02"] }\nenchere = { pile = ["GUE-D"], ouvreur = "Anne" }\n'
    good = base + '[attendu]\nsollicites = [{ joueur = "Anne", attendu = true }, "Blaise", { joueur = "Claude", attendu = false }]\n'
    assert passed(run_case(write(tmp_path, good)))
    bad = run_case(write(tmp_path, good.replace('"Claude", attendu = false', '"Claude", attendu = true')))
    assert not passed(bad)
    detail = bad.checks[0].detail
    assert detail is not None and "Claude (auction, non attendu)" in detail.fr and "not waited for" in detail.en
    with pytest.raises(CaseError):
        load_case(write(tmp_path, base + '[attendu]\nsollicites = [{ joueur = "Anne", attendu = "oui" }]\n'))
