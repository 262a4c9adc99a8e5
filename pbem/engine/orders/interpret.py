"""The lines of one mail, read one by one: common commands, the game's orders (parsed by the ruleset),
orders that act at once; the orders accepted become the writer's orders for the open step."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pbem.core import MJ, Order, OrderError, OrderNotAllowedError, OrderSyntaxError, UnknownKeywordError
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.orders import commands
from pbem.engine.steps import calendar, turns
from pbem.engine.table import Table
from pbem.engine.words import COMMANDS, JOIN_PHRASES
from pbem.limits import MAX_LINE_CHARS
from pbem.mail import prose
from pbem.mail.reading import IncomingMail
from pbem.names import fold, words
from pbem.store import OrderSet

MAX_LINE_LENGTH = MAX_LINE_CHARS
"""A line longer than this is answered « ligne trop longue » and read no further (`pbem.limits`)."""


def interpret(table: Table, actor: str | None, mail: IncomingMail, text: str, key: str,
              now: datetime, received: datetime | None = None) -> MailResult:
    """Every line's verdict, and the accepted orders stored (inside the caller's transaction).

    ``received`` is when the mailbox received the mail: the orders of the mail that *arrived*
    last are the player's orders, whatever the order in which mails are processed.  A mail that
    arrived before the open step was opened came too late for the step before: it is read for the
    open step, and its answer says so.
    """
    received = received or now
    g = table.row
    ruleset = table.ruleset
    s = table.settings
    say = table.renderer.message
    state = table.state
    result = MailResult()
    # while a step's results wait for the MJ (publish = "mj"), a player reads the game as it stood before them,
    # and no order is read: its verdict would tell what the results hold (`Table.known`)
    known = table.known() if actor != MJ else None
    held = known.held if known is not None else None
    # (a held step that ended the game leaves it running for the writer: his mail is late for that step)
    result.late = calendar.late_for(table, g if held is None or known is None else replace(g, phase=known.row.phase),
                                    received)
    result.grace = calendar.in_grace(g, s, received)
    if known is not None and held is not None:
        g, state = known.row, known.state
    seen = (g, state) if held is not None else None  # (commands during a wait change nothing of the game)
    accepted: dict[str, list[Order]] = {}
    lines_for: dict[str, list[str]] = {}
    sets: list[OrderSet] = []
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines and fold(mail.subject).find("particip") >= 0:
        lines = [mail.subject]
    for line in lines[:table.config.max_order_lines]:
        if len(line) > MAX_LINE_LENGTH:
            result.verdicts.append(LineVerdict(line[:80] + "…", False, say("line_too_long")))
            continue
        if prose.is_chatter(line):  # « Bonjour à tous, », « Cordialement », a line of dashes
            result.ignored.append(line)
            continue
        head, _, rest = line.partition(" ")
        word = fold(head).strip(":,.!")
        cmd = None if word in table.game_words else COMMANDS.get(word)
        if cmd is None and g.phase == "registration" and any(fold(line).startswith(p) for p in JOIN_PHRASES):
            cmd, rest = "JOIN", ""
        if cmd == "END" and commands.parses(cmd, rest):
            result.verdicts.append(LineVerdict(line, True, say("end_of_orders")))
            break
        if cmd is not None and commands.command(table, g, cmd, rest.strip(), actor, mail, line, result,
                                                state, mail.message_id, now):
            if result.joined and actor is None:
                actor = result.joined
            g, state = seen or (table.row, table.state)
            continue
        if actor is None or g.phase != "running" or state is None:
            if prose.looks_like_sentence(line):  # nothing to try the line against: only its shape tells
                result.ignored.append(line)
                continue
            why = "unknown_address" if actor is None else "not_started" if g.phase == "registration" else "game_over"
            result.verdicts.append(LineVerdict(line, False, say(why)))
            continue
        acting = actor
        try:
            order = ruleset.parse_order(state, acting, line, accepted.get(acting, []))
        except OrderError as e:
            if is_text(line, e):  # no order word, or a sentence that begins with one: the player's prose
                result.ignored.append(line)
            elif held is not None:  # (read against the game before the held results: it tells nothing new)
                result.verdicts.append(waiting(table, line, held))
            elif result.late is not None:  # written for the step that closed: not the player's mistake
                result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), say("too_late_label"),
                                                   late=True))
            else:
                result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
            continue
        if held is not None:
            result.verdicts.append(waiting(table, line, held))
            continue
        done = turns.immediate(table, g, state, acting, order, now)
        if done is not None:
            g, state, share = done
            if share is not None:
                result.extra.append(share)
            result.verdicts.append(LineVerdict(line, True, say("done")))
            continue
        if acting == MJ:
            result.verdicts.append(LineVerdict(line, False, say("mj_use_for"),
                                               OrderNotAllowedError.label.get(s.language)))
            continue
        if acting not in table.prompted(state):
            result.verdicts.append(LineVerdict(line, False, say("not_your_step"),
                                               OrderNotAllowedError.label.get(s.language)))
            continue
        accepted.setdefault(acting, []).append(order)
        lines_for.setdefault(acting, []).append(line)
        result.verdicts.append(LineVerdict(line, True, order.note.get(s.language) if order.note else ""))
    if result.passed is not None and actor is not None:
        if accepted.get(actor):  # « PASSER » and orders: which did the player mean?
            result.verdicts[result.passed] = LineVerdict(result.verdicts[result.passed].text, False,
                                                         say("pass_with_orders"))
        else:
            sets.append(OrderSet(table.id, g.turn, actor, [], [result.verdicts[result.passed].text], "pass",
                                 mail.message_id, received))
    for player, orders in accepted.items():
        if orders:
            # orders remember the Message-ID of their mail: what the MJ searches for in his mailbox
            sets.append(OrderSet(table.id, g.turn, player, orders, lines_for.get(player, []),
                                 "mj" if actor == MJ else "mail", mail.message_id, received))
    for given in sets:
        player = given.player
        earlier = (table.store.received_at_of(table.id, g.turn, player)
                   if player in table.store.ordered_players(table.id, g.turn) else None)
        if earlier and earlier > received:
            result.newer = earlier  # a mail that arrived later was processed first: its orders stay
            continue
        table.store.set_orders(given)
        result.replaced = earlier is not None
        if actor == MJ:
            table.store.log(table.id, now, "mj", "orders by mail", {"player": player, "lines": lines_for[player]})
    if sets:
        calendar.check_early(table, now)
    had_orders = (held is None and g.phase == "running" and actor not in (None, MJ)
                  and actor in table.store.ordered_players(table.id, g.turn))
    result.kept_orders = not sets and had_orders and any(v.error for v in result.verdicts)
    # ORDRES and ETAT show the orders in force, this mail's own included
    result.extra = [commands.with_orders(table, x) for x in result.extra]
    return result


def waiting(table: Table, line: str, held: int) -> LineVerdict:
    """The verdict of an order that came while the results of step ``held`` wait for the MJ: not read."""
    say = table.renderer.message
    return LineVerdict(line, False, say("held_order", turn=held), say("held_label"), waiting=True)


def is_text(line: str, error: OrderError) -> bool:
    """Is a line that failed as an order the player's prose rather than an order gone wrong?

    Yes when its first word is no order word and near none (« Voici mes ordres », a signature,
    an attribution line the mail client wrapped), or when it is understood to begin with an order
    word but reads as a sentence.  An order word with a wrong name or argument is an error.
    """
    if isinstance(error, UnknownKeywordError):
        first = words(line)
        return bool(first) and fold(error.typed) == fold(first[0])
    return isinstance(error, OrderSyntaxError) and prose.looks_like_sentence(line)
