"""Checking what a scenario file expects against what a step produced: one `Check` per expectation."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem import serial
from pbem.core import (
    MJ,
    PUBLIC,
    Event,
    Msg,
    OrderAmbiguousError,
    OrderNotAllowedError,
    OrderSyntaxError,
    Outcome,
    Prompt,
)
from pbem.dice import Forcing, Roll
from pbem.names import fold
from pbem.scenario.case import (
    ErrorExpectation,
    EventExpectation,
    Expectations,
    FactExpectation,
    NoteExpectation,
    OutcomeExpectation,
    PromptExpectation,
)
from pbem.scenario.paths import PathError, lookup, serial_show


@dataclass(frozen=True)
class Check:
    """One expectation and whether it held; ``detail`` says what was found instead."""

    ok: bool
    what: Msg
    detail: Msg | None = None


@dataclass(frozen=True)
class LineError:
    """An order line that was not accepted."""

    player: str
    line: str
    label: Msg
    msg: Msg


@dataclass
class Outcomes:
    """What one phase (the set-up or a step) produced, as the checks need it."""

    events: list[Event]
    errors: list[LineError]
    rolls: list[Roll]
    state: Any
    view: Callable[[str], Any]
    prompts: list[Prompt]
    outcome: Outcome | None
    setup_error: Msg | None = None
    forcing: Forcing | None = None
    notes: list[tuple[str, str, Msg]] = field(default_factory=list)
    """(player, line, note) for each line accepted with a note."""
    _data: Any = field(default=None, repr=False)

    def state_data(self) -> Any:
        if self._data is None:
            self._data = serial.to_data(self.state)
        return self._data


# ---------------------------------------------------------------- comparing values


def equal(found: Any, wanted: Any) -> bool:
    """Exact equality of JSON-like values (true is not 1; a tuple equals a list)."""
    if isinstance(wanted, bool) or isinstance(found, bool):
        return isinstance(found, bool) and isinstance(wanted, bool) and found == wanted
    if isinstance(wanted, Mapping):
        return isinstance(found, Mapping) and set(found) == set(wanted) and all(equal(found[k], wanted[k]) for k in wanted)
    if isinstance(wanted, (list, tuple)):
        return (isinstance(found, (list, tuple)) and len(found) == len(wanted)
                and all(equal(f, w) for f, w in zip(found, wanted, strict=True)))
    if isinstance(wanted, str) or isinstance(found, str):
        return isinstance(found, str) and isinstance(wanted, str) and found == wanted
    return bool(found == wanted)


def within(found: Any, wanted: Any) -> bool:
    """Does ``found`` hold ``wanted``: tables may have more keys than written, lists match item by item."""
    if isinstance(wanted, Mapping):
        return isinstance(found, Mapping) and all(k in found and within(found[k], v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (isinstance(found, (list, tuple)) and len(found) == len(wanted)
                and all(within(f, w) for f, w in zip(found, wanted, strict=True)))
    return equal(found, wanted)


def glob(pattern: str) -> re.Pattern[str]:
    """``*`` stands for any text; everything else is literal."""
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")))


def and_list(items: Sequence[str], lang: str) -> str:
    """« A, B et C » / "A, B and C"."""
    word = " and " if lang == "en" else " et "
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + word + items[-1]


def of(name: str) -> str:
    """« de Bob », « d'Arya » (elision before a vowel or a mute h)."""
    first = fold(name)[:1]
    return f"d'{name}" if first and first in "aeiouyh" else f"de {name}"


def both(make: Callable[[str], str]) -> Msg:
    return Msg(make("fr"), make("en"))


def audience_text(event: Event, lang: str) -> str:
    if event.audience.kind == "public":
        return "public"
    if event.audience.kind == "mj":
        return "MJ"
    return ("to " if lang == "en" else "à ") + and_list(list(event.audience.players), lang)


# ---------------------------------------------------------------- events


def _event_matches(e: Event, x: EventExpectation) -> bool:
    if x.kind is not None and e.kind != x.kind:
        return False
    if isinstance(x.audience, str) and e.audience.kind != x.audience:
        return False
    if isinstance(x.audience, tuple) and (e.audience.kind != "players" or set(e.audience.players) != set(x.audience)):
        return False
    if x.to and (e.audience.kind != "players" or any(p not in e.audience.players for p in x.to)):
        return False
    if any(e.audience.includes(p) for p in x.not_to):
        return False
    data = serial.to_data(dict(e.data))
    if any(k not in data for k in x.keys):
        return False
    return x.data is None or within(data, x.data)


def _event_what(x: EventExpectation, lang: str) -> str:
    en = lang == "en"
    if x.count == 0:
        head = "no event" if en else "aucun événement"
    elif x.count is not None:
        head = (f"{x.count} events" if x.count > 1 else "1 event") if en else (
            f"{x.count} événements" if x.count > 1 else "1 événement")
    else:
        head = "event" if en else "événement"
    parts = [head + (f" {x.kind}" if x.kind else "")]
    if isinstance(x.audience, str):
        parts.append(("audience " if en else "audience ") + ("MJ" if x.audience == "mj" else "public"))
    elif isinstance(x.audience, tuple):
        parts.append(("to exactly " if en else "à exactement ") + and_list(list(x.audience), lang))
    if x.to:
        parts.append(("privately to " if en else "en privé à ") + and_list(list(x.to), lang))
    if x.not_to:
        parts.append(("not readable by " if en else "illisible par ") + and_list(list(x.not_to), lang))
    if x.keys:
        parts.append(("with the key " if en else "avec la clé ") + and_list(list(x.keys), lang))
    if x.data is not None:
        parts.append(("data " if en else "données ") + serial_show(x.data))
    return ", ".join(parts)


def _event_found(events: Sequence[Event], x: EventExpectation, hits: int, lang: str) -> str:
    en = lang == "en"
    same = [e for e in events if x.kind is None or e.kind == x.kind]
    head = (f"found {hits}" if en else f"trouvé : {hits}")
    if not same:
        return head + ("; no event of this kind" if en else " ; aucun événement de ce type")
    shown = "; ".join(f"[{audience_text(e, lang)}] {e.kind} {serial_show(serial.to_data(dict(e.data)))}" for e in same[:6])
    more = f" (+{len(same) - 6})" if len(same) > 6 else ""
    return head + ("; of this kind: " if en else " ; de ce type : ") + shown + more


def check_event(out: Outcomes, x: EventExpectation) -> Check:
    hits = sum(1 for e in out.events if _event_matches(e, x))
    ok = hits >= 1 if x.count is None else hits == x.count
    what = both(lambda lang: _event_what(x, lang))
    return Check(ok, what, None if ok else both(lambda lang: _event_found(out.events, x, hits, lang)))


# ---------------------------------------------------------------- order errors


ERROR_LABELS_EN = {cls.label.fr: cls.label.en for cls in (OrderSyntaxError, OrderNotAllowedError, OrderAmbiguousError)}


def _error_matches(err: LineError, x: ErrorExpectation) -> bool:
    if err.player != x.player or (x.line is not None and err.line.strip() != x.line.strip()):
        return False
    if x.kind is not None and err.label.fr != x.kind:
        return False
    return x.message is None or fold(x.message) in fold(err.msg.fr) or fold(x.message) in fold(err.msg.en)


def check_errors(out: Outcomes, expected: Sequence[ErrorExpectation]) -> list[Check]:
    """One check per expected error, then one failed check per error nobody expected."""
    left = list(out.errors)
    checks = []
    for x in expected:
        hit = next((err for err in left if _error_matches(err, x)), None)

        def what(lang: str, x: ErrorExpectation = x) -> str:
            en = lang == "en"
            details = []
            if x.kind:
                details.append(ERROR_LABELS_EN[x.kind] if en else x.kind)
            if x.message:
                details.append(f"message containing '{x.message}'" if en else f"message contenant « {x.message} »")
            line = (f" '{x.line}'" if en else f" « {x.line} »") if x.line else ""
            extra = f" ({', '.join(details)})" if details else ""
            return (f"refusal expected: {x.player}{line}{extra}" if en
                    else f"refus attendu : {x.player}{line}{extra}")

        if hit is not None:
            left.remove(hit)
            checks.append(Check(True, both(what)))
            continue
        mine = [err for err in out.errors if err.player == x.player]

        def found(lang: str, mine: list[LineError] = mine) -> str:
            if not mine:
                return "no line of this player was refused" if lang == "en" else "aucune ligne de ce joueur n'a été refusée"
            return "; ".join(f"{e.line} → {e.label.get(lang)} : {e.msg.get(lang)}" for e in mine)

        checks.append(Check(False, both(what), both(found)))
    for err in left:
        refused = Msg(f"ligne refusée sans que ce soit attendu : {err.player} « {err.line} »",
                      f"line refused unexpectedly: {err.player} '{err.line}'")
        checks.append(Check(False, refused, Msg(f"{err.label.fr} : {err.msg.fr}", f"{err.label.en}: {err.msg.en}")))
    return checks


def check_note(out: Outcomes, x: NoteExpectation) -> Check:
    """The line was accepted, and its ack says (at least) this after « OK »."""
    def matches(player: str, line: str, note: Msg) -> bool:
        return player == x.player and (x.line is None or line.strip() == x.line.strip()) and (
            x.message is None or fold(x.message) in fold(note.fr) or fold(x.message) in fold(note.en))

    shown = f" « {x.line} »" if x.line else ""
    shown_en = f" '{x.line}'" if x.line else ""
    said = f" : « {x.message} »" if x.message else ""
    said_en = f": '{x.message}'" if x.message else ""
    what = Msg(f"ligne acceptée avec une remarque : {x.player}{shown}{said}",
               f"line accepted with a note: {x.player}{shown_en}{said_en}")
    if any(matches(*n) for n in out.notes):
        return Check(True, what)
    mine = [n for n in out.notes if n[0] == x.player]
    return Check(False, what, Msg("; ".join(f"{ln} → OK : {n.fr}" for _, ln, n in mine) or "aucune remarque",
                                  "; ".join(f"{ln} → OK: {n.en}" for _, ln, n in mine) or "no note"))


# ---------------------------------------------------------------- facts about the state and views


_TEST_WORDS = {
    "egal": ("=", "="), "contient": ("contient", "contains"), "ne_contient_pas": ("ne contient pas", "does not contain"),
    "longueur": ("a pour longueur", "has length"),
}


def _holds(found: Any, test: str, value: Any) -> bool:
    if test == "egal":
        return equal(found, value)
    if test == "longueur":
        return isinstance(found, (list, tuple, Mapping, str)) and len(found) == value
    if isinstance(found, str) and isinstance(value, str):
        has = value in found
    elif isinstance(found, (list, tuple)):
        has = any(within(item, value) for item in found)
    elif isinstance(found, Mapping):
        has = (isinstance(value, Mapping) and within(found, value)) or (isinstance(value, str) and value in found)
    else:
        has = False
    return has if test == "contient" else not has


def check_fact(out: Outcomes, x: FactExpectation) -> Check:
    path = x.path if isinstance(x.path, str) else ".".join(x.path)

    def what(lang: str) -> str:
        en = lang == "en"
        if x.viewer is None:
            where = "state" if en else "état"
        elif x.viewer == MJ:
            where = "MJ's view" if en else "vue du MJ"
        elif x.viewer == PUBLIC:
            where = "public view" if en else "vue publique"
        else:
            where = f"{x.viewer}'s view" if en else f"vue {of(x.viewer)}"
        if x.test == "absent":
            word = ("absent" if x.value else "present") if en else ("absent" if x.value else "présent")
            return f"{where}: {path} {word}" if en else f"{where} : {path} {word}"
        word = _TEST_WORDS[x.test][1 if en else 0]
        return (f"{where}: {path} {word} {serial_show(x.value)}" if en
                else f"{where} : {path} {word} {serial_show(x.value)}")

    try:
        data = out.state_data() if x.viewer is None else serial.to_data(out.view(x.viewer))
        found = lookup(data, x.path)
    except PathError as e:
        if x.test == "absent":
            ok = bool(x.value)
            return Check(ok, both(what), None if ok else Msg(e.msg.fr, e.msg.en))
        return Check(False, both(what), Msg(f"{e.at} : {e.msg.fr}", f"{e.at}: {e.msg.en}"))
    if x.test == "absent":
        ok = not x.value
    else:
        ok = _holds(found, x.test, x.value)
    shown = serial_show(found)
    return Check(ok, both(what), None if ok else Msg(f"trouvé : {shown}", f"found {shown}"))


# ---------------------------------------------------------------- rolls, prompts, outcome, set-up


def check_rolls(out: Outcomes, pattern: str, count: int) -> Check:
    rx = glob(pattern)
    hits = [r for r in out.rolls if rx.fullmatch(r.purpose)]
    ok = len(hits) == count
    what = Msg(f"jets « {pattern} » : {count}", f"rolls '{pattern}': {count}")
    if ok:
        return Check(True, what)
    purposes = list(dict.fromkeys(r.purpose for r in out.rolls))
    shown = "; ".join(purposes[:12]) + (" …" if len(purposes) > 12 else "")
    return Check(False, what, Msg(f"trouvé : {len(hits)} ; jets de cette étape : {shown or 'aucun'}",
                                  f"found {len(hits)}; rolls of this step: {shown or 'none'}"))


def _prompt_text(p: PromptExpectation | Prompt, lang: str) -> str:
    details = [p.kind] if p.kind else []
    if (isinstance(p, Prompt) and not p.required) or (isinstance(p, PromptExpectation) and p.required is not None):
        waited = p.required if isinstance(p, PromptExpectation) else False
        details.append(("waited for" if waited else "not waited for") if lang == "en" else ("attendu" if waited else "non attendu"))
    return f"{p.player} ({', '.join(details)})" if details else p.player


def check_prompts(out: Outcomes, expected: Sequence[PromptExpectation]) -> Check:
    found = out.prompts
    ok = len(found) == len(expected) and all(
        f.player == x.player and (x.kind is None or f.kind == x.kind) and (x.required is None or f.required == x.required)
        for f, x in zip(found, expected, strict=True))

    def listed(items: Sequence[PromptExpectation | Prompt], lang: str) -> str:
        return ", ".join(_prompt_text(p, lang) for p in items) or "-"

    what = Msg(f"sollicités ensuite : {listed(expected, 'fr')}", f"prompted next: {listed(expected, 'en')}")
    return Check(ok, what, None if ok else Msg(f"trouvé : {listed(found, 'fr')}", f"found {listed(found, 'en')}"))


def check_outcome(out: Outcomes, x: OutcomeExpectation) -> Check:
    got = out.outcome
    finished = x.finished if x.finished is not None else (True if x.winners is not None or x.summary else None)
    ok = True
    if finished is not None:
        ok = (got is not None) == finished
    if ok and got is not None and x.winners is not None:
        ok = sorted(got.winners) == sorted(x.winners)
    if ok and got is not None and x.summary is not None:
        ok = fold(x.summary) in fold(got.summary.fr) or fold(x.summary) in fold(got.summary.en)

    def what(lang: str) -> str:
        en = lang == "en"
        if finished is False:
            return "the game goes on" if en else "la partie continue"
        parts = ["game over" if en else "partie finie"]
        if x.winners is not None:
            names = and_list(list(x.winners), lang) or ("nobody" if en else "personne")
            parts.append(("winners " if en else "vainqueurs ") + names)
        if x.summary:
            parts.append(f"« {x.summary} »" if not en else f"'{x.summary}'")
        return ", ".join(parts)

    def found(lang: str) -> str:
        if got is None:
            return "the game goes on" if lang == "en" else "la partie continue"
        names = and_list(list(got.winners), lang) or "-"
        return (f"over, winners {names}: {got.summary.en}" if lang == "en"
                else f"finie, vainqueurs {names} : {got.summary.fr}")

    return Check(ok, both(what), None if ok else both(found))


def check_setup_refused(out: Outcomes, expected: str) -> Check:
    got = out.setup_error
    ok = got is not None and (fold(expected) in fold(got.fr) or fold(expected) in fold(got.en))
    what = Msg(f"mise en place refusée : « {expected} »", f"set-up refused: '{expected}'")
    if ok:
        return Check(True, what)
    detail = Msg("mise en place acceptée", "set-up accepted") if got is None else Msg(
        f"refusée autrement : {got.fr}", f"refused otherwise: {got.en}")
    return Check(False, what, detail)


def check_forcing(out: Outcomes) -> list[Check]:
    """A forced purpose no roll used is an error of the case (a misspelt or outdated purpose)."""
    if out.forcing is None:
        return []
    checks = []
    purposes = list(dict.fromkeys(r.purpose for r in out.rolls))
    shown = "; ".join(purposes[:12]) + (" …" if len(purposes) > 12 else "")
    for key, left in out.forcing.unused():
        never = out.forcing.used.get(key, 0) == 0
        what = (Msg(f"dé forcé « {key} » jamais tiré", f"forced roll '{key}' never rolled") if never else
                Msg(f"dé forcé « {key} » : {left} valeur{'s' if left > 1 else ''} inutilisée{'s' if left > 1 else ''}",
                    f"forced roll '{key}': {left} value{'s' if left > 1 else ''} left unused"))
        checks.append(Check(False, what, Msg(f"jets de cette étape : {shown or 'aucun'}",
                                             f"rolls of this step: {shown or 'none'}")))
    return checks


def check_all(expect: Expectations, out: Outcomes) -> list[Check]:
    checks: list[Check] = []
    if expect.setup_refused is not None:
        checks.append(check_setup_refused(out, expect.setup_refused))
        if out.setup_error is not None:
            return checks
    checks += [check_event(out, x) for x in expect.events]
    checks += check_errors(out, expect.errors)
    checks += [check_note(out, x) for x in expect.notes]
    checks += [check_fact(out, x) for x in expect.facts]
    checks += [check_rolls(out, p, n) for p, n in expect.rolls]
    if expect.prompts is not None:
        checks.append(check_prompts(out, expect.prompts))
    if expect.outcome is not None:
        checks.append(check_outcome(out, expect.outcome))
    checks += check_forcing(out)
    return checks
