"""A picture as plain data: boxes, lines, discs and texts on a canvas, before any pixel is drawn.

Every board picture is first built as a `Scene` by a game's drawing module, then rasterised by
`pbem.pictures.raster`.  The scene is the seam the tests read: its texts are exactly the labels
drawn, its items say where.  A scene is a pure function of the public view and public events it
was built from, and its `digest` names it independently of the imaging library's version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from pbem.memo import memo
from pbem.shipped import DATA

Colour = str
"""``#rrggbb``."""

INK: Colour = "#1b1b1b"
MUTED: Colour = "#555555"
PAPER: Colour = "#fbf8f1"
PANEL: Colour = "#efe9dc"
RULE: Colour = "#b9ae97"
TITLE_BAR: Colour = "#3b2f2a"
WHITE: Colour = "#ffffff"
DEAD: Colour = "#8a8a8a"
ALERT: Colour = "#a4161a"

PLAYER_COLOURS: tuple[Colour, ...] = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
                                      "#7a5195", "#8c6d31")
"""Player colours: the Okabe-Ito palette (told apart by colour-blind readers too), then two more."""

TEXT_SIZE = 17
SMALL_SIZE = 14
HEAD_SIZE = 19
TITLE_SIZE = 26


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    fill: Colour | None = None
    outline: Colour | None = None
    width: int = 1
    radius: int = 0


@dataclass(frozen=True)
class Line:
    points: tuple[tuple[float, float], ...]
    colour: Colour = INK
    width: int = 1


@dataclass(frozen=True)
class Disc:
    x: float
    y: float
    r: float
    fill: Colour | None = None
    outline: Colour | None = None
    width: int = 1


@dataclass(frozen=True)
class Text:
    """One label.  ``anchor`` is Pillow's two-letter anchor: horizontal l/m/r, vertical a (top)/m/s (baseline)."""

    x: float
    y: float
    text: str
    size: int = TEXT_SIZE
    bold: bool = False
    colour: Colour = INK
    anchor: str = "la"
    strike: bool = False


Item = Box | Line | Disc | Text


@dataclass
class Scene:
    """A canvas and what is drawn on it, in drawing order."""

    width: int
    height: int
    background: Colour = PAPER
    items: list[Item] = field(default_factory=list)

    def add(self, *items: Item) -> None:
        self.items.extend(items)

    def texts(self) -> list[str]:
        """Every label drawn, in drawing order (what a reader of the picture can read)."""
        return [i.text for i in self.items if isinstance(i, Text)]

    def text_items(self) -> list[Text]:
        return [i for i in self.items if isinstance(i, Text)]

    def data(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "background": self.background,
                "items": [{"type": type(i).__name__, **asdict(i)} for i in self.items]}

    def digest(self) -> str:
        """SHA-256 of the scene's canonical JSON: the same drawing gives the same digest on any machine."""
        raw = json.dumps(self.data(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- fonts and measures


def font_path(bold: bool) -> str:
    """The packaged DejaVu Sans (a Latin subset, see ``data/fonts/LICENSE.txt``): no system font needed."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return str(DATA / "fonts" / name)


@lru_cache(maxsize=32)
def font(size: int, bold: bool) -> Any:
    """A Pillow font (kept: fonts are read once per size)."""
    from PIL import ImageFont

    return ImageFont.truetype(font_path(bold), size, layout_engine=ImageFont.Layout.BASIC)


@memo(maxsize=4096, max_key=200)
def text_width(text: str, size: int = TEXT_SIZE, bold: bool = False) -> float:
    return float(font(size, bold).getlength(text))


def fit(text: str, room: float, size: int = TEXT_SIZE, bold: bool = False) -> str:
    """``text``, cut with « … » if it is wider than ``room`` pixels."""
    if text_width(text, size, bold) <= room:
        return text
    while text and text_width(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, room: float, size: int = TEXT_SIZE, bold: bool = False) -> list[str]:
    """``text`` broken into lines of at most ``room`` pixels, at spaces (a word too long is cut)."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= room or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return [fit(line, room, size, bold) for line in lines]


def on(colour: Colour) -> Colour:
    """Black or white, whichever reads best on ``colour`` (WCAG relative luminance)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return INK if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else WHITE


def tint(colour: Colour, amount: float) -> Colour:
    """``colour`` mixed with white (``amount`` 0: unchanged, 1: white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in (r, g, b))


def money(n: int) -> str:
    """« 320 000 »: thousands apart by a narrow no-break space."""
    return f"{n:,}".replace(",", "\u202f")


# ---------------------------------------------------------------- pieces every board uses


def title_bar(scene: Scene, title: str, subtitle: str = "") -> float:
    """The dark band at the top with the game's name and the step; returns the y below it."""
    scene.add(Box(0, 0, scene.width, 48, fill=TITLE_BAR))
    title = fit(title, scene.width * 0.4, TITLE_SIZE, True)
    scene.add(Text(20, 24, title, TITLE_SIZE, True, WHITE, "lm"))
    if subtitle:
        room = scene.width - 60 - text_width(title, TITLE_SIZE, True)
        scene.add(Text(scene.width - 20, 24, fit(subtitle, room, HEAD_SIZE), HEAD_SIZE, False, "#f3e9d2", "rm"))
    return 48


def chip(scene: Scene, x: float, y: float, label: str, colour: Colour, *, size: int = SMALL_SIZE,
         room: float = 400, bold: bool = False) -> float:
    """A rounded label filled with ``colour``; returns its width."""
    text = fit(label, room - 12, size, bold)
    w = text_width(text, size, bold) + 12
    h = size + 10
    scene.add(Box(x, y, w, h, fill=colour, outline=None, radius=6),
              Text(x + 6, y + h / 2, text, size, bold, on(colour), "lm"))
    return w


def chips(scene: Scene, x: float, y: float, room: float, items: list[tuple[str, Colour]], *,
          size: int = SMALL_SIZE, gap: float = 6) -> float:
    """Chips laid left to right, wrapping within ``room``; returns the height used."""
    if not items:
        return 0.0
    cx, cy, h = x, y, size + 10
    for label, colour in items:
        w = min(text_width(label, size) + 12, room)
        if cx > x and cx + w > x + room:
            cx, cy = x, cy + h + gap
        cx += chip(scene, cx, cy, label, colour, size=size, room=room) + gap
    return cy + h - y
