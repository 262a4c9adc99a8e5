"""The calendar of deadlines, grace periods, late mail and the latest arrival, with the toy ruleset.

The rule (docs/guide-mj.md, « Le calendrier »): the next deadline is the scheduled close of the
step before plus the step length, in the game's time zone; a late tick or a restart never moves
it; a slot that would leave less than half a step after the results is skipped; after an early
resolution, ``after_early = "calendar"`` keeps the same slots and ``"length"`` counts a full step
from the early close.  Every expected deadline below is written from that rule, in Paris time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from helpers import body, make_config, make_mail, outbox_messages

from pbem.clock import next_deadline
from pbem.config import parse_duration
from pbem.core import Order
from pbem.engine import Engine
from pbem.store import Store

PARIS = ZoneInfo("Europe/Paris")
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)  # Tuesday 1 December 2026, 21 h in Paris


def paris(*args: int) -> datetime:
    return datetime(*args, tzinfo=PARIS).astimezone(UTC)


def make_engine(tmp_path, **game) -> Engine:
    game.setdefault("deadlines", {"turn": "2d@21:00", "short": "2d@21:00"})
    cfg = make_config(tmp_path, extra_game={"early_resolution": False, **game})
    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0, seed="ab" * 32)
    for i, name in enumerate(["Arya", "Bran", "Cersei"]):
        e.add_player("toy1", name, f"p{i}@pbem.test", T0)
    return e


@pytest.fixture
def eng(tmp_path):
    e = make_engine(tmp_path)
    yield e
    e.store.close()


def deadline(e: Engine) -> datetime:
    d = e.game("toy1").deadline
    assert d is not None
    return d


def arrive(e: Engine, key: str, sender: str, text: str, received: datetime) -> None:
    """A mail the mailbox received at ``received`` (stored, not processed yet)."""
    e.store.store_raw([(key, make_mail(sender, text, message_id=f"<{key}@x>"))], received)


# --- the arithmetic itself ---

@pytest.mark.parametrize(("base", "length", "now", "expected"), [
    # 1. two days then 21 h, from a Friday 21 h close: Sunday 21 h, whenever the results go out
    (paris(2026, 12, 4, 21), "2d@21:00", paris(2026, 12, 4, 21, 0, 7), paris(2026, 12, 6, 21)),
    (paris(2026, 12, 4, 21), "2d@21:00", paris(2026, 12, 4, 21, 9), paris(2026, 12, 6, 21)),
    # 2. one day, counted from 21 h, never from the tick: 21 h the next day
    (paris(2026, 12, 4, 21), "1d", paris(2026, 12, 4, 21, 7, 30), paris(2026, 12, 5, 21)),
    # 3. a time of day alone: every day at that time
    (paris(2026, 12, 4, 21), "@21:00", paris(2026, 12, 4, 21, 3), paris(2026, 12, 5, 21)),
    # 4. DST spring forward (Sunday 28 March 2027): whole days keep 21 h, 23 real hours later
    (paris(2027, 3, 27, 21), "1d", paris(2027, 3, 27, 21, 5), paris(2027, 3, 28, 21)),
    # 5. DST fall back (Sunday 31 October 2027): 21 h again, 25 real hours later
    (paris(2027, 10, 30, 21), "1d", paris(2027, 10, 30, 21, 5), paris(2027, 10, 31, 21)),
    (paris(2027, 10, 29, 21), "2d@21:00", paris(2027, 10, 29, 21, 5), paris(2027, 10, 31, 21)),
    # 6. a length in hours is real hours, across the change too: 36 h after Saturday 21 h CEST
    (paris(2027, 10, 30, 21), "36h", paris(2027, 10, 30, 21, 5), paris(2027, 10, 30, 21) + timedelta(hours=36)),
    # 7. a slot that leaves less than half a step after the results is skipped (long outage)
    (paris(2026, 12, 4, 21), "1d", paris(2026, 12, 5, 10), paris(2026, 12, 6, 21)),
    # ... but one that leaves half a step or more is kept
    (paris(2026, 12, 4, 21), "1d", paris(2026, 12, 5, 9), paris(2026, 12, 5, 21)),
])
def test_next_deadline_follows_the_calendar(base, length, now, expected):
    assert next_deadline(base, parse_duration(length, "turn"), PARIS, now) == expected


def test_spring_and_fall_back_slots_are_23_and_25_real_hours_apart():
    spring = next_deadline(paris(2027, 3, 27, 21), parse_duration("1d", "t"), PARIS, paris(2027, 3, 27, 21))
    fall = next_deadline(paris(2027, 10, 30, 21), parse_duration("1d", "t"), PARIS, paris(2027, 10, 30, 21))
    assert spring - paris(2027, 3, 27, 21) == timedelta(hours=23)
    assert fall - paris(2027, 10, 30, 21) == timedelta(hours=25)


# --- through the engine ---

def test_late_ticks_by_seconds_and_minutes_never_shift_the_calendar(eng):
    eng.start_game("toy1", T0)  # Tuesday 21 h: the first deadline is Thursday 21 h
    assert deadline(eng) == paris(2026, 12, 3, 21)
    expected = [paris(2026, 12, 5, 21), paris(2026, 12, 7, 21), paris(2026, 12, 9, 21)]
    for lag, want in zip([timedelta(seconds=37), timedelta(minutes=9), timedelta(minutes=4, seconds=59)],
                         expected, strict=True):
        closing = deadline(eng)
        eng.due(closing + lag)  # cron ran a little after the deadline
        assert deadline(eng) == want  # two days after the scheduled close, not after the tick
        rec = eng.store.record_for_turn("toy1", eng.game("toy1").turn - 1)
        assert rec.resolved_at == closing  # the step is recorded as closed at its deadline


def test_a_one_day_step_keeps_its_hour_over_many_late_ticks(tmp_path):
    e = make_engine(tmp_path, deadlines={"turn": "1d", "short": "1d"}, options={"steps": 8})
    e.start_game("toy1", T0)
    for day in range(2, 9):
        assert deadline(e) == paris(2026, 12, day, 21)
        e.due(deadline(e) + timedelta(minutes=7))  # every tick 7 minutes late: the hour does not creep
    e.store.close()


def test_the_clock_starts_the_game_on_the_calendar_of_the_registration(tmp_path):
    e = make_engine(tmp_path, registration="1d@21:00")  # registration ends Wednesday 21 h
    e.due(paris(2026, 12, 2, 21, 4))  # the tick four minutes later starts the game
    assert e.game("toy1").phase == "running"
    assert deadline(e) == paris(2026, 12, 4, 21)  # two days after the scheduled end, then 21 h
    e.store.close()


def test_a_restart_across_a_deadline_gives_the_same_next_deadline_by_tick_or_by_mail(tmp_path):
    by_tick = make_engine(tmp_path / "tick")
    by_mail = make_engine(tmp_path / "mail")
    for e in (by_tick, by_mail):
        e.start_game("toy1", T0)
        e.due(paris(2026, 12, 3, 20))  # the last tick before the daemon stopped: nothing due
    restart = paris(2026, 12, 4, 0, 30)  # back three and a half hours after Thursday's deadline
    by_tick.due(restart)
    arrive(by_mail, "m1", "p0@pbem.test", "GUESS 4", paris(2026, 12, 3, 22))  # came in during the outage
    by_mail.process_pending(restart)  # the mail closes the step first, at its deadline
    for e in (by_tick, by_mail):
        assert e.game("toy1").turn == 2
        assert deadline(e) == paris(2026, 12, 5, 21)
        assert e.store.record_for_turn("toy1", 1).resolved_at == paris(2026, 12, 3, 21)
        e.store.close()


def test_an_outage_longer_than_half_a_step_skips_the_slot_it_would_leave_too_short(tmp_path):
    e = make_engine(tmp_path, deadlines={"turn": "1d", "short": "1d"})
    e.start_game("toy1", T0)  # deadline Wednesday 21 h
    e.due(paris(2026, 12, 3, 10))  # back Thursday 10 h: Thursday 21 h would leave 11 h of a 24 h step
    assert deadline(e) == paris(2026, 12, 4, 21)
    e.store.close()


@pytest.mark.parametrize(("after_early", "expected"), [
    ("calendar", paris(2026, 12, 5, 21)),  # the same slots: Thursday's deadline + 2 days
    ("length", paris(2026, 12, 4, 21)),  # a full step from the early close (Wed 11 h 30 + 2 days, then 21 h)
])
def test_after_an_early_resolution_the_next_deadline_is_what_the_config_chose(tmp_path, after_early, expected):
    e = make_engine(tmp_path, early_resolution=True, early_delay_minutes=30, after_early=after_early)
    e.start_game("toy1", T0)
    for i in range(3):
        arrive(e, f"o{i}", f"p{i}@pbem.test", "GUESS 5", paris(2026, 12, 2, 11))
    e.process_pending(paris(2026, 12, 2, 11, 1))
    assert e.game("toy1").early_at == paris(2026, 12, 2, 11, 31)
    e.due(paris(2026, 12, 2, 11, 35))
    assert e.game("toy1").turn == 2
    assert e.store.record_for_turn("toy1", 1).resolved_at == paris(2026, 12, 2, 11, 31)
    assert deadline(e) == expected
    e.store.close()


def test_after_early_must_be_calendar_or_length(tmp_path):
    from pbem.config import ConfigError

    with pytest.raises(ConfigError, match="after_early"):
        make_config(tmp_path, extra_game={"after_early": "soon"})
    with pytest.raises(ConfigError, match="grace"):
        make_config(tmp_path, extra_game={"grace": "2d@21:00"})
    with pytest.raises(ConfigError, match="must last"):
        make_config(tmp_path, extra_game={"deadlines": {"turn": "0h"}})


# --- grace ---

def test_grace_accepts_orders_after_the_deadline_and_resolves_when_the_last_ones_arrive(tmp_path):
    e = make_engine(tmp_path, grace="2h", early_resolution=True)
    e.start_game("toy1", T0)
    d = deadline(e)  # Thursday 21 h
    for i in range(2):
        arrive(e, f"o{i}", f"p{i}@pbem.test", "GUESS 5", d - timedelta(hours=3))
    e.process_pending(d - timedelta(hours=3))
    e.due(d + timedelta(minutes=1))  # the deadline passed with Cersei missing: the step waits
    assert e.game("toy1").turn == 1
    notice = outbox_messages(e.store, kind="reminder", rcpt="p2@pbem.test")
    assert len(notice) == 1 and "délai de grâce" in notice[0]["Subject"]
    assert "jusqu'au jeudi 3 décembre 2026 à 23 h" in body(notice[0])
    assert not outbox_messages(e.store, kind="reminder", rcpt="p0@pbem.test")  # she had ordered
    e.due(d + timedelta(minutes=6))
    assert len(outbox_messages(e.store, kind="reminder", rcpt="p2@pbem.test")) == 1  # told once
    arrive(e, "late", "p2@pbem.test", "GUESS 9", d + timedelta(minutes=40))
    e.process_pending(d + timedelta(minutes=42))
    ack = body(outbox_messages(e.store, kind="ack", rcpt="p2@pbem.test")[-1])
    assert "pendant le délai de grâce" in ack and "TROP TARD" not in ack
    e.due(d + timedelta(minutes=42))  # everyone has ordered: the step resolves at once
    rec = e.store.record_for_turn("toy1", 1)
    assert rec.defaults == ()
    assert rec.orders["Cersei"].orders == (Order("GUESS", (9,), "GUESS 9"),)
    assert deadline(e) == paris(2026, 12, 5, 21)  # the grace period does not move the calendar
    e.store.close()


def test_at_the_end_of_grace_the_silent_get_their_defaults_and_later_mail_is_too_late(tmp_path):
    e = make_engine(tmp_path, grace="2h")
    e.start_game("toy1", T0)
    d = deadline(e)
    e.due(d + timedelta(hours=1))
    assert e.game("toy1").turn == 1
    arrive(e, "after", "p1@pbem.test", "GUESS 3", d + timedelta(hours=2, minutes=1))
    e.process_pending(d + timedelta(hours=2, minutes=5))  # grace is over: the step closes first
    rec = e.store.record_for_turn("toy1", 1)
    assert rec.resolved_at == d + timedelta(hours=2)
    assert sorted(rec.defaults) == ["Arya", "Bran", "Cersei"]
    ack = body(outbox_messages(e.store, kind="ack", rcpt="p1@pbem.test")[-1])
    assert "Trop tard : l'étape 1 a été résolue le jeudi 3 décembre 2026 à 23 h" in ack
    assert deadline(e) == paris(2026, 12, 5, 21)
    e.store.close()


# --- late mail ---

def test_a_mail_that_arrived_after_the_close_is_answered_too_late_and_read_for_the_open_step(eng):
    eng.start_game("toy1", T0)
    d = deadline(eng)
    arrive(eng, "late", "p0@pbem.test", "GUESS 7", d + timedelta(minutes=2))
    eng.process_pending(d + timedelta(minutes=5))  # the step closes first, without it
    assert "Arya" in eng.store.record_for_turn("toy1", 1).defaults
    (row,) = [m for m in eng.store.messages() if m.key == "late"]
    assert row.verdict == "ok (1 lines, 0 errors, too late for step 1)"
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "Trop tard : l'étape 1 a été résolue le jeudi 3 décembre 2026 à 21 h, sans ce message" in ack
    assert "Ce message a été lu pour l'étape 2" in ack
    # step 2 is sequential (a gift): the guess is marked too late, not as the player's mistake
    assert "GUESS 7\n    -> TROP TARD : pas de devinette à cette étape" in ack


def test_a_mail_that_arrived_after_the_results_went_out_is_an_ordinary_mail(eng):
    eng.start_game("toy1", T0)
    d = deadline(eng)
    eng.due(d + timedelta(minutes=5))  # resolved: step 2 opened at 21 h 05
    gift = eng.ruleset("toy1").prompts(eng.state(eng.game("toy1")))[0].player
    address = next(p.address for p in eng.store.players("toy1") if p.name == gift)
    arrive(eng, "next", address, "GIFT Bran", d + timedelta(minutes=8))
    eng.process_pending(d + timedelta(minutes=10))
    ack = body(outbox_messages(eng.store, kind="ack", rcpt=address)[-1])
    assert "Trop tard" not in ack and "GIFT Bran\n    -> OK" in ack
    assert eng.store.current_orders("toy1", 2)[gift].orders[0].args == ("Bran",)


# --- the latest arrival wins ---

def test_in_one_tick_the_mail_that_arrived_last_wins_whatever_the_storing_order(eng):
    eng.start_game("toy1", T0)
    # stored in this order, but the second arrived first (the mailbox's receipt times)
    arrive(eng, "b", "p0@pbem.test", "GUESS 9", T0 + timedelta(hours=3))
    arrive(eng, "a", "p0@pbem.test", "GUESS 2", T0 + timedelta(hours=1))
    eng.process_pending(T0 + timedelta(hours=4))
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (9,)


def test_across_ticks_an_older_mail_processed_later_does_not_replace_newer_orders(eng):
    eng.start_game("toy1", T0)
    arrive(eng, "b", "p0@pbem.test", "GUESS 9", T0 + timedelta(hours=3))
    eng.process_pending(T0 + timedelta(hours=3, minutes=1))
    # a mail the mailbox received earlier shows up only now (delayed delivery, or a retried mail)
    arrive(eng, "a", "p0@pbem.test", "GUESS 2", T0 + timedelta(hours=1))
    eng.process_pending(T0 + timedelta(hours=3, minutes=6))
    current = eng.store.current_orders("toy1", 1)["Arya"]
    assert current.orders[0].args == (9,) and current.received_at == T0 + timedelta(hours=3)
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    # T0 + 3 h is Wednesday 0 h in Paris
    assert "Un message arrivé après celui-ci (le mercredi 2 décembre 2026 à 0 h) a déjà été lu" in ack
    assert "Ces ordres remplacent" not in ack
    # and a newer one still replaces them
    arrive(eng, "c", "p0@pbem.test", "GUESS 4", T0 + timedelta(hours=5))
    eng.process_pending(T0 + timedelta(hours=5, minutes=1))
    assert eng.store.current_orders("toy1", 1)["Arya"].orders[0].args == (4,)
    assert "Ces ordres remplacent ceux que vous aviez envoyés avant" in body(
        outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])


def test_the_first_order_mail_of_a_step_does_not_say_it_replaces_anything(eng):
    eng.start_game("toy1", T0)
    arrive(eng, "first", "p0@pbem.test", "GUESS 4", T0 + timedelta(hours=1))
    eng.process_pending(T0 + timedelta(hours=1))
    ack = body(outbox_messages(eng.store, kind="ack", rcpt="p0@pbem.test")[-1])
    assert "GUESS 4\n    -> OK" in ack and "remplacent" not in ack
