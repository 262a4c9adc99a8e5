"""Letters to queue and messages to mark done: written at once, or held until the batch being processed ends.

This is the one batch mechanism of the engine.  Outside a batch, `queue` composes and stores a
letter at once and `mark_done` writes the message's row.  Inside `holding()` (the batch's
transaction, see `intake.process_pending`) both are kept in memory and written together when the
block ends, in the same commit: rendering, composing and inserting them in one go keeps each
stage hot in the CPU caches.  The answers held so far count against the reply cap, and the
Message-IDs seen so far count as duplicates, exactly as if they had been written already.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from pbem.config import Config
from pbem.outbox.compose import Letter, outbox_item, queue
from pbem.store import Store
from pbem.wording import join_list

# a message's "done" row: (message_id, status, game, sender, verdict, processed_at, key)
Mark = tuple[str, str, str, str, str, datetime, str]
ANSWER_KINDS = ("ack", "notice", "stranger")  # the kinds that count against the reply cap


class Outgoing:
    """Where the engine puts its letters and its "message done" marks."""

    def __init__(self, config: Config, store: Store):
        self.config = config
        self.store = store
        # letters of the batch being processed (None outside `holding`), and answers among them by address
        self._held: list[tuple[Letter | Callable[[], Letter], datetime]] | None = None
        self._held_replies: Counter[str] = Counter()
        self._held_kinds: Counter[tuple[str, str]] = Counter()  # (address, kind) of the letters held
        # ... and its messages: their "done" rows, and the Message-IDs already processed (before or in the batch)
        self._held_marks: list[Mark] = []
        self._held_ids: set[str] = set()
        # ... and what its messages asked (`resent`): (sender, fingerprint) -> (key, received), the fingerprints by key
        self._held_prints: dict[tuple[str, str], tuple[str, datetime]] = {}
        self._held_print_keys: dict[str, str] = {}
        self._held_last: dict[str, tuple[str, str, datetime]] = {}  # sender -> his last (fingerprint, key, received)
        self._print_keys: dict[str, str] = {}  # (outside a batch: until the message is marked)
        # items gathered under a key during the batch, and what makes their letters when it ends (`gather`)
        self._gathered: dict[str, tuple[list[Any], Callable[[list[Any]], Sequence[Letter]], datetime]] = {}

    @property
    def holding_batch(self) -> bool:
        return self._held is not None

    def sender_name(self, game_id: str) -> str:
        """Whose name a letter goes out in: its game's title; a letter about no one game (a stranger's answer, « pour
        quelle partie ? ») goes out in the names of the games the address hosts, never « pbem »."""
        s = self.config.games.get(game_id)
        if s is not None:
            return s.title
        titles = list(dict.fromkeys(g.title for g in self.config.games.values()))
        return join_list(titles, self.config.language) if titles else "pbem"

    def queue(self, letters: Sequence[Letter], now: datetime) -> None:
        """Queue letters: at once, or at the end of the batch if one is open."""
        if not letters:
            return
        if self._held is not None:
            self._held.extend((letter, now) for letter in letters)
            self._held_replies.update(letter.to for letter in letters if letter.kind in ANSWER_KINDS)
            self._held_kinds.update((letter.to, letter.kind) for letter in letters)
            return
        queue(self.store, letters, sender=self.config.address, sender_name=self.sender_name(letters[0].game),
              now=now)

    def queue_rendered(self, letter: Callable[[], Letter], to: str, kind: str, now: datetime) -> None:
        """Queue a letter whose text is rendered from values fixed now: at the end of the batch, if one is open."""
        if self._held is None:
            self.queue([letter()], now)
            return
        self._held.append((letter, now))
        self._held_kinds[(to, kind)] += 1
        if kind in ANSWER_KINDS:
            self._held_replies[to] += 1

    def gather(self, key: str, item: Any, make: Callable[[list[Any]], Sequence[Letter]], now: datetime) -> None:
        """Items of one kind that end as one mail per batch (the MJ's digest of a batch of 1626 tests).

        Inside a batch the items gathered under ``key`` become letters once, by ``make(items)``,
        when the batch ends; outside one, at once.
        """
        if self._held is None:
            self.queue(make([item]), now)
            return
        bucket = self._gathered.get(key)
        if bucket is None:
            self._gathered[key] = ([item], make, now)
        else:
            bucket[0].append(item)

    def held_replies(self, address: str) -> int:
        """Answers to this address held in the open batch (not stored yet, but they count against the cap)."""
        return self._held_replies[address] if self._held is not None else 0

    def sent_since(self, address: str, kind: str, since: datetime) -> int:
        """Letters of a kind to this address since a time: stored, or held in the open batch."""
        held = self._held_kinds[(address, kind)] if self._held is not None else 0
        return self.store.sent_since(address, kind, since) + held

    def seen(self, message_id: str, key: str) -> bool:
        """Was a mail with this Message-ID processed already (before, or earlier in the open batch)?"""
        if self._held is not None:
            return message_id in self._held_ids
        return self.store.seen_message_id(message_id, key)

    def note_seen(self, message_ids: Sequence[str]) -> None:
        """At the start of a batch: the Message-IDs among its mails that were processed before."""
        self._held_ids.update(self.store.seen_message_ids(message_ids))

    def mark_done(self, key: str, *, message_id: str, game: str, sender: str, verdict: str, now: datetime) -> None:
        """The message is processed: its row says so (at the end of the batch, if one is open)."""
        if self._held is not None:
            self._held_marks.append((message_id, "done", game, sender, verdict, now, key))
            self._held_ids.add(message_id)
        else:
            self.store.mark_message(key, message_id=message_id, status="done", game=game, sender=sender,
                                    verdict=verdict, processed_at=now, fingerprint=self._print_keys.pop(key, ""))

    def note_print(self, key: str, sender: str, fingerprint: str, received: datetime) -> None:
        """What the message ``key`` asked (its `fingerprint`), kept with its row when it is marked done: a
        copy of it that comes again is known (`resent`)."""
        if self._held is not None:
            self._held_prints.setdefault((sender, fingerprint), (key, received))
            self._held_print_keys[key] = fingerprint
            self._held_last[sender] = (fingerprint, key, received)
        else:
            self._print_keys[key] = fingerprint

    def resent(self, sender: str, fingerprint: str, since: datetime, until: datetime,
               key: str) -> tuple[str, datetime] | None:
        """The message this one repeats: the last one read from ``sender`` (before, or earlier in the open
        batch), received from ``since`` to ``until``, when it had the same fingerprint: (its key, when it came).

        Only the last one counts: a client that sends a mail twice sends the copies back to back, while the same
        text sent again after another mail (« prolonge de 48 », « non », « prolonge de 48 ») is meant."""
        last = self._held_last.get(sender) if self._held is not None else None
        if last is not None:
            fp, first, at = last
            return (first, at) if fp == fingerprint and since <= at <= until and first != key else None
        return self.store.resent_of(sender, fingerprint, since, until, key)

    def checkpoint(self) -> Callable[[], None]:
        """A function that forgets what was held since now (for work whose savepoint is rolled back)."""
        if self._held is None:
            return lambda: None
        letters, marks = len(self._held), len(self._held_marks)
        replies, ids, kinds = Counter(self._held_replies), set(self._held_ids), Counter(self._held_kinds)
        prints, print_keys, last = dict(self._held_prints), dict(self._held_print_keys), dict(self._held_last)
        gathered = {key: len(items) for key, (items, _make, _now) in self._gathered.items()}

        def undo() -> None:
            if self._held is not None:
                del self._held[letters:]
                del self._held_marks[marks:]
                self._held_replies, self._held_ids, self._held_kinds = replies, ids, kinds
                self._held_prints, self._held_print_keys, self._held_last = prints, print_keys, last
                for key in list(self._gathered):
                    if key not in gathered:
                        del self._gathered[key]
                    else:
                        del self._gathered[key][0][gathered[key]:]
        return undo

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Letters queued inside, and messages marked done inside, are stored together when the block ends.

        Used inside the batch's transaction: the letters and marks are stored in the same commit
        as before; rendering, composing and writing them in one go is cheaper.
        """
        self._held, self._held_replies, self._held_marks, self._held_ids = [], Counter(), [], set()
        self._gathered = {}
        self._held_kinds = Counter()
        self._held_prints, self._held_print_keys, self._held_last = {}, {}, {}
        try:
            yield
            for items, make, when in self._gathered.values():
                self._held.extend((letter, when) for letter in make(items))
            self.store.mark_messages(self._held_marks, self._held_print_keys)
            # stage by stage (render, then compose, then one insert): each stays hot in the caches
            letters = [(item if isinstance(item, Letter) else item(), when) for item, when in self._held]
            self.store.enqueue([outbox_item(letter, sender=self.config.address,
                                            sender_name=self.sender_name(letter.game), now=when)
                                for letter, when in letters])
        finally:
            self._held = None
            self._held_replies, self._held_marks, self._held_ids = Counter(), [], set()
            self._gathered = {}
            self._held_kinds = Counter()
            self._held_prints, self._held_print_keys, self._held_last = {}, {}, {}
