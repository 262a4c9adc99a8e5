"""Courtisans' court: where the Court is, the sovereigns, and each courtisan's cotes on the -2 to 9 scale,
titles, charges, fortune and situation: the Grand Registre as a picture.

Drawn from the public view only (branch ``courtisans``, `pbem.games.courtisans.views`): ``place``,
``wars``, ``crown``, ``chamberlain``, ``chancellor``, ``round``, ``courtiers`` (``who``, ``status``,
``cote_roi``, ``cote_reine``, ``possessions``, ``livres``, ``income``, ``spouse``, ``favorite``,
``lover``, ``hand_count``), ``maison``, ``deck_count``, ``discard_count``, ``winners``.  A cote the
view gives as ``None`` (no sovereign, or not public) is drawn as « sans cote »; fortunes the view
hides (option ``public_fortunes`` off) show « ? ».  Every key read is named in ``KEYS`` so a
change of the view on that branch is one place to follow.
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
    WHITE,
    Box,
    Scene,
    Text,
    fit,
    money,
    text_width,
    tint,
    title_bar,
    wrap,
)

KEYS = ("round", "over", "place", "wars", "crown", "chamberlain", "chancellor", "turn_of", "turn_kind", "courtiers",
        "maison", "deck_count", "discard_count", "winners", "target", "max_rounds")
"""The public view's keys this picture reads."""

COTE_MIN, COTE_MAX = -2, 9
WIDTH = 1200
MARGIN = 16
NAME_W, STATUS_W, GAUGE_W = 340, 118, 230

PLACES = {"versailles": "à Versailles", "chasse": "à la Chasse", "guerre": "à la Guerre"}
PLACE_COLOURS = {"versailles": "#1f3b73", "chasse": "#2f6b3a", "guerre": "#8b1e1e"}
COUNTRIES = {"anglais": "l'Angleterre", "hollandais": "la Hollande", "espagnol": "l'Espagne"}
NATIONS_F = {"anglais": "anglaise", "hollandais": "hollandaise", "espagnol": "espagnole"}
STATUS = {"cour": ("à la Cour", "#2f6b3a"), "exil": ("en exil", "#8a6d1f"), "bastille": ("à la Bastille", "#5b2a86"),
          "mort": ("mort", "#555555")}
ROI_COLOUR, REINE_COLOUR = "#1f3b73", "#9c2f5f"


def draw(view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene:
    scene = Scene(WIDTH, 10)
    y = title_bar(scene, "Courtisans", title) + 12
    y = _court(scene, view, events, y) + 12
    y = _register(scene, view, y)
    y = _maison(scene, view, y + 8)
    y = _footer(scene, view, y)
    scene.height = int(y + MARGIN)
    return scene


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" et {items[-1]}"


def _ended(view: Mapping[str, Any], events: Sequence[Event]) -> int:
    """The round this step closed (its last turn, or the turn the round stopped at), 0 if it closed none: the
    view is already at the next round, while the post's title names the step's own."""
    started = [int(e.data["round"]) for e in events if e.kind == "round_started"]
    return started[-1] - 1 if started and started[-1] > 1 and started[-1] == view.get("round") else 0


def _rounds(view: Mapping[str, Any], events: Sequence[Event]) -> str:
    """« manche 6 sur 20 », the round the title of the post names (« terminée » when this step closed it)."""
    ended = _ended(view, events)
    out = f"manche {ended or view.get('round')}" + (f" sur {view['max_rounds']}" if view.get("max_rounds") else "")
    return out + (", terminée" if ended else "")


def _court(scene: Scene, view: Mapping[str, Any], events: Sequence[Event], y: float) -> float:
    place = str(view.get("place", ""))
    fill = PLACE_COLOURS.get(place, TITLE_FALLBACK)
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, 56, fill=fill, radius=8))
    where = f"La Cour est {PLACES.get(place, place)}"
    wars = [COUNTRIES.get(w, w) for w in view.get("wars") or []]
    if wars:
        where += f", en guerre contre {_and(wars)}"
    scene.add(Text(MARGIN + 16, y + 28, fit(where, WIDTH * 0.62, HEAD_SIZE + 3, True), HEAD_SIZE + 3, True, WHITE,
                   "lm"))
    scene.add(Text(WIDTH - MARGIN - 16, y + 28, _rounds(view, events), HEAD_SIZE, False, WHITE, "rm"))
    y += 66
    lines = [_crown(view.get("crown") or {})]
    officers = []
    if view.get("chamberlain"):
        label = "Chambellan de la manche suivante" if _ended(view, events) else "Chambellan"
        officers.append(f"{label} : {view['chamberlain']['who']}")
    if view.get("chancellor"):
        officers.append(f"Chancelier : {view['chancellor']['who']}")
    if view.get("target"):
        officers.append(f"objectif : {money(int(view['target']))} livres")
    if officers:
        lines.append(" · ".join(officers))
    for line in lines:
        for part in wrap(line, WIDTH - 2 * MARGIN, TEXT_SIZE):
            scene.add(Text(MARGIN, y, part, TEXT_SIZE))
            y += 24
    return y


TITLE_FALLBACK = "#3b2f2a"


def _crown(crown: Mapping[str, Any]) -> str:
    nation = NATIONS_F.get(str(crown.get("nation")), "")
    queen = f"la Reine{' (' + nation + ')' if nation else ''}"
    if crown.get("regent"):
        until = crown.get("regency_until")
        return f"La Régente{' (' + nation + ')' if nation else ''} gouverne" + (
            f" jusqu'au début de la manche {until}" if until else "") + "."
    if crown.get("king") and crown.get("queen"):
        return f"Sur le trône : le Roi et {queen}."
    if crown.get("king"):
        wife = crown.get("secret_wife")
        return "Le Roi est veuf" + (f", marié en secret à {wife['who']}" if wife else "") + "."
    return "Le trône est vacant."


def _register(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    scene.add(Text(MARGIN, y, "Grand Registre des Courtisans", HEAD_SIZE, True))
    y += 30
    x_status = MARGIN + NAME_W
    x_roi = x_status + STATUS_W
    x_reine = x_roi + GAUGE_W + 16
    x_livres = x_reine + GAUGE_W + 16
    for x, label in ((MARGIN + 10, "Courtisan"), (x_status, "Situation"), (x_roi, "Cote auprès du Roi"),
                     (x_reine, "Cote auprès de la Reine"), (x_livres, "Livres")):
        scene.add(Text(x, y, label, SMALL_SIZE, True, MUTED))
    y += 20
    scene.add(Text(x_roi, y, "de −2 à 9, le trait marque 0", SMALL_SIZE - 2, False, MUTED))
    scene.add(Text(x_reine, y, "de −2 à 9, le trait marque 0", SMALL_SIZE - 2, False, MUTED))
    y += 20
    for c in view.get("courtiers") or []:
        y = _courtier(scene, c, y, x_status, x_roi, x_reine, x_livres) + 6
    return y


def _courtier(scene: Scene, c: Mapping[str, Any], y: float, x_status: float, x_roi: float, x_reine: float,
              x_livres: float) -> float:
    details = _details(c)
    lines = wrap(details, WIDTH - 2 * MARGIN - 24, SMALL_SIZE) if details else []
    h = 44 + 20 * len(lines) + (6 if lines else 0)
    dead = c.get("status") == "mort"
    scene.add(Box(MARGIN, y, WIDTH - 2 * MARGIN, h, fill=tint("#9a9a9a", 0.75) if dead else PANEL, radius=6))
    marks = [m for m, on in (("Favorite", c.get("favorite")), ("Amant de la Reine", c.get("lover"))) if on]
    name = str(c.get("who", c.get("player", "")))
    scene.add(Text(MARGIN + 10, y + 22, fit(name, NAME_W - 20, TEXT_SIZE, True), TEXT_SIZE, True, INK, "lm"))
    status = str(c.get("status", ""))
    label, colour = STATUS.get(status, (status, MUTED))
    if status == "mort" and c.get("f"):
        label = "morte"
    w = text_width(label, SMALL_SIZE, True) + 14
    scene.add(Box(x_status, y + 10, w, 24, fill=colour, radius=6),
              Text(x_status + 7, y + 22, label, SMALL_SIZE, True, WHITE, "lm"))
    _gauge(scene, x_roi, y + 10, c.get("cote_roi"), ROI_COLOUR)
    _gauge(scene, x_reine, y + 10, c.get("cote_reine"), REINE_COLOUR)
    livres = c.get("livres")
    scene.add(Text(x_livres, y + 22, "?" if livres is None else money(int(livres)), TEXT_SIZE, True, INK, "lm"))
    if c.get("income"):
        scene.add(Text(WIDTH - MARGIN - 10, y + 22, f"+{money(int(c['income']))} par tour", SMALL_SIZE, False, MUTED,
                       "rm"))
    ty = y + 42
    if marks:
        lines = wrap(" · ".join(marks) + (" · " + details if details else ""), WIDTH - 2 * MARGIN - 24, SMALL_SIZE)
    for line in lines:
        scene.add(Text(MARGIN + 10, ty, line, SMALL_SIZE, False, ALERT if marks and line == lines[0] else INK))
        ty += 20
    return y + max(h, ty - y + 6)


def _details(c: Mapping[str, Any]) -> str:
    """Titles, charges, pensions, spouse and cards in hand: the second line of a courtisan."""
    by_kind: dict[str, list[str]] = {}
    for p in c.get("possessions") or []:
        by_kind.setdefault(str(p.get("kind")), []).append(str(p.get("name")))
    parts = []
    if by_kind.get("titre"):
        parts.append("Titres : " + ", ".join(by_kind["titre"]) if len(by_kind["titre"]) > 1
                     else "Titre : " + by_kind["titre"][0])
    charges = by_kind.get("charge", []) + by_kind.get("marechalat", [])
    if charges:
        parts.append(("Charges : " if len(charges) > 1 else "Charge : ") + ", ".join(charges))
    pensions = len(by_kind.get("pension", []))
    if pensions:
        parts.append("1 pension" if pensions == 1 else f"{pensions} pensions")
    if c.get("spouse"):
        parts.append(("épouse de " if c.get("f") else "époux de ") + str(c["spouse"]["who"]))
    n = c.get("hand_count")
    if n is not None and c.get("status") != "mort":
        parts.append("aucune carte en main" if n == 0 else "1 carte en main" if n == 1 else f"{n} cartes en main")
    return " · ".join(parts)


def _gauge(scene: Scene, x: float, y: float, value: Any, colour: str) -> None:
    """The -2 to 9 scale as 12 cells, the courtisan's cote filled in and written at the end."""
    cells = COTE_MAX - COTE_MIN + 1
    cell = (GAUGE_W - 40) / cells
    if value is None:
        scene.add(Text(x, y + 12, "sans cote", SMALL_SIZE, False, MUTED, "lm"))
        return
    v = max(COTE_MIN, min(COTE_MAX, int(value)))
    for i in range(cells):
        level = COTE_MIN + i
        fill = colour if level == v else (tint(colour, 0.6) if level < v else "#ffffff")
        scene.add(Box(x + i * cell, y + 2, cell - 2, 20, fill=fill, outline=RULE))
        if level == 0:
            scene.add(Box(x + i * cell, y + 22, cell - 2, 2, fill=INK))
    scene.add(Text(x + cells * cell + 8, y + 12, str(int(value)).replace("-", "−"), TEXT_SIZE, True, colour, "lm"))


def _maison(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    cards = [str(c.get("name")) for c in view.get("maison") or []]
    text = "Maison du Roi : " + (", ".join(cards) if cards else "vide") + "."
    counts = f"Pioche : {view.get('deck_count', 0)} cartes ; défausse : {view.get('discard_count', 0)}."
    for line in [*wrap(text, WIDTH - 2 * MARGIN, TEXT_SIZE), counts]:
        scene.add(Text(MARGIN, y, line, TEXT_SIZE, False, INK if line != counts else MUTED))
        y += 24
    return y


def _footer(scene: Scene, view: Mapping[str, Any], y: float) -> float:
    winners = [str(w["who"]) for w in view.get("winners") or []]
    if view.get("over"):
        text = (f"{winners[0]} remporte la partie" if len(winners) == 1
                else f"Victoire partagée : {_and(winners)}" if winners else "Partie terminée")
        scene.add(Text(MARGIN, y + 6, fit(text, WIDTH - 2 * MARGIN, HEAD_SIZE, True), HEAD_SIZE, True, ALERT))
        return y + 36
    if view.get("turn_of"):
        kind = {"closing": " (tour de clôture du Chambellan)", "first": " (Chambellan)"}.get(
            str(view.get("turn_kind")), "")
        scene.add(Text(MARGIN, y + 6, f"Au tour de {view['turn_of']['who']}{kind}", TEXT_SIZE, False, MUTED))
        return y + 32
    return y
