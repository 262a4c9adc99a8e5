"""A live archive (``archive_dir`` in a game's config): the pass refreshes the archive folder after each
published step, so players have one page to look at (serving the folder is the MJ's web server's job).

The archive is rebuilt when the game has published a step the folder does not show yet (one post page per
published step: ``turn-<n>.html``); otherwise the pass leaves it alone, so a pass with nothing new costs a
directory listing.  A correction (RECTIFICATIF) changes no count: `pbem archive` by hand brings it in.
"""

from __future__ import annotations

from pathlib import Path

from pbem.archive import build
from pbem.engine import Engine


def published_posts(engine: Engine, game_id: str) -> int:
    """How many posts the archive of ``game_id`` has now: its published steps and its start."""
    return sum(1 for rec in engine.store.records(game_id) if rec.kind != "action" and rec.published)


def refresh(engine: Engine, game_id: str, folder: Path) -> bool:
    """Rebuild the archive in ``folder`` if the game published a step it does not show; whether it did."""
    shown = sum(1 for _ in folder.glob("turn-*.html")) if folder.is_dir() else -1
    if shown == published_posts(engine, game_id) and (folder / "index.html").is_file():
        return False
    build(engine, game_id, folder)
    return True
