"""Mail from addresses that play in no game: one short answer a day saying how to join, none to bulk mail;
an untagged stranger's mail is not read as orders of the only game configured."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS, body, make_config, make_mail, outbox_messages

from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def make_engine(tmp_path, start: bool = True, **config) -> Engine:
    cfg = make_config(tmp_path, **config)
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    if start:
        e.start_game("toy1", T0)
    return e


@pytest.fixture
def eng(tmp_path):
    e = make_engine(tmp_path)
    yield e
    e.store.close()


def feed(e: Engine, raw: bytes, key: str, when: datetime = T0) -> str:
    e.store.store_raw([(key, raw)], when)
    return e.process_message(key, raw, when)


def test_a_stranger_gets_one_short_answer_a_day_saying_how_to_join(eng):
    assert feed(eng, make_mail("nobody@example.org", "Bonjour\nGUESS 3\nESCOUADE Fitz", message_id="<s1@x>"),
                "s1") == "stranger: told how to join"
    (note,) = outbox_messages(eng.store, rcpt="nobody@example.org")
    assert note["X-PBEM-Kind"] == "stranger"
    text = body(note)
    assert "Votre adresse n'est inscrite dans aucune partie" in text
    assert "[TOY] Toy : la partie est en cours et les inscriptions sont closes" in text
    assert "GUESS 3" not in text and "adresse inconnue" not in text  # no ack of its lines
    assert eng.store.current_orders("toy1", 1) == {}
    later = T0 + timedelta(hours=20)
    assert feed(eng, make_mail("nobody@example.org", "GUESS 4", message_id="<s2@x>"), "s2",
                later) == "stranger: already told how to join today"
    assert len(outbox_messages(eng.store, rcpt="nobody@example.org")) == 1
    assert feed(eng, make_mail("nobody@example.org", "GUESS 5", message_id="<s3@x>"), "s3",
                T0 + timedelta(days=1, minutes=1)) == "stranger: told how to join"


def test_two_stranger_mails_in_one_batch_get_one_answer(eng):
    for i in range(3):
        eng.store.store_raw([(f"b{i}", make_mail("nobody@example.org", "hello", message_id=f"<b{i}@x>"))],
                            T0)
    eng.process_pending(T0)
    assert len(outbox_messages(eng.store, rcpt="nobody@example.org")) == 1


@pytest.mark.parametrize(("headers", "sender"), [
    ({"X_Mailer": "phpBB3"}, "forum@jdr.example"),  # a forum notification
    ({}, "noreply@forum.example"),
    ({"Feedback_ID": "campaign:123:newsletter"}, "hello@shop.example"),  # a newsletter
    ({"X_Spam_Flag": "YES"}, "winner@lottery.example"),  # spam the server marked
])
def test_bulk_mail_from_strangers_gets_no_answer_at_all(eng, headers, sender):
    verdict = feed(eng, make_mail(sender, "Nouveau message dans le sujet « Pour Ma Belle »", **headers), "k")
    assert verdict.startswith("silent: stranger, bulk")
    assert outbox_messages(eng.store, rcpt=sender) == []


def test_with_one_game_an_untagged_stranger_mail_is_not_taken_as_orders(tmp_path):
    e = make_engine(tmp_path, start=False)  # registration open
    verdict = feed(e, make_mail("nobody@example.org", "Salut, on se fait une partie ?", subject="coucou"), "k")
    assert verdict == "stranger: told how to join"
    text = body(outbox_messages(e.store, rcpt="nobody@example.org")[0])
    assert "les inscriptions sont ouvertes jusqu'au mercredi 2 décembre 2026 à 21 h" in text
    assert "« INSCRIPTION <nom de votre personnage> »" in text
    assert [p.name for p in e.store.players("toy1")] == ["Arya", "Bran"]
    # but a registration is read, tag or not
    assert feed(e, make_mail("olenna@example.org", "INSCRIPTION Olenna", subject="inscription"), "j").startswith("ok")
    assert "Olenna" in [p.name for p in e.store.players("toy1")]


def test_with_several_games_a_stranger_is_told_about_each_and_the_mj_asked_which(tmp_path):
    cfg = make_config(tmp_path, more_games={"pmb1": {"ruleset": "pmb", "tag": "PMB", "mj": MJ_ADDRESS}})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    assert feed(e, make_mail("nobody@example.org", "bonjour", subject="question"), "k") == "stranger: told how to join"
    text = body(outbox_messages(e.store, rcpt="nobody@example.org")[0])
    assert "[TOY] Toy : les inscriptions sont ouvertes" in text
    assert "[PMB] Pour Ma Belle : la partie n'est pas encore ouverte" in text
    assert feed(e, make_mail(MJ_ADDRESS, "ETAT", subject="question"), "m") == "no game"
    assert "plusieurs parties" in body(outbox_messages(e.store, rcpt=MJ_ADDRESS)[0])
    e.store.close()


def test_a_player_is_answered_as_before(eng):
    assert feed(eng, make_mail("p0@pbem.test", "GUESS 3", subject="untagged"), "k") == "ok (1 lines, 0 errors)"


def _two_games(tmp_path):
    """A mailbox with two games; Arya plays in both, Bran in the toy game only."""
    cfg = make_config(tmp_path, more_games={"toy2": {"ruleset": "toy", "tag": "DEUX", "title": "Toy deux",
                                                     "mj": MJ_ADDRESS, "registration": "1d"},
                                            "toy3": {"ruleset": "toy", "tag": "TROIS", "title": "Toy trois",
                                                     "mj": MJ_ADDRESS, "registration": "1d"}})
    e = Engine(cfg, Store(cfg.database))
    for gid in ("toy1", "toy2", "toy3"):
        e.new_game(gid, T0, seed="ab" * 32)
    e.add_player("toy1", "Arya", "arya@pbem.test", T0)
    e.add_player("toy2", "Arya", "arya@pbem.test", T0)
    e.add_player("toy1", "Bran", "bran@pbem.test", T0)
    e.add_player("toy3", "Cersei", "cersei@pbem.test", T0)
    e.add_player("toy3", "Davos", "davos@pbem.test", T0)
    return e


def test_a_player_of_several_games_without_a_tag_is_asked_which_every_time(tmp_path):
    e = _two_games(tmp_path)
    for i in range(3):  # not once a day: he plays, he is no stranger
        verdict = feed(e, make_mail("arya@pbem.test", "GUESS 3", subject="mes ordres", message_id=f"<w{i}@x>"),
                       f"w{i}", T0 + timedelta(minutes=10 * i))
        assert verdict == "no game: plays in toy1, toy2, asked which"
    answers = outbox_messages(e.store, rcpt="arya@pbem.test")
    assert len(answers) == 3
    text = body(answers[-1])
    assert "Pour quelle partie ? Votre message n'a pas d'étiquette, et votre adresse est inscrite dans plusieurs " \
           "parties : il n'a pas été lu comme des ordres." in text
    assert "  [TOY]  Toy\n  [DEUX]  Toy deux\n" in text and "TROIS" not in text
    assert "  [TOY] mes ordres" in text
    assert "aucune partie" not in text
    # in the names of the mailbox's games, not « pbem »
    assert answers[-1]["From"].addresses[0].display_name == "Toy, Toy deux et Toy trois"
    e.store.close()


def test_a_player_who_writes_with_another_games_tag_is_told_which_game_he_plays(tmp_path):
    e = _two_games(tmp_path)
    verdict = feed(e, make_mail("bran@pbem.test", "GUESS 3", subject="Re: [TROIS] ordres"), "b")
    assert verdict == "not in this game: plays in toy1, asked which"
    (answer,) = outbox_messages(e.store, rcpt="bran@pbem.test")
    text = body(answer)
    assert "Pour quelle partie ? Votre message porte l'étiquette [TROIS], mais votre adresse n'est pas inscrite " \
           "dans cette partie" in text
    assert "Vous jouez dans [TOY] Toy. Renvoyez votre message avec l'étiquette de la partie dans l'objet :\n" \
           "  [TOY] ordres" in text
    assert answer["From"].addresses[0].display_name == "Toy"  # his one game's name
    assert e.store.current_orders("toy3", 0) == {} and e.store.current_orders("toy1", 0) == {}
    # a player of two games who writes to the third is listed both of his
    feed(e, make_mail("arya@pbem.test", "GUESS 3", subject="[TROIS] ordres"), "a")
    text = body(outbox_messages(e.store, rcpt="arya@pbem.test")[0])
    assert "l'étiquette [TROIS]" in text and "  [TOY]  Toy\n  [DEUX]  Toy deux\n" in text
    e.store.close()


def test_a_player_may_still_register_in_another_game_with_its_tag(tmp_path):
    e = _two_games(tmp_path)
    assert feed(e, make_mail("bran@pbem.test", "INSCRIPTION Bran", subject="[DEUX] inscription"),
                "r").startswith("ok")
    assert "Bran" in [p.name for p in e.store.players("toy2")]
    e.store.close()


def test_a_stranger_of_a_mailbox_with_one_game_is_answered_in_its_name(tmp_path):
    e = make_engine(tmp_path)
    feed(e, make_mail("nobody@example.org", "bonjour", subject="question"), "s")
    (note,) = outbox_messages(e.store, rcpt="nobody@example.org")
    assert note["From"].addresses[0].display_name == "Toy"
    e.store.close()
