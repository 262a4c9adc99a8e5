"""Players' absences (njudge's SET ABSENCE): « ABSENCE du 8 au 16 février », and what the game does about them.

Per game (``absence`` in the config), during an absence either the player's defaults apply
silently (``defaults``: no reminder, not awaited for an early resolution, no « we did not get
your orders »), or the deadline waits for them (``wait``): a step whose deadline falls while an
awaited player is away without orders moves to their return, by ``absence_wait`` at most in all
for that step (the other players are told the new deadline).  The MJ sees absences in the digest
and in QUI MANQUE.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pbem.clock import iso
from pbem.core import MJ
from pbem.engine import when
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.phrases import say
from pbem.engine.steps import calendar
from pbem.engine.table import EngineError, Table
from pbem.mail import prose
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.store import AbsenceRow, GameRow

CANCEL = {"annuler", "annule", "annulee", "fin", "retour", "cancel", "back", "none", "aucune", "rien", "stop"}


def declare(table: Table, player: str, start: datetime | None, end: datetime, now: datetime,
            by: str) -> AbsenceRow:
    """Record an absence (its start: now if not given, or already past)."""
    begin = max(start or now, now)
    if end <= begin:
        raise EngineError(Msg("l'absence doit finir après avoir commencé",
                              "the absence must end after it begins"))
    if end - begin > timedelta(days=92):
        raise EngineError(Msg("une absence dure trois mois au plus : au-delà, voyez le MJ",
                              "an absence lasts three months at most: ask the MJ for longer"))
    with table.store.atomic():
        absence_id = table.store.add_absence(table.id, player, begin, end, now, by)
        table.store.log(table.id, now, by, "absence", {"player": player, "start": begin, "end": end})
    return next(a for a in table.store.absences(table.id, player=player) if a.id == absence_id)


def cancel(table: Table, player: str, now: datetime, by: str) -> int:
    """Call off a player's absences not over yet; how many."""
    with table.store.atomic():
        n = table.store.cancel_absences(table.id, player, now, now)
        if n:
            table.store.log(table.id, now, by, "absence cancelled", {"player": player})
    return n


def command(table: Table, actor: str, rest: str, line: str, result: MailResult, now: datetime) -> bool:
    """A player's ABSENCE line: ``ABSENCE du 8 au 16 février``, ``ABSENCE 3 jours``, ``ABSENCE ANNULER``.

    False when the line is prose that merely begins with the word (« Absence de nouvelles de Fitz, je
    m'inquiète… »): no dates in it, a sentence's words, the word not typed in capitals; the caller
    reads it otherwise.
    """
    r = table.renderer
    lang = table.settings.language
    words = when.tokens(rest)
    if words and set(words) <= CANCEL | {"mon", "ma", "mes", "l", "la", "my", "absence", "je", "suis", "i", "am"}:
        if actor == MJ:
            result.verdicts.append(LineVerdict(line, False, say(r, "absence_mj")))
            return True
        n = cancel(table, actor, now, actor)
        result.verdicts.append(LineVerdict(line, bool(n), say(r, "absence_cancelled" if n else "no_absence")))
        return True
    try:
        span, left = when.parse_span(rest, now, table.config.timezone)
    except when.WhenError as e:
        if _prose(line):
            return False
        result.verdicts.append(LineVerdict(line, False, f"{e.msg.get(lang)} ; {say(r, 'absence_syntax')}"))
        return True
    if span is None or span.end is None or [w for w in left if w not in when.FILLER]:
        if _prose(line):
            return False
        result.verdicts.append(LineVerdict(line, False, say(r, "absence_syntax")))
        return True
    if actor == MJ:
        result.verdicts.append(LineVerdict(line, False, say(r, "absence_mj")))
        return True
    try:
        a = declare(table, actor, span.start, span.end, now, actor)
    except EngineError as e:
        result.verdicts.append(LineVerdict(line, False, e.text(lang)))
        return True
    result.verdicts.append(LineVerdict(line, True, say(
        r, "absence_recorded", period=when.period_text(a.starts_at, a.ends_at,
                                                       table.config.timezone, lang),
        policy=table.settings.absence, wait=when.duration_text(table.settings.absence_wait, lang))))
    return True


def _prose(line: str) -> bool:
    """A sentence that begins with « Absence » (not typed in capitals, as orders are): no command."""
    head = line.split()[0] if line.split() else ""
    return not head.isupper() and prose.looks_like_sentence(line)


def hold(table: Table, g: GameRow, now: datetime) -> datetime | None:
    """With ``absence = "wait"``: at the deadline, an awaited player away without orders holds it back
    (`calendar.absence_wait` says until when); everyone is told.  Returns the new deadline, or None."""
    wait = calendar.absence_wait(table, g, now)
    if wait is None:
        return None
    first, target, gone = wait
    with table.store.atomic():
        table.store.log(g.id, now, "pbem", "absence hold", {"turn": g.turn, "from": first, "to": target,
                                                                 "players": gone})
        g2 = calendar.save_deadline(table, g, target, now)
        _tell(table, g2, g.deadline or target, target, gone, now)
    return target


def _tell(table: Table, g: GameRow, old: datetime, new: datetime, gone: list[str], now: datetime) -> None:
    # where who is asked can betray a role (prompts_public = False), the players do not learn who is waited for
    reason = say(table.renderer, "absence_hold", players=gone if table.prompts_public else [])
    state = table.state_of(g)
    letters = []
    for p in table.players_told():
        t = table.mail_to("deadline_changed", p.name, state, old=table.local(old), new=table.local(new),
                          earlier=False)
        letters.append(Letter(f"absence-{g.turn}-{iso(new)}-{p.name}", g.id, g.turn, "notice", p.address, t.subject,
                              f"{t.body.rstrip()}\n{reason}\n"))
    table.outgoing.queue(letters, now)


def during(table: Table, start: datetime, end: datetime) -> list[dict[str, Any]]:
    """The absences that overlap a period (for the digest and QUI MANQUE), with their dates said."""
    lang = table.settings.language
    return [{"player": a.player, "period": when.period_text(a.starts_at, a.ends_at,
                                                            table.config.timezone, lang)}
            for a in table.store.absences(table.id, after=start) if a.starts_at < end]
