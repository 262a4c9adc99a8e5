"""Where the files pbem ships stand: ``templates/``, ``data/`` and ``docs/`` are at the top of the repository,
beside ``pbem/`` (the product card's layout); a wheel carries them inside the package, as ``pbem/templates/``,
``pbem/data/`` and ``pbem/docs/`` (setup.py copies them in at build time).  An editable install or a source
checkout reads the repository's own."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCE = PACKAGE.parent


def shipped(name: str) -> Path:
    """The folder ``name`` (``templates``, ``data``, ``docs``): in the package when built, else the repository's."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else SOURCE / name


TEMPLATES = shipped("templates")
"""The packaged templates: ``common/`` and one folder per game."""
DATA = shipped("data")
"""Default data: the commented config, 1626 sample sheets, card files, the pictures' fonts."""
DOCS = shipped("docs")
"""The MJ's guide and the rules pages."""
