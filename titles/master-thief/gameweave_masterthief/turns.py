"""Turns going round the table: a turn's start, its clean-up within the hand and
carrying limits, and the next thief's turn (or the end, when no thief is left).
"""

from __future__ import annotations

from gameweave_core import Event, Rng
from gameweave_core.reactions import (
    seats_from,
)

from . import charms
from .end import end_game
from .state import (
    CLEANUP,
    LEAVE,
    STEAL,
    State,
)
from .table import in_play, label


def start_turn(state: State, seat: int) -> list[Event]:
    """Begin ``seat``'s turn: its Utilities go, then it must steal."""
    state.turn = seat
    state.turns += 1
    state.played = []
    state.alarmed = False
    state.phase = STEAL
    gone = state.utilities[seat - 1]
    state.utilities[seat - 1] = []
    state.discard += gone
    events = [Event.public(f"{label(seat)}'s turn", "turn", seat=seat)]
    if gone:
        events.append(Event.public(f"{label(seat)} discards {', '.join(gone)} from play"))
    if len(in_play(state)) == 1:
        state.final_turn = True
        events.append(Event.public(f"{label(seat)} is the last thief inside: a final turn"))
    return events


def cleanup(state: State, rng: Rng) -> list[Event]:
    """Down to the limits; then stay or escape (not after Security, unless final)."""
    seat = state.turn
    state.phase = CLEANUP
    if len(state.hands[seat - 1]) > charms.hand_limit(state, seat):
        return []
    if len(state.carried[seat - 1]) > charms.carry_limit(state, seat):
        return []
    if state.alarmed and not state.final_turn:
        return next_turn(state, rng)
    state.phase = LEAVE
    return []


def next_turn(state: State, rng: Rng) -> list[Event]:
    """The next thief clockwise still inside takes a turn, unless the game is over."""
    if state.last_turn:
        return end_game(state, "time", rng)
    inside = in_play(state)
    if not inside:
        return end_game(state, "escapes", rng)
    for s in [*seats_from(state.turn, state.players)[1:], state.turn]:
        if s in inside:
            return start_turn(state, s)
    raise AssertionError("unreachable: a thief is inside")
