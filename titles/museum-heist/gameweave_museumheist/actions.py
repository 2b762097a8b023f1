"""The actions of Museum Heist, one class per kind (see ``ACTIONS``)."""

from __future__ import annotations

import attrs

from gameweave_core import action


@action("place")
@attrs.frozen
class Place:
    """Put the round's Artwork token on square ``at`` (rounds 2 on, by the placer)."""

    at: str


@action("choose")
@attrs.frozen
class Choose:
    """Secretly take ``character`` as this round's identity."""

    character: str


@action("move")
@attrs.frozen
class Move:
    """Move the piece of ``piece`` (any character) so that it ends on ``to``."""

    piece: str
    to: str


@action("challenge")
@attrs.frozen
class Challenge:
    """Name ``character`` as the secret identity of seat ``seat``."""

    seat: int
    character: str


@action("swap")
@attrs.frozen
class Swap:
    """Spend a Swap token: pieces ``first`` and ``second`` change places."""

    first: str
    second: str


ACTIONS = (Place, Choose, Move, Challenge, Swap)
