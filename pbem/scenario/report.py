"""What a played case prints: the rendered events with their audiences, the orders, the dice, each check."""

from __future__ import annotations

import json
from collections.abc import Iterator

from pbem import serial
from pbem.core import Event, Msg
from pbem.dice import Roll
from pbem.render import Renderer, dice_label
from pbem.scenario.case import Case
from pbem.scenario.expect import and_list, audience_text
from pbem.scenario.play import CaseResult, OrderLine, Phase

OK_MARK, FAIL_MARK = "✓", "✗"


def _t(lang: str, fr: str, en: str) -> str:
    return en if lang == "en" else fr


def _colon(lang: str) -> str:
    return ":" if lang == "en" else " :"


def _event_lines(renderer: Renderer, event: Event, lang: str) -> list[str]:
    try:
        text = renderer.event_text(event)
    except Exception as e:  # a template that breaks on these data: say so, keep the report going
        text = _t(lang, f"({event.kind} : rendu impossible, {type(e).__name__}: {e})",
                  f"({event.kind}: cannot render, {type(e).__name__}: {e})")
    lines = [ln for ln in text.splitlines() if ln.strip()] or [f"({event.kind})"]
    if event.audience.kind == "mj" and lines[0].startswith("[MJ] "):  # the digest's own mark: shown once
        lines[0] = lines[0][len("[MJ] "):]
    head = f"[{audience_text(event, lang)}] "
    return [head + lines[0]] + ["    " + ln for ln in lines[1:]]


def _roll_groups(rolls: list[Roll]) -> Iterator[list[Roll]]:
    group: list[Roll] = []
    for r in rolls:
        if group and (r.purpose != group[0].purpose or r.forced != group[0].forced):
            yield group
            group = []
        group.append(r)
    if group:
        yield group


def _roll_line(game: str, group: list[Roll], lang: str) -> str:
    purpose = group[0].purpose
    label = dice_label(purpose, game, lang)
    name = f"« {purpose} »" + (f" ({label})" if label != purpose else "")
    if lang == "en":
        name = f"'{purpose}'" + (f" ({label})" if label != purpose else "")
    if len(group) == 1:
        r = group[0]
        value = f"{r.result} ({_t(lang, 'de', 'from')} {r.low} {_t(lang, 'à', 'to')} {r.high})"
    else:
        value = ", ".join(str(r.result) for r in group) + _t(lang, f" ({len(group)} tirages)", f" ({len(group)} draws)")
    forced = _t(lang, ", forcé", ", forced") if group[0].forced else ""
    return f"{name}{_colon(lang)} {value}{forced}"


def _phase_title(phase: Phase, case: Case, lang: str) -> str:
    if phase.number == 0:
        return phase.title.get(lang)
    step = case.steps[phase.number - 1]
    head = _t(lang, f"Étape {phase.number}", f"Step {phase.number}") + f"{_colon(lang)} {phase.title.get(lang)}"
    return head + (f" — {step.title}" if step.title else "")


def _order_line(line: OrderLine, lang: str) -> str:
    text = f"{line.player}{_colon(lang)} {line.line}"
    if line.status == "immediate":
        text += _t(lang, " → exécuté aussitôt", " → carried out at once")
    if line.acting is not None:
        text += _t(lang, f" (pour {line.acting})", f" (for {line.acting})")
    if line.error is not None:
        text += f" → {line.error.label.get(lang)}{_colon(lang)} {line.error.msg.get(lang)}"
    if line.note is not None:
        text += f" → OK{_colon(lang)} {line.note.get(lang)}"
    return text


def phase_lines(result: CaseResult, phase: Phase, lang: str, *, quiet: bool = False) -> list[str]:
    case = result.case
    out = [f"-- {_phase_title(phase, case, lang)}"]
    if not quiet:
        renderer = Renderer(case.game, lang)
        if phase.lines:
            out.append(_t(lang, "  Ordres :", "  Orders:"))
            out += [f"    {_order_line(ln, lang)}" for ln in phase.lines]
        if phase.defaults:
            out.append(_t(lang, "  Ordres par défaut :", "  Default orders:"))
            out += [f"    {who}{_colon(lang)} {' ; '.join(texts)}" for who, texts in phase.defaults]
        if phase.rolls:
            out.append(_t(lang, "  Dés :", "  Dice:"))
            out += [f"    {_roll_line(case.game, g, lang)}" for g in _roll_groups(phase.rolls)]
        if phase.events:
            out.append(_t(lang, "  Événements :", "  Events:"))
            for e in phase.events:
                out += [f"    {ln}" for ln in _event_lines(renderer, e, lang)]
    if phase.failure is not None:
        out.append(f"  {FAIL_MARK} {phase.failure.get(lang)}")
    shown = [c for c in phase.checks if not (quiet and c.ok)]
    if shown:
        out.append(_t(lang, "  Attendus :", "  Expected:"))
        for c in shown:
            out.append(f"    {OK_MARK if c.ok else FAIL_MARK} {c.what.get(lang)}")
            if c.detail is not None:
                out.append(f"        {c.detail.get(lang)}")
    return out


def verdict(result: CaseResult, lang: str) -> Msg:
    checks = result.checks
    failed = sum(1 for c in checks if not c.ok)
    broken = next((p for p in result.phases if p.failure is not None), None)
    n = len(checks)
    if broken is not None:
        return Msg("Résultat : ÉCHEC, le cas n'a pas pu être joué jusqu'au bout.",
                   "Result: FAILED, the case could not be played to the end.")
    if n == 0:
        return Msg("Résultat : ÉCHEC, ce cas n'attend rien (ajoutez une table [attendu]).",
                   "Result: FAILED, this case expects nothing (add an [attendu] table).")
    if failed:
        fr = f"{failed} attendu{'s' if failed > 1 else ''} sur {n} non tenu{'s' if failed > 1 else ''}"
        en = f"{failed} expectation{'s' if failed > 1 else ''} out of {n} not met"
        return Msg(f"Résultat : ÉCHEC, {fr}.", f"Result: FAILED, {en}.")
    fr = "1 attendu tenu" if n == 1 else f"les {n} attendus tenus"
    en = "1 expectation met" if n == 1 else f"all {n} expectations met"
    return Msg(f"Résultat : réussi, {fr}.", f"Result: passed, {en}.")


def passed(result: CaseResult) -> bool:
    return result.ok and bool(result.checks)


def case_lines(result: CaseResult, lang: str, *, quiet: bool = False, show_state: bool = False) -> list[str]:
    case = result.case
    title = f"{result.game_title} — {case.title}" if case.title else result.game_title
    out = [f"== {case.path}", title]
    if case.rule and not quiet:
        out.append(_t(lang, f"Règle : {case.rule}", f"Rule: {case.rule}"))
    for phase in result.phases:
        out += phase_lines(result, phase, lang, quiet=quiet)
    if show_state and result.state is not None:
        out.append(_t(lang, "-- État final", "-- Final state"))
        out += json.dumps(serial.to_data(result.state), ensure_ascii=False, indent=1, sort_keys=True).splitlines()
    out.append(verdict(result, lang).get(lang))
    return out


def summary(total: int, failed: int, malformed: int, lang: str) -> str:
    en = lang == "en"
    cases = (f"{total} case" if en else f"{total} cas") + ("s" if en and total != 1 else "")
    if not failed and not malformed:
        return (f"Summary: {cases}, all passed." if en else
                f"Bilan : {cases}, {'réussi' if total == 1 else 'tous réussis'}.")
    parts = []
    if failed:
        parts.append(f"{failed} failed" if en else f"{failed} en échec")
    if malformed:
        parts.append(f"{malformed} malformed" if en else f"{malformed} mal formé{'s' if malformed > 1 else ''}")
    return (f"Summary: {cases}, " if en else f"Bilan : {cases}, ") + and_list(parts, lang) + "."
