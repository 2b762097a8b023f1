"""The House Job: a co-operative blackjack heist for two to four seats, as a Gameweave title."""

from .title import HouseJob

__all__ = ["HouseJob"]

__version__ = "0.1.0"
