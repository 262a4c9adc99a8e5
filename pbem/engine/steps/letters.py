"""Who is told what: from a step's events and views to the private letters, the MJ digest and the forum post.

This is the one place that filters events by audience for a reader, so the no-leak guarantee
lives here: a player's letter holds only events whose audience includes them and the view
`Ruleset.view(state, player)`; the forum holds only public events and the public view, and so
does the picture of the board sent with it (`forum_inputs` feeds both); the MJ digest holds
everything.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pbem import pictures
from pbem.core import MJ, PUBLIC, Event
from pbem.engine import examples
from pbem.engine.steps import calendar
from pbem.engine.table import EngineError, Table
from pbem.engine.when import period_text
from pbem.msg import Msg
from pbem.names import fold
from pbem.outbox import Attachment, Letter
from pbem.render import Rendered
from pbem.store import GameRow, StepRecord
from pbem.store.records import rolls_json

log = logging.getLogger("pbem")


def told_to(events: Sequence[Event], player: str) -> list[Event]:
    """The events a player may read (the MJ reads all)."""
    return [e for e in events if e.audience.includes(player)]


def told_privately(events: Sequence[Event], player: str) -> list[Event]:
    """The events addressed to this player by name (not the public ones)."""
    return [e for e in events if e.audience.kind == "players" and player in e.audience.players]


def public_events(events: Sequence[Event]) -> list[Event]:
    return [e for e in events if e.audience.kind == "public"]


def step_letters(table: Table, g: GameRow, seq: int, turn: int, events: Sequence[Event], state: Any, now: datetime,
                 *, setup: bool = False, rectificatif: bool = False, key_prefix: str = "",
                 missed: Mapping[str, int] | None = None, abandoned_before: frozenset[str] = frozenset(),
                 digest: bool = True) -> list[Letter]:
    """The private mails, the MJ digest and the forum post of a resolved step (or of the setup).

    A player who got the defaults is told which; one asked to decide in the next step is asked to
    answer, the others are not.  ``missed`` (steps in a row without orders, after this step) feeds
    the MJ's list of absent players (``nmr_alert``) and the abandonment notices (``nmr_abandon``).
    Without ``digest`` there is no MJ digest (and the failed mail it would report stays to report).
    """
    s = table.settings
    ruleset = table.ruleset
    r = table.renderer
    tag = table.tag
    rec = table.store.record(g.id, seq)
    title = rec.title if rec else ruleset.step_title(state).get(s.language)
    defaulted = set(rec.defaults) if rec else set()
    if rec:  # a player away (declared absence) when the step closed: their defaults apply silently
        defaulted -= calendar.excused(table, rec.resolved_at)
    recorded = rec.orders if rec and defaulted else {}
    outcome = ruleset.outcome(state)
    next_title = ruleset.step_title(state).get(s.language) if outcome is None else None
    deadline = table.local(g.deadline) if outcome is None else None
    asked = table.asked(state) if outcome is None else frozenset()
    missed = missed or {}
    out = table.out_of_play() if missed else frozenset()
    abandoned_now = sorted(n for n in out if n not in abandoned_before and missed.get(n, 0) > 0)
    back = sorted(n for n in abandoned_before if missed.get(n) == 0)
    prefix = key_prefix or f"rec{seq}"
    letters: list[Letter] = []
    for p in table.store.players(g.id):
        mine = told_to(events, p.name)
        status = None if setup else r.mail_text("status", view=ruleset.view(state, p.name), player=p.name,
                                                tag=tag).body
        given = recorded.get(p.name) if p.name in defaulted else None
        applied = list(given.lines or ()) if given is not None else []
        orders = (examples.order_examples(ruleset, state, p.name, ruleset.help(state, p.name))
                  if setup and p.name in asked else [])  # the start mail: each order the player may give, an example
        t = r.mail_text("private", tag=tag, player=p.name, title=title, events=mine, status=status,
                        deadline=deadline, next_title=next_title, final=outcome, setup=setup,
                        rectificatif=rectificatif, defaulted=p.name in defaulted, default_lines=applied,
                        asked=p.name in asked, abandoned=p.name in abandoned_now, missed=missed.get(p.name, 0),
                        salutation=table.salutation(state, p.name), orders=orders, common_pass=table.common_pass)
        letters.append(Letter(f"{prefix}-private-{p.name}", g.id, turn, "private", p.address, t.subject, t.body,
                              record_seq=seq))
    forum = forum_text(table, state, events, title, outcome, table.store.chronicle(g.id, seq))
    if digest:
        facts = digest_context(table, seq)
        table.store.mark_reported([f["id"] for f in facts["failed"]])  # each failure is told to the MJ once
        absent = [(n, k, n in out) for n, k in sorted(missed.items()) if s.nmr_alert and k >= s.nmr_alert]
        t = r.mail_text("digest", tag=tag, title=title, deadline=deadline, next_title=next_title,
                        final=outcome, rectificatif=rectificatif, seed=g.seed if outcome is not None else None,
                        absent=absent, abandoned_now=abandoned_now, back=back,
                        pause=calendar.pause_said(table, now) if outcome is None else None, **facts)
        for mj in s.mj:
            letters.append(Letter(f"{prefix}-digest", g.id, turn, "digest", mj, t.subject, t.body, record_seq=seq))
    pub = r.mail_text("public", tag=tag, title=title, forum=forum, rectificatif=rectificatif)
    picture = forum_picture(table, state, events, title)
    attached = () if picture is None else (Attachment(f"{g.id}-turn-{turn}.png", "image/png", picture.png),)
    for addr in [*s.mj, *([s.forum_address] if s.forum_address else [])]:
        letters.append(Letter(f"{prefix}-public", g.id, turn, "public", addr, pub.subject, pub.body,
                              record_seq=seq, attachments=attached))
    return letters


def author_share(table: Table, events: Sequence[Event], author: str) -> str | None:
    """What the author of an immediate order reads of its events in the ack (MJ-only events only for the MJ)."""
    mine = [e for e in events if e.audience.includes(author) and (author == MJ or e.audience.kind != "mj")]
    return "\n\n".join(table.renderer.events_text(mine)) if mine else None


def forum_inputs(table: Table, state: Any, events: Sequence[Event]) -> tuple[dict[str, Any],
                                                                                           list[Event]]:
    """What the forum may show of a step: the public view and the public events (post and picture alike)."""
    return table.ruleset.view(state, PUBLIC), public_events(events)


def forum_text(table: Table, state: Any, events: Sequence[Event], title: str, outcome: Any,
               chronicle: str | None = None) -> str:
    """The BBCode forum post of a step: public events and the public view only.

    The MJ's ``chronicle`` (written when he approved the results) heads it as he wrote it: his BBCode is his.
    """
    view, public = forum_inputs(table, state, events)
    text = table.renderer.forum_text(title=title, events=public, view=view, final=outcome,
                                            tag=table.tag)
    return f"{chronicle}\n\n{text}" if chronicle else text


def forum_picture(table: Table, state: Any, events: Sequence[Event],
                  title: str) -> pictures.Picture | None:
    """The picture of a step's public board, from the forum's inputs only (None: no picture for this game)."""
    s = table.settings
    if not s.pictures or not pictures.has_picture(s.ruleset):
        return None
    view, public = forum_inputs(table, state, events)
    genders = table.renderer.genders  # (public: the post says « est morte » too) the picture's « (morte) »
    try:
        return pictures.board_picture(s.ruleset, {**view, "genders": dict(genders)} if genders else view, public, title)
    except Exception:  # a drawing bug must never hold back a step's mail: the post goes without its picture
        log.exception("the picture of %s (%s) could not be drawn; the forum post goes without it", table.id, title)
        return None


def unreported_failures(table: Table) -> list[dict[str, Any]]:
    """The mails of a game that failed (bounced, refused) and the MJ was not told of yet, each with its player."""
    by_address = {p.address: p.name for p in table.store.players(table.id, include_removed=True)}
    return [{**f, "player": by_address.get(f["rcpt"])} for f in table.store.unreported_failures(table.id)]


def digest_context(table: Table, seq: int) -> dict[str, Any]:
    """What the MJ digest of a record shows: every order with its source, defaults, rolls, events, failed mail."""
    rec = table.store.record(table.id, seq)
    assert rec is not None
    r = table.renderer
    failed = unreported_failures(table)
    absent = [(a.player, period_text(a.starts_at, a.ends_at, table.config.timezone,
                                     table.settings.language))
              for a in table.store.absences(table.id, at=rec.resolved_at)]
    return {
        "orders": orders_view(rec), "defaults": list(rec.defaults), "absences": absent,
        "rolls": rolls_json(rec.rolls),
        "events": [(e.audience.kind, list(e.audience.players), r.event_text(e)) for e in rec.events],
        "failed": failed, "seq": seq, "context": rec.dice_context,
    }


def orders_view(rec: StepRecord) -> dict[str, dict[str, Any]]:
    """A record's orders as the digest reads them: each player's orders, and their source, lines and the defaults
    a PASSER stood for when the record says so."""
    out: dict[str, dict[str, Any]] = {}
    for player, given in rec.orders.items():
        view: dict[str, Any] = {"orders": [[o.verb, list(o.args), o.text] for o in given.orders]}
        if given.source is not None:
            view.update(source=given.source, message=given.message, received_at=given.received_at)
        if given.lines is not None:
            view["lines"] = list(given.lines)
        if given.applied is not None:
            view["applied"] = list(given.applied)
        out[player] = view
    return out


def digest_text(table: Table, turn: int | None = None) -> str:
    """The MJ digest of a resolved step (default: the last one), as mailed."""
    rec = table.store.last_step(table.id, turn)
    st = table.step_noun()
    if rec is None:
        raise EngineError(Msg(f"aucun{st.e} {st.noun}{'' if turn is None else ' ' + str(turn)} résolu{st.e} dans {table.id}",
                              f"no resolved step{'' if turn is None else ' ' + str(turn)} in {table.id}"))
    return table.renderer.mail_text("digest", tag=table.tag, title=rec.title, deadline=None,
                                    next_title=None, final=None, rectificatif=False, seed=None, absent=[],
                                    abandoned_now=[], back=[], **digest_context(table, rec.seq)).body


# --- texts a player asks for by mail ---


def status_text(table: Table, player: str) -> str:
    """ETAT: the player's own view of the game now (before any results held for the MJ)."""
    state = table.known().state
    view = table.ruleset.view(state, player)
    return table.renderer.mail_text("status", view=view, player=player, tag=table.tag).body


def orders_text(table: Table, player: str) -> str:
    """ORDRES: the player's recorded orders for the open step (while results wait for the MJ, for the step they
    are the results of: the player knows of no other yet)."""
    known = table.known()
    g = known.row
    state = known.state
    title = (table.ruleset.step_title(state).get(table.settings.language) if state is not None
             else str(g.turn))
    current = table.store.current_orders(table.id, g.turn, player).get(player)
    if current is not None and current.source == "pass":
        return table.renderer.message("you_pass", turn=g.turn, title=title)
    if current is None or not current.orders:
        return table.renderer.message("no_orders", turn=g.turn, title=title)
    head = table.renderer.message("your_orders", turn=g.turn, title=title)
    return head + "\n" + "\n".join(f"  {o.text}" for o in current.orders)


def report_text(table: Table, player: str, turn: int, *, published_only: bool = True) -> str | None:
    """RAPPORT: the private results a player got for a past step, rendered again from its record (never those
    still waiting for the MJ's approval, which the player did not get, unless not ``published_only``: the MJ's
    own copy)."""
    if turn == 0:
        setups = table.store.records(table.id, "setup")
        rec = setups[0] if setups else None
    else:
        rec = table.store.record_for_turn(table.id, turn)
    if rec is None or (published_only and not rec.published):
        return None
    events = [e for e in told_to(rec.events, player) if e.audience.kind != "mj" or player == MJ]
    return "\n\n".join([rec.title, *table.renderer.events_text(events)])


def check_recipient(table: Table, player: str, to: str) -> None:
    """A player's private results (his letters, his tests) go to that player or to the MJ, never to another
    player: raises when ``to`` names someone else.  Every way of sending them again goes through here (the
    MJ's RENVOIE by mail, `pbem player resend`)."""
    if fold(table.player_named(to).name) != fold(table.player_named(player).name):
        owner = table.player_named(player).name
        raise EngineError(Msg(f"les résultats de {owner} ne vont qu'à {owner} ou à vous, jamais à un autre joueur "
                              f"(« RENVOIE les résultats de {owner} du tour N à {owner} », ou « … à moi »)",
                              f"{owner}'s results go to {owner} or to you, never to another player "
                              f"(\"RESEND {owner}'s results of turn N to {owner}\", or \"... to me\")"))


def resend_letter(table: Table, player: str, turn: int, key: str, *, to: str | None = None,
                  history: tuple[str, str] | None = None) -> Letter:
    """A player's private results of step ``turn`` (0: the start), mailed again to ``to`` (default: the player),
    who must be that player (`check_recipient`); only results already published.  ``history``: (title, text)
    of a game played by immediate orders, the player's tests, instead."""
    p = table.player_named(to or player)
    check_recipient(table, player, p.name)
    text = report_text(table, p.name, turn) if history is None else "\n\n".join(history)
    if text is None:
        st = table.step_noun()
        raise EngineError(Msg(f"pas de résultats publiés {st.of_bare} {turn} pour {p.name} dans {table.id}",
                              f"no published results of step {turn} for {p.name} in {table.id}"))
    title, _, body = text.partition("\n\n")
    t = table.renderer.mail_text("resent", tag=table.tag, player=p.name, title=title, body=body,
                                 salutation=table.salutation(table.known().state, p.name), forum=False)
    return Letter(f"resend-{key}-{p.name}-{title}", table.id, table.row.turn, "notice", p.address, t.subject, t.body)


# --- a newcomer's briefing ---


def briefing_text(table: Table, player: str, newcomer: str, history: str | None) -> Rendered:
    """What a newcomer taking over ``player``'s seat is told: what the seat was told, its situation, the orders expected.

    Built from the records by audience, like every letter: for each step (the start included) the
    events the seat could read (public ones too, as in its private letters), never an MJ-only one;
    ``history`` is the seat's own history of immediate orders (`actions.history_text`).  Nothing else:
    what another seat or the MJ alone knew stays where it was.
    """
    known = table.known()  # (results held for the MJ: the seat knows nothing of them yet, nor does its newcomer)
    g = known.row
    ruleset = table.ruleset
    s = table.settings
    r = table.renderer
    tag = table.tag
    state = known.state
    chapters = []
    for rec in table.store.records(table.id):
        if rec.kind == "action" or not rec.published:
            continue
        events = [e for e in told_to(rec.events, player) if e.audience.kind != "mj"]
        chapters.append((rec.title, r.events_text(events)))
    status = (r.mail_text("status", view=ruleset.view(state, player), player=player, tag=tag).body
              if state is not None else None)
    asked = g.phase == "running" and state is not None and player in table.prompted(state)
    return r.mail_text(
        "briefing", tag=tag, player=player, newcomer=newcomer, game_title=s.title, chapters=chapters,
        history=history, status=status, asked=asked, helps=ruleset.help(state, player) if asked else [],
        orders=orders_text(table, player) if asked else None, passwords=s.passwords,
        title=ruleset.step_title(state).get(s.language) if state is not None else "", deadline=table.local(g.deadline))


def for_you_letter(table: Table, player: str, lines: Sequence[str], key: str) -> Letter | None:
    """The mail that tells a player which orders the MJ gave for them for the open step (POUR, `orders set`)."""
    g = table.row
    p = table.store.player(table.id, player)
    if p is None or p.status != "active" or g.phase != "running":
        return None
    state = table.state
    title = table.ruleset.step_title(state).get(table.settings.language) if state is not None else ""
    t = table.renderer.mail_text("for_you", tag=table.tag, player=player, lines=list(lines),
                                        deadline=table.local(g.deadline), title=title,
                                        salutation=table.salutation(state, player))
    return Letter(f"for-{key}-{player}", table.id, g.turn, "notice", p.address, t.subject, t.body)
