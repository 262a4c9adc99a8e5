"""Pour Ma Belle's city: Port-Réal's levels with their influence and places, the Donjon Rouge, the cells, the dead.

Drawn from the public view only: ``living``, ``dead``, ``donjon`` (the ten names are public, not
their roles), ``prisoners``, ``defeated``, ``levels`` and ``donjon_influence``, and ``roles`` once
the game is over; the step's public events say who died, survived or was arrested.  Who lives at
which level is private (docs/rules/pmb.md), so the levels show their rules, never their residents.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import Event
from pbem.pictures.scene import (
    ALERT,
    DEAD,
    HEAD_SIZE,
    INK,
    MUTED,
    PANEL,
    SMALL_SIZE,
    TEXT_SIZE,
    WHITE,
    Box,
    Scene,
    Text,
    chip,
    chips,
    fit,
    on,
    text_width,
    title_bar,
    wrap,
)
from pbem.wording import death_marks

WIDTH = 1200
MARGIN = 16
LEFT_W = 560

LEVEL_NAMES = {3: "Colline de Visenya", 2: "FosseDragon", 1: "Culpucier"}
"""The rule text's levels by number (``view["levels"][i]["level"]``)."""
LEVEL_COLOURS = {3: "#e2c15b", 2: "#b9824f", 1: "#6f5236"}
ROLES = {
    "garde": "Garde Royal", "lord_commandant": "Lord Commandant", "chuchoteurs": "Maître des Chuchoteurs",
    "argentier": "Grand Argentier", "mestre": "Grand Mestre", "fidele": "fidèle Lannister",
    "stark_chef": "chef Stark", "stark_sergent": "sergent Stark", "stark_hm": "Homme de Main Stark",
    "tyrell_chef": "chef Tyrell", "tyrell_sergent": "sergent Tyrell", "tyrell_hm": "Homme de Main Tyrell",
}
TEAMS = {"lannister": "Lannister", "stark": "Stark", "tyrell": "Tyrell", "rebels": "l'alliance rebelle"}
TEAM_COLOURS = {"lannister": "#a4161a", "stark": "#5f6770", "tyrell": "#2e7d32"}
"""The rule text's colours: Lannister red, Stark grey, Tyrell green."""
DONJON_RED = "#7f1d1d"


def team_of(role: str | None) -> str | None:
    if role is None:
        return None
    return role.split("_", 1)[0] if role.startswith(("stark_", "tyrell_")) else "lannister"


def draw(view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene:
    scene = Scene(WIDTH, 10)
    y = title_bar(scene, "Pour Ma Belle", title) + 14
    y = _counts(scene, view, y) + 16
    left = _city(scene, view, y)
    right = _donjon(scene, view, y, events)
    y = max(left, right) + 16
    y = _this_step(scene, events, y)
    fresh = set() if view.get("roles") else {_player(e) for e in events if e.kind == "death"}
    y = _people(scene, "Les morts", list(view.get("dead", [])), view, y, fresh)
    if view.get("roles"):
        y = _people(scene, "Les vivants", list(view.get("living", [])), view, y, set())
        y = _legend(scene, y)
    y = _end(scene, view, y)
    scene.height = int(y + MARGIN)
    return scene


def _player(e: Event) -> str:
    return str(e.data.get("player", ""))


def _counts(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    living, dead = len(view.get("living", [])), len(view.get("dead", []))
    stats = [("En vie", f"{living} sur {living + dead}", "#1f5f3a"), ("Morts", str(dead), "#444444"),
             ("Aux cachots", str(len(view.get("prisoners", []))), DONJON_RED)]
    w = (WIDTH - 2 * MARGIN - 2 * 12) / 3
    for i, (label, value, colour) in enumerate(stats):
        x = MARGIN + i * (w + 12)
        scene.add(Box(x, y, w, 56, fill=colour, radius=8))
        scene.add(Text(x + 16, y + 28, label, HEAD_SIZE, False, WHITE, "lm"))
        scene.add(Text(x + w - 16, y + 28, value, 26, True, WHITE, "rm"))
    return y + 56


def _city(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    scene.add(Text(MARGIN, y, "Port-Réal", HEAD_SIZE, True))
    y += 32
    levels = list(view.get("levels", []))
    for i, lv in enumerate(levels):
        w = LEFT_W * (0.56 + 0.22 * i)
        x = MARGIN + (LEFT_W - w) / 2
        fill = LEVEL_COLOURS.get(lv["level"], PANEL)
        scene.add(Box(x, y, w, 70, fill=fill, radius=6))
        scene.add(Text(x + w / 2, y + 22, LEVEL_NAMES.get(lv["level"], f"niveau {lv['level']}"), HEAD_SIZE, True, on(fill), "mm"))
        places = "sans limite de places" if lv.get("places") is None else (
            "1 place" if lv["places"] == 1 else f"{lv['places']} places")
        point = "point" if lv["influence"] == 1 else "points"
        scene.add(Text(x + w / 2, y + 48, f"influence {lv['influence']} {point} par joueur · {places}",
                       SMALL_SIZE, False, on(fill), "mm"))
        y += 76
    for line in wrap("Chacun ne connaît que son propre niveau : les résidents ne sont pas publics.",
                     LEFT_W, SMALL_SIZE):
        scene.add(Text(MARGIN, y + 4, line, SMALL_SIZE, False, MUTED))
        y += 20
    return y


def _donjon(scene: Scene, view: Mapping[str, Any], y: float, events: Sequence[Event]) -> float:
    x = MARGIN + LEFT_W + 24
    w = WIDTH - MARGIN - x
    donjon = list(view.get("donjon", []))
    dead = set(view.get("dead", []))
    marks = death_marks(view.get("dead", []), view.get("genders") or {})  # the post's marks: « morte », or « † » for all
    roles = view.get("roles") or {}
    row_h = 40 if roles else 28
    rows = (len(donjon) + 1) // 2
    prisoners = list(view.get("prisoners", []))
    h = 44 + 26 + rows * row_h + 16 + 30 + max(1, (len(prisoners) + 1) // 2) * 26 + 12
    scene.add(Box(x, y, w, h, fill=PANEL, outline=DONJON_RED, width=2, radius=8))
    scene.add(Box(x, y, w, 40, fill=DONJON_RED, radius=8))
    scene.add(Text(x + 16, y + 20, "Donjon Rouge", HEAD_SIZE, True, WHITE, "lm"))
    inf = view.get("donjon_influence") or {}
    if inf:
        scene.add(Text(x + w - 16, y + 20, f"cible : Garde {inf.get('garde')}, Conseil {inf.get('conseil')}",
                       SMALL_SIZE, False, WHITE, "rm"))
    cy = y + 50
    scene.add(Text(x + 16, cy, "Ses habitants (rôles secrets) :" if not roles else "Ses habitants :", SMALL_SIZE,
                   False, MUTED))
    cy += 26
    col_w = (w - 32) / 2
    for i, name in enumerate(donjon):
        cx, ry = x + 16 + (i % 2) * col_w, cy + (i // 2) * row_h
        gone = name in dead
        label = fit(name + (f" ({marks.get(name, '†')})" if gone else ""), col_w - 8, TEXT_SIZE)
        scene.add(Text(cx, ry, label, TEXT_SIZE, not gone, DEAD if gone else INK, "la", strike=gone))
        if roles.get(name):
            scene.add(Text(cx, ry + 21, fit(ROLES.get(roles[name], roles[name]), col_w - 8, SMALL_SIZE),
                           SMALL_SIZE, False, MUTED))
    cy += rows * row_h + 16
    scene.add(Text(x + 16, cy, "Cachots", HEAD_SIZE, True, DONJON_RED))
    cy += 30
    if not prisoners:
        scene.add(Text(x + 16, cy, "personne", TEXT_SIZE, False, MUTED))
    for i, name in enumerate(prisoners):
        scene.add(Text(x + 16 + (i % 2) * col_w, cy + (i // 2) * 26, fit(name, col_w - 8, TEXT_SIZE), TEXT_SIZE))
    return y + h


def _this_step(scene: Scene, events: Sequence[Event], y: float) -> float:
    def names(kind: str) -> list[str]:
        return [_player(e) for e in events if e.kind == kind]

    lines = []
    for kind, one, many in (("death", "Mort du tour", "Morts du tour"), ("survived", "Rescapé", "Rescapés"),
                            ("arrested", "Arrestation", "Arrestations"),
                            ("protection_effective", "Protection efficace", "Protections efficaces")):
        who = names(kind)
        if who:
            lines.append((f"{one if len(who) == 1 else many} : {_listing(who)}", kind == "death"))
    for e in events:
        if e.kind == "team_defeated":
            lines.append((f"L'équipe {TEAMS.get(str(e.data.get('team')), e.data.get('team'))} est défaite", True))
    if not lines:
        return y
    scene.add(Text(MARGIN, y, "Ce tour-ci", HEAD_SIZE, True))
    y += 30
    for text, strong in lines:
        for line in wrap(text, WIDTH - 2 * MARGIN, TEXT_SIZE):
            scene.add(Text(MARGIN, y, line, TEXT_SIZE, False, ALERT if strong else INK))
            y += 24
    return y + 12


def _people(scene: Scene, label: str, names: list[str], view: Mapping[str, Any], y: float,
            fresh: set[str]) -> float:
    roles = view.get("roles") or {}
    scene.add(Text(MARGIN, y, label, HEAD_SIZE, True))
    x = MARGIN + text_width(label, HEAD_SIZE, True) + 16
    if not names:
        scene.add(Text(x, y + 2, "personne", TEXT_SIZE, False, MUTED))
        return y + 36
    items = []
    for name in names:
        role = roles.get(name)
        text = f"{name} · {ROLES.get(role, role)}" if role else name
        colour = ALERT if name in fresh else TEAM_COLOURS.get(team_of(role) or "", "#6b6b6b")
        items.append((text, colour))
    return y + chips(scene, x, y - 2, WIDTH - MARGIN - x, items) + 14


def _legend(scene: Scene, y: float) -> float:
    """Which colour is which team (the roles are shown once the game is over)."""
    scene.add(Text(MARGIN, y + 12, "Équipes :", SMALL_SIZE, False, MUTED, "lm"))
    x = MARGIN + text_width("Équipes :", SMALL_SIZE) + 10
    for team in ("lannister", "stark", "tyrell"):
        x += chip(scene, x, y, TEAMS[team], TEAM_COLOURS[team]) + 8
    return y + 36


def _end(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    if not view.get("finished"):
        return y
    winner = view.get("winner")
    text = (f"Victoire de l'équipe {TEAMS[winner]}" if winner in ("lannister", "stark", "tyrell")
            else f"Victoire de {TEAMS[winner]}" if winner in TEAMS else "La partie s'achève sans vainqueur")
    scene.add(Text(MARGIN, y + 6, text, HEAD_SIZE, True, ALERT))
    return y + 36


def _listing(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" et {names[-1]}"
