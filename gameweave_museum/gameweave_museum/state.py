"""The state of one heist.

Plain data only: the rules (``rules.py``) read and change it, the views
(``views.py``) choose what each seat may see of it. Squares are floor-plan square
numbers (see ``floorplan.py``); ``-1`` means "not on the board yet".

What is secret lives side by side with what is public, and is marked so in the
comments: the views are allow-lists, so a new field stays private until a view
chooses to show it.
"""

from __future__ import annotations

from typing import Any

import attrs

#: Rounds in a night; the dawn track starts here.
DAWN = 18
#: The walk of a Thief with nothing heavy, and with something heavy.
WALK = 4
HEAVY_WALK = 2
#: How far a guard moves.
GUARD_MOVE = 3
#: What the satchel must be worth to leave.
ESCAPE_VALUE = 4
GUARDS = 3

# Phases, in the order a match passes through them.
POSTING = "posting"  # Security posts guards 1, 2, 3
ENTRY = "entry"  # the Thief chooses the exit they force
THIEF = "thief"  # the Thief's turn
SECURITY = "security"  # guards 1, 2, 3 move in turn
OVER = "over"


@attrs.define
class Evidence:
    """One token Security has put on the map (public).

    ``kind`` is one of ``last_seen``, ``empty_frame``, ``cut_camera``, ``dark``,
    ``alarm``, ``forced_exit``. ``round`` is when it happened (for the cut and
    dark windows: the last round it could have been, with ``since`` the first).
    """

    kind: str
    square: int
    round: int
    since: int = 0
    how: str = ""


@attrs.define
class Trail:
    """What Security's checks covered, round by round (public, never shown).

    The resample hook reads it to know which squares were seen empty, and which
    guard stood where; it is worked out from the actions, so it is left out of
    the state's snapshot (see :func:`snapshot`) and digests of older logs hold.
    """

    #: Where each post and each guard move put its guard, in order.
    guards: list[int] = attrs.field(factory=list)
    #: Per round (index round - 1): bit mask of the squares where the Thief would
    #: have been Spotted at one of that round's checks.
    watched: list[int] = attrs.field(factory=list)
    #: Per round: whether the monitors were read at one of that round's checks.
    monitored: list[bool] = attrs.field(factory=list)


@attrs.define
class State:
    players: int
    #: Artifact (index into the collection) standing in each case, by case index.
    display: list[int]
    phase: str = POSTING
    round: int = 1
    dawn: int = DAWN
    #: Index (0-2) of the guard whose move it is in the Security turn.
    turn: int = 0
    # -- public ---------------------------------------------------------------
    guards: list[int] = attrs.field(factory=lambda: [-1] * GUARDS)
    guard_seats: list[int] = attrs.field(factory=lambda: [0] * GUARDS)
    #: Where each guard stood when the current round's Security turn began.
    turn_start: list[int] = attrs.field(factory=lambda: [-1] * GUARDS)
    evidence: list[Evidence] = attrs.field(factory=list)
    #: Cases whose theft has come to light -> the round the artifact was taken.
    revealed: dict[int, int] = attrs.field(factory=dict)
    #: Feeds found dead and not yet repaired: camera numbers, and wings gone dark.
    dead_cameras: list[int] = attrs.field(factory=list)
    dark_wings: list[str] = attrs.field(factory=list)
    #: The last round Security saw each camera ("camera 3") or breaker ("North")
    #: working; a cut found later happened after it.
    confirmed: dict[str, int] = attrs.field(factory=dict)
    #: How the heist ended: "escape", "catch" or "dawn" (empty while it goes on).
    ended: str = ""
    # -- the Thief's secrets ----------------------------------------------------
    thief: int = -1
    entry: int = -1
    #: Where the Thief stood at the end of each of their turns, entry first.
    route: list[int] = attrs.field(factory=list)
    #: Cases emptied by the Thief -> the round each was lifted.
    taken: dict[int, int] = attrs.field(factory=dict)
    open_exits: list[int] = attrs.field(factory=list)
    #: Cut cameras (number) and breakers (wing) -> the round of the cut.
    cut_cameras: dict[int, int] = attrs.field(factory=dict)
    cut_breakers: dict[str, int] = attrs.field(factory=dict)
    # -- derived, for the resample hook ---------------------------------------------
    trail: Trail = attrs.field(factory=Trail)


def readable_snapshot(state: State) -> dict[str, Any]:
    """The snapshot with every square by its name (``"K7"``), as the map, the
    history and the actions name it (``replay --state`` and ``--diff``); -1, a
    piece not on the board, stays -1."""
    from .floorplan import coord

    def named(square: int) -> str | int:
        return coord(square) if square >= 0 else square

    data = snapshot(state)
    for key in ("thief", "entry"):
        data[key] = named(data[key])
    for key in ("guards", "turn_start", "route", "open_exits"):
        data[key] = [named(sq) for sq in data[key]]
    for item in data["evidence"]:
        item["square"] = named(item["square"])
    return data


def snapshot(state: State) -> dict[str, Any]:
    """The state as JSON-ready data for digests, without ``trail`` (derived from
    the actions; logs recorded before it existed keep their digests)."""
    return attrs.asdict(state, filter=lambda field, _: field.name != "trail")
