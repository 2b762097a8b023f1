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

from gameweave_core import (
    Event,
    GameFacts,
    IntRange,
    ListOf,
    ModuleTitle,
    OneOf,
    Outcome,
    Record,
    Rng,
    Schema,
    action,
    hookimpl,
    values,
)

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

    cell: int = values(range(9))  # the domain: numbers its actions 0 to 8


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


def view_schema(players: int, config: Mapping[str, Any]) -> Schema:
    """The view's shape: nine cells, each empty or a mark, and the seat to move."""
    return Record(cells=ListOf(OneOf(("", *MARKS)), length=9), turn=IntRange(1, 2))


def utilities(outcome: Outcome, players: int) -> tuple[float, ...]:
    """+1 to the seat that made a line, -1 to the other, 0 each for a draw."""
    if not outcome.winners:
        return (0.0, 0.0)
    return (1.0, -1.0) if outcome.winners == (1,) else (-1.0, 1.0)


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """No chance, one seat at a time, zero-sum utilities from -1 to 1, nothing hidden."""
    return GameFacts(
        max_chance_outcomes=0,
        max_chance_nodes=0,
        simultaneous=False,
        utility="zero_sum",
        min_utility=-1.0,
        max_utility=1.0,
        perfect_information=True,
    )


def copy_state(state: State) -> State:
    """A copy for clones (search copies the state at every node): the cells are
    the only list."""
    return State(list(state.cells), state.turn, state.winner)


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
