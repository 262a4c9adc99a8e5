"""`pbem calendar`: a game's future deadlines and pauses as iCalendar (RFC 5545), read back by an
independent parser (the icalendar package) as well as checked line by line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
from click.testing import CliRunner
from helpers import make_config, toy_config_toml

from pbem.cli import main
from pbem.ics import Entry, calendar_text, escape, fold, previous_sequences, unfold
from pbem.msg import Msg

T0 = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def test_text_values_are_escaped():
    assert escape("a,b;c\\d\ne\r\nf") == "a\\,b\\;c\\\\d\\ne\\nf"
    assert escape("bip\x07\x1b[31m") == "bip[31m"  # control characters dropped (a terminal escape, a bell)
    assert len(escape("x" * 10_000)) == 500


def test_long_lines_are_folded_at_75_octets_without_cutting_a_character():
    line = "SUMMARY:" + "Pause de Noël « à l'épée », " * 12
    folded = fold(line)
    physical = folded.split("\r\n")
    assert len(physical) > 3
    assert all(len(p.encode("utf-8")) <= 75 for p in physical)
    assert all(p.startswith(" ") for p in physical[1:])
    assert unfold(folded) == [line]  # and nothing lost
    assert fold("DTSTART:20261201T190000Z") == "DTSTART:20261201T190000Z"


def test_the_sequence_grows_when_the_dates_change_and_only_then():
    def entry(start: datetime) -> Entry:
        return Entry("g-step-1-deadline@x", start, None, Msg("Tour 1", "Turn 1"), Msg("d", "d"))

    first = calendar_text("G", [entry(T0)], "fr", T0)
    assert previous_sequences(first) == {"g-step-1-deadline@x": (0, ("20261201T190000Z", ""))}
    same = calendar_text("G", [entry(T0)], "fr", T0 + timedelta(hours=1), first)
    assert previous_sequences(same)["g-step-1-deadline@x"][0] == 0
    moved = calendar_text("G", [entry(T0 + timedelta(days=1))], "fr", T0, same)
    assert previous_sequences(moved)["g-step-1-deadline@x"][0] == 1
    again = calendar_text("G", [entry(T0 + timedelta(days=2))], "fr", T0, moved)
    assert previous_sequences(again)["g-step-1-deadline@x"][0] == 2


def _events(path) -> dict[str, icalendar.Event]:
    raw = path.read_bytes()
    assert raw.endswith(b"\r\n") and b"\n" not in raw.replace(b"\r\n", b"")  # CRLF line ends only
    cal = icalendar.Calendar.from_ical(raw)
    assert cal["VERSION"] == "2.0" and str(cal["PRODID"]).startswith("-//pbem//")
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def test_pbem_calendar_writes_the_game_s_deadlines_and_pauses_and_follows_their_moves(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "new", "toy1", "--now", T0.isoformat())
    ics = tmp_path / "toy1.ics"
    said = run("calendar", "toy1", str(ics), "--now", T0.isoformat())
    assert said.replace("\u00a0", " ") == f"Calendrier écrit : {ics} (1 événement)\n"
    (registration,) = _events(ics).values()
    assert str(registration["UID"]) == "toy1-registration@pbem.test"
    assert registration["DTSTART"].dt == T0 + timedelta(days=1)  # registration = "1d", in UTC
    assert "inscriptions" in str(registration["SUMMARY"])

    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", T0.isoformat())
    run("player", "add", "toy1", "Bran", "bran@pbem.test", "--now", T0.isoformat())
    run("game", "start", "toy1", "--now", (T0 + timedelta(hours=1)).isoformat())
    now = T0 + timedelta(hours=2)
    run("calendar", "toy1", str(ics), "--now", now.isoformat())
    events = _events(ics)
    (deadline,) = events.values()  # the registration is over: only the open step's deadline is left
    uid = str(deadline["UID"])
    assert uid == "toy1-step-1-deadline@pbem.test" and int(deadline["SEQUENCE"]) == 0
    first = deadline["DTSTART"].dt
    assert first.tzinfo is not None and first > now

    run("game", "extend", "toy1", "--hours", "24", "--now", now.isoformat())
    run("calendar", "toy1", str(ics), "--now", now.isoformat())
    moved = _events(ics)[uid]
    assert moved["DTSTART"].dt == first + timedelta(hours=24) and int(moved["SEQUENCE"]) == 1
    run("calendar", "toy1", str(ics), "--now", now.isoformat())
    assert int(_events(ics)[uid]["SEQUENCE"]) == 1  # nothing moved: the same sequence

    start, end = now + timedelta(days=5), now + timedelta(days=9)
    run("game", "pause", "toy1", "--from", start.isoformat(), "--until", end.isoformat(),
        "--reason", "vacances, neige; et \\ le reste", "--now", now.isoformat())
    run("calendar", "toy1", str(ics), "--now", now.isoformat())
    events = _events(ics)
    (pause,) = [e for u, e in events.items() if "-pause-" in u]
    assert pause["DTSTART"].dt == start and pause["DTEND"].dt == end
    assert str(pause["DESCRIPTION"]).startswith("vacances, neige; et \\ le reste")  # escaped, and read back whole
    assert uid in events


def test_an_open_ended_pause_under_way_leaves_out_the_deadline_it_holds(tmp_path):
    cfg = make_config(tmp_path)
    from pbem.engine import Engine
    from pbem.ics import game_entries
    from pbem.store import Store

    e = Engine(cfg, Store(cfg.database))
    e.new_game("toy1", T0)
    e.add_player("toy1", "Arya", "arya@pbem.test", T0)
    e.add_player("toy1", "Bran", "bran@pbem.test", T0)
    e.start_game("toy1", T0 + timedelta(hours=1))
    now = T0 + timedelta(hours=2)
    assert [x.uid for x in game_entries(e.table("toy1"), now)] == ["toy1-step-1-deadline@pbem.test"]
    e.pause("toy1", now, None, "", now)
    entries = game_entries(e.table("toy1"), now + timedelta(minutes=1))
    assert [x.uid.split("-")[1] for x in entries] == ["pause"] and entries[0].end is None


def test_a_live_calendar_is_rewritten_by_the_pass_when_a_date_moves_and_only_then(tmp_path):
    ics = tmp_path / "www" / "toy1.ics"
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, game=f'calendar_file = "{ics}"'), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("game", "new", "toy1", "--now", T0.isoformat())
    assert "calendrier mis à jour" in run("tick", "--now", (T0 + timedelta(minutes=5)).isoformat())
    (registration,) = _events(ics).values()
    before = ics.read_bytes()
    assert "calendrier" not in run("tick", "--now", (T0 + timedelta(minutes=10)).isoformat())  # nothing moved
    assert ics.read_bytes() == before
    run("player", "add", "toy1", "Arya", "arya@pbem.test", "--now", T0.isoformat())
    run("player", "add", "toy1", "Bran", "bran@pbem.test", "--now", T0.isoformat())
    run("game", "start", "toy1", "--now", (T0 + timedelta(hours=1)).isoformat())
    assert "calendrier mis à jour" in run("tick", "--now", (T0 + timedelta(hours=1, minutes=5)).isoformat())
    assert [u.split("@")[0] for u in _events(ics)] == ["toy1-step-1-deadline"]
    assert str(registration["UID"]) not in _events(ics)


def test_the_calendar_replaces_a_link_and_never_writes_through_it(tmp_path):
    """A link planted where the calendar goes (a shared web folder) is replaced, its target left untouched."""
    from datetime import UTC, datetime

    from pbem.ics import write_calendar

    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "web" / "jeu.ics"
    link.parent.mkdir()
    link.symlink_to(target)
    write_calendar(link, "jeu", [], "fr", datetime(2026, 12, 2, tzinfo=UTC))
    assert target.read_text() == "keep me" and not link.is_symlink() and "BEGIN:VCALENDAR" in link.read_text()
    assert sorted(p.name for p in link.parent.iterdir()) == ["jeu.ics"]  # no temporary file left
