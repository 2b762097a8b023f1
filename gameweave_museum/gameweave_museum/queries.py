"""The questions the rules, views and bots all ask of the state: whose guards are
whose, what the Thief carries, where the Thief and the guards may go, what may be cut
or escaped by. Pure functions of the floor plan and the state.
"""

from __future__ import annotations

from .floorplan import FloorPlan
from .state import (
    ESCAPE_VALUE,
    GUARD_MOVE,
    GUARDS,
    HEAVY_WALK,
    WALK,
    State,
)

THIEF_SEAT = 1


def security_seats(state: State) -> list[int]:
    return list(range(2, state.players + 1))


def guards_of(state: State, seat: int) -> list[int]:
    """The guard numbers (1-3) ``seat`` runs."""
    return [i + 1 for i, s in enumerate(state.guard_seats) if s == seat]


def satchel(plan: FloorPlan, state: State) -> list[int]:
    """The artifacts (collection indices) in the satchel, in the order taken."""
    return [state.display[c] for c in state.taken]


def satchel_value(plan: FloorPlan, state: State) -> int:
    return sum(plan.collection[a].value for a in satchel(plan, state))


def walk_range(plan: FloorPlan, state: State) -> int:
    """4 steps, or 2 while carrying anything heavy."""
    heavy = any(plan.collection[a].heavy for a in satchel(plan, state))
    return HEAVY_WALK if heavy else WALK


def walk_targets(plan: FloorPlan, state: State) -> dict[int, int]:
    """Squares the Thief may walk to now, with their walking distance.

    Walls and guards' squares block: the Thief never walks onto or through a guard.
    """
    found = plan.reachable(state.thief, walk_range(plan, state), blocked=state.guards)
    found.pop(state.thief, None)
    return found


def can_cut(plan: FloorPlan, state: State, square: int) -> bool:
    """Whether there is a working camera or a breaker that is on at ``square``.

    Ruling: a camera or breaker already cut cannot be cut again until a guard
    repairs or resets it.
    """
    cam = plan.camera_at(square)
    if cam is not None:
        return cam.number not in state.cut_cameras
    wing = plan.breaker_at(square)
    return wing is not None and wing not in state.cut_breakers


def can_escape(plan: FloorPlan, state: State, square: int) -> bool:
    return square in state.open_exits and satchel_value(plan, state) >= ESCAPE_VALUE


def guard_targets(plan: FloorPlan, state: State, index: int) -> dict[int, int]:
    """Squares guard ``index`` (0-2) may move to: within 3 steps, walls blocking.

    Ruling: guards walk past one another, but two guards never end on one square.
    """
    here = state.guards[index]
    found = plan.reachable(here, GUARD_MOVE)
    for other, sq in enumerate(state.guards):
        if other != index:
            found.pop(sq, None)
    return found


def free_posts(plan: FloorPlan, state: State) -> list[int]:
    return [p for p in plan.posts if p not in state.guards]


def seats_for_guard(state: State, index: int) -> list[int]:
    """Security seats that may run guard ``index``: every Security player must
    end with at least one guard."""
    seats = security_seats(state)
    after = GUARDS - index - 1
    allowed = []
    for seat in seats:
        chosen = [*state.guard_seats[:index], seat]
        idle = [s for s in seats if s not in chosen]
        if len(idle) <= after:
            allowed.append(seat)
    return allowed
