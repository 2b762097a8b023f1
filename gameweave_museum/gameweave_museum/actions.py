"""The actions of The Museum Job, in their canonical JSON form.

Squares are written as coordinates, ``"K7"``. Setup is played as actions too
(``post`` by Security, ``enter`` by the Thief), so a log replays a whole night.
"""

from __future__ import annotations

import attrs

from gameweave_core import action

#: What a walk may do on arrival.
THEN_CUT = "cut"
THEN_ESCAPE = "escape"


@action("post")
@attrs.frozen
class Post:
    """Setup: put guard ``guard`` (1-3) on the free guard post ``at``, run by ``seat``."""

    guard: int
    at: str
    seat: int


@action("enter")
@attrs.frozen
class Enter:
    """Setup: the Thief forces the exit ``exit`` open and starts there."""

    exit: str


@action("walk")
@attrs.frozen
class Walk:
    """Walk to ``to``; ``then`` may be ``"cut"`` or ``"escape"`` on arrival."""

    to: str
    then: str | None = None


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

    guard: int
    to: str


ACTIONS = (Post, Enter, Walk, Hold, Lift, Pick, Cut, Escape, MoveGuard)
