"""What The Museum Job declares for game-playing algorithms: the shape of its
views (``view_schema``), from which the core encodes every view into numbers,
and its facts (``game_facts``): chance, dynamics and the kind of utilities; and a
fast ``copy_state`` for the clones search algorithms make.

The schema follows ``views.py`` key by key. Squares are one-hot over the floor
squares, except in the two long lists, the evidence and the route, where each
square is one number (its place among the floor squares, scaled). The floor plan
(``board``) is the same in every match: checked, not encoded. The phase's words
say again what ``phase`` holds: not encoded. List lengths are the most the rules
allow, worked out below, so no view of a legal match falls outside the schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gameweave_core import (
    Bag,
    Bool,
    Const,
    GameFacts,
    IntRange,
    ListOf,
    Maybe,
    NotEncoded,
    OneOf,
    Record,
    Schema,
)

from .actions import floor_squares
from .floorplan import WING_ORDER, coord, quayside_palace
from .state import (
    DAWN,
    ENTRY,
    ESCAPE_VALUE,
    GUARDS,
    HEAVY_WALK,
    OVER,
    POSTING,
    SECURITY,
    THIEF,
    WALK,
    Evidence,
    State,
    Trail,
)
from .views import board_view

#: Evidence a match can hold at most. Per round at most 7 Last Seen tokens (one per
#: way of being Spotted, the Thief standing still while they are made: 3 guards, the
#: 2 cameras that at most cover one square, caught cutting, the vault alarm), and
#: over the night at most 21 other tokens: the Thief acts once a round and each
#: action leaves at most one (a cut found, a forced exit) or, a lift, an empty frame
#: and, for the 2 vault cases only, an alarm; plus the forced exit of the break-in.
MAX_EVIDENCE = 7 * DAWN + DAWN + 2 + 1
#: The route holds the entry and one square per Thief turn.
MAX_ROUTE = 1 + DAWN

_HOWS = (
    *(f"guard {n}" for n in range(1, GUARDS + 1)),
    *(f"camera {cam.number}" for cam in quayside_palace().cameras),
    "caught cutting",
    "vault alarm",
)
_KINDS = ("last_seen", "empty_frame", "cut_camera", "dark", "alarm", "forced_exit")
_ROUND = IntRange(1, DAWN)


@cache
def _schema(players: int) -> Record:
    plan = quayside_palace()
    square = OneOf(floor_squares())
    # In long lists (up to 147 evidence tokens, a route of 19) one number a square.
    place = OneOf(floor_squares(), one_hot=False)
    cases = OneOf(tuple(coord(c.square) for c in plan.cases))
    exits = OneOf(tuple(coord(e.square) for e in plan.exits))
    names = OneOf(tuple(a.name for a in plan.collection))
    wings = OneOf(WING_ORDER)
    cameras = IntRange(1, len(plan.cameras))
    value = IntRange(1, max(a.value for a in plan.collection))
    case_kind = OneOf(("display", "vault"))
    most_value = sum(a.value for a in plan.collection)

    evidence = Record(
        kind=OneOf(_KINDS),
        at=place,
        round=_ROUND,
        since=Maybe(_ROUND),
        how=Maybe(OneOf(_HOWS)),
        camera=Maybe(cameras),
        # A dark wing's token names its wing ("" if the square held no breaker).
        wing=Maybe(OneOf(("", *WING_ORDER))),
    )
    guard = Record.of(
        {"number": IntRange(1, GUARDS), "at": square, "seat": IntRange(2, 4), "from": square}
    )
    placard = Record(
        case=cases,
        kind=case_kind,
        name=names,
        value=value,
        heavy=Bool(),
        status=OneOf(("on display", "gone")),
        taken_round=Maybe(_ROUND),
    )
    camera = Record(
        number=cameras,
        status=OneOf(("working", "dead", "dark")),
        checked_round=IntRange(0, DAWN),
    )
    breaker = Record(wing=wings, status=OneOf(("on", "dark")), checked_round=IntRange(0, DAWN))

    def thief_part(own: bool) -> Record:
        # What only the Thief knows; the Thief's own view adds what they may do now.
        fields: dict[str, Schema] = {
            "route": ListOf(place, max_len=MAX_ROUTE),
            "satchel": ListOf(
                Record(
                    case=cases,
                    round=_ROUND,
                    public=Bool(),
                    name=names,
                    value=value,
                    heavy=Bool(),
                ),
                max_len=len(plan.cases),
            ),
            "satchel_value": IntRange(0, most_value),
            "open_exits": ListOf(exits, max_len=len(plan.exits)),
            "cut_cameras": ListOf(
                Record(number=cameras, round=_ROUND, found=Bool()), max_len=len(plan.cameras)
            ),
            "cut_breakers": ListOf(
                Record(wing=wings, round=_ROUND, found=Bool()), max_len=len(plan.breakers)
            ),
            "at": Maybe(square),
            "entry": Maybe(exits),
        }
        if own:
            fields.update(
                walk=Maybe(OneOf((HEAVY_WALK, WALK))),
                # Sorted squares: a set, so counts lose nothing.
                can_reach=Maybe(Bag(floor_squares(), 1)),
                escape_value=IntRange(ESCAPE_VALUE, ESCAPE_VALUE),
                carrying=ListOf(
                    Record(name=names, value=value, heavy=Bool()), max_len=len(plan.cases)
                ),
            )
        return Record.of(fields)

    return Record(
        board=Const(
            board_view(plan), "the floor plan of the Quayside Palace, the same in every match"
        ),
        phase=OneOf((POSTING, ENTRY, THIEF, SECURITY, OVER)),
        phase_text=NotEncoded("the phase in words for people; 'phase' encodes it"),
        round=_ROUND,
        dawn=IntRange(0, DAWN),
        players=IntRange(2, 4),
        guards=ListOf(guard, max_len=GUARDS),
        guard_to_move=IntRange(0, GUARDS),
        monitors_watched=Bool(),
        placards=ListOf(placard, length=len(plan.cases)),
        cameras=ListOf(camera, length=len(plan.cameras)),
        breakers=ListOf(breaker, length=len(plan.breakers)),
        evidence=ListOf(evidence, max_len=MAX_EVIDENCE),
        last_seen=Maybe(evidence),
        ended=Maybe(OneOf(("escape", "catch", "dawn"))),
        reveal=Maybe(thief_part(own=False)),
        thief=Maybe(thief_part(own=True)),
        you=Record(
            role=OneOf(("spectator", "Thief", "Security")),
            seat=Maybe(IntRange(1, 4)),
            # Sorted guard numbers: a set.
            guards=Maybe(Bag(range(1, GUARDS + 1), 1)),
        ),
    )


def view_schema(players: int, config: Mapping[str, Any]) -> Record:
    """The shape of every view of The Museum Job (any seat, the spectator, any phase)."""
    return _schema(players)


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """Chance only at setup: the seven display artifacts shuffled into their cases
    (the largest draw is from 7). Seats act one at a time. One side wins: 1 to each
    of its seats, 0 to the others, so two players' utilities always sum to 1."""
    others = sum(1 for a in quayside_palace().collection if not a.vault)
    return GameFacts(
        max_chance_outcomes=others,
        simultaneous=False,
        utility="constant_sum" if players == 2 else "general_sum",
        utility_sum=1.0 if players == 2 else None,
        min_utility=0.0,
        max_utility=1.0,
        # Fisher-Yates draws once per position but the first.
        max_chance_nodes=others - 1,
    )


def copy_state(state: State) -> State:
    """An independent copy of ``state`` for clones and explicit chance: its lists,
    dicts and records copied, at about a fifth of the cost of ``copy.deepcopy``
    (tests/test_algorithms.py checks that nothing is shared)."""
    trail = state.trail
    return State(
        players=state.players,
        display=list(state.display),
        phase=state.phase,
        round=state.round,
        dawn=state.dawn,
        turn=state.turn,
        guards=list(state.guards),
        guard_seats=list(state.guard_seats),
        turn_start=list(state.turn_start),
        evidence=[Evidence(e.kind, e.square, e.round, e.since, e.how) for e in state.evidence],
        revealed=dict(state.revealed),
        dead_cameras=list(state.dead_cameras),
        dark_wings=list(state.dark_wings),
        confirmed=dict(state.confirmed),
        ended=state.ended,
        thief=state.thief,
        entry=state.entry,
        route=list(state.route),
        taken=dict(state.taken),
        open_exits=list(state.open_exits),
        cut_cameras=dict(state.cut_cameras),
        cut_breakers=dict(state.cut_breakers),
        trail=Trail(list(trail.guards), list(trail.watched), list(trail.monitored)),
    )
