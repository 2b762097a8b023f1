"""The state of a tic-tac-toe match, and the board's lines."""

from __future__ import annotations

import attrs

#: Cells are numbered 0 to 8, row by row.
CELLS = 9
#: The marks of seat 1 and seat 2.
MARKS = ("X", "O")
#: Every line of three cells: rows, columns, diagonals.
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


@attrs.define
class State:
    """The board (``""`` for an empty cell, else the mark) and whose turn it is."""

    cells: list[str] = attrs.field(factory=lambda: [""] * CELLS)
    turn: int = 1  # the seat to move
    winner: int = 0  # the seat that made a line; 0: none (yet)
