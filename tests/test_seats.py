"""A newcomer's briefing holds everything the departing player was told, and nothing more: checked on a Pour Ma
Belle game played by mail (hidden roles, private investigations), against the mails the departing address got."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from helpers import body, make_config, make_mail, outbox_messages

from pbem.engine import Engine
from pbem.games.pmb.bots import random_orders
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def _game(tmp_path, seed: str) -> tuple[Engine, Store]:
    cfg = make_config(tmp_path, ruleset="pmb", game_id="pmb1", tag="PMB")
    store = Store(cfg.database)
    e = Engine(cfg, store)
    e.new_game("pmb1", T0, seed=seed)
    for i in range(16):
        e.add_player("pmb1", f"Joueur {i:02d}", f"p{i}@pbem.test", T0)
    e.start_game("pmb1", T0)
    now = T0
    for step in range(3):  # three steps played by mail, the bots' orders
        g = e.game("pmb1")
        state = e.state(g)
        rng = random.Random(f"{seed}-{step}")
        for n, p in enumerate(store.players("pmb1")):
            if any(pr.player == p.name for pr in e.ruleset("pmb1").prompts(state)):
                lines = random_orders(state, p.name, rng.randrange(1 << 30))
                raw = make_mail(p.address, "\n".join(lines), "[PMB] ordres", message_id=f"<s{step}-{n}@pbem.test>")
                store.store_raw([(f"s{step}-{n}", raw)], now)
        e.process_pending(now)
        now = e.game("pmb1").deadline
        e.due(now)
    return e, store


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]


@pytest.mark.parametrize("seed", ["31" * 32, "42" * 32])
def test_the_briefing_holds_what_the_departing_player_was_told_and_nothing_more(tmp_path, seed):
    e, store = _game(tmp_path, seed)
    leaving = store.players("pmb1")[0]  # a chef of a rebel team with these seeds: many private facts
    told = "\n\n".join(body(m) for m in outbox_messages(store, rcpt=leaving.address))
    e.replace_player("pmb1", leaving.name, "nouveau@pbem.test", T0 + timedelta(days=7), new_name="Jeanne")
    brief = body(outbox_messages(store, rcpt="nouveau@pbem.test")[0])
    history = brief.split("=== Votre situation ===")[0].split("\n\n", 2)[2]  # after the greeting
    chapters = re.split(r"^=== (.+) ===$", history, flags=re.M)[1:]
    assert [t for t in chapters[0::2]] == ["Début de partie", "Tour 1", "Tour 2", "Tour 3"]
    seen = 0
    for text in chapters[1::2]:
        for paragraph in _paragraphs(text):
            if paragraph in ("(rien de particulier)",):
                continue
            assert paragraph in told, paragraph  # nothing the departing player was not told
            seen += 1
    assert seen >= 4
    # and everything they were told of the steps is there: each event paragraph of their private letters
    for m in outbox_messages(store, rcpt=leaving.address, kind="private"):
        letter = body(m).split("--- Votre situation ---")[0]
        for paragraph in _paragraphs(letter)[2:]:
            if paragraph.startswith(("Prochaine étape", "Répondez", "Nous n'avons pas reçu", "Rien de particulier",
                                     "AIDE redonne")) or "\n      exemple : " in paragraph:
                continue  # (the start mail's list of orders, each with its example: the prompt of then)
            if paragraph.startswith("Pour ") and ("vos ordres sont attendus" in paragraph
                                                  or "pas d'ordre à donner" in paragraph):
                continue  # (the prompt for the step then open: the briefing says what is expected now)
            assert paragraph in brief, paragraph
    # the situation now is the seat's own view, the orders expected are the seat's
    assert e.status_text("pmb1", leaving.name).strip().replace("\u00a0", " ") in brief  # (body() reads them plain)
    store.close()


def test_the_departing_address_gets_nothing_after_the_hand_over(tmp_path):
    e, store = _game(tmp_path, "53" * 32)
    leaving = store.players("pmb1")[3]
    e.replace_player("pmb1", leaving.name, "nouveau@pbem.test", T0 + timedelta(days=7), new_name="Jeanne")
    before = len(outbox_messages(store, rcpt=leaving.address))
    now = e.game("pmb1").deadline
    e.due(now)
    assert len(outbox_messages(store, rcpt=leaving.address)) == before
    assert [m["Subject"] for m in outbox_messages(store, rcpt="nouveau@pbem.test", kind="private")][-1] \
        .startswith("[PMB] Tour 4")
    # a mail from the old address is a stranger's now
    raw = make_mail(leaving.address, "ETAT", "[PMB] etat", message_id="<old@pbem.test>")
    store.store_raw([("old", raw)], now)
    e.process_pending(now)
    assert "Rôle" not in body(outbox_messages(store, rcpt=leaving.address)[-1])
    store.close()
