"""The MJ's guide and the rules pages, as installed: `pbem guide` prints them, `pbem init` copies them.

A wheel carries them in ``pbem/docs/`` (setup.py copies the repository's top-level ``docs/`` there at
build time); an editable install or a source checkout reads the repository's ``docs/`` itself.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pbem import games
from pbem.msg import Msg, PbemError
from pbem.shipped import DOCS
from pbem.wording import join_list

GUIDE = "guide-mj.md"


class GuideError(PbemError):
    """A page pbem does not have, or docs missing from a broken install."""


def docs_dir() -> Path:
    """Where the installed docs are: in the package (a wheel), else the source tree's ``docs/``."""
    return DOCS


def pages() -> list[str]:
    """What `pbem guide` can show: ``guide`` (the MJ's guide), ``scenarios``, and each game's rules page."""
    root = docs_dir()
    return ["guide", "scenarios", *sorted(p.stem for p in (root / "rules").glob("*.md"))]


def page_path(name: str | None) -> Path:
    """The file of a page: none is the MJ's guide; a game by its name or alias (« pourmabelle » is pmb)."""
    root = docs_dir()
    if name in (None, "guide", "mj"):
        path = root / GUIDE
    elif name == "scenarios":
        path = root / "scenarios.md"
    else:
        try:
            game = games.canonical(str(name))
        except KeyError:
            game = str(name)
        path = root / "rules" / f"{game}.md"
        if game not in pages() or not path.is_file():  # (a page name, never a path: « ../x » names none)
            raise GuideError(Msg(f"pas de page «\u00a0{name}\u00a0»\u00a0: pbem guide montre "
                                 f"{join_list(pages(), 'fr')}",
                                 f"no page {name!r}: pbem guide shows {join_list(pages(), 'en')}"))
    if not path.is_file():
        raise GuideError(Msg(f"{path} manque\u00a0: cette installation de pbem est incomplète (réinstallez-la)",
                             f"{path} is missing: this pbem install is incomplete (install it again)"))
    return path


def copy_docs(folder: Path) -> list[Path]:
    """The guide and the rules pages copied into ``folder`` (``docs/guide-mj.md``, ``docs/rules/<game>.md``),
    files already there left alone (the MJ may have annotated them)."""
    root = docs_dir()
    made = []
    for source in [root / GUIDE, root / "scenarios.md", *sorted((root / "rules").glob("*.md"))]:
        target = folder / source.relative_to(root)
        if source.is_file() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            made.append(target)
    return made
