"""The testing kit, run on the tutorial title.

Sealed Bids implements the resample hook, so the kit checks its secrets with
automatic twins: no hand-written twins here (tests/core/test_kit_mutations.py shows
they catch every leak the hand-written ones did, and more).
"""

from __future__ import annotations

from gameweave_core.testing import TitleConformance
from gameweave_sealedbid import SealedBid


class TestSealedBidConformance(TitleConformance):
    title = SealedBid()
