"""« seating = "roster" » keeps the order of registration: players who joined in the same pass come in the order
of their mails, not of their names (Courtisans: « le MJ détermine en début de partie l'ordre initial des
joueurs », option seating; Intrigue and Pour le Roi read the same order)."""

from __future__ import annotations

from datetime import UTC, datetime

from helpers import make_config, make_mail

from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def test_players_registered_in_one_pass_sit_in_the_order_of_their_mails(tmp_path):
    cfg = make_config(tmp_path, ruleset="courtisans", game_id="cour", tag="COUR",
                      extra_game={"options": {"seating": "roster"}, "deadlines": {"tour": "2d"}})
    e = Engine(cfg, Store(cfg.database))
    try:
        e.new_game("cour", T0, seed="ab" * 32)
        names = ["Monsieur de Zola", "Madame d'Aubigny", "Monsieur de Malveyance"]  # not in alphabetical order
        for i, name in enumerate(names):
            raw = make_mail(f"p{i}@pbem.test", f"INSCRIPTION {name}", subject="[COUR] inscription")
            key = f"k{i}"
            e.store.store_raw([(key, raw)], T0)
            e.process_message(key, raw, T0)  # one pass: the same time for all three
        assert [p.name for p in e.store.players("cour")] == names
        e.start_game("cour", T0)
        state = e.state(e.game("cour"))
        assert list(state.seats) == names
    finally:
        e.store.close()
