"""Invariants of the Quayside Palace floor plan (gameweave_museum/quayside_palace.toml)."""

from __future__ import annotations

from typing import Any

import pytest

from gameweave_museum.floorplan import HEIGHT, WIDTH, coord, load, parse_coord, quayside_palace

PLAN = quayside_palace()
WINGS = {"North", "West", "South", "East", "Court"}


def test_the_map_is_20_squares_across_and_14_down() -> None:
    assert len(PLAN.wing_of) == WIDTH * HEIGHT == 20 * 14
    assert coord(0) == "A1" and coord(WIDTH * HEIGHT - 1) == "T14"


def test_five_wings_and_every_floor_square_in_one() -> None:
    assert {PLAN.wing_of[sq] for sq in PLAN.floor} == WINGS
    assert all(PLAN.wing_of[sq] == "" for sq in PLAN.walls)


def test_walls_block_walking() -> None:
    for sq in PLAN.floor:
        assert not set(PLAN.neighbours[sq]) & PLAN.walls


def test_counts() -> None:
    assert len(PLAN.cases) == 9
    assert sum(c.vault for c in PLAN.cases) == 2
    assert len(PLAN.cameras) == 7 and [c.number for c in PLAN.cameras] == list(range(1, 8))
    assert len(PLAN.posts) == 4
    assert len(PLAN.exits) == 7
    assert {e.kind for e in PLAN.exits} == {"door", "window", "skylight"}


def test_the_vault_cases_are_in_the_north_wing_and_hold_the_crowns() -> None:
    assert all(c.wing == "North" for c in PLAN.cases if c.vault)
    crowns = sorted((a.value, a.heavy) for a in PLAN.collection if a.vault)
    assert crowns == [(3, True), (4, True)]


def test_the_collection_is_named_valued_and_the_tapestry_and_bronze_are_heavy() -> None:
    assert len(PLAN.collection) == 9 and len({a.name for a in PLAN.collection}) == 9
    assert all(a.value >= 1 for a in PLAN.collection)
    heavy = {a.name for a in PLAN.collection if a.heavy and not a.vault}
    assert (
        len(heavy) == 2
        and any("Tapestry" in n for n in heavy)
        and any("Bronze" in n for n in heavy)
    )


def test_one_breaker_and_at_least_one_camera_per_wing() -> None:
    assert set(PLAN.breakers) == WINGS
    assert all(PLAN.wing_of[sq] == wing for wing, sq in PLAN.breakers.items())
    assert {c.wing for c in PLAN.cameras} == WINGS


def test_the_office_is_a_block_of_six_squares_in_the_middle_of_the_court() -> None:
    cols = {sq % WIDTH for sq in PLAN.office}
    rows = {sq // WIDTH for sq in PLAN.office}
    assert len(PLAN.office) == 6 and len(cols) * len(rows) == 6, "a solid rectangle"
    assert all(PLAN.wing_of[sq] == "Court" for sq in PLAN.office)
    court = [sq for sq in PLAN.floor if PLAN.wing_of[sq] == "Court"]
    mid_col = sum(sq % WIDTH for sq in court) / len(court)
    assert min(cols) <= mid_col <= max(cols)


def test_everything_is_reachable_from_every_post() -> None:
    for post in PLAN.posts:
        reach = PLAN.dist[post]
        targets = [c.square for c in PLAN.cases] + [e.square for e in PLAN.exits]
        targets += [c.square for c in PLAN.cameras] + list(PLAN.breakers.values())
        assert all(t in reach for t in targets)
        assert set(reach) == set(PLAN.floor), "no sealed-off rooms"


def test_features_stand_on_floor_squares_and_never_share_one() -> None:
    squares = [c.square for c in PLAN.cases] + [e.square for e in PLAN.exits]
    squares += [c.square for c in PLAN.cameras] + list(PLAN.breakers.values()) + list(PLAN.posts)
    assert len(squares) == len(set(squares))
    assert not set(squares) & PLAN.walls


def test_cameras_cover_straight_lines_of_at_most_five_and_not_their_own_square() -> None:
    for cam in PLAN.cameras:
        assert cam.square not in cam.coverage
        for sq in cam.coverage:
            same_row = sq // WIDTH == cam.square // WIDTH
            same_col = sq % WIDTH == cam.square % WIDTH
            assert same_row or same_col
            gap = abs(sq - cam.square) if same_row else abs(sq - cam.square) // WIDTH
            assert 1 <= gap <= 5


@pytest.mark.parametrize("text", ["K0", "U3", "K15", "7K", "", "KK"])
def test_bad_coordinates_are_refused_with_a_reason(text: Any) -> None:
    with pytest.raises(ValueError, match=r"square|off the map"):
        parse_coord(text)


def test_a_map_whose_grids_disagree_is_refused() -> None:
    from importlib import resources

    text = resources.files("gameweave_museum").joinpath("quayside_palace.toml").read_text()
    broken = text.replace("...C#X.#V..V#.B#....", "...C.X.#V..V#.B#....", 1)
    with pytest.raises(ValueError, match="disagree"):
        load(broken)
