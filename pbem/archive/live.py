"""A live archive (``archive_dir`` in a game's config): the pass refreshes the archive folder after each
published step, so players have one page to look at (serving the folder is the MJ's web server's job).

The archive is rebuilt when the game's public record has an edition the folder does not show yet
(`pbem.archive.edition`: a new published step, a correction published as a RECTIFICATIF, the seed revealed);
otherwise the pass leaves it alone, so a pass with nothing new costs a read of one small file.  A rebuild
draws only the pictures whose inputs changed (the new step's, a corrected one's: `pbem.archive.PICTURES`) and
rewrites only the files whose bytes changed, so a publish late in a long game costs one picture, not one a step.
"""

from __future__ import annotations

from pathlib import Path

from pbem.archive import EDITION, build, edition
from pbem.engine import Engine


def shown_edition(folder: Path) -> str | None:
    """The edition of the record the archive in ``folder`` shows (None: no archive there, or an older one)."""
    if not (folder / "index.html").is_file() or not (folder / EDITION).is_file():
        return None
    return (folder / EDITION).read_text("utf-8", errors="replace")


def refresh(engine: Engine, game_id: str, folder: Path) -> bool:
    """Rebuild the archive in ``folder`` if the game's public record changed since it was written; whether it did."""
    if shown_edition(folder) == edition(engine, game_id):
        return False
    build(engine, game_id, folder)
    return True
