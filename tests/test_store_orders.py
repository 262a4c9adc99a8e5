"""Orders given inside a transaction are written at its end; reads see them at once, rollbacks undo them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pbem.core import Order
from pbem.store import OrderSet, Store


def given(store: Store, player: str, arg: int, key: str = "m") -> None:
    store.set_orders(OrderSet("g1", 1, player, [Order("GUESS", (arg,), f"GUESS {arg}")], [f"GUESS {arg}"],
                              "mail", key, datetime(2026, 12, 4, 20, 0, tzinfo=UTC)))


def args(store: Store) -> dict[str, int]:
    return {p: o.orders[0].args[0] for p, o in store.current_orders("g1", 1).items()}


def test_reads_inside_the_transaction_see_orders_not_written_yet_in_the_order_given():
    store = Store(":memory:")
    given(store, "Arya", 1)
    given(store, "Bran", 2)
    with store.atomic():
        given(store, "Arya", 3)  # supersedes a stored set: Arya now comes after Bran, as "order by id" says
        given(store, "Cat", 4)
        inside = list(store.current_orders("g1", 1).items())
        assert store.ordered_players("g1", 1) == {"Arya", "Bran", "Cat"}
        assert store.db.execute("select count(*) from orders").fetchone()[0] == 2  # not written yet
    after = list(store.current_orders("g1", 1).items())
    assert [p for p, _ in inside] == [p for p, _ in after] == ["Bran", "Arya", "Cat"]
    assert args(store) == {"Bran": 2, "Arya": 3, "Cat": 4}
    history = store.order_history("g1", 1, "Arya")
    assert [(h["orders"], h["current"]) for h in history] == [
        ('[["GUESS",[1],"GUESS 1"]]', 0), ('[["GUESS",[3],"GUESS 3"]]', 1)]


def test_cancel_and_give_again_in_one_transaction():
    store = Store(":memory:")
    given(store, "Arya", 1)
    with store.atomic():
        store.cancel_orders("g1", 1, "Arya")
        assert args(store) == {} and store.ordered_players("g1", 1) == set()
        given(store, "Arya", 5)
        given(store, "Bran", 6)
        store.cancel_orders("g1", 1, "Bran")
    assert args(store) == {"Arya": 5}
    assert store.ordered_players("g1", 1) == {"Arya"}
    assert [h["current"] for h in store.order_history("g1", 1)] == [0, 1, 0]


def test_a_rolled_back_savepoint_takes_its_orders_with_it():
    store = Store(":memory:")
    with store.atomic():
        given(store, "Arya", 1)
        with pytest.raises(RuntimeError), store.atomic():
            given(store, "Arya", 2)
            given(store, "Bran", 3)
            assert args(store) == {"Arya": 2, "Bran": 3}
            raise RuntimeError("a failed resolution")
        assert args(store) == {"Arya": 1}
    assert args(store) == {"Arya": 1}
    assert store.db.execute("select count(*) from orders").fetchone()[0] == 1


def test_a_failed_transaction_writes_nothing_and_forgets_its_orders():
    store = Store(":memory:")
    with pytest.raises(RuntimeError), store.atomic():
        given(store, "Arya", 1)
        raise RuntimeError("crash")
    assert args(store) == {}
    with store.atomic():
        given(store, "Bran", 2)
    assert args(store) == {"Bran": 2}
    assert store.db.execute("select count(*) from orders").fetchone()[0] == 1


def test_writes_outside_a_transaction_are_committed(tmp_path):
    """Batch writes (executemany) outside `atomic()` commit on their own (a review found them left open)."""
    from datetime import UTC, datetime

    from pbem.outbox import Letter, queue

    path = tmp_path / "db.sqlite"
    store = Store(path)
    given(store, "Arya", 1)
    queue(store, [Letter("k1", "g1", 1, "ack", "a@b.org", "Sujet", "Corps")], sender="jeu@pbem.test",
          sender_name="Jeu", now=datetime(2026, 12, 4, tzinfo=UTC))
    store.store_raw([("m1", b"From: a@b.org\n\nhi\n")], datetime(2026, 12, 4, tzinfo=UTC))
    store.mark_messages([("<m1@x>", "done", "g1", "a@b.org", "ok", datetime(2026, 12, 4, tzinfo=UTC), "m1")])
    with store.atomic():
        store.log("g1", datetime(2026, 12, 4, tzinfo=UTC), "mj", "note", {})
    store.close()
    again = Store(path)
    counts = {t: again.db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("orders", "outbox", "journal")}
    assert counts == {"orders": 1, "outbox": 1, "journal": 1}
    assert again.messages()[0].status == "done"
