"""Dice, clock, dates, escaping, serialisation and name matching: the small parts everything stands on."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem import serial
from pbem.clock import add_duration
from pbem.config import ConfigError, Duration, parse_duration
from pbem.core import OrderAmbiguousError, OrderError, OrderSyntaxError
from pbem.dice import Dice, commitment, verify
from pbem.names import fold, match_name, take_name
from pbem.render import _tidy, _tidy_by_lines, bbcode_escape, date_en, date_fr

PARIS = ZoneInfo("Europe/Paris")


# --- dice ---

def test_dice_are_stable_across_python_versions():
    # Regression vector: SHA-256 derivation, not `random`; these values must never change,
    # or every published game would fail `pbem verify`.
    d = Dice("00" * 32, "step-1")
    assert [d.d(6, "a") for _ in range(8)] == [4, 6, 6, 6, 3, 2, 2, 3]
    assert [d.d(100, "b") for _ in range(4)] == [66, 81, 52, 94]


def test_rolls_of_one_purpose_do_not_depend_on_other_purposes():
    a = Dice("11" * 32, "step-2")
    first = [a.d(20, "squad on X") for _ in range(5)]
    b = Dice("11" * 32, "step-2")
    b.d(6, "something else")
    b.shuffle(list(range(10)), "another purpose")
    assert [b.d(20, "squad on X") for _ in range(5)] == first


def test_every_roll_is_recorded_and_verifiable():
    d = Dice("22" * 32, "step-3")
    d.chance(60, "kill"), d.choice(["a", "b", "c"], "pick"), d.sample(range(10), 3, "three")
    assert len(d.rolls) == 5 and d.rolls[0].purpose == "kill"
    assert verify("22" * 32, "step-3", d.rolls) == []
    assert verify("23" * 32, "step-3", d.rolls)
    assert commitment("22" * 32) == commitment("22" * 32) != commitment("23" * 32)


@pytest.mark.parametrize("sides", [6, 10, 100])
def test_dice_faces_are_uniform_within_3_sigma(sides):
    n = 30_000
    d = Dice("33" * 32, f"uniform-{sides}")
    counts = Counter(d.d(sides, "face") for _ in range(n))
    p = 1 / sides
    sigma = math.sqrt(n * p * (1 - p))
    assert set(counts) == set(range(1, sides + 1))
    assert all(abs(c - n * p) <= 3.5 * sigma for c in counts.values()), counts  # 3.5: 100 faces tested at once


@pytest.mark.parametrize("percent", [15, 40, 50, 60, 80])
def test_chance_matches_its_percentage_within_3_sigma(percent):
    n = 20_000
    d = Dice("44" * 32, f"chance {percent}")  # fixed seed: deterministic; one independent stream per percentage
    hits = sum(d.chance(percent, f"{percent}%") for _ in range(n))
    p = percent / 100
    assert abs(hits - n * p) <= 3 * math.sqrt(n * p * (1 - p))


# --- clock and dates ---

def test_whole_day_deadlines_keep_the_wall_clock_hour_across_dst():
    friday_before_dst_end = datetime(2026, 10, 23, 19, 0, tzinfo=UTC)  # 21:00 Paris (summer time)
    end = add_duration(friday_before_dst_end, Duration(days=3), PARIS)
    assert end.astimezone(PARIS).hour == 21 and end.astimezone(PARIS).day == 26  # 21:00 winter time
    assert (end - friday_before_dst_end).total_seconds() == 3 * 86400 + 3600


def test_at_rounds_up_to_the_next_local_time():
    start = datetime(2026, 12, 1, 22, 30, tzinfo=UTC)  # 23:30 Paris
    end = add_duration(start, parse_duration("2d@21:00", "x"), PARIS)
    assert end.astimezone(PARIS).strftime("%d %H:%M") == "04 21:00"


def test_a_deadline_in_the_spring_gap_moves_after_it():
    start = datetime(2026, 3, 27, 1, 30, tzinfo=UTC)  # 02:30 Paris on the 27th; the 29th at 02:30 does not exist
    end = add_duration(start, Duration(days=2), PARIS)
    assert end.astimezone(PARIS).strftime("%d %H:%M") == "29 03:30"


@pytest.mark.parametrize("value", ["soon", "2x", True, "25:00", "@99:00"])
def test_bad_durations_name_the_key(value):
    with pytest.raises(ConfigError, match="games.g.deadlines.turn"):
        parse_duration(value, "games.g.deadlines.turn")


def test_french_and_english_dates():
    dt = datetime(2020, 1, 15, 21, 0, tzinfo=PARIS)
    # « 21 h » and « 9 h 30 » hold together: non-breaking spaces
    assert date_fr(dt) == "mercredi 15 janvier 2020 à 21\u00a0h"
    assert date_fr(datetime(2020, 2, 1, 9, 30)) == "samedi 1er février 2020 à 9\u00a0h\u00a030"
    assert date_en(dt) == "Wednesday 15 January 2020 at 21:00"


# --- escaping and serialisation ---

def test_bbcode_in_values_is_neutralised_and_escaping_is_idempotent():
    evil = "[url=http://evil]clic[/url] [b]"
    once = bbcode_escape(evil)
    assert "[url" not in once and "[b]" not in once and once.replace("\u200b", "") == evil
    assert bbcode_escape(once) == once


@dataclass(frozen=True)
class _Inner:
    names: frozenset[str]
    score: int | None = None


@dataclass(frozen=True)
class _Outer:
    inner: tuple[_Inner, ...]
    where: dict[str, int]


@given(st.lists(st.tuples(st.frozensets(st.text(max_size=5), max_size=4), st.none() | st.integers())),
       st.dictionaries(st.text(max_size=5), st.integers()))
def test_serial_round_trips_and_is_canonical(items, where):
    obj = _Outer(tuple(_Inner(n, s) for n, s in items), where)
    text = serial.dumps(obj)
    assert serial.loads(_Outer, text) == obj
    assert serial.dumps(serial.loads(_Outer, text)) == text


_POST_LOADS: list[str] = []


@dataclass
class _Shared:
    owner: str
    members: list[str]

    def __post_load__(self) -> None:
        _POST_LOADS.append(self.owner)
        self.members = [self.owner if m == self.owner else m for m in self.members]


def test_serial_calls_post_load_once_per_decoded_object_and_the_json_stays_the_same():
    _POST_LOADS.clear()
    built = [_Shared("Arya", ["Bran", "Arya"]), _Shared("Bran", ["Bran"])]
    assert _POST_LOADS == []  # built in memory: not called
    text = serial.dumps(built)
    back = serial.loads(list[_Shared], text)
    assert _POST_LOADS == ["Arya", "Bran"]
    assert back == built and serial.dumps(back) == text
    assert back[0].members[1] is back[0].owner and back[1].members[0] is back[1].owner


@dataclass
class _Told:
    facts: AbstractSet[str]
    latest: Mapping[str, str]


class _Layered(Mapping[str, str]):
    """A mapping that is not a dict (as `pbem.games.pmb.state.Beliefs`)."""

    def __init__(self, top: dict[str, str], below: dict[str, str]) -> None:
        self.top, self.below = top, below

    def __getitem__(self, k: str) -> str:
        return self.top[k] if k in self.top else self.below[k]

    def __iter__(self) -> Iterator[str]:
        return iter({**self.below, **self.top})

    def __len__(self) -> int:
        return len({**self.below, **self.top})


class _Union(AbstractSet[str]):
    """A set that is not a set (as `pbem.games.pmb.state.Knowledge`)."""

    def __init__(self, *parts: frozenset[str]) -> None:
        self.parts = parts

    def __contains__(self, x: object) -> bool:
        return any(x in p for p in self.parts)

    def __iter__(self) -> Iterator[str]:
        return iter(frozenset().union(*self.parts))

    def __len__(self) -> int:
        return len(frozenset().union(*self.parts))


def test_serial_writes_a_set_or_mapping_that_is_not_one_as_the_set_or_dict_it_stands_for():
    layered = _Told(_Union(frozenset({"b", "a"}), frozenset({"c", "a"})), _Layered({"x": "2"}, {"x": "1", "y": "1"}))
    flat = _Told(frozenset({"a", "b", "c"}), {"y": "1", "x": "2"})
    text = serial.dumps(layered)
    assert text == serial.dumps(flat)
    back = serial.loads(_Told, text)
    assert type(back.facts) is frozenset and back == flat == layered


# --- names ---

NAMES = ["ser Schlingue", "Arya", "Arya Stark", "Éléonore", "Jaime", "Jaqen"]


def test_names_match_case_and_accent_insensitively_with_multi_word_names():
    assert match_name("eleonore", NAMES) == "Éléonore"
    assert take_name(["SER", "schlingue", "SERGENT"], NAMES) == ("ser Schlingue", ["SERGENT"])
    assert take_name(["arya", "stark"], NAMES) == ("Arya Stark", [])
    assert take_name(["arya"], NAMES) == ("Arya", [])


def test_near_misses_say_did_you_mean_and_prefixes_can_be_ambiguous():
    with pytest.raises(OrderAmbiguousError) as e:
        match_name("Jamie", NAMES)
    assert "vouliez-vous dire Jaime" in e.value.msg.fr
    with pytest.raises(OrderAmbiguousError) as e:
        match_name("Ja", NAMES)
    assert "peut désigner" in e.value.msg.fr
    with pytest.raises(OrderSyntaxError):
        match_name("Zzzzzz", NAMES)


@given(st.text(max_size=40))
def test_name_matching_fails_only_with_order_errors(text):
    try:
        assert match_name(text, NAMES) in NAMES
    except OrderError as e:
        assert e.msg.fr and e.msg.en
    try:
        name, rest = take_name(text.split(), NAMES)
        assert name in NAMES
    except OrderError:
        pass
    assert fold(fold(text)) == fold(text)


def test_a_misspelt_multi_word_name_is_suggested_whole():
    names = [f"Joueur {i:02d}" for i in range(40)]
    with pytest.raises(OrderAmbiguousError) as e:
        take_name(["Jouer", "05"], names)
    assert "vouliez-vous dire Joueur 05" in e.value.msg.fr


@given(st.lists(st.sampled_from(["a", "é", " ", "\t", "\n", "\n", "\x1f", "\u00a0", "\u3000", "\r", "\u2028"]),
                max_size=40).map("".join))
def test_tidy_drops_end_blanks_and_blank_runs_whatever_the_line_breaks(text):
    assert _tidy(text) == _tidy_by_lines(text)


def test_template_edits_are_picked_up_at_the_next_pass(tmp_path, monkeypatch):
    """Templates are not re-checked at every mail: `refresh_templates` (once per daemon pass) does it."""
    import os

    from pbem import daemon, render

    (tmp_path / "common").mkdir()
    page = tmp_path / "common" / "note.fr.j2"
    page.write_text("{% set subject = 'Sujet' %}Bonjour {{ who }}\n")
    r = render.Renderer("g", "fr", root=tmp_path)
    assert r.mail_text("note", who="Arya").body == "Bonjour Arya\n"
    page.write_text("{% set subject = 'Sujet' %}Salut {{ who }}\n")
    os.utime(page, (page.stat().st_atime + 5, page.stat().st_mtime + 5))
    assert r.mail_text("note", who="Arya").body == "Bonjour Arya\n"  # same pass: the compiled template
    assert render.refresh_templates() is True
    assert r.mail_text("note", who="Arya").body == "Salut Arya\n"
    assert render.refresh_templates() is False
    # the daemon's pass starts with it
    # (first of all: here pbem.render is loaded, so the pass refreshes it, and stops before touching the config)
    calls = []

    def refreshed() -> bool:
        calls.append(1)
        raise RuntimeError("stop here")

    monkeypatch.setattr(render, "refresh_templates", refreshed)
    with pytest.raises(RuntimeError, match="stop here"):
        daemon.tick(None, None)  # type: ignore[arg-type]
    assert calls == [1]


def test_a_dict_in_a_template_reads_as_jinja_reads_it(tmp_path):
    """pbem's environment looks ``view.x`` up in a dict directly: the text must be what Jinja's own gives,
    a dict's methods included, and a missing key is as undefined as before."""
    import jinja2

    from pbem import render

    source = ("{% set subject = 'S' %}{{ d.turn }} {{ d['turn'] }} {{ d.items()|list|length }} "
              "{{ d.get('x', 'none') }} {{ d.missing is defined }} {{ d.keys is defined }}"
              "{% for k, v in d.items() %} {{ k }}={{ v.inner if v is mapping else v }}{% endfor %}\n")
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "page.fr.j2").write_text(source)
    d = {"turn": 3, "items": "shadowed by the method", "deep": {"inner": "b"}}
    expected = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True).from_string(
        source).render(d=d)
    r = render.Renderer("g", "fr", root=tmp_path)
    assert r.mail_text("page", d=d).body == expected
    assert expected.startswith("3 3 3 none False True turn=3 items=shadowed")
    (tmp_path / "common" / "strict.fr.j2").write_text("{{ d.missing }}\n")
    with pytest.raises(jinja2.UndefinedError):
        r.mail_text("strict", d=d)


def test_a_message_is_rendered_again_when_its_words_or_the_genders_change(tmp_path):
    """Short messages are remembered by their words: another word, another gender, or a list, and the
    text is made again."""
    from pbem import render

    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "messages.fr.j2").write_text(
        '{% macro came(p) %}{{ p.name }} est {{ p.agree(p.name, "venu", "venue") }}{% endmacro %}'
        "{% macro all(p) %}{{ p.names|join(', ') }}{% endmacro %}\n")
    r = render.Renderer("g", "fr", root=tmp_path)
    assert r.message("came", name="Arya") == "Arya est venu"
    assert r.message("came", name="Jon") == "Jon est venu"
    r.set_genders({"Arya": "f"})
    assert r.message("came", name="Arya") == "Arya est venue"
    assert r.message("came", name="Jon") == "Jon est venu"
    names = ["Arya"]
    assert r.message("all", names=names) == "Arya"
    names.append("Jon")  # a list is no key: its text is made each time
    assert r.message("all", names=names) == "Arya, Jon"


def test_a_remembered_text_is_made_again_for_another_version_or_other_genders(tmp_path):
    from pbem import render

    r = render.Renderer("g", "fr", root=tmp_path)
    made: list[str] = []

    def make(text: str):
        return lambda: made.append(text) or text

    assert r.remembered(("status", "Arya"), "state 1", make("a")) == "a"
    assert r.remembered(("status", "Arya"), "state 1", make("b")) == "a"  # the same state: not made again
    assert r.remembered(("status", "Bran"), "state 1", make("c")) == "c"
    assert r.remembered(("status", "Arya"), "state 2", make("d")) == "d"
    r.set_genders({"Arya": "f"})
    assert r.remembered(("status", "Arya"), "state 2", make("e")) == "e"
    assert made == ["a", "c", "d", "e"]


def test_iso_tells_the_two_autumn_half_past_twos_apart():
    from pbem.clock import iso

    paris = ZoneInfo("Europe/Paris")
    first = datetime(2026, 10, 25, 2, 30, tzinfo=paris)  # summer time, 00:30 UTC
    second = first.replace(fold=1)  # winter time, 01:30 UTC; equal to `first` for == and hash
    assert iso(first) == "2026-10-25T00:30:00+00:00"
    assert iso(second) == "2026-10-25T01:30:00+00:00"
