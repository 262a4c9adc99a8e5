"""A sentence said in both of pbem's languages: `Msg`, French first (the default), with its English.

Below every other module (the vocabulary of `pbem.core` and the dice of `pbem.dice` both speak
with it), it imports nothing of pbem.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Msg:
    """A short user-facing sentence in French, with its English translation."""

    fr: str
    en: str

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else self.fr
