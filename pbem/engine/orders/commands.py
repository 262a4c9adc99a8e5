"""The commands every game shares, French first with English aliases: INSCRIPTION, AIDE, ETAT, ORDRES,
PASSER, ANNULER, RAPPORT, FIN, ABSENCE, and the MJ's POUR.  Each handler adds its verdict (and any paragraph)
to the answer."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from typing import Any

from pbem.core import MJ, OrderAmbiguousError, OrderError, OrderNotAllowedError
from pbem.engine import optional
from pbem.engine.answers import LineVerdict, MailResult, OrdersShown, Paragraph, Shown
from pbem.engine.desk import absences
from pbem.engine.steps import actions, calendar, letters, lifecycle, turns
from pbem.engine.table import EngineError, Table
from pbem.engine.words import is_pass
from pbem.mail import prose
from pbem.mail.reading import IncomingMail
from pbem.mail.senders import given_password
from pbem.names import fold, match_name
from pbem.store import GameRow, OrderSet
from pbem.wording import gender_of

NO_ARGUMENTS = frozenset({"HELP", "STATUS", "ORDERS", "CANCEL", "END", "PASS"})
_NUMBER = re.compile(r"^(?:(?:tour|turn|etape|step|manche|round|n[o°]?)\s*)?(\d+)$")


def parses(cmd: str, rest: str) -> bool:
    """Is the line this command, or prose that merely begins with its word (« État des lieux : … »)?

    A command without arguments takes none (punctuation aside); RAPPORT takes a step number;
    INSCRIPTION a name, not a sentence.  POUR is checked against the players' names (`_for_line`).
    """
    words = fold(rest).strip(" :,.!?;")
    if cmd in NO_ARGUMENTS:
        return not words
    if cmd == "REPORT":
        return not words or _NUMBER.match(words) is not None
    if cmd == "JOIN":
        return not prose.looks_like_sentence(rest)
    return True


def command(table: Table, g: GameRow, cmd: str, rest: str, actor: str | None, mail: IncomingMail,
            line: str, result: MailResult, state: Any, key: str, now: datetime) -> bool:
    """Carry out one common command line (``cmd`` is its canonical name, ``rest`` its arguments).

    False when the line turns out not to be that command (prose beginning with its word): nothing
    was done, and the caller reads the line otherwise.
    """
    if not parses(cmd, rest):
        return False
    r = table.renderer
    say = r.message
    if cmd == "JOIN":
        _join(table, g, rest, actor, mail, line, result, now)
        return True
    if actor is None:
        result.verdicts.append(LineVerdict(line, cmd == "HELP", "" if cmd == "HELP" else say("unknown_address")))
        if cmd == "HELP":
            result.extra.append(r.mail_text("help_common", tag=table.tag, helps=[], mj=False,
                                            registration=g.phase == "registration",
                                            common_pass=_common_pass(table)).body)
        return True
    # AIDE and ETAT say what the stored state (and phase) lets this writer do and see: the same text for
    # each of his mails read in that state, made once, rendered with the ack (`paragraph`)
    stored = (g.state, g.phase)
    if cmd == "HELP":
        result.verdicts.append(LineVerdict(line, True))
        result.extra.append(Shown("help", actor, state, stored))
        return True
    if cmd == "STATUS":
        result.verdicts.append(LineVerdict(line, True))
        if state is None:
            result.extra.append(say("not_started_sentence"))
            return True
        shown = Shown("status", actor, state, stored)
        # after this mail's own orders are recorded: they are part of it
        result.extra.append(OrdersShown(actor, shown) if actor != MJ and g.phase == "running" else shown)
        return True
    if cmd == "ORDERS":
        result.verdicts.append(LineVerdict(line, True))
        result.extra.append(OrdersShown(actor))
        return True
    if cmd == "CANCEL":
        _cancel(table, g, actor, line, result, now)
        return True
    if cmd == "PASS":
        held = table.known().held if actor != MJ else None
        if held is not None:  # results wait for the MJ: no answer for the next step is read yet
            result.verdicts.append(LineVerdict(line, False, say("held_order", turn=held), say("held_label"),
                                               waiting=True))
            return True
        _pass(table, g, actor, line, result, state)
        return True
    if cmd == "REPORT":
        _report(table, g, rest, actor, line, result)
        return True
    if cmd == "FOR":
        return _for_line(table, g, rest, actor, line, result, state, key, now)
    if cmd == "AWAY":
        return absences.command(table, actor, rest, line, result, now)
    return True


def paragraph(table: Table, item: Paragraph) -> str:
    """The text of a paragraph after the echo; AIDE's and ETAT's made once per writer and stored state."""
    if isinstance(item, str):
        return item
    if isinstance(item, OrdersShown):  # (still waiting for the mail's orders: `with_orders` comes first)
        return letters.orders_text(table, item.player)
    r = table.renderer
    shown = item
    if shown.kind == "help":
        def help_text() -> str:
            return r.mail_text("help_common", tag=table.tag,
                               helps=table.ruleset.help(shown.state, shown.writer) if shown.state is not None else [],
                               mj=shown.writer == MJ, registration=shown.stored[1] == "registration",
                               common_pass=_common_pass(table)).body
        return r.remembered(("help", table.id, shown.writer), shown.stored, help_text)

    def view_text() -> str:
        return r.mail_text("status", view=table.ruleset.view(shown.state, shown.writer), player=shown.writer,
                           tag=table.tag).body
    text = r.remembered(("status", table.id, shown.writer), shown.stored, view_text)
    return text + ("\n" + shown.orders if shown.orders else "")


def with_orders(table: Table, item: Paragraph) -> Paragraph:
    """A paragraph that shows the writer's orders, once the mail's own are stored: ORDRES's text is fixed
    now, ETAT's orders too (its view is made with the answer)."""
    if not isinstance(item, OrdersShown):
        return item
    orders = letters.orders_text(table, item.player)
    return orders if item.status is None else replace(item.status, orders=orders)


def _common_pass(table: Table) -> bool:
    """Is PASSER the common command in this game (not one of the game's own orders, as in Courtisans)?"""
    return not table.game_words & {"passer", "pass"}


def _join(table: Table, g: GameRow, rest: str, actor: str | None, mail: IncomingMail, line: str,
          result: MailResult, now: datetime) -> None:
    """INSCRIPTION <nom> (or « Je souhaite participer »: the name in the From header)."""
    s = table.settings
    say = table.renderer.message
    rest, gender = _gender_suffix(rest)
    name = rest or (mail.from_name or "")
    if actor is not None and actor != MJ:
        result.verdicts.append(LineVerdict(line, False, say("already_registered", name=actor)))
        return
    if g.phase != "registration":
        result.verdicts.append(LineVerdict(line, False, say("registration_closed")))
        return
    if not rest and not lifecycle.NAME_OK.match(" ".join(name.split())):
        result.verdicts.append(LineVerdict(line, False, say("give_a_name")))
        return
    password = given_password(mail.text) if s.passwords else None
    if s.passwords and not password:
        result.verdicts.append(LineVerdict(line, False, say("password_needed")))
        return
    try:
        p = lifecycle.add_player(table, name, mail.from_addr, now, by=mail.from_addr, password=password,
                                 gender=gender)
    except EngineError as e:
        result.verdicts.append(LineVerdict(line, False, say(e.key, **e.params) if e.key else str(e)))
        return
    say = table.renderer.message  # (with the new player's gender)
    result.verdicts.append(LineVerdict(line, True, say("registered_as", name=p.name)))
    result.joined = p.name


_GENDER_SUFFIX = re.compile(r"^(?P<name>.*?)\s*(?:\((?P<paren>[^()]{1,12})\)|,\s*(?P<word>\w+))\s*$")


def _gender_suffix(rest: str) -> tuple[str, str | None]:
    """``Olenna (femme)`` / ``Olenna, femme`` -> (``Olenna``, ``"f"``); a name without one is left as it is."""
    found = _GENDER_SUFFIX.match(rest)
    if found:
        gender = gender_of(found.group("paren") or found.group("word") or "")
        if gender is not None:
            return found.group("name").strip(), gender
    return rest, None


def _cancel(table: Table, g: GameRow, actor: str, line: str, result: MailResult,
            now: datetime) -> None:
    """ANNULER: the player's orders for the open step are withdrawn (the defaults will apply)."""
    say = table.renderer.message
    if actor == MJ or g.phase != "running" or actor not in table.store.ordered_players(table.id, g.turn):
        result.verdicts.append(LineVerdict(line, False, say("nothing_to_cancel")))
        return
    table.store.cancel_orders(table.id, g.turn, actor)
    if g.early_at:  # not everyone has ordered any more (unless this player was not awaited)
        table.store.save_game(replace(g, early_at=None))
        calendar.check_early(table, now)
    result.verdicts.append(LineVerdict(line, True, say("cancelled")))


def _pass(table: Table, g: GameRow, actor: str, line: str, result: MailResult, state: Any) -> None:
    """PASSER: the player answers that he does nothing this step (the rules' defaults, but he answered:
    early resolution may fire, and it is no missed step).  Recorded with the mail's other lines (`interpret`)."""
    s = table.settings
    say = table.renderer.message
    refused = OrderNotAllowedError.label.get(s.language)
    if actor == MJ:
        result.verdicts.append(LineVerdict(line, False, say("mj_use_for"), refused))
    elif g.phase != "running" or state is None:
        result.verdicts.append(LineVerdict(line, False, say("not_started" if g.phase == "registration"
                                                                else "game_over")))
    elif actor not in table.prompted(state):
        result.verdicts.append(LineVerdict(line, False, say("not_your_step"), refused))
    else:
        applied = [o.text or o.verb for o in table.ruleset.default_orders(state, actor)]
        result.verdicts.append(LineVerdict(line, True, say("pass_noted", applied=applied)))
        result.passed = len(result.verdicts) - 1


def _report(table: Table, g: GameRow, rest: str, actor: str, line: str, result: MailResult) -> None:
    """RAPPORT <n>: the player's results of step n again (0: the start mail; default: the last step).

    A game played by immediate orders (1626) has no steps: RAPPORT lists the tests the player was told of.
    """
    say = table.renderer.message
    if actions.plays_by_actions(table):
        result.verdicts.append(LineVerdict(line, True))
        result.extra.append(actions.history_text(table, actor))
        return
    number = _NUMBER.match(fold(rest).strip(" :,.!?;"))
    try:
        turn = int(number.group(1)) if number else g.turn - 1
        if not 0 <= turn < max(g.turn, 1):
            raise ValueError(turn)
    except ValueError:
        result.verdicts.append(LineVerdict(line, False, say("report_needs_turn", last=max(g.turn - 1, 0))))
        return
    text = letters.report_text(table, actor, turn)
    if text is None:
        result.verdicts.append(LineVerdict(line, False, say("no_report", turn=turn)))
        return
    result.verdicts.append(LineVerdict(line, True))
    result.extra.append(text)


def _for_line(table: Table, g: GameRow, rest: str, actor: str | None, line: str, result: MailResult,
              state: Any, key: str, now: datetime) -> bool:
    """``POUR <joueur> : <ordre>``: the MJ gives an order on a player's behalf (logged).

    Not a command (False) when the words before the colon name no player, not even nearly:
    « Pour les Gardes : on protège Fitz ». A player who writes one about a player is told it is the MJ's.
    """
    s = table.settings
    say = table.renderer.message
    who, sep, order_text = rest.partition(":")
    ruleset = table.ruleset
    names = ruleset.players(state) if state is not None else [p.name for p in table.store.players(table.id)]
    try:
        player = match_name(who.strip(), names)
    except OrderAmbiguousError as e:
        if actor != MJ or not sep:
            return False
        result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
        return True
    except OrderError:
        return False  # no player's name: prose that begins with « pour »
    if not sep:
        return False
    if actor != MJ:
        result.verdicts.append(LineVerdict(line, False, say("only_mj_for")))
        return True
    if state is None:
        result.verdicts.append(LineVerdict(line, False, say("not_started")))
        return True
    if is_pass(table, order_text):  # POUR Arya : PASSER
        table.store.set_orders(OrderSet(table.id, g.turn, player, [], ["PASSER"], "pass", key, now))
        table.store.log(table.id, now, "mj", "pass for", {"player": player})
        result.verdicts.append(LineVerdict(line, True, say("order_recorded_for", player=player), player=player))
        calendar.check_early(table, now)
        return True
    try:
        order = optional.parse_order(ruleset, state, player, order_text.strip(), [], author=MJ)
    except OrderError as e:
        result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
        return True
    done = turns.immediate(table, g, state, player, order, now, author=MJ)
    if done is not None:
        if done[2] is not None:
            result.extra.append(done[2])
        result.verdicts.append(LineVerdict(line, True, say("done_for", player=player), player=player))
        table.store.log(table.id, now, "mj", "immediate for", {"player": player, "line": order_text.strip()})
        return True
    current = table.store.current_orders(table.id, g.turn, player).get(player)
    same_mail = current is not None and current.source == "mj" and current.message_key == key
    orders = (current.orders if current and same_mail else []) + [order]
    lines = (current.lines if current and same_mail else []) + [order_text.strip()]
    table.store.set_orders(OrderSet(table.id, g.turn, player, orders, lines, "mj", key, now))
    table.store.log(table.id, now, "mj", "orders for", {"player": player, "line": order_text.strip()})
    result.verdicts.append(LineVerdict(line, True, say("order_recorded_for", player=player), player=player))
    calendar.check_early(table, now)
    return True
