"""Durations, dates and periods as an MJ or a player writes them (pbem.engine.when), read in the game's zone."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest

from pbem.config import Duration
from pbem.engine.when import WhenError, parse_duration, parse_moment, parse_span, period_text

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2025, 2, 1, 14, 37, tzinfo=PARIS)  # Saturday 1 February 2025


@pytest.mark.parametrize("text,days,hours", [
    ("24h", 0, 24), ("24 heures", 0, 24), ("2 jours", 2, 0), ("1j12h", 1, 12), ("une semaine", 7, 0),
    ("36 h", 0, 36), ("vingt-quatre heures", 0, 24), ("2 jours et 12 heures", 2, 12), ("48 hours", 0, 48),
    ("a day", 1, 0), ("un jour et demi", 1, 12), ("une heure et demie", 0, 1.5), ("1h30", 0, 1.5),
])
def test_durations(text, days, hours):
    assert parse_duration(text) == Duration(days=days, seconds=int(hours * 3600))


@pytest.mark.parametrize("text", ["bientôt", "24", "deux", "h24"])
def test_unreadable_durations_say_how_to_write_them(text):
    with pytest.raises(WhenError, match="write e.g. 24h"):
        parse_duration(text)


@pytest.mark.parametrize("text,expected", [
    ("samedi 8 février", datetime(2025, 2, 8, 21, 0)), ("le 17/02 à 21 h", datetime(2025, 2, 17, 21, 0)),
    ("lundi 17 février à 21 h 30", datetime(2025, 2, 17, 21, 30)), ("demain", datetime(2025, 2, 2, 21, 0)),
    ("lundi prochain 21h30", datetime(2025, 2, 3, 21, 30)), ("2025-02-17 21:00", datetime(2025, 2, 17, 21, 0)),
    ("Monday 17 February at 9 pm", datetime(2025, 2, 17, 21, 0)), ("17 Feb 2026", datetime(2026, 2, 17, 21, 0)),
    ("le 1er mars à midi", datetime(2025, 3, 1, 12, 0)), ("5 janvier", datetime(2026, 1, 5, 21, 0)),
])
def test_moments_take_the_nearest_year_and_the_default_hour(text, expected):
    assert parse_moment(text, NOW, PARIS, time(21, 0)) == expected.replace(tzinfo=PARIS)


def test_a_weekday_that_does_not_match_the_date_is_refused():
    with pytest.raises(WhenError) as e:
        parse_moment("samedi 9 février", NOW, PARIS, time(21, 0))
    assert e.value.msg.fr == "le 9 février 2025 est un dimanche, pas un samedi"


@pytest.mark.parametrize("text,start,end", [
    ("du samedi 8 au dimanche 16 février inclus", datetime(2025, 2, 8), datetime(2025, 2, 17)),
    ("du 8 au 16 février", datetime(2025, 2, 8), datetime(2025, 2, 17)),
    ("entre le 8 et le 16 février", datetime(2025, 2, 8), datetime(2025, 2, 17)),
    ("from 8 to 16 February", datetime(2025, 2, 8), datetime(2025, 2, 17)),
    ("du 28 février au 3 mars", datetime(2025, 2, 28), datetime(2025, 3, 4)),
    ("jusqu'au lundi 17 février à 21 h", None, datetime(2025, 2, 17, 21, 0)),
    ("jusqu'au 16", None, datetime(2025, 2, 17)),
    ("pendant 3 jours", None, datetime(2025, 2, 4, 14, 37)),
    ("jusqu'à nouvel ordre", None, None), ("until further notice", None, None),
])
def test_periods(text, start, end):
    span, _rest = parse_span(text, NOW, PARIS)
    assert span is not None
    assert span.start == (start.replace(tzinfo=PARIS) if start else None)
    assert span.end == (end.replace(tzinfo=PARIS) if end else None)


def test_a_period_over_the_change_of_summer_time_keeps_wall_clock_days():
    span, _ = parse_span("du samedi 29 au dimanche 30 mars inclus", NOW, PARIS)
    assert span is not None and span.end is not None and span.start is not None
    from datetime import UTC

    real = span.end.astimezone(UTC) - span.start.astimezone(UTC)
    assert real.total_seconds() == 47 * 3600  # two calendar days, one hour short in real time
    assert period_text(span.start, span.end, PARIS) == "du samedi 29 mars au dimanche 30 mars 2025 inclus"
    assert period_text(span.start, span.end, PARIS, "en") == "from Saturday 29 March to Sunday 30 March 2025 inclusive"
