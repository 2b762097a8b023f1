"""Sealed Bids: a tiny auction game, Gameweave's tutorial title."""

from .title import SealedBid

__all__ = ["SealedBid"]
