"""Sealed Bids: a tiny auction game, Gameweave's tutorial title.

Five lots come up for auction one at a time; everyone bids for each in secret, at
the same time. The hidden information: each sealed bid until every bid is in, and
the order of the lots still to come.
"""

from .title import SealedBid

__all__ = ["SealedBid"]
