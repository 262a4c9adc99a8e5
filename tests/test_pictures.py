"""Pictures of the public board: drawn from the public view and public events only, with the facts they must show.

Games come from recorded games played by mail (`recorded.py`, as `pbem demo` plays them) for
Intrigue and Pour Ma Belle, and from public views recorded on the ``courtisans`` and
``pourleroi`` branches (tests/fixtures/pictures) for the two games not merged yet.  Pictures are
compared by content through the seam of `pbem.pictures.scene.Scene`: its texts are the labels
drawn, its boxes where; the PNG is checked against the scene (size, a pixel of a box).
"""

from __future__ import annotations

import email
import io
import json
import mailbox
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import recorded
from games.test_courtisans_games import bot_game
from PIL import Image

from pbem import pictures, serial
from pbem.core import MJ, PUBLIC, Audience, Event
from pbem.games.courtisans import RULESET as COURTISANS
from pbem.pictures import board_picture, board_scene
from pbem.pictures.raster import png, scene_digest, size
from pbem.pictures.scene import Box, money

FIXTURES = Path(__file__).parent / "fixtures" / "pictures"
PMB_ROLE_CODES = ("garde", "lord_commandant", "chuchoteurs", "argentier", "mestre", "fidele", "stark_chef",
                  "stark_sergent", "stark_hm", "tyrell_chef", "tyrell_sergent", "tyrell_hm")
PMB_ROLE_LABELS = ("Garde Royal", "Lord Commandant", "Chuchoteurs", "Argentier", "Grand Mestre", "fidèle",
                   "chef Stark", "sergent", "Homme de Main")


def steps(d: Any) -> list[tuple[dict[str, Any], Any, list[Event], str]]:
    """(record, state after, events, title) of every setup and step record of a recorded game."""
    rs = d.engine.ruleset(d.game_id)
    return [(rec, serial.loads(rs.state_type, rec.state_after), list(rec.events), rec.title)
            for rec in d.store.records(d.game_id) if rec.kind != "action"]


def public_of(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.audience.kind == "public"]


def strings(value: Any) -> set[str]:
    """Every string value in a JSON-like tree (keys left out: they name fields, they are no facts)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def fixture_steps(game: str) -> list[tuple[dict[str, Any], list[Event], str]]:
    data = json.loads((FIXTURES / f"{game}-public.json").read_text("utf-8"))
    return [(s["view"], [Event(e["kind"], Audience.public(), e["data"]) for e in s["events"]], s["title"])
            for s in data]


# ---------------------------------------------------------------- the inputs: public only, structurally


def test_the_drawing_code_receives_exactly_the_public_view_and_public_events(demo_games: Any) -> None:
    """Every call of a board drawer while the demo's games were played (recorded then: `recorded.play_demos`),
    for each game with pictures: a step's public view and public events, and only them."""
    drawn_games = 0
    for d in demo_games.games.values():
        rs = d.engine.ruleset(d.game_id)
        seen = [c for c in demo_games.drawn if c.ruleset == rs.name]
        if not pictures.has_picture(rs.name):
            assert seen == []
            continue
        drawn_games += 1
        assert seen, f"{rs.name}: no picture was drawn"
        expected = [(json.loads(json.dumps(rs.view(state, PUBLIC))), public_of(events), title)
                    for _, state, events, title in steps(d)]
        public_views = [view for view, _, _ in expected]
        mj_views = [v for v in (json.loads(json.dumps(rs.view(state, MJ))) for _, state, _, _ in steps(d))
                    if v not in public_views]
        assert mj_views, f"{rs.name}: the MJ's view never differs from the public one"
        # every call, for the mail and for the forum file, had a step's public view and public events, and only them
        for call in seen:
            assert (call.view, call.events, call.title) in expected
            assert all(e.audience.kind == "public" for e in call.events)
            assert call.view not in mj_views  # the MJ's view (roles, the whole state) is never what is drawn from
        # each step drawn once: the public mail and the forum file beside the post share the picture
        assert len(seen) == len(expected), rs.name
        assert sorted(c.title for c in seen) == sorted(title for _, _, title in expected), rs.name
    assert drawn_games >= 4  # Intrigue, Pour Ma Belle, Pour le Roi, Courtisans


def test_a_private_event_is_refused_at_the_door() -> None:
    view, events, title = fixture_steps("pourleroi")[1]
    secret = Event("drawn", Audience.to("Vauban"), {"card": "OR-01"})
    with pytest.raises(ValueError, match="public events only"):
        board_scene("pourleroi", view, [*events, secret], title)
    with pytest.raises(ValueError):
        board_scene("pourleroi", view, [Event("x", Audience.mj(), {})], title)


def test_pmb_pictures_hold_no_role_and_no_level_before_the_end(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["pmb"]
    rs = d.engine.ruleset(d.game_id)
    checked = 0
    for _, state, events, title in steps(d):
        if rs.outcome(state) is not None:
            continue
        view, public = rs.view(state, PUBLIC), public_of(events)
        values = strings([view, [dict(e.data) for e in public]])
        assert not values & set(PMB_ROLE_CODES)  # no role as a value anywhere in what is drawn from
        assert not values & {"visenya", "fossedragon", "culpucier", "cachots", "donjon"}  # nor anyone's place
        texts = " ".join(board_scene("pmb", view, public, title).texts())  # type: ignore[union-attr]
        for label in PMB_ROLE_LABELS:
            assert label not in texts, (title, label)
        checked += 1
    assert checked >= 5


def test_intrigue_pictures_hold_no_players_own_keys(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["intrigue"]
    rs = d.engine.ruleset(d.game_id)
    for _, state, _events, _title in steps(d):
        view = rs.view(state, PUBLIC)
        assert not {"involvements", "help", "money", "hand"} & set(view)  # a player's own keys, not the forum's


@pytest.mark.parametrize("game", ["courtisans", "pourleroi"])
def test_private_keys_planted_in_a_view_are_never_drawn(game: str) -> None:
    """A drawing reads only its public keys: hands, partis, the deck put into the view by mistake stay undrawn."""
    for view, events, title in fixture_steps(game):
        planted = json.loads(json.dumps(view))
        if game == "courtisans":
            for c in planted["courtiers"]:
                c["hand"] = [{"name": "CARTE-SECRETE-MAIN", "kind": "titre"}]
                c["next_parti"] = "PARTI-SECRET-SUIVANT"
            planted["deck"] = [{"name": "CARTE-SECRETE-PIOCHE"}]
        else:
            planted["hand"] = {"groups": [], "gold": [{"fr": "CARTE-SECRETE-MAIN"}]}
            planted["all_hands"] = {"x": {"gold": [{"fr": "CARTE-SECRETE-MAIN"}]}}
            planted["drawn"] = {"fr": "CARTE-SECRETE-TIREE"}
        texts = " ".join(board_scene(game, planted, events, title).texts())  # type: ignore[union-attr]
        assert "SECRET" not in texts
        assert texts == " ".join(board_scene(game, view, events, title).texts())  # type: ignore[union-attr]


# ---------------------------------------------------------------- the facts drawn


def test_intrigue_picture_shows_every_palace_post_money_and_the_island(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["intrigue"]
    rs = d.engine.ruleset(d.game_id)
    _, state, events, title = steps(d)[8]
    view = rs.view(state, PUBLIC)
    scene = board_scene("intrigue", view, public_of(events), title)
    assert scene is not None and scene.width == 1200
    texts = scene.texts()
    assert title in texts
    for p in view["board"]["players"]:
        assert p["name"] in texts
        assert money(p["money"]) in texts
        held = [s for s in p["posts"] if s["player"]]
        assert len(held) + sum(1 for t in texts if t == "libre") >= len(p["posts"])
        for c in p["park"]:
            assert any(t.startswith(f"{c['player']} · ") for t in texts)
    island = [t for t in texts if " · " in t]
    assert len(island) >= len(view["board"]["island"])
    free = sum(1 for p in view["board"]["players"] for s in p["posts"] if not s["player"])
    assert texts.count("libre") == free
    # the PNG is the scene: its size, and a held post's box has its holder's colour
    data = png(scene)
    assert size(data) == (scene.width, scene.height)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    assert image.size == (scene.width, scene.height)
    boxes = [i for i in scene.items if isinstance(i, Box) and i.radius == 6 and i.fill and i.w == 120]
    coloured = [b for b in boxes if b.fill not in ("#fbf8f1",)]
    assert coloured
    b = coloured[0]
    assert b.fill is not None
    want = tuple(int(b.fill[k:k + 2], 16) for k in (1, 3, 5))
    assert image.getpixel((int(b.x + 8), int(b.y + b.h - 8))) == want


def test_pmb_picture_shows_the_counts_the_donjon_the_dead_and_the_levels(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["pmb"]
    rs = d.engine.ruleset(d.game_id)
    for _, state, events, title in steps(d)[1:4]:
        view = rs.view(state, PUBLIC)
        scene = board_scene("pmb", view, public_of(events), title)
        assert scene is not None
        texts = scene.texts()
        living, dead = view["living"], view["dead"]
        assert f"{len(living)} sur {len(living) + len(dead)}" in texts
        assert str(len(view["prisoners"])) in texts
        for name in view["donjon"]:
            shown = [t for t in scene.text_items() if t.text.startswith(name)]
            assert shown and shown[0].strike == (name in dead)
        for name in dead:
            assert name in texts
        for name in view["prisoners"]:
            assert name in texts
        assert {"Colline de Visenya", "FosseDragon", "Culpucier"} <= set(texts)
        assert "influence 7 points par joueur · 5 places" in texts
        assert "influence 1 point par joueur · sans limite de places" in texts
        dying = [e.data["player"] for e in events if e.kind == "death"]
        if dying:
            assert any(t.startswith("Mort") and dying[-1] in t for t in texts)


def test_pmb_final_picture_shows_the_roles_once_public(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["pmb"]
    rs = d.engine.ruleset(d.game_id)
    _, state, events, title = steps(d)[-1]
    assert rs.outcome(state) is not None
    view = rs.view(state, PUBLIC)
    texts = board_scene("pmb", view, public_of(events), title).texts()  # type: ignore[union-attr]
    assert any(t.startswith("Victoire") or "sans vainqueur" in t for t in texts)
    from pbem.pictures.pmb import ROLES

    for name, code in view["roles"].items():  # every player's role, now public, beside their name
        assert f"{name} · {ROLES[code]}" in texts


def test_courtisans_picture_shows_the_court_the_cotes_and_the_titles() -> None:
    for view, events, title in fixture_steps("courtisans"):
        scene = board_scene("courtisans", view, events, title)
        assert scene is not None
        texts = scene.texts()
        place = {"versailles": "à Versailles", "chasse": "à la Chasse", "guerre": "à la Guerre"}[view["place"]]
        assert any(t.startswith(f"La Cour est {place}") for t in texts)
        for c in view["courtiers"]:
            assert c["who"] in texts
            for key in ("cote_roi", "cote_reine"):
                if c[key] is not None:
                    assert str(c[key]).replace("-", "−") in texts
            for p in c["possessions"]:
                if p["kind"] == "titre":
                    assert any(p["name"] in t for t in texts)
        # the gauges: one filled cell per public cote, at its place on the -2..9 scale
        assert sum(1 for c in view["courtiers"] for k in ("cote_roi", "cote_reine") if c[k] is not None) == sum(
            1 for i in scene.items if isinstance(i, Box) and i.fill in ("#1f3b73", "#9c2f5f") and i.w < 30)


def test_pourleroi_picture_shows_every_office_and_its_value() -> None:
    for view, events, title in fixture_steps("pourleroi"):
        scene = board_scene("pourleroi", view, events, title)
        assert scene is not None
        items = scene.text_items()
        for o in view["offices"]:
            name = next(t for t in items if t.text.rstrip("…") and o["fr"].startswith(t.text.rstrip("…")))
            value = [t for t in items if t.text == str(o["value"]) and t.size == 44 and abs(t.x - name.x) < 1]
            assert value, o
        if view["result"]:
            texts = scene.texts()
            assert any("l'emporte" in t or "Victoire" in t for t in texts)


def test_1626_has_no_picture(recorded_games: dict[str, Any]) -> None:
    d = recorded_games["1626"]
    assert board_picture("1626", {"names": []}, [], "Début de partie") is None
    assert not list((d.root / "forum").rglob("*.png"))


# ---------------------------------------------------------------- determinism, files and mail


def test_same_inputs_same_bytes_and_the_scene_digest_travels_in_the_png() -> None:
    view, events, title = fixture_steps("courtisans")[1]
    a, b = board_picture("courtisans", view, events, title), board_picture("courtisans", view, events, title)
    assert a is not None and b is not None
    assert a.png == b.png
    assert scene_digest(a.png) == a.scene.digest() == b.digest


@pytest.mark.parametrize("game", ["intrigue", "pmb"])
def test_each_step_has_its_picture_beside_its_post_and_in_the_public_mail(recorded_games: dict[str, Any],
                                                                          game: str) -> None:
    d = recorded_games[game]
    forum = d.root / "forum" / d.game_id
    posts = sorted(forum.glob("turn-*.bbcode"))
    assert posts and all(p.with_suffix(".png").is_file() for p in posts)
    box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
    attached = 0
    for key in box.keys():
        msg = email.message_from_bytes(box.get_bytes(key))
        kind = msg["X-PBEM-Kind"]
        if kind != "public":
            assert not msg.is_multipart()  # text-only mail stays a single text part
            continue
        parts = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert len(parts) == 1
        name = parts[0].get_filename()
        turn = int(name.rsplit("-", 1)[1].removesuffix(".png"))
        assert parts[0].get_payload(decode=True) == (forum / f"turn-{turn}.png").read_bytes()
        attached += 1
    assert attached == len(posts)  # one MJ, no forum address: one public mail per post


def test_pictures_false_sends_text_only_and_writes_no_picture(tmp_path: Path) -> None:
    d = recorded.intrigue(tmp_path / "intrigue", pictures=False)
    try:
        assert list((d.root / "forum" / d.game_id).glob("*.bbcode"))
        assert not list((d.root / "forum").rglob("*.png"))
        box = mailbox.Maildir(str(d.root / "mail" / "outbox"), create=False)
        assert not any(email.message_from_bytes(box.get_bytes(k)).is_multipart() for k in box.keys())
    finally:
        d.close()


def test_courtisans_banner_names_the_round_the_posts_title_names() -> None:
    """The closing turn of round 6 is posted « Manche 6, tour de clôture … »: the banner says « manche 6 sur 20,
    terminée » (the view is already at round 7), not « manche 7 », and a turn inside a round says that round."""
    closing = inside = 0
    for before, events, after in bot_game(3):
        if before.slot is None or after.over:
            continue
        title = COURTISANS.step_title(before).fr
        public = [e for e in events if e.audience.kind == "public"]
        texts = board_scene("courtisans", COURTISANS.view(after, PUBLIC), public, title).texts()
        played = int(title.split(",")[0].removeprefix("Manche "))
        banner = [t for t in texts if t.startswith("manche ")]
        if any(e.kind == "round_started" and e.data["round"] > 1 for e in events):
            assert banner == [f"manche {played} sur 20, terminée"], (title, banner)
            closing += 1
        else:
            assert banner == [f"manche {played} sur 20"], (title, banner)
            inside += 1
    assert closing >= 3 and inside >= 10
