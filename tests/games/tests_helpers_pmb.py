"""Start a 40-player Pour Ma Belle game through the engine and collect each player's start mail."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

from helpers import make_config

from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def start_mails(tmp: Path, seed: str) -> tuple[Any, dict[str, str]]:
    cfg = make_config(tmp, ruleset="pmb", game_id="pmb1", tag="PMB")
    store = Store(cfg.database)
    try:
        e = Engine(cfg, store)
        e.new_game("pmb1", T0, seed=seed)
        for i in range(40):
            e.add_player("pmb1", f"Joueur {i:02d}", f"p{i}@pbem.test", T0)
        e.start_game("pmb1", T0)
        by_address = {p.address: p.name for p in store.players("pmb1")}
        mails = {}
        for item in store.outbox_items(game="pmb1"):
            if item.kind == "private":
                msg = message_from_bytes(store.outbox_raw(item.id), policy=default)
                mails[by_address[item.rcpt]] = msg.get_body(("plain",)).get_content().replace("\r\n", "\n").replace("\u00a0", " ")
        return e.state(e.game("pmb1")), mails
    finally:
        store.close()
