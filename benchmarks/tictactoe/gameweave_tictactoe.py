"""Tic-tac-toe, a whole Gameweave title in one file: the game of the server benchmark.

Seat 1 (X) moves first, then the seats alternate, each marking one empty cell (0 to
8, row by row). Three marks of one seat in a row, column or diagonal win at once; a
full board without a line is a draw. Nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import gameweave_tictactoe  # this very module: the title names it, and mypy checks it

from gameweave_core import Event, ModuleTitle, Outcome, Rng, action, hookimpl

__version__ = "1.0.0"

MARKS = ("X", "O")  # seat 1's mark, seat 2's
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@attrs.define
class State:
    """The board (``""`` for an empty cell, else the mark) and whose turn it is."""

    cells: list[str] = attrs.field(factory=lambda: [""] * 9)
    turn: int = 1  # the seat to move
    winner: int = 0  # the seat that made a line; 0: none (yet)


@action("mark")
@attrs.frozen
class Mark:
    """Put your mark in ``cell`` (0 to 8, row by row), which must be empty."""

    cell: int


ACTIONS = (Mark,)


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    return State()  # nothing is left to chance


def awaiting(state: State) -> Sequence[int]:
    over = state.winner or "" not in state.cells
    return () if over else (state.turn,)


def legal_actions(state: State, seat: int) -> Sequence[Mark]:
    if seat not in awaiting(state):
        return ()
    return [Mark(c) for c in range(9) if not state.cells[c]]


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    if isinstance(action, Mark) and not 0 <= action.cell < 9:
        return f"cell {action.cell} is off the board: cells are 0 to 8"
    if isinstance(action, Mark) and state.cells[action.cell]:
        return f"cell {action.cell} already holds {state.cells[action.cell]}"
    return None


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    mark, cells = MARKS[seat - 1], state.cells
    cells[action.cell] = mark
    events = [Event.public(f"{mark} marks cell {action.cell}")]
    # Plain comparisons, not nested generators: the server profile of the versus
    # benchmark showed the generators at 5-7% of the server's busy time.
    if any(cells[a] == cells[b] == cells[c] == mark for a, b, c in LINES):
        state.winner = seat
        events.append(Event.public(f"{mark} makes a line and wins"))
    elif "" not in cells:
        events.append(Event.public("The board is full: a draw"))
    state.turn = 3 - seat
    return events


def outcome(state: State) -> Outcome | None:
    if awaiting(state):
        return None
    if state.winner:
        mark = MARKS[state.winner - 1]
        return Outcome(side=mark, winners=(state.winner,), reason="line", summary=f"{mark} wins")
    return Outcome(side="draw", winners=(), reason="draw", summary="A draw")


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {"cells": list(state.cells), "turn": state.turn}  # nothing is hidden


def seat_label(state: State, seat: int) -> str:
    return MARKS[seat - 1]


def has_secrets(state: State, seat: int) -> bool:
    return False  # the whole board is in everyone's view


class TicTacToe(ModuleTitle[State], game=gameweave_tictactoe):
    """Tic-tac-toe: the benchmark game shared with boardgame.io. Its methods are the
    functions above (``game=``: this very module, checked by mypy against
    :class:`~gameweave_core.protocols.GameModule`)."""

    name = "tictactoe"
    display_name = "Tic-tac-toe"
    summary = "Three in a line wins (the server benchmark's game)."
    min_players = max_players = 2
    max_actions = 9


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    """The plugin hook: this module is the ``gameweave`` entry point itself."""
    register(TicTacToe())
