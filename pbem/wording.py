"""How pbem's French and English texts agree: lists with « et », plurals, the step noun of a game
with its article, and players' genders.  The templates use these through `pbem.render`.

French rules are in /work/shared/FRENCH.md: no « (s) », « A, B et C », participles agreed with
a known gender and neutral phrasing otherwise, elision (« l'étape », « d'Olenna »).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pbem.core import StepWord

_VOWELS = frozenset("aeiouyhàâäéèêëîïôöùûüœæAEIOUYHÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")

FEMININE = "f"
MASCULINE = "m"
GENDER_WORDS: Mapping[str, str] = {
    "f": FEMININE, "femme": FEMININE, "feminin": FEMININE, "féminin": FEMININE, "elle": FEMININE,
    "female": FEMININE, "woman": FEMININE, "she": FEMININE, "her": FEMININE,
    "m": MASCULINE, "homme": MASCULINE, "masculin": MASCULINE, "il": MASCULINE, "male": MASCULINE,
    "man": MASCULINE, "he": MASCULINE, "him": MASCULINE,
}
"""What a player may write for a gender (``INSCRIPTION Olenna (femme)``) or an MJ in the roster."""


def gender_of(word: str) -> str | None:
    """``"femme"``, ``"F"``, ``"she"``... -> ``"f"`` or ``"m"``; None when not a gender word."""
    return GENDER_WORDS.get(word.strip().strip("()").strip().lower())


def elides(word: str) -> bool:
    """Does a French article or « de » elide before this word (« l'étape », « d'Olenna »)?"""
    return bool(word) and word[0] in _VOWELS


def de(name: str) -> str:
    """« de Fitz », « d'Olenna »."""
    return f"d'{name}" if elides(name) else f"de {name}"


def join_list(items: Iterable[object], lang: str = "fr", word: str | None = None) -> str:
    """« A, B et C » (``word`` « ou » for alternatives); English « A, B and C »."""
    names = [str(i) for i in items]
    conj = word or ("and" if lang == "en" else "et")
    if len(names) <= 1:
        return names[0] if names else ""
    return f"{', '.join(names[:-1])} {conj} {names[-1]}"


def number(n: int, lang: str = "fr") -> str:
    """« 3 645 » (thousands apart by a narrow no-break space); English « 3,645 »."""
    return f"{n:,}" if lang == "en" else f"{n:,}".replace(",", "\u202f")


def plural(count: int, one: str, many: str | None = None, lang: str = "fr") -> str:
    """« 1 erreur », « 2 erreurs », « aucune erreur » is the caller's choice; English the same way.

    French takes the singular for 0 and 1 (« 0 erreur »), English only for 1.
    """
    many = many or one + "s"
    singular = count in (0, 1) if lang != "en" else count == 1
    return f"{count} {one if singular else many}"


@dataclass(frozen=True)
class StepNoun:
    """A game's step word in one language, with what French needs around it: article, agreement."""

    word: StepWord = field(default_factory=StepWord)
    lang: str = "fr"

    @cached_property
    def noun(self) -> str:
        return self.word.en if self.lang == "en" else self.word.fr

    @cached_property
    def plural(self) -> str:
        return self.noun + "s"

    @cached_property
    def the(self) -> str:
        """« le tour », « la manche », « l'étape »; « the turn »."""
        if self.lang == "en":
            return f"the {self.noun}"
        if elides(self.noun):
            return f"l'{self.noun}"
        return f"{'la' if self.word.feminine else 'le'} {self.noun}"

    @cached_property
    def this(self) -> str:
        """« ce tour », « cette manche », « cette étape »; « this turn »."""
        if self.lang == "en":
            return f"this {self.noun}"
        if self.word.feminine:
            return f"cette {self.noun}"
        return f"{'cet' if elides(self.noun) else 'ce'} {self.noun}"

    @cached_property
    def of(self) -> str:
        """« du tour », « de la manche », « de l'étape »; « of the turn »."""
        if self.lang == "en":
            return f"of the {self.noun}"
        the = self.the
        return "du " + self.noun if the.startswith("le ") else "de " + the

    @cached_property
    def of_bare(self) -> str:
        """« de tour », « de manche », « d'étape » (no article: « un numéro d'étape »); « of turn »."""
        if self.lang == "en":
            return self.noun
        return f"d'{self.noun}" if elides(self.noun) else f"de {self.noun}"

    @cached_property
    def to(self) -> str:
        """« au tour », « à la manche », « à l'étape »; « to the turn »."""
        if self.lang == "en":
            return f"to the {self.noun}"
        the = self.the
        return "au " + self.noun if the.startswith("le ") else "à " + the

    @cached_property
    def a(self) -> str:
        """« un tour », « une manche »; « a turn »."""
        if self.lang == "en":
            return f"{'an' if self.noun[:1] in 'aeiou' else 'a'} {self.noun}"
        return f"{'une' if self.word.feminine else 'un'} {self.noun}"

    @cached_property
    def e(self) -> str:
        """The French agreement of a participle with the step: « résolu » / « résolue »."""
        return "e" if self.lang != "en" and self.word.feminine else ""

    def name(self, title: str) -> str:
        """A step's title in running text: « Tour 3 » -> « le tour 3 »; another title is quoted:
        « l'étape « Manche 2 — pots-de-vin » »."""
        from pbem.names import fold

        head = self.noun
        if fold(title).startswith(fold(head) + " ") or fold(title) == fold(head):
            rest = title[len(head):]
            return f"{self.the}{rest}" if self.lang != "en" else f"{self.noun}{rest}"
        if self.lang == "en":
            return f"{self.the} “{title}”"
        return f"{self.the} «\u00a0{title}\u00a0»"


def death_marks(dead: Iterable[str], genders: Mapping[str, str], lang: str = "fr") -> dict[str, str]:
    """The mark after each dead player's name in one text: « mort » / « morte » when every one of them has a
    known gender, else « † » for all of them (one marker per post, never « (†) » beside « (morte) »)."""
    names = list(dict.fromkeys(dead))
    if lang == "en":
        return {n: "dead" for n in names}
    if all(genders.get(n) in (FEMININE, MASCULINE) for n in names):
        return {n: "morte" if genders[n] == FEMININE else "mort" for n in names}
    return {n: "†" for n in names}


def agree(gender: str | None, masculine: str, feminine: str, neutral: str | None = None) -> str:
    """The form that agrees with a known gender; without one, the neutral phrasing (or the masculine)."""
    if gender == FEMININE:
        return feminine
    if gender == MASCULINE:
        return masculine
    return masculine if neutral is None else neutral
