"""1626, le gant et l'épée: a test resolver by mail.  No turns: every order is immediate.

Orders (French keywords, English aliases):
  TEST <talent> <CARAC> SR <n> [+/-m] [SECRET]   test double: caractéristique + talent + d10
  TEST <CARAC> SR <n> [+/-m] [SECRET]            test simple: caractéristique x 2 + d10
  FICHE                                          the character sheet with derived values
  RECONNU / INCONNU <joueur>, PRESTIGE <joueur> +n|-n|=n   (MJ only)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core import (
    JSON,
    MJ,
    Audience,
    Event,
    Msg,
    Order,
    OrderHelp,
    OrderNotAllowedError,
    OrderSyntaxError,
    Outcome,
    PlayerName,
    Prompt,
    Ruleset,
    Seat,
    replace,
)
from pbem.dice import Dice
from pbem.games.g1626.sheet import (
    CARAC_ALIASES,
    CARACS,
    MASTER,
    NATURAL,
    SPECIALIST,
    TALENT_ALIASES,
    Character,
    State,
    carac_value,
    difficulty,
    has_gift,
    new_state,
    prestige_bonus,
    sheet,
    talent_names,
    talent_score,
    title,
)
from pbem.names import fold, match_keyword, match_name, take_name, words

VERBS: dict[str, str] = {
    "test": "TEST", "jet": "TEST", "roll": "TEST", "check": "TEST",
    "fiche": "FICHE", "sheet": "FICHE",
    "reconnu": "RECONNU", "recognised": "RECONNU", "recognized": "RECONNU",
    "inconnu": "INCONNU", "unrecognised": "INCONNU", "unrecognized": "INCONNU",
    "prestige": "PRESTIGE",
}
MJ_VERBS = ("RECONNU", "INCONNU", "PRESTIGE")
ENGLISH: dict[str, tuple[str, ...]] = {"TEST": ("ROLL", "CHECK"), "FICHE": ("SHEET",), "RECONNU": ("RECOGNISED",),
                                       "INCONNU": ("UNRECOGNISED",)}
"""The English words of each order, listed in AIDE/HELP (`VERBS` understands them)."""
SR_WORD = re.compile(r"^(sr|dc)[=:]?(-?\d+)?$")
SIGNED = re.compile(r"^([+-])\s*(\d+)$")
EXAMPLE = "TEST Escrime AG SR 15"
VALID_CARACS = ", ".join(CARACS)


def _syntax(fr: str, en: str) -> OrderSyntaxError:
    return OrderSyntaxError(Msg(fr, en))


def _carac(token: str) -> str | None:
    return CARAC_ALIASES.get(fold(token))


def _parse_test(char: Character, tokens: Sequence[str]) -> tuple[JSON, ...]:
    """``<talent> <CARAC> SR <n> [+/-m] [SECRET]`` -> (talent or "", carac, sr, modifier, secret)."""
    found = next(((i, m) for i, t in enumerate(tokens) if (m := SR_WORD.match(fold(t)))), None)
    if found is None:
        raise _syntax(f"seuil de réussite manquant : écrivez par exemple « {EXAMPLE} »",
                      f"missing success threshold: write for instance '{EXAMPLE}'")
    split, glued = found
    head, tail = list(tokens[:split]), list(tokens[split:])
    number, rest = (glued.group(2), tail[1:]) if glued.group(2) else (tail[1] if len(tail) > 1 else "", tail[2:])
    if not re.fullmatch(r"-?\d+", number) or int(number) < 1:
        raise _syntax(f"le SR doit être un nombre entier positif : « {EXAMPLE} »",
                      f"SR must be a positive whole number: '{EXAMPLE}'")
    modifier, secret = 0, False
    for i, token in enumerate(rest):
        signed = SIGNED.match(token)
        if fold(token) == "secret":
            secret = True
        elif signed:
            modifier += int(signed.group(2)) * (1 if signed.group(1) == "+" else -1)
        elif token in ("+", "-") and i + 1 < len(rest) and rest[i + 1].isdigit():
            rest[i + 1] = token + rest[i + 1]
        else:
            raise _syntax(f"mot en trop après le SR : « {token} » (permis : +n, -n, SECRET)",
                          f"unexpected word after the SR: '{token}' (allowed: +n, -n, SECRET)")
    talent, carac = _parse_talent_carac(char, head)
    return (talent, carac, int(number), modifier, secret)


def _parse_talent_carac(char: Character, head: list[str]) -> tuple[str, str]:
    text = " ".join(head)
    if "/" in text:
        left, _, right = text.partition("/")
        parts = [left.strip(), right.strip()]
        talent_text, carac_text = (parts[1], parts[0]) if _carac(parts[0]) and not _carac(parts[1]) else parts
    elif not head:
        talent_text, carac_text = "", ""
    elif _carac(head[-1]):
        talent_text, carac_text = " ".join(head[:-1]), head[-1]
    elif _carac(head[0]):  # "TEST AG Escrime SR 15"
        talent_text, carac_text = " ".join(head[1:]), head[0]
    elif fold(text) in {fold(t) for t in talent_names(char)}:  # "TEST Escrime SR 15": no characteristic
        talent_text, carac_text = text, ""
    else:
        talent_text, carac_text = " ".join(head[:-1]), head[-1]
    carac = _carac(carac_text)
    if carac is None:
        shown = f" « {carac_text} »" if carac_text else ""
        raise _syntax(
            f"caractéristique manquante ou inconnue{shown} ; valides : {VALID_CARACS} (exemple : « {EXAMPLE} »)",
            f"missing or unknown characteristic{shown}; valid: {VALID_CARACS} (example: '{EXAMPLE}')",
        )
    if not talent_text:
        return "", carac
    aliased = TALENT_ALIASES.get(fold(talent_text))
    talent = match_name(aliased or talent_text, talent_names(char), what=Msg("talent", "talent"))
    return talent, carac


def _target(state: State, tokens: Sequence[str]) -> tuple[PlayerName, list[str]]:
    """A player named by player name or character name."""
    by_name: dict[str, PlayerName] = {}
    for player in state.roster:
        by_name.setdefault(player, player)
    for player in state.roster:
        by_name.setdefault(state.characters[player].name, player)
    if not tokens:
        raise _syntax("joueur manquant", "missing player")
    name, rest = take_name(tokens, list(by_name))
    return by_name[name], rest


def _roll(dice: Dice, char: Character, talent: str, purpose: str) -> dict[str, JSON]:
    """d10 (Spécialiste: 2d6, Maître: 2d6+2); a 10 (a 6) is re-rolled and added, once in all."""
    if talent and has_gift(char, MASTER, talent):
        kind, sides, count, plus = "2d6+2", 6, 2, 2
    elif talent and has_gift(char, SPECIALIST, talent):
        kind, sides, count, plus = "2d6", 6, 2, 0
    else:
        kind, sides, count, plus = "d10", 10, 1, 0
    faces = [dice.d(sides, f"{purpose}: {kind}") for _ in range(count)]
    reroll = dice.d(sides, f"{purpose}: critical re-roll d{sides}") if sides in faces else None
    total = sum(faces) + (reroll or 0) + plus
    return {"dice": kind, "faces": faces, "reroll": reroll, "plus": plus, "dice_total": total,
            "critical": reroll is not None}


class Ruleset1626:
    name = "1626"
    title = "1626, le gant et l'épée"
    state_type = State
    default_options: Mapping[str, JSON] = {"secret_tests": False}

    def setup(self, roster: Sequence[Seat], options: Mapping[str, JSON], dice: Dice) -> tuple[State, list[Event]]:
        state = new_state(roster, options)
        events = [Event("sheet", Audience.to(p), sheet(state.characters[p])) for p in state.roster]
        return state, events

    def prompts(self, state: State) -> list[Prompt]:
        return []

    def step_title(self, state: State) -> Msg:
        return Msg("Partie en cours", "Game in progress")

    def parse_order(self, state: State, player: PlayerName, line: str, accepted: Sequence[Order]) -> Order:
        tokens = words(line.replace("/", " / "))
        if not tokens:
            raise _syntax("ligne vide", "empty line")
        verb = match_keyword(tokens[0], VERBS, what=Msg("ordre", "order"))
        args = tokens[1:]
        if player != MJ and player not in state.characters:
            raise OrderNotAllowedError(Msg("vous n'avez pas de personnage dans cette partie",
                                           "you have no character in this game"))
        if verb in MJ_VERBS:
            if player != MJ:
                raise OrderNotAllowedError(Msg(f"{verb} est réservé au MJ", f"{verb} is for the MJ only"))
            target, rest = _target(state, args)
            if verb == "PRESTIGE":
                return Order(verb, (target, *_prestige_change(rest)), line)
            if rest:
                raise _syntax(f"mot en trop : « {' '.join(rest)} »", f"unexpected words: '{' '.join(rest)}'")
            return Order(verb, (target,), line)
        if verb == "FICHE":
            target = _target(state, args)[0] if args or player == MJ else player
            if target != player and player != MJ:
                raise OrderNotAllowedError(Msg("seul le MJ voit la fiche d'un autre personnage",
                                               "only the MJ sees another character's sheet"))
            return Order(verb, (target,), line)
        if player == MJ:
            raise OrderNotAllowedError(Msg("le MJ teste pour un joueur : « POUR <joueur> : TEST ... »",
                                           "the MJ tests for a player: 'POUR <player> : TEST ...'"))
        return Order(verb, _parse_test(state.characters[player], args), line)

    def default_orders(self, state: State, player: PlayerName) -> list[Order]:
        return []

    def resolve(self, state: State, orders: Mapping[PlayerName, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        return state, []

    def immediate(self, state: State, player: PlayerName, order: Order, dice: Dice) -> tuple[State, list[Event]] | None:
        if order.verb == "TEST":
            return self._test(state, player, order, dice)
        if order.verb == "FICHE":
            target = str(order.args[0])
            audience = Audience.mj() if player == MJ else Audience.to(target)
            return state, [Event("sheet", audience, sheet(state.characters[target]))]
        if order.verb in ("RECONNU", "INCONNU"):
            target = str(order.args[0])
            char = replace(state.characters[target], recognised=order.verb == "RECONNU")
            note = {"what": "recognised" if char.recognised else "unrecognised", **_note(char)}
            return _with(state, char), [Event("mj_note", Audience.to(target), note)]
        if order.verb == "PRESTIGE":
            target, mode, amount = str(order.args[0]), str(order.args[1]), int(order.args[2])
            old = state.characters[target]
            char = replace(old, prestige=amount if mode == "=" else old.prestige + amount)
            note = {"what": "prestige", "before": old.prestige, "delta": char.prestige - old.prestige,
                    "old_title_fr": title(old.prestige).fr, "old_title_en": title(old.prestige).en, **_note(char)}
            return _with(state, char), [Event("mj_note", Audience.to(target), note)]
        return None

    def _test(self, state: State, player: PlayerName, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        talent, carac, sr, modifier, secret = order.args
        talent, carac = str(talent or ""), str(carac)
        sr, modifier = int(sr), int(modifier)
        char = state.characters[player]
        number = state.tests + 1
        label = f"{talent}/{carac}" if talent else carac
        rolled = _roll(dice, char, talent, f"test #{number} {label} ({player})")
        value = carac_value(char, carac)
        score = talent_score(char, talent) if talent else 0
        bonuses: list[dict[str, JSON]] = []
        prestige = prestige_bonus(char, talent) if talent else 0
        if prestige:
            rank = title(char.prestige)
            bonuses.append({"fr": f"prestige, {rank.fr}", "en": f"prestige, {rank.en}", "value": prestige})
        if modifier:
            bonuses.append({"fr": "modificateur", "en": "modifier", "value": modifier})
        base = value + score if talent else value * 2
        total = base + sum(int(b["value"]) for b in bonuses) + int(rolled["dice_total"])
        level = difficulty(sr)
        secret = bool(secret) or state.secret_tests
        data: dict[str, JSON] = {
            "number": number, "player": player, "name": char.name, "double": bool(talent),
            "talent": talent, "talent_score": score, "has_talent": any(fold(t) == fold(talent) for t in char.talents) if talent else False,
            "carac": carac, "carac_fr": CARACS[carac].fr, "carac_en": CARACS[carac].en,
            "carac_score": value, "natural": has_gift(char, NATURAL, carac),
            "base": base, "bonuses": bonuses, **rolled, "total": total,
            "sr": sr, "difficulty_fr": level.fr, "difficulty_en": level.en,
            "margin": total - sr, "success": total >= sr, "secret": secret,
        }
        new = replace(state, tests=number)
        if secret:
            told = {"number": number, "player": player, "name": char.name}
            return new, [Event("test_result", Audience.mj(), data), Event("test_secret", Audience.to(player), told)]
        return new, [Event("test_result", Audience.to(player), data)]

    def outcome(self, state: State) -> Outcome | None:
        return None

    def view(self, state: State, player: PlayerName) -> dict[str, JSON]:
        if player == MJ:
            shown = list(state.roster)
        elif player in state.characters:
            shown = [player]
        else:
            shown = []
        return {
            "characters": [sheet(state.characters[p]) for p in shown],
            "names": [{"player": p, "name": state.characters[p].name} for p in state.roster],
            "tests": state.tests,
            "secret_tests": state.secret_tests,
        }

    def help(self, state: State, player: PlayerName) -> list[OrderHelp]:
        return [replace(h, aliases=ENGLISH.get(h.syntax.split()[0], ())) for h in self._help(state, player)]

    def _help(self, state: State, player: PlayerName) -> list[OrderHelp]:
        lines = [
            OrderHelp("TEST <talent> <CARAC> SR <n> [+m|-m] [SECRET]",
                      Msg("test double : caractéristique + talent + d10 (ex. TEST Escrime AG SR 15, ou Escrime/AG)",
                          "double test: characteristic + talent + d10 (e.g. TEST Escrime AG SR 15, or Escrime/AG)")),
            OrderHelp("TEST <CARAC> SR <n> [+m|-m] [SECRET]",
                      Msg(f"test simple : caractéristique × 2 + d10 ; CARAC parmi {VALID_CARACS}",
                          f"simple test: characteristic × 2 + d10; CARAC among {VALID_CARACS}")),
            OrderHelp("FICHE" if player != MJ else "FICHE <joueur>",
                      Msg("la fiche du personnage, avec PV, titre et bonus de prestige",
                          "the character sheet, with hit points, title and prestige bonuses")),
        ]
        if player == MJ:
            lines += [
                OrderHelp("POUR <joueur> : TEST ... [SECRET]",
                          Msg("tester pour un joueur ; SECRET : le résultat ne va qu'au MJ",
                              "test for a player; SECRET: only the MJ sees the result")),
                OrderHelp("RECONNU <joueur>", Msg("le personnage est reconnu : ses bonus de prestige s'appliquent",
                                                  "the character is recognised: prestige bonuses apply")),
                OrderHelp("INCONNU <joueur>", Msg("le personnage n'est plus reconnu : plus de bonus de prestige",
                                                  "the character is no longer recognised: no prestige bonus")),
                OrderHelp("PRESTIGE <joueur> +n|-n|=n", Msg("ajuster (ou fixer, =n) le prestige",
                                                            "adjust (or set, =n) the prestige")),
            ]
        return lines

    def players(self, state: State) -> list[PlayerName]:
        return list(state.roster)


def _prestige_change(rest: Sequence[str]) -> tuple[str, int]:
    text = "".join(rest)
    found = re.fullmatch(r"([+=-])(\d+)", text)
    if not found:
        raise _syntax("PRESTIGE <joueur> +n, -n ou =n (ex. PRESTIGE Armand +50)",
                      "PRESTIGE <player> +n, -n or =n (e.g. PRESTIGE Armand +50)")
    sign, amount = found.group(1), int(found.group(2))
    return ("=", amount) if sign == "=" else ("+", amount if sign == "+" else -amount)


def _note(char: Character) -> dict[str, Any]:
    rank = title(char.prestige)
    return {"player": char.player, "name": char.name, "recognised": char.recognised, "prestige": char.prestige,
            "title_fr": rank.fr, "title_en": rank.en}


def _with(state: State, char: Character) -> State:
    return replace(state, characters={**state.characters, char.player: char})


RULESET: Ruleset = Ruleset1626()
