"""Small hand-made positions for the rule tests.

``scenario`` builds a state in the Thief's turn with guards, the Thief and the
collection where a test wants them; ``thief`` and ``guard`` apply one action
through the rules and return the events, as the match would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameweave_core import Event, Rng
from gameweave_museum import rules
from gameweave_museum.actions import MoveGuard
from gameweave_museum.floorplan import coord, parse_coord, quayside_palace
from gameweave_museum.state import SECURITY, THIEF, State

PLAN = quayside_palace()

#: Collection index per case (cases in reading order: D1, I1, L1, C5, S5, G9, R9,
#: G13, N13): the Astrolabe (1) in D1, the crowns in the vault, the Tide Table (1)
#: in C5, the Snuffbox (2) in S5, the Jade Heron (2) in G9, the Bronze (2, heavy)
#: in R9, the Sapphire Compass (3) in G13, the Tapestry (3, heavy) in N13.
DISPLAY = [7, 0, 1, 8, 6, 5, 3, 4, 2]


def sq(text: str) -> int:
    return parse_coord(text)


def case_index(at: str) -> int:
    found = PLAN.case_at(sq(at))
    assert found is not None, at
    return found.index


def scenario(
    thief: str = "A14",
    guards: Sequence[str] = ("J4", "B7", "S7"),
    players: int = 2,
    entry: str = "D14",
    round: int = 1,
    taken: dict[str, int] | None = None,
) -> State:
    state = rules.setup(players, {}, Rng(1))
    state.display = list(DISPLAY)
    state.guards = [sq(g) for g in guards]
    state.turn_start = list(state.guards)
    state.guard_seats = {2: [2, 2, 2], 3: [2, 2, 3], 4: [2, 3, 4]}[players]
    state.phase = THIEF
    state.round = round
    state.dawn = 18 - round + 1
    state.thief = sq(thief)
    state.entry = sq(entry)
    state.route = [sq(entry), sq(thief)] if entry != thief else [sq(thief)]
    state.open_exits = [sq(entry)]
    for at, r in (taken or {}).items():
        state.taken[case_index(at)] = r
    return state


def thief(state: State, act: Any) -> list[Event]:
    assert state.phase == THIEF, state.phase
    assert act in rules.legal_actions(state, 1), f"{act} is not legal here"
    return rules.apply(state, 1, act, Rng(0))


def guard(state: State, number: int, to: str) -> list[Event]:
    assert state.phase == SECURITY, state.phase
    assert state.turn == number - 1, f"it is guard {state.turn + 1}'s move"
    seat = rules.awaiting(state)[0]
    act = MoveGuard(number, to)
    assert act in rules.legal_actions(state, seat), f"{act} is not legal here"
    return rules.apply(state, seat, act, Rng(0))


def stay_all(state: State) -> list[Event]:
    """Every guard stays where it is (staying is a move)."""
    events = []
    for i in range(state.turn, 3):
        events += guard(state, i + 1, coord(state.guards[i]))
    return events


def kinds(state: State, kind: str) -> list[Any]:
    return [e for e in state.evidence if e.kind == kind]


def texts(events: Sequence[Event], seat: int | None) -> list[str]:
    return [e.text for e in events if e.visible_to(seat)]
