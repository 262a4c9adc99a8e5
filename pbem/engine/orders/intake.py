"""One stored mail -> who wrote it, for which game, authenticated or not, its lines interpreted, and the answer queued.

Stored mail is processed ``BATCH`` messages per transaction, in stages (read every message, then
interpret each, then render, compose and store the answers and the "done" marks together, see
`pbem.outbox.batch`).  A message that raises is processed again alone; one that still fails is
kept with status ``error`` and the MJ is told, so one bad mail never blocks the others.  A mail whose
reading killed passes never finished is read alone, and after `MAX_READING_ATTEMPTS` set aside
unread (`set_aside_retried`): answered once « message trop long ou illisible », never read again.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta
from typing import Any

from pbem import limits
from pbem.clock import iso
from pbem.config import GameConfig
from pbem.core import MJ
from pbem.engine import passwords, schedule, words
from pbem.engine.answers import MailResult
from pbem.engine.orders import commands, mjdesk
from pbem.engine.orders.interpret import interpret
from pbem.engine.steps import calendar
from pbem.engine.steps.turns import gc_paused
from pbem.engine.table import House, Table
from pbem.faults import crashpoint
from pbem.mail.bounces import match as match_bounce
from pbem.mail.bounces import read_bounce
from pbem.mail.reading import (
    COSTLY_PROBLEMS,
    IncomingMail,
    arrival_order,
    costly,
    plus_tag,
    read_envelope,
    read_message,
    subject_tags,
    subject_words,
)
from pbem.mail.secrets import CredentialError, secret_provider
from pbem.mail.senders import auth_verdict, check_password, given_password, is_automatic, is_bulk
from pbem.msg import Msg
from pbem.outbox import Letter
from pbem.render import Renderer
from pbem.store import PlayerRow

log = logging.getLogger("pbem")

BATCH = 100
"""Messages processed per transaction by `process_pending`."""

BATCH_ATTEMPTS = 2
"""Passes that read a stored mail in its batch; the next ones read it alone (`set_aside_retried`)."""
MAX_READING_ATTEMPTS = 5
"""Passes that may begin reading one stored mail: the next one sets it aside unread (`set_aside_retried`)."""


def process_pending(house: House, now: datetime) -> list[str]:
    """Process every stored, unprocessed message; returns their keys.

    Messages are processed ``BATCH`` at a time, each batch in one transaction: a message's
    processing and its ack are still committed together (several per commit), and a crash
    mid-batch rolls the whole batch back (nothing of it was sent).  If a message fails, the
    batch is redone one message per transaction; a message that still fails is marked
    ``error`` (kept, with the reason, for the MJ) so that one bad mail never blocks the others,
    the deadlines or the outbox.
    """
    done: list[str] = []
    pending = set_aside_retried(house, house.store.pending_messages(), now, done)
    for i in range(0, len(pending), BATCH):
        chunk = pending[i:i + BATCH]
        house.store.begin_reading([key for key, _raw, _r in chunk])  # committed: a pass killed now leaves a trace
        try:
            with gc_paused(), house.store.atomic():
                with house.outgoing.holding():
                    # reading is pure: all of a batch first, then the game work (each stage stays hot in the caches)
                    mails = [_read(raw, house.config.read_bytes) for _key, raw, _r in chunk]
                    chunk, mails = in_arrival_order(chunk, mails)
                    house.outgoing.note_seen([m.message_id for m in mails])
                    for (key, raw, received_at), mail in zip(chunk, mails, strict=True):
                        _process_stored(house, key, raw, now, received_at, mail)
                        crashpoint("between-messages")
                crashpoint("batch-before-commit")  # answers queued, messages marked, nothing committed
        except Exception:
            for key, raw, received_at in chunk:
                _process_alone(house, key, raw, now, received_at)
                done.append(key)
            continue
        crashpoint("after-message")
        done.extend(key for key, _raw, _r in chunk)
    return done


def in_arrival_order(chunk: list[tuple[str, bytes, datetime]],
                     mails: list[IncomingMail]) -> tuple[list[tuple[str, bytes, datetime]], list[IncomingMail]]:
    """A batch in the order its mails are read: by arrival, and those that arrived at the same time by their
    Date header, then Message-ID (`arrival_order`): of two mails of a player, the one written last is read
    last, so its orders are the ones that stay."""
    order = sorted(range(len(chunk)), key=lambda i: arrival_order(chunk[i][2], mails[i]))
    if order == list(range(len(chunk))):
        return chunk, mails
    return [chunk[i] for i in order], [mails[i] for i in order]


def set_aside_retried(house: House, pending: list[tuple[str, bytes, datetime]], now: datetime,
                      done: list[str]) -> list[tuple[str, bytes, datetime]]:
    """The stored mails to read in batches; those that passes began to read and never finished (killed
    while reading: a mail that costs too much, a bug) are dealt with here, one per transaction.

    Each pass that begins a batch counts one attempt for every mail of it, whichever one it was killed
    reading.  After `BATCH_ATTEMPTS` of those, a mail is read alone, each attempt counted for it only
    (the others of its batch go through); once `MAX_READING_ATTEMPTS` passes began it, it is not read
    at all: its headers only tell who to answer « message trop long ou illisible », and it is marked
    done.  Two attempts more (if even that was killed) and it is marked ``error`` without a word.  The
    keys dealt with here are added to ``done``.
    """
    tried = house.store.reading_attempts([key for key, _raw, _r in pending])
    fresh = []
    for key, raw, received_at in pending:
        attempts = tried[key]
        if attempts < BATCH_ATTEMPTS:
            fresh.append((key, raw, received_at))
            continue
        house.store.begin_reading([key])
        if attempts < MAX_READING_ATTEMPTS:
            _process_alone(house, key, raw, now, received_at)
        elif attempts < MAX_READING_ATTEMPTS + 2:
            mail = read_envelope(raw, f"too costly: {attempts} passes stopped while reading it")
            with house.store.atomic():
                _process_stored(house, key, raw, now, received_at, mail)
        else:
            with house.store.atomic():
                house.store.mark_message(key, message_id="", status="error", game="", sender="", processed_at=now,
                                         verdict=f"error: {attempts} passes stopped while reading it; set aside unread")
        done.append(key)
    return fresh


def process_message(house: House, key: str, raw: bytes, now: datetime, received_at: datetime | None = None) -> str:
    """Interpret one stored message and queue its answer, in one transaction.  Returns the verdict."""
    with house.store.atomic():
        verdict = _process_stored(house, key, raw, now, received_at)
    crashpoint("after-message")
    return verdict


def _process_alone(house: House, key: str, raw: bytes, now: datetime, received_at: datetime | None) -> str:
    try:
        return process_message(house, key, raw, now, received_at)
    except Exception as e:  # a bug must not stall the game: keep the mail, say why, tell the MJ, go on
        log.exception("processing message %s failed", key)
        verdict = f"error: {type(e).__name__}: {e}"[:500]
        mail = read_message(raw, house.config.read_bytes)
        try:
            game_id = route(house, mail)
        except Exception:
            game_id = None
        with house.store.atomic():
            house.store.mark_message(key, message_id=mail.message_id, status="error", game=game_id or "",
                                     sender=mail.from_addr, verdict=verdict, processed_at=now)
            if game_id is not None:
                table = house.table(game_id)
                r = table.renderer
                t = r.mail_text("notice_mj", tag=table.tag, deadline=None, text=r.message(
                    "mail_failed", sender=mail.from_addr, subject=mail.subject, error=verdict, stored=key))
                house.outgoing.queue([Letter(f"error-{mail.message_id}", game_id, 0, "notice", mj, t.subject, t.body)
                                      for mj in table.settings.mj], now)
        return verdict


def _process_stored(house: House, key: str, raw: bytes, now: datetime, received_at: datetime | None = None,
                    mail: IncomingMail | None = None) -> str:
    """Interpret one stored message, queue its answer and mark it done (inside the caller's transaction)."""
    mail = mail or _read(raw, house.config.read_bytes)
    verdict, game_id, sender = _process(house, key, mail, now, received_at or now, raw)
    house.outgoing.mark_done(key, message_id=mail.message_id, game=game_id or "", sender=sender, verdict=verdict,
                             now=now)
    return verdict


def _read(raw: bytes, read_bytes: int) -> IncomingMail:
    """`read_message` up to ``read_bytes`` (the config's cap), at the crash point ``reading`` (a pass killed while
    it reads a mail)."""
    crashpoint("reading")
    return read_message(raw, read_bytes)


def _process(house: House, key: str, mail: IncomingMail, now: datetime,
             received: datetime | None = None, raw: bytes = b"") -> tuple[str, str | None, str]:
    """The verdict on one mail, the game it was for, and its sender."""
    sender = mail.from_addr
    if house.outgoing.seen(mail.message_id, key):
        return "duplicate", None, sender
    reason = is_automatic(mail, {house.config.address})
    if reason:
        if reason.startswith("bounce"):  # never answered; told to the MJ if it is about a mail we sent
            return _bounced(house, raw, reason, sender)
        return f"silent: {reason}", None, sender
    if not sender or "@" not in sender:
        return "silent: no sender address", None, sender
    game_id, how = _route(house, mail)
    if game_id is None:
        if any(sender in g.mj for g in house.config.games.values()):
            _reply_plain(house, mail, "which_game", now, None)
            return "no game", None, sender
        mine = games_of(house, sender)
        if mine:  # a player of several games, no tag: which one? (every time: he plays, he is no stranger)
            _which_game(house, mail, mine, None, now)
            return f"no game: plays in {', '.join(mine)}, asked which", None, sender
        return _stranger(house, mail, None, now), None, sender
    table = house.table(game_id)
    s = table.settings
    g = house.store.game(game_id)
    if g is not None and received is not None:
        # a mail that arrived after a deadline no pass fired (an outage): the step closes first, without it.
        # A failure here must not cost the mail: it is then read against the open step, and the
        # tick's own deadline pass reports the failure (the forum file is written by the tick).
        undo = house.outgoing.checkpoint()
        try:
            schedule.close_before(table, received, now)
        except Exception:
            undo()  # its savepoint is rolled back: so are the letters it queued in this batch
            log.exception("game %s: closing the step before a late mail failed", game_id)
        g = house.store.game(game_id)
    # who is writing?
    player = house.store.player_by_address(game_id, sender) if g is not None else None
    is_mj = sender in s.mj
    if player is None and not is_mj:  # a stranger: read only a registration while it is open
        bulk = is_bulk(mail)
        if bulk:
            return f"silent: stranger, {bulk}", game_id, sender
        if g is None or g.phase != "registration" or not words.asks_to_join(mail.text, mail.subject):
            mine = [gid for gid in games_of(house, sender) if gid != game_id]
            if mine:  # another game's tag: he plays, but not in this game
                _which_game(house, mail, mine, game_id, now)
                return f"not in this game: plays in {', '.join(mine)}, asked which", game_id, sender
            return _stranger(house, mail, game_id if how != "only" else None, now), game_id, sender
    if g is None:
        _reply_plain(house, mail, "no_game_yet", now, game_id)
        return "game not created", game_id, sender
    if (player or is_mj) and s.auth != "none":
        v = auth_verdict(mail, s.trusted_authserv, s.auth)
        if not v.ok:
            return _reject_forged(table, mail, player, v.reason, now), game_id, sender
    # password lines are always removed (never echoed); checked when the game asks for them
    mj_pass = False  # (destructive commands need it, or a confirmation: `pbem.engine.desk.confirm`)
    if s.passwords:
        expected = player.password if player is not None else None
        unset = player.name if player is not None and not player.password and not is_mj else None
        if is_mj:  # the MJ's mail shows everything hidden: it needs a password too
            expected = mj_password(s)
            if expected is None:
                return _reject_forged(table, mail, None, "mj_password_missing", now), game_id, sender
        checked = passwords.check(table, sender, mail.text, expected, now, may_set=unset)
        if not checked.ok:
            return _refused_password(table, mail, player, checked, now), game_id, sender
        text = checked.text
        mj_pass = is_mj
    else:
        _ok, text = check_password(mail.text, None)
        mj_pass = is_mj and _mj_password_given(table, s, mail, sender, now)
    if not text.strip() and unreadable(mail):
        return _unreadable(house, mail, now, game_id), game_id, sender
    limit = house.config.max_order_lines
    count = sum(1 for line in text.split("\n") if line.strip()) if text.count("\n") >= limit else 0
    if count > limit:  # refused whole: nothing of it is applied
        _reply_plain(house, mail, "too_long", now, game_id, lines=count, limit=house.config.max_order_lines)
        return f"refused: {count} lines (at most {house.config.max_order_lines})", game_id, sender
    arrived = received or now
    # (a password line is part of what a mail asks: the same command sent again with it is not a copy)
    signed = "/password" if text != mail.text else ""
    printed = fingerprint(f"{game_id}/{g.phase}/{g.turn}{signed}", mail, text)
    first = house.outgoing.resent(sender, printed, arrived - RESENT_WITHIN, arrived, key)
    if first is not None:  # the same mail again (a client that sent it twice): one request, not two
        _reply_plain(house, mail, "twice", now, game_id, first=table.local(first[1]))
        return f"duplicate: the same text as {first[0]}, received {iso(first[1])}; not read again", game_id, sender
    house.outgoing.note_print(key, sender, printed, arrived)
    capped = not may_reply(house, sender, now)
    actor = MJ if is_mj else (player.name if player else None)
    result = (mjdesk.interpret_mj(table, mail, text, key, now, received, password=mj_pass) if actor == MJ  # the MJ
              else interpret(table, actor, mail, text, key, now, received))
    if capped:
        return "rate-limited, orders kept, no reply", game_id, sender
    _ack(table, mail, actor, result, now)
    late = f", too late for step {g.turn - 1}" if result.late else ""
    return f"ok ({len(result.verdicts)} lines, {result.errors} errors{late})", game_id, sender


RESENT_WITHIN = timedelta(minutes=5)
"""A mail with the same sender, subject, reply and text as one received this long before it, for the same step
of the same game, is a copy of it."""


def fingerprint(step: str, mail: IncomingMail, text: str) -> str:
    """What a mail asks, whatever its Message-ID: the step of the game it is for (``game/phase/turn``), its
    subject, the mail it answers and its text (spaces aside).

    A mail client that sends a mail again gives it a new Message-ID but nothing else new; two answers
    to two different mails (« OUI » to two questions) are not the same request, nor is the same line
    sent again once the game has moved on (AIDE before and after the start).
    """
    said = "\0".join((step, " ".join(mail.subject.split()).casefold(), mail.in_reply_to, " ".join(text.split())))
    return hashlib.sha256(said.encode("utf-8", "replace")).hexdigest()[:32]


def route(house: House, mail: IncomingMail) -> str | None:
    """Which game a mail is for: subject tag ``[PMB]``, plus-address ``jeu+pmb1@``, or the only game."""
    return _route(house, mail)[0]


def _route(house: House, mail: IncomingMail) -> tuple[str | None, str]:
    """The game a mail is for and how it was found: ``tag``, ``plus``, ``player`` (the sender plays in
    exactly one game) or ``only`` (the one game configured: not a sign the sender meant it)."""
    by_tag = house.by_tag
    for tag in subject_tags(mail.subject):
        if tag in by_tag:
            return by_tag[tag], "tag"
    for addr in [*mail.to_addrs, *mail.delivered_to]:
        plus = plus_tag(addr)
        if plus and plus.lower() in by_tag:
            return by_tag[plus.lower()], "plus"
    if len(house.config.games) == 1:
        only = next(iter(house.config.games))
        return only, "player" if house.store.player_by_address(only, mail.from_addr) else "only"
    # a player registered in exactly one game needs no tag
    hits = games_of(house, mail.from_addr)
    return (hits[0], "player") if len(hits) == 1 else (None, "")


def games_of(house: House, address: str) -> list[str]:
    """The games this address plays in (config order)."""
    return [gid for gid in house.config.games if house.store.player_by_address(gid, address)]


def _which_game(house: House, mail: IncomingMail, mine: list[str], tagged: str | None, now: datetime) -> None:
    """« Pour quelle partie ? »: a player's mail with no tag (he plays in several games) or with the tag of a
    game he does not play in; his games, and the subject to write.  In the name of his game when he has one."""
    games = house.config.games
    example = subject_words(mail.subject)
    _reply_plain(house, mail, "which_game", now, mine[0] if len(mine) == 1 else None,
                 mine=[(games[gid].tag, games[gid].title) for gid in mine],
                 tagged=(games[tagged].tag, games[tagged].title) if tagged else None, example=example)


def may_reply(house: House, address: str, now: datetime) -> bool:
    """Under the cap of answers per address per hour (the open batch's answers count too)?"""
    since = now - timedelta(hours=1)
    return (house.store.replies_since(address, since) + house.outgoing.held_replies(address)
            < house.config.reply_cap_per_hour)


def mj_password(s: GameConfig) -> str | None:
    """The MJ's password (``mj_password_env`` / ``mj_password_command``), or None if not configured or unreadable."""
    provider = secret_provider(s.mj_password)
    if provider is None:
        return None
    try:
        return provider()
    except CredentialError as e:
        log.error("%s", Msg(f"partie {s.id}\u00a0: le mot de passe du MJ est illisible\u00a0: {e}",
                            f"game {s.id}: the MJ password cannot be read: {e}").get(s.language))
        return None


def _mj_password_given(table: Table, s: GameConfig, mail: IncomingMail, sender: str, now: datetime) -> bool:
    """Does an MJ mail carry the MJ password (set, and not required by ``passwords``)?  Only destructive commands
    ask for it there; without it (or with a wrong one) they wait for a confirmation (`pbem.engine.desk.confirm`).
    Checked by `passwords.check`, so wrong ones count and are slowed down as everywhere."""
    secret = mj_password(s) if given_password(mail.text) is not None else None
    return secret is not None and passwords.check(table, sender, mail.text, secret, now).ok


STRANGER_NOTE_EVERY = timedelta(days=1)
"""An unknown address is told how to join at most this often."""


def _stranger(house: House, mail: IncomingMail, game_id: str | None, now: datetime) -> str:
    """Mail from an address that plays in no game (and is no registration): one short answer a day
    saying how to join (the game named by the mail's tag, else every game), never its lines echoed."""
    sender = mail.from_addr
    if house.outgoing.sent_since(sender, "stranger", now - STRANGER_NOTE_EVERY):
        return "stranger: already told how to join today"
    if not may_reply(house, sender, now):
        return "stranger: rate-limited, no reply"
    games = []
    for gid, s in house.config.games.items():
        if game_id is not None and gid != game_id:
            continue
        row = house.table(gid).known().row if house.store.game(gid) else None  # (nothing of results held)
        games.append({"tag": s.tag, "title": s.title, "phase": row.phase if row else "none",
                      "until": house.local(row.deadline) if row and row.phase == "registration" else None})
    r = (house.table(game_id).renderer if game_id is not None
         else Renderer("common", house.config.language, overrides=house.config.templates_dir))
    t = r.mail_text("stranger", games=games, subject_in=mail.subject)
    house.outgoing.queue([Letter(f"stranger-{mail.message_id}", game_id or "-", 0, "stranger", sender, t.subject,
                                 t.body, in_reply_to=mail.message_id, references=mail.references)], now)
    return "stranger: told how to join"


def _bounced(house: House, raw: bytes, reason: str, sender: str) -> tuple[str, str | None, str]:
    """A bounce: the mails it is about are marked bounced (the MJ's next digest names them); never answered."""
    bounce = read_bounce(raw, (house.config.address,))
    if bounce is None:
        return f"silent: {reason}", None, sender
    if not bounce.permanent:
        return f"silent: {reason}; delivery delayed, not reported", None, sender
    rows = match_bounce(bounce, house.store)
    if not rows:
        return f"silent: {reason}; names no mail we sent", None, sender
    for row in rows:
        house.store.mark_bounced(row.id, bounce.summary())
    told = ", ".join(f"{row.id} to {row.rcpt}" for row in rows)
    # (the remote server's words last: they may hold anything, « ; » included)
    return f"silent: {reason}; returned: {told}; {bounce.summary()}", rows[0].game, sender


def _reject_forged(table: Table, mail: IncomingMail, player: PlayerRow | None, reason: str, now: datetime) -> str:
    """A mail claiming to be a player failed authentication: tell the *registered* address, not the sender."""
    r = table.renderer
    notices = []
    if player is not None and may_reply(table.house, player.address, now):
        state = table.known().state  # (greeted as the game stands for him: nothing of results held)
        t = table.mail_to("rejected", player.name, state, reason=reason, subject_in=mail.subject,
                          received=table.local(now), failures=0, until=None, lock_after=0)
        notices.append(Letter(f"rejected-{mail.message_id}", table.id, table.row.turn, "notice",
                              player.address, t.subject, t.body))
    t = r.mail_text("notice_mj", tag=table.tag, deadline=None, text=r.message(
        "refused_mail", reason=reason, sender=mail.from_addr, subject=mail.subject,
        player=player.name if player else None))
    notices += [Letter(f"rejected-mj-{mail.message_id}", table.id, table.row.turn, "notice", mj, t.subject,
                       t.body) for mj in table.settings.mj]
    table.outgoing.queue(notices, now)
    return f"rejected: authentication failed ({reason})"


def _refused_password(table: Table, mail: IncomingMail, player: PlayerRow | None, checked: passwords.Verdict,
                      now: datetime) -> str:
    """A mail whose password did not pass (`pbem.engine.passwords`): its registered address is told (the sender's,
    which is the player's or the MJ's), under the reply cap, and once per wait; the MJ hears of a lock only.
    Returns the verdict."""
    address = player.address if player is not None else mail.from_addr
    who = player.name if player is not None else None
    state = table.known().state if who else None  # (the MJ is greeted as « MJ », never by the rules)
    if checked.reason in ("waiting", "locked"):
        key = f"password-wait-{table.id}-{address}-{iso(checked.until) if checked.until else ''}"  # once per wait
        t = table.mail_to("password_wait", who or "MJ", state, received=table.local(now), subject_in=mail.subject,
                          failures=checked.failures, until=table.local(checked.until),
                          locked=checked.reason == "locked")
        verdict = f"rejected: {checked.failures} wrong passwords, not read before {iso(checked.until or now)}"
    else:
        key = f"rejected-{mail.message_id}"
        t = table.mail_to("rejected", who or "MJ", state, reason="unset" if checked.reason == "unset" else "password",
                          subject_in=mail.subject, received=table.local(now), failures=checked.failures,
                          until=table.local(checked.until), lock_after=passwords.LOCK_AFTER)
        verdict = ("rejected: no password set yet" if checked.reason == "unset"
                   else f"rejected: authentication failed (password, {checked.failures} wrong)")
    if may_reply(table.house, address, now):
        table.outgoing.queue([Letter(key, table.id, table.row.turn, "notice", address, t.subject, t.body)], now)
    return verdict


_UNREADABLE = ("unreadable", "undecodable", "no text part", "defects", *COSTLY_PROBLEMS)


def unreadable(mail: IncomingMail) -> bool:
    """No text could be read because of the message's structure (not because the player wrote nothing)."""
    return any(problem.startswith(_UNREADABLE) for problem in mail.problems)


def _unreadable(house: House, mail: IncomingMail, now: datetime, game_id: str) -> str:
    """A mail with no text read: « votre message n'a pas pu être lu », or, when a cap kept it from being read
    (`pbem.limits`), « message trop long ou illisible » with the limit and what to do.  Returns the verdict."""
    reason = costly(mail)
    if reason is None:
        _reply_plain(house, mail, "unreadable", now, game_id, problems=list(mail.problems))
    else:
        _reply_plain(house, mail, "too_costly", now, game_id, reason=reason, attempts=MAX_READING_ATTEMPTS,
                     read_bytes=house.config.read_bytes, header_bytes=limits.MAX_HEADER_BYTES,
                     boundaries=limits.MAX_BOUNDARIES, lines=house.config.max_order_lines,
                     line_chars=limits.MAX_LINE_CHARS)
    return "unreadable: " + "; ".join(mail.problems)


def _reply_plain(house: House, mail: IncomingMail, template: str, now: datetime, game_id: str | None,
                 **context: Any) -> None:
    """A short answer that is not about one game's orders (which game? this game does not exist yet;
    your mail could not be read; it is too long)."""
    if not may_reply(house, mail.from_addr, now):
        return
    s = house.config.games.get(game_id) if game_id else None
    r = (house.table(game_id).renderer if s is not None and game_id
         else Renderer("common", house.config.language, overrides=house.config.templates_dir))
    games = [(g.tag, g.title) for g in house.config.games.values()]
    t = r.mail_text(template, games=games, subject_in=mail.subject, game_id=game_id, **context)
    house.outgoing.queue([Letter(f"{template}-{mail.message_id}", game_id or "-", 0, "ack", mail.from_addr,
                                 t.subject, t.body, in_reply_to=mail.message_id, references=mail.references)], now)


def _ack(table: Table, mail: IncomingMail, actor: str | None, result: MailResult, now: datetime) -> None:
    """The answer to an order mail: every line echoed with its verdict, then the deadline and what is missing."""
    if actor == MJ:  # the MJ's answer says what each command did, and where the game stands
        mjdesk.ack(table, mail, result, now)
        return
    known = table.known()  # (results held for the MJ: the game as it stood before them, nothing of them)
    g = known.row
    r = table.renderer
    state = known.state
    salutation = table.salutation(state, actor) if actor not in (None, MJ) else None
    missing: list[str] = []
    waiting = 0
    prompted = 0
    if g.phase == "running" and state is not None and actor not in (None, MJ) and known.held is None:
        asked = table.asked(state)
        current = table.store.ordered_players(table.id, g.turn)
        # count every player asked, required or not: who is required can be private (a hidden PMB Conseil);
        # no count at all where who is asked can betray a role (prompts_public = False)
        if table.prompts_public:
            prompted = len(asked)
            waiting = len(asked - current)
        if actor in asked and actor not in current:
            missing = [table.ruleset.step_title(state).get(table.settings.language)]
    errors = result.errors
    # everything the text says is fixed now; the rendering itself may wait for the end of the batch
    extra_now = tuple(result.extra)
    context: dict[str, Any] = dict(
        tag=table.tag, player=actor if actor != MJ else "MJ", verdicts=tuple(result.verdicts),
        errors=errors, deadline=table.local(g.deadline), phase=g.phase, ignored=tuple(result.ignored),
        missing=missing, waiting=waiting, prompted=prompted, replaced=result.replaced, kept=result.kept_orders,
        title=(table.ruleset.step_title(state).get(table.settings.language)
               if state is not None and result.late else ""),  # (only the late paragraph names the open step)
        subject_in=mail.subject, early=table.local(g.early_at),
        late=(result.late[0], table.local(result.late[1])) if result.late else None,
        late_held=bool(result.late) and known.held is not None,  # (publish = "mj": not sent yet)
        late_lines=sum(1 for v in result.verdicts if v.late), grace=result.grace, held=known.held,
        waiting_lines=sum(1 for v in result.verdicts if v.waiting),
        grace_until=table.local(calendar.final_close(g, table.settings) or now) if result.grace else None,
        newer=table.local(result.newer),
        newer_same_time=result.newer_same_time,
        paused=calendar.pause_said(table, now),
        salutation=salutation,
    )
    turn = g.turn

    def letter() -> Letter:
        extra = tuple(commands.paragraph(table, x) for x in extra_now)
        t = r.mail_text("ack", extra=extra, **context)
        # keyed by the mail's own Message-ID (not where it was stored): the same mail gets the same answer id
        return Letter(f"ack-{mail.message_id}", table.id, turn, "ack", mail.from_addr, t.subject, t.body,
                      in_reply_to=mail.message_id, references=mail.references)

    table.outgoing.queue_rendered(letter, mail.from_addr, "ack", now)
