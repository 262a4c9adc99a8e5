"""Only the players who can act are asked; PASSER; missed steps (NMR) counted and the game's policy.

With the toy ruleset for the engine's rules, and every game for "who is asked" (prompts)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.core import Order
from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
NAMES = ["Arya", "Bran", "Cersei"]


def make_engine(tmp_path, **game) -> Engine:
    cfg = make_config(tmp_path, extra_game=game)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(NAMES):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    e.start_game("toy1", T0)
    return e


@pytest.fixture
def eng(tmp_path):
    e = make_engine(tmp_path, options={"steps": 9})
    yield e
    e.store.close()


def send(e: Engine, who: int, text: str, key: str, when: datetime) -> str:
    raw = make_mail(f"p{who}@pbem.test", text, message_id=f"<{key}@x>")
    e.store.store_raw([(key, raw)], when)
    return e.process_message(key, raw, when)


def ack(e: Engine, who: int) -> str:
    return body(outbox_messages(e.store, kind="ack", rcpt=f"p{who}@pbem.test")[-1])


def deadline(e: Engine) -> datetime:

    return e.game("toy1").deadline


def test_passer_is_an_answer_the_rules_defaults_apply_and_early_resolution_can_fire(tmp_path):
    e = make_engine(tmp_path, early_resolution=True, early_delay_minutes=30)
    send(e, 0, "GUESS 3", "a", T0 + timedelta(hours=1))
    send(e, 1, "GUESS 8", "b", T0 + timedelta(hours=1))
    assert e.game("toy1").early_at is None  # Cersei has not answered
    assert send(e, 2, "Bonsoir,\nPASSER\nCersei", "c", T0 + timedelta(hours=2)) == "ok (1 lines, 0 errors)"
    assert "PASSER\n    -> OK : vous ne donnez pas d'ordre cette étape-ci ; s'appliqueront les ordres par défaut " \
           "des règles : (default) GUESS 5" in ack(e, 2)
    assert e.game("toy1").early_at is not None  # everyone has answered
    e.due(T0 + timedelta(hours=3))
    rec = e.store.record_for_turn("toy1", 1)
    assert rec.defaults == ()  # she answered: no missed step
    cersei = rec.orders["Cersei"]
    assert cersei.source == "pass" and cersei.orders == (Order("GUESS", (5,), "(default) GUESS 5"),)
    digest = body(outbox_messages(e.store, kind="digest")[-1])
    assert "Cersei [PASSE" in digest and "(ordres par défaut appliqués : (default) GUESS 5)" in digest
    e.store.close()


def test_passer_with_orders_in_the_same_mail_is_an_error_and_nothing_is_passed(eng):
    assert send(eng, 0, "GUESS 4\nPASSER", "a", T0) == "ok (2 lines, 1 errors)"
    assert "PASSER\n    -> ERREUR : PASSER ne se combine pas avec d'autres ordres" in ack(eng, 0)
    assert eng.store.current_orders("toy1", 1)["Arya"].source == "mail"


def test_orders_and_etat_after_passer_say_so(eng):
    send(eng, 0, "PASSER\nORDRES", "a", T0)
    assert "Vous passez pour l'étape 1 (PASSER)" in ack(eng, 0)


def test_the_mj_can_pass_for_a_player(eng):
    raw = make_mail(MJ_ADDRESS, "POUR Bran : PASSER", message_id="<mj@x>")
    eng.store.store_raw([("mj", raw)], T0)
    assert eng.process_message("mj", raw, T0) == "ok (1 lines, 0 errors)"
    assert eng.store.current_orders("toy1", 1)["Bran"].source == "pass"


def test_defaults_are_told_with_what_they_were(eng):
    send(eng, 0, "GUESS 4", "a", T0)
    eng.due(deadline(eng))
    private = body(outbox_messages(eng.store, kind="private", rcpt="p1@pbem.test")[-1])
    assert ("Nous n'avons pas reçu vos ordres à temps : les ordres par défaut des règles ont été appliqués pour "
            "vous :\n  (default) GUESS 5") in private
    assert "ordres par défaut" not in body(outbox_messages(eng.store, kind="private", rcpt="p0@pbem.test")[-1])


def test_missed_steps_are_counted_and_the_mj_alerted_after_two_by_default(eng):
    for step in range(3):
        g = eng.game("toy1")
        for who, name in enumerate(NAMES):
            if name != "Bran" and name in {p.player for p in eng.ruleset("toy1").prompts(eng.state(g))}:
                send(eng, who, "GUESS 4" if step % 2 == 0 else f"GIFT {NAMES[(who + 1) % 3]}", f"s{step}{who}",
                     deadline(eng) - timedelta(hours=1))
        eng.due(deadline(eng))
    bran = eng.store.player("toy1", "Bran")
    prompted_steps = [r.orders for r in eng.store.records("toy1", "step")]
    assert bran.missed == sum(1 for o in prompted_steps if "Bran" in o)  # every step he was asked
    digests = [body(m) for m in outbox_messages(eng.store, kind="digest")]
    first_alert = next(i for i, d in enumerate(digests) if "== Absences ==" in d)
    assert "Bran : 2 étapes de suite sans ordres" in digests[first_alert]
    assert all("== Absences ==" not in d for d in digests[:first_alert])


def test_the_count_starts_again_when_the_player_answers(eng):
    eng.due(deadline(eng))
    assert eng.store.player("toy1", "Arya").missed == 1
    giver = eng.ruleset("toy1").prompts(eng.state(eng.game("toy1")))[0].player
    send(eng, NAMES.index(giver), "PASSER", "p", deadline(eng) - timedelta(hours=1))
    eng.due(deadline(eng))
    assert eng.store.player("toy1", giver).missed == 0


def test_an_abandoned_player_is_no_longer_waited_for_then_comes_back(tmp_path):
    e = make_engine(tmp_path, nmr_abandon=1, early_resolution=True, options={"steps": 9})
    send(e, 0, "GUESS 4", "a", T0)
    send(e, 1, "GUESS 6", "b", T0)
    e.due(deadline(e))  # step 1: Cersei silent, abandoned after one missed step
    private = body(outbox_messages(e.store, kind="private", rcpt="p2@pbem.test")[-1])
    assert "la partie ne vous attend plus" in private and "Répondez à ce message" not in private
    assert "Abandon (plus attendu à partir de maintenant) : Cersei." in body(
        outbox_messages(e.store, kind="digest")[-1])
    giver = e.ruleset("toy1").prompts(e.state(e.game("toy1")))[0].player
    if giver != "Cersei":  # step 2 is one player's gift: they answer (else they too would be abandoned)
        send(e, NAMES.index(giver), "PASSER", "g2", deadline(e) - timedelta(hours=2))
    e.due(deadline(e))
    assert e.game("toy1").turn == 3  # a simultaneous step again: everyone is prompted
    d = deadline(e)
    before = len(outbox_messages(e.store, kind="reminder"))
    e.due(d - timedelta(hours=23))  # the reminders, 24 hours before the deadline
    reminded = {m["To"] for m in outbox_messages(e.store, kind="reminder")[before:]}
    assert reminded == {"p0@pbem.test", "p1@pbem.test"}  # not Cersei
    send(e, 0, "GUESS 2", "a3", d - timedelta(hours=22))
    send(e, 1, "GUESS 9", "b3", d - timedelta(hours=22))
    assert e.game("toy1").early_at is not None  # the others are in: the step does not wait for her
    # she writes again before it resolves: her orders count, and she is back
    assert send(e, 2, "GUESS 7", "c3", d - timedelta(hours=22)) == "ok (1 lines, 0 errors)"
    e.due(d - timedelta(hours=21))
    assert e.store.record_for_turn("toy1", 3).orders["Cersei"].source == "mail"
    assert e.store.player("toy1", "Cersei").missed == 0
    assert "De retour après un abandon : Cersei." in body(outbox_messages(e.store, kind="digest")[-1])
    e.store.close()


def test_a_removed_player_is_not_waited_for_nor_reminded(tmp_path):
    e = make_engine(tmp_path, early_resolution=True, reminder_hours=[12])
    e.remove_player("toy1", "Cersei", T0)
    send(e, 0, "GUESS 4", "a", T0)
    send(e, 1, "GUESS 6", "b", T0)
    assert e.game("toy1").early_at is not None
    assert e.status("toy1", T0).waiting == []
    e.store.close()


def test_the_players_without_a_decision_are_not_asked_to_answer(tmp_path):
    eng = make_engine(tmp_path, reminder_hours=[12])
    eng.due(deadline(eng))  # step 2: one player gives a gift, the others have nothing to decide
    giver = eng.ruleset("toy1").prompts(eng.state(eng.game("toy1")))[0].player
    for who, name in enumerate(NAMES):
        private = body(outbox_messages(eng.store, kind="private", rcpt=f"p{who}@pbem.test")[-1])
        assert ("Répondez à ce message avec vos ordres" in private) == (name == giver), name
        if name != giver:
            assert "vous n'avez pas d'ordre à donner" in private
    before = len(outbox_messages(eng.store, kind="reminder"))
    eng.due(deadline(eng) - timedelta(hours=11))  # the reminder time of step 2
    reminded = {m["To"] for m in outbox_messages(eng.store, kind="reminder")[before:]}
    assert reminded == {f"p{NAMES.index(giver)}@pbem.test"}
    eng.store.close()


def test_nmr_policy_is_checked(tmp_path):
    from pbem.config import ConfigError

    with pytest.raises(ConfigError, match="nmr_abandon"):
        make_config(tmp_path, extra_game={"nmr_abandon": -1})


# --- every game: only the players who can act are asked ---

def _pmb(tmp_path) -> Engine:
    from test_ack_corpus import ROSTER

    cfg = make_config(tmp_path, ruleset="pmb", game_id="g", tag="G",
                      extra_game={"options": {"places": {"visenya": 3, "fossedragon": 4}}})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("g", T0, seed="ab" * 32)
    for i, (name, role, location, sergent) in enumerate(ROSTER):
        data = {k: v for k, v in (("location", location), ("sergent", sergent)) if v}
        e.add_player("g", name, f"p{i}@pbem.test", T0, role=role, data=data)
    return e


def _intrigue(tmp_path) -> Engine:
    cfg = make_config(tmp_path, ruleset="intrigue", game_id="g", tag="G")
    e = Engine(cfg, Store(cfg.database))
    e.new_game("g", T0, seed="ab" * 32)
    for i, name in enumerate(["Lorenzo", "Isabella", "Cesare", "Lucrezia"]):
        e.add_player("g", name, f"p{i}@pbem.test", T0)
    return e


@pytest.mark.parametrize("make", [_pmb, _intrigue], ids=["pmb", "intrigue"])
def test_in_every_game_only_those_asked_are_told_to_answer_and_reminded(tmp_path, make):
    e = make(tmp_path)
    e.start_game("g", T0)
    for _step in range(3):
        g = e.game("g")
        state = e.state(g)
        asked = {p.player for p in e.ruleset("g").prompts(state)}
        players = {p.address: p.name for p in e.store.players("g")}
        letters = [m for m in outbox_messages(e.store, kind="private") if m["X-PBEM-Turn"] == str(g.turn - 1)]
        assert letters
        for m in letters:
            assert ("Répondez à ce message avec vos ordres" in body(m)) == (players[m["To"]] in asked), m["To"]
        before = len(outbox_messages(e.store, kind="reminder"))
        e.due(deadline_of(e) - timedelta(hours=23))
        reminded = {players[m["To"]] for m in outbox_messages(e.store, kind="reminder")[before:]}
        assert reminded <= asked
        e.due(deadline_of(e))
    e.store.close()


def deadline_of(e: Engine) -> datetime:

    return e.game("g").deadline


def test_pmb_answers_count_no_players_since_who_is_asked_can_betray_a_role(tmp_path):
    e = _pmb(tmp_path)
    e.start_game("g", T0)
    raw = make_mail("p9@pbem.test", "ESCOUADE Margaery", subject="[G] ordres", message_id="<robb@x>")
    e.store.store_raw([("robb", raw)], T0)
    e.process_message("robb", raw, T0)
    text = body(outbox_messages(e.store, kind="ack", rcpt="p9@pbem.test")[-1])
    assert "ESCOUADE Margaery\n    -> OK" in text and "joueurs sur" not in text and "joueur sur" not in text
    e.store.close()
