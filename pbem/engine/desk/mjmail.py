"""Understanding an MJ's mail line: which MJ command it is, with its arguments, in natural French or English.

The MJ writes as he speaks, often from a phone: the imperative (« Prolonge le tour 3 de 24h »), the
infinitive (« prolonger »), the noun (« prolongation de 24 heures »), arguments in any natural order,
durations and dates as people write them (`pbem.engine.when`).  A command is known by its first word
(a verb, a noun, or a short phrase such as « qui manque ? » or « mets la partie en pause »), read
by its stem so every form of the verb is one; the rest is read for what the command needs.

`parse` returns the command, raises `MjLineError` (a line meant as that command but not readable,
with the command's syntax and an example), or returns None (the line is no MJ command: a game
order, POUR, or prose; or a line longer than `pbem.limits.MAX_LINE_CHARS`, which is answered as
any mail's over-long line).  `COMMANDS` lists every command with its syntax and one example, each of
which `parse` accepts as written (a test checks it), for the help the MJ gets.
Pure: no database, no clock of its own.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from pbem.core import Msg
from pbem.engine import when
from pbem.limits import MAX_LINE_CHARS
from pbem.msg import PbemError
from pbem.names import fold


@dataclass(frozen=True)
class Command:
    """One MJ command: its kind, as written, and what was read of it."""

    kind: str
    line: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Syntax:
    """How a command is written, and an example of it (French and English)."""

    kind: str
    syntax: Msg
    example: Msg
    does: Msg


COMMANDS: tuple[Syntax, ...] = (
    Syntax("EXTEND", Msg("PROLONGE [tour n] de <durée> | jusqu'au <date>", "EXTEND [turn n] by <duration> | until <date>"),
           Msg("Prolonge le tour 3 de 24h", "Extend turn 3 by 24 hours"),
           Msg("repousser la date limite de l'étape en cours (AVANCE pour l'avancer) ; les joueurs sont prévenus",
               "move the open step's deadline later (EARLIER to bring it forward); players are told")),
    Syntax("PAUSE", Msg("PAUSE [du <date> au <date> | jusqu'au <date> | pendant <durée>] [: motif]",
                        "PAUSE [from <date> to <date> | until <date> | for <duration>] [: reason]"),
           Msg("Pause du samedi 8 au dimanche 16 février inclus : vacances", "Pause from 8 to 16 February: holidays"),
           Msg("arrêter l'horloge (sans date : jusqu'à nouvel ordre) ; dates limites et rappels gelés, joueurs prévenus",
               "stop the clock (no date: until further notice); deadlines and reminders frozen, players told")),
    Syntax("RESUME", Msg("REPRISE [le <date>]", "RESUME [on <date>]"), Msg("Reprise", "Resume"),
           Msg("finir la pause (ou l'annuler si elle n'a pas commencé) ; le temps qui restait est rendu",
               "end the pause (or call it off if it has not begun); the time that was left is given back")),
    Syntax("MISSING", Msg("QUI MANQUE", "WHO IS MISSING"), Msg("Qui manque ?", "Who is missing?"),
           Msg("les joueurs dont on attend encore les ordres, et les absents", "the players still awaited, and the absent")),
    Syntax("RESEND", Msg("RENVOIE [les résultats de <joueur> | le compte rendu] du tour n [à <joueur> | à moi]",
                         "RESEND [<player>'s results | the forum post] of turn n [to <player> | to me]"),
           Msg("Renvoie à Arya ses résultats du tour 3", "Resend Arya's results of turn 3 to Arya"),
           Msg("renvoyer les résultats privés d'un joueur, ou le compte rendu du forum, d'une étape",
               "send again a player's private results, or the forum post, of a step")),
    Syntax("CORRECT", Msg("CORRIGE tour n POUR <joueur> : <ordre>", "CORRECT turn n FOR <player>: <order>"),
           Msg("Corrige le tour 3 pour Arya : GUESS 4", "Correct turn 3 for Arya: GUESS 4"),
           Msg("corriger l'ordre d'une étape résolue (puis RECALCULE, ou APPROUVE si elle attend)",
               "correct an order of a resolved step (then RERUN, or APPROVE if it waits)")),
    Syntax("RERUN", Msg("RECALCULE le tour n [et publie]", "RERUN turn n [and publish]"),
           Msg("Recalcule le tour 3 et publie", "Rerun turn 3 and publish"),
           Msg("refaire une étape avec les ordres corrigés ; « et publie » envoie un RECTIFICATIF",
               "compute a step again with the corrected orders; 'and publish' mails a RECTIFICATIF")),
    Syntax("REMOVE", Msg("RETIRE <joueur> [maintenant | à la fin du tour]", "REMOVE <player> [now | at the end of the turn]"),
           Msg("Retire Bran à la fin du tour", "Remove Bran at the end of the turn"),
           Msg("retirer un joueur (à la fin du tour : ses ordres du tour comptent encore)",
               "remove a player (at the end of the turn: their orders for it still count)")),
    Syntax("REPLACE", Msg("REMPLACE <joueur> par <nom> <adresse> [à partir du tour n]",
                          "REPLACE <player> with <name> <address> [from turn n]"),
           Msg("Remplace Bran par Jeanne Dupont <jeanne@example.org>", "Replace Bran with Jane Doe <jane@example.org>"),
           Msg("donner la place d'un joueur à un nouveau venu, qui reçoit tout ce que savait le partant",
               "give a player's seat to a newcomer, who gets everything the departing player knew")),
    Syntax("APPROVE", Msg("APPROUVE [tour n] [puis CHRONIQUE et votre texte]", "APPROVE [turn n] [then CHRONICLE and your text]"),
           Msg("Approuve le tour 3", "Approve turn 3"),
           Msg("publier des résultats tenus pour approbation (option publish = \"mj\")",
               "publish results held for approval (option publish = \"mj\")")),
    Syntax("CHRONICLE", Msg("CHRONIQUE (le texte suit, jusqu'à FIN)", "CHRONICLE (the text follows, until END)"),
           Msg("Chronique : La pluie tombait sur le Donjon Rouge.", "Chronicle: Rain fell on the Red Keep."),
           Msg("avec APPROUVE : un texte libre en tête du compte rendu du forum",
               "with APPROVE: a free text that heads the forum post")),
    Syntax("PREVIEW", Msg("APERÇU", "PREVIEW"), Msg("Aperçu", "Preview"),
           Msg("l'étape en cours résolue pour voir, avec les ordres reçus et les défauts : rien n'est enregistré ni envoyé",
               "the open step resolved to look, with the orders in and the defaults: nothing is stored or sent")),
    Syntax("ABSENCE", Msg("ABSENCE <joueur> du <date> au <date> | ANNULER", "ABSENCE <player> from <date> to <date> | CANCEL"),
           Msg("Absence Bran du 8 au 16 février", "Absence Bran from 8 to 16 February"),
           Msg("déclarer l'absence d'un joueur (il peut aussi l'écrire lui-même)",
               "declare a player's absence (they may also write it themselves)")),
    Syntax("HELP", Msg("AIDE", "HELP"), Msg("Aide", "Help"), Msg("cette liste", "this list")),
)
BY_KIND = {c.kind: c for c in COMMANDS}

# the first word of each command, by its stem (every form of the verb, and the noun)
STEMS: tuple[tuple[str, str], ...] = (
    ("republi", "RERUN"), ("recalcul", "RERUN"), ("rejou", "RERUN"), ("rerun", "RERUN"), ("recompute", "RERUN"),
    ("prolong", "EXTEND"), ("repouss", "EXTEND"), ("rallong", "EXTEND"), ("extend", "EXTEND"), ("extension", "EXTEND"),
    ("postpon", "EXTEND"), ("avanc", "EXTEND"), ("earlier", "EXTEND"),
    ("pause", "PAUSE"), ("suspen", "PAUSE"), ("gele", "PAUSE"), ("geler", "PAUSE"),
    ("repri", "RESUME"), ("repren", "RESUME"), ("reprend", "RESUME"), ("resum", "RESUME"), ("unpause", "RESUME"),
    ("degel", "RESUME"),
    ("manquant", "MISSING"), ("retardataire", "MISSING"), ("missing", "MISSING"),
    ("renvo", "RESEND"), ("resend", "RESEND"), ("reexpedi", "RESEND"),
    ("corrig", "CORRECT"), ("correct", "CORRECT"),
    ("retir", "REMOVE"), ("retrait", "REMOVE"), ("exclu", "REMOVE"), ("remove", "REMOVE"), ("kick", "REMOVE"),
    ("rempla", "REPLACE"), ("replace", "REPLACE"), ("substitu", "REPLACE"),
    ("approu", "APPROVE"), ("approb", "APPROVE"), ("valid", "APPROVE"), ("publi", "APPROVE"), ("approve", "APPROVE"),
    ("chroniq", "CHRONICLE"), ("chronicle", "CHRONICLE"),
    ("apercu", "PREVIEW"), ("previsu", "PREVIEW"), ("simul", "PREVIEW"), ("preview", "PREVIEW"), ("predict", "PREVIEW"),
    ("absence", "ABSENCE"),
)
EXACT = {"aide": "HELP", "help": "HELP", "commandes": "HELP", "commands": "HELP", "attente": "MISSING",
         "manque": "MISSING"}
# phrases made of several words
PHRASES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("qui", "manque"), "MISSING"), (("qui", "n", "a", "pas"), "MISSING"), (("qui", "doit"), "MISSING"),
    (("qui", "reste"), "MISSING"), (("who", "is", "missing"), "MISSING"), (("who", "s", "missing"), "MISSING"),
    (("who", "has", "not"), "MISSING"), (("en", "attente"), "MISSING"), (("on", "attend", "qui"), "MISSING"),
    (("fin", "de", "la", "pause"), "RESUME"), (("leve", "la", "pause"), "RESUME"), (("lever", "la", "pause"), "RESUME"),
    (("end", "the", "pause"), "RESUME"),
    (("mets", "la", "partie", "en", "pause"), "PAUSE"), (("mettre", "la", "partie", "en", "pause"), "PAUSE"),
    (("mets", "en", "pause"), "PAUSE"), (("mettre", "en", "pause"), "PAUSE"), (("mettez", "en", "pause"), "PAUSE"),
    (("mettez", "la", "partie", "en", "pause"), "PAUSE"), (("met", "la", "partie", "en", "pause"), "PAUSE"),
)
LEADING = {"svp", "stp", "please", "merci", "mj"}  # politeness before the command word
STEP_WORDS = {"tour", "tours", "etape", "etapes", "manche", "manches", "turn", "step", "round", "n", "no"}
TO_WORDS = {"a", "au", "aux", "to"}
OF_WORDS = {"de", "d", "du", "des", "of", "pour", "for"}
ME_WORDS = {"moi", "me", "mj", "myself"}
THEM_WORDS = {"lui", "elle", "joueur", "joueuse", "him", "her", "them", "player"}
FORUM_WORDS = {"forum", "public", "publique", "compte", "rendu", "cr", "post", "bbcode"}
NOW_WORDS = {"maintenant", "now", "immediatement", "immediately", "suite", "tout", "de", "des", "aussitot"}
END_WORDS = {"fin", "end", "apres", "after", "termine", "resolution"}
PUBLISH_WORDS = {"publie", "publier", "publiez", "publish", "rectificatif", "publication", "envoie", "envoyer"}
CANCEL_WORDS = {"annule", "annuler", "annulee", "cancel", "retour", "fin", "back", "rien", "none"}
FILLER = {"le", "la", "les", "l", "un", "une", "de", "d", "du", "des", "en", "cours", "courant", "actuel", "actuelle",
          "date", "limite", "deadline", "echeance", "partie", "jeu", "game", "the", "this", "current", "open",
          "ce", "cette", "et", "and", "please", "svp", "stp", "merci", "pour", "for", "a", "au", "by", "of",
          "inclus", "incluse", "included", "inclusive", "compris", "y", "s", "il", "te", "plait", "vous", "prie",
          "prolongation", "supplementaire", "supplementaires", "encore", "plus", "again", "extra"}
ADDRESS = re.compile(r"<?([^\s<>@,;]+@[^\s<>@,;]+\.[^\s<>@,;]+)>?")


class MjLineError(PbemError):
    """A line meant as an MJ command (``kind``) that cannot be read; ``msg`` says why."""

    def __init__(self, kind: str, msg: Msg):
        super().__init__(msg)
        self.kind = kind


def kind_of(tokens: Sequence[str]) -> tuple[str, int] | None:
    """The command a line's first words name, and how many words that took (None: not an MJ command)."""
    start = 0
    while start < len(tokens) and tokens[start] in LEADING:
        start += 1
    words = tuple(tokens[start:])
    if not words:
        return None
    for phrase, kind in sorted(PHRASES, key=lambda p: -len(p[0])):
        if words[:len(phrase)] == phrase:
            return kind, start + len(phrase)
    if words[0] in EXACT:
        return EXACT[words[0]], start + 1
    for stem, kind in STEMS:
        if words[0].startswith(stem):
            return kind, start + 1
    return None


def closest(line: str) -> Syntax | None:
    """The MJ command whose word is nearest the line's first word (a typo: « prolnge »), if any is near."""
    tok = when.tokens(line[:MAX_LINE_CHARS])  # (only its first word counts)
    if not tok:
        return None
    heads = {stem: kind for stem, kind in STEMS} | EXACT
    near = difflib.get_close_matches(tok[0][:max(len(s) for s in heads)], list(heads), n=1, cutoff=0.75)
    if not near:
        near = [s for s in heads if len(tok[0]) >= 4 and difflib.SequenceMatcher(None, tok[0][:len(s)], s).ratio() > 0.8]
    return BY_KIND[heads[near[0]]] if near else None


def _error(kind: str, fr: str, en: str) -> MjLineError:
    c = BY_KIND[kind]
    return MjLineError(kind, Msg(f"{fr} ; syntaxe : {c.syntax.fr} (par exemple : {c.example.fr})",
                                 f"{en}; syntax: {c.syntax.en} (e.g. {c.example.en})"))


def parse(line: str, *, now: datetime, tz: ZoneInfo, players: Sequence[str], deadline_time: time | None = None,
          ) -> Command | None:
    """The MJ command a line is, or None; `MjLineError` for a line meant as one but not readable.

    ``players`` are the names a command may name; ``deadline_time`` is the hour a date without one
    means for a deadline (the time of day of the current deadline).
    """
    if len(line) > MAX_LINE_CHARS:  # no command is that long: read as any mail's line (« ligne trop longue »)
        return None
    tok = when.tokens(line)
    found = kind_of(tok)
    if found is None:
        return None
    kind, used = found
    rest = tok[used:]
    text = _after_head(line, used)
    try:
        args = _READERS[kind](rest, text, line, now, tz, list(players), deadline_time or time(21, 0))
    except when.WhenError as e:
        raise _error(kind, e.msg.fr, e.msg.en) from None
    if kind == "EXTEND" and tok[used - 1].startswith(("avanc", "earlier")):
        args["earlier"] = True
    if kind == "RERUN" and tok[used - 1].startswith("republi"):
        args["publish"] = True
    return Command(kind, line, args)


def _after_head(line: str, used: int) -> str:
    """The line as written after its first ``used`` words (for reasons, names and chronicles)."""
    pieces = re.split(r"(\s+|')", line.strip())
    words = 0
    for i, piece in enumerate(pieces):
        if when.tokens(piece):
            words += len(when.tokens(piece))
            if words >= used:
                return "".join(pieces[i + 1:]).strip(" :,.\u00a0")
    return ""


def _step(rest: list[str]) -> tuple[int | None, list[str]]:
    """« tour 3 », « l'étape 3 », « turn 3 », « n° 3 »: the step number, and the words without it."""
    for i, t in enumerate(rest):
        if t in STEP_WORDS and i + 1 < len(rest) and rest[i + 1].isdigit():
            return when.read_number(rest[i + 1]), rest[:i] + rest[i + 2:]
        if t in ("debut", "depart", "start") and (i == 0 or rest[i - 1] in ("du", "de", "le", "la", "l", "the")):
            return 0, rest[:i] + rest[i + 1:]
    return None, rest


def _leftover(kind: str, words: list[str], also: Collection[str] = ()) -> None:
    left = [w for w in words if w not in FILLER and w not in also and w not in (":", "/", "?", "!")]
    if left:
        raise _error(kind, f"je n'ai pas compris « {' '.join(left)} »", f"I did not understand '{' '.join(left)}'")


def _names_in(rest: list[str], players: list[str]) -> list[tuple[int, int, str]]:
    """Where player names appear among the words: (first index, index after, name), longest names first."""
    found: list[tuple[int, int, str]] = []
    taken: set[int] = set()
    for name in sorted(players, key=lambda n: -len(when.tokens(n))):
        key = when.tokens(name)
        for i in range(len(rest) - len(key) + 1):
            if rest[i:i + len(key)] == key and not taken & set(range(i, i + len(key))):
                found.append((i, i + len(key), name))
                taken |= set(range(i, i + len(key)))
    return sorted(found)


def _one_name(kind: str, rest: list[str], players: list[str]) -> tuple[str, list[str]]:
    names = _names_in(rest, players)
    if not names:
        near = difflib.get_close_matches(" ".join(w for w in rest if w not in FILLER), [fold(p) for p in players],
                                         n=1, cutoff=0.6)
        hint = next((p for p in players if fold(p) == near[0]), None) if near else None
        raise _error(kind, "aucun joueur nommé" + (f" (vouliez-vous dire {hint} ?)" if hint else ""),
                     "no player named" + (f" (did you mean {hint}?)" if hint else ""))
    if len({n for _, _, n in names}) > 1:
        listed = " et ".join(n for _, _, n in names)
        raise _error(kind, f"plusieurs joueurs nommés ({listed}) : un seul par ligne",
                     f"several players named ({listed}): one per line")
    first, after, name = names[0]
    return name, rest[:first] + rest[after:]


# --- one reader per command: (words after the command word, the text after it, the line, now, tz, players, hour) ---


def _extend(rest: list[str], _text: str, _line: str, now: datetime, tz: ZoneInfo, _players: list[str],
            hour: time) -> dict[str, Any]:
    turn, rest = _step(rest)
    for i, t in enumerate(rest):
        if t in ("jusqu", "jusque", "until", "till", "au", "to") or (t == "a" and i + 1 < len(rest)
                                                                      and rest[i + 1] not in ("partir",)):
            j = i + 1
            while j < len(rest) and rest[j] in ("a", "au", "le", "la", "l", "the"):
                j += 1
            moment, end = when.read_moment(rest, j, now, tz, bare=True)
            if moment is not None:
                _leftover("EXTEND", rest[:i] + rest[end:], STEP_WORDS)
                return {"turn": turn, "until": when.moment_at(moment, now, tz, hour)}
    duration, start, end = _find_duration(rest)
    if duration is None:
        raise _error("EXTEND", "il manque une durée ou une date", "a duration or a date is missing")
    _leftover("EXTEND", rest[:start] + rest[end:], STEP_WORDS)
    return {"turn": turn, "by": duration}


def _find_duration(rest: list[str]) -> tuple[Any, int, int]:
    for i in range(len(rest)):
        duration, end = when.read_duration(rest, i)
        if duration is not None:
            return duration, i, end
    return None, 0, 0


def _pause(rest: list[str], text: str, _line: str, now: datetime, tz: ZoneInfo, _players: list[str],
           _hour: time) -> dict[str, Any]:
    head, sep, reason = text.partition(":")
    span, left = when.parse_span(head if sep else text, now, tz)
    _leftover("PAUSE", left, {"pause", "partie", "en", "mets", "met", "mettre", "suspendre", "nouvel", "ordre"})
    return {"start": span.start if span else None, "end": span.end if span else None, "reason": reason.strip()}


def _resume(rest: list[str], _text: str, _line: str, now: datetime, tz: ZoneInfo, _players: list[str],
            _hour: time) -> dict[str, Any]:
    words = [w for w in rest if w not in FILLER and w not in ("pause", "jeu", "play", "maintenant", "now")]
    if not words:
        return {"at": None}
    moment, end = when.read_moment(rest, 0, now, tz, bare=True)
    if moment is None:
        _leftover("RESUME", rest, {"pause", "jeu", "play", "maintenant", "now"})
        return {"at": None}
    _leftover("RESUME", rest[end:])
    return {"at": when.moment_at(moment, now, tz, time(0, 0))}


def _missing(rest: list[str], *_: Any) -> dict[str, Any]:
    return {}


def _resend(rest: list[str], _text: str, _line: str, _now: datetime, _tz: ZoneInfo, players: list[str],
            _hour: time) -> dict[str, Any]:
    turn, rest = _step(rest)
    if turn is None:
        numbers = [i for i, t in enumerate(rest) if t.isdigit()]
        if numbers:
            turn, rest = when.read_number(rest[numbers[0]]), rest[:numbers[0]] + rest[numbers[0] + 1:]
    names = _names_in(rest, players)
    forum = any(w in FORUM_WORDS for w in rest) and not any(w.startswith(("resultat", "prive", "result", "private"))
                                                           for w in rest)
    subject: str | None = None
    to: str | None = None  # None: the MJ
    to_them = False
    used: set[int] = set()
    for first, after, name in names:
        before = rest[first - 1] if first > 0 else ""
        if before in TO_WORDS:
            to = name
        elif subject is None:
            subject = name
        elif to is None:
            to = name
        used |= set(range(first, after)) | ({first - 1} if before in TO_WORDS | OF_WORDS else set())
    for i, t in enumerate(rest):
        if t in TO_WORDS and i + 1 < len(rest) and rest[i + 1] in ME_WORDS:
            used |= {i, i + 1}
        elif t in TO_WORDS and i + 1 < len(rest) and rest[i + 1] in THEM_WORDS | {"la", "le"}:
            to_them = True
            used |= {i, i + 1, i + 2}
    if not forum and subject is None:
        if to is not None:
            subject = to  # « renvoie à Arya ses résultats »
        else:
            raise _error("RESEND", "de quel joueur ? (ou « le compte rendu » pour celui du forum)",
                         "whose results? (or 'the forum post')")
    if to_them:
        to = subject
    _leftover("RESEND", [w for i, w in enumerate(rest) if i not in used],
              FORUM_WORDS | ME_WORDS | THEM_WORDS | TO_WORDS | OF_WORDS | {"ses", "son", "sa", "leur", "resultats",
              "resultat", "results", "result", "prives", "prive", "private", "courriel", "mail", "message", "lettre",
              "his", "her", "their", "its", "encore", "nouveau", "mon", "ma", "mes", "my", "moi", "seul", "demarrage",
              "depart", "debut"})
    return {"turn": turn, "forum": forum, "player": None if forum and to != subject else subject, "to": to}


def _correct(_rest: list[str], _text: str, line: str, _now: datetime, _tz: ZoneInfo, players: list[str],
             _hour: time) -> dict[str, Any]:
    head, sep, order = line.partition(":")
    if not sep or not order.strip():
        raise _error("CORRECT", "l'ordre corrigé vient après deux-points", "the corrected order comes after a colon")
    head_words = when.tokens(head)
    found = kind_of(head_words)
    turn, words = _step(head_words[found[1] if found else 0:])
    name, words = _one_name("CORRECT", words, players)
    _leftover("CORRECT", words, {"pour", "for", "de", "d"})
    return {"turn": turn, "player": name, "order": order.strip()}


def _rerun(rest: list[str], *_: Any) -> dict[str, Any]:
    turn, rest = _step(rest)
    publish = any(w in PUBLISH_WORDS for w in rest)
    _leftover("RERUN", rest, PUBLISH_WORDS | {"avec", "with", "un", "et"})
    return {"turn": turn, "publish": publish}


def _remove(rest: list[str], _text: str, _line: str, _now: datetime, _tz: ZoneInfo, players: list[str],
            _hour: time) -> dict[str, Any]:
    name, rest = _one_name("REMOVE", rest, players)
    at_end = any(w in END_WORDS for w in rest)
    _, rest = _step(rest)
    _leftover("REMOVE", rest, END_WORDS | NOW_WORDS | STEP_WORDS | {"partie", "jeu", "at", "game", "ce", "cette"})
    return {"player": name, "at_end": at_end}


def _replace(rest: list[str], text: str, line: str, _now: datetime, _tz: ZoneInfo, players: list[str],
             _hour: time) -> dict[str, Any]:
    address = ADDRESS.search(line)
    if address is None:
        raise _error("REPLACE", "il manque l'adresse du nouveau joueur", "the newcomer's address is missing")
    split = re.split(r"\s(?:par|with|by)\s", text, maxsplit=1, flags=re.IGNORECASE)
    if len(split) != 2:
        raise _error("REPLACE", "« par » sépare le joueur remplacé du nouveau venu", "'with' comes between the two")
    seat, _ = _one_name("REPLACE", when.tokens(split[0]), players)
    after = split[1]
    newcomer = after[:after.find(address.group(0))] if address.group(0) in after else ""
    newcomer = newcomer.strip(" ,;:\"'«»\u00a0")
    tail = when.tokens(after[after.find(address.group(0)) + len(address.group(0)):]) if address.group(0) in after else []
    turn, tail = _step(tail)
    _leftover("REPLACE", tail, {"partir", "from", "des", "starting", "at", "a", "du", "de", "le"})
    return {"player": seat, "name": newcomer, "address": address.group(1).lower(), "from_turn": turn}


def _approve(rest: list[str], *_: Any) -> dict[str, Any]:
    turn, rest = _step(rest)
    _leftover("APPROVE", rest, {"resultats", "resultat", "results", "les", "avec", "with", "chronique", "chronicle"})
    return {"turn": turn}


def _chronicle(_rest: list[str], _text: str, line: str, *_: Any) -> dict[str, Any]:
    """The text after the word (and its colon) is the chronicle's first line, kept as written."""
    return {"text": re.sub(r"^\s*\S+\s*:?\s*", "", line, count=1)}


def _preview(rest: list[str], *_: Any) -> dict[str, Any]:
    _leftover("PREVIEW", rest, {"tour", "etape", "turn", "step", "manche", "du", "de", "l"})
    return {}


def _help(rest: list[str], *_: Any) -> dict[str, Any]:
    return {}


def _absence(rest: list[str], text: str, _line: str, now: datetime, tz: ZoneInfo, players: list[str],
             _hour: time) -> dict[str, Any]:
    name, left = _one_name("ABSENCE", rest, players)
    if any(w in CANCEL_WORDS for w in left):
        return {"player": name, "cancel": True}
    name_words = set(when.tokens(name))
    span, words = when.parse_span(" ".join(w for w in left), now, tz)
    if span is None or span.end is None:
        raise _error("ABSENCE", "il manque la date de retour", "the date of return is missing")
    _leftover("ABSENCE", [w for w in words if w not in name_words])
    return {"player": name, "cancel": False, "start": span.start, "end": span.end}


_READERS: dict[str, Any] = {
    "EXTEND": _extend, "PAUSE": _pause, "RESUME": _resume, "MISSING": _missing, "RESEND": _resend,
    "CORRECT": _correct, "RERUN": _rerun, "REMOVE": _remove, "REPLACE": _replace, "APPROVE": _approve,
    "CHRONICLE": _chronicle, "PREVIEW": _preview, "HELP": _help, "ABSENCE": _absence,
}
