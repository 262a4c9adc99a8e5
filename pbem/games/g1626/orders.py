"""1626: order lines -> `Order`s (French keywords, English aliases).  Parsing only: no dice, no state change.

A test line reads ``TEST <talent> <CARAC> [SR <n>] [+m|-m] [VISÉE] [DÉJOUER] [SECRET] [CONTRE <adversaire>]``.
Its arguments travel as flat (key, value) pairs of scalars (see `encode` / `decode`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.core import (
    JSON,
    MJ,
    Msg,
    Order,
    OrderAmbiguousError,
    OrderError,
    OrderNotAllowedError,
    OrderSyntaxError,
    PlayerName,
)
from pbem.games.g1626.changes import edited
from pbem.games.g1626.character import Character, chance_left, current_hit_points, has_gift, talent_names
from pbem.games.g1626.checks import character_problems
from pbem.games.g1626.state import Request, Side, State, character_names
from pbem.games.g1626.tables import (
    CARAC_ALIASES,
    CARACS,
    CHANCE,
    GIFTS,
    MARKSMAN,
    MASTER,
    NATURAL,
    SPECIALIST,
    STAR_GIFTS,
    TACTICIAN,
    TALENT_ALIASES,
)
from pbem.names import fold, match_keyword, match_name, take_name, whole_number, words

VERBS: dict[str, str] = {
    "test": "TEST", "jet": "TEST", "roll": "TEST", "check": "TEST",
    "fiche": "FICHE", "sheet": "FICHE",
    "reconnu": "RECONNU", "recognised": "RECONNU", "recognized": "RECONNU",
    "inconnu": "INCONNU", "unrecognised": "INCONNU", "unrecognized": "INCONNU",
    "prestige": "PRESTIGE",
    "sr": "SR", "dc": "SR", "seuil": "SR",
    "lancer": "LANCER", "lance": "LANCER", "accorde": "LANCER", "go": "LANCER",
    "refuser": "REFUSER", "refuse": "REFUSER", "refus": "REFUSER", "deny": "REFUSER",
    "demandes": "DEMANDES", "requests": "DEMANDES",
    "historique": "HISTORIQUE", "history": "HISTORIQUE", "tests": "HISTORIQUE",
    "blessure": "BLESSURE", "blesser": "BLESSURE", "degats": "BLESSURE", "wound": "BLESSURE", "damage": "BLESSURE",
    "soin": "SOIN", "soins": "SOIN", "soigner": "SOIN", "heal": "SOIN",
    "chance": "CHANCE", "luck": "CHANCE",
    "talent": "TALENT", "skill": "TALENT",
    "don": "DON", "gift": "DON",
}
MJ_VERBS = ("RECONNU", "INCONNU", "PRESTIGE", "SR", "LANCER", "REFUSER", "BLESSURE", "SOIN", "TALENT", "DON")
ENGLISH: dict[str, tuple[str, ...]] = {
    "TEST": ("ROLL", "CHECK"), "FICHE": ("SHEET",), "RECONNU": ("RECOGNISED",), "INCONNU": ("UNRECOGNISED",),
    "SR": ("DC",), "LANCER": ("GO",), "REFUSER": ("REFUSE", "DENY"), "DEMANDES": ("REQUESTS",),
    "HISTORIQUE": ("HISTORY",), "BLESSURE": ("WOUND", "DAMAGE"), "SOIN": ("HEAL",), "CHANCE": ("LUCK",),
    "TALENT": ("SKILL",), "DON": ("GIFT",),
}
"""The English words of each order, listed in AIDE/HELP (`VERBS` understands them)."""
ENEMY_WORDS = ("ennemis", "ennemi", "ennemies", "enemies", "enemy", "hostile", "hostiles")
SR_WORD = re.compile(r"^(sr|dc)[=:]?(-?\d+)?$")
SIGNED = re.compile(r"^([+-])(\d+)$")
REF = re.compile(r"^(?:#|n°|no|n|num|numero)\.?(\d+)$")
REF_WORDS = ("#", "n°", "no", "n", "num", "numero", "demande", "request")
SECRET_WORDS = ("secret", "secrete", "secretement")
AIM_WORDS = ("visee", "vise", "viser", "aim", "aimed")
FOIL_WORDS = ("dejouer", "dejoue", "foil", "contre-botte")
VERSUS_WORDS = ("contre", "vs", "versus", "against")
FILLER_WORDS = ("pour", "for", "a", "de")
LEAD_WORDS = ("je", "j'", "fais", "faire", "tente", "tenter", "lance", "lancer", "demande", "un", "une")
"""What a player may write before the verb of a test: « je fais un jet de … », « je tente un test de … »."""
TEST_OF = ("de", "du", "d'", "of")
KIND_WORDS = ("double", "simple")
"""« un test double » (a talent and a characteristic), « un test simple » (a characteristic alone)."""
"""What may follow the verb of a test: « jet de discrétion », « test d'escrime »."""
NPC_DICE = ("d10", "2d6", "2d6+2")
EXAMPLE = "TEST Escrime AG SR 15"
# The range of each number an order gives: bounds of what is typed, wider than any the rules reach (a
# sheet has no hit points in the thousands), so that no number can overflow what the rules compute with.
SR_MAX = 99
MODIFIER_MAX = 99
SCORE_MAX = 99
POINTS_MAX = 999
PRESTIGE_MAX = 999_999
TALENT_MAX = 99
REQUEST_MAX = 999_999_999
SR = Msg("le SR", "the SR")
MODIFIER = Msg("le modificateur", "the modifier")
REQUEST = Msg("le numéro de demande", "the request number")
VALID_CARACS = ", ".join(CARACS)


def _syntax(fr: str, en: str) -> OrderSyntaxError:
    return OrderSyntaxError(Msg(fr, en))


def _refused(fr: str, en: str) -> OrderNotAllowedError:
    return OrderNotAllowedError(Msg(fr, en))


# --- arguments: flat (key, value) pairs of JSON scalars ---


def encode(**values: JSON) -> tuple[JSON, ...]:
    """``encode(sr=15, secret=True)`` -> ``("sr", 15, "secret", True)`` (None values left out)."""
    return tuple(x for key, value in values.items() if value is not None for x in (key, value))


def decode(args: Sequence[JSON]) -> dict[str, JSON]:
    return dict(zip(args[::2], args[1::2], strict=True))


def side_values(side: Side, prefix: str = "") -> dict[str, JSON]:
    """A side's fields that differ from the defaults, keys prefixed (``vs_`` for the opponent)."""
    default = Side()
    return {prefix + f.name: getattr(side, f.name) for f in dataclasses.fields(Side)
            if getattr(side, f.name) != getattr(default, f.name)}


def side_from(values: Mapping[str, JSON], prefix: str = "") -> Side:
    names = {f.name for f in dataclasses.fields(Side)}
    return Side(**{k[len(prefix):]: v for k, v in values.items() if k.startswith(prefix) and k[len(prefix):] in names})


# --- the parts of a test line ---


def _carac(token: str) -> str | None:
    """A characteristic by its abbreviation or name (``AG``, ``Agilité``, ``agility``), or by the start of its
    name when only one begins so, from three letters on (``agi``, ``endu``, ``intel``, ``brav``)."""
    key = fold(token)
    found = CARAC_ALIASES.get(key)
    if found is not None or len(key) < 3 or not key.isalpha():
        return found
    starting = {abbr for name, abbr in CARAC_ALIASES.items() if len(name) > 3 and name.startswith(key)}
    return starting.pop() if len(starting) == 1 else None


def _joined_signs(tokens: Sequence[str]) -> list[str]:
    """``+ 2`` -> ``+2``, so modifiers read the same with or without the space."""
    out: list[str] = []
    for token in tokens:
        if out and out[-1] in ("+", "-") and token.isdecimal():
            out[-1] += token
        else:
            out.append(token)
    return out


def _is_tail(token: str) -> bool:
    key = fold(token)
    return bool(SIGNED.match(key)) or key in (*SECRET_WORDS, *AIM_WORDS, *FOIL_WORDS, "+", "-")


def _tail(tokens: Sequence[str], after: str) -> tuple[int, bool, bool, bool]:
    """Modifier, SECRET, VISÉE and DÉJOUER words -> (modifier, secret, aimed, foiling)."""
    modifier, secret, aimed, foiling = 0, False, False, False
    for token in tokens:
        key = fold(token)
        signed = SIGNED.match(key)
        if signed:
            modifier += whole_number(signed.group(2), 0, MODIFIER_MAX, what=MODIFIER) * (1 if signed.group(1) == "+" else -1)
        elif key in SECRET_WORDS:
            secret = True
        elif key in AIM_WORDS:
            aimed = True
        elif key in FOIL_WORDS:
            foiling = True
        else:
            raise _syntax(f"mot en trop {after} : « {token} » (permis : +n, -n, VISÉE, DÉJOUER, SECRET, CONTRE)",
                          f"unexpected word {after}: '{token}' (allowed: +n, -n, VISÉE, DÉJOUER, SECRET, CONTRE)")
    return modifier, secret, aimed, foiling


def _talent_carac(char: Character, head: Sequence[str]) -> tuple[str, str]:
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
        shown, shown_en = (f" « {carac_text} »", f" '{carac_text}'") if carac_text else ("", "")
        raise _syntax(
            f"caractéristique manquante ou inconnue{shown} ; valides : {VALID_CARACS} (exemple : « {EXAMPLE} »)",
            f"missing or unknown characteristic{shown_en}; valid: {VALID_CARACS} (example: '{EXAMPLE}')",
        )
    if not talent_text:
        return "", carac
    aliased = TALENT_ALIASES.get(fold(talent_text))
    return match_name(aliased or talent_text, talent_names(char), what=Msg("talent", "talent")), carac


def _check_situations(char: Character, side: Side) -> None:
    """VISÉE and DÉJOUER are the bonuses of two gifts, on the talent their text names."""
    if side.aimed and not (has_gift(char, MARKSMAN) and fold(side.talent) == fold("Armes de tir")):
        raise _refused(f"VISÉE donne le +2 du don « {MARKSMAN} » aux tests d'Armes de tir ; "
                       f"{char.name} n'y a pas droit (le MJ peut donner un modificateur, +n)",
                       f"VISÉE gives the +2 of the gift '{MARKSMAN}' to Armes de tir tests; "
                       f"{char.name} is not entitled to it (the MJ may give a modifier, +n)")
    if side.foiling and not (has_gift(char, TACTICIAN) and fold(side.talent) == fold("Tactique militaire")):
        raise _refused(f"DÉJOUER donne le +2 du don « {TACTICIAN} » aux tests de Tactique militaire ; "
                       f"{char.name} n'y a pas droit",
                       f"DÉJOUER gives the +2 of the gift '{TACTICIAN}' to Tactique militaire tests; "
                       f"{char.name} is not entitled to it")


def _actor(char: Character, tokens: Sequence[str]) -> tuple[Side, int | None, bool]:
    """The acting side of a test line (before CONTRE) -> (side, SR or None, secret)."""
    tokens = _joined_signs(tokens)
    found = next(((i, m) for i, t in enumerate(tokens) if (m := SR_WORD.match(fold(t)))), None)
    sr: int | None = None
    if found is not None:
        split, glued = found
        head, after = list(tokens[:split]), list(tokens[split + 1:])
        number = glued.group(2) or (after.pop(0) if after else "")
        if not re.fullmatch(r"\d+", number) or number.strip("0") == "":
            raise _syntax(f"le SR doit être un nombre entier positif : « {EXAMPLE} »",
                          f"SR must be a positive whole number: '{EXAMPLE}'")
        sr = whole_number(number, 1, SR_MAX, what=SR)
    else:
        split = next((i for i, t in enumerate(tokens) if _is_tail(t)), len(tokens))
        head, after = list(tokens[:split]), list(tokens[split:])
    modifier, secret, aimed, foiling = _tail(after, "après le SR" if sr is not None else "dans le test")
    kind = fold(head[0]) if head and fold(head[0]) in KIND_WORDS else ""
    talent, carac = _talent_carac(char, head[1:] if kind else head)
    if kind == "simple" and talent:
        raise _syntax(f"un test simple se fait sur une caractéristique seule : « TEST simple {carac} » "
                      f"(ou un test double : « TEST {talent} {carac} »)",
                      f"a simple test is made on a characteristic alone: 'TEST simple {carac}' "
                      f"(or a double test: 'TEST {talent} {carac}')")
    if kind == "double" and not talent:
        raise _syntax(f"un test double demande un talent : « TEST double Escrime {carac} »",
                      f"a double test needs a talent: 'TEST double Escrime {carac}'")
    side = Side(char.player, talent, carac, modifier, aimed, foiling)
    _check_situations(char, side)
    return side, sr, secret


def _opponent(state: State, actor: Side, tokens: Sequence[str]) -> tuple[Side, bool]:
    """What follows CONTRE: a character (with its talent and characteristic, by default the actor's),
    or a PNJ with its score (``CONTRE Rochefort 15 [2d6]``) -> (side, secret)."""
    tokens = _joined_signs(tokens)
    if not tokens:
        raise _syntax("adversaire manquant après CONTRE : « TEST Escrime AG CONTRE Isaac »",
                      "missing opponent after CONTRE: 'TEST Escrime AG CONTRE Isaac'")
    names = character_names(state)
    try:
        name, rest = take_name(tokens, list(names))
    except OrderError as e:
        return _npc(tokens, e)
    player = names[name]
    if player == actor.player:
        raise _refused("un personnage ne fait pas de test en opposition contre lui-même",
                       "a character does not make an opposed test against himself")
    if any(SR_WORD.match(fold(t)) for t in rest):
        raise _syntax("un test en opposition n'a pas de SR : le total de l'adversaire en tient lieu",
                      "an opposed test has no SR: the opponent's total stands for it")
    split = next((i for i, t in enumerate(rest) if _is_tail(t)), len(rest))
    char = state.characters[player]
    modifier, secret, aimed, foiling = _tail(rest[split:], "après l'adversaire")
    talent, carac = _talent_carac(char, rest[:split]) if split else (actor.talent, actor.carac)
    side = Side(player, talent, carac, modifier, aimed, foiling)
    _check_situations(char, side)
    return side, secret


def _npc(tokens: Sequence[str], name_error: OrderError) -> tuple[Side, bool]:
    at = next((i for i, t in enumerate(tokens) if t.isdecimal()), None)
    if at is None:
        split = next((i for i, t in enumerate(tokens) if _is_tail(t)), len(tokens))
        if isinstance(name_error, OrderAmbiguousError) or split == 0:
            raise name_error
        modifier, secret, _, _ = _tail(tokens[split:], "après l'adversaire")
        return Side(label=" ".join(tokens[:split]), modifier=modifier), secret
    rest = list(tokens[at + 1:])
    dice = "d10"
    if rest and fold(rest[0]) in NPC_DICE:
        dice = fold(rest.pop(0))
    modifier, secret, _, _ = _tail(rest, "après le score du PNJ")
    score = whole_number(tokens[at], 0, SCORE_MAX, what=Msg("le score du PNJ", "the PNJ's score"))
    return Side(label=" ".join(tokens[:at]) or "PNJ", modifier=modifier, score=score, dice=dice), secret


def _split_versus(tokens: Sequence[str]) -> tuple[list[str], list[str] | None]:
    at = next((i for i, t in enumerate(tokens) if fold(t) in VERSUS_WORDS), None)
    return (list(tokens), None) if at is None else (list(tokens[:at]), list(tokens[at + 1:]))


def resolvable(sr: int | None, opponent: Side | None) -> bool:
    """Can this test be rolled now: an SR, or an opponent whose total can be rolled?"""
    return sr is not None or (opponent is not None and (not opponent.npc or opponent.score is not None))


def parse_test(state: State, actor_player: PlayerName, tokens: Sequence[str]) -> tuple[Side, Side | None, int | None, bool]:
    """A test line after its verb -> (actor, opponent or None, SR or None, secret)."""
    mine, theirs = _split_versus(tokens)
    actor, sr, secret = _actor(state.characters[actor_player], mine)
    opponent = None
    if theirs is not None:
        if sr is not None:
            raise _syntax("un test en opposition n'a pas de SR : le total de l'adversaire en tient lieu",
                          "an opposed test has no SR: the opponent's total stands for it")
        opponent, secret_too = _opponent(state, actor, theirs)
        secret = secret or secret_too
    return actor, opponent, sr, secret


def order_for_test(state: State, player: PlayerName, line: str, args: Sequence[str], author: PlayerName | None) -> Order:
    """A TEST line: rolled at once (``TEST``) or sent to the MJ as a request (``DEMANDE``)."""
    by_mj = player == MJ or author == MJ
    if player == MJ:
        if not args:
            raise _syntax("TEST <personnage> <talent> <CARAC> SR <n> (ex. TEST Armand Escrime AG SR 15)",
                          "TEST <character> <talent> <CARAC> SR <n> (e.g. TEST Armand Escrime AG SR 15)")
        try:
            player, args = target(state, args)
        except OrderSyntaxError:
            raise _syntax("le MJ nomme le personnage qui teste : « TEST Armand Escrime AG SR 15 »",
                          "the MJ names the character who tests: 'TEST Armand Escrime AG SR 15'") from None
    actor, opponent, sr, secret = parse_test(state, player, args)
    secret = secret or state.secret_tests
    values = {**side_values(actor), **(side_values(opponent, "vs_") if opponent else {}), "sr": sr, "secret": secret}
    ready = resolvable(sr, opponent)
    if by_mj and not ready:
        raise _syntax(f"le SR manque : « TEST {state.characters[player].name} Escrime AG SR 15 », "
                      "ou CONTRE <personnage> / CONTRE <PNJ> <score>",
                      f"missing SR: 'TEST {state.characters[player].name} Escrime AG SR 15', "
                      "or CONTRE <character> / CONTRE <PNJ> <score>")
    verb = "TEST" if by_mj or (ready and state.sr_by == "player") else "DEMANDE"
    return Order(verb, encode(**values), secret_text(state.tests + 1) if secret else line)


def secret_text(number: int) -> str:
    """The order text of a secret test: the engine titles mails with it, so it must not name the test."""
    return f"TEST SECRET n° {number}"


# --- the MJ's answers to requests ---


def _pending_for(state: State, number: int | None, player: PlayerName | None, verb: str,
                 fits: Callable[[Request], bool] = lambda r: True) -> Request:
    """The request an answer is for: its number, else the only one of the character (or of all) that ``fits``."""
    pending = [r for r in state.requests if (number is None or r.number == number)
               and (player is None or r.actor.player == player) and (number is not None or fits(r))]
    if number is not None and not pending:
        waiting = ", ".join(f"n° {r.number}" for r in state.requests) or "aucune"
        raise _refused(f"pas de demande n° {number} en attente (en attente : {waiting})",
                       f"no request no. {number} waiting (waiting: {waiting.replace('aucune', 'none')})")
    if not pending:
        who = f" de {state.characters[player].name}" if player else ""
        raise _refused(f"aucune demande de test{who} en attente", f"no test request{who} waiting")
    if len(pending) > 1:
        listed = ", ".join(f"n° {r.number} ({state.characters[r.actor.player].name})" for r in pending)
        example = f"{verb} n° {pending[0].number}"
        raise OrderAmbiguousError(Msg(f"plusieurs demandes en attente : {listed} ; précisez, ex. « {example} »",
                                      f"several requests waiting: {listed}; say which, e.g. '{example}'"))
    return pending[0]


def _exact_name(state: State, tokens: Sequence[str]) -> tuple[PlayerName | None, list[str]]:
    """A character named exactly by the leading tokens (no guessing: what follows may be free text)."""
    names = {fold(n): p for n, p in character_names(state).items()}
    for end in range(len(tokens), 0, -1):
        player = names.get(fold(" ".join(tokens[:end])))
        if player:
            return player, list(tokens[end:])
    return None, list(tokens)


def _reference(state: State, tokens: Sequence[str]) -> tuple[int | None, PlayerName | None, list[str]]:
    """``n° 3``, ``#3``, ``demande 3`` or a character name, anywhere -> (number, player, the other tokens)."""
    number: int | None = None
    rest: list[str] = []
    i = 0
    while i < len(tokens):
        key = fold(tokens[i])
        ref = REF.match(key)
        if ref and number is None:
            number = whole_number(ref.group(1), 0, REQUEST_MAX, what=REQUEST)
        elif key in REF_WORDS and i + 1 < len(tokens) and tokens[i + 1].isdecimal() and number is None:
            number = whole_number(tokens[i + 1], 0, REQUEST_MAX, what=REQUEST)
            i += 1
        elif key not in FILLER_WORDS:
            rest.append(tokens[i])
        i += 1
    player: PlayerName | None = None
    names = [t for t in rest if not t.isdecimal() and not _is_tail(t)]
    if names:
        player, _ = take_name(names, list(character_names(state)))
        player = character_names(state)[player]
        rest = [t for t in rest if t not in names]
    return number, player, rest


def answer_order(state: State, verb: str, line: str, args: Sequence[str]) -> Order:
    """The MJ's ``SR <n> [n° k | personnage]``, ``LANCER [n° k] [CONTRE …]`` or ``REFUSER [n° k] [raison]``."""
    if verb == "REFUSER":
        return _refusal(state, line, args)
    mine, theirs = _split_versus(_joined_signs(args))
    if verb == "SR" and theirs is not None:
        raise _syntax("SR fixe un seuil ; pour un test en opposition, écrivez LANCER n° 3 CONTRE …",
                      "SR sets a threshold; for an opposed test write LANCER no. 3 CONTRE …")
    number, player, rest = _reference(state, mine)
    numbers = [whole_number(t, 1, SR_MAX, what=SR) for t in rest if t.isdecimal()]
    modifier, secret, _, _ = _tail([t for t in rest if not t.isdecimal()], "dans la réponse")
    if verb == "SR":
        if len(numbers) != 1:
            raise _syntax("SR <n> [n° de la demande ou personnage] : « SR 15 », « SR 15 n° 3 », « SR 15 Armand »",
                          "SR <n> [request number or character]: 'SR 15', 'SR 15 no. 3', 'SR 15 Armand'")
        request = _pending_for(state, number, player, f"SR {numbers[0]}")
        values: dict[str, JSON] = {"request": request.number, "sr": numbers[0]}
    else:
        if numbers:
            raise _syntax("LANCER [n° de la demande] [CONTRE …] : « LANCER n° 3 » (le SR se donne par SR 15 n° 3)",
                          "LANCER [request number] [CONTRE …]: 'LANCER no. 3' (an SR is given with SR 15 no. 3)")
        request = _pending_for(state, number, player, "LANCER",
                               lambda r: theirs is not None or resolvable(r.sr, r.opponent))
        values = {"request": request.number}
        opponent = request.opponent
        if theirs is not None:
            opponent, secret_too = _opponent(state, request.actor, theirs)
            secret = secret or secret_too
            values.update(side_values(opponent, "vs_"))
            values["versus"] = True
        if not resolvable(request.sr, opponent):
            missing = (f"le score de {opponent.label} : LANCER n° {request.number} CONTRE {opponent.label} 15"
                       if opponent is not None else f"le SR : SR 15 n° {request.number}")
            raise _syntax(f"la demande n° {request.number} attend {missing}",
                          f"request no. {request.number} needs {missing}")
    secret = secret or request.secret or state.secret_tests
    values.update(modifier=modifier or None, secret=secret or None)
    return Order(verb, encode(**values), secret_text(request.number) if secret else line)


def _refusal(state: State, line: str, args: Sequence[str]) -> Order:
    tokens = list(args)
    number: int | None = None
    if tokens and (ref := REF.match(fold(tokens[0]))):
        number, tokens = whole_number(ref.group(1), 0, REQUEST_MAX, what=REQUEST), tokens[1:]
    elif len(tokens) > 1 and fold(tokens[0]) in REF_WORDS and tokens[1].isdecimal():
        number, tokens = whole_number(tokens[1], 0, REQUEST_MAX, what=REQUEST), tokens[2:]
    elif tokens and tokens[0].isdecimal():
        number, tokens = whole_number(tokens[0], 0, REQUEST_MAX, what=REQUEST), tokens[1:]
    player, tokens = _exact_name(state, tokens) if number is None else (None, tokens)
    request = _pending_for(state, number, player, "REFUSER")
    # the reason as the MJ wrote it, punctuation kept: the words after the verb and the reference
    consumed = 1 + len(args) - len(tokens)
    parts = line.split(None, consumed)
    reason = parts[consumed].strip(" :,;") if tokens and len(parts) > consumed else ""
    text = secret_text(request.number) if request.secret or state.secret_tests else line
    return Order("REFUSER", encode(request=request.number, reason=reason or None), text)


# --- the other orders ---


def target(state: State, tokens: Sequence[str]) -> tuple[PlayerName, list[str]]:
    """A character named by its player's name or its own name."""
    if not tokens:
        raise _syntax("personnage manquant", "missing character")
    names = character_names(state)
    name, rest = take_name(tokens, list(names))
    return names[name], rest


def _amount(verb: str, state: State, tokens: Sequence[str]) -> tuple[PlayerName, int]:
    """``BLESSURE Armand 7`` or ``BLESSURE 7 Armand``."""
    tokens = list(tokens)
    number = next((t for t in (tokens[:1] + tokens[-1:]) if t.isdecimal()), None)
    example = f"{verb} Armand 7"
    if number is None or number.strip("0") == "":
        raise _syntax(f"{verb} <personnage> <points de vie> (ex. {example})", f"{verb} <character> <hit points> (e.g. {example})")
    points = whole_number(number, 1, POINTS_MAX, what=Msg("les points de vie", "the hit points"))
    tokens.remove(number)
    player, rest = target(state, tokens)
    if rest:
        raise _syntax(f"mot en trop : « {' '.join(rest)} » (ex. {example})", f"unexpected words: '{' '.join(rest)}' (e.g. {example})")
    return player, points


def _prestige_change(rest: Sequence[str]) -> tuple[str, int]:
    found = re.fullmatch(r"([+=-])(\d+)", "".join(rest))
    if not found:
        raise _syntax("PRESTIGE <joueur> +n, -n ou =n (ex. PRESTIGE Armand +50)",
                      "PRESTIGE <player> +n, -n or =n (e.g. PRESTIGE Armand +50)")
    sign, amount = found.group(1), whole_number(found.group(2), 0, PRESTIGE_MAX, what=Msg("le prestige", "the prestige"))
    return ("=", amount) if sign == "=" else ("+", amount if sign == "+" else -amount)


def _chance(state: State, player: PlayerName, args: Sequence[str]) -> Order:
    """Chance inouïe: the player avoids the coup that brought him to 0 PV; any other coup is the MJ's call."""
    who = target(state, args)[0] if player == MJ or args else player
    if player != MJ and who != player:
        raise _refused("seul le MJ emploie la chance d'un autre personnage", "only the MJ uses another character's luck")
    char = state.characters[who]
    if chance_left(char) < 1:
        had = f" (ses {char.chance} chances sont employées)" if char.chance else ""
        raise _refused(f"{char.name} n'a plus de « {CHANCE} »{had}", f"{char.name} has no '{CHANCE}' left")
    if player != MJ:
        if not char.last_wound:
            raise _refused("aucun coup à éviter : CHANCE annule la dernière blessure que le MJ vous a infligée",
                           "no coup to avoid: CHANCE cancels the last wound the MJ dealt you")
        if current_hit_points(char) > 0:
            raise _refused("ce coup n'est pas mortel (il vous reste des PV) : demandez au MJ s'il est gravissime, "
                           "lui seul peut alors écrire CHANCE pour vous",
                           "this coup is not deadly (you have PV left): ask the MJ whether it is grievous; "
                           "only the MJ may then write CHANCE for you")
    return Order("CHANCE", (who,), "")


def parse(state: State, player: PlayerName, line: str, author: PlayerName | None = None) -> Order:
    """One order line of ``player`` (or `MJ`); ``author`` is `MJ` when the MJ wrote it for the player (POUR)."""
    tokens = _test_phrase(words(line.replace("/", " / ")))
    if not tokens:
        raise _syntax("ligne vide", "empty line")
    glued = SR_WORD.match(fold(tokens[0]))
    if glued and glued.group(2):  # "SR15 Armand"
        tokens = [tokens[0][:2], glued.group(2), *tokens[1:]]
    verb = match_keyword(tokens[0], VERBS, what=Msg("ordre", "order"))
    args = tokens[1:]
    if player != MJ and player not in state.characters:
        raise _refused("vous n'avez pas de personnage dans cette partie", "you have no character in this game")
    if verb in MJ_VERBS and player != MJ:
        raise _refused(f"{verb} est réservé au MJ", f"{verb} is for the MJ only")
    order = _parse_verb(state, player, verb, line, args, author)
    return order if order.text else Order(order.verb, order.args, line)


def _test_phrase(tokens: list[str]) -> list[str]:
    """« je fais un jet de discrétion/ag » -> ``jet discrétion / ag``: the words people put around a test.

    A leading « je fais un » (« je tente un », « je lance un », « faire un ») is dropped when a test verb
    follows within its first words, and a « de », « du » or « d' » right after the test verb."""
    lead = 0
    while lead < len(tokens) and lead < 4 and fold(tokens[lead]) in LEAD_WORDS:
        lead += 1
    if lead and lead < len(tokens) and VERBS.get(fold(tokens[lead])) == "TEST":
        tokens = tokens[lead:]
    if not tokens or VERBS.get(fold(tokens[0])) != "TEST" or len(tokens) < 2:
        return tokens
    head, rest = tokens[:1], tokens[1:]
    if fold(rest[0]) in KIND_WORDS and len(rest) > 1:  # « un test double d'armes à feu / perception »
        head, rest = [*head, rest[0]], rest[1:]
    first = fold(rest[0])
    if first in TEST_OF and len(rest) > 1:
        rest = rest[1:]
    elif first.startswith("d'") and len(first) > 2:  # « d'escrime » (fold reads ’ as ')
        rest = [rest[0][2:], *rest[1:]]
    return [*head, *rest]


def _parse_verb(state: State, player: PlayerName, verb: str, line: str, args: list[str],
                author: PlayerName | None) -> Order:
    if verb == "TEST":
        return order_for_test(state, player, line, args, author)
    if verb in ("SR", "LANCER", "REFUSER"):
        return answer_order(state, verb, line, args)
    if verb in ("RECONNU", "INCONNU"):
        who, rest = target(state, args)
        enemies = verb == "RECONNU" and len(rest) == 1 and fold(rest[0]) in ENEMY_WORDS
        if rest and not enemies:
            raise _syntax(f"mot en trop : « {' '.join(rest)} » (RECONNU <personnage> [ENNEMIS])",
                          f"unexpected words: '{' '.join(rest)}' (RECONNU <character> [ENNEMIS])")
        return Order(verb, (who, True) if enemies else (who,), line)
    if verb in ("TALENT", "DON"):
        return sheet_edit_order(state, verb, line, args)
    if verb == "PRESTIGE":
        who, rest = target(state, args)
        return Order(verb, (who, *_prestige_change(rest)), line)
    if verb in ("BLESSURE", "SOIN"):
        return Order(verb, _amount(verb, state, args), line)
    if verb == "CHANCE":
        return _chance(state, player, args)
    if verb in ("FICHE", "HISTORIQUE"):
        who = target(state, args)[0] if args else player
        if who != player and player != MJ:
            raise _refused("seul le MJ voit la fiche et les tests d'un autre personnage",
                           "only the MJ sees another character's sheet and tests")
        if who == MJ and verb == "FICHE":
            raise _syntax("FICHE <personnage>", "FICHE <character>")
        return Order(verb, (who,), line)
    if args:
        raise _syntax(f"{verb} s'écrit seul", f"{verb} takes no argument")
    return Order(verb, (), line)


def sheet_edit_order(state: State, verb: str, line: str, args: Sequence[str]) -> Order:
    """``TALENT Armand Escrime +1`` (« perfectibles à force d'entraînement ») or ``DON Armand -Riche maîtresse…``:
    refused when the sheet would break a rule of chapter I."""
    who, rest = target(state, args)
    char = state.characters[who]
    order = Order(verb, _talent_change(char, rest) if verb == "TALENT" else _gift_change(state, char, rest), line)
    order = Order(verb, (who, *order.args), line)
    problems = character_problems(edited(state, order), {})
    if problems:
        raise _refused("la fiche ne le permet pas : " + " ; ".join(p.msg.fr for p in problems),
                       "the sheet does not allow it: " + "; ".join(p.msg.en for p in problems))
    return order


def _talent_change(char: Character, rest: Sequence[str]) -> tuple[JSON, ...]:
    tokens = _joined_signs(rest)
    example = "TALENT Armand Escrime +1 (ou -1, ou =8)"
    change = re.fullmatch(r"([+=-]?)(\d+)", tokens[-1]) if len(tokens) > 1 else None
    if change is None:
        raise _syntax(f"TALENT <personnage> <talent> +n, -n ou =n : « {example} »",
                      f"TALENT <character> <talent> +n, -n or =n: '{example}'")
    name = " ".join(tokens[:-1])
    aliased = TALENT_ALIASES.get(fold(name), name)
    try:
        talent = match_name(aliased, talent_names(char), what=Msg("talent", "talent"))
    except OrderSyntaxError:  # « un talent spécifique ne figurant pas dans cette liste, en accord avec le MJ »
        talent = " ".join(name.split())
    old = next((s for t, s in char.talents.items() if fold(t) == fold(talent)), 0)
    talent = next((t for t in char.talents if fold(t) == fold(talent)), talent)
    sign, amount = change.group(1), whole_number(change.group(2), 0, TALENT_MAX, what=Msg("le talent", "the talent"))
    score = old + amount if sign == "+" else old - amount if sign == "-" else amount
    if score > TALENT_MAX:
        raise _refused(f"{talent} ne peut dépasser {TALENT_MAX} ({old} {sign} {amount})",
                       f"{talent} cannot go above {TALENT_MAX} ({old} {sign} {amount})")
    if score < 0:
        raise _refused(f"{talent} ne peut descendre sous 0 ({old} {sign} {amount})",
                       f"{talent} cannot go below 0 ({old} {sign} {amount})")
    return (talent, score)


def _gift_change(state: State, char: Character, rest: Sequence[str]) -> tuple[JSON, ...]:
    tokens = list(rest)
    example = "DON Armand +Spécialiste Latin, ou DON Armand -Riche maîtresse ou Riche amant"
    if tokens and tokens[0] in ("+", "-"):
        tokens = [tokens[0] + tokens[1], *tokens[2:]] if len(tokens) > 1 else tokens
    if not tokens or tokens[0][:1] not in "+-" or len(tokens[0]) < 2:
        raise _syntax(f"DON <personnage> +<don> [domaine] ou -<don> : « {example} »",
                      f"DON <character> +<gift> [domain] or -<gift>: '{example}'")
    sign, tokens = tokens[0][0], [tokens[0][1:], *tokens[1:]]
    gift, domain_tokens = take_name(tokens, [*GIFTS, *state.extra_gifts], what=Msg("don", "gift"))
    domain = " ".join(domain_tokens)
    if gift == NATURAL and domain:
        domain = CARAC_ALIASES.get(fold(domain)) or domain
    elif gift in (SPECIALIST, MASTER) and domain:
        domain = match_name(TALENT_ALIASES.get(fold(domain), domain), list(char.talents), what=Msg("talent", "talent"))
    if sign == "+" and gift in char.gifts and gift not in STAR_GIFTS:
        raise _refused(f"{char.name} a déjà « {gift} », qui ne se prend qu'une fois",
                       f"{char.name} already has '{gift}', which is taken once only")
    if sign == "-" and (gift not in char.gifts or (domain and fold(domain) not in {fold(d) for d in char.gifts[gift]})):
        held = f" en {domain}" if domain else ""
        raise _refused(f"{char.name} n'a pas « {gift} »{held}", f"{char.name} does not have '{gift}'{' in ' + domain if domain else ''}")
    if sign == "-" and domain:
        domain = next(d for d in char.gifts[gift] if fold(d) == fold(domain))
    return (sign, gift, domain)


def request_of(state: State, number: int) -> Request:
    return next(r for r in state.requests if r.number == number)


def describe(values: Mapping[str, Any]) -> str:
    """``Escrime/AG`` for a side's values (used in dice purposes and the history)."""
    talent, carac = values.get("talent", ""), values.get("carac", "")
    if not carac:  # a PNJ
        dice = values.get("dice", "d10")
        return f"score {values.get('score')}" + ("" if dice == "d10" else f", {dice}")
    return f"{talent}/{carac}" if talent else str(carac)
