"""The build step pyproject.toml cannot say: the MJ's guide and the rules pages, kept at the top of the
repository (docs/), travel inside the package as ``pbem/docs/`` (`pbem.guide` finds them there, or in
the source tree of an editable install).  Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent

# top-level folder -> (its place in the package, the files it ships)
SHIPPED = {"docs": ("pbem/docs", ("guide-mj.md", "scenarios.md", "rules/*.md"))}


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
