"""The game driver: who must decide now, by when; orders in, defaults at the deadline, steps resolved and recorded.

The engine is the only place that ties a ruleset to the store and the outbox.  It
never talks to a mail server: it takes parsed mail (`pbem.mail.reading`) and queues
letters (`pbem.outbox`); the caller passes ``now``.  Every state change that must
hold together (a processed message and its ack; a resolved step, the new state and
its mails) is one database transaction, so a crash at any point leaves either all
of it or none of it.
"""

from __future__ import annotations

import difflib
import gc
import json
import logging
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem import games as registry
from pbem import serial
from pbem.clock import add_duration, iso, parse_iso
from pbem.config import Config, GameConfig
from pbem.core import (
    MJ,
    PUBLIC,
    Event,
    Msg,
    Order,
    OrderError,
    OrderNotAllowedError,
    Prompt,
    Ruleset,
    Seat,
    SetupError,
)
from pbem.dice import Dice, Roll, commitment, new_seed
from pbem.dice import verify as verify_rolls
from pbem.faults import crashpoint
from pbem.mail.addresses import address_problem
from pbem.mail.inbox import CredentialError, secret_provider
from pbem.mail.reading import IncomingMail, plus_tag, read_message, subject_tags
from pbem.mail.senders import auth_verdict, check_password, given_password, is_automatic
from pbem.names import fold
from pbem.outbox import Letter, outbox_item, queue
from pbem.render import Renderer
from pbem.store import GameRow, OrderSet, PlayerRow, Store

log = logging.getLogger("pbem")
SETUP_TITLE = Msg("Début de partie", "Game start")


class EngineError(Exception):
    """An MJ command that cannot be done; the message says why (in English, for the MJ's terminal).

    ``key`` names the player-facing wording in ``common/messages.<lang>.j2`` when a player caused it.
    """

    def __init__(self, text: str, key: str | None = None, params: Mapping[str, Any] | None = None):
        super().__init__(text)
        self.key = key
        self.params = dict(params or {})


# --- common commands (all games), French first, English aliases ---

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
_NAME_OK = re.compile(r"^[\w][\w .'\-]{0,38}[\w.]$|^\w$")


@dataclass
class LineVerdict:
    """One line of an ack: the text, and either 'ok' or an error message."""

    text: str
    ok: bool
    note: str = ""
    label: str = ""


@dataclass
class MailResult:
    verdicts: list[LineVerdict] = field(default_factory=list)
    # paragraphs appended after the echo (help, status, results); a callable renders its paragraph with the ack
    extra: list[str | Callable[[], str]] = field(default_factory=list)
    kept_orders: bool = False
    replaced: bool = False
    joined: str | None = None  # registered by this very mail: the rest of it speaks for that player


def _orders_json(orders: Mapping[str, Sequence[Order]]) -> dict[str, list[list[Any]]]:
    return {p: [[o.verb, list(o.args), o.text] for o in os] for p, os in orders.items()}


def _events_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "audience": [e.audience.kind, list(e.audience.players)], "data": serial.to_data(e.data)}
            for e in events]


def events_from_json(data: Sequence[Mapping[str, Any]]) -> list[Event]:
    from pbem.core import Audience

    return [Event(d["kind"], Audience(d["audience"][0], tuple(d["audience"][1])), d["data"]) for d in data]


def _rolls_json(rolls: Sequence[Roll]) -> list[list[Any]]:
    return [[r.purpose, r.low, r.high, r.result] for r in rolls]


def rolls_from_json(data: Sequence[Sequence[Any]]) -> list[Roll]:
    return [Roll(p, lo, hi, res) for p, lo, hi, res in data]


class Engine:
    """Drives every game of one config over one store."""

    # messages processed per transaction by `process_pending`
    BATCH = 100

    def __init__(self, config: Config, store: Store):
        self.config = config
        self.store = store
        # decoded states by game, keyed by the stored JSON they came from (rulesets never mutate a state)
        self._states: dict[str, tuple[str, Any]] = {}
        self._prompts: dict[str, tuple[Any, list[Prompt]]] = {}
        self._prompted: dict[str, tuple[Any, tuple[frozenset[str], frozenset[str]]]] = {}
        # letters of the batch being processed (None outside `_holding_letters`), and answers among them by address
        self._held: list[tuple[Letter | Callable[[], Letter], datetime]] | None = None
        self._held_replies: Counter[str] = Counter()
        # ... and its messages: their "done" rows, and the Message-IDs already processed (before or in the batch)
        self._held_marks: list[tuple[str, str, str, str, str, str, str]] = []
        self._held_ids: set[str] = set()
        self._renderers: dict[str, Renderer] = {}
        # subject tag or game id (lower-case) -> game id, for `route`
        self._by_tag = {g.tag.lower(): gid for gid, g in config.games.items()}
        self._by_tag.update({gid.lower(): gid for gid in config.games})

    # ------------------------------------------------------------------ helpers

    def settings(self, game_id: str) -> GameConfig:
        s = self.config.games.get(game_id)
        return s if s is not None else self.config.game(game_id)  # (the latter names the missing game)

    def ruleset(self, game_id: str) -> Ruleset:
        return registry.get(self.settings(game_id).ruleset)

    def renderer(self, game_id: str) -> Renderer:
        s = self.settings(game_id)
        r = self._renderers.get(game_id)
        if r is None or r.game != s.ruleset or r.lang != s.language:
            r = self._renderers[game_id] = Renderer(s.ruleset, s.language)
        return r

    def game(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise EngineError(f"unknown game {game_id!r} (pbem game new {game_id} creates it)")
        return row

    def state(self, g: GameRow) -> Any:
        if g.state is None:
            return None
        return serial.loads(self.ruleset(g.id).state_type, g.state)

    def _state_cached(self, g: GameRow) -> Any:
        """`state`, decoded once per stored JSON text (the message path reads it several times a mail)."""
        if g.state is None:
            return None
        hit = self._states.get(g.id)
        if hit is not None and hit[0] == g.state:
            return hit[1]
        state = self.state(g)
        self._states[g.id] = (g.state, state)
        return state

    def _prompts_cached(self, game_id: str, state: Any) -> list[Prompt]:
        """`Ruleset.prompts` of a state already decoded by `_state_cached` (pure, so computed once per state)."""
        hit = self._prompts.get(game_id)
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self.ruleset(game_id).prompts(state)
        self._prompts[game_id] = (state, prompts)
        return prompts

    def _prompted_cached(self, game_id: str, state: Any) -> frozenset[str]:
        """The players `_prompts_cached` asks to decide."""
        return self._players_cached(game_id, state)[0]

    def _required_cached(self, game_id: str, state: Any) -> frozenset[str]:
        """The players whose orders `_prompts_cached` requires (early resolution waits for them)."""
        return self._players_cached(game_id, state)[1]

    def _players_cached(self, game_id: str, state: Any) -> tuple[frozenset[str], frozenset[str]]:
        hit = self._prompted.get(game_id)
        if hit is not None and hit[0] is state:
            return hit[1]
        prompts = self._prompts_cached(game_id, state)
        players = (frozenset(p.player for p in prompts), frozenset(p.player for p in prompts if p.required))
        self._prompted[game_id] = (state, players)
        return players

    def local(self, game_id: str, when: str | None) -> datetime | None:
        return parse_iso(when).astimezone(self.config.timezone) if when else None

    def _tag(self, game_id: str) -> str:
        return f"[{self.settings(game_id).tag}]"

    def _letters_to(self, game_id: str) -> list[str]:
        return list(self.settings(game_id).mj)

    def _queue(self, letters: Sequence[Letter], now: datetime) -> None:
        if not letters:
            return
        if self._held is not None:  # a batch of messages is being processed: composed and stored at its end
            self._held.extend((letter, now) for letter in letters)
            self._held_replies.update(letter.to for letter in letters if letter.kind in ("ack", "notice"))
            return
        queue(self.store, letters, sender=self.config.address, sender_name=self._sender_name(letters[0].game),
              now=now)

    def _queue_rendered(self, letter: Callable[[], Letter], to: str, kind: str, now: datetime) -> None:
        """Queue a letter whose text is rendered from values fixed now: at the end of the batch, if one is open."""
        if self._held is None:
            self._queue([letter()], now)
            return
        self._held.append((letter, now))
        if kind in ("ack", "notice"):
            self._held_replies[to] += 1

    def _held_checkpoint(self) -> Callable[[], None]:
        """A function that forgets what was held since now (for work whose savepoint is rolled back)."""
        if self._held is None:
            return lambda: None
        letters, marks = len(self._held), len(self._held_marks)
        replies, ids = Counter(self._held_replies), set(self._held_ids)

        def undo() -> None:
            if self._held is not None:
                del self._held[letters:]
                del self._held_marks[marks:]
                self._held_replies, self._held_ids = replies, ids
        return undo

    @contextmanager
    def _holding_letters(self) -> Iterator[None]:
        """Letters queued inside, and messages marked done inside, are stored together when the block ends.

        Used inside the batch's transaction: the letters and marks are stored in the same commit
        as before; rendering, composing and writing them in one go is cheaper.
        """
        self._held, self._held_replies, self._held_marks, self._held_ids = [], Counter(), [], set()
        try:
            yield
            self.store.mark_messages(self._held_marks)
            # stage by stage (render, then compose, then one insert): each stays hot in the caches
            letters = [(item if isinstance(item, Letter) else item(), when) for item, when in self._held]
            self.store.enqueue([outbox_item(letter, sender=self.config.address,
                                            sender_name=self._sender_name(letter.game), now=when)
                                for letter, when in letters])
        finally:
            self._held = None
            self._held_replies, self._held_marks, self._held_ids = Counter(), [], set()

    def _sender_name(self, game_id: str) -> str:
        s = self.config.games.get(game_id)
        return s.title if s else "pbem"

    # ------------------------------------------------------------------ games

    def new_game(self, game_id: str, now: datetime, seed: str | None = None) -> GameRow:
        """Create a game from its config section; registration opens now."""
        s = self.settings(game_id)
        if self.store.game(game_id) is not None:
            raise EngineError(f"game {game_id!r} already exists")
        seed = seed or new_seed()
        row = GameRow(id=game_id, ruleset=s.ruleset, phase="registration", seed=seed, commitment=commitment(seed),
                      turn=0, deadline=iso(add_duration(now, s.registration, self.config.timezone)), early_at=None,
                      state=None, reminders_sent=(), created_at=iso(now), seed_revealed=False)
        with self.store.atomic():
            self.store.add_game(row)
            self.store.log(game_id, iso(now), "mj", "game new", {"ruleset": s.ruleset, "commitment": row.commitment})
        return row

    def start_game(self, game_id: str, now: datetime) -> GameRow:
        """Close registration, seat the players, run the ruleset's setup and mail everyone their start."""
        g = self.game(game_id)
        if g.phase != "registration":
            raise EngineError(f"game {game_id} has already started")
        s = self.settings(game_id)
        players = self.store.players(game_id)
        if len(players) < s.min_players:
            raise EngineError(f"game {game_id}: {len(players)} players registered, at least {s.min_players} needed")
        ruleset = self.ruleset(game_id)
        fixed = self._roster_file(game_id)
        seats = []
        for p in players:
            extra = fixed.get(fold(p.name), {})
            seats.append(Seat(p.name, p.seat.get("role") or extra.get("role"),
                              p.seat.get("data") or extra.get("data", {})))
        dice = Dice(g.seed, "setup")
        try:
            state, events = ruleset.setup(seats, dict(s.options), dice)
        except SetupError as e:
            raise EngineError(f"game {game_id} cannot start: {e.msg.get('en')}") from None
        with self.store.atomic():
            seq = self.store.next_seq(game_id)
            self.store.add_record(self._record(game_id, seq, "setup", 0, SETUP_TITLE.get(s.language),
                                               "setup", None, {}, [], dice.rolls, events, state, now))
            g = self._open_step(g, state, 1, now, phase="running")
            self._queue(self._step_letters(g, seq, 0, events, state, now, setup=True), now)
            self.store.log(game_id, iso(now), "mj", "game start", {"players": [p.name for p in players]})
        self.write_forum(game_id)
        return g

    def _roster_file(self, game_id: str) -> dict[str, dict[str, Any]]:
        """Roles and sheets the MJ prepared in the game's roster file, by folded player name."""
        path = self.settings(game_id).roster
        if path is None:
            return {}
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise EngineError(f"roster file {path}: {e}") from None
        out: dict[str, dict[str, Any]] = {}
        for table_name in ("personnage", "joueur", "seat", "player"):
            for entry in doc.get(table_name, []):
                name = entry.get("joueur") or entry.get("player") or entry.get("nom")
                if not isinstance(name, str):
                    raise EngineError(f"roster file {path}: an entry of [[{table_name}]] has no 'joueur' name")
                data = {k: v for k, v in entry.items() if k not in ("joueur", "player", "role")}
                out[fold(name)] = {"role": entry.get("role"), "data": data}
        return out

    def _open_step(self, g: GameRow, state: Any, turn: int, now: datetime, phase: str | None = None) -> GameRow:
        """Store the new state and open the next step with its deadline (or finish the game)."""
        ruleset = self.ruleset(g.id)
        s = self.settings(g.id)
        prompts = ruleset.prompts(state)
        outcome = ruleset.outcome(state)
        deadline = None
        skipped: list[float] = []
        if outcome is None and prompts:
            key = prompts[0].deadline
            length = s.deadlines.get(key) or s.deadlines["turn"]
            end = add_duration(now, length, self.config.timezone)
            deadline = iso(end)
            # a reminder that would fall when the step opens (short steps) is pointless: skip it
            skipped = [h for h in s.reminder_hours if end - timedelta(hours=h) <= now]
        new_phase = "finished" if outcome is not None else (phase or g.phase)
        g = GameRow(**{**g.__dict__, "state": serial.dumps(state), "turn": turn, "deadline": deadline,
                       "early_at": None, "reminders_sent": tuple(skipped), "phase": new_phase,
                       "seed_revealed": g.seed_revealed or outcome is not None})
        self.store.save_game(g)
        return g

    def _record(self, game_id: str, seq: int, kind: str, turn: int, title: str, context: str, before: Any,
                orders: Mapping[str, Any], defaults: Sequence[str], rolls: Sequence[Roll], events: Sequence[Event],
                after: Any, now: datetime) -> dict[str, Any]:
        return {
            "game": game_id, "seq": seq, "kind": kind, "turn": turn, "title": title, "dice_context": context,
            "state_before": serial.dumps(before) if before is not None else None,
            "orders": json.dumps(orders, ensure_ascii=False, sort_keys=True), "defaults": json.dumps(list(defaults)),
            "rolls": json.dumps(_rolls_json(rolls)), "events": json.dumps(_events_json(events), ensure_ascii=False),
            "state_after": serial.dumps(after), "resolved_at": iso(now), "published": 1, "forum_written": 0,
        }

    # ------------------------------------------------------------------ players

    def add_player(self, game_id: str, name: str, address: str, now: datetime, *, role: str | None = None,
                   data: Mapping[str, Any] | None = None, password: str | None = None, by: str = "mj") -> PlayerRow:
        g = self.game(game_id)
        if g.phase != "registration":
            raise EngineError(f"game {game_id} has started: players can only be replaced (pbem player replace)")
        name = " ".join(name.split())
        if not _NAME_OK.match(name):
            raise EngineError(f"invalid player name {name!r}: letters, digits, spaces, - ' . only, 1 to 40 characters",
                              "invalid_name")
        address = address.strip().lower()
        problem = address_problem(address)
        if problem is not None:
            raise EngineError(f"invalid address {address!r}: {problem.en}", "invalid_address", {"reason": problem})
        for p in self.store.players(game_id):
            if fold(p.name) == fold(name):
                raise EngineError(f"the name {p.name!r} is already taken in {game_id}", "name_taken")
            if p.address == address:
                raise EngineError(f"{address} is already registered in {game_id} as {p.name!r}", "address_taken")
        seat: dict[str, Any] = {}
        if role:
            seat["role"] = role
        if data:
            seat["data"] = dict(data)
        row = PlayerRow(game=game_id, name=name, address=address, status="active", seat=seat, password=password,
                        registered_at=iso(now))
        self.store.add_player(row)
        self.store.log(game_id, iso(now), by, "player add", {"name": name, "address": address, "role": role})
        return row

    def remove_player(self, game_id: str, name: str, now: datetime) -> None:
        p = self._player_named(game_id, name)
        with self.store.atomic():
            self.store.set_player_status(game_id, p.name, "removed")
            self.store.log(game_id, iso(now), "mj", "player remove", {"name": p.name})

    def replace_player(self, game_id: str, name: str, new_address: str, now: datetime) -> None:
        """A new person takes over a seat: same character, new address."""
        p = self._player_named(game_id, name)
        new_address = new_address.strip().lower()
        problem = address_problem(new_address)
        if problem is not None:
            raise EngineError(f"invalid address {new_address!r}: {problem.en}")
        other = self.store.player_by_address(game_id, new_address)
        if other is not None and other.name != p.name:
            raise EngineError(f"{new_address} already plays {other.name!r} in {game_id}")
        with self.store.atomic():
            self.store.set_player_address(game_id, p.name, new_address)
            self.store.set_player_status(game_id, p.name, "active")
            self.store.log(game_id, iso(now), "mj", "player replace", {"name": p.name, "old": p.address,
                                                                         "new": new_address})

    def _player_named(self, game_id: str, name: str) -> PlayerRow:
        for p in self.store.players(game_id, include_removed=True):
            if fold(p.name) == fold(name):
                return p
        raise EngineError(f"no player {name!r} in {game_id}")

    # ------------------------------------------------------------------ inbound mail

    def process_pending(self, now: datetime) -> list[str]:
        """Process every stored, unprocessed message; returns their keys.

        Messages are processed ``BATCH`` at a time, each batch in one transaction: a message's
        processing and its ack are still committed together (several per commit), and a crash
        mid-batch rolls the whole batch back (nothing of it was sent).  If a message fails, the
        batch is redone one message per transaction; a message that still fails is marked
        ``error`` (kept, with the reason, for the MJ) so that one bad mail never blocks the others,
        the deadlines or the outbox.
        """
        done = []
        pending = self.store.pending_messages()
        for i in range(0, len(pending), self.BATCH):
            chunk = pending[i:i + self.BATCH]
            try:
                with gc_paused(), self.store.atomic():
                    with self._holding_letters():
                        # reading is pure: all of a batch first, then the game work (each stage stays hot in the caches)
                        mails = [read_message(raw) for _key, raw, _r in chunk]
                        self._held_ids.update(self.store.seen_message_ids([m.message_id for m in mails]))
                        for (key, raw, received_at), mail in zip(chunk, mails, strict=True):
                            self._process_stored(key, raw, now, received_at, mail)
                            crashpoint("between-messages")
                    crashpoint("batch-before-commit")  # answers queued, messages marked, nothing committed
            except Exception:
                for key, raw, received_at in chunk:
                    self._process_alone(key, raw, now, received_at)
                    done.append(key)
                continue
            crashpoint("after-message")
            done.extend(key for key, _raw, _r in chunk)
        return done

    def _process_alone(self, key: str, raw: bytes, now: datetime, received_at: str | None) -> str:
        try:
            return self.process_message(key, raw, now, received_at)
        except Exception as e:  # a bug must not stall the game: keep the mail, say why, tell the MJ, go on
            log.exception("processing message %s failed", key)
            verdict = f"error: {type(e).__name__}: {e}"[:500]
            mail = read_message(raw)
            try:
                game_id = self.route(mail)
            except Exception:
                game_id = None
            with self.store.atomic():
                self.store.mark_message(key, message_id=mail.message_id, status="error", game=game_id or "",
                                        sender=mail.from_addr, verdict=verdict, processed_at=iso(now))
                if game_id is not None:
                    r = self.renderer(game_id)
                    t = r.mail_text("notice_mj", tag=self._tag(game_id), deadline=None, text=r.message(
                        "mail_failed", sender=mail.from_addr, subject=mail.subject, error=verdict, stored=key))
                    self._queue([Letter(f"error-{mail.message_id}", game_id, 0, "notice", mj, t.subject, t.body)
                                 for mj in self.settings(game_id).mj], now)
            return verdict

    def process_message(self, key: str, raw: bytes, now: datetime, received_at: str | None = None) -> str:
        """Interpret one stored message and queue its answer, in one transaction.  Returns the verdict."""
        with self.store.atomic():
            verdict = self._process_stored(key, raw, now, received_at)
        crashpoint("after-message")
        return verdict

    def _process_stored(self, key: str, raw: bytes, now: datetime, received_at: str | None = None,
                        mail: IncomingMail | None = None) -> str:
        """Interpret one stored message, queue its answer and mark it done (inside the caller's transaction)."""
        mail = mail or read_message(raw)
        verdict, game_id, sender = self._process(key, mail, now, parse_iso(received_at) if received_at else now)
        if self._held is not None:  # in a batch: marked with the others at its end
            self._held_marks.append((mail.message_id, "done", game_id or "", sender, verdict, iso(now), key))
            self._held_ids.add(mail.message_id)
        else:
            self.store.mark_message(key, message_id=mail.message_id, status="done", game=game_id or "",
                                    sender=sender, verdict=verdict, processed_at=iso(now))
        return verdict

    def _process(self, key: str, mail: IncomingMail, now: datetime,
                 received: datetime | None = None) -> tuple[str, str | None, str]:
        own = {self.config.address}
        sender = mail.from_addr
        if (mail.message_id in self._held_ids if self._held is not None
                else self.store.seen_message_id(mail.message_id, key)):
            return "duplicate", None, sender
        reason = is_automatic(mail, own)
        if reason:
            return f"silent: {reason}", None, sender
        if not sender or "@" not in sender:
            return "silent: no sender address", None, sender
        game_id = self.route(mail)
        if game_id is None:
            self._reply_plain(key, mail, "which_game", now, None)
            return "no game", None, sender
        s = self.settings(game_id)
        g = self.store.game(game_id)
        if g is not None and received is not None and self._fire_at(g) is not None:
            fire_at = self._fire_at(g)
            if fire_at is not None and fire_at <= received:
                # this mail arrived after the deadline (daemon outage): the step closes first, without it.
                # A failure here must not cost the mail: it is then read against the open step, and the
                # tick's own deadline pass reports the failure (the forum file is written by the tick).
                held = self._held_checkpoint()
                try:
                    self.resolve(game_id, now, closed_at=fire_at, write_forum=False)
                except Exception:
                    held()  # its savepoint is rolled back: so are the letters it queued in this batch
                    log.exception("game %s: resolving the step closed at %s failed", game_id, iso(fire_at))
                g = self.store.game(game_id)
        if g is None:
            self._reply_plain(key, mail, "no_game_yet", now, game_id)
            return "game not created", game_id, sender
        # who is writing?
        player = self.store.player_by_address(game_id, sender)
        is_mj = sender in s.mj
        if (player or is_mj) and s.auth != "none":
            v = auth_verdict(mail, s.trusted_authserv, s.auth)
            if not v.ok:
                return self._reject_forged(key, mail, game_id, player, v.reason, now), game_id, sender
        # password lines are always removed (never echoed); checked when the game asks for them
        expected = player.password if (player and s.passwords and player.password) else None
        if is_mj and s.passwords:  # the MJ's mail shows everything hidden: it needs a password too
            expected = self._mj_password(s)
            if expected is None:
                return self._reject_forged(key, mail, game_id, None, "mj_password_missing", now), game_id, sender
        ok, text = check_password(mail.text, expected)
        if not ok:
            return self._reject_forged(key, mail, game_id, player, "password", now), game_id, sender
        if not self._may_reply(sender, now):
            verdict_prefix = "rate-limited, "
        else:
            verdict_prefix = ""
        actor = MJ if is_mj else (player.name if player else None)
        result = self._interpret(game_id, actor, mail, text, key, now)
        if verdict_prefix:
            return verdict_prefix + "orders kept, no reply", game_id, sender
        self._ack(game_id, key, mail, actor, result, now)
        errors = sum(1 for v in result.verdicts if not v.ok)
        return f"ok ({len(result.verdicts)} lines, {errors} errors)", game_id, sender

    def route(self, mail: IncomingMail) -> str | None:
        """Which game a mail is for: subject tag ``[PMB]``, plus-address ``jeu+pmb1@``, or the only game."""
        by_tag = self._by_tag
        for tag in subject_tags(mail.subject):
            if tag in by_tag:
                return by_tag[tag]
        for addr in [*mail.to_addrs, *mail.delivered_to]:
            plus = plus_tag(addr)
            if plus and plus.lower() in by_tag:
                return by_tag[plus.lower()]
        if len(self.config.games) == 1:
            return next(iter(self.config.games))
        # a player registered in exactly one game needs no tag
        hits = [gid for gid in self.config.games if self.store.player_by_address(gid, mail.from_addr)]
        return hits[0] if len(hits) == 1 else None

    def _may_reply(self, address: str, now: datetime) -> bool:
        since = iso(now - timedelta(hours=1))
        held = self._held_replies[address] if self._held is not None else 0  # answers of this batch, not stored yet
        return self.store.replies_since(address, since) + held < self.config.reply_cap_per_hour

    @staticmethod
    def _mj_password(s: GameConfig) -> str | None:
        """The MJ's password (``mj_password_env`` / ``mj_password_command``), or None if not configured or unreadable."""
        provider = secret_provider(s.mj_password)
        if provider is None:
            return None
        try:
            return provider()
        except CredentialError as e:
            log.error("game %s: the MJ password cannot be read: %s", s.id, e)
            return None

    def _reject_forged(self, key: str, mail: IncomingMail, game_id: str, player: PlayerRow | None, reason: str,
                       now: datetime) -> str:
        """A mail claiming to be a player failed authentication: tell the *registered* address, not the sender."""
        r = self.renderer(game_id)
        letters = []
        if player is not None and self._may_reply(player.address, now):
            t = r.mail_text("rejected", tag=self._tag(game_id), player=player.name, reason=reason,
                            subject_in=mail.subject, received=self.local(game_id, iso(now)))
            letters.append(Letter(f"rejected-{mail.message_id}", game_id, self.game(game_id).turn, "notice", player.address,
                                  t.subject, t.body))
        t = r.mail_text("notice_mj", tag=self._tag(game_id), deadline=None, text=r.message(
            "refused_mail", reason=reason, sender=mail.from_addr, subject=mail.subject,
            player=player.name if player else None))
        letters += [Letter(f"rejected-mj-{mail.message_id}", game_id, self.game(game_id).turn, "notice", mj, t.subject, t.body)
                    for mj in self.settings(game_id).mj]
        self._queue(letters, now)
        return f"rejected: authentication failed ({reason})"

    def _reply_plain(self, key: str, mail: IncomingMail, template: str, now: datetime, game_id: str | None) -> None:
        if not self._may_reply(mail.from_addr, now):
            return
        lang = self.config.language
        r = Renderer("common", lang)
        games = [(g.tag, g.title) for g in self.config.games.values()]
        t = r.mail_text(template, games=games, subject_in=mail.subject, game_id=game_id)
        self._queue([Letter(f"{template}-{mail.message_id}", game_id or "-", 0, "ack", mail.from_addr, t.subject, t.body,
                            in_reply_to=mail.message_id, references=mail.references)], now)

    # ------------------------------------------------------------------ interpreting order lines

    def _interpret(self, game_id: str, actor: str | None, mail: IncomingMail, text: str, key: str,
                   now: datetime) -> MailResult:
        g = self.game(game_id)
        ruleset = self.ruleset(game_id)
        s = self.settings(game_id)
        say = self.renderer(game_id).message
        state = self._state_cached(g)
        result = MailResult()
        accepted: dict[str, list[Order]] = {}
        lines_for: dict[str, list[str]] = {}
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        if not lines and fold(mail.subject).find("particip") >= 0:
            lines = [mail.subject]
        for line in lines[:200]:
            if len(line) > 500:
                result.verdicts.append(LineVerdict(line[:80] + "…", False, say("line_too_long")))
                continue
            head, _, rest = line.partition(" ")
            cmd = COMMANDS.get(fold(head).strip(":,.!"))
            if cmd is None and g.phase == "registration" and any(fold(line).startswith(p) for p in JOIN_PHRASES):
                cmd, rest = "JOIN", ""
            if cmd == "END":
                result.verdicts.append(LineVerdict(line, True, say("end_of_orders")))
                break
            if cmd is not None:
                self._command(game_id, g, cmd, rest.strip(), actor, mail, line, result, state, mail.message_id,
                              now)
                if result.joined and actor is None:
                    actor = result.joined
                g = self.game(game_id)
                state = self._state_cached(g)
                continue
            if actor is None:
                result.verdicts.append(LineVerdict(line, False, say("unknown_address")))
                continue
            if g.phase != "running" or state is None:
                why = "not_started" if g.phase == "registration" else "game_over"
                result.verdicts.append(LineVerdict(line, False, say(why)))
                continue
            acting = actor
            try:
                order = ruleset.parse_order(state, acting, line, accepted.get(acting, []))
            except OrderError as e:
                result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
                continue
            outcome = self._immediate(game_id, g, state, acting, order, now, result)
            if outcome is not None:
                g, state = outcome
                result.verdicts.append(LineVerdict(line, True, say("done")))
                continue
            if acting == MJ:
                result.verdicts.append(LineVerdict(line, False, say("mj_use_for"),
                                                   OrderNotAllowedError.label.get(s.language)))
                continue
            if acting not in self._prompted_cached(game_id, state):
                result.verdicts.append(LineVerdict(line, False, say("not_your_step"),
                                                   OrderNotAllowedError.label.get(s.language)))
                continue
            accepted.setdefault(acting, []).append(order)
            lines_for.setdefault(acting, []).append(line)
            result.verdicts.append(LineVerdict(line, True))
        # FOR lines from the MJ were parsed into accepted[...] by _command
        for player, orders in accepted.items():
            if not orders:
                continue
            # orders remember the Message-ID of their mail: what the MJ searches for in his mailbox
            self.store.set_orders(OrderSet(game_id, g.turn, player, orders, lines_for.get(player, []),
                                           "mj" if actor == MJ else "mail", mail.message_id, iso(now)))
            result.replaced = True
            if actor == MJ:
                self.store.log(game_id, iso(now), "mj", "orders by mail", {"player": player, "lines": lines_for[player]})
        if accepted:
            self._check_early(game_id, now)
        had_orders = (g.phase == "running" and actor not in (None, MJ)
                      and actor in self.store.ordered_players(game_id, g.turn))
        result.kept_orders = not accepted and had_orders and any(not v.ok for v in result.verdicts)
        return result

    def _command(self, game_id: str, g: GameRow, cmd: str, rest: str, actor: str | None, mail: IncomingMail,
                 line: str, result: MailResult, state: Any, key: str, now: datetime) -> None:
        s = self.settings(game_id)
        ruleset = self.ruleset(game_id)
        r = self.renderer(game_id)
        say = r.message
        if cmd == "JOIN":
            name = rest or (mail.from_name or "")
            if actor is not None and actor != MJ:
                result.verdicts.append(LineVerdict(line, False, say("already_registered", name=actor)))
                return
            if g.phase != "registration":
                result.verdicts.append(LineVerdict(line, False, say("registration_closed")))
                return
            if not rest and not _NAME_OK.match(" ".join(name.split())):
                result.verdicts.append(LineVerdict(line, False, say("give_a_name")))
                return
            password = given_password(mail.text) if s.passwords else None
            if s.passwords and not password:
                result.verdicts.append(LineVerdict(line, False, say("password_needed")))
                return
            try:
                p = self.add_player(game_id, name, mail.from_addr, now, by=mail.from_addr, password=password)
            except EngineError as e:
                result.verdicts.append(LineVerdict(line, False, say(e.key, **e.params) if e.key else str(e)))
                return
            result.verdicts.append(LineVerdict(line, True, say("registered_as", name=p.name)))
            result.joined = p.name
            return
        if actor is None:
            result.verdicts.append(LineVerdict(line, cmd == "HELP", "" if cmd == "HELP" else say("unknown_address")))
            if cmd == "HELP":
                result.extra.append(r.mail_text("help_common", tag=self._tag(game_id), helps=[], mj=False,
                                                registration=g.phase == "registration").body)
            return
        tag = self._tag(game_id)
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
            result.extra.append(self.orders_text(game_id, actor))
            return
        if cmd == "CANCEL":
            if actor == MJ or g.phase != "running":
                result.verdicts.append(LineVerdict(line, False, say("nothing_to_cancel")))
                return
            if actor not in self.store.ordered_players(game_id, g.turn):
                result.verdicts.append(LineVerdict(line, False, say("nothing_to_cancel")))
                return
            self.store.cancel_orders(game_id, g.turn, actor)
            if g.early_at:  # not everyone has ordered any more (unless this player was not awaited)
                self.store.save_game(GameRow(**{**g.__dict__, "early_at": None}))
                self._check_early(game_id, now)
            result.verdicts.append(LineVerdict(line, True, say("cancelled")))
            return
        if cmd == "REPORT":
            try:
                turn = int(rest.split()[0]) if rest.split() else g.turn - 1
                if not 0 <= turn < max(g.turn, 1):
                    raise ValueError(turn)
            except ValueError:
                result.verdicts.append(LineVerdict(line, False, say("report_needs_turn", last=max(g.turn - 1, 0))))
                return
            text = self.report_text(game_id, actor, turn)
            if text is None:
                result.verdicts.append(LineVerdict(line, False, say("no_report", turn=turn)))
                return
            result.verdicts.append(LineVerdict(line, True))
            result.extra.append(text)
            return
        if cmd == "FOR":
            self._for_line(game_id, g, rest, actor, line, result, state, key, now)
            return

    def _for_line(self, game_id: str, g: GameRow, rest: str, actor: str | None, line: str, result: MailResult,
                  state: Any, key: str, now: datetime) -> None:
        """``POUR <joueur> : <ordre>``: the MJ gives an order on a player's behalf (logged)."""
        s = self.settings(game_id)
        say = self.renderer(game_id).message
        if actor != MJ:
            result.verdicts.append(LineVerdict(line, False, say("only_mj_for")))
            return
        who, sep, order_text = rest.partition(":")
        if not sep or state is None:
            result.verdicts.append(LineVerdict(line, False, say("for_syntax")))
            return
        from pbem.names import match_name

        ruleset = self.ruleset(game_id)
        try:
            player = match_name(who.strip(), ruleset.players(state))
            order = ruleset.parse_order(state, player, order_text.strip(), [])
        except OrderError as e:
            result.verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
            return
        done = self._immediate(game_id, g, state, player, order, now, result, author=MJ)
        if done is not None:
            result.verdicts.append(LineVerdict(line, True, say("done_for", player=player)))
            self.store.log(game_id, iso(now), "mj", "immediate for", {"player": player, "line": order_text.strip()})
            return
        current = self.store.current_orders(game_id, g.turn, player).get(player)
        orders = (current.orders if current and current.source == "mj" and current.message_key == key else []) + [order]
        lines = (current.lines if current and current.source == "mj" and current.message_key == key else []) + [
            order_text.strip()]
        self.store.set_orders(OrderSet(game_id, g.turn, player, orders, lines, "mj", key, iso(now)))
        self.store.log(game_id, iso(now), "mj", "orders for", {"player": player, "line": order_text.strip()})
        result.verdicts.append(LineVerdict(line, True, say("order_recorded_for", player=player)))
        self._check_early(game_id, now)

    def _immediate(self, game_id: str, g: GameRow, state: Any, player: str, order: Order, now: datetime,
                   result: MailResult, author: str | None = None) -> tuple[GameRow, Any] | None:
        """Carry out an order that takes effect at once; record it and mail its results.

        ``player`` is who acts (the MJ's ``POUR`` names someone else than the ``author`` of the mail).
        The author reads their share in the ack; every other player concerned gets a private mail;
        the MJ gets a digest unless he wrote the mail himself.
        """
        author = author or player
        ruleset = self.ruleset(game_id)
        seq = self.store.next_seq(game_id)
        dice = Dice(g.seed, f"action-{seq}")
        done = ruleset.immediate(state, player, order, dice)
        if done is None:
            return None
        new_state, events = done
        s = self.settings(game_id)
        self.store.add_record(self._record(game_id, seq, "action", g.turn, order.text, f"action-{seq}", state,
                                           {player: [[order.verb, list(order.args), order.text]]}, [], dice.rolls,
                                           events, new_state, now))
        g = GameRow(**{**g.__dict__, "state": serial.dumps(new_state)})
        self.store.save_game(g)
        r = self.renderer(game_id)
        mine = [e for e in events if e.audience.includes(author) and (author == MJ or e.audience.kind != "mj")]
        if mine:
            result.extra.append("\n\n".join(r.events_text(mine)))
        letters = []
        for p in self.store.players(game_id):
            if p.name == author:
                continue
            theirs = [e for e in events if e.audience.kind == "players" and p.name in e.audience.players]
            if theirs:
                t = r.mail_text("private", tag=self._tag(game_id), player=p.name, title=order.text, events=theirs,
                                status=None, deadline=None, next_title=None, final=None, setup=False,
                                rectificatif=False, defaulted=False)
                letters.append(Letter(f"rec{seq}-private-{p.name}", game_id, g.turn, "private", p.address,
                                      t.subject, t.body, record_seq=seq))
        if author != MJ:
            ctx = self._digest_context(game_id, seq)
            self.store.mark_reported([f["id"] for f in ctx["failed"]])
            t = r.mail_text("digest", tag=self._tag(game_id), title=order.text, deadline=None, next_title=None,
                            final=None, rectificatif=False, seed=None, **ctx)
            letters += [Letter(f"rec{seq}-digest", game_id, g.turn, "digest", mj, t.subject, t.body,
                               record_seq=seq) for mj in s.mj]
        self._queue(letters, now)
        return g, new_state

    def _ack(self, game_id: str, key: str, mail: IncomingMail, actor: str | None, result: MailResult,
             now: datetime) -> None:
        g = self.game(game_id)
        r = self.renderer(game_id)
        state = self._state_cached(g)
        missing: list[str] = []
        waiting = 0
        prompted = 0
        if g.phase == "running" and state is not None and actor not in (None, MJ):
            ruleset = self.ruleset(game_id)
            asked = self._prompted_cached(game_id, state)
            current = self.store.ordered_players(game_id, g.turn)
            # count every prompted player, required or not: who is required can be private (a hidden PMB Conseil)
            prompted = len(asked)
            waiting = len(asked - current)
            if actor in asked and actor not in current:
                missing = [ruleset.step_title(state).get(self.settings(game_id).language)]
        errors = sum(1 for v in result.verdicts if not v.ok)
        # everything the text says is fixed now; the rendering itself may wait for the end of the batch
        extra_now = tuple(result.extra)
        context: dict[str, Any] = dict(
            tag=self._tag(game_id), player=actor if actor != MJ else "MJ", verdicts=tuple(result.verdicts),
            errors=errors, deadline=self.local(game_id, g.deadline), phase=g.phase,
            missing=missing, waiting=waiting, prompted=prompted, replaced=result.replaced, kept=result.kept_orders,
            subject_in=mail.subject, early=self.local(game_id, g.early_at),
        )
        turn = g.turn

        def letter() -> Letter:
            extra = tuple(x() if callable(x) else x for x in extra_now)
            t = r.mail_text("ack", extra=extra, **context)
            # keyed by the mail's own Message-ID (not where it was stored): the same mail gets the same answer id
            return Letter(f"ack-{mail.message_id}", game_id, turn, "ack", mail.from_addr, t.subject, t.body,
                          in_reply_to=mail.message_id, references=mail.references)

        self._queue_rendered(letter, mail.from_addr, "ack", now)

    def _check_early(self, game_id: str, now: datetime) -> None:
        """All required orders in: resolve early, after the configured delay (never later than the deadline)."""
        s = self.settings(game_id)
        g = self.game(game_id)
        if not s.early_resolution or g.phase != "running" or g.deadline is None or g.early_at:
            return
        required = self._required_cached(game_id, self._state_cached(g))
        if required and required <= self.store.ordered_players(game_id, g.turn):
            early = min(parse_iso(g.deadline), now + timedelta(minutes=s.early_delay_minutes))
            self.store.save_game(GameRow(**{**g.__dict__, "early_at": iso(early)}))

    # ------------------------------------------------------------------ texts for players

    def status_text(self, game_id: str, player: str) -> str:
        g = self.game(game_id)
        state = self._state_cached(g)
        r = self.renderer(game_id)
        view = self.ruleset(game_id).view(state, player)
        return r.mail_text("status", view=view, player=player, tag=self._tag(game_id)).body

    def orders_text(self, game_id: str, player: str) -> str:
        g = self.game(game_id)
        current = self.store.current_orders(game_id, g.turn, player).get(player)
        if current is None or not current.orders:
            return self.renderer(game_id).message("no_orders", turn=g.turn)
        head = self.renderer(game_id).message("your_orders", turn=g.turn)
        return head + "\n" + "\n".join(f"  {o.text}" for o in current.orders)

    def report_text(self, game_id: str, player: str, turn: int) -> str | None:
        """The private results a player got for a past step, rendered again from its record."""
        if turn == 0:
            setups = self.store.records(game_id, "setup")
            rec = setups[0] if setups else None
        else:
            rec = self.store.record_for_turn(game_id, turn)
        if rec is None:
            return None
        r = self.renderer(game_id)
        events = [e for e in events_from_json(json.loads(rec["events"])) if e.audience.includes(player)
                  and (e.audience.kind != "mj" or player == MJ)]
        return "\n\n".join([rec["title"], *r.events_text(events)])

    # ------------------------------------------------------------------ time: deadlines and reminders

    def due(self, now: datetime) -> list[str]:
        """Fire everything due at ``now``: registration ends, reminders, resolutions.  Returns what was done."""
        done: list[str] = []
        for g in self.store.games():
            if g.id not in self.config.games:
                continue
            try:
                done.extend(self._due_game(g, now))
            except EngineError as e:
                done.append(f"{g.id}: {e}")
            except Exception as e:  # a ruleset bug must not stop the other games or the outbox
                log.exception("game %s: firing due work failed", g.id)
                done.append(f"{g.id}: ERROR {type(e).__name__}: {e}")
        return done

    @staticmethod
    def _fire_at(g: GameRow) -> datetime | None:
        """When the open step of a running game resolves (its deadline, or earlier when all orders are in)."""
        if g.phase != "running" or g.deadline is None:
            return None
        deadline = parse_iso(g.deadline)
        return min(deadline, parse_iso(g.early_at)) if g.early_at else deadline

    def _due_game(self, g: GameRow, now: datetime) -> list[str]:
        done: list[str] = []
        if g.phase == "registration" and g.deadline and parse_iso(g.deadline) <= now:
            try:
                self.start_game(g.id, now)
                done.append(f"{g.id}: started")
            except EngineError as e:
                s = self.settings(g.id)
                new_deadline = add_duration(now, s.registration, self.config.timezone)
                with self.store.atomic():
                    self.store.save_game(GameRow(**{**g.__dict__, "deadline": iso(new_deadline)}))
                    r = self.renderer(g.id)
                    t = r.mail_text("notice_mj", tag=self._tag(g.id), text=str(e),
                                    deadline=self.local(g.id, iso(new_deadline)))
                    self._queue([Letter(f"regext-{iso(now)}", g.id, 0, "notice", mj, t.subject, t.body)
                                 for mj in s.mj], now)
                done.append(f"{g.id}: registration extended ({e})")
            return done
        if g.phase != "running" or g.deadline is None:
            return done
        deadline = parse_iso(g.deadline)
        fire_at = min(deadline, parse_iso(g.early_at)) if g.early_at else deadline
        if now >= fire_at:
            if self.resolve(g.id, now):
                done.append(f"{g.id}: turn {g.turn} resolved")
            return done
        done.extend(self._reminders(g, deadline, now))
        return done

    def _reminders(self, g: GameRow, deadline: datetime, now: datetime) -> list[str]:
        s = self.settings(g.id)
        due = [h for h in s.reminder_hours if now >= deadline - timedelta(hours=h) and h not in g.reminders_sent]
        if not due:
            return []
        state = self.state(g)
        ruleset = self.ruleset(g.id)
        current = self.store.current_orders(g.id, g.turn)
        r = self.renderer(g.id)
        letters = []
        for p in self.store.players(g.id):
            prompts = [pr for pr in ruleset.prompts(state) if pr.player == p.name and pr.required]
            if prompts and p.name not in current:
                t = r.mail_text("reminder", tag=self._tag(g.id), player=p.name, deadline=self.local(g.id, g.deadline),
                                title=ruleset.step_title(state).get(s.language), hours=max(due))
                letters.append(Letter(f"remind-{g.turn}-{max(due)}-{p.name}", g.id, g.turn, "reminder", p.address,
                                      t.subject, t.body))
        with self.store.atomic():
            self.store.save_game(GameRow(**{**g.__dict__, "reminders_sent": tuple(sorted({*g.reminders_sent, *due}))}))
            self._queue(letters, now)
        return [f"{g.id}: {len(letters)} reminders"]

    def finish(self, game_id: str, now: datetime) -> GameRow:
        """The MJ ends a game that has no end of its own (a 1626 campaign) or stops one: the seed is revealed."""
        g = self.game(game_id)
        if g.phase == "finished":
            raise EngineError(f"game {game_id} is already finished")
        with self.store.atomic():
            g = GameRow(**{**g.__dict__, "phase": "finished", "deadline": None, "early_at": None,
                           "seed_revealed": True})
            self.store.save_game(g)
            self.store.log(game_id, iso(now), "mj", "game finish", {"turn": g.turn})
        return g

    def status(self, game_id: str) -> GameStatus:
        """Where a game stands, for the MJ: phase, step, deadline, who has ordered and who is awaited."""
        g = self.game(game_id)
        waiting: list[str] = []
        prompted = 0
        if g.phase == "running":
            prompts = [p for p in self.ruleset(game_id).prompts(self.state(g)) if p.required]
            ordered = self.store.ordered_players(game_id, g.turn)
            prompted = len({p.player for p in prompts})
            waiting = sorted({p.player for p in prompts if p.player not in ordered})
        return GameStatus(ruleset=g.ruleset, phase=g.phase, turn=g.turn, deadline=self.local(game_id, g.deadline),
                          early=self.local(game_id, g.early_at), commitment=g.commitment,
                          players=len(self.store.players(game_id)), prompted=prompted, waiting=waiting)

    def deadline_plus(self, game_id: str, hours: float) -> datetime:
        """The open deadline moved by ``hours`` (for `pbem game extend --hours`)."""
        g = self.game(game_id)
        if g.deadline is None:
            raise EngineError(f"game {game_id} has no open deadline")
        return parse_iso(g.deadline) + timedelta(hours=hours)

    def extend(self, game_id: str, until: datetime, now: datetime, *, allow_earlier: bool = False) -> datetime:
        """Move the deadline; players are told.  Moving it earlier needs ``allow_earlier`` (and is announced too)."""
        g = self.game(game_id)
        if g.deadline is None:
            raise EngineError(f"game {game_id} has no open deadline")
        old = parse_iso(g.deadline)
        if until < old and not allow_earlier:
            raise EngineError(f"{iso(until)} is earlier than the current deadline {g.deadline}: "
                              "pass --earlier to move it earlier (players will be told)")
        if until <= now:
            raise EngineError("the new deadline is in the past")
        s = self.settings(game_id)
        r = self.renderer(game_id)
        with self.store.atomic():
            g2 = GameRow(**{**g.__dict__, "deadline": iso(until), "early_at": None,
                            "reminders_sent": tuple(h for h in g.reminders_sent
                                                    if until - timedelta(hours=h) <= now)})
            self.store.save_game(g2)
            letters = []
            for p in self.store.players(game_id):
                t = r.mail_text("deadline_changed", tag=self._tag(game_id), player=p.name,
                                old=self.local(game_id, g.deadline), new=self.local(game_id, iso(until)),
                                earlier=until < old)
                letters.append(Letter(f"deadline-{g.turn}-{iso(until)}-{p.name}", game_id, g.turn, "notice",
                                      p.address, t.subject, t.body))
            self._queue(letters, now)
            self.store.log(game_id, iso(now), "mj", "deadline", {"old": g.deadline, "new": iso(until)})
        del s
        return until

    # ------------------------------------------------------------------ resolution

    def effective_orders(self, game_id: str, turn: int, state: Any) -> tuple[dict[str, list[Order]], list[str],
                                                                             dict[str, dict[str, Any]]]:
        """Orders for every prompted player (defaults for the silent), the defaulted names, and their sources."""
        ruleset = self.ruleset(game_id)
        current = self.store.current_orders(game_id, turn)
        removed = {p.name for p in self.store.players(game_id, include_removed=True) if p.status == "removed"}
        orders: dict[str, list[Order]] = {}
        defaults: list[str] = []
        sources: dict[str, dict[str, Any]] = {}
        for prompt in ruleset.prompts(state):
            p = prompt.player
            if p in orders:
                continue
            if p in current and p not in removed:
                orders[p] = list(current[p].orders)
                sources[p] = {"source": current[p].source, "message": current[p].message_key,
                              "received_at": current[p].received_at, "lines": current[p].lines}
            else:
                orders[p] = ruleset.default_orders(state, p)
                defaults.append(p)
                sources[p] = {"source": "default", "message": None, "received_at": None,
                              "lines": [o.text or o.verb for o in orders[p]]}
        return orders, defaults, sources

    def compute_step(self, game_id: str, turn: int, state: Any, seed: str,
                     given: tuple[dict[str, list[Order]], list[str], dict[str, dict[str, Any]]] | None = None,
                     ) -> tuple[Any, list[Event], Dice, dict[str, list[Order]], list[str], dict[str, Any]]:
        """The pure part of a resolution: (state, orders, seed) -> (new state, events, rolls).

        ``given`` (orders, defaulted players, sources) replaces the orders in force (a re-run).
        """
        orders, defaults, sources = given or self.effective_orders(game_id, turn, state)
        dice = Dice(seed, f"step-{turn}")
        new_state, events = run_resolve(self.ruleset(game_id), state, orders, dice)
        return new_state, events, dice, orders, defaults, sources

    def resolve(self, game_id: str, now: datetime, *, closed_at: datetime | None = None,
                write_forum: bool = True) -> bool:
        """Resolve the open step now.  Idempotent: a step already resolved is left alone (False).

        ``closed_at`` records when the step really closed (its deadline) when it is resolved late;
        the next step still opens from ``now``, so players always get a full step after their results.
        """
        g = self.game(game_id)
        if g.phase != "running":
            return False
        if self.store.record_for_turn(game_id, g.turn) is not None:
            return False
        state = self.state(g)
        ruleset = self.ruleset(game_id)
        if not ruleset.prompts(state):
            return False
        s = self.settings(game_id)
        title = ruleset.step_title(state).get(s.language)
        new_state, events, dice, orders, defaults, sources = self.compute_step(game_id, g.turn, state, g.seed)
        with self.store.atomic():
            seq = self.store.next_seq(game_id)
            rec = self._record(game_id, seq, "step", g.turn, title, f"step-{g.turn}", state,
                               {p: {"orders": [[o.verb, list(o.args), o.text] for o in os], **sources[p]}
                                for p, os in orders.items()}, defaults, dice.rolls, events, new_state,
                               closed_at or now)
            self.store.add_record(rec)
            g2 = self._open_step(g, new_state, g.turn + 1, now)
            self._queue(self._step_letters(g2, seq, g.turn, events, new_state, now), now)
            crashpoint("mid-resolution")
        if write_forum:
            self.write_forum(game_id)
        return True

    def _step_letters(self, g: GameRow, seq: int, turn: int, events: Sequence[Event], state: Any, now: datetime,
                      *, setup: bool = False, rectificatif: bool = False, key_prefix: str = "") -> list[Letter]:
        """The private mails, the MJ digest and the forum post of a resolved step (or of the setup)."""
        s = self.settings(g.id)
        ruleset = self.ruleset(g.id)
        r = self.renderer(g.id)
        rec = self.store.record(g.id, seq)
        title = rec["title"] if rec else ruleset.step_title(state).get(s.language)
        defaulted = set(json.loads(rec["defaults"])) if rec else set()
        outcome = ruleset.outcome(state)
        next_title = ruleset.step_title(state).get(s.language) if outcome is None else None
        deadline = self.local(g.id, g.deadline) if outcome is None else None
        prefix = key_prefix or f"rec{seq}"
        letters: list[Letter] = []
        for p in self.store.players(g.id):
            mine = [e for e in events if e.audience.includes(p.name)]
            status = None if setup else r.mail_text("status", view=ruleset.view(state, p.name), player=p.name,
                                                    tag=self._tag(g.id)).body
            t = r.mail_text("private", tag=self._tag(g.id), player=p.name, title=title, events=mine, status=status,
                            deadline=deadline, next_title=next_title, final=outcome, setup=setup,
                            rectificatif=rectificatif, defaulted=p.name in defaulted)
            letters.append(Letter(f"{prefix}-private-{p.name}", g.id, turn, "private", p.address, t.subject, t.body,
                                  record_seq=seq))
        forum = self.forum_text(g.id, seq, state, events, title, outcome)
        ctx = self._digest_context(g.id, seq)
        self.store.mark_reported([f["id"] for f in ctx["failed"]])  # each failure is told to the MJ once
        t = r.mail_text("digest", tag=self._tag(g.id), title=title, deadline=deadline, next_title=next_title,
                        final=outcome, rectificatif=rectificatif, seed=g.seed if outcome is not None else None, **ctx)
        for mj in s.mj:
            letters.append(Letter(f"{prefix}-digest", g.id, turn, "digest", mj, t.subject, t.body, record_seq=seq))
        pub = r.mail_text("public", tag=self._tag(g.id), title=title, forum=forum, rectificatif=rectificatif)
        for addr in [*s.mj, *([s.forum_address] if s.forum_address else [])]:
            letters.append(Letter(f"{prefix}-public", g.id, turn, "public", addr, pub.subject, pub.body,
                                  record_seq=seq))
        return letters

    def forum_text(self, game_id: str, seq: int, state: Any, events: Sequence[Event], title: str,
                   outcome: Any) -> str:
        r = self.renderer(game_id)
        public = [e for e in events if e.audience.kind == "public"]
        view = self.ruleset(game_id).view(state, PUBLIC)
        return r.forum_text(title=title, events=public, view=view, final=outcome, tag=self._tag(game_id))

    def _digest_context(self, game_id: str, seq: int) -> dict[str, Any]:
        rec = self.store.record(game_id, seq)
        assert rec is not None
        r = self.renderer(game_id)
        events = events_from_json(json.loads(rec["events"]))
        failed = self.store.unreported_failures(game_id)
        return {
            "orders": json.loads(rec["orders"]), "defaults": json.loads(rec["defaults"]),
            "rolls": json.loads(rec["rolls"]),
            "events": [(e.audience.kind, list(e.audience.players), r.event_text(e)) for e in events],
            "failed": failed, "seq": seq, "context": rec["dice_context"],
        }

    def forum_path(self, game_id: str, turn: int, suffix: str = "") -> Path:
        return self.config.forum_dir / game_id / f"turn-{turn}{suffix}.bbcode"

    def write_forum(self, game_id: str) -> list[Path]:
        """Write the forum files of resolved steps not written yet (after the commit; safe to repeat)."""
        written = []
        for rec in self.store.records(game_id):
            if rec["kind"] == "action" or rec["forum_written"]:
                continue
            state = serial.loads(self.ruleset(game_id).state_type, rec["state_after"])
            events = events_from_json(json.loads(rec["events"]))
            outcome = self.ruleset(game_id).outcome(state)
            text = self.forum_text(game_id, rec["seq"], state, events, rec["title"], outcome)
            path = self.forum_path(game_id, rec["turn"])
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)
            self.store.mark_forum_written(game_id, rec["seq"])
            written.append(path)
        return written

    # ------------------------------------------------------------------ MJ corrections and re-runs

    def set_orders_mj(self, game_id: str, player: str, lines: Sequence[str], now: datetime,
                      turn: int | None = None) -> list[LineVerdict]:
        """The MJ sets a player's orders (for the open step, or a resolved one before a re-run); logged."""
        g = self.game(game_id)
        turn = g.turn if turn is None else turn
        ruleset = self.ruleset(game_id)
        s = self.settings(game_id)
        if turn == g.turn:
            state = self.state(g)
        else:
            rec = self.store.record_for_turn(game_id, turn)
            if rec is None:
                raise EngineError(f"no step {turn} in {game_id}")
            state = serial.loads(ruleset.state_type, rec["state_before"])
        name = self._player_named(game_id, player).name
        verdicts: list[LineVerdict] = []
        orders: list[Order] = []
        for line in lines:
            try:
                orders.append(ruleset.parse_order(state, name, line, orders))
                verdicts.append(LineVerdict(line, True))
            except OrderError as e:
                verdicts.append(LineVerdict(line, False, e.msg.get(s.language), e.label.get(s.language)))
        if any(not v.ok for v in verdicts):
            return verdicts
        with self.store.atomic():
            # a correction of a resolved step is marked as such: `rerun` applies it over the record
            source = "mj" if turn == g.turn else "correction"
            self.store.set_orders(OrderSet(game_id, turn, name, orders, list(lines), source, None, iso(now)))
            self.store.log(game_id, iso(now), "mj", "orders set", {"player": name, "turn": turn, "lines": list(lines)})
        return verdicts

    def recorded_orders(self, game_id: str, rec: Mapping[str, Any]) -> tuple[
            dict[str, list[Order]], list[str], dict[str, dict[str, Any]]]:
        """The orders a step was resolved with (defaults included), overlaid with the MJ's later corrections.

        A re-run starts from the record, not from today's roster: removing a player later changes nothing.
        """
        recorded = json.loads(rec["orders"])
        # the record's JSON is key-sorted: give the orders back in prompt order, as the resolution saw them
        before = serial.loads(self.ruleset(game_id).state_type, rec["state_before"])
        ranked = list(dict.fromkeys(p.player for p in self.ruleset(game_id).prompts(before)))
        recorded = {p: recorded[p] for p in sorted(recorded, key=lambda p: (ranked.index(p) if p in ranked
                                                                          else len(ranked), p))}
        orders = {p: [Order(v, tuple(a), t) for v, a, t in o["orders"]] for p, o in recorded.items()}
        sources = {p: {k: v for k, v in o.items() if k != "orders"} for p, o in recorded.items()}
        defaults = list(json.loads(rec["defaults"]))
        for p, o in self.store.current_orders(game_id, rec["turn"]).items():
            if o.source == "correction" and p in orders:
                orders[p] = list(o.orders)
                sources[p] = {"source": "correction", "message": None, "received_at": o.received_at,
                              "lines": o.lines}
                if p in defaults:
                    defaults.remove(p)
        return orders, defaults, sources

    def rerun(self, game_id: str, turn: int, now: datetime, *, publish: bool = False) -> RerunResult:
        """Recompute a resolved step from its record and the current orders; diff it; optionally publish."""
        g = self.game(game_id)
        rec = self.store.record_for_turn(game_id, turn)
        if rec is None:
            raise EngineError(f"step {turn} of {game_id} has not been resolved")
        ruleset = self.ruleset(game_id)
        before = serial.loads(ruleset.state_type, rec["state_before"])
        new_state, events, dice, orders, defaults, sources = self.compute_step(
            game_id, turn, before, g.seed, self.recorded_orders(game_id, rec))
        new_rec = self._record(game_id, rec["seq"], "step", turn, rec["title"], rec["dice_context"], before,
                               {p: {"orders": [[o.verb, list(o.args), o.text] for o in os], **sources[p]}
                                for p, os in orders.items()}, defaults, dice.rolls, events, new_state, now)
        r = self.renderer(game_id)
        old_events = events_from_json(json.loads(rec["events"]))

        def lines(evs: Sequence[Event]) -> list[str]:
            return [f"[{e.audience.kind}{':' + ','.join(e.audience.players) if e.audience.players else ''}] "
                    f"{r.event_text(e)}" for e in evs]

        diff = list(difflib.unified_diff(lines(old_events), lines(events), f"turn {turn} (published)",
                                         f"turn {turn} (re-run)", lineterm=""))
        state_changed = rec["state_after"] != new_rec["state_after"]
        if publish and (diff or state_changed):
            later = [x for x in self.store.records(game_id) if x["seq"] > rec["seq"] and x["kind"] == "step"]
            if later:
                raise EngineError(f"turn {turn} is not the last resolved turn; publishing a correction of it would "
                                  f"leave turns {', '.join(str(x['turn']) for x in later)} computed from the old "
                                  "state. Correct the last turn only.")
            with self.store.atomic():
                version = len([j for j in self.store.journal(game_id) if j["action"] == "rerun publish"]) + 2
                self.store.log(game_id, iso(now), "mj", "rerun publish", {"turn": turn, "replaced": rec})
                new_rec["forum_written"] = 0
                self.store.replace_record(new_rec)
                g2 = self._open_step(GameRow(**{**g.__dict__}), new_state, turn + 1, parse_iso(rec["resolved_at"]))
                # keep the deadline already announced for the next step
                g2 = GameRow(**{**g2.__dict__, "deadline": g.deadline if g2.phase == g.phase else g2.deadline})
                self.store.save_game(g2)
                self._queue(self._step_letters(g2, rec["seq"], turn, events, new_state, now, rectificatif=True,
                                               key_prefix=f"rec{rec['seq']}-v{version}"), now)
            self.write_forum(game_id)
        return RerunResult(turn=turn, diff=diff, state_changed=state_changed,
                           published=publish and bool(diff or state_changed))

    def digest_text(self, game_id: str, turn: int | None = None) -> str:
        """The MJ digest of a resolved step (default: the last one), as mailed."""
        recs = [r for r in self.store.records(game_id) if r["kind"] == "step" and (turn is None or r["turn"] == turn)]
        if not recs:
            raise EngineError(f"no resolved step{'' if turn is None else ' ' + str(turn)} in {game_id}")
        rec = recs[-1]
        r = self.renderer(game_id)
        return r.mail_text("digest", tag=self._tag(game_id), title=rec["title"], deadline=None, next_title=None,
                           final=None, rectificatif=False, seed=None, **self._digest_context(game_id, rec["seq"])).body

    # ------------------------------------------------------------------ audit

    def verify(self, game_id: str, seed: str | None = None) -> list[str]:
        """Check the seed against the published commitment and re-derive every recorded roll."""
        g = self.game(game_id)
        seed = seed or g.seed
        problems = []
        if commitment(seed) != g.commitment:
            problems.append(f"the seed does not match the published commitment {g.commitment}")
        for rec in self.store.records(game_id):
            problems.extend(verify_rolls(seed, rec["dice_context"], rolls_from_json(json.loads(rec["rolls"]))))
        return problems

    def export(self, game_id: str, *, include_seed: bool | None = None) -> dict[str, Any]:
        """Everything about a game as JSON-compatible data (the seed only once revealed, unless asked)."""
        g = self.game(game_id)
        reveal = g.seed_revealed if include_seed is None else include_seed
        return {
            "game": game_id, "ruleset": g.ruleset, "phase": g.phase, "turn": g.turn, "deadline": g.deadline,
            "commitment": g.commitment, "seed": g.seed if reveal else None,
            "players": [{"name": p.name, "address": p.address, "status": p.status}
                        for p in self.store.players(game_id, include_removed=True)],
            "records": [{**{k: v for k, v in rec.items() if k not in ("state_before", "state_after", "orders",
                                                                       "rolls", "events", "defaults")},
                         "orders": json.loads(rec["orders"]), "defaults": json.loads(rec["defaults"]),
                         "rolls": json.loads(rec["rolls"]), "events": json.loads(rec["events"]),
                         "state_before": json.loads(rec["state_before"]) if rec["state_before"] else None,
                         "state_after": json.loads(rec["state_after"])} for rec in self.store.records(game_id)],
            "journal": [{**j, "detail": json.loads(j["detail"])} for j in self.store.journal(game_id)],
        }


@dataclass(frozen=True)
class GameStatus:
    ruleset: str
    phase: str
    turn: int
    deadline: datetime | None
    early: datetime | None
    commitment: str
    players: int
    prompted: int
    waiting: list[str]


@dataclass(frozen=True)
class RerunResult:
    turn: int
    diff: list[str]
    state_changed: bool
    published: bool


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for a burst of allocation-heavy work.

    Resolving a turn or interpreting a batch of mail builds many short-lived objects and no cyclic
    garbage; the collector's full passes over a large heap then cost more than the work itself
    (about 300 ms a turn at 40,000 players, a quarter of mail ingest).  Reference counting still frees
    everything; the collector resumes afterwards.  This is the engine's business (the edge), so
    rulesets stay free of process-wide switches.
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def run_resolve(ruleset: Ruleset, state: Any, orders: Mapping[str, Sequence[Order]],
                dice: Dice) -> tuple[Any, list[Event]]:
    """`Ruleset.resolve` with the cyclic garbage collector paused (see `gc_paused`)."""
    with gc_paused():
        return ruleset.resolve(state, orders, dice)


def read(raw: bytes) -> IncomingMail:
    """Re-exported for callers that hold raw bytes (benchmarks, tests)."""
    return read_message(raw)
