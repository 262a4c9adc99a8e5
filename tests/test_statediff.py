"""statediff: the changes between two JSON values, applied back, give the second value exactly."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.statediff import apply, diff

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False, width=16) | st.text(max_size=3)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=4), max_leaves=20)


@given(values, values)
@settings(max_examples=400)
def test_applying_the_diff_gives_the_second_value_and_leaves_the_first_alone(a, b):
    before = copy.deepcopy(a)
    changes = diff(a, b)
    out = apply(a, json.loads(json.dumps(changes)))  # the changes survive being stored as JSON
    assert json.dumps(out, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.dumps(a, sort_keys=True) == json.dumps(before, sort_keys=True)


def test_a_test_appended_to_a_long_history_is_one_short_change():
    history = [{"number": i, "what": "Escrime/AG", "total": 17} for i in range(500)]
    a = {"tests": 500, "history": history, "requests": []}
    b = {"tests": 501, "history": [*history, {"number": 501, "what": "PE", "total": 9}], "requests": []}
    changes = diff(a, b)
    assert changes == [["+", ["history"], [{"number": 501, "what": "PE", "total": 9}]], ["=", ["tests"], 501]]
    assert len(json.dumps(changes)) < 120


def test_changes_come_in_key_order_whatever_the_order_of_the_mappings():
    # (a state's data made by `pbem.serial.to_data` has its fields' order, one read back its keys sorted)
    a = {"b": 1, "a": {"y": 1, "x": 1}}
    b = {"a": {"x": 2, "y": 2}, "b": 2}
    assert diff(a, b) == diff(dict(reversed(list(a.items()))), b) == [
        ["=", ["a", "x"], 2], ["=", ["a", "y"], 2], ["=", ["b"], 2]]


def test_equal_values_of_other_types_are_a_change():
    assert diff({"x": 1}, {"x": True}) == [["=", ["x"], True]]
    assert diff({"x": 1}, {"x": 1}) == []
