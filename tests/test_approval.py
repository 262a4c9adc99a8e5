"""Results held for the MJ's approval (publish = "mj"), and the preview: through the real engine.

At the deadline the step is resolved and recorded, the MJ gets the digest and a request; nothing reaches the
players or the forum until he approves; a correction made before approving re-runs the step first; his
chronicle heads the forum post; a reminder goes to him when the wait is long.  A preview stores nothing and
sends nothing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers import MJ_ADDRESS
from mjseat_helpers import PLAYERS, T0, Table, hours, plain, to

from pbem.engine import EngineError


@pytest.fixture
def held(tmp_path):
    t = Table(tmp_path, publish="mj", approval_reminder="6h")
    t.mail(PLAYERS["Arya"], "GUESS 4")
    t.mail(PLAYERS["ser Schlingue"], "GUESS 8")
    t.new()
    assert t.due(T0 + timedelta(days=2)) == ["toy1: turn 1 resolved"]
    yield t
    t.close()


def test_at_the_deadline_only_the_MJ_hears_of_the_results(held):
    t = held
    mails = t.new()
    assert sorted((a, k) for a, k, _s, _b in mails) == [(MJ_ADDRESS, "digest"), (MJ_ADDRESS, "notice")]
    request = to(mails, MJ_ADDRESS, "notice")[0]
    assert request[0] == "[TOY] Étape 1 : résultats à approuver"
    assert "APPROUVE" in request[1] and "[b]Étape 1[/b]" in request[1]  # the forum post as it will go out
    assert not (t.cfg.forum_dir / "toy1" / "turn-1.bbcode").exists()
    assert t.store.record_for_turn("toy1", 1).published is False
    # while the results wait, the next step's clock waits too
    assert t.due(T0 + timedelta(days=3, hours=5)) == ["toy1: the MJ reminded that turn 1 waits for approval"]
    assert t.game().turn == 2 and t.store.record_for_turn("toy1", 2) is None
    with pytest.raises(EngineError, match="wait for your approval"):
        t.engine.resolve("toy1", T0 + timedelta(days=3, hours=5))


def test_a_reminder_goes_to_the_MJ_once_when_the_wait_is_long(held):
    t = held
    t.new()
    assert t.due(T0 + timedelta(days=2, hours=5)) == []
    assert t.due(T0 + timedelta(days=2, hours=6)) == ["toy1: the MJ reminded that turn 1 waits for approval"]
    assert t.due(T0 + timedelta(days=2, hours=9)) == []
    reminders = [s for a, _k, s, _b in t.new() if a == MJ_ADDRESS]
    assert reminders == ["[TOY] Étape 1 : résultats toujours en attente de votre approbation"]


def test_a_correction_before_approval_reruns_the_step_then_everything_goes_with_the_chronicle(held):
    t = held
    t.new()
    before = t.store.record_for_turn("toy1", 1).events
    t.now = T0 + timedelta(days=2, hours=2)
    answer = t.mj("Corrige le tour 1 pour Bran : GUESS 1\nAPPROUVE\nCHRONIQUE\nCe soir-là, [i]la pluie[/i] tombait."
                  "\n\nEt personne ne dormait.\nFIN")
    assert "l'étape attend votre approbation : APPROUVE la recalculera avant tout envoi" in answer
    assert "résultats de « Étape 1 » publiés, recalculés d'abord avec vos corrections" in answer
    assert "3 courriels privés envoyés, compte rendu du forum envoyé et écrit, avec votre chronique en tête (3 lignes)" \
        in answer
    rec = t.store.record_for_turn("toy1", 1)
    assert rec.published is True and rec.orders["Bran"].source == "correction"
    assert rec.events != before  # Bran's guess now counts
    mails = t.new()
    assert sorted(a for a, k, _s, _b in mails if k == "private") == sorted(PLAYERS.values())
    assert not any(s.startswith("RECTIFICATIF") for _a, _k, s, _b in mails)  # results never sent before: no erratum
    forum = (t.cfg.forum_dir / "toy1" / "turn-1.bbcode").read_text()
    assert forum.startswith("Ce soir-là, [i]la pluie[/i] tombait.\n\nEt personne ne dormait.\n\n[b]Étape 1[/b]")
    public = [b for a, k, _s, b in mails if k == "public"]
    assert public and "Ce soir-là, [i]la pluie[/i] tombait." in public[0]
    # the calendar holds when at least half a step is left
    assert t.deadline() == T0 + timedelta(days=3)


def test_approval_after_a_long_wait_gives_the_next_step_the_time_taken(held):
    t = held
    t.new()
    t.engine.publish("toy1", T0 + timedelta(days=2, hours=20))  # step 2 lasts 1 day: 4 hours were left
    assert t.deadline() == T0 + timedelta(days=3, hours=20)


def test_approval_from_the_cli_side_and_errors(held):
    t = held
    with pytest.raises(EngineError, match="step 1, not 2"):
        t.engine.publish("toy1", T0 + timedelta(days=2, hours=1), turn=2)
    done = t.engine.publish("toy1", T0 + timedelta(days=2, hours=1), turn=1, chronicle="Une nuit calme.")
    assert done.privates == 3 and done.forum and done.chronicle_lines == 1 and not done.rerun
    with pytest.raises(EngineError, match="wait for approval"):
        t.engine.publish("toy1", T0 + timedelta(days=2, hours=2))


def test_a_chronicle_without_APPROUVE_waits_on_the_held_step_and_heads_its_post_when_approved(held):
    t = held
    t.new()
    answer = t.mj("CHRONIQUE : une belle nuit\nFin")
    assert "Votre chronique ira en tête du compte rendu de l'étape 1, quand vous l'approuverez (APPROUVE)." in answer
    assert [k for _a, k, _s, _b in t.new()] == ["ack"]  # nothing goes yet
    answer = t.mj("Approuve")
    assert "avec votre chronique en tête (1 ligne)" in answer
    assert (t.cfg.forum_dir / "toy1" / "turn-1.bbcode").read_text().startswith("une belle nuit\n\n[b]Étape 1[/b]")


def test_a_chronicle_with_no_step_held_is_refused(tmp_path):
    t = Table(tmp_path)
    answer = t.mj("CHRONIQUE : une belle nuit\nFin")
    assert "une chronique accompagne APPROUVE" in answer
    assert [k for _a, k, _s, _b in t.new()] == ["ack"]
    t.close()


# --- preview ---


def _dump(store) -> dict[str, list[tuple]]:
    return {name: list(store.db.execute(f"select * from {name}").fetchall()) for name in store.db.table_names()}


def test_preview_stores_nothing_and_sends_nothing(tmp_path):
    t = Table(tmp_path)
    t.mail(PLAYERS["Arya"], "GUESS 4")
    before = _dump(t.store)
    files = sorted(p.name for p in (t.cfg.forum_dir / "toy1").iterdir())
    p = t.engine.preview("toy1", T0 + hours(3))
    assert _dump(t.store) == before
    assert sorted(x.name for x in (t.cfg.forum_dir / "toy1").iterdir()) == files
    assert p.title == "Étape 1" and p.defaults == ["Bran", "ser Schlingue"]
    assert "Sans ordres à temps (ordres par défaut) : ser Schlingue et Bran." in plain(p.digest)  # table order
    assert sorted(name for name, _s, _b in p.privates) == sorted(PLAYERS)
    # and the real resolution then gives exactly what the preview showed
    t.due(T0 + timedelta(days=2))
    sent = {a: b for a, k, _s, b in t.new() if k == "private"}
    for name, _subject, text in p.privates:
        assert sent[PLAYERS[name]].split("\n\n")[:3] == plain(text).split("\n\n")[:3]
    t.close()


def test_preview_inside_a_batch_of_mail_stores_nothing_either(tmp_path):
    t = Table(tmp_path)
    from helpers import make_mail

    raws = [(f"b{i}", make_mail(MJ_ADDRESS if i == 1 else PLAYERS["Arya"], text, "[TOY] x",
                                message_id=f"<b{i}@pbem.test>"))
            for i, text in enumerate(["GUESS 3", "Aperçu", "GUESS 5"])]
    t.store.store_raw(raws, T0)
    t.engine.process_pending(T0 + hours(1))
    assert t.store.record_for_turn("toy1", 1) is None and t.game().turn == 1
    assert t.store.current_orders("toy1", 1)["Arya"].orders[0].args == (5,)
    assert "APERÇU : Étape 1" in t.last("ack", MJ_ADDRESS)
    t.close()
