"""The MJ's digest tells every roll in words: what it was for and what it drew (issues #22 and #23).

« parti de X [0-2] = 0 » said an index; « dés « step-1 » » an internal code.  Every roll now says its
purpose (`templates/<game>/dice.<lang>.toml`) and what it gave: a die its face, a percentage its d100
and whether it succeeded, a draw among items the item, a shuffle the order (`pbem.dicetext`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
from helpers import make_config, make_mail

from pbem.core import Order, OrderError, Seat
from pbem.dice import Dice, Roll
from pbem.engine import Engine
from pbem.games import get
from pbem.render import roll_lines
from pbem.store import Store
from pbem.store.records import rolls_from_json, rolls_json

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
INDEX = re.compile(r"\[\d+-\d+\] = \d+")


@dataclass
class Squad:
    target: str
    camp: str
    members: list[str]


def test_each_kind_of_draw_reads_in_words_in_french_and_in_english():
    dice = Dice("ab" * 32, "step-1")
    die = dice.d(10, "request Pension n°41: Madame de la Vilenie asks the King")
    hit = dice.chance(40, "Arya leaves Visenya (40%)")
    nation = dice.choice(["anglais", "hollandais", "espagnol"], "nationality of the Queen")
    order = dice.shuffle(["stark_hm", "tyrell_chef", "garde"], "roles")
    squads = dice.shuffle([Squad("Garlan", "tyrell", ["x"]), Squad("Loras", "stark", ["y"])], "order of the squads")
    picked = dice.sample(["Arya", "Bran", "Sansa"], 2, "Visenya fill from FosseDragon")
    fr = roll_lines(dice.rolls, "courtisans", "fr")
    assert fr[0] == f"requête (Pension n°41) de Madame de la Vilenie au Roi\u00a0: {die} au d10"
    feminine = {"anglais": "anglaise", "hollandais": "hollandaise", "espagnol": "espagnole"}[nation]
    assert fr[2] == f"nationalité de la Reine\u00a0: {feminine} (tiré parmi 3)"
    pmb = roll_lines(dice.rolls, "pmb", "fr")
    d100 = dice.rolls[1].result
    assert pmb[1] == (f"Arya quitte Visenya (40\u00a0%)\u00a0: {d100} au d100, {'réussi' if hit else 'raté'} "
                      "(il fallait au plus 40)")
    names = {"stark_hm": "Homme de Main Stark", "tyrell_chef": "chef Tyrell", "garde": "Garde Royal"}
    assert pmb[3] == "attribution des rôles\u00a0: " + ", ".join(names[c] for c in order)
    assert pmb[4] == "ordre de passage des escouades du tour\u00a0: " + ", ".join(
        f"escouade {s.camp.capitalize()} contre {s.target}" for s in squads)
    assert pmb[5] == "places libres de Visenya remplies depuis FosseDragon\u00a0: " + ", ".join(picked)
    assert len(pmb) == 6  # a shuffle's several rolls make one line
    en = roll_lines(dice.rolls, "pmb", "en")
    assert en[1].endswith(f"{d100} on a d100, {'success' if hit else 'failure'} (needed 40 or less)")
    assert en[4].startswith("order of the squads: ") and "squad on Garlan" in en[4]
    assert not any(INDEX.search(line) for line in fr + pmb + en)


def test_a_die_named_in_its_purpose_reads_once_and_a_draw_among_one_says_so():
    dice = Dice("ab" * 32, "setup")
    face = dice.d(6, "inheritance (Armand): d6")
    assert roll_lines(dice.rolls, "1626", "fr") == [f"Héritage (Armand)\u00a0: {face} au d6"]
    assert roll_lines(dice.rolls, "1626", "en") == [f"inheritance (Armand): {face} on a d6"]
    dice = Dice("ab" * 32, "step-2")
    dice.choice(["Hodor Waters"], "member of the failed squad seen by Kevan Rivers")
    assert roll_lines(dice.rolls, "pmb", "fr") == [
        "membre de l'escouade ratée vu par Kevan Rivers\u00a0: Hodor Waters (le seul possible)"]
    dice.shuffle([Squad("Kevan Pyke", "rebels", ["x"]), Squad("Arya", "stark", ["y"])], "order of the squads")
    assert "escouade rebelle contre Kevan Pyke" in roll_lines(dice.rolls, "pmb", "fr")[1]
    assert "rebel squad on Kevan Pyke" in roll_lines(dice.rolls, "pmb", "en")[1]
    dice = Dice("ab" * 32, "setup")
    deck = dice.shuffle([3, 14, 27], "shuffle the deck")
    assert roll_lines(dice.rolls, "courtisans", "fr") == ["mélange de la pioche\u00a0: " + ", ".join(f"n°{c}" for c in deck)]


def test_a_stored_roll_reads_the_same_and_an_old_one_still_reads():
    dice = Dice("cd" * 32, "setup")
    dice.choice(["anglais", "hollandais", "espagnol"], "parti of Madame de Malveyance")
    dice.shuffle(list(range(1, 9)), "shuffle the deck")
    stored = json.loads(json.dumps(rolls_json(dice.rolls)))
    assert rolls_from_json(stored) == dice.rolls
    assert roll_lines(stored, "courtisans", "fr") == roll_lines(dice.rolls, "courtisans", "fr")
    old = [["parti of Madame de Malveyance", 0, 2, 1]]  # a record written before rolls said what they drew
    assert roll_lines(old, "courtisans", "fr") == ["parti de Madame de Malveyance\u00a0: 1 (de 0 à 2)"]
    assert rolls_from_json(old) == [Roll("parti of Madame de Malveyance", 0, 2, 1)]


ROSTERS = {"pmb": [f"Joueur {i:02d}" for i in range(40)], "intrigue": ["Lorenzo", "Isabella", "Cesare", "Lucrezia"],
           "pourleroi": ["Colbert", "Fouquet", "Louvois", "Séguier", "Vauban"],
           "courtisans": ["Madame de la Vilenie", "Monsieur de la Fourberye", "Madame de Malveyance"]}


@pytest.mark.parametrize("game", sorted(ROSTERS))
def test_every_roll_of_bot_games_reads_in_words(game: str):
    """In bot games of every game with turns, no roll reads as an index: each drawn item is named, each line
    starts with its purpose in words."""
    import importlib

    ruleset = get(game)
    bots = importlib.import_module(f"pbem.games.{ruleset.__class__.__module__.split('.')[2]}.bots")
    lines: list[str] = []
    for seed in range(2):
        seed_hex = f"{seed:064x}"
        dice = Dice(seed_hex, "setup")
        state, _ = ruleset.setup([Seat(n) for n in ROSTERS[game]], dict(ruleset.default_options), dice)
        rolls = list(dice.rolls)
        for step in range(1, 40):
            prompts = ruleset.prompts(state)
            if not prompts:
                break
            orders: dict[str, list[Order]] = {}
            for player in dict.fromkeys(p.player for p in prompts):
                accepted: list[Order] = []
                for line in bots.random_orders(state, player, seed * 1000 + step):
                    try:
                        accepted.append(ruleset.parse_order(state, player, line, accepted))
                    except OrderError:
                        pass
                orders[player] = accepted or ruleset.default_orders(state, player)
            dice = Dice(seed_hex, f"step-{step}")
            state, _ = ruleset.resolve(state, orders, dice)
            rolls += dice.rolls
        lines += roll_lines(json.loads(json.dumps(rolls_json(rolls))), game, "fr")
    assert lines and not [ln for ln in lines if INDEX.search(ln) or "(de 0 à" in ln], game
    assert not [ln for ln in lines if re.match(r"[A-Za-z ]+ (of|for|on) ", ln)], game  # French labels, not purposes


def test_the_digest_names_no_internal_dice_context(tmp_path):
    """« Synthèse MJ — Étape 1 (enregistrement 2) » : not « dés « step-1 » »; the dice lines read in words."""
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    try:
        e.new_game("toy1", T0, seed="ab" * 32)
        for i, name in enumerate(["Arya", "Bran", "Cersei"]):
            e.add_player("toy1", name, f"p{i}@pbem.test", T0)
        e.start_game("toy1", T0)
        raw = make_mail("p0@pbem.test", "GUESS 4")
        e.store.store_raw([("k", raw)], T0)
        e.process_message("k", raw, T0)
        e.resolve("toy1", T0)
        text = e.digest_text("toy1")
        assert "step-" not in text and "« step" not in text and not INDEX.search(text), text
        assert "(enregistrement " in text and "target number\u00a0: " in text and " au d10" in text
    finally:
        e.store.close()


def test_an_mjs_dice_file_that_says_odd_things_never_stops_the_digest(tmp_path):
    """An override whose ``words`` is no table, whose ``item`` names a field a record has not, or whose text
    names a group its pattern has not: the packaged labels (or the text as it is) serve, the digest goes out."""
    (tmp_path / "pmb").mkdir()
    (tmp_path / "pmb" / "dice.fr.toml").write_text(
        "words = 'rien'\n[[label]]\npattern = 'roles'\ntext = 'les rôles'\n", encoding="utf-8")
    dice = Dice("ab" * 32, "setup")
    dice.shuffle(["garde", "mestre"], "roles")
    assert roll_lines(dice.rolls, "pmb", "fr", overrides=tmp_path)[0].startswith("attribution des rôles\u00a0: ")
    (tmp_path / "pmb" / "dice.fr.toml").write_text(
        "[[label]]\npattern = 'order of the squads'\ntext = 'ordre {rang}'\nitem = '{escouade}'\n", encoding="utf-8")
    dice = Dice("ab" * 32, "step-1")
    dice.shuffle([Squad("Garlan", "tyrell", ["x"]), Squad("Loras", "stark", ["y"])], "order of the squads")
    line = roll_lines(dice.rolls, "pmb", "fr", overrides=tmp_path)[0]
    assert line.startswith("ordre {rang}\u00a0: ") and "Garlan" in line and "Loras" in line
