"""The benchmark's tic-tac-toe title (benchmarks/tictactoe): the conformance kit,
then its rules, so that the game measured against boardgame.io is a real game."""

from __future__ import annotations

from typing import Any

import gameweave_tictactoe
from gameweave_tictactoe import TicTacToe

from gameweave_core import Match, Registry
from gameweave_core.testing import TitleConformance, check_refused


def mark(cell: int) -> dict[str, Any]:
    """A mark in its JSON form, as the benchmark's load generator sends it."""
    return {"type": "mark", "cell": cell}


def play(cells: list[int]) -> Match:
    """A match in which the seats marked ``cells`` in turn, X first."""
    match: Match = Match(TicTacToe(), 2, seed=0)
    for i, cell in enumerate(cells):
        match.submit(1 + i % 2, mark(cell))
    return match


class TestTicTacToeConformance(TitleConformance):
    title = TicTacToe()


def test_the_one_file_is_its_own_plugin() -> None:
    registry = Registry()
    registry.add_plugin(gameweave_tictactoe, "tictactoe", "gameweave-tictactoe", "1.0.0")
    assert isinstance(registry.title("tictactoe"), TicTacToe)
    # The title's methods are the module's own functions, named by game= (the module itself).
    assert TicTacToe.module_bindings["apply"] == "gameweave_tictactoe.apply"
    method: object = TicTacToe.apply
    assert method is gameweave_tictactoe.apply
    assert TicTacToe.actions == (gameweave_tictactoe.Mark,)


def test_seats_alternate_x_first_on_empty_cells() -> None:
    match = play([4])
    assert match.view(None) == {"cells": ["", "", "", "", "X", "", "", "", ""], "turn": 2}
    assert match.awaiting == (2,)
    assert {a["cell"] for a in match.legal_json(2)} == {0, 1, 2, 3, 5, 6, 7, 8}
    assert match.legal_json(1) == []


def test_three_in_a_column_wins_and_ends_the_match() -> None:
    match = play([1, 0, 4, 2, 7])  # X: 1, 4, 7
    result = match.outcome()
    assert result is not None and (result.side, result.winners) == ("X", (1,))
    assert match.awaiting == ()
    assert "X makes a line and wins" in match.history(2)


def test_a_diagonal_of_o_wins_for_seat_2() -> None:
    result = play([0, 2, 1, 4, 5, 6]).outcome()  # O: 2, 4, 6
    assert result is not None and (result.side, result.winners) == ("O", (2,))


def test_a_full_board_without_a_line_is_a_draw() -> None:
    match = play([0, 1, 2, 4, 3, 5, 7, 6, 8])
    result = match.outcome()
    assert result is not None and (result.side, result.winners) == ("draw", ())
    assert "The board is full: a draw" in match.history(1)


def test_a_marked_or_missing_cell_is_refused_in_one_line() -> None:
    match = play([4])
    assert check_refused(match, 2, mark(4)) == "cell 4 already holds X"
    assert check_refused(match, 2, mark(9)) == "cell 9 is off the board: cells are 0 to 8"
    assert "not awaited" in check_refused(match, 1, mark(0))
