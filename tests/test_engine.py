"""The engine with the toy conformance ruleset: registration, orders by mail, acks, deadlines, records, re-runs.

No mail server here: mails are fed as bytes; the outbox is read from the store.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.engine import Engine, EngineError
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


@pytest.fixture
def eng(tmp_path):
    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    yield e
    store.close()


def feed(e: Engine, raw: bytes, now: datetime, key: str | None = None) -> str:
    key = key or f"test:{hash(raw)}"
    e.store.store_raw([(key, raw)], now)
    return e.process_message(key, raw, now)


def register(e: Engine, names=("Arya", "ser Schlingue", "Bran")) -> None:
    for i, n in enumerate(names):
        feed(e, make_mail(f"p{i}@pbem.test", f"INSCRIPTION {n}"), T0, key=f"reg{i}")


def test_registration_by_mail_and_phrase(eng):
    register(eng, ("Arya",))
    feed(eng, make_mail("p9@pbem.test", "Je souhaite participer à ce jeu", name="Gendry"), T0, key="reg9")
    names = [p.name for p in eng.store.players("toy1")]
    assert names == ["Arya", "Gendry"]
    acks = outbox_messages(eng.store, kind="ack", rcpt="p9@pbem.test")
    assert len(acks) == 1 and "inscription enregistrée sous le nom Gendry" in body(acks[0])
    assert acks[0]["In-Reply-To"] and acks[0]["X-PBEM-Kind"] == "ack" and acks[0]["X-PBEM-Game"] == "toy1"


def test_registration_rejects_taken_name_accent_insensitive(eng):
    register(eng, ("Éric",))
    feed(eng, make_mail("p5@pbem.test", "INSCRIPTION eric"), T0, key="r5")
    assert len(eng.store.players("toy1")) == 1
    assert "déjà pris" in body(outbox_messages(eng.store, rcpt="p5@pbem.test")[0])


def test_start_mails_everyone_and_opens_step_one(eng):
    register(eng)
    g = eng.start_game("toy1", T0)
    assert g.phase == "running" and g.turn == 1
    assert g.deadline == T0 + timedelta(days=2)
    private = outbox_messages(eng.store, kind="private")
    assert sorted(m["To"] for m in private) == ["p0@pbem.test", "p1@pbem.test", "p2@pbem.test"]
    assert outbox_messages(eng.store, kind="digest", rcpt=MJ_ADDRESS)
    assert (eng.config.forum_dir / "toy1" / "turn-0.bbcode").exists()


def test_order_ack_echoes_lines_with_verdicts_and_count(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 7\nGUESS 3\nFOO bar\nGUES 8\nGUESS 11\nGIFT Bran"), T0, key="o1")
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "GUESS 7\n    -> OK" in ack
    assert "GUESS 3\n    -> REFUSÉ : une seule devinette" in ack
    assert "GUES 8\n    -> AMBIGU : ordre inconnu « GUES » : vouliez-vous dire GUESS ?" in ack  # a near miss
    assert "GUESS 11\n    -> INCOMPRIS : GUESS <1-10>" in ack
    # a line whose first word is no order word, nor near one, is text: listed, never an error
    assert "Texte ignoré, qui n'est pas un ordre :\n  FOO bar\n" in ack
    assert "5 lignes lues, 4 erreurs." in ack
    assert "Date limite : jeudi 3 décembre 2026 à 21 h" in ack
    assert "1 joueur sur 3 a donné ses ordres" in ack
    cur = eng.store.current_orders("toy1", 1)
    assert [o.args for o in cur["Arya"].orders] == [(7,)]


def test_latest_mail_replaces_earlier_orders_and_all_bad_mail_keeps_them(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 7"), T0, key="a")
    feed(eng, make_mail("p0@pbem.test", "GUESS 2"), T0, key="b")
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (2,)
    feed(eng, make_mail("p0@pbem.test", "GUESS 99"), T0, key="c")
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (2,)
    assert "vos ordres précédents restent en vigueur" in body(outbox_messages(eng.store, rcpt="p0@pbem.test")[-1])


def test_deadline_applies_defaults_and_resolves_once(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 7"), T0, key="a")
    assert eng.due(T0 + timedelta(hours=12)) == []
    done = eng.due(T0 + timedelta(days=2))
    assert done == ["toy1: turn 1 resolved"]
    assert eng.due(T0 + timedelta(days=2)) == []  # idempotent
    rec = eng.store.record_for_turn("toy1", 1)
    assert sorted(rec.defaults) == ["Bran", "ser Schlingue"]
    orders = rec.orders
    assert orders["Arya"].source == "mail" and orders["Bran"].source == "default"
    digest = body(outbox_messages(eng.store, kind="digest")[-1])
    # in the order of the table: ser Schlingue registered before Bran
    assert "Sans ordres à temps (ordres par défaut) : ser Schlingue et Bran." in digest
    assert re.search(r"target number : \d+ au d10\n", digest)  # a die in words, not « [1-10] = 7 »
    # step 2 is sequential: exactly one player is asked
    g = eng.game("toy1")
    assert g.turn == 2
    assert len(eng.ruleset("toy1").prompts(eng.state(g))) == 1


def test_sequential_step_refuses_players_not_prompted(eng):
    register(eng)
    eng.start_game("toy1", T0)
    eng.resolve("toy1", T0)
    state = eng.state(eng.game("toy1"))
    giver = eng.ruleset("toy1").prompts(state)[0].player
    others = [p for p in eng.store.players("toy1") if p.name != giver]
    feed(eng, make_mail(others[0].address, "GIFT Bran"), T0, key="x")
    assert "aucune décision n'est attendue de vous" in body(outbox_messages(eng.store, rcpt=others[0].address)[-1])


def test_early_resolution_when_all_orders_are_in(eng):
    register(eng)
    eng.start_game("toy1", T0)
    for i in range(3):
        feed(eng, make_mail(f"p{i}@pbem.test", f"GUESS {i + 1}"), T0, key=f"k{i}")
    g = eng.game("toy1")
    assert g.early_at == T0 + timedelta(minutes=30)
    assert eng.due(T0 + timedelta(minutes=29)) == []
    assert eng.due(T0 + timedelta(minutes=30)) == ["toy1: turn 1 resolved"]


def test_reminder_goes_only_to_players_without_orders_and_once(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 4"), T0, key="a")
    eng.due(T0 + timedelta(hours=24))
    eng.due(T0 + timedelta(hours=25))
    reminders = outbox_messages(eng.store, kind="reminder")
    assert sorted(m["To"] for m in reminders) == ["p1@pbem.test", "p2@pbem.test"]


def test_extend_deadline_tells_players_and_never_moves_earlier_silently(eng):
    register(eng)
    eng.start_game("toy1", T0)
    g = eng.game("toy1")
    with pytest.raises(EngineError):
        eng.extend("toy1", g.deadline - timedelta(hours=1), T0)
    eng.extend("toy1", g.deadline + timedelta(hours=24), T0)
    notices = outbox_messages(eng.store, kind="notice")
    assert len(notices) == 3 and "repoussé" in body(notices[0])
    assert not any("resolved" in d for d in eng.due(T0 + timedelta(days=2, hours=1)))


def test_immediate_order_is_recorded_and_answered_at_once(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p1@pbem.test", "ROLL"), T0, key="r")
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p1@pbem.test")[-1])
    assert "rolled" in ack and "-> OK : fait" in ack
    actions = eng.store.records("toy1", "action")
    assert len(actions) == 1 and actions[0].rolls[0].purpose == "ser Schlingue rolls a d6"


def test_mj_orders_for_a_player_by_mail(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail(MJ_ADDRESS, "POUR bran : GUESS 9"), T0, key="m")
    assert eng.store.current_orders("toy1", 1)["Bran"].source == "mj"
    assert any(j.action == "orders for" for j in eng.store.journal("toy1"))


def test_rerun_is_reproducible_and_correction_publishes_rectificatif(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 7"), T0, key="a")
    eng.resolve("toy1", T0 + timedelta(days=2))
    same = eng.rerun("toy1", 1, T0 + timedelta(days=2, hours=1))
    assert same.diff == [] and not same.state_changed
    eng.set_orders_mj("toy1", "Bran", ["GUESS 1"], T0 + timedelta(days=2, hours=1), turn=1)
    res = eng.rerun("toy1", 1, T0 + timedelta(days=2, hours=1), publish=True)
    assert res.published and any(line.startswith("+") for line in res.diff)
    rect = [m for m in outbox_messages(eng.store, kind="private") if str(m["Subject"]).startswith("RECTIFICATIF")]
    assert len(rect) == 3
    assert eng.store.record_for_turn("toy1", 1).orders["Bran"].source == "correction"


def test_verify_rederives_every_roll_and_detects_a_wrong_seed(eng):
    register(eng)
    eng.start_game("toy1", T0)
    eng.resolve("toy1", T0)
    assert eng.verify("toy1") == []
    assert eng.verify("toy1", seed="cd" * 32)


def test_same_inputs_give_byte_identical_mail(tmp_path):
    outputs = []
    for run in range(2):
        cfg = make_config(tmp_path / str(run))
        store = Store(cfg.database)
        e = Engine(cfg, store)
        e.new_game("toy1", T0, seed="ef" * 32)
        register(e)
        e.start_game("toy1", T0)
        feed(e, make_mail("p0@pbem.test", "GUESS 3", message_id="<fixed@x>"), T0, key="a")
        e.resolve("toy1", T0 + timedelta(days=2))
        outputs.append([(i.id, store.outbox_raw(i.id)) for i in store.outbox_items()])
        store.close()
    assert outputs[0] == outputs[1]


def test_game_plays_to_the_end_and_reveals_the_seed(eng):
    register(eng)
    eng.start_game("toy1", T0)
    now = T0
    for _ in range(4):
        now += timedelta(days=2)
        eng.due(now)
    g = eng.game("toy1")
    assert g.phase == "finished" and g.seed_revealed
    final = body(outbox_messages(eng.store, kind="digest")[-1])
    assert "Graine révélée : " + "ab" * 32 in final


def test_reply_cap_per_sender_per_hour_keeps_processing_orders(tmp_path):
    cfg = make_config(tmp_path, top={"reply_cap_per_hour": 5})
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    register(e)
    e.start_game("toy1", T0)
    for i in range(12):
        feed(e, make_mail("p0@pbem.test", f"GUESS {i % 10 + 1}", message_id=f"<spam{i}@x>"),
             T0 + timedelta(minutes=i), key=f"spam{i}")
    acks = outbox_messages(store, kind="ack", rcpt="p0@pbem.test")
    assert len(acks) == 5  # the registration ack and the first 4 order acks: the cap is reached
    assert store.current_orders("toy1", 1)["Arya"].orders[0].args == ((11 % 10) + 1,)
    feed(e, make_mail("p0@pbem.test", "GUESS 1"), T0 + timedelta(hours=2), key="later")
    assert len(outbox_messages(store, kind="ack", rcpt="p0@pbem.test")) == 6
    store.close()


def test_english_game_answers_in_english(tmp_path):
    cfg = make_config(tmp_path, extra_game={"language": "en"})
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    feed(e, make_mail("p0@pbem.test", "JOIN Arya"), T0, key="j")
    ack = body(outbox_messages(store, kind="ack")[0])
    assert "registered as Arya" in ack and "Registration closes: Wednesday 2 December 2026 at 21:00" in ack
    store.close()


def test_hostile_names_are_refused_with_a_reason_and_never_rendered_as_templates(eng):
    feed(eng, make_mail("evil@pbem.test", "INSCRIPTION {{ 7*7 }}"), T0, key="e1")
    feed(eng, make_mail("evil2@pbem.test", "INSCRIPTION [url=http://x]y[/url]"), T0, key="e2")
    assert eng.store.players("toy1") == []
    for rcpt in ("evil@pbem.test", "evil2@pbem.test"):
        text = body(outbox_messages(eng.store, rcpt=rcpt)[0])
        assert "nom invalide" in text and "49" not in text
    assert "{{ 7*7 }}" in body(outbox_messages(eng.store, rcpt="evil@pbem.test")[0])


def test_mail_for_an_unknown_game_in_a_multi_game_mailbox_asks_for_the_tag(tmp_path):
    cfg = make_config(tmp_path, more_games={"toy2": {"ruleset": "toy", "tag": "TWO", "mj": MJ_ADDRESS}})
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    e.new_game("toy2", T0, seed="cd" * 32)
    feed(e, make_mail("p0@pbem.test", "INSCRIPTION Arya", subject="inscription"), T0, key="x")
    text = body(outbox_messages(store, rcpt="p0@pbem.test")[0])
    assert "[TOY]" in text and "[TWO]" in text
    feed(e, make_mail("p0@pbem.test", "INSCRIPTION Arya", subject="inscription", to="jeu+toy2@pbem.test"), T0,
         key="y")
    assert [p.name for p in store.players("toy2")] == ["Arya"]
    store.close()


def test_a_registration_mail_speaks_for_the_new_player_and_does_not_mention_earlier_orders(eng):
    feed(eng, make_mail("p7@pbem.test", "INSCRIPTION Gendry\nAIDE\nGUESS 3\nBonjour à tous !"), T0, key="g")
    ack = body(outbox_messages(eng.store, rcpt="p7@pbem.test")[0])
    assert "inscription enregistrée sous le nom Gendry" in ack
    assert "adresse inconnue" not in ack and "INSCRIPTION <nom>" in ack  # AIDE answered for the new player
    assert "GUESS 3\n    -> ERREUR : la partie n'a pas encore commencé" in ack
    assert "Texte ignoré, qui n'est pas un ordre :\n  Bonjour à tous !" in ack
    assert "ordres précédents" not in ack


def test_rerun_starts_from_the_record_even_after_a_player_is_removed(eng):
    register(eng)
    eng.start_game("toy1", T0)
    feed(eng, make_mail("p0@pbem.test", "GUESS 9"), T0, key="a")
    eng.resolve("toy1", T0 + timedelta(days=2))
    eng.remove_player("toy1", "Arya", T0 + timedelta(days=2, hours=1))
    res = eng.rerun("toy1", 1, T0 + timedelta(days=2, hours=2))
    assert res.diff == [] and not res.state_changed


def test_cancel_makes_the_player_silent_again(eng):
    register(eng)
    eng.start_game("toy1", T0)
    for i in range(3):
        feed(eng, make_mail(f"p{i}@pbem.test", "GUESS 4"), T0, key=f"g{i}")
    assert eng.game("toy1").early_at
    feed(eng, make_mail("p1@pbem.test", "ANNULER"), T0, key="c")
    assert eng.game("toy1").early_at is None
    assert "ser Schlingue" not in eng.store.current_orders("toy1", 1)
    eng.resolve("toy1", T0 + timedelta(days=2))
    assert eng.store.record_for_turn("toy1", 1).defaults == ("ser Schlingue",)
    private = [m for m in outbox_messages(eng.store, kind="private", rcpt="p1@pbem.test") if m["X-PBEM-Turn"] == "1"]
    assert "les ordres par défaut des règles ont été appliqués" in body(private[0])


def test_a_bad_mail_never_stalls_the_other_mails_deadlines_or_sending(eng):
    register(eng)
    eng.start_game("toy1", T0)
    eng.store.store_raw([("huge", make_mail("p0@pbem.test", "RAPPORT 99999999999999999999999")),
                         ("ok", make_mail("p1@pbem.test", "GUESS 3"))], T0)
    eng.ruleset("toy1")  # the REPORT bound check answers; a crash inside any message is contained too
    done = eng.process_pending(T0)
    assert set(done) == {"huge", "ok"} and eng.store.message_count("new") == 0
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "RAPPORT attend un numéro d'étape déjà jouée" in ack


def test_mail_arriving_after_the_deadline_counts_for_the_next_step(eng):
    register(eng)
    eng.start_game("toy1", T0)
    late = T0 + timedelta(days=2, minutes=3)  # cron ran late: the deadline has passed when the mail is read
    eng.store.store_raw([("late", make_mail("p0@pbem.test", "GUESS 7"))], late)
    eng.process_pending(late)
    assert eng.store.record_for_turn("toy1", 1) is not None  # the step closed first, without this mail
    assert "Arya" in eng.store.record_for_turn("toy1", 1).defaults
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "pas de devinette à cette étape" in ack  # step 2 (sequential) is open now


def test_report_zero_resends_the_start_of_the_game(eng):
    register(eng)
    eng.start_game("toy1", T0)
    eng.resolve("toy1", T0 + timedelta(days=2))
    feed(eng, make_mail("p0@pbem.test", "RAPPORT 0"), T0 + timedelta(days=2), key="r0")
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "Début de partie" in ack and "welcome" in ack


def test_no_mail_body_or_subject_crashes_the_engine(tmp_path):
    """Property test: whatever arrives, the message ends processed (or kept as an error), never pending."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    cfg = make_config(tmp_path)
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("toy1", T0, seed="ab" * 32)
    register(e)
    e.start_game("toy1", T0)
    commands = st.sampled_from(["INSCRIPTION", "AIDE", "ETAT", "ORDRES", "RAPPORT", "POUR", "ANNULER", "FIN",
                                "GUESS", "GIFT", "ROLL", "Arya", ":", "-1", "99999999999999999999", "{{", "[b]"])
    lines = st.lists(st.one_of(st.text(max_size=40), st.lists(commands, max_size=5).map(" ".join)), max_size=6)
    counter = iter(range(10**9))

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(lines, st.text(max_size=30), st.sampled_from(["p0@pbem.test", MJ_ADDRESS, "x@y.z"]))
    def check(body_lines, subject, sender):
        key = f"fuzz{next(counter)}"
        raw = make_mail(sender, "\n".join(body_lines) or " ", subject="[TOY] " + " ".join(subject.split()),
                        message_id=f"<{key}@x>")
        store.store_raw([(key, raw)], T0)
        e.process_pending(T0)
        assert store.message_count("new") == 0
        assert store.db.execute("select status from messages where key = ?", [key]).fetchone()[0] == "done"

    check()
    store.close()


def test_undelivered_mail_is_reported_in_the_next_mj_digest_once(eng):
    register(eng)
    eng.start_game("toy1", T0)
    item = outbox_messages(eng.store, kind="private")[0]
    eng.store.update_outbox(item["Message-ID"], status="failed", last_error="550 no such user")
    eng.resolve("toy1", T0 + timedelta(days=2))
    eng.resolve("toy1", T0 + timedelta(days=3))
    digests = [body(m) for m in outbox_messages(eng.store, kind="digest")]
    assert "550 no such user" in digests[1]  # the first digest after the failure
    assert "550 no such user" not in digests[2]  # and only that one


def test_a_failing_mail_is_kept_the_mj_is_told_and_it_can_be_processed_again(eng, monkeypatch):
    register(eng)
    eng.start_game("toy1", T0)
    # on the class, not the registry's one instance: undoing an instance's patch would leave the old bound
    # method stuck on it, and later tests that patch the class would not reach it
    toy = type(eng.ruleset("toy1"))

    def broken(*args, **kwargs):
        raise RuntimeError("ruleset bug")

    monkeypatch.setattr(toy, "parse_order", broken)
    eng.store.store_raw([("bad", make_mail("p0@pbem.test", "GUESS 4", message_id="<bad@x>"))], T0)
    eng.process_pending(T0)
    (row,) = eng.store.messages("error")
    assert row.sender == "p0@pbem.test" and row.game == "toy1" and "ruleset bug" in row.verdict
    notice = body(outbox_messages(eng.store, kind="notice", rcpt=MJ_ADDRESS)[-1])
    assert "n'a pas pu être traité" in notice and "pbem mail retry bad" in notice
    monkeypatch.undo()
    assert eng.store.requeue_messages(["bad"]) == 1
    eng.process_pending(T0)
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (4,)


def test_cancel_from_a_player_without_orders_changes_nothing(eng):
    register(eng)
    eng.start_game("toy1", T0)
    for i in range(3):
        feed(eng, make_mail(f"p{i}@pbem.test", "GUESS 4"), T0, key=f"g{i}")
    feed(eng, make_mail("p0@pbem.test", "ANNULER", message_id="<c0@x>"), T0, key="c0")
    later = T0 + timedelta(minutes=6)  # (not a copy of the first: another request, minutes later)
    feed(eng, make_mail("p0@pbem.test", "ANNULER", message_id="<c1@x>"), later, key="c1")  # nothing left to cancel
    assert "rien à annuler" in body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])


def test_a_late_step_resolution_keeps_the_calendar_but_skips_the_slots_already_gone(eng):
    register(eng)
    eng.start_game("toy1", T0)
    outage_end = T0 + timedelta(days=5)  # the daemon was down; a mail arrived a day after the deadline
    eng.store.store_raw([("late", make_mail("p0@pbem.test", "GUESS 7"))], T0 + timedelta(days=3))
    eng.process_pending(outage_end)
    rec = eng.store.record_for_turn("toy1", 1)
    assert rec.resolved_at == T0 + timedelta(days=2)  # the step closed at its deadline
    g = eng.game("toy1")
    # step 2 lasts a day ("short"): its slots are T0 + 3, 4, 5, 6 days; T0 + 5 days is now, so the
    # first slot leaving at least half a step is T0 + 6 days
    assert g.turn == 2 and g.deadline == T0 + timedelta(days=6)
    # the pass that read the mail says that it closed the step (once), as it says what its deadlines fired
    assert eng.due(outage_end)[:1] == ["toy1: turn 1 resolved"]
    assert "toy1: turn 1 resolved" not in eng.due(outage_end)


def test_a_failed_late_resolution_takes_back_the_letters_it_queued(eng, monkeypatch):
    """A late mail closes the step first; if that resolution fails, nothing it queued in the batch is sent."""
    from pbem.engine.steps import turns
    from pbem.outbox import Letter

    register(eng)
    eng.start_game("toy1", T0)
    before = {item.id for item in eng.store.outbox_items()}

    tried: list[str] = []

    def failing_resolve(table, now, **kw):
        tried.append(table.id)
        with table.store.atomic():
            table.outgoing.queue([Letter("half-done", table.id, 1, "digest", "mj@pbem.test", "Tour 1", "à moitié")],
                                 now)
            raise RuntimeError("a ruleset bug")

    monkeypatch.setattr(turns, "resolve", failing_resolve)  # the late-mail path (`schedule.close_before`) resolves
    late = T0 + timedelta(days=3)
    eng.store.store_raw([("late", make_mail("p0@pbem.test", "GUESS 7"))], late)
    eng.process_pending(late)
    new = [item for item in eng.store.outbox_items() if item.id not in before]
    assert tried == ["toy1"]  # (the late path did try to close the step)
    assert [item.kind for item in new] == ["ack"]  # the mail is still answered, against the open step
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (7,)


def _password_game(tmp_path, **extra):
    cfg = make_config(tmp_path, extra_game={"passwords": True, **extra})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    return e


def test_passwords_guard_players_and_the_mj(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_TEST_MJ_PASSWORD", "corbeau")
    e = _password_game(tmp_path, mj_password_env="PBEM_TEST_MJ_PASSWORD")
    feed(e, make_mail("p0@pbem.test", "INSCRIPTION Arya\nMOTDEPASSE licorne"), T0, key="r0")
    feed(e, make_mail("p1@pbem.test", "INSCRIPTION Bran\nMOTDEPASSE dragon"), T0, key="r1")
    e.start_game("toy1", T0)
    later = T0 + timedelta(hours=1)
    assert feed(e, make_mail("p0@pbem.test", "GUESS 3"), later, key="o1").startswith("rejected")
    assert "Arya" not in e.store.current_orders("toy1", 1)
    assert feed(e, make_mail("p0@pbem.test", "MOTDEPASSE licorne\nGUESS 3"), later, key="o2").startswith("ok")
    assert e.store.current_orders("toy1", 1)["Arya"].orders[0].args == (3,)
    # a forged MJ mail would read every hidden fact with ETAT: without the MJ password it is refused
    assert feed(e, make_mail(MJ_ADDRESS, "ETAT"), later, key="m1").startswith("rejected")
    assert feed(e, make_mail(MJ_ADDRESS, "MOTDEPASSE dragon\nETAT"), later, key="m2").startswith("rejected")
    assert feed(e, make_mail(MJ_ADDRESS, "MOTDEPASSE corbeau\nETAT"), later, key="m3").startswith("ok")
    acks = outbox_messages(e.store, kind="ack", rcpt=MJ_ADDRESS)
    assert len(acks) == 1 and "corbeau" not in body(acks[0])  # the password line is never echoed


def test_passwords_without_an_mj_password_refuse_the_mj_and_say_how_to_fix_it(tmp_path):
    e = _password_game(tmp_path)
    assert feed(e, make_mail(MJ_ADDRESS, "ETAT"), T0, key="m1").startswith("rejected")
    notices = [body(m) for m in outbox_messages(e.store, kind="notice", rcpt=MJ_ADDRESS)]
    assert any("mj_password_env" in text for text in notices), notices


@pytest.mark.parametrize(("language", "said"), [("fr", "partie toy1\u00a0: le mot de passe du MJ est illisible\u00a0: "),
                                                ("en", "game toy1: the MJ password cannot be read: ")])
def test_an_mj_password_that_cannot_be_read_is_logged_in_the_games_language(tmp_path, monkeypatch, caplog,
                                                                             language, said):
    monkeypatch.delenv("PBEM_TEST_MJ_PASSWORD_UNSET", raising=False)
    e = _password_game(tmp_path, mj_password_env="PBEM_TEST_MJ_PASSWORD_UNSET", language=language)
    with caplog.at_level("ERROR", logger="pbem"):
        assert feed(e, make_mail(MJ_ADDRESS, "MOTDEPASSE corbeau\nETAT"), T0, key="m1").startswith("rejected")
    assert any(r.getMessage().startswith(said) for r in caplog.records), [r.getMessage() for r in caplog.records]
