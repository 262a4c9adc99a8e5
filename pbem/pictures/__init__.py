"""Pictures of a step's public board, for the forum: public view and public events in, PNG out.

A game's drawing module (``pbem/pictures/<game>.py``, named by its registry entry's ``picture``) has one
function, ``draw(view, events, title) -> Scene``: it is given the public view (`Ruleset.view(state, PUBLIC)`),
the step's public events and the step's title, and nothing else: no state, no ruleset, no other
view.  `board_picture` is the only way in and refuses an event that is not public, so what a
picture can show is bounded by what the forum post may show (`pbem.engine.steps.letters` gives both
the same inputs).  A game without a drawing module has no picture (1626: its public view holds
only the characters' names and a count of tests, nothing worth a board).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem import games, serial, wording
from pbem.core import Event
from pbem.pictures import raster
from pbem.pictures.raster import png
from pbem.pictures.scene import Scene
from pbem.shipped import DATA

DRAWING_VERSION = 1
"""Part of every picture's `inputs_digest`: raise it when a drawing changes through code outside
``pbem/pictures/`` (a wording it borrows, say), so that the pictures kept by a live archive are drawn
again.  (A change to a file of ``pbem/pictures/`` changes the digests by itself.)"""

Drawer = Callable[[Mapping[str, Any], Sequence[Event], str], Scene]


@dataclass(frozen=True)
class Picture:
    """A drawn board: the scene (what is drawn, for tests and digests) and its PNG bytes."""

    scene: Scene
    png: bytes

    @property
    def digest(self) -> str:
        return self.scene.digest()


def has_picture(ruleset: str) -> bool:
    return games.entry(ruleset).picture is not None


def drawer(ruleset: str) -> Drawer:
    """The game's ``draw`` (KeyError for a game that has no picture)."""
    picture = games.entry(ruleset).picture
    if picture is None:
        raise KeyError(ruleset)
    draw: Drawer = games.load(picture)
    return draw


def board_scene(ruleset: str, view: Mapping[str, Any], events: Sequence[Event], title: str) -> Scene | None:
    """The scene of a step's public board (None for a game that has no picture)."""
    if not has_picture(ruleset):
        return None
    hidden = [e.kind for e in events if e.audience.kind != "public"]
    if hidden:
        raise ValueError(f"a picture is drawn from public events only, not {', '.join(hidden)}")
    return drawer(ruleset)(view, list(events), title)


@lru_cache(maxsize=1)
def _drawing() -> bytes:
    """What every picture depends on beside its inputs: the drawing code (the sources of this package, and
    `pbem.wording`, whose death marks it writes), the shipped fonts, the rasteriser's zlib level, Pillow's
    version (a new one may write other bytes) and `DRAWING_VERSION`."""
    import PIL  # (Pillow is loaded when a picture is drawn: `pbem tick` draws none)

    h = hashlib.sha256(f"{DRAWING_VERSION} {raster.PNG_LEVEL} {PIL.__version__}".encode())
    sources = [*sorted(Path(__file__).parent.glob("*.py")), Path(wording.__file__),
               *sorted((DATA / "fonts").glob("*.ttf"))]
    for source in sources:
        h.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return h.digest()


def inputs_digest(ruleset: str, view: Mapping[str, Any], events: Sequence[Event], title: str) -> str:
    """A name for the picture `board_picture` would draw from these inputs, known before drawing it: the same
    digest, the same PNG bytes (a live archive keeps the pictures whose digest did not change, issue #24)."""
    data = [ruleset, view, [[e.kind, e.audience.kind, e.audience.players, e.data] for e in events], title]
    try:  # (a view is JSON-compatible data, as the events' data are: dumped as it is, in its own order)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except TypeError:  # (one holding a record, say)
        text = json.dumps(serial.to_data(data), ensure_ascii=False, separators=(",", ":"))
    h = hashlib.sha256(_drawing())
    h.update(text.encode())
    return h.hexdigest()


def board_picture(ruleset: str, view: Mapping[str, Any], events: Sequence[Event], title: str) -> Picture | None:
    """The picture of a step's public board (None for a game that has no picture)."""
    scene = board_scene(ruleset, view, events, title)
    return None if scene is None else Picture(scene, png(scene))
