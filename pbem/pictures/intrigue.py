"""Intrigue's board: each palace with its five posts and its park, money, hands, the island, the round's bribes.

Drawn from the public view only (``view["board"]``, ``round``, ``bribes_this_round``, ``winners``,
``waiting_for``): everything at Intrigue is public once placed, so the picture shows what the
forum table shows, in colour: a counsellor has its owner's colour wherever it stands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import Event
from pbem.pictures.scene import (
    ALERT,
    HEAD_SIZE,
    INK,
    MUTED,
    PANEL,
    PLAYER_COLOURS,
    RULE,
    SMALL_SIZE,
    TEXT_SIZE,
    Box,
    Scene,
    Text,
    chips,
    fit,
    money,
    on,
    text_width,
    tint,
    title_bar,
    wrap,
)

MOTIFS = {"balance": "balance", "bourse": "bourse", "livre": "livre", "epee": "écu et épée", "eveque": "évêque"}
"""The motifs as the rule text names them (the same words as the forum post)."""

WIDTH = 1200
NAME_W, POST_W, HAND_W = 170, 120, 90
MARGIN, GAP = 16, 6


def motif(code: str | None) -> str:
    return MOTIFS.get(code or "", code or "")


def draw(view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene:
    board = view["board"]
    seats = [p["name"] for p in board["players"]]
    colour = {name: PLAYER_COLOURS[i % len(PLAYER_COLOURS)] for i, name in enumerate(seats)}
    values = list(view.get("post_values") or [s["value"] for s in board["players"][0]["posts"]])
    park_x = MARGIN + NAME_W + len(values) * (POST_W + GAP)
    park_w = WIDTH - MARGIN - HAND_W - GAP - park_x
    scene = Scene(WIDTH, 10)  # the height is known once everything is laid out
    y = title_bar(scene, "Intrigue", title) + 14
    over = " — partie terminée" if view.get("over") else ""
    scene.add(Text(MARGIN, y, f"Palais — manche {view['round']} sur {view['last_round']}{over}", HEAD_SIZE, True))
    y += 32
    heads = [(MARGIN, NAME_W, "Propriétaire")] + [
        (MARGIN + NAME_W + i * (POST_W + GAP), POST_W, f"poste {money(v)}") for i, v in enumerate(values)]
    heads += [(park_x, park_w, "Parc"), (WIDTH - MARGIN - HAND_W, HAND_W, "En main")]
    for x, w, label in heads:
        scene.add(Text(x + 4, y, fit(label, w - 4, SMALL_SIZE, True), SMALL_SIZE, True, MUTED))
    y += 24
    for p in board["players"]:
        y = _palace(scene, p, y, colour, values, park_x, park_w) + GAP
    y += 8
    y = _island(scene, board.get("island", []), y, colour)
    y = _bribes(scene, view.get("bribes_this_round") or [], y, colour)
    y = _footer(scene, view, y)
    scene.height = int(y + MARGIN)
    return scene


def _palace(scene: Scene, p: Mapping[str, Any], y: float, colour: Mapping[str, str], values: list[int],
            park_x: float, park_w: float) -> float:
    name = p["name"]
    park = [(f"{c['player']} · {motif(c['motif'])}", colour.get(c["player"], RULE)) for c in p.get("park", [])]
    # the height of a row: two lines of text in the posts, or the park's chips if they need more
    probe = Scene(0, 0)
    park_h = chips(probe, 0, 0, park_w - 12, park)
    h = max(80.0, park_h + 16)
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, h, fill=PANEL, radius=6))
    scene.add(Box(MARGIN, y, 8, h, fill=colour[name]))
    scene.add(Text(MARGIN + 16, y + 10, fit(name, NAME_W - 24, TEXT_SIZE, True), TEXT_SIZE, True))
    scene.add(Text(MARGIN + 16, y + 34, fit(money(p["money"]), NAME_W - 24, TEXT_SIZE), TEXT_SIZE))
    if "income" in p:
        scene.add(Text(MARGIN + 16, y + 58, fit(f"revenu {money(p['income'])}", NAME_W - 24, SMALL_SIZE),
                       SMALL_SIZE, False, MUTED))
    for i, post in enumerate(p["posts"]):
        x = MARGIN + NAME_W + i * (POST_W + GAP)
        holder = post.get("player")
        if holder:
            fill = colour.get(holder, RULE)
            scene.add(Box(x, y + 6, POST_W, h - 12, fill=fill, radius=6))
            scene.add(Text(x + POST_W / 2, y + h / 2 - 10, fit(holder, POST_W - 10, SMALL_SIZE, True), SMALL_SIZE,
                           True, on(fill), "mm"))
            scene.add(Text(x + POST_W / 2, y + h / 2 + 10, fit(motif(post.get("motif")), POST_W - 10, SMALL_SIZE),
                           SMALL_SIZE, False, on(fill), "mm"))
        else:
            scene.add(Box(x, y + 6, POST_W, h - 12, fill="#fbf8f1", outline=RULE, radius=6))
            scene.add(Text(x + POST_W / 2, y + h / 2, "libre", SMALL_SIZE, False, MUTED, "mm"))
    if park:
        chips(scene, park_x + 6, y + 8, park_w - 12, park)
    else:
        scene.add(Text(park_x + 6, y + h / 2, "—", TEXT_SIZE, False, MUTED, "lm"))
    hand = p.get("hand", [])
    hx = WIDTH - MARGIN - HAND_W
    scene.add(Text(hx + HAND_W / 2, y + h / 2, str(len(hand)), HEAD_SIZE, True, INK, "mm"))
    return y + h


def _island(scene: Scene, island: Sequence[Mapping[str, Any]], y: float, colour: Mapping[str, str]) -> float:
    label = "L'île"
    scene.add(Text(MARGIN, y + 4, label, HEAD_SIZE, True))
    x = MARGIN + text_width(label, HEAD_SIZE, True) + 16
    items = [(f"{c['player']} · {motif(c['motif'])}", tint(colour.get(c["player"], RULE), 0.15)) for c in island]
    if not items:
        scene.add(Text(x, y + 4, "personne", TEXT_SIZE, False, MUTED))
        return y + 34
    return y + max(chips(scene, x, y + 2, WIDTH - MARGIN - x, items), 26) + 12


def _bribes(scene: Scene, bribes: Sequence[Mapping[str, Any]], y: float, colour: Mapping[str, str]) -> float:
    paid = [b for b in bribes if b.get("amount")]
    if not paid:
        return y
    scene.add(Text(MARGIN, y + 4, "Pots-de-vin de la manche", HEAD_SIZE, True))
    y += 32
    parts = [f"{b['player']} → {b['palace']} ({motif(b['motif'])}) {money(b['amount'])}"
             + (" remboursé" if b.get("refunded") else "") for b in paid]
    for line in wrap(" ; ".join(parts), WIDTH - 2 * MARGIN, TEXT_SIZE):
        scene.add(Text(MARGIN, y, line, TEXT_SIZE))
        y += 24
    return y + 6


def _footer(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    winners = list(view.get("winners") or [])
    if view.get("over") and winners:
        text = (f"Vainqueur : {winners[0]}" if len(winners) == 1
                else "Victoire partagée : " + ", ".join(winners[:-1]) + f" et {winners[-1]}")
        scene.add(Text(MARGIN, y + 6, fit(text, WIDTH - 2 * MARGIN, HEAD_SIZE, True), HEAD_SIZE, True, ALERT))
        return y + 36
    waiting = list(dict.fromkeys(w["player"] for w in view.get("waiting_for") or []))
    if waiting:
        for line in wrap("On attend : " + ", ".join(waiting), WIDTH - 2 * MARGIN, TEXT_SIZE):
            scene.add(Text(MARGIN, y + 6, line, TEXT_SIZE, False, MUTED))
            y += 24
        return y + 8
    return y
