"""Games whose step is one player's turn or one decision (Courtisans, Pour le Roi) on the season's engine.

Two things the common engine must leave to these games (docs/guide-mj.md, « Le calendrier » and
« Qui est attendu, PASSER et les absences »):

* their own PASSER / PASSE is one of their orders (Courtisans: an action that does nothing; Pour le
  Roi: not bidding on a card), never the common PASSER, and AIDE does not list the common one;
* after a step resolved early, the next deadline counts from that close (« 2 jours après que les
  actions du joueur précédent aient été publiées »), unless the config's ``after_early`` says otherwise.
"""

from __future__ import annotations

import email
import mailbox
from datetime import timedelta
from email.policy import default
from pathlib import Path
from typing import Any

from pbem.demo import COURTISANS, COURTISANS_GAME, POURLEROI_GAME, SEED, Demo


def _start(root: Path, game_id: str, game: dict[str, Any], names: list[str]) -> Demo:
    d = Demo(root, game_id, game)
    d.engine.new_game(game_id, d.now, seed=SEED)
    for i, name in enumerate(names):
        d.mail(f"joueur{i:02d}@example.org", f"INSCRIPTION {name}", "inscription")
    d.tick()
    d.until_deadline()  # registration closes: the game starts by itself
    assert d.engine.game(game_id).phase == "running"
    return d


def _asked(d: Demo) -> tuple[str, str]:
    """The one player asked now, and his address."""
    g = d.engine.game(d.game_id)
    (player,) = {p.player for p in d.engine.ruleset(d.game_id).prompts(d.engine.state(g))}
    address = next(p.address for p in d.store.players(d.game_id) if p.name == player)
    return player, address


def _last_ack(d: Demo, address: str) -> str:
    box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
    acks = [email.message_from_bytes(box.get_bytes(k), policy=default) for k in box.keys()]
    acks = [m for m in acks if m["X-PBEM-Kind"] == "ack" and address in str(m["To"])]
    acks.sort(key=lambda m: str(m["Date"]))
    return str(acks[-1].get_body(("plain",)).get_content()).replace("\r\n", "\n").replace("\u00a0", " ")


def test_courtisans_passer_is_the_games_action_and_aide_lists_only_it(tmp_path: Path) -> None:
    d = _start(tmp_path / "c", "courtisans", COURTISANS_GAME, COURTISANS)
    try:
        player, address = _asked(d)
        turn = d.engine.game("courtisans").turn
        d.mail(address, "PASSER\nPASSER", "deux actions")
        d.tick()
        ack = _last_ack(d, address)
        assert "PASSER ne se combine pas" not in ack and "vous ne donnez pas d'ordre" not in ack, ack
        (record,) = [r for r in d.store.records("courtisans") if r.kind == "step" and r.turn == turn]
        assert "PASSER" in [o.text for given in record.orders.values() for o in given.orders] and record.defaults == ()  # two actions, no default draws
        player, address = _asked(d)
        d.mail(address, "AIDE", "aide")
        d.tick()
        help_text = _last_ack(d, address)
        assert "PASSER — une action : ne rien faire" in help_text or "PASSER\n" in help_text, help_text
        assert "les ordres par défaut s'appliquent (PASS)" not in help_text  # the common PASSER is not offered
    finally:
        d.close()


def test_pour_le_roi_passe_is_the_games_word_not_the_common_passer(tmp_path: Path) -> None:
    d = _start(tmp_path / "r", "roi", POURLEROI_GAME, ["Colbert", "Fouquet", "Louvois"])
    try:
        player, address = _asked(d)  # the donor places his first card: GARDER, NEUTRE or CENTRE
        d.mail(address, "PASSE", "passe")
        d.tick()
        ack = _last_ack(d, address)
        assert "attendu : GARDER, NEUTRE ou CENTRE" in ack, ack  # the game's own refusal of its word
        assert "vous ne donnez pas d'ordre" not in ack
        assert d.engine.game("roi").turn == 1  # nothing was passed: the step still waits for the donor
    finally:
        d.close()


def test_courtisans_next_deadline_counts_from_the_early_close_unless_the_config_says_calendar(
        tmp_path: Path) -> None:
    for after_early, counted_from in ((None, "close"), ("calendar", "deadline")):
        game = dict(COURTISANS_GAME, **({"after_early": after_early} if after_early else {}))
        d = _start(tmp_path / f"c-{after_early}", "courtisans", game, COURTISANS)
        try:
            before = d.engine.game("courtisans").deadline
            _, address = _asked(d)
            d.mail(address, "PIOCHER\nPIOCHER", "ordres")
            d.tick(timedelta(hours=3))  # answered three hours into his two days: resolved at once
            g = d.engine.game("courtisans")
            assert g.turn == 2
            close = d.store.records("courtisans")[-1].resolved_at
            expected = close + timedelta(days=2) if counted_from == "close" else before + timedelta(days=2)
            assert g.deadline == expected, (after_early, close, before, g.deadline)
        finally:
            d.close()
