"""1626: rolling a test (I.3 to I.5) and comparing the two totals of an opposed test.

Each function returns the JSON data of the result event and the `TestRecord` of the history.
"""

from __future__ import annotations

from pbem.core import JSON
from pbem.dice import Dice
from pbem.games.g1626.character import carac_value, has_gift, prestige_bonus, talent_score
from pbem.games.g1626.orders import describe, side_values
from pbem.games.g1626.state import Side, State, TestRecord
from pbem.games.g1626.tables import (
    CARACS,
    MARKSMAN,
    MARKSMAN_BONUS,
    MASTER,
    NATURAL,
    SPECIALIST,
    TACTICIAN,
    TACTICIAN_BONUS,
    difficulty,
    title,
)
from pbem.names import fold

TIE_REROLLS = 5
"""Option ``opposed_ties = "reroll"``: at most this many re-rolls, then the tie stands (a draw)."""
DICE: dict[str, tuple[int, int, int]] = {"d10": (10, 1, 0), "2d6": (6, 2, 0), "2d6+2": (6, 2, 2)}
"""Dice kind -> (sides, how many, plus)."""


def dice_kind(state: State, side: Side) -> str:
    """d10; Spécialiste of the talent tested: 2d6; Maître: 2d6+2; a PNJ: what the MJ said."""
    if side.npc:
        return side.dice
    char = state.characters[side.player]
    if side.talent and has_gift(char, MASTER, side.talent):
        return "2d6+2"
    if side.talent and has_gift(char, SPECIALIST, side.talent):
        return "2d6"
    return "d10"


def roll_dice(dice: Dice, kind: str, purpose: str) -> dict[str, JSON]:
    """« un 10 au d10 [...] Le dé peut être relancé, et son résultat sera ajouté au total, dans la limite
    d'un seul relancé »; with 2d6 « peut relancer les 6, toujours dans les mêmes limites »: one re-roll in all."""
    sides, count, plus = DICE[kind]
    faces = [dice.d(sides, f"{purpose}: {kind}") for _ in range(count)]
    reroll = dice.d(sides, f"{purpose}: critical re-roll d{sides}") if sides in faces else None
    total = sum(faces) + (reroll or 0) + plus
    return {"dice": kind, "faces": faces, "reroll": reroll, "plus": plus, "dice_total": total,
            "critical": reroll is not None, "critical_face": sides}


def _score(state: State, side: Side) -> dict[str, JSON]:
    """Everything but the dice: base (characteristic + talent, or × 2; a PNJ's score) and bonuses."""
    bonuses: list[dict[str, JSON]] = []
    if side.npc:
        data: dict[str, JSON] = {"player": "", "name": side.label, "npc": True, "double": False, "talent": "",
                                 "talent_score": 0, "has_talent": False, "carac": "", "carac_fr": "", "carac_en": "",
                                 "carac_score": 0, "natural": False, "base": side.score or 0}
    else:
        char = state.characters[side.player]
        value = carac_value(char, side.carac)
        score = talent_score(char, side.talent) if side.talent else 0
        data = {"player": side.player, "name": char.name, "npc": False, "double": bool(side.talent),
                "talent": side.talent, "talent_score": score,
                "has_talent": any(fold(t) == fold(side.talent) for t in char.talents) if side.talent else False,
                "carac": side.carac, "carac_fr": CARACS[side.carac].fr, "carac_en": CARACS[side.carac].en,
                "carac_score": value, "natural": has_gift(char, NATURAL, side.carac),
                "base": value + score if side.talent else value * 2}
        prestige = prestige_bonus(char, side.talent) if side.talent else 0
        if prestige:
            rank = title(char.prestige)
            foes_fr, foes_en = (", face à des ennemis", ", before enemies") if char.by_enemies else ("", "")
            bonuses.append({"fr": f"prestige, {rank.fr}{foes_fr}", "en": f"prestige, {rank.en}{foes_en}",
                            "value": prestige})
        if side.aimed:
            bonuses.append({"fr": f"{MARKSMAN.lower()}, visée", "en": "marksman, aimed", "value": MARKSMAN_BONUS})
        if side.foiling:
            bonuses.append({"fr": f"{TACTICIAN.lower()}, pour déjouer", "en": "tactician, foiling",
                            "value": TACTICIAN_BONUS})
    if side.modifier:
        bonuses.append({"fr": "modificateur", "en": "modifier", "value": side.modifier})
    data["bonuses"] = bonuses
    return data


def roll_side(state: State, side: Side, dice: Dice, purpose: str) -> dict[str, JSON]:
    data = _score(state, side)
    rolled = roll_dice(dice, dice_kind(state, side), purpose)
    total = int(data["base"]) + sum(int(b["value"]) for b in data["bonuses"]) + int(rolled["dice_total"])
    return {**data, **rolled, "total": total}


def purpose_of(number: int, side: Side, who: str, role: str = "") -> str:
    """``test #12 Escrime/AG (Armand)``; the opposing side reads ``test #12 opposed ...``."""
    return f"test #{number} {role}{describe(side_values(side))} ({who})"


def single_test(state: State, number: int, actor: Side, sr: int, secret: bool,
                dice: Dice) -> tuple[dict[str, JSON], TestRecord]:
    """« Si le résultat du test est supérieur ou égal au SR fixé par le MJ, alors le test est réussi »."""
    data = roll_side(state, actor, dice, purpose_of(number, actor, actor.player))
    total = int(data["total"])
    level = difficulty(sr)
    data.update(number=number, sr=sr, difficulty_fr=level.fr, difficulty_en=level.en, margin=total - sr,
                success=total >= sr, secret=secret)
    record = TestRecord(number, actor.player, describe(side_values(actor)), total,
                        "success" if total >= sr else "failure", total - sr, sr=sr, secret=secret,
                        critical=bool(data["critical"]))
    return data, record


def opposed_test(state: State, number: int, actor: Side, opponent: Side, secret: bool,
                 dice: Dice) -> tuple[dict[str, JSON], TestRecord]:
    """Both sides roll; the higher total wins by the difference (ruling).  Equal totals follow the
    ``opposed_ties`` option: the defender (the side tested against) holds, a draw, or both roll again."""
    who = opponent.player or opponent.label
    mine = roll_side(state, actor, dice, purpose_of(number, actor, actor.player))
    theirs = roll_side(state, opponent, dice, purpose_of(number, opponent, who, "opposed "))
    rerolls: list[dict[str, JSON]] = []
    while mine["total"] == theirs["total"] and state.opposed_ties == "reroll" and len(rerolls) < TIE_REROLLS:
        k = len(rerolls) + 1
        again = {"actor": roll_dice(dice, str(mine["dice"]), purpose_of(number, actor, actor.player, f"tie {k} ")),
                 "opponent": roll_dice(dice, str(theirs["dice"]), purpose_of(number, opponent, who, f"tie {k} opposed "))}
        mine = {**mine, **again["actor"], "total": int(mine["total"]) - int(mine["dice_total"])
                + int(again["actor"]["dice_total"])}
        theirs = {**theirs, **again["opponent"], "total": int(theirs["total"]) - int(theirs["dice_total"])
                  + int(again["opponent"]["dice_total"])}
        rerolls.append({"actor": mine["total"], "opponent": theirs["total"]})
    margin = int(mine["total"]) - int(theirs["total"])
    if margin > 0:
        outcome = "win"
    elif margin < 0 or state.opposed_ties == "defender":
        outcome = "loss"
    else:
        outcome = "draw"
    data: dict[str, JSON] = {"number": number, "actor": mine, "opponent": theirs, "margin": margin,
                             "outcome": outcome, "tie_rule": state.opposed_ties, "rerolls": rerolls,
                             "secret": secret}
    record = TestRecord(number, actor.player, describe(side_values(actor)), int(mine["total"]), outcome, margin,
                        secret=secret, opponent=who, opponent_what=describe(side_values(opponent)),
                        opponent_total=int(theirs["total"]), critical=bool(mine["critical"]))
    return data, record
