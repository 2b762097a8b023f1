"""View schemas and the generic encoder (issue 35): every view value is encoded or
refused with its place named, never dropped."""

from __future__ import annotations

import enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gameweave_core import (
    Bag,
    Bool,
    Const,
    IntRange,
    ListOf,
    MapOf,
    Match,
    Maybe,
    NotEncoded,
    NoViewSchema,
    Number,
    ObservationSpec,
    OneOf,
    Record,
    ViewOutsideSchema,
)
from gameweave_core.observation import encode
from gameweave_sealedbid import SealedBid

from .test_space import Cards


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


def test_each_constructor_encodes_its_values() -> None:
    assert encode(Bool(), True) == [1.0]
    assert encode(Bool(), False) == [0.0]
    assert encode(IntRange(0, 4), 3) == [0.75]
    assert encode(IntRange(2, 4, one_hot=True), 3) == [0.0, 1.0, 0.0]
    assert encode(IntRange(5, 5), 5) == [0.0]
    assert encode(Number(-1.0, 1.0), 0.5) == [0.75]
    assert encode(OneOf(("a", "b", "c")), "b") == [0.0, 1.0, 0.0]
    assert encode(OneOf(Colour), "blue") == [0.0, 1.0]
    assert encode(Bag(("x", "y"), max_count=2), ["y", "x", "y"]) == [0.5, 1.0]
    assert encode(Maybe(IntRange(0, 2)), None) == [0.0, 0.0]
    assert encode(Maybe(IntRange(0, 2)), 2) == [1.0, 1.0]
    assert encode(ListOf(Bool(), max_len=3), [True, False]) == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert encode(ListOf(Bool(), length=2), [False, True]) == [0.0, 1.0]
    assert encode(MapOf(["1", "2"], value=Bool()), {"2": True}) == [0.0, 0.0, 1.0, 1.0]
    assert encode(NotEncoded("free text for people"), "anything at all") == []


def test_a_record_encodes_its_fields_in_order() -> None:
    schema = Record(b=Bool(), n=IntRange(0, 2, one_hot=True), note=NotEncoded("a label"))
    assert schema.width == 4
    assert encode(schema, {"n": 1, "b": True, "note": "hi"}) == [1.0, 0.0, 1.0, 0.0]
    # Fields that may be missing: Maybe and NotEncoded.
    assert encode(Record(m=Maybe(Bool()), note=NotEncoded("x")), {}) == [0.0, 0.0]


@pytest.mark.parametrize(
    ("schema", "view", "message"),
    [
        (Record(a=Bool()), {"a": True, "z": 1}, "the view has the key 'z', which the schema"),
        (Record(a=Bool()), {}, "the view lacks the key 'a'"),
        (Record(a=Bool()), {"a": 1}, "view['a'] is 1, not true or false"),
        (Record(n=IntRange(0, 3)), {"n": 4}, "view['n'] is 4, not a whole number from 0 to 3"),
        (Record(n=IntRange(0, 3)), {"n": True}, "view['n'] is True, not a whole number"),
        (Record(n=IntRange(0, 3)), {"n": 1.0}, "view['n'] is 1.0, not a whole number"),
        (Record(c=OneOf(("", "X"))), {"c": "Z"}, "view['c'] is 'Z', not one of '', 'X'"),
        (Record(c=OneOf((0, 1))), {"c": False}, "view['c'] is False, not one of 0, 1"),
        (ListOf(Bool(), max_len=1), [True, True], "has 2 items, more than the schema's 1"),
        (ListOf(Bool(), length=2), [True], "has 1 items, not the schema's 2"),
        (ListOf(IntRange(0, 1), length=2), [0, 5], "view[1] is 5"),
        (MapOf(["1"], value=Bool()), {"2": True}, "has the key '2', which the schema does not"),
        (Bag(("a",), max_count=1), ["a", "a"], "holds 'a' 2 times, more than the schema's 1"),
        (Bag(("a",)), ["b"], "view[0] is 'b', not one of the bag's values"),
        (Number(0, 1), "1", "is '1', not a number from 0 to 1"),
        (Record(r=Record(x=Bool())), {"r": {"x": None, "y": 1}}, "view['r'] has the key 'y'"),
    ],
)
def test_a_value_outside_the_schema_is_an_error_naming_its_place(
    schema: Any, view: Any, message: str
) -> None:
    with pytest.raises(ViewOutsideSchema) as caught:
        encode(schema, view)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_spec_says_what_each_number_holds() -> None:
    schema = Record(
        turn=IntRange(1, 2),
        cells=ListOf(OneOf(("", "X", "O")), length=2),
        name=NotEncoded("a name, for people"),
        last=Maybe(Bool()),
    )
    spec = ObservationSpec.of(schema)
    assert spec.size == spec.shape[0] == 1 + 6 + 2
    assert spec.parts == (
        ("view['turn']", 0, 1, "int 1..2 (scaled)"),
        ("view['cells'][0]", 1, 3, "one-hot of 3 values"),
        ("view['cells'][1]", 4, 3, "one-hot of 3 values"),
        ("view['last']", 7, 1, "present"),
        ("view['last']", 8, 1, "bool"),
    )
    assert spec.not_encoded == (("view['name']", "a name, for people"),)


def test_a_match_encodes_each_seats_view() -> None:
    match = Match(SealedBid(), 3, seed=11)
    spec = match.observation_spec
    assert spec is not None
    match.submit(2, {"type": "bid", "coins": 5})
    for seat in (1, 2, 3, None):
        seen = match.observation(seat)
        assert len(seen) == spec.size
        assert seen == spec.encode(match.view(seat))
    # Seat 2's own bid is in its view, so in its observation; not in seat 1's.
    assert match.observation(2) != match.observation(1)


def test_a_title_without_a_schema_has_no_observation() -> None:
    match = Match(Cards(), 2, seed=1)
    assert match.observation_spec is None
    with pytest.raises(NoViewSchema, match="cards declares no view_schema"):
        match.observation(1)


def test_a_constant_is_checked_and_encodes_as_nothing() -> None:
    board = {"walls": [[0, 1], [1, 2]], "rooms": ["hall"]}
    schema = Record(board=Const(board, "the floor plan"), turn=IntRange(1, 2))
    spec = ObservationSpec.of(schema)
    assert spec.size == 1
    assert spec.encode({"board": {"rooms": ["hall"], "walls": [[0, 1], [1, 2]]}, "turn": 2}) == [
        1.0
    ]
    assert spec.not_encoded == (("view['board']", "constant: the floor plan"),)
    with pytest.raises(ViewOutsideSchema, match=r"view\['board'\] is .* not the constant"):
        spec.encode({"board": {"walls": [], "rooms": ["hall"]}, "turn": 1})


def test_one_of_many_values_may_be_one_scaled_number() -> None:
    squares = [f"{c}{r}" for c in "ABCDE" for r in range(1, 5)]
    schema = ListOf(OneOf(squares, one_hot=False), max_len=2)
    assert schema.width == 4
    assert encode(schema, ["A1", "E4"]) == [1.0, 0.0, 1.0, 1.0]
    assert encode(schema, ["B1"]) == [1.0, 4 / 19, 0.0, 0.0]
    with pytest.raises(ViewOutsideSchema, match=r"view\[0\] is 'Z9', not one of"):
        encode(schema, ["Z9"])


def test_objects_as_values_are_matched_by_kind_all_the_way_down() -> None:
    cards = [{"id": 1, "kind": "coin"}, {"id": 2, "kind": "guard"}]
    assert encode(OneOf(cards), {"kind": "guard", "id": 2}) == [0.0, 1.0]
    assert encode(Bag(cards, max_count=2), [cards[1], cards[1]]) == [0.0, 1.0]
    with pytest.raises(ViewOutsideSchema):
        encode(OneOf(cards), {"id": True, "kind": "coin"})
    with pytest.raises(ValueError, match="lists the value 1 twice"):
        OneOf((1, 2, 1))


@given(
    view=st.fixed_dictionaries(
        {
            "n": st.integers(-1, 5) | st.booleans(),
            "cells": st.lists(st.sampled_from(["", "X", "O", "Z", 1]), max_size=4),
            "seen": st.dictionaries(st.sampled_from(["1", "2", "3"]), st.booleans() | st.none()),
            "hand": st.lists(st.sampled_from(["a", "b", "c"]), max_size=4),
        },
        optional={"maybe": st.none() | st.integers(0, 3) | st.text(max_size=1)},
    )
)
def test_the_compiled_encoder_agrees_with_the_reference(view: dict[str, Any]) -> None:
    schema = Record(
        n=IntRange(0, 4),
        cells=ListOf(OneOf(("", "X", "O")), max_len=3),
        seen=MapOf(["1", "2"], value=Bool()),
        hand=Bag(("a", "b"), max_count=2),
        maybe=Maybe(IntRange(0, 3, one_hot=True)),
    )
    spec = ObservationSpec.of(schema)
    try:
        expected = spec.reference(view)
    except ViewOutsideSchema as exc:
        with pytest.raises(ViewOutsideSchema) as caught:
            spec.encode(view)
        assert str(caught.value) == str(exc)
        return
    assert spec.encode(view) == expected
    assert all(spec.low <= x <= spec.high for x in expected)


_CARDS = [{"id": 1, "kind": "coin"}, {"id": 2, "kind": "guard"}, {"id": 3, "kind": "coin"}]
#: One schema with every constructor, nested, for the compiled plan's property test.
_EVERY = Record(
    flag=Bool(),
    n=IntRange(-2, 3),
    hot=IntRange(0, 2, one_hot=True),
    x=Number(-1.5, 2.0),
    pick=OneOf(("a", "b", None, 1)),
    far=OneOf(("p", "q", "r"), one_hot=False),
    card=OneOf(_CARDS),
    hand=Bag(_CARDS, max_count=2),
    board=Const([1, 2]),
    words=NotEncoded("for people"),
    cells=ListOf(OneOf(("", "X")), length=2),
    rows=ListOf(Record(k=IntRange(0, 1), m=Maybe(Bool())), max_len=2),
    seen=MapOf(["1", "2"], value=Record(on=Bool())),
    opt=Maybe(Record(deep=ListOf(Maybe(OneOf(_CARDS, one_hot=False)), max_len=2))),
)
_ANY = st.none() | st.booleans() | st.integers(-3, 4) | st.sampled_from(["a", "p", "X", ""])
_CARD = st.sampled_from(_CARDS)
#: A view the schema takes, every constructor at work...
_VALID = st.fixed_dictionaries(
    {
        "flag": st.booleans(),
        "n": st.integers(-2, 3),
        "hot": st.integers(0, 2),
        "x": st.floats(-1.5, 2.0) | st.integers(-1, 2),
        "pick": st.sampled_from(["a", "b", None, 1]),
        "far": st.sampled_from(["p", "q", "r"]),
        "card": _CARD,
        "hand": st.lists(_CARD, max_size=2),
        "cells": st.lists(st.sampled_from(["", "X"]), min_size=2, max_size=2),
        "rows": st.lists(
            st.fixed_dictionaries(
                {"k": st.integers(0, 1)}, optional={"m": st.none() | st.booleans()}
            ),
            max_size=2,
        ),
        "seen": st.dictionaries(
            st.sampled_from(["1", "2"]), st.none() | st.fixed_dictionaries({"on": st.booleans()})
        ),
    },
    optional={
        "board": st.sampled_from([[1, 2], (1, 2)]),
        "words": _ANY,
        "opt": st.none() | st.fixed_dictionaries({"deep": st.lists(st.none() | _CARD, max_size=2)}),
    },
)
#: ...and the junk one field may hold instead (or a key the schema does not name).
_JUNK = _ANY | st.sampled_from(
    [
        {"id": True, "kind": "coin"},
        {"id": 1.0, "kind": "coin"},
        {"kind": "coin", "id": 1},
        {"id": 4, "kind": "coin"},
        [{"id": 1, "kind": "coin"}] * 3,
        ["", "X", "X"],
        ["O", "X"],
        [{"k": 2}],
        [{"k": 0, "m": 1}],
        [{"k": 0, "z": 1}],
        {"3": None},
        {"1": {"on": 1}},
        {"deep": [None, None, None]},
        {"deep": [], "extra": 1},
        [2, 1],
        ["p"],
        3.5,
        1.0,
    ]
)


@given(
    valid=_VALID,
    change=st.none()
    | st.tuples(st.sampled_from([*_EVERY.fields, "stray"]), _JUNK)
    | st.tuples(st.sampled_from(list(_EVERY.fields)), st.just("drop")),
)
def test_the_compiled_plan_encodes_as_the_reference_or_refuses(
    valid: dict[str, Any], change: tuple[str, Any] | None
) -> None:
    """The flat plan (``spec.encoder``, no fallback) writes the reference's numbers
    for every value the reference takes, and raises for every value it refuses."""
    view = dict(valid)
    if change is not None:
        key, junk = change
        if junk == "drop":
            view.pop(key, None)
        else:
            view[key] = junk
    spec = ObservationSpec.of(_EVERY)
    out = [0.0] * spec.size
    try:
        expected = spec.reference(view)
    except ViewOutsideSchema:
        with pytest.raises(Exception):  # noqa: B017 - the plan's miss names nothing
            spec.encoder(view, out, 0)
        return
    spec.encoder(view, out, 0)
    assert out == expected
