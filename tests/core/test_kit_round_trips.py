"""The kit's round trips check each value once, when it first appears or changes:
a value that cannot survive TOML fails wherever it turns up, however late and
however deep in the view."""

from __future__ import annotations

from typing import Any

import pytest

from gameweave_core.testing import check_round_trips, random_match
from gameweave_core.testing.algorithms import _finite
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.state import State


class LateNone(SealedBid):
    """From the third lot on, one seat's entry deep in the view holds a None (JSON
    takes it, TOML has no null)."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        if state.sold >= 2:
            view["coins"] = [*view["coins"][:-1], {"left": None}]
        return view


class NumberKeys(SealedBid):
    """Once a lot is sold, a table keyed by seat numbers inside the view's list of
    coins (JSON turns the keys into text, so the view is not plain JSON)."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        if state.sold:
            view["coins"] = [{s: c} for s, c in enumerate(view["coins"], start=1)]
        return view


def test_the_tutorial_title_round_trips() -> None:
    check_round_trips(random_match(SealedBid(), 3, 11))


@pytest.mark.parametrize("title", [LateNone(), NumberKeys()], ids=["late None", "number keys"])
def test_a_value_toml_cannot_hold_fails_when_it_first_appears(title: SealedBid) -> None:
    with pytest.raises((AssertionError, TypeError)):
        check_round_trips(random_match(title, 3, 11))


@pytest.mark.parametrize(
    ("numbers", "finite"),
    [
        ([0.0, 1.0, -3.5], True),
        ([1e299] * 20_000, True),
        ([], True),
        ([0.0, float("nan")], False),
        ([float("inf"), 1.0], False),
        ([float("-inf")], False),
        ([2.0, 1e300], False),
        ([-1e301, 0.0], False),
    ],
)
def test_an_observation_number_past_the_bounds_or_not_a_number_is_found(
    numbers: list[float], finite: bool
) -> None:
    """The observation check's bound on every number, done in C over thousands."""
    assert _finite(numbers) is finite
