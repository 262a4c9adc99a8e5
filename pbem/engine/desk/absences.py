"""Players' absences (njudge's SET ABSENCE): « ABSENCE du 8 au 16 février », and what the game does about them.

Per game (``absence`` in the config), during an absence either the player's defaults apply
silently (``defaults``: no reminder, not awaited for an early resolution, no « we did not get
your orders »), or the deadline waits for them (``wait``): a step whose deadline falls while an
awaited player is away without orders moves to their return, by ``absence_wait`` at most in all
for that step (the other players are told the new deadline).  The MJ sees absences in the digest
and in QUI MANQUE.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from pbem.clock import iso, parse_iso
from pbem.core import MJ
from pbem.engine import when
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import pauses
from pbem.engine.phrases import say
from pbem.engine.table import Context, EngineError
from pbem.mail import prose
from pbem.outbox import Letter
from pbem.store import AbsenceRow, GameRow

CANCEL = {"annuler", "annule", "annulee", "fin", "retour", "cancel", "back", "none", "aucune", "rien", "stop"}


def away(ctx: Context, game_id: str, when_: datetime) -> dict[str, AbsenceRow]:
    """The players away at an instant, with their absence."""
    return {a.player: a for a in ctx.store.absences(game_id, at=iso(when_))}


def declare(ctx: Context, game_id: str, player: str, start: datetime | None, end: datetime, now: datetime,
            by: str) -> AbsenceRow:
    """Record an absence (its start: now if not given, or already past)."""
    begin = max(start or now, now)
    if end <= begin:
        raise EngineError("the absence must end after it begins", fr="l'absence doit finir après avoir commencé")
    if end - begin > timedelta(days=92):
        raise EngineError("an absence lasts three months at most: ask the MJ for longer",
                          fr="une absence dure trois mois au plus : au-delà, voyez le MJ")
    with ctx.store.atomic():
        absence_id = ctx.store.add_absence(game_id, player, iso(begin), iso(end), iso(now), by)
        ctx.store.log(game_id, iso(now), by, "absence", {"player": player, "start": iso(begin), "end": iso(end)})
    return next(a for a in ctx.store.absences(game_id, player=player) if a.id == absence_id)


def cancel(ctx: Context, game_id: str, player: str, now: datetime, by: str) -> int:
    """Call off a player's absences not over yet; how many."""
    with ctx.store.atomic():
        n = ctx.store.cancel_absences(game_id, player, iso(now), iso(now))
        if n:
            ctx.store.log(game_id, iso(now), by, "absence cancelled", {"player": player})
    return n


def command(ctx: Context, game_id: str, actor: str, rest: str, line: str, result: MailResult, now: datetime) -> bool:
    """A player's ABSENCE line: ``ABSENCE du 8 au 16 février``, ``ABSENCE 3 jours``, ``ABSENCE ANNULER``.

    False when the line is prose that merely begins with the word (« Absence de nouvelles de Fitz, je
    m'inquiète… »): no dates in it, a sentence's words, the word not typed in capitals; the caller
    reads it otherwise.
    """
    r = ctx.renderer(game_id)
    lang = ctx.settings(game_id).language
    words = when.tokens(rest)
    if words and set(words) <= CANCEL | {"mon", "ma", "mes", "l", "la", "my", "absence", "je", "suis", "i", "am"}:
        if actor == MJ:
            result.verdicts.append(LineVerdict(line, False, say(r, "absence_mj")))
            return True
        n = cancel(ctx, game_id, actor, now, actor)
        result.verdicts.append(LineVerdict(line, bool(n), say(r, "absence_cancelled" if n else "no_absence")))
        return True
    try:
        span, left = when.parse_span(rest, now, ctx.config.timezone)
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
        a = declare(ctx, game_id, actor, span.start, span.end, now, actor)
    except EngineError as e:
        result.verdicts.append(LineVerdict(line, False, e.text(lang)))
        return True
    result.verdicts.append(LineVerdict(line, True, say(
        r, "absence_recorded", period=when.period_text(parse_iso(a.starts_at), parse_iso(a.ends_at),
                                                       ctx.config.timezone, lang),
        policy=ctx.settings(game_id).absence, wait=when.duration_text(ctx.settings(game_id).absence_wait, lang))))
    return True


def _prose(line: str) -> bool:
    """A sentence that begins with « Absence » (not typed in capitals, as orders are): no command."""
    head = line.split()[0] if line.split() else ""
    return not head.isupper() and prose.looks_like_sentence(line)


def silent(ctx: Context, game_id: str, g: GameRow) -> set[str]:
    """With ``absence = "defaults"``: the players away at the deadline, whose defaults apply silently."""
    if ctx.settings(game_id).absence != "defaults" or g.deadline is None:
        return set()
    return set(away(ctx, game_id, parse_iso(g.deadline)))


def excused(ctx: Context, game_id: str, closed_at: datetime) -> set[str]:
    """The players away (a declared absence) when a step closed, whatever the policy: if their defaults
    applied, they apply silently (no « we did not get your orders ») and count no missed step (NMR).

    With ``absence = "wait"`` the deadline waited for their return, so a player back by then and still
    silent is not excused; one still away when the wait ran out (``absence_wait``) is.
    """
    return set(away(ctx, game_id, closed_at))


def hold(ctx: Context, g: GameRow, now: datetime) -> datetime | None:
    """With ``absence = "wait"``: at the deadline, an awaited player away without orders holds it back.

    The deadline moves to the latest return among them, never more than ``absence_wait`` past the
    deadline the step had before the first hold; everyone is told.  Returns the new deadline, or None.
    """
    s = ctx.settings(g.id)
    if s.absence != "wait" or g.deadline is None or g.phase != "running":
        return None
    state = ctx.state_cached(g)
    awaited = ctx.required_cached(g.id, state) - ctx.store.ordered_players(g.id, g.turn)
    gone = {p: a for p, a in away(ctx, g.id, now).items() if p in awaited}
    if not gone:
        return None
    first = _first_deadline(ctx, g)
    limit = first + s.absence_wait.delta
    target = min(max(parse_iso(a.ends_at) for a in gone.values()), limit)
    if target <= parse_iso(g.deadline) or target <= now:
        return None
    with ctx.store.atomic():
        ctx.store.log(g.id, iso(now), "pbem", "absence hold", {"turn": g.turn, "from": iso(first), "to": iso(target),
                                                               "players": sorted(gone)})
        g2 = pauses.save_deadline(ctx, g, target, now)
        _tell(ctx, g2, parse_iso(g.deadline), target, sorted(gone), now)
    return target


def _first_deadline(ctx: Context, g: GameRow) -> datetime:
    for entry in ctx.store.journal(g.id):
        if entry["action"] == "absence hold":
            detail = json.loads(entry["detail"])
            if detail.get("turn") == g.turn:
                return parse_iso(detail["from"])
    assert g.deadline is not None
    return parse_iso(g.deadline)


def _tell(ctx: Context, g: GameRow, old: datetime, new: datetime, gone: list[str], now: datetime) -> None:
    r = ctx.renderer(g.id)
    letters = []
    for p in ctx.store.players(g.id):
        t = r.mail_text("deadline_changed", tag=ctx.tag(g.id), player=p.name, old=ctx.local(iso(old)),
                        new=ctx.local(iso(new)), earlier=False,
                        salutation=ctx.salutation(g.id, ctx.state_cached(g), p.name))
        # where who is asked can betray a role (prompts_public = False), the players do not learn who is waited for
        reason = say(r, "absence_hold", players=gone if ctx.prompts_public(g.id) else [])
        letters.append(Letter(f"absence-{g.turn}-{iso(new)}-{p.name}", g.id, g.turn, "notice", p.address, t.subject,
                              f"{t.body.rstrip()}\n{reason}\n"))
    ctx.outgoing.queue(letters, now)


def during(ctx: Context, game_id: str, start: datetime, end: datetime) -> list[dict[str, Any]]:
    """The absences that overlap a period (for the digest and QUI MANQUE), with their dates said."""
    lang = ctx.settings(game_id).language
    return [{"player": a.player, "period": when.period_text(parse_iso(a.starts_at), parse_iso(a.ends_at),
                                                            ctx.config.timezone, lang)}
            for a in ctx.store.absences(game_id, after=iso(start)) if parse_iso(a.starts_at) < end]
