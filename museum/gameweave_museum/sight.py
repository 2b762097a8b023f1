"""Who sees what: guards' sightlines, cameras and the monitors.

Guards look along their row and column until a wall (the floor plan has every
square's sightline worked out already); cameras watch five squares along each
line but never their own square, and report only through the monitors.
"""

from __future__ import annotations

from functools import cache

from .floorplan import Camera, FloorPlan
from .state import State


def guard_sees(plan: FloorPlan, guard_square: int, square: int) -> bool:
    """Whether a guard on ``guard_square`` sees ``square`` (its own square included)."""
    return guard_square >= 0 and square in plan.sight[guard_square]


def office_manned(plan: FloorPlan, state: State) -> bool:
    """Whether a guard is in the Security Office, so the monitors are watched."""
    return any(g in plan.office for g in state.guards)


def camera_working(state: State, camera: Camera) -> bool:
    """A camera works while it is not cut and its wing's breaker is on."""
    return camera.number not in state.cut_cameras and camera.wing not in state.cut_breakers


# Squares as bits of an int (bit n: square n), for the record of what Security's
# checks covered (``State.trail``) and the resample hook's set arithmetic.


@cache
def _sight_masks(plan: FloorPlan) -> tuple[int, ...]:
    return tuple(sum(1 << sq for sq in seen) for seen in plan.sight)


def sight_mask(plan: FloorPlan, guard_square: int) -> int:
    """The squares a guard on ``guard_square`` sees, as a bit mask."""
    return _sight_masks(plan)[guard_square] if guard_square >= 0 else 0


@cache
def _coverage_masks(plan: FloorPlan) -> tuple[int, ...]:
    return tuple(sum(1 << sq for sq in cam.coverage) for cam in plan.cameras)


def coverage_mask(plan: FloorPlan, camera: Camera) -> int:
    """The squares ``camera`` watches, as a bit mask."""
    return _coverage_masks(plan)[camera.number - 1]
