"""An MJ's mail: read by meaning (`pbem.engine.desk.reader`), each command carried out (`mjcommands`) or asked
(`pbem.engine.desk.confirm`), the other lines (POUR, ETAT, the game's orders for the MJ) read as any mail's
(`interpret`), and one answer that says for each line what was understood and done, or asked, or exactly why
not.

A command is carried out when nothing in it was guessed, and, if it destroys or sends what cannot be taken
back, when the mail carries the MJ password; otherwise our answer echoes it (« J'ai compris : … ») and asks
for his OUI, with a one-time code for a destructive one.  His OUI to that answer carries out exactly what it
echoed, once.  Every destructive command done is told to every MJ address in a mail of its own.

A chronicle (a line « Chronique : », then free text up to « Fin ») is kept for the APPROUVE of the same
mail, wherever it stands in it; alone, it waits on the step held for approval.  A mail nothing in which is
understood gets the list of MJ commands with one example each.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.core import MJ
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import confirm, context, mjmail, reader
from pbem.engine.desk.confirm import Asked, destructive
from pbem.engine.desk.readings import Intent, MailReading, Reading
from pbem.engine.orders import commands, mjcommands
from pbem.engine.orders.interpret import interpret
from pbem.engine.orders.mjcommands import (
    Desk,
    help_text,
    missing_text,
    pause_text,
    preview_text,
    published_text,
)
from pbem.engine.steps import calendar, letters
from pbem.engine.table import EngineError, Table
from pbem.mail import prose
from pbem.mail.reading import IncomingMail
from pbem.outbox import Letter
from pbem.store import ConfirmationRow

__all__ = ["ack", "help_text", "interpret_mj", "missing_text", "pause_text", "preview_text", "published_text"]

GAME_LINES = frozenset({"FOR", "SR", "ROLL", "REFUSE_TEST"})
"""Commands the game itself reads (POUR, 1626's answers): a line written in the game's syntax goes as written."""


def interpret_mj(table: Table, mail: IncomingMail, text: str, key: str, now: datetime,
                 received: datetime | None = None, *, password: bool = False) -> MailResult:
    """Every line of an MJ's mail read, and its commands carried out or asked (inside the caller's transaction).

    ``password``: the mail carries the MJ password (where one is set): a destructive command needs no code.
    Greetings, sign-offs and other prose are no command: they are listed in the answer as ignored text.
    """
    desk = Desk(table, mail, key, now, received, password)
    row = confirm.answered(table, mail)
    # the code of a request still open (not expired, the same step), from the address it was sent to: it is spent
    # on the commands of this mail (the request is closed at its end), never carried to a later one; every wrong
    # code the mail offers counts toward the request's tries, wherever it stands in it
    found = confirm.counted(table, row, mail, text, now, password=password)
    if row is not None and found.wrong:
        row = table.store.confirmation(row.id)  # (its tries, perhaps its end)
    if row is not None and row.code:
        text = confirm.without_code(text, row.code, found.wrong)
    read = reader.read(text, context.view_of(table, mail, now, row), mail.subject)
    run = _Run(desk, read, row, found)
    run.lines(text.splitlines())
    run.finish()
    return desk.result


class _Run:
    """One MJ mail carried out, line by line."""

    def __init__(self, desk: Desk, read: MailReading, row: ConfirmationRow | None, found: confirm.Counted):
        self.desk = desk
        self.read = read
        self.row = row
        self.found = found  # the codes the mail offers, counted against the confirmation it answers
        self.code_ok = found.right  # the mail carries the code of the confirmation it answers
        self.tries_told = False  # an OUI line's refusal said how many tries are left
        self.code_spent = False  # a destructive command of this mail was carried out on that code
        self.asked: list[Asked] = []
        self.chunk: list[tuple[int, str]] = []
        self.by_line: dict[int, list[Reading]] = {}
        for r in read.readings:
            self.by_line.setdefault(r.line, []).append(r)

    @property
    def table(self) -> Table:
        return self.desk.table

    def lines(self, lines: list[str]) -> None:
        desk, read = self.desk, self.read
        for index, raw in enumerate(lines):
            line = raw.strip()
            if index == read.end:
                if self.flush():
                    desk.ok(line, self.table.renderer.message("end_of_orders"))
                return
            if index in read.chronicle or not line:
                continue
            if read.lines.get(index) == "answer":  # « non », « peut-être » to our confirmation
                self.answer(line)
                continue
            if read.lines.get(index) == "chronicle_end":
                desk.ok(line, desk.say("chronicle_end", lines=len(mjcommands.trimmed(desk.chronicle))))
                continue
            found = self.by_line.get(index, [])
            if not found or self._as_written(line, found):
                self.chunk.append((index, line))
                continue
            if not self.flush():
                return
            for r in found:
                self.reading(r, line if len(found) == 1 else r.text)
        self.flush()
        for r in self.by_line.get(-1, []):  # read from the subject
            self.reading(r, desk.mail.subject)

    def _as_written(self, line: str, found: list[Reading]) -> bool:
        """A line in the game's own syntax (POUR …, SR 15 n° 3, LANCER n° 4) goes to the game as written."""
        if not all(r.command in GAME_LINES and r.verdict == "do" for r in found):
            return False
        words = line.split()
        if words and words[0].lower() in ("pour", "for") and ":" in line:
            return True
        state = self.table.state
        if state is None:
            return False
        try:
            self.table.ruleset.parse_order(state, MJ, line, [])
        except Exception:  # noqa: BLE001 (any refusal of the game: the reader's reading stands)
            return False
        return True

    def flush(self) -> bool:
        """The lines that are no MJ command, read as any mail's; False when they ended the mail (FIN)."""
        if not self.chunk:
            return True
        desk = self.desk
        table = self.table
        kinds = {line: self.read.lines.get(i, "") for i, line in self.chunk}
        done = interpret(table, MJ, desk.mail, "\n".join(line for _i, line in self.chunk), desk.key, desk.now,
                         desk.received)
        self.chunk.clear()
        for v in done.verdicts:
            _suggest(desk, v)
        desk.result.verdicts.extend(done.verdicts)
        desk.result.extra.extend(done.extra)
        for text in done.ignored:
            kind = kinds.get(text, "prose")
            near = mjmail.closest(text) if kind == "typo" else None
            if kind == "request":
                desk.fail(text, desk.say("no_such_command"))
            elif near is not None:
                desk.fail(text, desk.say("did_you_mean", syntax=near.syntax.get(desk.lang),
                                         example=near.example.get(desk.lang), note=desk.say("not_understood")))
            else:
                desk.result.ignored.append(text)
        return not (done.verdicts and done.verdicts[-1].ok and
                    done.verdicts[-1].note == table.renderer.message("end_of_orders"))

    # --- one reading ---

    def reading(self, r: Reading, line: str) -> None:
        desk = self.desk
        if r.command is not None:
            desk.result.recognised += 1
        if r.verdict == "refuse":
            desk.fail(line, _refusal(desk, r))
            return
        if r.command == "CONFIRM":
            self.confirmed(line)
            return
        intent = r.intent
        if r.command == "CHRONICLE":
            desk.chronicle = str(intent.slots.get("text", "")).split("\n")
            desk.ok(line, desk.say("chronicle_taken", lines=len(mjcommands.trimmed(desk.chronicle))))
            return
        desk.result.ignored.extend(p for p in r.prose if len(p.split()) > 1 or len(p) > 3)  # his reasons, comments
        protected = destructive(intent) and not desk.password and not self.code_ok
        if r.verdict == "ask" or protected:
            try:
                mjcommands.precheck(self.table, intent)
            except EngineError as e:
                desk.fail(line, e.text(desk.lang))
                return
            echo = mjcommands.echo(self.table, intent, desk.now)
            others = [mjcommands.echo(self.table, a, desk.now) for a in r.alternatives]
            self.asked.append(Asked(intent, line, echo))
            desk.result.verdicts.append(LineVerdict(line, False, desk.say(
                "understood", echo=echo, guessed=list(r.guessed) if r.verdict == "ask" else [], alternatives=others,
                protected=protected), desk.say("asked_label"), asked=True))
            return
        self.carry_out(intent, line, how="password" if desk.password else "code" if self.code_ok else "")

    def carry_out(self, intent: Intent, line: str, *, how: str) -> None:
        """One command done now (its verdict added), in a savepoint: one that fails leaves nothing behind."""
        desk = self.desk
        table = self.table
        if intent.command in GAME_LINES:
            self.game_line(mjcommands.game_line(intent), line)
            return
        if intent.command == "APPROVE":
            desk.approve = (intent, line, len(desk.result.verdicts))
            desk.result.verdicts.append(LineVerdict(line, True, ""))  # filled in once the whole mail is read
            return
        undo = table.outgoing.checkpoint()
        try:
            with table.store.atomic():
                mjcommands.HANDLERS[intent.command](desk, intent, line)
        except EngineError as e:
            undo()
            desk.fail(line, e.text(desk.lang))
            return
        if destructive(intent):
            self.tell_every_mj(intent, line, how)
            self.code_spent = self.code_spent or how == "code"

    def game_line(self, game: str, shown: str) -> None:
        """A line for the game (POUR Arya : PASSER, SR 15 n° 3), read as any mail's, echoed as the MJ wrote it."""
        desk = self.desk
        done = interpret(self.table, MJ, desk.mail, game, desk.key, desk.now, desk.received)
        for v in done.verdicts:
            v.text = shown
        desk.result.verdicts.extend(done.verdicts)
        desk.result.extra.extend(done.extra)

    def confirmed(self, line: str) -> None:
        """OUI to our confirmation: its commands carried out, once."""
        desk = self.desk
        row = self.row
        if row is None:
            desk.result.ignored.append(line)
            return
        why = confirm.refusal(self.table, row, desk.mail, self.found, desk.now, password=desk.password)
        if why is not None:
            desk.fail(line, why.get(desk.lang))
            self.tries_told = True
            return
        held = confirm.stored(self.table, row)
        desk.ok(line, desk.say("confirming", count=len(held)))
        confirm.close(self.table, row, "done", desk.mail, desk.now)
        for intent, stored_line, _echo in held:
            self.carry_out(intent, stored_line, how="password" if desk.password else "code" if row.code else "")

    def answer(self, line: str) -> None:
        """« non » drops the commands our confirmation asked for; « peut-être » leaves them waiting."""
        desk, row = self.desk, self.row
        if row is None or row.status != "pending" or row.asker != desk.mail.from_addr:
            desk.result.ignored.append(line)
            return
        if self.read.answer == "no":
            confirm.close(self.table, row, "dropped", desk.mail, desk.now)
            desk.ok(line, desk.say("dropped", count=len(row.commands)))
        else:
            desk.ok(line, desk.say("still_waiting", count=len(row.commands), until=desk.when(row.expires_at)))

    def tell_every_mj(self, intent: Intent, line: str, how: str) -> None:
        """A destructive command done: every MJ address is told, in a mail of its own."""
        desk, table = self.desk, self.table
        echo = mjcommands.echo(table, intent, desk.now) if intent.command not in ("REMOVE", "REPLACE", "FINISH") \
            else desk.result.verdicts[-1].note
        n = len(desk.done)
        desk.done.append(echo)
        r = table.renderer
        letters_out = []
        for mj in table.settings.mj:
            t = r.mail_text("desk_done", tag=table.tag, game=table.id, echo=echo, line=line, asker=desk.mail.from_addr,
                            mail=desk.mail.message_id, how=how, at=table.local(desk.now), command=intent.command)
            letters_out.append(Letter(f"mj-done-{desk.mail.message_id}-{n}", table.id, table.row.turn, "notice", mj,
                                      t.subject, t.body))
        table.outgoing.queue(letters_out, desk.now)
        table.store.log(table.id, desk.now, "mj", "destructive command", {"command": intent.command, "echo": echo,
                                                                           "by": desk.mail.from_addr, "how": how})

    # --- the end of the mail ---

    def finish(self) -> None:
        """What waited for the end of the mail: the approval with its chronicle, the commands asked, a reply's no,
        the players told of POUR."""
        desk, table = self.desk, self.table
        if desk.approve is not None:
            intent, line, index = desk.approve
            undo = table.outgoing.checkpoint()
            try:
                with table.store.atomic():
                    note = mjcommands.approve(desk, intent)
                desk.result.verdicts[index] = LineVerdict(line, True, note)
            except EngineError as e:
                undo()
                desk.result.verdicts[index] = LineVerdict(line, False, e.text(desk.lang), desk.say("refused_label"))
        elif desk.chronicle is not None:
            held = calendar.held(table)
            if held is not None:
                table.store.save_chronicle(table.id, held.seq, "\n".join(mjcommands.trimmed(desk.chronicle)))
                desk.result.extra.append(desk.say("chronicle_saved", turn=held.turn))
            else:
                desk.fail(desk.say("chronicle_word"), desk.say("chronicle_alone"))
        if self.row is not None and self.read.answer == "corrected" and self.row.status == "pending" and \
                self.row.asker == desk.mail.from_addr:
            confirm.close(table, self.row, "replaced", desk.mail, desk.now)
        elif self.code_spent and self.row is not None:  # the code served once: the request is closed with it
            current = confirm.answered(table, desk.mail)
            if current is not None and current.status == "pending":
                confirm.close(table, current, "replaced", desk.mail, desk.now)
        if self.found.wrong and not self.tries_told and self.row is not None:  # beside commands, or alone
            now_row = table.store.confirmation(self.row.id)  # (a correction or the right code closed it: no tries)
            shown, why = confirm.wrong_codes_note(self.found, still_open=now_row is not None and
                                                  now_row.status == "pending")
            desk.result.recognised += 1
            desk.fail(shown, why.get(desk.lang))
        if self.asked:
            self.ask()
        _tell_players(desk)

    def ask(self) -> None:
        """The commands asked wait for the MJ's OUI to our answer (with a code for a destructive one)."""
        desk, table = self.desk, self.table
        needs_code = any(destructive(a.intent) for a in self.asked) and not desk.password and not self.code_ok
        code = confirm.code_for(table, desk.mail) if needs_code else None
        if needs_code and code is None:  # the seed is revealed: no code can be secret any more
            for v in desk.result.verdicts:
                if v.asked and any(a.line == v.text and destructive(a.intent) for a in self.asked):
                    v.asked, v.label, v.note = False, desk.say("refused_label"), desk.say("needs_password")
            self.asked = [a for a in self.asked if not destructive(a.intent)]
            if not self.asked:
                return
        row = confirm.ask(table, desk.mail, self.asked, code=code, now=desk.now)
        desk.result.extra.append(desk.say("confirm_request", count=len(self.asked), until=desk.when(row.expires_at),
                                          code=code, title=mjcommands.title(table)))


def _refusal(desk: Desk, r: Reading) -> str:
    """A refusal as the MJ reads it: why, with the candidates, and the syntax of the command."""
    why = r.why.get(desk.lang) if r.why is not None else desk.say("not_understood")
    syntax = mjmail.BY_READER.get(r.command or "")
    if syntax is None:
        return why
    return desk.say("refused_with_syntax", why=why, syntax=syntax.syntax.get(desk.lang),
                    example=syntax.example.get(desk.lang))


def _suggest(desk: Desk, v: LineVerdict) -> None:
    """A line no game order either: the nearest MJ command is named, with its syntax and an example."""
    if v.ok or v.player or prose.looks_like_sentence(v.text):
        return
    near = mjmail.closest(v.text)
    if near is not None:
        v.note = desk.say("did_you_mean", syntax=near.syntax.get(desk.lang), example=near.example.get(desk.lang),
                          note=v.note)


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


# --- the answer ---


def ack(table: Table, mail: IncomingMail, result: MailResult, now: datetime) -> None:
    """The answer to an MJ's mail: every line with its verdict ([→ player] for a line written for one), the
    paragraphs the commands gave, where the game stands; the list of commands when nothing was understood.
    When commands wait for his OUI, this answer is the confirmation (its Message-ID is `confirm.answer_id`)."""
    g = table.row
    r = table.renderer
    understood = result.recognised > 0 or any(v.ok or v.asked for v in result.verdicts)
    extra = tuple(result.extra)
    context_: dict[str, Any] = dict(
        tag=table.tag, verdicts=tuple(result.verdicts), errors=result.errors, subject_in=mail.subject,
        ignored=tuple(result.ignored), show_help=not understood, commands=mjmail.COMMANDS,
        where=missing_text(table, now) if g.phase != "finished" else None)

    def letter() -> Letter:
        blocks = tuple(commands.paragraph(table, x) for x in extra)
        where = context_["where"]  # (QUI MANQUE already said it, word for word: not twice)
        t = r.mail_text("ack_mj", extra=blocks, **{**context_, "where": None if where in blocks else where})
        return Letter(f"ack-{mail.message_id}", table.id, g.turn, "ack", mail.from_addr, t.subject, t.body,
                      in_reply_to=mail.message_id, references=mail.references)

    table.outgoing.queue_rendered(letter, mail.from_addr, "ack", now)

