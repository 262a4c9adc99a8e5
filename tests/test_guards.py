"""Guards that nothing exercised before (issue 19, the suite): a sent mail queued again is not sent again,
and the dice's shuffle draws every order equally often.

(`pbem run` stepping aside while another pass holds the lock: tests/test_daemon.py.)
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from datetime import UTC, datetime, timedelta

from pbem.dice import Dice, derive
from pbem.outbox import Letter, queue, send_due
from pbem.store import Store

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


class Recorder:
    """A transport that keeps what it was asked to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[bytes, list[str]]] = []

    def send(self, message: bytes, mail_from: str, rcpt_to: list[str]) -> None:
        self.sent.append((message, rcpt_to))

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- the outbox: a sent mail is never queued again


def test_a_sent_mail_queued_again_is_not_sent_again(tmp_path):
    """A pass that composes the same letters again (a re-run of its stage after a crash, a second pass on the
    same step) must not send them twice: the queue keeps the row it has, sent, whatever the new one says."""
    store = Store(tmp_path / "db.sqlite")
    letters = [Letter(f"rec1-private-{name}", "toy1", 1, "private", f"{name.lower()}@pbem.test", "Tour 1",
                      f"Bonjour {name}")
               for name in ("Arya", "Bran")]
    with store.atomic():
        assert queue(store, letters, sender="jeu@pbem.test", sender_name="Jeu", now=T0) == 2
    out = Recorder()
    assert send_due(store, out, sender="jeu@pbem.test", now=T0).sent == 2
    sent = {i.id: i for i in store.outbox_items()}
    assert {i.status for i in sent.values()} == {"sent"}

    later = T0 + timedelta(hours=3)
    changed = [Letter(x.key, x.game, x.turn, x.kind, x.to, x.subject, x.body + " (again)") for x in letters]
    with store.atomic():
        assert queue(store, changed, sender="jeu@pbem.test", sender_name="Jeu", now=later) == 0
    assert send_due(store, out, sender="jeu@pbem.test", now=later).sent == 0
    assert len(out.sent) == 2  # nothing more went out
    again = {i.id: i for i in store.outbox_items()}
    assert again == sent  # same rows: status, attempts, times, as they were
    for mid in sent:
        assert b"(again)" not in (store.outbox_raw(mid) or b"")
    # a new letter (another key) in the same pass still goes
    with store.atomic():
        assert queue(store, [Letter("rec2-public", "toy1", 2, "public", "mj@pbem.test", "Tour 2", "x")],
                     sender="jeu@pbem.test", sender_name="Jeu", now=later) == 1
    assert send_due(store, out, sender="jeu@pbem.test", now=later).sent == 1 and len(out.sent) == 3
    store.close()


# ---------------------------------------------------------------- the shuffle: every order equally likely


def _chi2_limit(dof: int, z: float = 3.719) -> float:
    """The chi-square value a uniform draw exceeds with probability 1e-4 (Wilson-Hilferty, z of 1e-4)."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def _chi2(counts: Counter[tuple[int, ...]], outcomes: list[tuple[int, ...]]) -> float:
    """Pearson's statistic of ``counts`` against equal chances for each of ``outcomes``."""
    expected = sum(counts.values()) / len(outcomes)
    return sum((counts.get(o, 0) - expected) ** 2 / expected for o in outcomes)


def test_shuffle_gives_every_order_of_four_equally_often_over_many_seeds():
    """24,000 shuffles of four items, each by another game's seed: the 24 orders within a chi-square bound
    that a fair shuffle exceeds once in 10,000 runs (and that a classic biased shuffle far exceeds)."""
    n = 24_000
    counts = Counter(tuple(Dice(f"{seed:064x}", "step-1").shuffle(range(4), "seating order")) for seed in range(n))
    assert len(counts) == 24
    orders = list(itertools.permutations(range(4)))
    assert _chi2(counts, orders) < _chi2_limit(23)

    def naive(seed: int) -> tuple[int, ...]:  # swap each place with any place: 4^4 paths onto 24 orders, unequal
        out = list(range(4))
        for i in range(4):
            j = derive(f"{seed:064x}".encode(), "step-1", "naive", i, 0, 3)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    biased = Counter(naive(seed) for seed in range(n))
    assert _chi2(biased, orders) > 5 * _chi2_limit(23)  # the bound has the power to see a biased shuffle


def test_shuffle_puts_each_item_anywhere_equally_often_in_one_game():
    """One game's dice, 12,000 shuffles of the same purpose in a row (each draw counts on): each of ten items
    lands in each of the ten places equally often, within the same bound."""
    n = 12_000
    d = Dice("5e" * 32, "step-3")
    places: Counter[tuple[int, int]] = Counter()
    for _ in range(n):
        for place, item in enumerate(d.shuffle(range(10), "squad order")):
            places[(item, place)] += 1
    expected = n / 10
    for item in range(10):
        stat = sum((places[(item, place)] - expected) ** 2 / expected for place in range(10))
        assert stat < _chi2_limit(9), (item, [places[(item, p)] for p in range(10)])
    assert len(d.rolls) == n * 9  # one recorded draw per swap
