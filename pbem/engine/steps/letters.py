"""Who is told what: from a step's events and views to the private letters, the MJ digest and the forum post.

This is the one place that filters events by audience for a reader, so the no-leak guarantee
lives here: a player's letter holds only events whose audience includes them and the view
`Ruleset.view(state, player)`; the forum holds only public events and the public view, and so
does the picture of the board sent with it (`forum_inputs` feeds both); the MJ digest holds
everything.

A letter names what its reader needs, not the whole game: the events addressed to him, the public
events that name him, and the step's other public events only while they are few
(`LETTER_NEWS`, `LETTER_NEWS_CHARS`); beyond that the letter counts them and says that the forum
post has them all.  So a step's letters grow with its players, not with their square.  The forum
post and the picture are made once a step (`ForumFiles`): the public mail and the forum files
share them.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pbem import pictures, ticktext
from pbem.core import MJ, PUBLIC, Event
from pbem.engine import examples
from pbem.engine.steps import calendar
from pbem.engine.table import EngineError, Table
from pbem.engine.when import period_text
from pbem.msg import Msg
from pbem.names import fold
from pbem.outbox import Attachment, Letter
from pbem.render import Rendered
from pbem.store import GameRow, OutboxStatus, StepRecord
from pbem.store.records import events_json, rolls_json

log = logging.getLogger("pbem")

LETTER_NEWS = 30
"""A private letter carries a step's public events (besides those naming its reader) when there are at most
this many; otherwise it says how many there are and that the forum post has them all.  (The demo games
have 11 at most a step, in 2,300 characters.)"""
LETTER_NEWS_CHARS = 6000
"""... and when their texts hold at most this many characters in all (one event may name a whole roster)."""
LETTER_EVENT_CHARS = 4000
"""An event's text in a private letter is cut after this many characters, with a word on how to have it
whole (RAPPORT): a squad of thousands names its members to each of them.  (The demo games' longest
event a player reads has 2,200 characters.)"""
LETTER_STATUS_CHARS = 8000
"""A private letter's situation (the status) is cut at a line after this many characters, with a word on
how to have it whole (ETAT).  (The demo games' longest has 3,600 characters.)"""


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
                 digest: bool = True, rec: StepRecord | None = None) -> list[Letter]:
    """The private mails, the MJ digest and the forum post of a resolved step (or of the setup).

    A player who got the defaults is told which; one asked to decide in the next step is asked to
    answer, the others are not.  ``missed`` (steps in a row without orders, after this step) feeds
    the MJ's list of absent players (``nmr_alert``) and the abandonment notices (``nmr_abandon``).
    Without ``digest`` there is no MJ digest (and the failed mail it would report stays to report).
    ``rec`` is the step's record when the caller holds it (else it is read from the store).

    Each event is rendered once for all its readers, and each reader's events are found from one
    index of the step's audiences (`Readers`): the letters cost what they say, not players × events.
    """
    s = table.settings
    ruleset = table.ruleset
    r = table.renderer
    tag = table.tag
    rec = rec if rec is not None else table.store.record(g.id, seq)
    title = rec.title if rec else ruleset.step_title(state).get(s.language)
    defaulted = set(rec.defaults) if rec else set()
    if rec:  # a player away (declared absence) when the step closed: their defaults apply silently
        defaulted -= calendar.excused(table, rec.resolved_at)
    outcome = ruleset.outcome(state)
    pause = calendar.pause_said(table, now) if outcome is None else None  # (the players' calendar: #22)
    recorded = rec.orders if rec and defaulted else {}
    next_title = ruleset.step_title(state).get(s.language) if outcome is None else None
    deadline = table.local(g.deadline) if outcome is None else None
    asked = table.asked(state) if outcome is None else frozenset()
    missed = missed or {}
    out = table.out_of_play() if missed else frozenset()
    abandoned_now = sorted(n for n in out if n not in abandoned_before and missed.get(n, 0) > 0)
    back = sorted(n for n in abandoned_before if missed.get(n) == 0)
    prefix = key_prefix or f"rec{seq}"
    readers = Readers(events)
    texts = EventTexts(table, r.message("abridged", turn=turn))
    news_fit = readers.news_fit(texts)
    status_tail = r.message("abridged_status")
    letters: list[Letter] = []
    for p in table.store.players(g.id):
        mine, shown, left = readers.letter(p.name, news_fit)
        status = None if setup else abridged_lines(
            r.mail_text("status", view=ruleset.view(state, p.name), player=p.name, tag=tag).body,
            LETTER_STATUS_CHARS, status_tail)
        given = recorded.get(p.name) if p.name in defaulted else None
        applied = list(given.lines or ()) if given is not None else []
        orders = (examples.order_examples(ruleset, state, p.name, ruleset.help(state, p.name))
                  if setup and p.name in asked else [])  # the start mail: each order the player may give, an example
        t = table.mail_to("private", p.name, state, title=title, events=mine, status=status,
                          deadline=deadline, next_title=next_title, final=outcome, setup=setup,
                          rectificatif=rectificatif, defaulted=p.name in defaulted, default_lines=applied,
                          asked=p.name in asked, abandoned=p.name in abandoned_now, missed=missed.get(p.name, 0),
                          orders=orders, common_pass=table.common_pass,
                          news_shown=shown, news_left=left, render_events=texts.render, pause=pause)
        letters.append(Letter(f"{prefix}-private-{p.name}", g.id, turn, "private", p.address, t.subject, t.body,
                              record_seq=seq))
    made = step_forum(table, seq, state, events, title, outcome, rec)
    forum = with_chronicle(made.text, table.store.chronicle(g.id, seq))
    if digest:
        facts = digest_context(table, seq, rec)
        table.store.mark_reported([f.id for f in facts["failed"]])  # each failure is told to the MJ once
        absent = [(n, k, n in out) for n, k in sorted(missed.items()) if s.nmr_alert and k >= s.nmr_alert]
        t = r.mail_text("digest", tag=tag, title=title, deadline=deadline, next_title=next_title,
                        final=outcome, rectificatif=rectificatif, seed=g.seed if outcome is not None else None,
                        absent=absent, abandoned_now=abandoned_now, back=back,
                        pause=pause, **facts)
        for mj in s.mj:
            letters.append(Letter(f"{prefix}-digest", g.id, turn, "digest", mj, t.subject, t.body, record_seq=seq))
    pub = r.mail_text("public", tag=tag, title=title, forum=forum, rectificatif=rectificatif)
    picture = made.picture
    attached = () if picture is None else (Attachment(f"{g.id}-turn-{turn}.png", "image/png", picture.png),)
    for addr in [*s.mj, *([s.forum_address] if s.forum_address else [])]:
        letters.append(Letter(f"{prefix}-public", g.id, turn, "public", addr, pub.subject, pub.body,
                              record_seq=seq, attachments=attached))
    return letters


class Readers:
    """A step's events by reader, indexed once: who is told which event, which public event names whom.

    `told_to` for every player of a step walks every event for every player (players × events);
    this index gives each reader his own in the order of the step, at the cost of his own.
    """

    def __init__(self, events: Sequence[Event]):
        self.events = events
        self.public: list[int] = []
        self._private: dict[str, list[int]] = {}
        self._naming: dict[str, list[int]] = {}
        for i, e in enumerate(events):
            kind = e.audience.kind
            if kind == "public":
                self.public.append(i)
                for name in _names_in(e.data):
                    self._naming.setdefault(name, []).append(i)
            elif kind == "players":
                for name in e.audience.players:
                    self._private.setdefault(name, []).append(i)

    def told_to(self, player: str) -> list[Event]:
        """`told_to` (the events a player may read), from the index."""
        return [self.events[i] for i in _merged(self._private.get(player, []), self.public)]

    def told_anything(self, player: str) -> bool:
        return bool(self.public) or player in self._private

    def news_fit(self, texts: EventTexts) -> bool:
        """Do the step's public events fit in every letter (`LETTER_NEWS`, `LETTER_NEWS_CHARS`)?"""
        if len(self.public) > LETTER_NEWS:
            return False
        return sum(len(texts.text(self.events[i])) for i in self.public) <= LETTER_NEWS_CHARS

    def letter(self, player: str, news_fit: bool) -> tuple[list[Event], int, int]:
        """A private letter's events (his own, and the public ones it carries), how many public ones
        it carries, and how many it leaves to the forum post."""
        public = self.public if news_fit else self._naming.get(player, [])
        events = [self.events[i] for i in _merged(self._private.get(player, []), public)]
        return events, len(public), len(self.public) - len(public)


def _names_in(data: Mapping[str, Any]) -> set[str]:
    """The names an event's data gives as values (a text, or a list of texts): whom the event names."""
    names: set[str] = set()
    for value in data.values():
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, list):
            names.update(v for v in value if isinstance(v, str))
    return names


def _merged(a: list[int], b: list[int]) -> list[int]:
    """Two increasing lists of event positions as one (the step's order)."""
    if not a or not b:
        return a or b
    return sorted({*a, *b})


class EventTexts:
    """Each event of a step rendered once, whoever reads it (a macro sees only the event's data); in a
    letter, a text longer than `LETTER_EVENT_CHARS` is cut and ends with ``tail`` (how to have it whole)."""

    def __init__(self, table: Table, tail: str):
        self.renderer = table.renderer
        self.tail = tail
        # (by identity; the event is kept with its texts, so its id stays its own)
        self._texts: dict[int, tuple[Event, str, str]] = {}

    def _made(self, event: Event) -> tuple[Event, str, str]:
        hit = self._texts.get(id(event))
        if hit is None or hit[0] is not event:
            text = self.renderer.event_text(event)
            hit = self._texts[id(event)] = (event, text, abridged(text, LETTER_EVENT_CHARS, self.tail))
        return hit

    def text(self, event: Event) -> str:
        """The event's whole text."""
        return self._made(event)[1]

    def render(self, events: Sequence[Event]) -> list[str]:
        """The letters' ``render_events``: the events' texts as a letter gives them, the empty ones left out."""
        return [t for t in (self._made(e)[2] for e in events) if t.strip()]


def abridged(text: str, limit: int, tail: str) -> str:
    """``text`` cut after at most ``limit`` characters, between two words (after a comma when it can:
    most long texts are lists of names), ending with ``tail``; a text within the limit as it is."""
    if len(text) <= limit:
        return text
    cut = text.rfind(", ", 0, limit)
    if cut < limit // 2:
        cut = text.rfind(" ", 0, limit)
    if cut < limit // 2:
        cut = limit
    return f"{text[:cut].rstrip(' ,;:')} {tail}"


def abridged_lines(text: str, limit: int, tail: str) -> str:
    """``text`` cut after its last whole line within ``limit`` characters, the cut said by ``tail`` on a
    line of its own; a text within the limit as it is."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", 0, limit)
    return f"{text[:cut if cut > 0 else limit].rstrip()}\n{tail}\n"


def author_share(table: Table, events: Sequence[Event], author: str) -> str | None:
    """What the author of an immediate order reads of its events in the ack (MJ-only events only for the MJ)."""
    mine = [e for e in events if e.audience.includes(author) and (author == MJ or e.audience.kind != "mj")]
    return "\n\n".join(table.renderer.events_text(mine)) if mine else None


ForumInputs = tuple[dict[str, Any], list[Event]]
"""`forum_inputs`' (public view, public events): given to the functions below by a caller that already has them
(the archive, which makes a step's post, picture and chart from one view)."""


def forum_inputs(table: Table, state: Any, events: Sequence[Event]) -> ForumInputs:
    """What the forum may show of a step: the public view and the public events (post and picture alike)."""
    return table.ruleset.view(state, PUBLIC), public_events(events)


def forum_text(table: Table, state: Any, events: Sequence[Event], title: str, outcome: Any,
               chronicle: str | None = None, inputs: ForumInputs | None = None) -> str:
    """The BBCode forum post of a step: public events and the public view only.

    The MJ's ``chronicle`` (written when he approved the results) heads it as he wrote it: his BBCode is his.
    """
    view, public = inputs or forum_inputs(table, state, events)
    text = table.renderer.forum_text(title=title, events=public, view=view, final=outcome,
                                            tag=table.tag)
    return with_chronicle(text, chronicle)


def with_chronicle(text: str, chronicle: str | None) -> str:
    return f"{chronicle}\n\n{text}" if chronicle else text


def forum_picture(table: Table, state: Any, events: Sequence[Event],
                  title: str, inputs: ForumInputs | None = None) -> pictures.Picture | None:
    """The picture of a step's public board, from the forum's inputs only (None: no picture for this game)."""
    if not _has_picture(table):
        return None
    view, public = inputs or forum_inputs(table, state, events)
    return _picture(table, view, public, title)


def forum_picture_digest(table: Table, state: Any, events: Sequence[Event], title: str,
                         inputs: ForumInputs | None = None) -> str | None:
    """The `pictures.inputs_digest` of the picture `forum_picture` would draw, without drawing it (None: no
    picture for this game): what `pbem.archive` compares to keep the pictures whose inputs did not change."""
    if not _has_picture(table):
        return None
    view, public = inputs or forum_inputs(table, state, events)
    return pictures.inputs_digest(*_picture_inputs(table, view, public, title))


def _has_picture(table: Table) -> bool:
    s = table.settings
    return s.pictures and pictures.has_picture(s.ruleset)


def _picture_inputs(table: Table, view: Mapping[str, Any], public: Sequence[Event],
                    title: str) -> tuple[str, Mapping[str, Any], Sequence[Event], str]:
    """What `pictures.board_picture` is given: the one list of what a picture depends on, which its digest
    (`forum_picture_digest`) covers too."""
    genders = table.renderer.genders  # (public: the post says « est morte » too) the picture's « (morte) »
    return table.settings.ruleset, {**view, "genders": dict(genders)} if genders else view, public, title


def _picture(table: Table, view: Mapping[str, Any], public: Sequence[Event], title: str) -> pictures.Picture | None:
    try:
        return pictures.board_picture(*_picture_inputs(table, view, public, title))
    except Exception:  # a drawing bug must never hold back a step's mail: the post goes without its picture
        log.exception("the picture of %s (%s) could not be drawn; the forum post goes without it", table.id, title)
        return None


@dataclass(frozen=True)
class ForumFiles:
    """A step's forum post (without the MJ's chronicle, which may come later) and its picture, made once.

    The public mail attaches them and the forum files are written from them after the commit
    (`publish.write_forum`): the picture is drawn once a step.  They are kept on the game's table
    with what they were made from (the record's state after and public events), so a record that
    changed since (a re-run) is never given another's post.
    """

    state: str | None
    public: str
    title: str
    text: str
    picture: pictures.Picture | None

    def made_from(self, rec: StepRecord) -> bool:
        return (self.title == rec.title and self.state == rec.state_after
                and self.public == _public_json(rec.events))


def _public_json(events: Sequence[Event]) -> str:
    return json.dumps(events_json(public_events(events)), ensure_ascii=False)


def step_forum(table: Table, seq: int, state: Any, events: Sequence[Event], title: str, outcome: Any,
               rec: StepRecord | None) -> ForumFiles:
    """The forum post and picture of a step (``rec``, its record, when it has one), made once and kept."""
    hit = table.made.get(("forum", seq))
    if isinstance(hit, ForumFiles) and rec is not None and hit.made_from(rec):
        return hit
    view, public = forum_inputs(table, state, events)
    text = table.renderer.forum_text(title=title, events=public, view=view, final=outcome, tag=table.tag)
    picture = _picture(table, view, public, title) if _has_picture(table) else None
    made = ForumFiles(rec.state_after if rec is not None else None, _public_json(events), title, text, picture)
    if rec is not None:
        table.keep(("forum", seq), made)
    return made


def forum_files(table: Table, rec: StepRecord) -> ForumFiles:
    """The forum post and picture of a recorded step: those its letters made, else made now."""
    hit = table.made.get(("forum", rec.seq))
    if isinstance(hit, ForumFiles) and hit.made_from(rec):
        return hit
    state = table.decode_json(rec.state_after)
    return step_forum(table, rec.seq, state, rec.events, rec.title, table.ruleset.outcome(state), rec)


@dataclass(frozen=True)
class FailedMail:
    """A mail the MJ's digest says was not delivered (the digest templates read these names)."""

    id: str
    rcpt: str
    subject: str
    status: OutboxStatus  # "failed" (refused when sent) or "bounced"
    last_error: str  # why, in the MJ's language
    player: str | None  # whose address it was, if a player's


def unreported_failures(table: Table) -> list[FailedMail]:
    """The mails of a game that failed (bounced, refused) and the MJ was not told of yet, each with its player."""
    by_address = {p.address: p.name for p in table.store.players(table.id, include_removed=True)}
    lang = table.settings.language  # (why it failed is kept in English in the outbox row, and said here)
    return [FailedMail(f.id, f.rcpt, f.subject, f.status, ticktext.said(f.last_error, lang), by_address.get(f.rcpt))
            for f in table.store.unreported_failures(table.id)]


def digest_context(table: Table, seq: int, rec: StepRecord | None = None) -> dict[str, Any]:
    """What the MJ digest of a record shows: every order with its source, defaults, rolls, events, failed mail."""
    rec = rec if rec is not None else table.store.record(table.id, seq)
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
                                    abandoned_now=[], back=[], **digest_context(table, rec.seq, rec)).body


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
    t = table.mail_to("resent", p.name, table.known().state, title=title, body=body, forum=False)
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
    t = table.mail_to("for_you", player, state, lines=list(lines), deadline=table.local(g.deadline), title=title)
    return Letter(f"for-{key}-{player}", table.id, g.turn, "notice", p.address, t.subject, t.body)
