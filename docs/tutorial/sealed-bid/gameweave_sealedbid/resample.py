"""The information-set sampler of Sealed Bids (the resample hook).

Given a state and a seat, it draws a state that seat cannot tell from the real
one: what the seat has seen stays, everything it has not seen is drawn again.
"""

from __future__ import annotations

import copy

from gameweave_core import Rng

from .state import VALUES, State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A state ``seat`` (``None``: a spectator) cannot tell from ``state``.

    Two things are hidden from a seat: the other seats' sealed bids on the lot up
    for sale, and the lots to come. The lots to come are drawn again from the values
    nobody has seen (neither auctioned nor up for sale), in a random order: exactly
    the odds of the shuffle in ``setup``. Each other sealed bid is drawn uniformly
    from what its bidder could have bid: the true odds depend on how people bid,
    which no sampler can know, so this part is uniform, not exact.
    ``state`` itself is left untouched.
    """
    drawn = copy.deepcopy(state)
    unseen = [v for v in VALUES if v not in state.past and v != state.lot]
    drawn.deck = rng.sample(unseen, len(state.deck))
    for bidder in sorted(state.bids):
        if bidder != seat:
            drawn.bids[bidder] = rng.randint(0, state.coins[bidder - 1])
    return drawn
