"""An MJ's mail, line by line: his commands (`mjmail`) carried out by the rooms that do them, the other lines
(POUR, ETAT, the game's orders for the MJ) read as any mail's (`interpret`), and one answer that says for each
line what was understood and done, or exactly why not, with the syntax of the closest command.

A chronicle (CHRONIQUE, then free text up to FIN) is kept as written for the APPROUVE of the same
mail, wherever it stands in it: the approval is carried out once the whole mail is read.  A mail
nothing in which is understood gets the list of MJ commands with one example each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, time
from typing import Any

from pbem.clock import add_duration
from pbem.core import MJ
from pbem.engine import when
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import absences, approval, mjmail, pauses, seats
from pbem.engine.orders import commands
from pbem.engine.orders.interpret import interpret
from pbem.engine.phrases import say
from pbem.engine.steps import actions, calendar, corrections, letters, preview
from pbem.engine.table import EngineError, Table
from pbem.mail import prose
from pbem.mail.reading import IncomingMail
from pbem.msg import Msg
from pbem.names import fold
from pbem.outbox import Letter
from pbem.store import StepRecord

END_LINES = {"fin", "end", "fin de la chronique", "fin chronique", "end of chronicle", "fin de chronique"}


@dataclass
class Desk:
    """One MJ mail being read: the answer so far, and what waits for the end of the mail."""

    table: Table
    mail: IncomingMail
    key: str
    now: datetime
    result: MailResult = field(default_factory=MailResult)
    understood: int = 0
    chronicle: list[str] | None = None
    chronicle_open: bool = False  # the lines that follow CHRONIQUE, up to FIN, are its text
    approve: tuple[mjmail.Command, int] | None = None
    corrections: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return self.table.settings.language

    def say(self, key: str, **params: Any) -> str:
        return say(self.table.renderer, key, **params)

    def ok(self, line: str, note: str) -> None:
        self.understood += 1
        self.result.verdicts.append(LineVerdict(line, True, note))

    def fail(self, line: str, note: str, *, understood: bool = True) -> None:
        self.understood += int(understood)
        self.result.verdicts.append(LineVerdict(line, False, note, self.say("refused_label")))

    def when(self, dt: datetime | None) -> str:
        return when.moment_text(dt, self.table.config.timezone, self.lang) if dt else ""


def interpret_mj(table: Table, mail: IncomingMail, text: str, key: str, now: datetime,
                 received: datetime | None = None) -> MailResult:
    """Every line of an MJ's mail read and carried out (inside the caller's transaction).

    Greetings, sign-offs and other prose are no command: they are listed in the answer as ignored
    text, as in a player's ack (`interpret`), never counted as errors.
    """
    desk = Desk(table, mail, key, now)
    chunk: list[str] = []

    def flush() -> bool:
        """The lines that are no MJ command, read as any mail's; False when they ended the mail (FIN)."""
        if not chunk:
            return True
        done = interpret(table, MJ, mail, "\n".join(chunk), key, now, received)
        chunk.clear()
        for v in done.verdicts:
            _suggest(desk, v)
        desk.result.verdicts.extend(done.verdicts)
        desk.result.extra.extend(done.extra)
        for text in done.ignored:  # prose, except a typo of an MJ command (« Prolnge de 24h »): that is named
            near = None if prose.is_chatter(text) or prose.looks_like_sentence(text) else mjmail.closest(text)
            if near is None:
                desk.result.ignored.append(text)
            else:
                desk.fail(text, desk.say("did_you_mean", syntax=near.syntax.get(desk.lang),
                                         example=near.example.get(desk.lang), note=desk.say("not_understood")),
                          understood=False)
        desk.understood += sum(1 for v in done.verdicts if v.ok)
        return not (done.verdicts and done.verdicts[-1].ok and done.verdicts[-1].note == _end_note(table))

    for raw in text.splitlines():
        line = raw.strip()
        if desk.chronicle is not None and desk.chronicle_open:
            if fold(line).strip(" .:!") in END_LINES:
                desk.chronicle_open = False
                desk.ok(line, desk.say("chronicle_end", lines=len(_trimmed(desk.chronicle))))
            else:
                desk.chronicle.append(raw.rstrip())
            continue
        if not line:
            continue
        if prose.is_chatter(line):  # « Bonjour, », « Merci d'avance », a signature: read as any mail's
            chunk.append(line)
            continue
        if fold(line).strip(" .:!") in ("fin", "end"):
            if not flush():
                break
            desk.ok(line, table.renderer.message("end_of_orders"))
            break
        try:
            command = _parse(desk, line)
        except mjmail.MjLineError as e:
            if not flush():
                break
            desk.fail(line, e.msg.get(desk.lang))
            continue
        if command is None:
            chunk.append(line)
            continue
        if not flush():
            break
        _run(desk, command)
    else:
        flush()
    _finish(desk)
    return desk.result


def _end_note(table: Table) -> str:
    return table.renderer.message("end_of_orders")


def _parse(desk: Desk, line: str) -> mjmail.Command | None:
    table = desk.table
    g = table.row
    hour = table.local(g.deadline).time() if g.deadline else time(21, 0)  # type: ignore[union-attr]
    names = [p.name for p in table.store.players(table.id, include_removed=True)]
    return mjmail.parse(line, now=desk.now, tz=table.config.timezone, players=names, deadline_time=hour)


def _suggest(desk: Desk, v: LineVerdict) -> None:
    """A line no game order either: the nearest MJ command is named, with its syntax and an example."""
    if v.ok or v.player:
        return
    near = mjmail.closest(v.text)
    if near is not None:
        v.note = desk.say("did_you_mean", syntax=near.syntax.get(desk.lang), example=near.example.get(desk.lang),
                          note=v.note)


def _run(desk: Desk, command: mjmail.Command) -> None:
    """One MJ command carried out; its verdict (and any paragraph) added to the answer."""
    line = command.line
    if command.kind == "CHRONICLE":
        desk.chronicle = [command.args["text"]] if command.args["text"] else []
        desk.chronicle_open = True
        desk.ok(line, desk.say("chronicle_start"))
        return
    if command.kind == "APPROVE":
        desk.approve = (command, len(desk.result.verdicts))
        desk.result.verdicts.append(LineVerdict(line, True, ""))  # filled in once the whole mail is read
        desk.understood += 1
        return
    undo = desk.table.outgoing.checkpoint()
    try:
        with desk.table.store.atomic():  # a command that fails leaves nothing behind: no row, no letter
            _HANDLERS[command.kind](desk, command)
    except EngineError as e:
        undo()
        desk.fail(line, e.text(desk.lang))


def _finish(desk: Desk) -> None:
    """What waited for the end of the mail: the approval with its chronicle, the players told of POUR."""
    if desk.approve is not None:
        command, index = desk.approve
        undo = desk.table.outgoing.checkpoint()
        try:
            with desk.table.store.atomic():
                note = _approve(desk, command)
            desk.result.verdicts[index] = LineVerdict(command.line, True, note)
        except EngineError as e:
            undo()
            desk.result.verdicts[index] = LineVerdict(command.line, False, e.text(desk.lang),
                                                      desk.say("refused_label"))
    elif desk.chronicle is not None:
        desk.fail("CHRONIQUE", desk.say("chronicle_alone"))
    _tell_players(desk)


def _tell_players(desk: Desk) -> None:
    """A player the MJ gave orders for (POUR, for the open step) is told which."""
    table = desk.table
    g = table.row
    if g.phase != "running":
        return
    current = table.store.current_orders(table.id, g.turn)
    told = []
    for name in dict.fromkeys(v.player for v in desk.result.verdicts if v.ok and v.player):
        o = current.get(name)
        if o is None or o.source not in ("mj", "pass") or o.message_key != desk.mail.message_id:
            continue  # an immediate order (its result is the player's news), or a correction of a past step
        letter = letters.for_you_letter(table, name, o.lines, desk.mail.message_id)
        if letter is not None:
            told.append(letter)
    table.outgoing.queue(told, desk.now)


def _title(table: Table) -> str:
    state = table.state
    return table.ruleset.step_title(state).get(table.settings.language) if state is not None else ""


# --- the commands ---


def _open_turn(desk: Desk, turn: int | None) -> None:
    g = desk.table.row
    st = desk.table.step_noun()
    if turn is not None and turn != g.turn:
        raise EngineError(Msg(f"{st.the} {turn} n'est pas {st.the} en cours (c'est {st.the} {g.turn})",
                              f"step {turn} is not the open step ({g.turn})"))


def _extend(desk: Desk, c: mjmail.Command) -> None:
    table = desk.table
    _open_turn(desk, c.args.get("turn"))
    g = table.row
    if g.deadline is None:
        raise EngineError(Msg("aucune date limite en cours",
                              f"game {table.id} has no open deadline"))
    old = g.deadline
    earlier = bool(c.args.get("earlier"))
    if "until" in c.args:
        target = c.args["until"]
    elif earlier:
        by = c.args["by"]
        target = old - by.delta
    else:
        target = add_duration(old, c.args["by"], table.config.timezone)
    done = calendar.extend(table, target, desk.now, allow_earlier=earlier)
    players = len(table.store.players(table.id))
    desk.ok(c.line, desk.say("extended", earlier=done < old, old=desk.when(old), new=desk.when(done),
                             title=_title(table), players=players))


def _pause(desk: Desk, c: mjmail.Command) -> None:
    news = pauses.schedule(desk.table, c.args["start"], c.args["end"], c.args["reason"], desk.now)
    _pause_verdict(desk, c.line, news)


def _resume(desk: Desk, c: mjmail.Command) -> None:
    _pause_verdict(desk, c.line, pauses.resume(desk.table, desk.now, c.args["at"]))


def _pause_verdict(desk: Desk, line: str, news: pauses.PauseNews) -> None:
    desk.ok(line, pause_text(desk.table, news))


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
               players=len(table.store.players(table.id)))


def _missing(desk: Desk, c: mjmail.Command) -> None:
    desk.ok(c.line, desk.say("listed"))
    desk.result.extra.append(missing_text(desk.table, desk.now))


def missing_text(table: Table, now: datetime) -> str:
    """Who still has to order for the open step, who is away, what holds the game."""
    g = table.row
    r = table.renderer
    state = table.state
    awaited: list[str] = []
    ordered = 0
    asked = 0
    if g.phase == "running" and state is not None:
        prompted = table.prompted(state)
        required = table.required(state)
        current = table.store.ordered_players(table.id, g.turn)
        asked, ordered = len(prompted), len(prompted & current)
        awaited = sorted(required - current)
    away = absences.during(table, now, g.deadline if g.deadline else now)
    held = calendar.held(table)
    pause = calendar.upcoming_pause(table, now)
    tz = table.config.timezone
    return say(r, "missing", phase=g.phase, title=_title(table), deadline=table.local(g.deadline),
               awaited=awaited, ordered=ordered, asked=asked, away=away, held=held.turn if held else None,
               pause=when.period_text(pause.starts_at, pause.ends_at,
                                      tz, table.settings.language) if pause else None,
               changes=seats.pending_text(table))


def _resend(desk: Desk, c: mjmail.Command) -> None:
    table = desk.table
    g = table.row
    a = c.args
    if actions.plays_by_actions(table) and not a["forum"]:
        body = actions.history_text(table, a["player"])
        title = desk.say("tests_of", player=a["player"])
    else:
        turn = a["turn"] if a["turn"] is not None else g.turn - 1
        rec = _record(table, turn)
        if a["to"] is not None and not rec.published:
            raise EngineError(Msg(f"les résultats de « {rec.title} » "
                                  "attendent votre approbation : ils ne peuvent pas encore partir vers un joueur",
                                  "these results wait for your approval"))
        title = rec.title
        if a["forum"]:
            body = _forum_of(table, rec)
        else:
            text = letters.report_text(table, a["player"], turn, published_only=False)  # (held: checked above)
            body = text.split("\n\n", 1)[1] if text and "\n\n" in text else desk.say("nothing_for", player=a["player"])
    if a["to"] is None:
        desk.ok(c.line, desk.say("resent_here"))
        desk.result.extra.append(f"=== {title} ===\n\n{body}")
        return
    if not a["forum"]:  # a player's private results: to that player (or to the MJ, above), never to another
        letters.check_recipient(table, a["player"], a["to"])
    p = table.player_named(a["to"])
    t = table.renderer.mail_text("resent", tag=table.tag, player=p.name, title=title, body=body,
                                        salutation=table.salutation(table.state, p.name),
                                        forum=a["forum"])
    table.outgoing.queue([Letter(f"resend-{desk.mail.message_id}-{p.name}-{title}", table.id, g.turn, "notice",
                               p.address, t.subject, t.body)], desk.now)
    desk.ok(c.line, desk.say("resent_to", player=p.name, address=p.address, title=title))


def _record(table: Table, turn: int) -> StepRecord:
    rec = table.store.records(table.id, "setup")[0] if turn == 0 and table.store.records(table.id, "setup") else \
        table.store.record_for_turn(table.id, turn)
    if rec is None:
        st = table.step_noun()
        raise EngineError(Msg(f"pas {st.of_bare} {turn} résolu{st.e} dans {table.id}",
                              f"no step {turn} in {table.id}"))
    return rec


def _forum_of(table: Table, rec: StepRecord) -> str:
    ruleset = table.ruleset
    state = table.decode_json(rec.state_after)
    return letters.forum_text(table, state, rec.events, rec.title, ruleset.outcome(state),
                              table.store.chronicle(table.id, rec.seq))


def _correct(desk: Desk, c: mjmail.Command) -> None:
    table = desk.table
    g = table.row
    turn = c.args["turn"] if c.args["turn"] is not None else g.turn - 1
    name = table.player_named(c.args["player"]).name
    lines = desk.corrections.setdefault((name, turn), [])
    verdicts = corrections.set_orders_mj(table, name, [*lines, c.args["order"]], desk.now, turn)
    bad = [v for v in verdicts if not v.ok]
    if bad:
        desk.fail(c.line, bad[-1].note)
        return
    lines.append(c.args["order"])
    held = calendar.held(table)
    desk.ok(c.line, desk.say("corrected", player=name, turn=turn, open=turn == g.turn,
                             held=held is not None and held.turn == turn, lines=len(lines)))
    desk.result.verdicts[-1].player = name


def _rerun(desk: Desk, c: mjmail.Command) -> None:
    table = desk.table
    g = table.row
    turn = c.args["turn"] if c.args["turn"] is not None else g.turn - 1
    held = calendar.held(table)
    if held is not None and held.turn == turn and c.args["publish"]:
        raise EngineError(Msg(f"{table.step_noun().the} {turn} attend votre approbation : APPROUVE recalcule ses "
                              "résultats avec vos corrections et les envoie (pas de RECTIFICATIF pour des résultats "
                              "jamais partis)",
                              "these results wait for approval: APPROUVE re-runs and sends them"))
    res = corrections.rerun(table, turn, desk.now, publish=c.args["publish"])
    privates = len(table.store.players(table.id)) if res.published else 0
    desk.ok(c.line, desk.say("rerun", turn=turn, same=not res.diff and not res.state_changed,
                             changes=sum(1 for d in res.diff if d[:1] in "+-" and d[:3] not in ("+++", "---")),
                             published=res.published, asked=c.args["publish"], privates=privates))
    if res.diff:
        desk.result.extra.append("\n".join(res.diff))


def _remove(desk: Desk, c: mjmail.Command) -> None:
    news = seats.remove(desk.table, c.args["player"], desk.now, at_end=c.args["at_end"])
    desk.ok(c.line, desk.say("removed", now=news.now, player=news.player, address=news.old_address,
                             turn=news.after_turn, dropped=news.orders_dropped))


def _replace(desk: Desk, c: mjmail.Command) -> None:
    a = c.args
    news = seats.replace(desk.table, a["player"], a["name"], a["address"], desk.now,
                         from_turn=a["from_turn"])
    desk.ok(c.line, desk.say("replaced", now=news.now, player=news.player, name=news.new_name,
                             address=news.new_address, old=news.old_address,
                             turn=(news.after_turn + 1) if news.after_turn is not None else None))


def _approve(desk: Desk, c: mjmail.Command) -> str:
    text = "\n".join(_trimmed(desk.chronicle)) if desk.chronicle else None
    done = approval.publish(desk.table, desk.now, turn=c.args["turn"], chronicle=text)
    return published_text(desk.table, done)


def published_text(table: Table, done: approval.Published) -> str:
    """What an approval sent, said precisely (for the MJ's answer and the CLI)."""
    lang = table.settings.language
    return say(table.renderer, "approved", title=done.title, privates=done.privates, forum=done.forum,
               chronicle=done.chronicle_lines, rerun=done.rerun, changed=done.changed,
               deadline=when.moment_text(done.deadline, table.config.timezone, lang) if done.deadline else "")


def _trimmed(lines: list[str] | None) -> list[str]:
    out = list(lines or [])
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def _preview(desk: Desk, c: mjmail.Command) -> None:
    p = preview.preview_step(desk.table, desk.now)
    desk.ok(c.line, desk.say("previewed", title=p.title, defaults=p.defaults, privates=len(p.privates)))
    desk.result.extra.append(preview_text(desk.table, p))


def preview_text(table: Table, p: preview.Preview) -> str:
    """A preview as the MJ reads it: the digest, the forum post, every private letter."""
    return say(table.renderer, "preview", title=p.title, digest=p.digest, forum=p.forum, privates=p.privates)


def _help(desk: Desk, c: mjmail.Command) -> None:
    desk.ok(c.line, desk.say("listed"))
    desk.result.extra.append(help_text(desk.table))


def help_text(table: Table) -> str:
    """The MJ's commands with one example each, then the game's own orders for the MJ."""
    state = table.state
    helps = table.ruleset.help(state, MJ) if state is not None else []
    return table.renderer.mail_text("help_mj", tag=table.tag, commands=mjmail.COMMANDS,
                                           helps=helps).body


def _absence(desk: Desk, c: mjmail.Command) -> None:
    table, a = desk.table, c.args
    name = table.player_named(a["player"]).name
    if a["cancel"]:
        n = absences.cancel(table, name, desk.now, "mj")
        desk.ok(c.line, desk.say("absence_cancelled_for", player=name, count=n))
        return
    row = absences.declare(table, name, a["start"], a["end"], desk.now, "mj")
    desk.ok(c.line, desk.say("absence_for", player=name, period=when.period_text(
        row.starts_at, row.ends_at, table.config.timezone, desk.lang)))


_HANDLERS: dict[str, Callable[[Desk, mjmail.Command], None]] = {
    "EXTEND": _extend, "PAUSE": _pause, "RESUME": _resume, "MISSING": _missing, "RESEND": _resend,
    "CORRECT": _correct, "RERUN": _rerun, "REMOVE": _remove, "REPLACE": _replace, "PREVIEW": _preview,
    "HELP": _help, "ABSENCE": _absence,
}


# --- the answer ---


def ack(table: Table, mail: IncomingMail, result: MailResult, now: datetime) -> None:
    """The answer to an MJ's mail: every line with its verdict ([→ player] for a line written for one), the
    paragraphs the commands gave, where the game stands; the list of commands when nothing was understood."""
    g = table.row
    r = table.renderer
    understood = any(v.ok for v in result.verdicts)
    errors = result.errors
    extra = tuple(result.extra)
    context: dict[str, Any] = dict(
        tag=table.tag, verdicts=tuple(result.verdicts), errors=errors, subject_in=mail.subject,
        ignored=tuple(result.ignored),
        show_help=not understood, commands=mjmail.COMMANDS,
        where=missing_text(table, now) if g.phase != "finished" else None)

    def letter() -> Letter:
        blocks = tuple(commands.paragraph(table, x) for x in extra)
        where = context["where"]  # (QUI MANQUE already said it, word for word: not twice)
        t = r.mail_text("ack_mj", extra=blocks, **{**context, "where": None if where in blocks else where})
        return Letter(f"ack-{mail.message_id}", table.id, g.turn, "ack", mail.from_addr, t.subject, t.body,
                      in_reply_to=mail.message_id, references=mail.references)

    table.outgoing.queue_rendered(letter, mail.from_addr, "ack", now)
