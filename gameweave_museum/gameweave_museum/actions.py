"""The actions of The Museum Job, in their canonical JSON form.

Squares are written as coordinates, ``"K7"``. Setup is played as actions too
(``post`` by Security, ``enter`` by the Thief), so a log replays a whole night.

Every field declares the values it can take (``values``), so the core numbers
the actions for game-playing algorithms: squares are the floor plan's floor
squares in reading order, guards 1-3, Security seats 2 up to the player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import attrs

from gameweave_core import action, values

from .floorplan import coord, quayside_palace

#: What a walk may do on arrival.
THEN_CUT = "cut"
THEN_ESCAPE = "escape"
#: The guards' numbers.
GUARD_NUMBERS = range(1, 4)


@cache
def floor_squares() -> tuple[str, ...]:
    """Every square a Thief or a guard can stand on, in reading order."""
    return tuple(coord(sq) for sq in quayside_palace().floor)


def _floor(players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
    return floor_squares()


def _posts(players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(coord(sq) for sq in quayside_palace().posts)


def _exits(players: int, config: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(coord(e.square) for e in quayside_palace().exits)


def _security_seats(players: int, config: Mapping[str, Any]) -> range:
    return range(2, players + 1)


@action("post")
@attrs.frozen
class Post:
    """Setup: put guard ``guard`` (1-3) on the free guard post ``at``, run by ``seat``."""

    guard: int = values(GUARD_NUMBERS)
    at: str = values(_posts)
    seat: int = values(_security_seats)


@action("enter")
@attrs.frozen
class Enter:
    """Setup: the Thief forces the exit ``exit`` open and starts there."""

    exit: str = values(_exits)


@action("walk")
@attrs.frozen
class Walk:
    """Walk to ``to``; ``then`` may be ``"cut"`` or ``"escape"`` on arrival."""

    to: str = values(_floor)
    then: str | None = values((THEN_CUT, THEN_ESCAPE), none=True, default=None)


@action("hold")
@attrs.frozen
class Hold:
    """Stay and do nothing."""


@action("lift")
@attrs.frozen
class Lift:
    """Take the artifact out of the case the Thief stands on."""


@action("pick")
@attrs.frozen
class Pick:
    """Open the lock of the exit the Thief stands on."""


@action("cut")
@attrs.frozen
class Cut:
    """Cut the camera or breaker the Thief stands on."""


@action("escape")
@attrs.frozen
class Escape:
    """Leave through the open exit the Thief stands on (satchel worth 4 or more)."""


@action("guard")
@attrs.frozen
class MoveGuard:
    """Move guard ``guard`` (1-3) to ``to``, within 3 steps (staying is a move)."""

    guard: int = values(GUARD_NUMBERS)
    to: str = values(_floor)


ACTIONS = (Post, Enter, Walk, Hold, Lift, Pick, Cut, Escape, MoveGuard)
