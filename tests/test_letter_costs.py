"""Issue #24: a step's letters name what their reader needs, not the whole roster, and a state is
encoded at the cost of what changed, to the same bytes."""

from __future__ import annotations

import email
import email.policy
import random
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pbem import config as configmod
from pbem import serial
from pbem.core import Audience, Event, OrderError
from pbem.engine import Engine
from pbem.engine.steps import letters
from pbem.games.pmb.bots import random_orders
from pbem.store import OrderSet, PlayerRow, Store

START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
FIRST = ["Arya", "Bran", "Cersei", "Davos", "Edmure", "Gendry", "Hodor", "Ilyn", "Jaime", "Kevan"]
LAST = ["Flowers", "Hill", "Pyke", "Rivers", "Sand", "Snow", "Stone", "Waters"]


def _names(n: int) -> list[str]:
    return [f"{FIRST[i % 10]} {LAST[(i // 10) % 8]}{'' if i < 80 else f' {i // 80 + 1}'}" for i in range(n)]


def _played_turn(root: Path, n: int) -> tuple[Engine, Store]:
    cfg = configmod.parse({
        "pbem": {"database": str(root / "db.sqlite"), "address": "jeu@pbem.test", "forum_dir": str(root / "forum"),
                 "timezone": "Europe/Paris"},
        "mailbox": {"kind": "maildir", "path": str(root / "in")}, "outbox": {"kind": "maildir", "path": str(root / "out")},
        "games": {"jeu1": {"ruleset": "pmb", "tag": "PMB", "mj": "mj@pbem.test", "registration": "3d@21:00",
                           "deadlines": {"turn": "2d@21:00"}}}}, root)
    store = Store(cfg.database)
    eng = Engine(cfg, store)
    eng.new_game("jeu1", START, seed="be7c" * 16)
    with store.atomic():
        for i, name in enumerate(_names(n)):
            store.add_player(PlayerRow("jeu1", name, f"p{i}@pbem.test", "active", {}, None, START))
    eng.start_game("jeu1", START + timedelta(minutes=1))
    rs = eng.ruleset("jeu1")
    g = eng.game("jeu1")
    state = eng.state(g)
    rng = random.Random(7)
    with store.atomic():
        for p in rs.prompts(state):
            orders: list[Any] = []
            for line in random_orders(state, p.player, rng.randrange(1 << 30)):
                try:
                    orders.append(rs.parse_order(state, p.player, line, orders))
                except OrderError:
                    pass
            if orders:
                store.set_orders(OrderSet("jeu1", g.turn, p.player, orders, [o.text for o in orders], "mj", None,
                                          START + timedelta(hours=1)))
    eng.resolve("jeu1", START + timedelta(days=3))
    return eng, store


def _bodies(store: Store, kind: str, turn: int) -> list[str]:
    out = []
    for item in store.outbox_items(game="jeu1"):
        if item.kind == kind and item.turn == turn:
            raw = store.outbox_raw(item.id)
            assert raw is not None
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            part = msg.get_body(("plain",))
            assert part is not None
            out.append(part.get_content())
    return out


def test_a_turns_letters_grow_with_what_the_reader_knows_not_with_the_roster(tmp_path: Path) -> None:
    sizes = {}
    for n in (100, 500):
        _eng, store = _played_turn(tmp_path / str(n), n)
        privates = _bodies(store, "private", 1)
        assert len(privates) == n
        sizes[n] = sorted(len(b) for b in privates)[n // 2]  # the median letter
        forum = _bodies(store, "public", 1)[0]
        names = _names(n)
        # the forum post names every player (living or dead): the letters say so and need not
        assert all(name in forum for name in names)
        # each letter says where the names are (or, its situation too long and cut, how to have it whole)
        assert all("Leurs noms sont dans le compte rendu du forum" in b or "ETAT vous renvoie votre situation" in b
                   for b in privates)
        store.close()
    # five times the players: the median letter much less than five times longer (the roster list was ~n names)
    assert sizes[500] < 1.5 * sizes[100], sizes


def _event(kind: str, audience: Audience, **data: Any) -> Event:
    return Event(kind, audience, data)


def test_readers_give_each_his_own_events_and_the_news_while_they_are_few() -> None:
    events = [_event("a", Audience.to("Ann")), _event("b", Audience.public(), player="Bob"),
              _event("c", Audience.mj()), _event("d", Audience.public(), player="Ann"),
              _event("e", Audience.to("Bob", "Ann"))]
    readers = letters.Readers(events)
    assert readers.told_to("Ann") == letters.told_to(events, "Ann")
    assert readers.told_to("Bob") == letters.told_to(events, "Bob")
    mine, shown, left = readers.letter("Ann", news_fit=True)
    assert mine == letters.told_to(events, "Ann") and (shown, left) == (2, 0)
    # too many news for the letters: Ann keeps those naming her, the other one is counted for the forum
    mine, shown, left = readers.letter("Ann", news_fit=False)
    assert [e.kind for e in mine] == ["a", "d", "e"] and (shown, left) == (1, 1)
    mine, shown, left = readers.letter("Cid", news_fit=False)
    assert mine == [] and (shown, left) == (0, 2)


def test_many_public_events_do_not_fit_in_a_letter() -> None:
    class Texts:
        def text(self, e: Event) -> str:
            return "x" * 10

    few = letters.Readers([_event("b", Audience.public())] * letters.LETTER_NEWS)
    many = letters.Readers([_event("b", Audience.public())] * (letters.LETTER_NEWS + 1))
    assert few.news_fit(Texts())  # type: ignore[arg-type]
    assert not many.news_fit(Texts())  # type: ignore[arg-type]


def test_an_overlong_text_is_cut_between_names_and_says_how_to_have_it_whole() -> None:
    text = ", ".join(f"Joueur {i}" for i in range(2000))
    cut = letters.abridged(text, 4000, "(RAPPORT 1)")
    assert len(cut) <= 4000 + len(" (RAPPORT 1)") and cut.endswith(" (RAPPORT 1)")
    assert cut[: -len(" (RAPPORT 1)")] in text and not cut[: -len(" (RAPPORT 1)")].endswith(",")
    assert letters.abridged("court", 4000, "tail") == "court"
    lines = "\n".join(f"ligne {i}" for i in range(2000)) + "\n"
    cut = letters.abridged_lines(lines, 8000, "(ETAT)")
    assert cut.endswith("\n(ETAT)\n") and len(cut) <= 8000 + len("\n(ETAT)\n")
    assert all(line.startswith("ligne ") for line in cut.splitlines()[:-1])


@dataclass(frozen=True)
class Roll:
    number: int
    what: str


@dataclass(frozen=True)
class Session:
    tests: int
    history: tuple[Roll, ...]
    names: dict[str, int]


def test_a_state_encoded_from_its_predecessor_gives_the_same_bytes_and_reuses_its_records() -> None:
    first = Session(3, tuple(Roll(i, f"Escrime {i} « é »") for i in range(3)), {"b": 1, "a": 2})
    memo = serial.Memo()
    data = serial.to_data(first, None, memo)
    assert serial.canonical(data, None, memo) == serial.dumps(first)
    second = replace(first, tests=4, history=(*first.history, Roll(3, "PE")), names={**first.names, "c": 3})
    memo2 = serial.Memo()
    data2 = serial.to_data(second, memo, memo2)
    assert serial.canonical(data2, memo, memo2) == serial.dumps(second)
    assert all(data2["history"][i] is data["history"][i] for i in range(3))  # the shared records' data, as it was
    # decoded with a memo, then encoded from it: the same bytes again
    memo3 = serial.Memo()
    back = serial.loads(Session, serial.dumps(second), memo3)
    assert back == second
    third = replace(back, history=(*back.history, Roll(4, "FO")))
    memo4 = serial.Memo()
    assert serial.canonical(serial.to_data(third, memo3, memo4), memo3, memo4) == serial.dumps(third)


def test_a_history_changed_in_the_middle_is_not_taken_for_one_that_only_grew() -> None:
    first = Session(3, tuple(Roll(i, "Escrime") for i in range(50)), {})
    memo = serial.Memo()
    serial.canonical(serial.to_data(first, None, memo), None, memo)
    # an equal record, but not the same object, in the middle; and one really changed
    history = list(first.history)
    history[10] = Roll(10, "Escrime")
    history[20] = Roll(20, "Vigilance")
    second = replace(first, history=(*history, Roll(50, "PE")))
    memo2 = serial.Memo()
    assert serial.canonical(serial.to_data(second, memo, memo2), memo, memo2) == serial.dumps(second)
    # growing again and again from the memo: the same bytes as a fresh encoding at every step
    state, prev = second, memo2
    for i in range(51, 60):
        state = replace(state, history=(*state.history, Roll(i, "FO")))
        nxt = serial.Memo()
        assert serial.canonical(serial.to_data(state, prev, nxt), prev, nxt) == serial.dumps(state)
        prev = nxt
    # and the memo stays the size of the state (the records it left are not carried for ever)
    assert len(prev.records) <= 2 * len(state.history) + 1024
