"""The state of a Sealed Bids match, and the numbers that shape the game."""

from __future__ import annotations

import attrs

#: Lots auctioned in one match.
LOTS = 5
#: Coins each player starts with.
START_COINS = 20
#: The values lots may have; a match auctions ``LOTS`` of them, each at most once.
VALUES = tuple(range(1, 10))


@attrs.define
class State:
    """Everything about a match, secrets included. Only the rules see it whole."""

    players: int
    deck: list[int]  # lots to come, next first: secret
    lot: int  # value of the lot up for sale
    coins: list[int]
    points: list[int]
    bids: dict[int, int] = attrs.field(factory=dict)  # sealed bids this lot: secret
    sold: int = 0  # lots auctioned so far
    past: list[int] = attrs.field(factory=list)  # their values, in order
    revealed: dict[int, int] = attrs.field(factory=dict)  # the last lot's bids, shown
