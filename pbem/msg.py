"""How pbem says things in its two languages: `Msg`, a sentence in French (the default) with its English, and
`PbemError`, the one root of the errors a user reads (a player in his answer, the MJ in his, or at the CLI).

Below every other module (the vocabulary of `pbem.core` and the dice of `pbem.dice` both speak
with it), it imports nothing of pbem.  Whoever shows an error to someone shows ``error.msg`` in
that reader's language; ``str(error)`` is the English, for logs.
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

    @classmethod
    def both(cls, text: str) -> Msg:
        """A text said the same in both languages (one not translated: it reads in English in French too)."""
        return cls(text, text)


class PbemError(Exception):
    """Something a user asked for cannot be done, or something he wrote cannot be read: ``msg`` says why, in
    both languages.  ``detail`` replaces the English of ``str(error)`` when it says more (a key, a file)."""

    def __init__(self, msg: Msg, detail: str | None = None):
        super().__init__(msg.en if detail is None else detail)
        self.msg = msg

    def text(self, lang: str) -> str:
        """The message in ``lang``."""
        return self.msg.get(lang)
