"""Tic-tac-toe: the game of the server benchmark against boardgame.io.

Two seats mark a 3-by-3 board in turn; three in a line wins. Nothing is hidden.
"""

from .title import TicTacToe

__all__ = ["TicTacToe", "__version__"]

__version__ = "1.0.0"
