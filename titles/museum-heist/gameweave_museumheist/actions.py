"""The actions of Museum Heist, one class per kind (see ``ACTIONS``).

Every field declares the values it can take (``values``), so the core numbers
the actions for game-playing algorithms: squares are the 64 coordinates in
reading order, characters in the rules' order, seats 1 up to the player count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from gameweave_core import action, values

from .board import CHARACTERS, SQUARES, coord

#: Every square's coordinate, in reading order.
COORDS: tuple[str, ...] = tuple(coord(s) for s in range(SQUARES))


def _seats(players: int, config: Mapping[str, Any]) -> range:
    return range(1, players + 1)


@action("place")
@attrs.frozen
class Place:
    """Put the round's Artwork token on square ``at`` (rounds 2 on, by the placer)."""

    at: str = values(COORDS)


@action("choose")
@attrs.frozen
class Choose:
    """Secretly take ``character`` as this round's identity."""

    character: str = values(CHARACTERS)


@action("move")
@attrs.frozen
class Move:
    """Move the piece of ``piece`` (any character) so that it ends on ``to``."""

    piece: str = values(CHARACTERS)
    to: str = values(COORDS)


@action("challenge")
@attrs.frozen
class Challenge:
    """Name ``character`` as the secret identity of seat ``seat``."""

    seat: int = values(_seats)
    character: str = values(CHARACTERS)


@action("swap")
@attrs.frozen
class Swap:
    """Spend a Swap token: pieces ``first`` and ``second`` change places."""

    first: str = values(CHARACTERS)
    second: str = values(CHARACTERS)


ACTIONS = (Place, Choose, Move, Challenge, Swap)
