"""The floor-plan picture and the balance script's arithmetic."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from gameweave_museum.balance import Summary, play_one, wilson
from gameweave_museum.floorplan import COLUMNS, quayside_palace
from gameweave_museum.pictures import floor_plan_svg

SVG = "{http://www.w3.org/2000/svg}"


def test_the_floor_plan_picture_is_svg_showing_every_feature() -> None:
    plan = quayside_palace()
    root = ET.fromstring(floor_plan_svg())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert root.tag == f"{SVG}svg"

    def marks(letter: str) -> int:
        # Column letters appear twice (top and bottom edges); the rest are features.
        return texts.count(letter) - (2 if letter in COLUMNS else 0)

    for number in range(1, 8):
        assert texts.count(f"c{number}") == (2 if number == 1 else 1), f"camera {number}"
        assert texts.count(str(number)) == 2, f"row {number} on both side edges"
    # Each letter once more in the legend (c1 too).
    assert marks("V") == 2 + 1 and marks("C") == 7 + 1
    assert marks("B") == len(plan.breakers) + 1 and marks("P") == len(plan.posts) + 1
    assert sum(marks(x) for x in "DWS") == len(plan.exits) + 3
    for letter in "AT":
        assert texts.count(letter) == 2, "column letters on the top and bottom edges"
    assert texts.count("14") == 2, "row numbers on both side edges"


def test_the_picture_is_the_same_every_time() -> None:
    assert floor_plan_svg() == floor_plan_svg()


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (2000, 2000, 0.9981, 1.0)],
)
def test_wilson_interval(wins: Any, games: Any, low: Any, high: Any) -> None:
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_a_balance_game_ends_and_the_row_adds_up() -> None:
    reason, rounds = play_one((3, 1, 0))
    assert reason in ("escape", "catch", "dawn") and 1 <= rounds <= 18
    row = Summary(3, 4, {"escape": 1, "catch": 2, "dawn": 1}, 7.5).row()
    assert row.startswith("| 3 | 4 | 25.0% |") and "2 (50.0%)" in row
