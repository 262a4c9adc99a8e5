"""1626: what the MJ changes on a character (recognition, prestige, wounds and care) and « Chance inouïe »."""

from __future__ import annotations

from typing import Any

from pbem.core import Audience, Event, Order, PlayerName, replace
from pbem.games.g1626.character import Character, chance_left, current_hit_points, hit_points
from pbem.games.g1626.state import State
from pbem.games.g1626.tables import CHANCE, title


def with_character(state: State, char: Character) -> State:
    return replace(state, characters={**state.characters, char.player: char})


def note(char: Character) -> dict[str, Any]:
    rank = title(char.prestige)
    return {"player": char.player, "name": char.name, "recognised": char.recognised, "prestige": char.prestige,
            "title_fr": rank.fr, "title_en": rank.en}


def recognition(state: State, order: Order) -> tuple[State, list[Event]]:
    """``RECONNU`` (``ENNEMIS``: by enemies, the bonuses turn into maluses) or ``INCONNU``."""
    target = str(order.args[0])
    enemies = order.verb == "RECONNU" and len(order.args) > 1 and bool(order.args[1])
    char = replace(state.characters[target], recognised=order.verb == "RECONNU", by_enemies=enemies)
    what = "by_enemies" if enemies else "recognised" if char.recognised else "unrecognised"
    return with_character(state, char), [Event("mj_note", Audience.to(target), {"what": what, **note(char)})]


def edited(state: State, order: Order) -> Character:
    """The character after ``TALENT <p> <talent> <n>`` or ``DON <p> +|-<don> [domaine]`` (not checked here)."""
    char = state.characters[str(order.args[0])]
    if order.verb == "TALENT":
        talent, score = str(order.args[1]), int(order.args[2])
        talents = {t: s for t, s in char.talents.items() if t != talent}
        return replace(char, talents={**talents, talent: score} if score else talents)
    sign, gift, domain = str(order.args[1]), str(order.args[2]), str(order.args[3])
    gifts = {g: list(d) for g, d in char.gifts.items()}
    if sign == "+":
        gifts.setdefault(gift, [])
        if domain:
            gifts[gift].append(domain)
        return replace(char, gifts=gifts, chance=char.chance + 1 if gift == CHANCE else char.chance)
    if gift == CHANCE:
        count = char.chance - 1
        if count < 1:
            gifts.pop(gift, None)
        return replace(char, gifts=gifts, chance=max(count, 0), chance_used=min(char.chance_used, max(count, 0)))
    if domain:
        gifts[gift] = [d for d in gifts.get(gift, []) if d != domain]
    if not domain or not gifts[gift]:
        gifts.pop(gift, None)
    return replace(char, gifts=gifts)


def sheet_edit(state: State, order: Order) -> tuple[State, list[Event]]:
    old = state.characters[str(order.args[0])]
    char = edited(state, order)
    data: dict[str, Any] = {"what": "talent" if order.verb == "TALENT" else "gift", **note(char)}
    if order.verb == "TALENT":
        data.update(talent=order.args[1], before=old.talents.get(str(order.args[1]), 0), score=order.args[2])
    else:
        data.update(sign=order.args[1], gift=order.args[2], domain=order.args[3])
    return with_character(state, char), [Event("mj_note", Audience.to(char.player), data)]


def prestige(state: State, order: Order) -> tuple[State, list[Event]]:
    target, mode, amount = str(order.args[0]), str(order.args[1]), int(order.args[2])
    old = state.characters[target]
    char = replace(old, prestige=amount if mode == "=" else old.prestige + amount)
    data = {"what": "prestige", "before": old.prestige, "delta": char.prestige - old.prestige,
            "old_title_fr": title(old.prestige).fr, "old_title_en": title(old.prestige).en, **note(char)}
    return with_character(state, char), [Event("mj_note", Audience.to(target), data)]


def _pv(char: Character, what: str, amount: int, before: int) -> dict[str, Any]:
    return {"what": what, "player": char.player, "name": char.name, "amount": amount, "before": before,
            "pv": current_hit_points(char), "pv_max": hit_points(char), "chance_left": chance_left(char),
            "avoidable": bool(char.last_wound)}


def wound(state: State, order: Order) -> tuple[State, list[Event]]:
    """``BLESSURE``: the MJ deals damage; the wound stays avoidable by « Chance inouïe » until the next care."""
    target, amount = str(order.args[0]), int(order.args[1])
    old = state.characters[target]
    char = replace(old, damage=old.damage + amount, last_wound=amount if old.chance > old.chance_used else 0)
    return with_character(state, char), [Event("pv_change", Audience.to(target),
                                               _pv(char, "wound", amount, current_hit_points(old)))]


def care(state: State, order: Order) -> tuple[State, list[Event]]:
    """``SOIN``: PV come back, never above the full PV; the coup is past, « Chance inouïe » no longer avoids it."""
    target, amount = str(order.args[0]), int(order.args[1])
    old = state.characters[target]
    healed = min(amount, old.damage)
    char = replace(old, damage=old.damage - healed, last_wound=0)
    return with_character(state, char), [Event("pv_change", Audience.to(target),
                                               _pv(char, "care", healed, current_hit_points(old)))]


def luck(state: State, player: PlayerName, order: Order) -> tuple[State, list[Event]]:
    """« éviter un coup mortel ou gravissime [...] autant de fois dans la partie qu'il possède ce don »:
    one use, and the last wound (if still avoidable) is undone."""
    target = str(order.args[0])
    old = state.characters[target]
    char = replace(old, chance_used=old.chance_used + 1, damage=old.damage - old.last_wound, last_wound=0)
    data = {**_pv(char, "chance", old.last_wound, current_hit_points(old)), "by_mj": player != target}
    return with_character(state, char), [Event("pv_change", Audience.to(target), data)]
