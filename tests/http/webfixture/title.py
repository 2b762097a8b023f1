"""Sealed Bids with a browser renderer of its own, for the renderer-serving tests."""

from __future__ import annotations

from gameweave_sealedbid.title import SealedBid


class RenderedBids(SealedBid):
    name = "renderedbids"
    display_name = "Rendered Bids"
    web_renderer = "web/bids.js"
