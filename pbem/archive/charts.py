"""Line charts as standalone SVG text: no script, no font or file fetched, the same bytes for the same data."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

from pbem.pictures.scene import PLAYER_COLOURS, money


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float | None, ...]
    """One value per x label; None leaves a gap (a dead player, a cote that is not public)."""
    colour: str = ""


@dataclass(frozen=True)
class Chart:
    """A chart over the game: one x label per step, one line per series."""

    slug: str
    """The file name without ``.svg``."""
    title: str
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    y_min: float | None = None
    y_max: float | None = None
    caption: str = ""
    integer_ticks: bool = field(default=True)


W, H = 900, 420
LEFT, RIGHT, TOP, BOTTOM = 86, 200, 48, 64


def _ticks(low: float, high: float, integer: bool) -> list[float]:
    """About five round steps covering ``low`` to ``high`` (the last one at or above ``high``)."""
    span = high - low or 1
    raw = span / 5
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, round(step))
    start = math.floor(low / step) * step
    out = [start]
    while out[-1] < high - step / 1000:  # up to the first round value at or above the highest point
        out.append(out[-1] + step)
    return out


def _label(v: float) -> str:
    text = money(int(v)) if abs(v) >= 10_000 and v == int(v) else (str(int(v)) if v == int(v) else f"{v:g}")
    return text.replace("-", "−")


def svg(chart: Chart) -> str:
    values = [v for s in chart.series for v in s.values if v is not None]
    low = chart.y_min if chart.y_min is not None else min([0.0, *values])
    high = chart.y_max if chart.y_max is not None else max([1.0, *values])
    ticks = _ticks(low, high, chart.integer_ticks)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    n = max(1, len(chart.x_labels) - 1)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + pw * i / n

    def y(v: float) -> float:
        return TOP + ph * (1 - (v - low) / ((high - low) or 1))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
           f'aria-label="{escape(chart.title)}" font-family="DejaVu Sans, Verdana, sans-serif">',
           f"<title>{escape(chart.title)}</title>",
           f'<rect width="{W}" height="{H}" fill="#fbf8f1"/>',
           f'<text x="{LEFT}" y="28" font-size="18" font-weight="bold" fill="#1b1b1b">{escape(chart.title)}</text>']
    for t in ticks:
        out.append(f'<line x1="{LEFT}" y1="{y(t):.1f}" x2="{LEFT + pw}" y2="{y(t):.1f}" stroke="#d8cfbd"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y(t) + 5:.1f}" font-size="13" text-anchor="end" '
                   f'fill="#444">{_label(t)}</text>')
    every = max(1, math.ceil(len(chart.x_labels) / 16))
    for i, lab in enumerate(chart.x_labels):
        if i % every == 0 or i == len(chart.x_labels) - 1:
            out.append(f'<text x="{x(i):.1f}" y="{TOP + ph + 20}" font-size="12" text-anchor="middle" '
                       f'fill="#444">{escape(lab)}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + ph}" x2="{LEFT + pw}" y2="{TOP + ph}" stroke="#444"/>')
    for k, s in enumerate(chart.series):
        colour = s.colour or PLAYER_COLOURS[k % len(PLAYER_COLOURS)]
        runs: list[list[str]] = [[]]
        for i, v in enumerate(s.values):
            if v is None:
                runs.append([])
            else:
                runs[-1].append(f"{x(i):.1f},{y(v):.1f}")
        for run in runs:
            if len(run) > 1:
                out.append(f'<polyline points="{" ".join(run)}" fill="none" stroke="{colour}" stroke-width="3" '
                           'stroke-linejoin="round"/>')
            elif run:
                cx, cy = run[0].split(",")
                out.append(f'<circle cx="{cx}" cy="{cy}" r="4" fill="{colour}"/>')
        ly = TOP + 10 + k * 24
        out.append(f'<rect x="{W - RIGHT + 18}" y="{ly - 6}" width="18" height="6" fill="{colour}"/>')
        out.append(f'<text x="{W - RIGHT + 42}" y="{ly + 1}" font-size="14" fill="#1b1b1b">{escape(s.name[:22])}'
                   "</text>")
    if chart.caption:
        out.append(f'<text x="{LEFT}" y="{H - 14}" font-size="13" fill="#555">{escape(chart.caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
