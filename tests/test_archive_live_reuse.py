"""A live archive draws only the pictures whose inputs changed (issue #24): the others are kept from the folder.

An Intrigue game whose players stay silent (every step resolved on its defaults at the deadline) is archived
after some steps, then again; the drawings are counted by wrapping `pictures.board_picture`, the one way in.
Whatever was kept, the folder must hold the very bytes a build into an empty folder writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import make_config, make_mail

from pbem import pictures
from pbem.archive import MARKER, PICTURES, build, live
from pbem.engine import Engine
from pbem.store import Store

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
NAMES = ["Lorenzo", "Isabella", "Cesare", "Lucrezia", "Niccolo"]


class Game:
    """An Intrigue game, steps resolved one at a time on their deadline."""

    def __init__(self, tmp: Path) -> None:
        cfg = make_config(tmp, ruleset="intrigue", game_id="intrigue", tag="INTRIGUE",
                          extra_game={"deadlines": {"turn": "1d", "short": "12h"}})
        self.store = Store(cfg.database)
        self.engine = Engine(cfg, self.store)
        self.now = T0
        self.engine.new_game("intrigue", T0, seed="ab" * 32)
        for i, name in enumerate(NAMES):
            raw = make_mail(f"joueur{i}@pbem.test", f"INSCRIPTION {name}", subject="[INTRIGUE] inscription",
                            message_id=f"<r{i}@pbem.test>")
            self.store.store_raw([(f"r{i}", raw)], T0)
        self.engine.process_pending(T0)
        self.engine.start_game("intrigue", T0)

    def step(self, n: int = 1) -> None:
        for _ in range(n):
            g = self.engine.game("intrigue")
            assert g.phase == "running" and g.deadline
            self.now = max(self.now, g.deadline.astimezone(UTC))
            self.engine.due(self.now)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Game]:
    g = Game(tmp_path)
    yield g
    g.store.close()


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The title of every picture drawn from now on."""
    drawn: list[str] = []
    real = pictures.board_picture

    def counted(ruleset: str, view: Any, events: Any, title: str) -> pictures.Picture | None:
        drawn.append(title)
        return real(ruleset, view, events, title)

    monkeypatch.setattr(pictures, "board_picture", counted)
    return drawn


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def from_scratch(game: Game, folder: Path) -> dict[str, bytes]:
    build(game.engine, "intrigue", folder)
    return files(folder)


def test_a_refresh_after_one_new_step_draws_one_picture_and_writes_what_a_new_build_writes(
        game: Game, draws: list[str], tmp_path: Path) -> None:
    www = tmp_path / "www"
    game.step(3)
    draws.clear()  # (the steps' mail drew their pictures: not counted)
    assert live.refresh(game.engine, "intrigue", www)
    assert len(draws) == 4  # (the setup and three steps: nothing to keep yet)
    game.step()
    draws.clear()
    assert live.refresh(game.engine, "intrigue", www)
    assert draws == [game.store.records("intrigue")[-1].title]  # the new step's picture, and no other
    assert len(list((www / "images").glob("turn-*.png"))) == 5
    draws.clear()
    assert files(www) == from_scratch(game, tmp_path / "scratch")
    assert len(draws) == 5  # (an empty folder: all drawn)


def test_a_corrected_step_is_drawn_again(game: Game, draws: list[str], tmp_path: Path) -> None:
    """A RECTIFICATIF of the last step (the only one that may be corrected): its picture alone is drawn again."""
    from pbem.games.intrigue.bots import random_orders

    www = tmp_path / "www"
    game.step(4)
    live.refresh(game.engine, "intrigue", www)
    rec = game.store.record_for_turn("intrigue", 4)
    assert rec is not None
    table = game.engine.table("intrigue")
    before = table.decode_json(rec.state_before)
    old = (www / "images" / "turn-4.png").read_bytes()
    player = next(p.player for p in table.ruleset.prompts(before))
    for seed in range(20):  # (orders that change what the forum sees of the step)
        game.engine.set_orders_mj("intrigue", player, random_orders(before, player, seed), game.now, turn=4)
        if game.engine.rerun("intrigue", 4, game.now, publish=True).published:
            break
    else:
        pytest.fail("no order changed step 4")
    draws.clear()
    assert live.refresh(game.engine, "intrigue", www)  # (a RECTIFICATIF: a new edition)
    assert draws == [rec.title]
    assert (www / "images" / "turn-4.png").read_bytes() != old
    assert files(www) == from_scratch(game, tmp_path / "scratch")


@pytest.mark.parametrize("damage", ["deleted", "emptied", "garbled", "a line cut", "a picture changed"])
def test_without_a_sound_list_of_what_was_drawn_every_picture_is_drawn_again(
        game: Game, draws: list[str], tmp_path: Path, damage: str) -> None:
    www = tmp_path / "www"
    game.step(3)
    build(game.engine, "intrigue", www)
    sidecar = www / PICTURES
    lines = sidecar.read_text("utf-8").splitlines()
    assert len(lines) == 1 + 4
    if damage == "deleted":
        sidecar.unlink()
    elif damage == "emptied":
        sidecar.write_text("", encoding="utf-8")
    elif damage == "garbled":
        sidecar.write_bytes(b"\xff\xfe" + sidecar.read_bytes()[::-1])
    elif damage == "a line cut":
        sidecar.write_text("\n".join([*lines[:2], lines[2][:80], *lines[3:]]) + "\n", "utf-8")
    else:  # the list is sound, a picture is not what it says: that one alone is drawn again
        (www / "images" / "turn-1.png").write_bytes(b"\x89PNG\r\n\x1a\nnot the picture")
    draws.clear()
    build(game.engine, "intrigue", www)
    assert len(draws) == (1 if damage == "a picture changed" else 4)
    assert files(www) == from_scratch(game, tmp_path / "scratch")


def test_the_list_of_what_was_drawn_is_the_archives_own_file(game: Game, draws: list[str], tmp_path: Path) -> None:
    """Listed in the marker (written again, it is replaced, like every file of the archive), and no page links
    it; a picture it names that the marker does not is never kept."""
    www = tmp_path / "www"
    game.step(2)
    build(game.engine, "intrigue", www)
    marker = (www / MARKER).read_text("utf-8").splitlines()
    assert PICTURES in marker
    assert all(PICTURES not in p.read_text("utf-8") for p in www.glob("*.html"))
    (www / MARKER).write_text("\n".join(line for line in marker if line != "images/turn-1.png") + "\n", "utf-8")
    draws.clear()
    build(game.engine, "intrigue", www)
    assert len(draws) == 3
    assert files(www) == from_scratch(game, tmp_path / "scratch")


def test_pages_the_new_step_did_not_change_are_not_written_again(game: Game, tmp_path: Path) -> None:
    www = tmp_path / "www"
    game.step(3)
    build(game.engine, "intrigue", www)
    old = 10**18  # (every file dated long ago: a coarse file-system clock cannot hide a write)
    for p in www.rglob("*"):
        if p.is_file():
            os.utime(p, ns=(old, old))
    game.step()
    build(game.engine, "intrigue", www)
    written = sorted(p.relative_to(www).as_posix() for p in [*www.glob("*.html"), *www.glob("images/*.png")]
                     if p.stat().st_mtime_ns != old)
    # the new step's page and picture, the page before it (its « next » link) and the index (its list)
    assert written == ["images/turn-4.png", "index.html", "turn-3.html", "turn-4.html"]


def test_every_picture_is_drawn_again_when_the_drawing_changes(game: Game, draws: list[str], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    www = tmp_path / "www"
    game.step(2)
    build(game.engine, "intrigue", www)
    monkeypatch.setattr(pictures, "DRAWING_VERSION", pictures.DRAWING_VERSION + 1)
    pictures._drawing.cache_clear()
    draws.clear()
    try:
        build(game.engine, "intrigue", www)
    finally:
        pictures._drawing.cache_clear()
    assert len(draws) == 3
