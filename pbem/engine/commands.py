"""The commands every game shares, French first with English aliases: INSCRIPTION, AIDE, ETAT, ORDRES,
ANNULER, RAPPORT, FIN, and the MJ's POUR.  Each handler adds its verdict (and any paragraph) to the answer."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.clock import iso
from pbem.core import MJ, OrderError
from pbem.engine import letters, lifecycle, turns
from pbem.engine.answers import LineVerdict, MailResult
from pbem.engine.context import Context, EngineError
from pbem.mail.reading import IncomingMail
from pbem.mail.senders import given_password
from pbem.names import match_name
from pbem.store import GameRow, OrderSet

COMMANDS = {
    "inscription": "JOIN", "join": "JOIN", "register": "JOIN",
    "aide": "HELP", "help": "HELP", "?": "HELP",
    "etat": "STATUS", "status": "STATUS",
    "ordres": "ORDERS", "orders": "ORDERS",
    "rapport": "REPORT", "report": "REPORT",
    "pour": "FOR", "for": "FOR",
    "annuler": "CANCEL", "cancel": "CANCEL",
    "fin": "END", "end": "END",
}
JOIN_PHRASES = ("je souhaite participer", "je veux participer", "i want to play", "i would like to join",
                "i wish to participate")


def command(ctx: Context, game_id: str, g: GameRow, cmd: str, rest: str, actor: str | None, mail: IncomingMail,
            line: str, result: MailResult, state: Any, key: str, now: datetime) -> None:
    """Carry out one common command line (``cmd`` is its canonical name, ``rest`` its arguments)."""
    ruleset = ctx.ruleset(game_id)
    r = ctx.renderer(game_id)
    say = r.message
    if cmd == "JOIN":
        _join(ctx, game_id, g, rest, actor, mail, line, result, now)
        return
    if actor is None:
        result.verdicts.append(LineVerdict(line, cmd == "HELP", "" if cmd == "HELP" else say("unknown_address")))
        if cmd == "HELP":
            result.extra.append(r.mail_text("help_common", tag=ctx.tag(game_id), helps=[], mj=False,
                                            registration=g.phase == "registration").body)
        return
    tag = ctx.tag(game_id)
    if cmd == "HELP":
        helps = ruleset.help(state, actor) if state is not None else []
        result.verdicts.append(LineVerdict(line, True))
        help_context = dict(tag=tag, helps=helps, mj=actor == MJ, registration=g.phase == "registration")
        # what the text says is fixed now; rendered with the ack
        result.extra.append(lambda: r.mail_text("help_common", **help_context).body)
        return
    if cmd == "STATUS":
        result.verdicts.append(LineVerdict(line, True))
        if state is None:
            result.extra.append(say("not_started_sentence"))
            return
        view = ruleset.view(state, actor)
        player = actor
        result.extra.append(lambda: r.mail_text("status", view=view, player=player, tag=tag).body)
        return
    if cmd == "ORDERS":
        result.verdicts.append(LineVerdict(line, True))
        result.extra.append(letters.orders_text(ctx, game_id, actor))
        return
    if cmd == "CANCEL":
        _cancel(ctx, game_id, g, actor, line, result, now)
        return
    if cmd == "REPORT":
        _report(ctx, game_id, g, rest, actor, line, result)
        return
    if cmd == "FOR":
        _for_line(ctx, game_id, g, rest, actor, line, result, state, key, now)
        return


def _join(ctx: Context, game_id: str, g: GameRow, rest: str, actor: str | None, mail: IncomingMail, line: str,
          result: MailResult, now: datetime) -> None:
    """INSCRIPTION <nom> (or « Je souhaite participer »: the name in the From header)."""
    s = ctx.settings(game_id)
    say = ctx.renderer(game_id).message
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
        p = lifecycle.add_player(ctx, game_id, name, mail.from_addr, now, by=mail.from_addr, password=password)
    except EngineError as e:
        result.verdicts.append(LineVerdict(line, False, say(e.key, **e.params) if e.key else str(e)))
        return
    result.verdicts.append(LineVerdict(line, True, say("registered_as", name=p.name)))
    result.joined = p.name


def _cancel(ctx: Context, game_id: str, g: GameRow, actor: str, line: str, result: MailResult,
            now: datetime) -> None:
    """ANNULER: the player's orders for the open step are withdrawn (the defaults will apply)."""
    say = ctx.renderer(game_id).message
    if actor == MJ or g.phase != "running" or actor not in ctx.store.ordered_players(game_id, g.turn):
        result.verdicts.append(LineVerdict(line, False, say("nothing_to_cancel")))
        return
    ctx.store.cancel_orders(game_id, g.turn, actor)
    if g.early_at:  # not everyone has ordered any more (unless this player was not awaited)
        ctx.store.save_game(GameRow(**{**g.__dict__, "early_at": None}))
        turns.check_early(ctx, game_id, now)
    result.verdicts.append(LineVerdict(line, True, say("cancelled")))


def _report(ctx: Context, game_id: str, g: GameRow, rest: str, actor: str, line: str, result: MailResult) -> None:
    """RAPPORT <n>: the player's results of step n again (0: the start mail; default: the last step)."""
    say = ctx.renderer(game_id).message
    try:
        turn = int(rest.split()[0]) if rest.split() else g.turn - 1
        if not 0 <= turn < max(g.turn, 1):
            raise ValueError(turn)
    except ValueError:
        result.verdicts.append(LineVerdict(line, False, say("report_needs_turn", last=max(g.turn - 1, 0))))
        return
    text = letters.report_text(ctx, game_id, actor, turn)
    if text is None:
        result.verdicts.append(LineVerdict(line, False, say("no_report", turn=turn)))
        return
    result.verdicts.append(LineVerdict(line, True))
    result.extra.append(text)


def _for_line(ctx: Context, game_id: str, g: GameRow, rest: str, actor: str | None, line: str, result: MailResult,
              state: Any, key: str, now: datetime) -> None:
    """``POUR <joueur> : <ordre>``: the MJ gives an order on a player's behalf (logged)."""
    s = ctx.settings(game_id)
    say = ctx.renderer(game_id).message
    if actor != MJ:
        result.verdicts.append(LineVerdict(line, False, say("only_mj_for")))
        return
    who, sep, order_text = rest.partition(":")
    if not sep or state is None:
        result.verdicts.append(LineVerdict(line, False, say("for_syntax")))
        return
    ruleset = ctx.ruleset(game_id)
    try:
        player = match_name(who.strip(), ruleset.players(state))
        order = ruleset.parse_order(state, player, order_text.strip(), [])
    except OrderError as e:
        result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
        return
    done = turns.immediate(ctx, g, state, player, order, now, author=MJ)
    if done is not None:
        if done[2] is not None:
            result.extra.append(done[2])
        result.verdicts.append(LineVerdict(line, True, say("done_for", player=player)))
        ctx.store.log(game_id, iso(now), "mj", "immediate for", {"player": player, "line": order_text.strip()})
        return
    current = ctx.store.current_orders(game_id, g.turn, player).get(player)
    same_mail = current is not None and current.source == "mj" and current.message_key == key
    orders = (current.orders if current and same_mail else []) + [order]
    lines = (current.lines if current and same_mail else []) + [order_text.strip()]
    ctx.store.set_orders(OrderSet(game_id, g.turn, player, orders, lines, "mj", key, iso(now)))
    ctx.store.log(game_id, iso(now), "mj", "orders for", {"player": player, "line": order_text.strip()})
    result.verdicts.append(LineVerdict(line, True, say("order_recorded_for", player=player)))
    turns.check_early(ctx, game_id, now)
