"""The lines of one mail, read one by one: common commands (by their word, or said in a sentence: « je serai
absent du 15 au 20 », read by the MJ's reader, `pbem.engine.desk.reader.common`), the game's orders (parsed by
the ruleset), orders that act at once; the orders accepted become the writer's orders for the open step."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from datetime import datetime
from functools import partial

from pbem.core import (
    MJ,
    Order,
    OrderAmbiguousError,
    OrderError,
    OrderNotAllowedError,
    OrderSyntaxError,
    UnknownKeywordError,
)
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.desk import context, reader
from pbem.engine.desk.readings import View
from pbem.engine.orders import commands
from pbem.engine.steps import calendar, turns
from pbem.engine.table import Table
from pbem.engine.words import COMMANDS, JOIN_PHRASES, join_near_miss, join_sentence, said_name
from pbem.limits import MAX_LINE_CHARS
from pbem.mail import prose
from pbem.mail.reading import IncomingMail, arrival_order, read_message
from pbem.names import fold, names_understood, words
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
    words_of_game: list[Collection[str]] = []

    def order_words() -> Collection[str]:
        """The game's order words (once a mail, only if a sentence is near one)."""
        if not words_of_game:
            words_of_game.append(context.order_words(table, state) if state is not None else {})
        return words_of_game[0]
    after_join = False
    if not lines and fold(mail.subject).find("particip") >= 0:
        lines = [mail.subject]
    for line in lines[:table.config.max_order_lines]:
        if len(line) > MAX_LINE_LENGTH:
            result.verdicts.append(LineVerdict(line[:80] + "…", False, say("line_too_long")))
            continue
        said = join_sentence(line) if g.phase == "registration" and actor is None else None
        if prose.is_chatter(line) and said is None:  # « Bonjour à tous, », « Cordialement », a line of dashes
            result.ignored.append(line)
            continue
        head, _, rest = line.partition(" ")
        word = fold(head).strip(":,.!")
        cmd = None if word in table.game_words else COMMANDS.get(word)
        if cmd is None and g.phase == "registration" and any(fold(line).startswith(p) for p in JOIN_PHRASES):
            cmd, rest = "JOIN", ""
        if said is not None and (cmd is None or (cmd == "JOIN" and not commands.parses(cmd, rest.strip()))):
            cmd, rest = "JOIN", said  # « je voudrais m'inscrire, mon nom est Olenna »: the name, or "" (From's)
        elif cmd == "JOIN":
            rest = said_name(rest)  # « INSCRIPTION je m'appelle Olenna »
        if cmd is None and g.phase == "registration" and join_near_miss(head):  # « INSCRITPION Olenna »
            result.verdicts.append(LineVerdict(line, False, say("join_near_miss", typed=head, rest=rest.strip()),
                                               OrderAmbiguousError.label.get(s.language)))
            after_join = True
            continue
        if cmd == "JOIN":
            after_join = True  # what follows in a registration is the player's text: a name, a signature
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
            # nothing to try the line against: only its shape tells, and what came before it (after INSCRIPTION,
            # a name, a signature; an order is typed in capitals: « ESCOUADE Bronn » is told it is too early)
            if prose.looks_like_sentence(line) or (after_join and g.phase == "registration"
                                                   and not (len(head) > 1 and head.isupper())):
                result.ignored.append(line)
                continue
            why = "unknown_address" if actor is None else "not_started" if g.phase == "registration" else "game_over"
            result.verdicts.append(LineVerdict(line, False, say(why)))
            continue
        acting = actor
        try:
            order = ruleset.parse_order(state, acting, line, accepted.get(acting, []))
        except OrderError as e:
            common = reader.common(line, View(now, table.config.timezone, ())) if acting != MJ else None
            if common is not None and (common[0] != "PASS" or not table.game_words & {"passer", "pass"}):
                # a common command in a sentence (« je serai absent du 15 au 20 », « je passe mon tour »)
                commands.command(table, g, common[0], common[1], actor, mail, line, result, state, mail.message_id, now)
                g, state = seen or (table.row, table.state)
                continue
            if is_text(line, e, order_words):  # no order word, or a sentence that begins with one: the player's prose
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
        understood = ", ".join(f"{typed} → {name}" for typed, name in  # « ESCOUADE Bron »: « Bron → Bronn »
                               names_understood(line, order.args, partial(table.ruleset.players, state)))
        done = turns.immediate(table, g, state, acting, order, now)
        if done is not None:
            g, state, share = done
            if share is not None:
                result.extra.append(share)
            result.verdicts.append(LineVerdict(line, True, say("done") + (f" ({understood})" if understood else "")))
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
        note = order.note.get(s.language) if order.note else ""
        result.verdicts.append(LineVerdict(line, True, "; ".join(filter(None, (understood, note)))))
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
        if earlier and (earlier > received or (earlier == received and _written_after(table, g.turn, player,
                                                                                      mail, received))):
            result.newer = earlier  # a mail that arrived later (or was written later) was read first: its orders stay
            result.newer_same_time = earlier == received
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


def _written_after(table: Table, turn: int, player: str, mail: IncomingMail, received: datetime) -> bool:
    """The orders in force came from a mail that arrived in the same second as this one: was it written
    after this one (`arrival_order`: its Date header, then its Message-ID)?

    A mail read earlier in the same batch is not found yet, nor needed: a batch reads its mails in that order.
    """
    current = table.store.current_orders(table.id, turn, player).get(player)
    if current is None or not current.message_key or current.message_key == mail.message_id:
        return False
    raw = table.store.processed_raw(current.message_key)
    if raw is None:  # (the MJ's order, or a mail of this batch)
        return False
    return arrival_order(received, read_message(raw, table.house.config.read_bytes)) > arrival_order(received, mail)


def waiting(table: Table, line: str, held: int) -> LineVerdict:
    """The verdict of an order that came while the results of step ``held`` wait for the MJ: not read."""
    say = table.renderer.message
    return LineVerdict(line, False, say("held_order", turn=held), say("held_label"), waiting=True)


def is_text(line: str, error: OrderError, known: Callable[[], Collection[str]] = lambda: ()) -> bool:
    """Is a line that failed as an order the player's prose rather than an order gone wrong?

    Yes when its first word is no order word and near none (« Voici mes ordres », a signature,
    an attribution line the mail client wrapped), or when it is understood to begin with an order
    word but reads as a sentence, or when it reads as a sentence whose first word is only near an
    order word (1626's « Je pense que… » is no misspelt JET: ``known`` gives the game's order words).
    An order word with a wrong name or argument is an error.
    """
    first = words(line)
    if isinstance(error, UnknownKeywordError):
        return bool(first) and fold(error.typed) == fold(first[0])
    if isinstance(error, OrderAmbiguousError) and first and prose.looks_like_sentence(line):
        return fold(first[0]).strip(":,.!?") not in known()
    return isinstance(error, OrderSyntaxError) and prose.looks_like_sentence(line)
