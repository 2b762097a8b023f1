"""What each seat of tic-tac-toe may know: everything on the board."""

from __future__ import annotations

from typing import Any

from .state import MARKS, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The board and whose turn it is: nothing is hidden, but the view is still
    built field by field, as every title's is."""
    return {"cells": list(state.cells), "turn": state.turn}


def seat_label(state: State, seat: int) -> str:
    """Seats are called by their marks."""
    return MARKS[seat - 1]
