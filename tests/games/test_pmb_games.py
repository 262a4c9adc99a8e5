"""Pour Ma Belle: statistics of every percentage, information flow, full simulated games, templates, speed."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import jinja2
import pytest
from fresh import digest, replay

from pbem import serial
from pbem.core import MJ, PUBLIC, Event, Order, Seat
from pbem.dice import Dice
from pbem.games.pmb import RULESET
from pbem.games.pmb import roles as R
from pbem.games.pmb.bots import random_orders
from pbem.games.pmb.state import State
from pbem.render import install_vocabulary as vocabulary

from .test_pmb_helpers import FakeDice, new_game, play, to

ROOT = Path(__file__).resolve().parents[2]
N = 2000


def within_3_sigma(hits: int, n: int, percent: float) -> bool:
    p = percent / 100
    return abs(hits - n * p) <= 3 * math.sqrt(n * p * (1 - p))


def orders_of(st: State, lines: dict[str, list[str]]) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for prompt in RULESET.prompts(st):
        acc: list[Order] = []
        for line in lines.get(prompt.player, []):
            acc.append(RULESET.parse_order(st, prompt.player, line, acc))
        out[prompt.player] = acc or RULESET.default_orders(st, prompt.player)
    return out


def rate(st: State, lines: dict[str, list[str]], hit: Callable[[State, list[Event]], int], n: int = N) -> int:
    orders = orders_of(st, lines)
    return sum(hit(*RULESET.resolve(st, orders, Dice(f"{i:x}", "step"))) for i in range(n))


# ---------------------------------------------------------------- T: statistics with the real dice


def test_T15_dying_target_denounces_a_teammate_15pct() -> None:
    hits = rate(new_game(), {"Arya": ["ESCOUADE Garlan"], "Sansa": ["ESCOUADE Garlan"]},
                lambda st, ev: int(bool(to(ev, "Arya", "squad_killed")[0]["denounced"])))
    assert within_3_sigma(hits, N, 15), hits


def test_T40_two_turns_at_visenya_goes_down_40pct() -> None:
    st, _ = play(new_game(), {})
    hits = rate(st, {}, lambda s, ev: sum(1 for n in ("Robb", "Margaery", "Olenna") if s.players[n].location != "visenya"), n=700)
    assert within_3_sigma(hits, 2100, 40), hits


def test_T50_vigilance_hears_the_squad_50pct() -> None:
    st, _ = play(new_game(), {"Arya": ["ESCOUADE Loras"]})
    st, _ = play(st, {"Pycelle": ["POTION vigilance Loras"]})
    hits = rate(st, {"Robb": ["ESCOUADE Loras"], "Jon": ["ESCOUADE Loras"]}, lambda s, ev: int(s.players["Loras"].alive))
    assert within_3_sigma(hits, N, 50), hits


def test_T50_chef_warned_by_the_attack_on_his_bodyguard_50pct() -> None:
    hits = rate(new_game(), {"Robb": ["GARDE Arya"], "Garlan": ["ESCOUADE Robb"], "Willas": ["ESCOUADE Robb"]},
                lambda s, ev: len(to(ev, "Robb", "chef_warned")))
    assert within_3_sigma(hits, N, 50), hits


ARREST_ARYA = {"Tywin": ["ARRESTATION Arya"], "Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"], "Boros": ["ARRESTATION"]}


def test_T50_torturer_starts_at_50pct() -> None:
    st, _ = play(new_game(), ARREST_ARYA)  # the interrogation is during the next turn, in the cells
    hits = rate(st, {}, lambda s, ev: len(s.prisoners[0].confession) - 1)
    assert within_3_sigma(hits, N, 50), hits


@pytest.mark.parametrize("start", [10, 30, 70, 90])
def test_T_torturer_drift_is_the_current_percentage(start: int) -> None:
    st, _ = play(new_game(), ARREST_ARYA)
    st.torturer = start
    hits = rate(st, {}, lambda s, ev: len(s.prisoners[0].confession) - 1, n=1000)
    assert within_3_sigma(hits, 1000, start), hits


def test_T_torturer_drift_plus_10_per_execution_minus_10_per_escape() -> None:
    lines = {"Tywin": ["ARRESTATION Arya"], "Jaime": ["ARRESTATION"], "Arys": ["ARRESTATION"], "Boros": ["ARRESTATION"]}
    st, _ = play(new_game(), lines)
    st, _ = play(st, {})
    values = []
    for verdict in ("MORT",) * 5:
        st2, _ = play(st, {"Tywin": [f"VERDICT Arya {verdict}"]})
        values.append(st2.torturer)
        st.torturer = st2.torturer
    assert values == [60, 70, 80, 90, 90]


def test_T60_squad_kills_a_garde_royal_60pct() -> None:
    hits = rate(new_game(), {"Robb": ["ESCOUADE Jaime"], "Jon": ["ESCOUADE Jaime"], "Sansa": ["ESCOUADE Jaime"]},
                lambda s, ev: int(not s.players["Jaime"].alive))
    assert within_3_sigma(hits, N, 60), hits


def test_T80_squad_kills_a_conseil_member_80pct() -> None:
    hits = rate(new_game(), {"Robb": ["ESCOUADE Varys"], "Margaery": ["ESCOUADE Varys"], "Olenna": ["ESCOUADE Varys"]},
                lambda s, ev: int(not s.players["Varys"].alive))
    assert within_3_sigma(hits, N, 80), hits


def test_T75_responsible_team_takes_75pct_of_the_troops() -> None:
    rows: list[tuple[str, str, str | None, str | None]] = [("Tywin", "lord_commandant", None, None), ("Jaime", "garde", None, None), ("Arys", "garde", None, None),
            ("Varys", "chuchoteurs", None, None), ("Robb", "stark_chef", "visenya", None), ("Jon", "stark_sergent", "visenya", None),
            ("Margaery", "tyrell_chef", "culpucier", None), ("Loras", "tyrell_sergent", "culpucier", None)]
    rows += [(f"T{i}", "tyrell_hm", "culpucier", "Loras") for i in range(7)]
    st = new_game(rows)
    counts = set()
    for i in range(20):
        s, _ = RULESET.resolve(st, orders_of(st, {"Robb": ["ESCOUADE Margaery"], "Jon": ["ESCOUADE Margaery"]}),
                               Dice(f"{i:x}", "step"))
        counts.add(sum(1 for p in s.players.values() if p.team == "stark") - 2)
    assert counts == {6}  # 8 survivors: 6 to Stark, 2 to Lannister


# ---------------------------------------------------------------- bot games


def run_game(n: int, seed: int, check: Callable[[State, State, list[Event]], None] | None = None) -> tuple[State, list[list[Event]]]:
    st, events = RULESET.setup([Seat(f"Joueur {i:02d}") for i in range(n)], {}, Dice(f"{seed:04x}", "setup"))
    history = [events]
    if check:
        check(State(), st, events)
    while RULESET.outcome(st) is None:
        lines = {p.player: random_orders(st, p.player, seed) for p in RULESET.prompts(st)}
        orders = orders_of(st, lines)
        new, ev = RULESET.resolve(st, orders, Dice(f"{seed:04x}", f"step-{st.turn}"))
        if check:
            check(st, new, ev)
        history.append(ev)
        st = new
        assert st.turn <= 61
    return st, history


def invariants(before: State, after: State, events: list[Event]) -> None:
    assert after.order == (before.order or after.order)
    assert sorted(after.players) == sorted(after.order)
    for n in after.order:
        p = after.players[n]
        assert p.location in (*R.LEVELS, R.DONJON, R.CACHOTS)
        if p.alive and p.location == R.DONJON:
            assert p.rank in R.DONJON_RANKS and n in after.donjon
        if p.hidden:
            assert p.rank in R.CONSEIL and p.location == R.CULPUCIER
        if before.players and not before.players[n].alive:
            assert not p.alive  # the dead stay dead
    living_city = [p for p in after.players.values() if p.alive and p.location in (R.VISENYA, R.FOSSEDRAGON) and not p.hidden]
    assert sum(1 for p in living_city if p.location == R.VISENYA) <= after.capacity[R.VISENYA]
    assert sum(1 for p in living_city if p.location == R.FOSSEDRAGON) <= after.capacity[R.FOSSEDRAGON]
    for team in R.REBEL_TEAMS:
        if team not in after.defeated:
            assert sum(1 for p in after.players.values() if p.alive and p.team == team and p.rank == R.CHEF) == 1
    assert R.TORTURER_MIN <= after.torturer <= R.TORTURER_MAX
    assert len(after.potions_used) <= 3 and len(set(after.potions_used)) == len(after.potions_used)
    prompted = {p.player for p in RULESET.prompts(after)}
    assert all(after.players[n].alive for n in prompted)
    awaiting = {pr.name for pr in after.prisoners if pr.awaiting_verdict}
    for n in prompted:  # a prisoner plays only the turn of his verdict, and only with prison_turns = 1
        assert after.players[n].location != R.CACHOTS or (n in awaiting and after.options.get("prison_turns", 1) == 1)
    assert serial.loads(State, serial.dumps(after)) == after


# I (information flow): tests/games/test_pmb_information.py, a model written from the rule text.


def _game_digest(st: State, history: list[list[Event]]) -> str:
    return digest([serial.dumps(st), *(json.dumps([[e.kind, e.audience.kind, list(e.audience.players),
                                                     serial.to_data(e.data)] for e in evs], sort_keys=True)
                                       for evs in history)])


def full_game_digest(seed: int) -> str:
    """(run by `fresh.replay` in another process) the digest of a 40-player bot game: final state, every event."""
    return _game_digest(*run_game(40, seed))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_G_full_40_player_game_to_victory_invariants_and_determinism(seed: int) -> None:
    """Invariants at every turn, a winner; the same seed gives the same game in another process, whose string
    hashes (so set orders) differ from this one's."""
    with ThreadPoolExecutor(1) as pool:
        again = pool.submit(replay, "games.test_pmb_games:full_game_digest", seed)
        st, history = run_game(40, seed, invariants)
        out = RULESET.outcome(st)
        assert out is not None and st.finished
        assert st.winner is None or set(out.winners) == {n for n in st.order if st.players[n].team == st.winner}
        assert again.result() == _game_digest(st, history)


def test_G_views() -> None:
    st, _ = run_game(40, 7)
    assert RULESET.view(st, PUBLIC)["finished"] is True
    assert set(RULESET.view(st, MJ)["roles"]) == set(st.order)
    some = st.order[0]
    v = RULESET.view(st, some)
    assert v["name"] == some and v["role"] == st.players[some].code


# ---------------------------------------------------------------- templates


def _emitted_kinds() -> set[str]:
    src = "\n".join(p.read_text() for p in (ROOT / "pbem/games/pmb").glob("*.py"))
    return set(re.findall(r'(?:tell|public|mj)\(\s*"([a-z_]+)"', src)) | set(re.findall(r'Event\("([a-z_]+)"', src))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_M_every_event_kind_renders_in_both_languages(lang: str) -> None:
    env = vocabulary(jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT / "templates")), undefined=jinja2.StrictUndefined))
    module = env.get_template(f"pmb/events.{lang}.j2").module
    kinds = _emitted_kinds()
    assert len(kinds) > 50
    for kind in sorted(kinds):
        assert hasattr(module, kind), f"no macro {kind} in events.{lang}.j2"
    seen: set[str] = set()
    for seed in range(12):
        _, history = run_game(40, seed)
        for evs in history:
            for e in evs:
                text = str(getattr(module, e.kind)(e.data)).strip()
                assert text and "{{" not in text, e.kind
                seen.add(e.kind)
    # scenario events for the rarer kinds
    from .test_pmb_powers import _lone_original

    st, ev1 = play(new_game(), {"Robb": ["GARDE Arya"], "Garlan": ["ESCOUADE Robb"], "Willas": ["ESCOUADE Robb"],
                                "Jon": ["ESCOUADE Sansa"], "Tywin": ["CIBLE Garlan"]}, FakeDice().force("warned", True))
    _, ev2 = play(_lone_original(new_game()), {"Jon": ["TRAHIR"]})
    for e in ev1 + ev2:
        assert str(getattr(module, e.kind)(e.data)).strip()
        seen.add(e.kind)
    assert len(seen) > 35
    status = env.get_template(f"pmb/status.{lang}.j2")
    st0 = new_game()
    mine = status.render(view=RULESET.view(st0, "Robb"))
    assert "Arya" in mine  # (whom he knows, by name)
    # the roster is counted, not listed: the forum post names everyone
    assert ("Vivants : 21." if lang == "fr" else "Living: 21.") in mine and "Garlan" not in mine
    assert status.render(view=RULESET.view(st0, PUBLIC))
    forum = env.get_template(f"pmb/forum.{lang}.j2")
    public_events = [e for e in ev1 if e.audience.kind == "public"]
    text = forum.render(events=public_events, view=RULESET.view(st, PUBLIC), title="Tour 1", game="pmb")
    assert "Arya" in text and "stark" not in text.lower()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_M2_status_as_mailed_one_fact_per_line(lang: str) -> None:
    """The status in the mail environment (trim_blocks): every line says one thing."""
    from pbem.render import Renderer

    env = Renderer("pmb", lang).mail
    st = new_game()
    st.players["Robb"].learn_team("Kevan", "lannister")
    text = env.get_template(f"pmb/status.{lang}.j2").render(view=RULESET.view(st, "Robb"))
    lines = text.splitlines()
    sep = "\u00a0: " if lang == "fr" else ": "  # French: the non-breaking space before « : » (render.french_spaces)
    known = [ln for ln in lines if ln.startswith("- ")]
    assert len(known) == 7 and all(ln.count(sep) == 1 for ln in known), known
    assert f"- Kevan{sep}Lannister" in known
    assert any(ln.endswith("(influence 7).") for ln in lines)
    st.players["Robb"].alive = False
    dead = env.get_template(f"pmb/status.{lang}.j2").render(view=RULESET.view(st, "Robb"))
    assert ("Vous avez perdu la vie\u00a0; vous étiez chef Stark." if lang == "fr" else "(dead)") in dead


# Speed is measured by `make bench` (bench/pmb.py, figure 6), never in a timed test.


def _unused(_: Sequence[object]) -> None:  # keep imports honest for ruff
    pass


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_M3_the_mj_reads_each_cause_of_death_in_his_language(lang: str) -> None:
    """The MJ's death line names the cause in words (« meurt : escouade »), never the code (« squad »)."""
    from pbem.core import Audience, Event
    from pbem.render import Renderer

    r = Renderer("pmb", lang)
    words = {"fr": {"squad": "escouade", "garde": "défense d'un Garde Royal", "poison": "poison",
                    "execution": "exécution", "betrayal": "trahison manquée"},
             "en": {"squad": "squad", "garde": "a Garde Royal's defence", "poison": "poison",
                    "execution": "execution", "betrayal": "failed betrayal"}}[lang]
    for cause, word in words.items():
        text = r.event_text(Event("death_cause", Audience.mj(), {"player": "Margaery", "role": "tyrell_chef",
                                                                  "cause": cause, "by": "lannister"}))
        said = text.split(": ", 1)[1] if lang == "en" else text.split("meurt\u00a0: ", 1)[1]
        assert said.startswith(word + ","), (cause, text)
