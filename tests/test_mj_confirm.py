"""Certain, or ask (issues #21 and #19): an MJ command with a guess in it, or one that destroys or sends what
cannot be taken back, waits for the MJ's OUI to our answer; a destructive one needs the one-time code of that
answer (or the MJ password).  Through the real engine (toy game), with what was done checked in the store and
in the mails that went out, and a real `pbem tick` killed between the OUI and its commit.
"""

from __future__ import annotations

import mailbox
import os
import re
import subprocess
from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS, body, make_mail, outbox_messages, pbem_command, pbem_env, toy_config_toml
from mjseat_helpers import PLAYERS, T0, Table, hours, to

from pbem import config as configmod
from pbem.engine import Engine
from pbem.engine.desk import confirm
from pbem.store import Store

MJ2 = "mj2@pbem.test"


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.close()


def _code(answer: str) -> str:
    found = re.search(r"Code : ([A-Z2-9]{3}-[A-Z2-9]{3})", answer)
    assert found, answer
    return found.group(1)


def _seat(t: Table, name: str) -> str:
    return t.store.player("toy1", name).status


# --- a guess is asked, not done; OUI does it, once ---


def test_a_guessed_command_is_echoed_and_done_by_OUI_once(table):
    before = table.deadline()
    answer = table.mj("prolonge de 48")  # no unit: hours is a guess
    asked = table.last_id("ack", MJ_ADDRESS)
    assert "À CONFIRMER : J'ai compris : date limite de l'étape 1 repoussée au mercredi 5 février 2025 à 14 h" in answer
    assert "(à vérifier : la durée)" in answer and "Répondez à ce courriel par OUI" in answer
    assert "Code :" not in answer  # nothing that cannot be undone: no code
    assert table.deadline() == before
    (row,) = table.store.confirmations("toy1")
    assert row.asker == MJ_ADDRESS and row.status == "pending"
    answer = table.mj_reply("oui, vas-y")
    assert "OK : confirmation reçue" in answer and "repoussée au mercredi 5 février 2025 à 14 h" in answer
    assert table.deadline() == before + hours(48)
    assert table.store.confirmations("toy1") == []
    answer = table.mj_answer("oui", asked)  # the same OUI again: nothing twice
    assert "REFUSÉ : déjà fait" in answer and table.deadline() == before + hours(48)


def test_OUI_outside_our_confirmation_does_nothing(table):
    table.mj("prolonge de 48")
    before = table.deadline()
    answer = table.mj("oui")  # a new mail, no In-Reply-To
    assert "OK" not in answer.split("--- Où en est la partie ---")[0].replace("AIDE", "")
    assert table.deadline() == before and len(table.store.confirmations("toy1")) == 1


def test_non_drops_it_and_a_correction_replaces_it(table):
    before = table.deadline()
    table.mj("prolonge de 48")
    answer = table.mj_reply("non")
    assert "commande abandonnée : rien n'est fait" in answer
    assert table.store.confirmations("toy1") == [] and table.deadline() == before
    table.mj("prolonge de 48")
    answer = table.mj_reply("non, plutôt jusqu'au jeudi 6 février à 14 h")
    assert table.deadline() == datetime(2025, 2, 6, 13, 0, tzinfo=UTC), answer
    rows = table.store.confirmations("toy1", pending=False)
    assert [r.status for r in rows] == ["dropped", "replaced"]


def test_a_confirmation_expires_and_dies_with_its_step(tmp_path):
    t = Table(tmp_path, deadlines={"turn": "5d", "short": "1d"})
    before = t.deadline()
    t.mj("prolonge de 48")
    answer = t.mj_reply("oui", at=T0 + confirm.CONFIRM_WITHIN + hours(1))
    assert "REFUSÉ : la demande a expiré" in answer and t.deadline() == before
    t.mj("prolonge de 12", at=T0 + timedelta(days=4))
    asked = t.last_id("ack", MJ_ADDRESS)
    t.due(T0 + timedelta(days=5))  # step 1 is resolved meanwhile
    answer = t.mj_answer("oui", asked, at=T0 + timedelta(days=5, hours=1))
    assert "REFUSÉ : la partie a avancé depuis la demande" in answer
    t.close()


def test_only_the_MJ_address_it_was_asked_of_confirms(tmp_path):
    t = Table(tmp_path, mj=[MJ_ADDRESS, MJ2])
    before = t.deadline()
    t.mj("prolonge de 48")
    ack = t.last_id("ack", MJ_ADDRESS)
    t.mail(MJ2, "oui", "Re: [TOY] MJ", reply_to=ack)
    answer = t.last("ack", MJ2)
    assert f"REFUSÉ : cette demande de confirmation a été envoyée à {MJ_ADDRESS}" in answer
    assert t.deadline() == before
    t.close()


# --- a destructive command: the code, or the password ---


def test_a_destructive_command_waits_for_OUI_with_the_code_of_our_answer(table):
    answer = table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    assert "À CONFIRMER : J'ai compris : RETIRE Bran maintenant : Bran ne reçoit plus rien" in answer
    assert "cela ne se défait pas : j'attends votre confirmation" in answer
    code = _code(answer)
    assert _seat(table, "Bran") == "active"
    assert [k for _t, k, _s, _b in table.new()] == ["ack"]  # nothing else went out
    answer = table.mj_answer("oui", asked)  # without the code
    assert "REFUSÉ : il manque le code de la demande" in answer and _seat(table, "Bran") == "active"
    answer = table.mj_answer(f"oui {code.lower().replace('-', '')}", asked)
    assert "Bran quitte la partie" in answer and _seat(table, "Bran") == "removed"


def test_three_wrong_codes_drop_it(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    for guess in ("ZZZ-ZZZ", "YYY-YYY"):  # (three tries are three different mails: a copy is one request)
        assert "il manque le code" in table.mj_answer(f"oui {guess}", asked)
    assert "3 essais sans le bon code : la demande est abandonnée" in table.mj_answer("oui XXX-XXX", asked)
    assert table.store.confirmations("toy1") == [] and _seat(table, "Bran") == "active"


def test_the_MJ_password_carries_a_destructive_command_out_at_once_and_every_MJ_is_told(tmp_path, monkeypatch):
    monkeypatch.setenv("TOY_MJ_PASSWORD", "sel-et-poivre")
    t = Table(tmp_path, mj=[MJ_ADDRESS, MJ2], mj_password_env="TOY_MJ_PASSWORD")  # (passwords = false)
    t.new()
    answer = t.mj("Retire Bran, il ne répond plus\nMOTDEPASSE sel-et-poivre")
    assert "Bran quitte la partie" in answer and "sel-et-poivre" not in answer
    mails = t.new()
    for mj in (MJ_ADDRESS, MJ2):
        (told,) = to(mails, mj, "notice")
        assert told[0] == "[TOY] commande du MJ exécutée"
        assert "RETIRE Bran" not in told[1] or "Bran quitte la partie" in told[1]
        assert f"demandée par {MJ_ADDRESS}" in told[1] and "avec le mot de passe du MJ" in told[1]
    answer = t.mj("Retire ser Schlingue\nMOTDEPASSE pas-le-bon")  # a wrong password is none: the code is asked
    assert "À CONFIRMER" in answer and _seat(t, "ser Schlingue") == "active"
    t.close()


def test_every_MJ_address_is_told_of_a_confirmed_destructive_command(tmp_path):
    t = Table(tmp_path, mj=[MJ_ADDRESS, MJ2])
    t.new()
    t.mj_confirmed("Remplace Bran par Jeanne Dupont <jeanne@pbem.test>")
    mails = t.new()
    for mj in (MJ_ADDRESS, MJ2):
        (told,) = to(mails, mj, "notice")
        assert "la place de Bran est désormais tenue par Jeanne Dupont" in told[1]
        assert "et confirmée avec le code à usage unique envoyé à mj@pbem.test" in told[1]
    t.close()


# --- nobody else gets into the MJ's seat ---


def test_a_player_who_writes_an_MJ_command_or_its_OUI_carries_nothing_out(table):
    table.mail(PLAYERS["Arya"], "Retire Bran\nProlonge de 24h")
    assert _seat(table, "Bran") == "active" and table.store.confirmations("toy1") == []
    answer = table.mj("Retire Bran")
    code = _code(answer)
    ack = table.last_id("ack", MJ_ADDRESS)
    table.mail(PLAYERS["Arya"], f"OUI {code}", "Re: [TOY] MJ", reply_to=ack)  # even with the code
    assert _seat(table, "Bran") == "active"
    assert [r.status for r in table.store.confirmations("toy1")] == ["pending"]


def test_a_forged_MJ_mail_gets_its_confirmation_at_the_MJ_address_never_at_its_Reply_To(table):
    """(auth = none: anyone can write From the MJ; he cannot read the MJ's mailbox, where the code goes.)"""
    raw = make_mail(MJ_ADDRESS, "Retire Bran", subject="[TOY] MJ", message_id="<forged@evil.test>",
                    Reply_To="attaquant@evil.test")
    table.store.store_raw([("forged", raw)], T0)
    table.engine.process_message("forged", raw, T0)
    acks = [m for m in outbox_messages(table.store, kind="ack") if str(m["In-Reply-To"]) == "<forged@evil.test>"]
    assert [str(m["To"]) for m in acks] == [MJ_ADDRESS] and not outbox_messages(table.store, rcpt="attaquant@evil.test")
    # an OUI without the code, in reply to that answer, does nothing
    raw = make_mail(MJ_ADDRESS, "OUI", subject="Re: [TOY] MJ", message_id="<forged2@evil.test>",
                    In_Reply_To=str(acks[0]["Message-ID"]))
    table.store.store_raw([("forged2", raw)], T0)
    table.engine.process_message("forged2", raw, T0)
    assert _seat(table, "Bran") == "active"


def test_the_confirmations_are_listed_by_the_cli(tmp_path):
    from click.testing import CliRunner

    from pbem.cli import main

    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(toy_config_toml(tmp_path))
    cfg = configmod.load(cfg_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    for name, address in PLAYERS.items():
        eng.add_player("toy1", name, address, T0)
    eng.start_game("toy1", T0)
    raw = make_mail(MJ_ADDRESS, "Retire Bran à la fin du tour", subject="[TOY] MJ", message_id="<c1@pbem.test>")
    store.store_raw([("c1", raw)], T0)
    eng.process_message("c1", raw, T0)
    store.close()
    out = CliRunner().invoke(main, ["--config", str(cfg_path), "game", "confirmations", "toy1", "--now",
                                    T0.isoformat()])
    assert out.exit_code == 0, out.output
    assert "RETIRE Bran à la fin de l'étape 1" in out.output and "code" in out.output and "mj@pbem.test" in out.output
    out = CliRunner().invoke(main, ["--config", str(cfg_path), "game", "confirmations", "nope"])
    assert out.exit_code != 0 and "Traceback" not in out.output


# --- a crash between the OUI and its commit carries nothing out twice ---


def test_a_pass_killed_after_reading_the_OUI_runs_it_once(tmp_path):
    cfg_path = tmp_path / "config.toml"
    cfg_path.write_text(toy_config_toml(tmp_path))
    cfg = configmod.load(cfg_path)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("toy1", T0, seed="ab" * 32)
    for name, address in PLAYERS.items():
        eng.add_player("toy1", name, address, T0)
    eng.start_game("toy1", T0)
    raw = make_mail(MJ_ADDRESS, "Retire Bran", subject="[TOY] MJ", message_id="<c1@pbem.test>")
    store.store_raw([("c1", raw)], T0)
    eng.process_message("c1", raw, T0)
    (ack,) = outbox_messages(store, kind="ack", rcpt=MJ_ADDRESS)
    code = _code(body(ack))
    store.close()
    inbox = mailbox.Maildir(str(tmp_path / "inbox"))
    inbox.add(make_mail(MJ_ADDRESS, f"OUI {code}", subject="Re: [TOY] MJ", message_id="<c2@pbem.test>",
                        In_Reply_To=str(ack["Message-ID"])))
    now = (T0 + hours(1)).isoformat()
    killed = subprocess.run(pbem_command(cfg_path, "tick", "--now", now), env={**pbem_env(),
                            "PBEM_CRASH_AT": "batch-before-commit"}, capture_output=True, text=True, timeout=120)
    assert killed.returncode != 0
    store = Store(cfg.database)
    assert store.player("toy1", "Bran").status == "active"  # nothing of the killed pass stayed
    store.close()
    done = subprocess.run(pbem_command(cfg_path, "tick", "--now", now), env=pbem_env(), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(pbem_command(cfg_path, "tick", "--now", now), env=pbem_env(), capture_output=True,
                          text=True, timeout=120)
    store = Store(cfg.database)
    assert store.player("toy1", "Bran").status == "removed"
    assert [r.status for r in store.confirmations("toy1", pending=False)] == ["done"]
    told = [m for m in outbox_messages(store, rcpt=MJ_ADDRESS, kind="notice")
            if str(m["Subject"]) == "[TOY] commande du MJ exécutée"]
    assert len(told) == 1  # one removal, told once
    assert len([e for e in store.journal("toy1") if e.action == "destructive command"]) == 1
    store.close()
    _ = os


# --- a code serves once, while its request is open (an outside review: a code seen once kept working) ---


def test_a_code_carries_a_new_command_once_and_never_after_its_request_expired(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    code = _code(table.last("ack", MJ_ADDRESS))
    # past the 48 hours of the request: the code no longer carries a command written beside it
    late = table.now + hours(72)
    answer = table.mj_answer(f"Retire Arya\n{code}", asked, at=late)
    assert "Arya quitte la partie" not in answer and "À CONFIRMER" in answer
    assert _seat(table, "Arya") == "active"


def test_a_code_is_spent_on_the_command_it_carried(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    code = _code(table.last("ack", MJ_ADDRESS))
    answer = table.mj_answer(f"Retire Arya\n{code}", asked)  # within the request, from the MJ: carried out
    assert "Arya quitte la partie" in answer and _seat(table, "Arya") != "active"
    assert [r.status for r in table.store.confirmations("toy1", pending=False)] == ["replaced"]
    answer = table.mj_answer(f"Retire ser Schlingue\n{code}", asked)  # the same code again: asked anew
    assert "quitte la partie" not in answer.split("À CONFIRMER")[0] and _seat(table, "ser Schlingue") == "active"


# --- every wrong code counts toward the three tries, whatever form it took (issue #19) ---


def _tries(t: Table) -> list[tuple[str, int]]:
    return [(r.status, r.tries) for r in t.store.confirmations("toy1", pending=False)][:1]


def test_wrong_codes_beside_a_command_or_alone_count_toward_the_three_tries(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    code = _code(table.last("ack", MJ_ADDRESS))
    answer = table.mj_answer("Retire Arya ZZ2-ZZ3", asked)  # a wrong code written beside a command
    assert _tries(table) == [("pending", 1)]
    assert "ZZ2-ZZ3\n    -> REFUSÉ : ce n'est pas le code de la demande : il vous reste 2 essais avant" in answer
    answer = table.mj_answer("zz4 zz5", asked)  # alone, no OUI, split in two
    assert _tries(table) == [("pending", 2)] and "il vous reste 1 essai avant" in answer
    answer = table.mj_answer("Retire Arya\nZZ6ZZ7", asked)
    assert _tries(table) == [("dropped", 3)]
    assert "3 essais sans le bon code : la demande est abandonnée" in answer
    answer = table.mj_answer(f"oui {code}", asked)  # the right code comes too late
    assert "REFUSÉ : cette demande n'attend plus de réponse" in answer
    assert _seat(table, "Bran") == "active" and _seat(table, "Arya") == "active"


def test_each_wrong_code_of_one_mail_counts_once(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    code = _code(table.last("ack", MJ_ADDRESS))
    answer = table.mj_answer("oui AA2-BB3", asked)  # an OUI with a wrong code: one try, not two
    assert _tries(table) == [("pending", 1)]
    assert "il manque le code de la demande (ou il est faux)" in answer and "il vous reste 2 essais" in answer
    # two guesses beside the right one: they close the request before it is believed
    answer = table.mj_answer(f"oui CC4-DD5 EE6-FF7 {code} CC4-DD5", asked)
    assert _tries(table) == [("dropped", 3)] and _seat(table, "Bran") == "active", answer


def test_ordinary_words_are_no_codes(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    answer = table.mj_answer("Bravo pour le sud-est : BANANE, ARRETE, ABC DEF, en 2025.", asked)
    assert _tries(table) == [("pending", 0)] and "essai" not in answer


def test_the_tries_left_are_said_in_english(tmp_path):
    t = Table(tmp_path, language="en")
    t.mj("Remove Bran")
    asked = t.last_id("ack", MJ_ADDRESS)
    answer = t.mj_answer("Remove Arya ZZ2-ZZ3", asked)
    assert "ZZ2-ZZ3\n    -> REFUSED: this is not the request's code: 2 tries left before it is dropped" in answer
    answer = t.mj_answer("yes ZZ4-ZZ5", asked)
    assert "1 try left" in answer
    t.close()


@pytest.mark.parametrize(("text", "codes"), [
    ("oui HX2-T37", ["HX2-T37"]), ("oui hx2t37, merci", ["HX2-T37"]), ("OUI HX2 T37", ["HX2-T37"]),
    ("ZZZ-ZZZ puis hx0-t37", ["ZZZ-ZZZ", "HX0-T37"]), ("AB2-CD3 AB2-CD3", ["AB2-CD3"]),
    ("oui zz4 zz5", ["ZZ4-ZZ5"]), ("le sud-est, BANANE, ARRETE, ABC DEF, tour 3, en 2025, 14h30, les 250", []),
    ("oui, plutôt 21h-22h, ou 21h22h, ou 21h 22h, ou 9h3-10h", []), ("OUI 21H-22H", []), ("oui 2H1-X7K", ["2H1-X7K"]),
])
def test_a_code_is_a_token_with_the_shape_of_one(text, codes):
    assert confirm.offered_codes(text) == codes


def test_a_wrong_code_beside_the_right_one_counts_and_promises_no_tries_on_a_closed_request(table):
    table.mj("Retire Bran")
    asked = table.last_id("ack", MJ_ADDRESS)
    code = _code(table.last("ack", MJ_ADDRESS))
    answer = table.mj_answer(f"Retire Arya {code}\nZZ2-ZZ3", asked)  # the right code spent, a wrong one beside
    assert "Arya quitte la partie" in answer and _tries(table) == [("replaced", 1)]
    assert "ZZ2-ZZ3\n    -> REFUSÉ : ce n'est pas le code de la demande\n" in answer
