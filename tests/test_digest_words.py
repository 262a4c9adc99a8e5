"""The MJ digest shows no internal codes (« step-1 », « [0-2] = 0 »): every roll is told with its purpose in
words, agreeing with the player it names; and it shows a pause (#21, #22)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS, body, make_config, outbox_messages

from pbem.dice import Roll
from pbem.engine import Engine
from pbem.render import Renderer, dice_label, roll_lines
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran", "Cersei"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    yield e
    e.store.close()


def digests(e: Engine) -> list[str]:
    return [body(m) for m in outbox_messages(e.store, kind="digest", rcpt=MJ_ADDRESS)]


def test_the_digest_tells_each_roll_in_words_and_no_internal_code(eng):
    eng.resolve("toy1", T0 + timedelta(hours=1))
    setup, step = digests(eng)
    roll = step.split("== Dés ==\n")[1].splitlines()[0].replace("\u00a0", " ")
    assert roll.startswith("  target number : ") and roll.endswith(" au d10")
    for text in (setup, step):
        assert "step-" not in text and "setup »" not in text and "dés «" not in text
        assert "] = " not in text and "[0-" not in text and "[1-" not in text


def test_a_roll_about_a_woman_agrees_with_her():
    purpose = "Garde Élise de Mallery kills a member"
    assert dice_label(purpose, "pmb", "fr", genders={"Élise de Mallery": "f"}) == \
        "la Garde Élise de Mallery tue un membre de l'escouade"
    assert dice_label(purpose, "pmb", "fr", genders={"Élise de Mallery": "m"}) == \
        "le Garde Élise de Mallery tue un membre de l'escouade"
    assert dice_label(purpose, "pmb", "fr") == "le Garde Élise de Mallery tue un membre de l'escouade"
    rolls = [Roll(purpose, 1, 6, 2),
             Roll("chef Élise de Mallery warned by the attack on his bodyguard (30%)", 1, 100, 7, False, "chance", 30)]
    assert roll_lines(rolls, "pmb", "fr", genders={"Élise de Mallery": "f"}) == [
        "la Garde Élise de Mallery tue un membre de l'escouade\u00a0: 2 au d6",
        "la cheffe Élise de Mallery alertée par l'attaque contre son garde du corps (30\u00a0%)\u00a0: "
        "7 au d100, réussi (il fallait au plus 30)"]


def test_the_digest_template_gives_the_players_genders_to_its_dice_lines():
    r = Renderer("pmb", "fr")
    r.set_genders({"Élise de Mallery": "f"})
    item = {"seq": 3, "title": "Tour 1", "player": "MJ", "lines": [], "events": [],
            "rolls": [["Garde Élise de Mallery kills a member", 1, 6, 2]]}
    text = r.mail_text("digest_actions", tag="[pmb1]", title="Tour 1", items=[item], failed=[]).body
    assert "  la Garde Élise de Mallery tue un membre de l'escouade\u00a0: 2 au d6\n" in text


def test_the_digest_shows_a_pause_in_force(eng):
    eng.pause("toy1", None, None, "", T0 + timedelta(minutes=30))
    eng.resolve("toy1", T0 + timedelta(hours=1))  # the MJ resolves by hand during the pause
    step = digests(eng)[-1]
    assert ("Ensuite : l'étape 2 ; la partie est en pause jusqu'à nouvel ordre : sa date limite sera fixée à la "
            "reprise.") in step.replace("\u00a0", " ")
    assert "date limite le" not in step


def test_the_digest_shows_a_pause_to_come(eng):
    eng.pause("toy1", T0 + timedelta(days=5), T0 + timedelta(days=8), "", T0 + timedelta(minutes=30))
    eng.resolve("toy1", T0 + timedelta(hours=1))
    step = digests(eng)[-1].replace("\u00a0", " ")
    assert "Ensuite : l'étape 2, date limite le " in step
    assert "Pause prévue du dimanche 6 décembre à 21 h au mercredi 9 décembre 2026 à 21 h." in step
