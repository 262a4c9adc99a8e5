"""Pour le Roi (et Moi)'s table: the six offices with their values, the gift round or the sale under way,
the counts of cards, and at the end the count made in the open.

Drawn from the public view only (branch ``pourleroi``, `pbem.games.pourleroi.views.public_view`):
``offices`` (``code``, ``fr``, ``colour_fr``, ``value``, ``secondary``), ``secondary``, ``seats``,
``hands`` (counts only), ``deck``, ``neutral``, ``round``, ``auction``, ``sales``,
``kings_played``, ``asked``, ``over``, ``result``.  Hands are counts: the cards themselves are
private until the end, and this picture never reads ``final_hands``.
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
    RULE,
    SMALL_SIZE,
    TEXT_SIZE,
    Box,
    Disc,
    Scene,
    Text,
    chip,
    chips,
    fit,
    on,
    text_width,
    tint,
    title_bar,
    wrap,
)

KEYS = ("offices", "secondary", "seats", "hands", "deck", "neutral", "round", "auction", "sales", "kings_played",
        "asked", "over", "result")
"""The public view's keys this picture reads."""

PRIMARY_MIN, PRIMARY_MAX = 1, 6
WIDTH = 1200
MARGIN = 16
GAP = 12

COLOURS = {"rouge": "#b3261e", "bleu": "#1f4e9c", "jaune": "#e3b505", "violet": "#6a3d9a", "vert": "#2e7d32",
           "blanc": "#f7f4ec", "noir": "#222222", "orange": "#d9731a"}
"""The ministries' colours as the card file names them."""
CARD_COLOURS = {"gold": "#c9a227", "king": "#6b4f2a"}


def draw(view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene:
    scene = Scene(WIDTH, 10)
    y = title_bar(scene, "Pour le Roi (et Moi)", title) + 14
    y = _offices(scene, view, y) + 18
    y = _under_way(scene, view, y)
    y = _counts(scene, view, y)
    y = _result(scene, view, y)
    scene.height = int(y + MARGIN)
    return scene


def _offices(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    offices = list(view.get("offices") or [])
    secondary = bool(view.get("secondary"))
    scene.add(Text(MARGIN, y, "Fonctions" + (" : primaire et secondaire" if secondary else " primaires"), HEAD_SIZE,
                   True))
    y += 32
    n = max(1, len(offices))
    w = (WIDTH - 2 * MARGIN - (n - 1) * GAP) / n
    h = 150 if secondary else 126
    for i, o in enumerate(offices):
        x = MARGIN + i * (w + GAP)
        fill = COLOURS.get(str(o.get("colour_fr")), PANEL)
        ink = on(fill)
        scene.add(Box(x, y, w, h, fill=fill, outline=RULE, width=1, radius=10))
        name = str(o.get("fr"))
        size = TEXT_SIZE if text_width(name, TEXT_SIZE, True) <= w - 12 else SMALL_SIZE
        scene.add(Text(x + w / 2, y + 20, fit(name, w - 12, size, True), size, True, ink, "mm"))
        scene.add(Text(x + w / 2, y + 62, str(o.get("value")), 44, True, ink, "mm"))
        pip = (w - 28) / (PRIMARY_MAX - PRIMARY_MIN + 1)
        for k in range(PRIMARY_MIN, PRIMARY_MAX + 1):
            cx = x + 14 + (k - PRIMARY_MIN + 0.5) * pip
            full = k <= int(o.get("value", 0))
            scene.add(Disc(cx, y + 104, min(pip / 2 - 3, 9), fill=ink if full else None, outline=ink, width=2))
        if secondary:
            scene.add(Text(x + w / 2, y + 134, f"secondaire : {o.get('secondary')}", SMALL_SIZE, False, ink, "mm"))
    return y + h


def _card_colour(card: Mapping[str, Any], offices: Mapping[str, str]) -> str:
    if card.get("kind") == "gov":
        return offices.get(str(card.get("ministry")), PANEL)
    return CARD_COLOURS.get(str(card.get("kind")), PANEL)


def _under_way(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    colours = {str(o.get("code")): COLOURS.get(str(o.get("colour_fr")), PANEL) for o in view.get("offices") or []}
    r, a = view.get("round"), view.get("auction")
    if r:
        text = f"Tour de don {r['number']} : {r['donor']} donne ({r['placed']} sur {r['of']} cartes placées)"
        scene.add(Text(MARGIN, y, fit(text, WIDTH - 2 * MARGIN, HEAD_SIZE, True), HEAD_SIZE, True))
        y += 32
        centre = [(str(c.get("fr")), _card_colour(c, colours)) for c in r.get("centre") or []]
        label = "Au centre :"
        scene.add(Text(MARGIN, y + 13, label, TEXT_SIZE, False, INK, "lm"))
        x = MARGIN + text_width(label, TEXT_SIZE) + 12
        if centre:
            y += max(chips(scene, x, y, WIDTH - MARGIN - x, centre, size=TEXT_SIZE), 26) + 12
        else:
            scene.add(Text(x, y + 13, "rien pour l'instant", TEXT_SIZE, False, MUTED, "lm"))
            y += 38
    if a:
        current = a.get("current")
        text = f"Enchère {a['number']} sur {a['total']}"
        scene.add(Text(MARGIN, y, text, HEAD_SIZE, True))
        y += 32
        if current:
            label = "En vente :"
            scene.add(Text(MARGIN, y + 13, label, TEXT_SIZE, False, INK, "lm"))
            x = MARGIN + text_width(label, TEXT_SIZE) + 12
            x += chip(scene, x, y, str(current.get("fr")), _card_colour(current, colours), size=TEXT_SIZE) + 12
            pay = "se paie en défaussant des cartes de sa main" if current.get("kind") == "gold" else "se paie en Or"
            scene.add(Text(x, y + 13, f"{pay} ; priorité à {a['opener']}", TEXT_SIZE, False, MUTED, "lm"))
            y += 40
        left = a.get("left")
        if left is not None and current:
            scene.add(Text(MARGIN, y, f"Encore {left} cartes à vendre après celle-ci" if left > 1 else
                           ("Encore 1 carte à vendre après celle-ci" if left == 1 else "Dernière carte en vente"),
                           SMALL_SIZE, False, MUTED))
            y += 24
    sales = list(view.get("sales") or [])[-3:]
    if sales:
        scene.add(Text(MARGIN, y, "Dernières ventes", TEXT_SIZE, True))
        y += 26
        for s in sales:
            card = s.get("card") or {}
            if s.get("winner"):
                price = (f"contre {s['price']} cartes de sa main" if card.get("kind") == "gold"
                         else f"à {s['price']} en Or")
                text = f"Enchère {s['number']} : {s['winner']} prend {card.get('fr')} {price}"
            else:
                text = f"Enchère {s['number']} : personne ne prend {card.get('fr')}"
            scene.add(Text(MARGIN + 12, y, fit(text, WIDTH - 2 * MARGIN - 12, TEXT_SIZE), TEXT_SIZE))
            y += 24
        y += 6
    return y + 6


def _counts(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    hands = [f"{h['player']} {h['count']}" for h in view.get("hands") or []]
    lines = []
    if hands:
        lines.append("Cartes en main : " + ", ".join(hands))
    lines.append(f"Pioche : {view.get('deck', 0)} ; paquet neutre : {view.get('neutral', 0)}")
    kings = [str(k.get("fr")) for k in view.get("kings_played") or []]
    if kings:
        lines.append("Cartes Roi jouées : " + ", ".join(kings))
    asked = list(view.get("asked") or [])
    if asked and not view.get("over"):
        lines.append("Décision attendue de " + (asked[0] if len(asked) == 1 else ", ".join(asked[:-1])
                                                 + f" et {asked[-1]}"))
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, 8 + 24 * sum(len(wrap(t, WIDTH - 2 * MARGIN - 24, TEXT_SIZE))
                                                             for t in lines) + 8, fill=PANEL, radius=8))
    y += 10
    for text in lines:
        for line in wrap(text, WIDTH - 2 * MARGIN - 24, TEXT_SIZE):
            scene.add(Text(MARGIN + 12, y, line, TEXT_SIZE, False, INK))
            y += 24
    return y + 16


def _result(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    result = view.get("result")
    if not result:
        return y
    seats = list(view.get("seats") or [])
    secondary = bool(view.get("secondary"))
    scene.add(Text(MARGIN, y, "Le décompte", HEAD_SIZE, True))
    y += 32
    first_w = 250
    col = (WIDTH - 2 * MARGIN - first_w) / max(1, len(seats))
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, 30, fill="#3b2f2a", radius=6))
    scene.add(Text(MARGIN + 10, y + 15, "Ministère", SMALL_SIZE, True, "#ffffff", "lm"))
    for i, p in enumerate(seats):
        scene.add(Text(MARGIN + first_w + (i + 0.5) * col, y + 15, fit(p, col - 8, SMALL_SIZE, True), SMALL_SIZE, True,
                       "#ffffff", "mm"))
    y += 34
    for s in result.get("standings") or []:
        m = s.get("ministry") or {}
        fill = tint(COLOURS.get(str(m.get("colour_fr")), PANEL), 0.7)
        scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, 30, fill=fill, radius=4))
        value = f"{s.get('value')}" + (f" / {s.get('secondary_value')}" if secondary else "")
        scene.add(Text(MARGIN + 10, y + 15, fit(f"{m.get('fr')} ({value})", first_w - 16, SMALL_SIZE, True),
                       SMALL_SIZE, True, INK, "lm"))
        totals = {t["player"]: t for t in s.get("totals") or []}
        for i, p in enumerate(seats):
            t = totals.get(p)
            mark = " ★" if p == s.get("primary") else (" ☆" if secondary and p == s.get("secondary") else "")
            text = "—" if t is None else f"{t['total']} ({t['letter']}){mark}"
            scene.add(Text(MARGIN + first_w + (i + 0.5) * col, y + 15, text, SMALL_SIZE, bool(mark), INK, "mm"))
        y += 34
    points = {r["player"]: r for r in result.get("ranking") or []}
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, 32, fill=PANEL, radius=4))
    scene.add(Text(MARGIN + 10, y + 16, "Points de fonctions", SMALL_SIZE, True, INK, "lm"))
    for i, p in enumerate(seats):
        if p in points:
            scene.add(Text(MARGIN + first_w + (i + 0.5) * col, y + 16, str(points[p]["points"]), TEXT_SIZE, True, INK,
                           "mm"))
    y += 40
    legend = "★ fonction primaire" + (" ; ☆ fonction secondaire" if secondary else "")
    scene.add(Text(MARGIN, y, legend, SMALL_SIZE, False, MUTED))
    y += 26
    winners = list(result.get("winners") or [])
    if winners:
        text = (f"{winners[0]} l'emporte" if len(winners) == 1
                else "Victoire partagée : " + ", ".join(winners[:-1]) + f" et {winners[-1]}")
        scene.add(Text(MARGIN, y + 4, text, HEAD_SIZE, True, ALERT))
        y += 34
    return y
