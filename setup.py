"""The build step pyproject.toml cannot say: ``templates/``, ``data/`` and the MJ's guide and rules pages
(``docs/``) stand at the top of the repository, beside ``pbem/``, and travel inside the package in a wheel,
as ``pbem/templates/``, ``pbem/data/``, ``pbem/docs/`` (`pbem.shipped` finds them there, or in the source
tree of an editable install).  Only the files named here: a clone's ``data/`` also holds a game's database
and mail, which never ship.  Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

# top-level folder -> (its place in the package, the files it ships)
SHIPPED = {
    "templates": ("pbem/templates", ("*/*.j2", "*/*.toml")),
    "data": ("pbem/data", ("config.toml", "1626/*.toml", "courtisans/*.toml", "pourleroi/*.toml", "fonts/*")),
    "docs": ("pbem/docs", ("guide-mj.md", "scenarios.md", "rules/*.md")),
}


class BuildWithShipped(build_py):
    """build_py, then the `SHIPPED` files copied under the package in the build (the wheel)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads them from the source tree
            return
        for top, (inside, patterns) in SHIPPED.items():
            for pattern in patterns:
                for source in sorted((ROOT / top).glob(pattern)):
                    target = Path(self.build_lib) / inside / source.relative_to(ROOT / top)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, target)


setup(cmdclass={"build_py": BuildWithShipped})
