"""`pbem gc`: the bytes of old mail go; what verify, export, re-runs, retries and the duplicate check read stays."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import pbem_command, pbem_env

from pbem import archive, games
from pbem.audit import verify_export
from pbem.cli import main
from pbem.clock import iso
from pbem.config import ConfigError, load
from pbem.demo import GAME_ADDRESS, MJ_ADDRESS, Demo, play_bot_game
from pbem.store import Pruned, Store, retention

T0 = datetime(2026, 1, 5, 12, tzinfo=UTC)
LATER = T0 + timedelta(days=200)
INTRIGUE = {"ruleset": "intrigue", "tag": "INTRIGUE", "registration": "1d", "deadlines": {"turn": "1d", "short": "12h"}}
NAMES = ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolò"]
CONFIG = f"""[pbem]
database = "pbem.sqlite"
address = "{GAME_ADDRESS}"
forum_dir = "forum"

[mailbox]
kind = "maildir"
path = "mail/inbox"

[outbox]
kind = "maildir"
path = "mail/outbox"

[games.intrigue]
mj = "{MJ_ADDRESS}"
ruleset = "intrigue"
tag = "INTRIGUE"
registration = "1d"

[games.intrigue.deadlines]
turn = "1d"
short = "12h"
"""


def _mail(store: Store, key: str, at: datetime, status: str) -> None:
    """A stored mail received at ``at`` and left with ``status`` (processed then, unless ``new``)."""
    store.store_raw([(key, f"Message-ID: <{key}@t>\n\n{key} body\n".encode())], at)
    if status != "new":
        store.mark_message(key, message_id=f"<{key}@t>", status=status, game="", sender="a@b", verdict=status,
                           processed_at=at)


def _sent(store: Store, item_id: str, at: datetime, status: str) -> None:
    """An outgoing mail queued at ``at`` (no game), then sent, failed or bounced, or still queued."""
    store.enqueue([{"id": item_id, "game": "", "turn": 0, "kind": "ack", "rcpt": "a@b", "subject": "s",
                    "raw": b"x" * 100, "status": "queued", "attempts": 0, "next_attempt_at": iso(at),
                    "last_error": "", "created_at": iso(at), "sent_at": "", "record_seq": None}])
    if status != "queued":
        store.update_outbox(item_id, status=status, sent_at=at if status != "failed" else "")


def test_only_old_processed_mail_loses_its_bytes(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    _mail(store, "old-done", T0, "done")
    _mail(store, "old-error", T0, "error")  # pbem mail retry reads it again
    _mail(store, "old-new", T0, "new")  # not read yet (or set aside for another try)
    _mail(store, "recent-done", LATER - timedelta(days=10), "done")
    store.begin_reading(["old-new"])
    _sent(store, "old-sent", T0, "sent")
    _sent(store, "old-queued", T0, "queued")
    _sent(store, "old-failed", T0, "failed")  # pbem outbox retry sends these bytes again
    _sent(store, "old-bounced", T0, "bounced")
    _sent(store, "recent-sent", LATER - timedelta(days=10), "sent")
    cut = LATER - timedelta(days=90)
    expected = Pruned(1, len(b"Message-ID: <old-done@t>\n\nold-done body\n"), 1, 100)
    assert store.prunable(cut) == expected
    assert store.message_raw("old-done") is not None  # a dry run prunes nothing
    assert store.prune(cut) == expected
    assert store.message_raw("old-done") is None
    for key in ("old-error", "old-new", "recent-done"):
        assert store.message_raw(key) is not None, key
    assert [k for k, _raw, _at in store.pending_messages()] == ["old-new"]
    assert store.outbox_raw("old-sent") is None
    for item in ("old-queued", "old-failed", "old-bounced", "recent-sent"):
        assert store.outbox_raw(item) == b"x" * 100, item
    # the rows stay: the duplicate check, pbem mail list and pbem outbox list read them
    assert store.seen_message_id("<old-done@t>", "another-key")
    assert {m.key for m in store.messages()} == {"old-done", "old-error", "old-new", "recent-done"}
    sent = store.outbox_row("old-sent")
    assert sent is not None and sent.status == "sent"
    assert store.requeue_messages(["old-error"]) == 1  # mail retry still works
    # a late error on a pruned mail is refused as for any processed mail, not taken for an unknown one
    store.mark_message("old-done", message_id="", status="error", game="", sender="", verdict="x", processed_at=LATER)
    assert store.messages("done")[0].key == "old-done"
    assert store.prune(cut) == Pruned()  # twice: nothing more
    store.close()


def test_prune_says_what_it_pruned_and_dry_run_matches(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite")
    for i in range(retention.GC_BATCH + 7):  # more than a batch: several transactions
        _mail(store, f"m{i}", T0, "done")
    _sent(store, "s", T0, "sent")
    cut = LATER - timedelta(days=90)
    dry = store.prunable(cut)
    assert dry.mails == retention.GC_BATCH + 7 and dry.sent == 1
    assert store.prune(cut) == dry
    assert store.prunable(cut) == Pruned()
    assert store.message_count() == retention.GC_BATCH + 7  # rows kept
    store.close()


def _orders() -> Callable[[Any, str, int], list[str]]:
    """Intrigue's bot: a player's orders for a state."""
    reference = games.entry("intrigue").bots
    assert reference is not None
    bots: Callable[[Any, str, int], list[str]] = games.load(reference)
    return bots


def _game(tmp_path: Path) -> Demo:
    """A game of Intrigue played by mail for a few steps, on the demo's clock (December 2026)."""
    return play_bot_game(tmp_path / "game", "intrigue", INTRIGUE, NAMES, _orders(), 3)


def test_verify_export_and_rerun_are_the_same_after_gc(tmp_path: Path) -> None:
    d = _game(tmp_path)
    game = d.engine.game("intrigue")
    resolved = game.turn - 1
    assert resolved >= 2
    export_before = d.engine.export("intrigue", include_seed=True)
    rerun_before = d.engine.rerun("intrigue", resolved, d.now)
    archive.build(d.engine, "intrigue", tmp_path / "before")
    far = d.now + timedelta(days=400)
    pruned = d.store.prune(far - timedelta(days=90))
    assert pruned.mails > 0 and pruned.sent > 0
    assert d.engine.export("intrigue", include_seed=True) == export_before
    problems, count = verify_export(export_before, None)
    assert problems == [] and count > 0
    problems, _count = verify_export(d.engine.export("intrigue", include_seed=True), None)
    assert problems == []
    after = d.engine.rerun("intrigue", resolved, d.now)
    assert (after.diff, after.state_changed) == (rerun_before.diff, rerun_before.state_changed) == ([], False)
    archive.build(d.engine, "intrigue", tmp_path / "after")
    pages = sorted(p.relative_to(tmp_path / "before") for p in (tmp_path / "before").rglob("*") if p.is_file())
    assert pages and pages == sorted(p.relative_to(tmp_path / "after") for p in (tmp_path / "after").rglob("*")
                                     if p.is_file())
    assert all((tmp_path / "before" / p).read_bytes() == (tmp_path / "after" / p).read_bytes() for p in pages)
    # the mails of the game's last two steps keep their bodies (an answer to one is read with it)
    kept = [i for i in d.store.outbox_items(game="intrigue") if i.turn >= game.turn - 1 and i.status == "sent"]
    assert kept and all(d.store.outbox_raw(i.id) is not None for i in kept)
    older = [i for i in d.store.outbox_items(game="intrigue") if i.turn < game.turn - 1 and i.status == "sent"]
    assert older and all(d.store.outbox_raw(i.id) is None for i in older)
    d.close()


def test_the_mail_of_orders_in_force_keeps_its_bytes(tmp_path: Path) -> None:
    d = _game(tmp_path)
    game = d.engine.game("intrigue")
    player = next(p for p in d.store.players("intrigue") if p.status == "active")
    state = d.engine.state(game)
    d.mail(player.address, "\n".join(_orders()(state, player.name, random.Random(1).randrange(1 << 30))),
           f"ordres tour {game.turn}")
    d.tick(timedelta(minutes=1))
    assert d.engine.game("intrigue").turn == game.turn  # not resolved yet: these orders are in force
    current = d.store.current_orders("intrigue", game.turn, player.name)[player.name]
    assert current.message_key
    d.store.prune(d.now + timedelta(days=400))
    assert d.store.processed_raw(current.message_key) is not None
    assert d.store.message_count("done") > 1 and d.store.prunable(d.now + timedelta(days=400)) == Pruned()
    d.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_gc_killed_half_way_loses_nothing_and_the_next_one_finishes(tmp_path: Path, lang: str) -> None:
    d = _game(tmp_path)
    root = d.root
    resolved = d.engine.game("intrigue").turn - 1
    export_before = d.engine.export("intrigue", include_seed=True)
    d.close()
    (root / "config.toml").write_text(CONFIG.replace('forum_dir = "forum"', f'forum_dir = "forum"\nlanguage = "{lang}"')
                                      + "\n[retention]\nkeep_days = 30\n", "utf-8")
    now = (datetime(2027, 12, 1, tzinfo=UTC)).isoformat()
    config = root / "config.toml"
    killed = subprocess.run(pbem_command(config, "gc", "--now", now), env=pbem_env(PBEM_CRASH_AT="gc-batch"),
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode != 0  # killed after its first batch (the inbound mail), before the outbox
    store = Store(root / "pbem.sqlite")
    left = store.prunable(datetime(2027, 12, 1, tzinfo=UTC) - timedelta(days=30))
    assert left.mails == 0 and left.sent > 0  # the first batch committed, the rest untouched
    store.close()
    verified = subprocess.run(pbem_command(config, "verify", "intrigue"), env=pbem_env(), capture_output=True,
                              text=True, timeout=120)
    assert verified.returncode == 0 and "OK" in verified.stdout, verified.stdout + verified.stderr
    rerun = subprocess.run(pbem_command(config, "turn", "rerun", "intrigue", str(resolved)), env=pbem_env(),
                           capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    dry = subprocess.run(pbem_command(config, "gc", "--dry-run", "--now", now), env=pbem_env(), capture_output=True,
                         text=True, timeout=120)
    done = subprocess.run(pbem_command(config, "gc", "--now", now), env=pbem_env(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    if lang == "fr":
        assert dry.stdout.splitlines()[1] == "0 courriel reçu déjà traité serait vidé de son contenu"
        assert dry.stdout.splitlines()[2] == f"{left.sent} courriels envoyés seraient vidés de leur contenu"
        assert done.stdout.splitlines()[2] == f"{left.sent} courriels envoyés vidés de leur contenu"
        assert done.stdout.splitlines()[0].startswith("Seuil\u00a0: 30\u00a0jours")
    else:
        assert dry.stdout.splitlines()[2] == f"{left.sent} sent mails would be pruned of their body"
        assert done.stdout.splitlines()[2] == f"{left.sent} sent mails pruned of their body"
    again = subprocess.run(pbem_command(config, "gc", "--now", now, "--vacuum"), env=pbem_env(), capture_output=True,
                           text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[1:4] == (["0 courriel reçu déjà traité vidé de son contenu",
                                              "0 courriel envoyé vidé de son contenu",
                                              "0 octet libéré dans la base"] if lang == "fr" else
                                             ["0 processed inbound mails pruned of their bytes",
                                              "0 sent mails pruned of their body", "0 bytes freed in the database"])
    store = Store(root / "pbem.sqlite")
    assert store.message_count("done") > 0
    store.close()
    exported = subprocess.run(pbem_command(config, "export", "intrigue", "--json", "--with-seed"), env=pbem_env(),
                              capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    assert verify_export(export_before, None)[0] == []


def test_keep_days_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CONFIG + "\n[retention]\nkeep_days = 0\n", "utf-8")
    with pytest.raises(ConfigError, match="keep_days"):
        load(path)
    path.write_text(CONFIG + "\n[retention]\nkept_days = 9\n", "utf-8")
    with pytest.raises(ConfigError, match="kept_days"):
        load(path)
    path.write_text(CONFIG + "\n[retention]\nkeep_days = 12\n", "utf-8")
    assert load(path).keep_days == 12
    path.write_text(CONFIG, "utf-8")
    assert load(path).keep_days == 90
    said = CliRunner().invoke(main, ["--config", str(path), "gc", "--keep-days", "0"])
    assert said.exit_code == 1
    assert said.output.strip().splitlines() == ["Erreur\u00a0: --keep-days\u00a0: au moins 1\u00a0jour, pas 0 (le courrier "
                                                "du jour n'est jamais vidé)"]


def _vm_steps_to_prune(path: Path, n: int) -> int:
    """SQLite's virtual-machine steps (in thousands) a gc takes over ``n`` old mails in and ``n`` out, with
    ``n / 2`` orders in force for other mails: a count, not a time."""
    store = Store(path)
    with store.atomic():
        store.db.execute("insert into games (id, ruleset, phase, turn) values ('g', 'pmb', 'running', 5)")
        store.db.conn.executemany(
            "insert into messages (key, message_id, received_at, size, status, game, sender, verdict, processed_at) "
            "values (?, ?, ?, 10, 'done', 'g', 'a', '', ?)", [(f"k{i}", f"<m{i}>", iso(T0), iso(T0)) for i in range(n)])
        store.db.conn.executemany("insert into message_bytes (key, raw) values (?, ?)",
                                  [(f"k{i}", b"x" * 10) for i in range(n)])
        store.db.conn.executemany(
            "insert into orders (game, turn, player, orders, lines, source, message_key, received_at, current) "
            "values ('g', 9, ?, '', '', 'mail', ?, '', 1)", [(f"p{i}", f"<other{i}>") for i in range(n // 2)])
    for i in range(n):
        _sent(store, f"o{i}", T0, "sent")
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0

    store.db.conn.set_progress_handler(step, 1000)
    pruned = store.prune(LATER)
    store.db.conn.set_progress_handler(None, 0)
    assert pruned.mails == pruned.sent == n
    store.close()
    return steps[0]


def test_a_gc_costs_in_proportion_to_the_rows(tmp_path: Path) -> None:
    """Each batch starts where the last stopped, and the orders in force are listed once: four times the
    mail, about four times the work (it was sixteen when each batch scanned every sent mail again)."""
    small = _vm_steps_to_prune(tmp_path / "small.sqlite", 2 * retention.GC_BATCH)
    large = _vm_steps_to_prune(tmp_path / "large.sqlite", 8 * retention.GC_BATCH)
    assert large / small < 6, (small, large)  # (measured: 4.0)
