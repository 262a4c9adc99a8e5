"""Courtisans' state: the courtisans, the sovereigns, the cards and where the round stands.

Frozen dataclasses of JSON-friendly fields (`pbem.serial`).  Players are always iterated in
seating order (``CourtState.seats``), never over a dict or a set.  The deck's card definitions
are part of the state, so a game replays the same even if the deck file changes later.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.courtisans.cards import Card

KING = "@roi"
QUEEN = "@reine"
"""Target names for the sovereigns (the Queen is the Régente while there is no King)."""

PARTIS = ("anglais", "hollandais", "espagnol")
AT_COURT, EXILE, BASTILLE, DEAD = "cour", "exil", "bastille", "mort"


@dataclass(frozen=True)
class Options:
    """The game's options (see `CourtisansRuleset.default_options` and docs/rules/courtisans.md)."""

    deck: str = ""
    target: int = 50_000
    max_rounds: int = 20
    min_players: int = 3
    max_players: int = 6
    cote_dice: str = "1d6+2"
    queen_parti_bonus: int = 2
    cote_min: int = -2
    cote_max: int = 9
    hand_size: int = 6
    hand_limit: int = 10
    fine: int = 1000
    chamberlain_paid_twice: bool = False
    exile_keeps_pensions: bool = True
    cote_on_return: str = "draw"
    public_fortunes: bool = True
    public_partis: bool = False
    seating: str = "draw"
    charge_conditions: str = "audience"
    """A CHARGE asked by a courtier the charge does not admit: ``audience`` (the audience is held, and the King
    refuses it whatever the die, at the cost of a point of cote) or ``refus`` (refused in the ack, no die)."""


@dataclass(frozen=True)
class Courtier:
    """A player and the character they play now (a family: a man, then a woman, then a man…)."""

    player: str
    family: str
    sex: str
    parti: str
    generation: int = 1
    status: str = AT_COURT
    cote_roi: int | None = None
    cote_reine: int | None = None
    hand: tuple[int, ...] = ()
    possessions: tuple[int, ...] = ()
    spouse: str | None = None
    married_name: str | None = None
    livres: int = 0
    poisoner: bool = False
    next_parti: str | None = None
    kept_roi: int | None = None
    kept_reine: int | None = None
    warnings: int = 0
    fines: int = 0

    @property
    def woman(self) -> bool:
        return self.sex == "femme"

    @property
    def alive(self) -> bool:
        return self.status != DEAD

    @property
    def at_court(self) -> bool:
        return self.status == AT_COURT


@dataclass(frozen=True)
class Crown:
    """The sovereigns.  No King and a Queen: she is the Régente until ``regency_until`` begins."""

    king: bool = True
    queen: bool = True
    queen_nation: str = "espagnol"
    secret_wife: str | None = None
    regency_until: int = 0
    reign: int = 1

    @property
    def regent(self) -> bool:
        return self.queen and not self.king

    @property
    def widowed(self) -> bool:
        """The King lives without a Queen (married or not to his Favorite in secret)."""
        return self.king and not self.queen


@dataclass(frozen=True)
class Slot:
    """One player turn of the round: ``first`` (the Chambellan opens), ``normal``, or ``closing``."""

    player: str
    kind: str = "normal"


@dataclass(frozen=True)
class CourtState:
    """The whole game."""

    options: Options
    cards: dict[int, Card]
    seats: tuple[str, ...]
    courtiers: dict[str, Courtier]
    deck: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    maison: tuple[int, ...] = ()
    crown: Crown = field(default_factory=Crown)
    court: str = "versailles"
    wars: tuple[str, ...] = ()
    round: int = 1
    queue: tuple[Slot, ...] = ()
    paid: dict[int, tuple[str, ...]] = field(default_factory=dict)
    powers_used: tuple[int, ...] = ()
    turns: int = 0
    winners: tuple[str, ...] = ()
    over: bool = False
    end: str = ""

    @property
    def chamberlain(self) -> str:
        return self.seats[(self.round - 1) % len(self.seats)]

    @property
    def slot(self) -> Slot | None:
        """The player turn now open (None when the game is over)."""
        return None if self.over or not self.queue else self.queue[0]

    @property
    def place(self) -> str:
        """Where the Court is: at war while a war lasts, else Versailles or the Hunt."""
        return "guerre" if self.wars else self.court

    def card(self, number: int) -> Card:
        return self.cards[number]


# --- pure lookups used across the rules ---


def holder(state: CourtState, number: int) -> str | None:
    """The player with this card in front of them, if any."""
    for p in state.seats:
        if number in state.courtiers[p].possessions:
            return p
    return None


def possessions_of(state: CourtState, player: str, kind: str) -> list[int]:
    return [n for n in state.courtiers[player].possessions if state.cards[n].kind == kind]


def titles_of(state: CourtState, player: str) -> list[int]:
    return possessions_of(state, player, "titre")


def has_title(state: CourtState, player: str) -> bool:
    return bool(titles_of(state, player))


def power_holder(state: CourtState, power: str) -> tuple[str, int] | None:
    """Who holds the charge with this power, and the card."""
    for p in state.seats:
        for n in state.courtiers[p].possessions:
            if state.cards[n].power == power:
                return p, n
    return None


def favorite(state: CourtState) -> str | None:
    """The King's Favorite (the holder of a Favorite card)."""
    return next((p for p in state.seats for n in state.courtiers[p].possessions
                 if state.cards[n].kind == "favorite"), None)


def lover(state: CourtState) -> str | None:
    """The Queen's Lover (the holder of an Amant de la Reine card)."""
    return next((p for p in state.seats for n in state.courtiers[p].possessions
                 if state.cards[n].kind == "amant"), None)


def living(state: CourtState) -> list[str]:
    return [p for p in state.seats if state.courtiers[p].alive]


def at_court(state: CourtState) -> list[str]:
    return [p for p in state.seats if state.courtiers[p].at_court]


def king_cote_key(state: CourtState) -> str:
    """Which cote stands for the King's: the Régente's while there is no King."""
    return "cote_reine" if state.crown.regent else "cote_roi"


def cote(state: CourtState, player: str, sovereign: str) -> int | None:
    """A courtier's cote with ``roi`` or ``reine`` as the rules read it now (the Régente answers for the King)."""
    c = state.courtiers[player]
    if sovereign == "roi":
        return c.cote_reine if state.crown.regent else (c.cote_roi if state.crown.king else None)
    return c.cote_reine if state.crown.queen else None


def interrupted(state: CourtState) -> bool:
    """« MORT DU ROI ET DE LA REINE » : « le tour de jeu cesse immédiatement »."""
    return not state.crown.king and not state.crown.queen


def with_courtier(state: CourtState, courtier: Courtier) -> CourtState:
    from pbem.core import replace

    return replace(state, courtiers={**state.courtiers, courtier.player: courtier})
