"""Étiquette: how each courtisan is named and addressed (« Mme la Duchesse de la Fourberye »).

The rule text asks players to cite each other « par leurs titres de noblesse adéquats »; pbem
does the same in every text it writes.  A married woman takes her husband's name and bears his
titles; she is addressed by the highest title of the couple.
"""

from __future__ import annotations

from pbem.games.courtisans.state import Courtier, CourtState, titles_of

WOMAN_WORDS = ("madame", "mme", "mme.", "mademoiselle", "mlle", "mlle.", "dame", "mrs", "mrs.", "ms", "ms.",
               "miss", "lady")
MAN_WORDS = ("monsieur", "m.", "mr", "mr.", "messire", "sieur", "sir", "lord")
_TITLE_WORDS = ("baron", "baronne", "vicomte", "vicomtesse", "comte", "comtesse", "marquis", "marquise", "duc",
                "duchesse", "prince", "princesse", "chevalier", "le", "la")
_PARTICLES = ("de ", "d'", "d\u2019", "du ", "des ")
_VOWELS = "aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ"


def parse_name(name: str) -> tuple[str | None, str]:
    """A registered name -> (sex if the name says it, family name with its particle).

    ``Madame de la Vilenie`` -> ("femme", "de la Vilenie"); ``Malveyance`` -> (None, "de Malveyance").
    """
    words = name.split()
    sex: str | None = None
    if words and words[0].lower() in WOMAN_WORDS:
        sex, words = "femme", words[1:]
    elif words and words[0].lower() in MAN_WORDS:
        sex, words = "homme", words[1:]
    while len(words) > 1 and words[0].lower() in _TITLE_WORDS:
        words = words[1:]
    family = " ".join(words) or name
    if not family.lower().startswith(_PARTICLES):
        family = ("d'" if family[:1] in _VOWELS else "de ") + family
    return sex, family


def name_of(c: Courtier) -> str:
    """The family name the character goes by now (a wife's is her husband's)."""
    return c.married_name or c.family


def title_word(state: CourtState, player: str) -> str | None:
    """The highest title the courtier is addressed by, in the right gender (« Duchesse »), or None."""
    c = state.courtiers[player]
    numbers = list(titles_of(state, player))
    if c.woman and c.spouse and c.spouse in state.courtiers and state.courtiers[c.spouse].alive:
        numbers += titles_of(state, c.spouse)
    if not numbers:
        return None
    best = max(numbers, key=lambda n: (state.cards[n].rank, -n))
    card = state.cards[best]
    return card.feminine if c.woman else card.name


def _article(word: str, woman: bool) -> str:
    if word[:1] in _VOWELS:
        return "l'"
    return "la " if woman else "le "


def address(state: CourtState, player: str) -> str:
    """How texts name a courtisan: « Mme la Duchesse de la Fourberye », « M. de Malveyance »."""
    c = state.courtiers[player]
    title = title_word(state, player)
    head = "Mme" if c.woman else "M."
    if title:
        return f"{head} {_article(title, c.woman)}{title} {name_of(c)}"
    return f"{head} {name_of(c)}"


def salutation(state: CourtState, player: str) -> str:
    """The opening of a letter: « Madame la Duchesse de la Fourberye », « Monsieur de Malveyance ».

    Between two generations (the character is dead, the next one not presented yet) the letter
    goes to the family: « Famille de Malveyance ».
    """
    c = state.courtiers[player]
    if not c.alive:
        return f"Famille {c.family}"
    title = title_word(state, player)
    head = "Madame" if c.woman else "Monsieur"
    if title:
        return f"{head} {_article(title, c.woman)}{title} {name_of(c)}"
    return f"{head} {name_of(c)}"


def aliases(state: CourtState, player: str) -> list[str]:
    """Every way an order may name this courtisan: player name, form of address, family name…"""
    c = state.courtiers[player]
    names = [player, address(state, player), salutation(state, player), name_of(c), c.family]
    for family in (name_of(c), c.family):
        bare = family
        for particle in ("de la ", "de l'", "de ", "d'", "du ", "des "):
            if bare.lower().startswith(particle):
                bare = bare[len(particle):]
                break
        names.append(bare)
    title = title_word(state, player)
    if title:
        names.append(f"{title} {name_of(c)}")
        names.append(f"{_article(title, c.woman)}{title} {name_of(c)}")
    return list(dict.fromkeys(n for n in names if n.strip()))


def person(state: CourtState, player: str) -> dict[str, str | bool]:
    """What an event says about a courtisan: the name to print and the gender to agree with."""
    c = state.courtiers[player]
    return {"player": player, "who": address(state, player), "f": c.woman}
