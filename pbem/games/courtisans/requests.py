"""The dice of requests and audiences (« REQUETE », the six audiences, « RAGOTS/LOUANGES »).

* To the King: 1D10; a result above the asker's cote is a refusal (cote with the King -1).
* To the Queen: 2D10, the first against the cote with the Queen, the second against the cote with
  the King (she pleads with him): the first fails, cote with the Queen -1; the first succeeds and
  the second fails, cote with the King -1; both succeed, granted.
* During the Regency every request goes to the Régente: 1D10 against the cote with the Queen.
* Ragots and louanges: « 1 seul [dé], même pour la Reine » to be received, then 1D10 for the effect.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core import JSON, Event
from pbem.dice import Dice
from pbem.games.courtisans.court import shift_cote
from pbem.games.courtisans.state import CourtState, cote


@dataclass(frozen=True)
class Verdict:
    """A request's dice and what they decided."""

    granted: bool
    rolls: tuple[tuple[str, int, int], ...]
    """(sovereign asked: ``roi``, ``reine`` or ``regente``; the die; the cote it was against)."""
    lost: str | None
    """Whose favour the asker lost (``roi``, ``reine``, ``regente``), or None when granted."""

    def data(self) -> dict[str, JSON]:
        return {"granted": self.granted, "lost": self.lost,
                "rolls": [{"sovereign": s, "die": d, "cote": c, "ok": d <= c} for s, d, c in self.rolls]}


def addressee(state: CourtState, sovereign: str) -> str:
    """Who really answers: ``regente`` while there is no King, else the sovereign asked."""
    return "regente" if state.crown.regent else sovereign


def can_ask(state: CourtState, player: str, sovereign: str) -> str | None:
    """Why this courtier cannot address this sovereign now (a code), or None."""
    c = state.courtiers[player]
    if not c.at_court:
        return c.status
    if state.crown.regent:
        return None if c.cote_reine is not None else "no_cote"
    if sovereign == "roi" and not state.crown.king:
        return "no_king"
    if sovereign == "reine" and not state.crown.queen:
        return "no_queen"
    return None if cote(state, player, sovereign) is not None else "no_cote"


def ask(state: CourtState, player: str, sovereign: str, dice: Dice, what: str) -> Verdict:
    """Roll a request (card or audience) of ``player`` to ``sovereign`` (``roi`` or ``reine``)."""
    if state.crown.regent:
        value = state.courtiers[player].cote_reine
        assert value is not None
        die = dice.d(10, f"{what}: {player} asks the Regent")
        return Verdict(die <= value, (("regente", die, value),), None if die <= value else "regente")
    if sovereign == "roi":
        value = state.courtiers[player].cote_roi
        assert value is not None
        die = dice.d(10, f"{what}: {player} asks the King")
        return Verdict(die <= value, (("roi", die, value),), None if die <= value else "roi")
    queen_cote, king_cote = state.courtiers[player].cote_reine, state.courtiers[player].cote_roi
    assert queen_cote is not None and king_cote is not None
    first = dice.d(10, f"{what}: {player} asks the Queen")
    if first > queen_cote:
        return Verdict(False, (("reine", first, queen_cote),), "reine")
    second = dice.d(10, f"{what}: the Queen pleads with the King for {player}")
    rolls = (("reine", first, queen_cote), ("roi", second, king_cote))
    return Verdict(second <= king_cote, rolls, None if second <= king_cote else "roi")


def penalize(state: CourtState, player: str, verdict: Verdict, ev: list[Event]) -> CourtState:
    """A refusal costs the asker 1 point of cote with the sovereign who refused."""
    if verdict.lost is None:
        return state
    if verdict.lost == "roi":
        return shift_cote(state, player, ev, roi=-1)
    return shift_cote(state, player, ev, reine=-1)


def audience_die(state: CourtState, player: str, sovereign: str, dice: Dice) -> Verdict:
    """Ragots and louanges: one die to be received, even with the Queen."""
    who = addressee(state, sovereign)
    value = state.courtiers[player].cote_reine if who in ("reine", "regente") else state.courtiers[player].cote_roi
    assert value is not None
    die = dice.d(10, f"audience: {player} is received by the {'King' if who == 'roi' else 'Queen'}")
    return Verdict(die <= value, ((who, die, value),), None if die <= value else who)


def gossip_points(state: CourtState, speaker: str, sovereign: str, dice: Dice) -> tuple[int, int, bool]:
    """« de 1 à 5 : 1 point ; de 6 à 10 : 2 points ; 1 de plus si celui qui parle a 8, 9 ou 10 ».
    -> (the die, the points, whether the speaker's own cote added one)."""
    die = dice.d(10, f"audience: what {speaker} says weighs")
    points = 1 if die <= 5 else 2
    own = cote(state, speaker, sovereign)
    bonus = own is not None and own >= 8
    return die, points + (1 if bonus else 0), bonus
