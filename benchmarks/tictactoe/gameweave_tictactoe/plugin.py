"""Makes tic-tac-toe known to Gameweave (the ``gameweave`` entry point)."""

from collections.abc import Callable
from typing import Any

from gameweave_core import hookimpl

from .title import TicTacToe


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(TicTacToe())
