"""The MJ's commands carried out, one handler each, from what the reader understood (`pbem.engine.desk.reader`):
each does its work through the room that does it (pauses, seats, absences, approval, the step machine) and
says in the answer precisely what was done; `echo` says, before anything is done, what a command would do
(for the confirmation our answer asks for).  Also the texts the CLI shares: where the game stands (QUI
MANQUE), what a pause or an approval did, a preview, the list of commands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from pbem.clock import add_duration
from pbem.config import Duration
from pbem.core import MJ
from pbem.engine import when
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import absences, approval, mjmail, pauses, seats
from pbem.engine.desk.readings import Intent
from pbem.engine.phrases import say
from pbem.engine.steps import actions, calendar, corrections, letters, lifecycle, preview, turns
from pbem.engine.table import EngineError, Table
from pbem.mail.reading import IncomingMail
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.store import StepRecord


@dataclass
class Desk:
    """One MJ mail being read: the answer so far, and what waits for the end of the mail."""

    table: Table
    mail: IncomingMail
    key: str
    now: datetime
    received: datetime | None = None
    password: bool = False  # the mail carries the MJ password (where one is set)
    result: MailResult = field(default_factory=MailResult)
    chronicle: list[str] | None = None
    approve: tuple[Intent, str, int] | None = None  # APPROUVE: its intent, line and verdict, done at the end
    corrections: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    done: list[str] = field(default_factory=list)  # the destructive commands done: every MJ is told of each

    @property
    def lang(self) -> str:
        return self.table.settings.language

    def say(self, key: str, **params: Any) -> str:
        return say(self.table.renderer, key, **params)

    def ok(self, line: str, note: str, *, player: str = "") -> None:
        self.result.verdicts.append(LineVerdict(line, True, note, player=player))

    def fail(self, line: str, note: str) -> None:
        self.result.verdicts.append(LineVerdict(line, False, note, self.say("refused_label")))

    def when(self, dt: datetime | None) -> str:
        return when.moment_text(dt, self.table.config.timezone, self.lang) if dt else ""


# --- slots as the engine takes them ---


def instant(table: Table, value: date | datetime | None, *, day_end: bool = False) -> datetime | None:
    """A day (its start, or with ``day_end`` its end: « jusqu'au 20 » runs to the end of the 20th) or an instant."""
    if value is None or isinstance(value, datetime):
        return value
    tz = table.config.timezone
    return when.local_instant(value + timedelta(days=1) if day_end else value, time(0, 0), tz)


def duration(hours: float) -> Duration:
    """A number of hours as a step length (whole days kept as days: « 2 jours » keeps the wall-clock hour)."""
    seconds = round(float(hours) * 3600)
    days, rest = divmod(seconds, 86400)
    return Duration(days=days, seconds=rest)


def _later(table: Table, start: datetime, hours: float) -> datetime:
    tz = table.config.timezone
    local = start.astimezone(tz).replace(tzinfo=None) + timedelta(hours=float(hours))
    return when.local_instant(local.date(), local.time(), tz)


def _target(table: Table, intent: Intent) -> datetime:
    """The deadline an EXTEND or EARLIER asks for."""
    g = table.row
    if g.deadline is None:
        raise EngineError(Msg("aucune date limite en cours", f"game {table.id} has no open deadline"))
    if "until" in intent.slots:
        until = intent.slots["until"]
        assert isinstance(until, datetime)
        return until
    by = duration(intent.slots["by_hours"])
    if intent.command == "EARLIER":
        return g.deadline - by.delta
    return add_duration(g.deadline, by, table.config.timezone)


def pause_span(table: Table, slots: dict[str, Any], now: datetime) -> tuple[datetime | None, datetime | None]:
    """A PAUSE's start (None: now) and end (None: until resumed)."""
    start = instant(table, slots.get("start"))
    end = instant(table, slots.get("end"), day_end=True)
    if end is None and slots.get("for_hours"):
        end = _later(table, start or now, slots["for_hours"])
    return start, end


# --- the commands ---


def _open_turn(desk: Desk, turn: int | None) -> None:
    g = desk.table.row
    st = desk.table.step_noun()
    if turn is not None and turn != g.turn:
        raise EngineError(Msg(f"{st.the} {turn} n'est pas {st.the} en cours (c'est {st.the} {g.turn})",
                              f"step {turn} is not the open step ({g.turn})"))


def _extend(desk: Desk, i: Intent, line: str) -> None:
    table = desk.table
    old = table.row.deadline
    target = _target(table, i)
    done = calendar.extend(table, target, desk.now, allow_earlier=i.command == "EARLIER")
    desk.ok(line, desk.say("extended", earlier=old is not None and done < old, old=desk.when(old), new=desk.when(done),
                           title=title(table), players=len(table.players_told())))


def _pause(desk: Desk, i: Intent, line: str) -> None:
    start, end = pause_span(desk.table, dict(i.slots), desk.now)
    news = pauses.schedule(desk.table, start, end, str(i.slots.get("reason", "")), desk.now)
    desk.ok(line, pause_text(desk.table, news))


def _resume(desk: Desk, i: Intent, line: str) -> None:
    desk.ok(line, pause_text(desk.table, pauses.resume(desk.table, desk.now, instant(desk.table, i.slots.get("at")))))


def pause_text(table: Table, news: pauses.PauseNews) -> str:
    """What a pause command did, said precisely (for the MJ's answer and the CLI)."""
    tz = table.config.timezone
    lang = table.settings.language
    end = news.pause.ends_at

    def at(dt: datetime | None) -> str:
        return when.moment_text(dt, tz, lang) if dt else ""
    return say(table.renderer, "paused", what=news.what,
               period=when.period_text(news.pause.starts_at, end, tz, lang), old=at(news.old_deadline),
               new=at(news.new_deadline), moved=news.old_deadline != news.new_deadline, open_end=end is None,
               players=len(table.players_told()))


def _missing(desk: Desk, i: Intent, line: str) -> None:
    desk.ok(line, desk.say("listed"))
    desk.result.extra.append(missing_text(desk.table, desk.now))


def missing_text(table: Table, now: datetime) -> str:
    """Who still has to order for the open step, who is away, what holds the game."""
    g = table.row
    count = turns.order_count(table)  # (the count `pbem game status` gives)
    asked, ordered, awaited = count.asked, count.ordered, count.awaited
    away = absences.during(table, now, g.deadline if g.deadline else now)
    held = calendar.held(table)
    pause = calendar.upcoming_pause(table, now)
    tz = table.config.timezone
    return say(table.renderer, "missing", phase=g.phase, title=title(table), deadline=table.local(g.deadline),
               awaited=awaited, ordered=ordered, asked=asked, away=away, held=held.turn if held else None,
               pause=when.period_text(pause.starts_at, pause.ends_at, tz, table.settings.language) if pause else None,
               changes=seats.pending_text(table))


def _resend(desk: Desk, i: Intent, line: str) -> None:
    table = desk.table
    g = table.row
    s = i.slots
    forum = s.get("what") == "forum"
    player = None if forum else s.get("whose")
    to = None if s.get("to", "mj") == "mj" else s.get("to")
    if actions.plays_by_actions(table) and not forum:
        body = actions.history_text(table, str(player))
        heading = desk.say("tests_of", player=player)
    else:
        turn = 0 if s.get("what") == "start" else int(s.get("step", g.turn - 1))
        rec = _record(table, turn)
        if to is not None and not rec.published:
            raise EngineError(Msg(f"les résultats de « {rec.title} » attendent votre approbation : ils ne peuvent "
                                  "pas encore partir vers un joueur", "these results wait for your approval"))
        heading = rec.title
        if forum:
            body = _forum_of(table, rec)
        else:
            text = letters.report_text(table, str(player), turn, published_only=False)  # (held: checked above)
            body = text.split("\n\n", 1)[1] if text and "\n\n" in text else desk.say("nothing_for", player=player)
    if to is None:
        desk.ok(line, desk.say("resent_here"))
        desk.result.extra.append(f"=== {heading} ===\n\n{body}")
        return
    if not forum:  # a player's private results: to that player (or to the MJ, above), never to another
        letters.check_recipient(table, str(player), str(to))
    p = table.player_named(str(to))
    t = table.mail_to("resent", p.name, table.state, title=heading, body=body, forum=forum)
    table.outgoing.queue([Letter(f"resend-{desk.mail.message_id}-{p.name}-{heading}", table.id, g.turn, "notice",
                                 p.address, t.subject, t.body)], desk.now)
    desk.ok(line, desk.say("resent_to", player=p.name, address=p.address, title=heading))


def precheck(table: Table, intent: Intent) -> None:
    """What can be refused before a command is asked (raises): a command the MJ's OUI could never carry out is
    refused at once, not echoed for a confirmation: a player's private results to another player (`_resend`), a
    seat that cannot be removed, or given to that address (`seats`)."""
    s = intent.slots
    if intent.command == "RESEND" and s.get("what") != "forum" and s.get("whose") and s.get("to", "mj") != "mj":
        letters.check_recipient(table, str(s["whose"]), str(s["to"]))
    elif intent.command == "REMOVE" and s.get("player"):
        seats.check_remove(table, str(s["player"]))
    elif intent.command == "REPLACE" and s.get("player") and s.get("new_address"):
        step = s.get("from_step")
        seats.check_replace(table, str(s["player"]), str(s["new_address"]),
                            None if step in (None, table.row.turn) else int(step))


def _record(table: Table, turn: int) -> StepRecord:
    setup = table.store.records(table.id, "setup")
    rec = setup[0] if turn == 0 and setup else table.store.record_for_turn(table.id, turn)
    if rec is None:
        st = table.step_noun()
        raise EngineError(Msg(f"pas {st.of_bare} {turn} résolu{st.e} dans {table.id}", f"no step {turn} in {table.id}"))
    return rec


def _forum_of(table: Table, rec: StepRecord) -> str:
    state = table.decode_json(rec.state_after)
    return letters.forum_text(table, state, rec.events, rec.title, table.ruleset.outcome(state),
                              table.store.chronicle(table.id, rec.seq))


def _correct(desk: Desk, i: Intent, line: str) -> None:
    table = desk.table
    g = table.row
    turn = int(i.slots.get("step", g.turn - 1))
    name = table.player_named(str(i.slots["player"])).name
    order = str(i.slots["order"])
    lines = desk.corrections.setdefault((name, turn), [])
    verdicts = corrections.set_orders_mj(table, name, [*lines, order], desk.now, turn)
    bad = [v for v in verdicts if not v.ok]
    if bad:
        desk.fail(line, bad[-1].note)
        return
    lines.append(order)
    held = calendar.held(table)
    desk.ok(line, desk.say("corrected", player=name, turn=turn, open=turn == g.turn,
                           held=held is not None and held.turn == turn, lines=len(lines)), player=name)


def _rerun(desk: Desk, i: Intent, line: str) -> None:
    table = desk.table
    turn = int(i.slots.get("step", table.row.turn - 1))
    publish = bool(i.slots.get("publish"))
    held = calendar.held(table)
    if held is not None and held.turn == turn and publish:
        raise EngineError(Msg(f"{table.step_noun().the} {turn} attend votre approbation : APPROUVE recalcule ses "
                              "résultats avec vos corrections et les envoie (pas de RECTIFICATIF pour des résultats "
                              "jamais partis)", "these results wait for approval: APPROVE re-runs and sends them"))
    res = corrections.rerun(table, turn, desk.now, publish=publish)
    privates = len(table.store.players(table.id)) if res.published else 0
    desk.ok(line, desk.say("rerun", turn=turn, same=not res.diff and not res.state_changed,
                           changes=sum(1 for d in res.diff if d[:1] in "+-" and d[:3] not in ("+++", "---")),
                           published=res.published, asked=publish, privates=privates))
    if res.diff:
        desk.result.extra.append("\n".join(res.diff))


def _remove(desk: Desk, i: Intent, line: str) -> None:
    news = seats.remove(desk.table, str(i.slots["player"]), desk.now, at_end=i.slots.get("when") == "end_of_step")
    desk.ok(line, desk.say("removed", now=news.now, player=news.player, address=news.old_address,
                           turn=news.after_turn, dropped=news.orders_dropped))


def _replace(desk: Desk, i: Intent, line: str) -> None:
    s = i.slots
    g = desk.table.row
    step = s.get("from_step")
    news = seats.replace(desk.table, str(s["player"]), str(s["new_name"]), str(s["new_address"]), desk.now,
                         from_turn=None if step in (None, g.turn) else int(step))
    desk.ok(line, desk.say("replaced", now=news.now, player=news.player, name=news.new_name, address=news.new_address,
                           old=news.old_address, turn=(news.after_turn + 1) if news.after_turn is not None else None))


def approve(desk: Desk, i: Intent) -> str:
    """APPROUVE, with the chronicle of the same mail (or the one saved for the held step)."""
    text = "\n".join(trimmed(desk.chronicle)) if desk.chronicle else None
    done = approval.publish(desk.table, desk.now, turn=i.slots.get("step"), chronicle=text)
    return published_text(desk.table, done)


def published_text(table: Table, done: approval.Published) -> str:
    """What an approval sent, said precisely (for the MJ's answer and the CLI)."""
    lang = table.settings.language
    return say(table.renderer, "approved", title=done.title, privates=done.privates, forum=done.forum,
               chronicle=done.chronicle_lines, rerun=done.rerun, changed=done.changed,
               deadline=when.moment_text(done.deadline, table.config.timezone, lang) if done.deadline else "")


def trimmed(lines: list[str] | None) -> list[str]:
    out = list(lines or [])
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def _preview(desk: Desk, i: Intent, line: str) -> None:
    p = preview.preview_step(desk.table, desk.now)
    desk.ok(line, desk.say("previewed", title=p.title, defaults=p.defaults, privates=len(p.privates)))
    desk.result.extra.append(preview_text(desk.table, p))


def preview_text(table: Table, p: preview.Preview) -> str:
    """A preview as the MJ reads it: the digest, the forum post, every private letter."""
    return say(table.renderer, "preview", title=p.title, digest=p.digest, forum=p.forum, privates=p.privates)


def _help(desk: Desk, i: Intent, line: str) -> None:
    desk.ok(line, desk.say("listed"))
    desk.result.extra.append(help_text(desk.table))


def help_text(table: Table) -> str:
    """The MJ's commands with one example each, then the game's own orders for the MJ."""
    state = table.state
    helps = table.ruleset.help(state, MJ) if state is not None else []
    return table.renderer.mail_text("help_mj", tag=table.tag, commands=mjmail.COMMANDS, helps=helps).body


def _absence(desk: Desk, i: Intent, line: str) -> None:
    table, s = desk.table, i.slots
    name = table.player_named(str(s["player"])).name
    if s.get("cancel"):
        n = absences.cancel(table, name, desk.now, "mj")
        desk.ok(line, desk.say("absence_cancelled_for", player=name, count=n))
        return
    end = instant(table, s.get("end"), day_end=True)
    assert end is not None
    row = absences.declare(table, name, instant(table, s.get("start")), end, desk.now, "mj")
    desk.ok(line, desk.say("absence_for", player=name, period=when.period_text(
        row.starts_at, row.ends_at, table.config.timezone, desk.lang)))


def _register(desk: Desk, i: Intent, line: str) -> None:
    p = lifecycle.add_player(desk.table, str(i.slots["name"]), str(i.slots["address"]), desk.now, by="mj")
    desk.ok(line, desk.say("registered_by_mj", name=p.name, address=p.address))


def _finish(desk: Desk, i: Intent, line: str) -> None:
    lifecycle.finish(desk.table, desk.now)
    desk.ok(line, desk.say("finished", game=desk.table.id))


HANDLERS: dict[str, Callable[[Desk, Intent, str], None]] = {
    "EXTEND": _extend, "EARLIER": _extend, "PAUSE": _pause, "RESUME": _resume, "MISSING": _missing,
    "RESEND": _resend, "CORRECT": _correct, "RERUN": _rerun, "REMOVE": _remove, "REPLACE": _replace,
    "PREVIEW": _preview, "HELP": _help, "ABSENCE": _absence, "REGISTER": _register, "FINISH": _finish,
}
"""(FOR and the answers to requests are game lines, read by `interpret`; APPROVE and CHRONICLE wait for the end
of the mail: `pbem.engine.orders.mjdesk`.)"""


def game_line(intent: Intent) -> str:
    """The line the game reads for FOR and for the answers to its requests (1626's SR, LANCER, REFUSER)."""
    s = intent.slots
    if intent.command == "FOR":
        return f"POUR {s['player']} : {s['order']}"
    if intent.command == "SR":
        return f"SR {s['value']} n° {s['test']}" + (" SECRET" if s.get("secret") else "")
    if intent.command == "ROLL":
        return f"LANCER n° {s['test']}"
    return f"REFUSER n° {s['test']}"


def title(table: Table) -> str:
    state = table.state
    return table.ruleset.step_title(state).get(table.settings.language) if state is not None else ""


# --- what a command would do, said before it is done ---


_ECHOED = ("address", "at", "cancel", "from_step", "game_line", "name", "new", "new_address", "new_name", "old", "order",
           "period", "player", "publish", "reason", "to", "what", "when", "whose")
"""The slots the echo templates read: a command without one of them (a pause without a reason) still echoes."""


def echo(table: Table, intent: Intent, now: datetime) -> str:
    """What a command would do, exactly (« RETIRE Bertrand à la fin du tour 4 : ses ordres du tour 4 comptent
    encore »), for the confirmation our answer asks for."""
    tz = table.config.timezone
    lang = table.settings.language
    g = table.row
    s = dict(intent.slots)
    p: dict[str, Any] = {**dict.fromkeys(_ECHOED), **{k: v for k, v in s.items() if k != "step"},
                         "command": intent.command, "turn": g.turn, "number": s.get("step"), "game": table.id}

    def at(dt: datetime | None) -> str:
        return when.moment_text(dt, tz, lang) if dt else ""
    if intent.command in ("EXTEND", "EARLIER"):
        try:
            p.update(new=at(_target(table, intent)), old=at(g.deadline))
        except EngineError:
            p.update(new="", old="")
    elif intent.command == "PAUSE":
        start, end = pause_span(table, s, now)
        p["period"] = when.period_text(start or now, end, tz, lang)
    elif intent.command == "RESUME":
        p["at"] = at(instant(table, s.get("at")))
    elif intent.command == "ABSENCE" and not s.get("cancel"):
        end = instant(table, s.get("end"), day_end=True)
        p["period"] = when.period_text(instant(table, s.get("start")) or now, end, tz, lang)
    elif intent.command in ("SR", "ROLL", "REFUSE_TEST"):
        p["game_line"] = game_line(intent)
    elif intent.command == "FOR":
        p["game_line"] = game_line(intent)
    return say(table.renderer, "echo", **p)
