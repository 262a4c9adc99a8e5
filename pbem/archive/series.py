"""Charts over a game, from the public view after each step: money at Intrigue, the living at Pour Ma Belle,
the offices at Pour le Roi, the cotes at Courtisans.

Each builder reads only public views (the same ``Ruleset.view(state, PUBLIC)`` the forum gets), one
per step in order, with the step's label; a game's registry entry names its builder (``charts``), and a
game without one has no chart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem import games
from pbem.archive.charts import Chart, Series
from pbem.pictures.pourleroi import COLOURS as MINISTRY_COLOURS

Steps = Sequence[tuple[str, Mapping[str, Any]]]
"""(x label, public view after the step), the setup first."""


def intrigue(steps: Steps) -> list[Chart]:
    seats = [p["name"] for p in steps[-1][1]["board"]["players"]]
    money = {p: [] for p in seats}  # type: dict[str, list[float | None]]
    for _, view in steps:
        held = {p["name"]: p["money"] for p in view["board"]["players"]}
        for p in seats:
            money[p].append(held.get(p))
    # the axis in step numbers, as the posts are numbered (a round's first step is said in the caption)
    firsts = [label for i, (label, view) in enumerate(steps)
              if i and isinstance(view.get("round"), int) and view.get("round") != steps[i - 1][1].get("round")]
    rounds = f" ; une manche commence aux étapes {', '.join(firsts)}" if firsts else ""
    return [Chart("argent", "Argent de chaque joueur", tuple(label for label, _ in steps),
                  tuple(Series(p, tuple(money[p])) for p in seats), y_min=0,
                  caption=f"après chaque étape (en abscisse, le numéro de l'étape){rounds}")]


def pmb(steps: Steps) -> list[Chart]:
    living = tuple(float(len(v.get("living", []))) for _, v in steps)
    donjon = tuple(float(len(set(v.get("donjon", [])) - set(v.get("dead", [])))) for _, v in steps)
    cells = tuple(float(len(v.get("prisoners", []))) for _, v in steps)
    return [Chart("vivants", "Les vivants, tour après tour", _labels(steps),
                  (Series("En vie", living, "#1f5f3a"), Series("au Donjon Rouge", donjon, "#7f1d1d"),
                   Series("aux cachots", cells, "#8a6d1f")), y_min=0, caption="après chaque tour")]


def pourleroi(steps: Steps) -> list[Chart]:
    offices = [(o["code"], o["fr"], o.get("colour_fr")) for o in steps[-1][1].get("offices", [])]
    series = []
    for code, name, colour in offices:
        values = tuple(next((float(o["value"]) for o in v.get("offices", []) if o["code"] == code), None)
                       for _, v in steps)
        series.append(Series(name, values, _visible(MINISTRY_COLOURS.get(str(colour), ""))))
    return [Chart("fonctions", "Valeur des fonctions primaires", _labels(steps), tuple(series), y_min=0, y_max=6,
                  caption="après chaque étape")]


def courtisans(steps: Steps) -> list[Chart]:
    people = [(c["player"], c) for c in steps[-1][1].get("courtiers", [])]
    charts = []
    for key, slug, title in (("cote_roi", "cotes-roi", "Cote auprès du Roi"),
                             ("cote_reine", "cotes-reine", "Cote auprès de la Reine")):
        series = []
        for player, last in people:
            values = []
            for _, v in steps:
                c = next((c for c in v.get("courtiers", []) if c["player"] == player), None)
                values.append(None if c is None or c.get(key) is None else float(c[key]))
            series.append(Series(str(last.get("who", player)), tuple(values)))
        if any(v is not None for s in series for v in s.values):
            charts.append(Chart(slug, title, _labels(steps), tuple(series), y_min=-2, y_max=9,
                                caption="de −2 à 9 ; un trou : pas de cote (exil, Bastille, mort, pas de souverain)"))
    return charts


def _visible(colour: str) -> str:
    """The white ministry drawn in grey, so its line shows on the chart's light paper."""
    return "#8c8c8c" if colour.lower() in ("#f7f4ec", "#ffffff") else colour


def _labels(steps: Steps) -> tuple[str, ...]:
    out = []
    last_round = None
    for i, (label, view) in enumerate(steps):
        r = view.get("round")
        if isinstance(r, int) and r != last_round and i:
            out.append(f"m{r}")
        else:
            out.append(label)
        if isinstance(r, int):
            last_round = r
    return tuple(out)


def charts(ruleset: str, steps: Steps) -> list[Chart]:
    reference = games.entry(ruleset).charts
    if reference is None or not steps:
        return []
    builder: Callable[[Steps], list[Chart]] = games.load(reference)
    return builder(steps)
