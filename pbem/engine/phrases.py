"""The short texts of the MJ's seat (pauses, absences, approval, replacements, reports): one Jinja macro each
in ``templates/common/desk.<lang>.j2``, parameters in ``p``, rendered like `Renderer.message`."""

from __future__ import annotations

from typing import Any

from pbem.render import Renderer


def say(r: Renderer, key: str, **params: Any) -> str:
    """The macro ``key`` of ``common/desk.<lang>.j2``, rendered with ``params``."""
    module: Any = r.mail.get_template(f"common/desk.{r.lang}.j2").module
    return str(getattr(module, key)({"step": r.step, **params})).strip()
