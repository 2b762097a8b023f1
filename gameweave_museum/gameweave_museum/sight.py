"""Who sees what: guards' sightlines, cameras and the monitors.

Guards look along their row and column until a wall (the floor plan has every
square's sightline worked out already); cameras watch five squares along each
line but never their own square, and report only through the monitors.
"""

from __future__ import annotations

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
