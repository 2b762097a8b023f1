"""The testing kit, run on the tutorial title."""

from __future__ import annotations

from hypothesis import strategies as st

from gameweave_core.testing import TitleConformance, Twin, seeds
from gameweave_sealedbid import SealedBid
from gameweave_sealedbid.title import START_COINS


@st.composite
def sealed_bids_differ(draw: st.DrawFn) -> Twin:
    """Seat 1 bids differently in the two matches; the others cannot tell until
    the bids are revealed, so the twins stop just before the last bid."""
    players = draw(st.integers(2, 4))
    bid_a, bid_b = draw(st.integers(0, START_COINS)), draw(st.integers(0, START_COINS))
    others = [
        (s, {"type": "bid", "coins": draw(st.integers(0, START_COINS))}) for s in range(2, players)
    ]
    return Twin(
        players=players,
        seed=draw(seeds),
        actions_a=[(1, {"type": "bid", "coins": bid_a}), *others],
        actions_b=[(1, {"type": "bid", "coins": bid_b}), *others],
        seats=list(range(2, players + 1)),
    )


class TestSealedBidConformance(TitleConformance):
    title = SealedBid()

    def twins(self):
        return sealed_bids_differ()
