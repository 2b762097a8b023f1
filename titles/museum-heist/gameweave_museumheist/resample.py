"""The information-set sampler (the title's ``resample`` hook).

The only hidden information in Museum Heist is this round's choice of each other
seat (the board, tokens and moves are public, and cards of past rounds went back to
their hands unseen and no longer matter). A seat knows its own card, the cards
shown to everyone, the cards shown to it alone, and what everyone can deduce: a
wrong challenge says the challenged seat is not the named character, and a piece
moved onto the Artwork without a reveal says the mover is not that character.

Each player picks from a full set of their own, so choices are independent: the
sampler redraws every other chosen card uniformly among the characters consistent
with all of that. Uniform is not the true posterior (people pick with intent, and
which pieces a seat moves is evidence of a kind no rule states), but it is exactly
the set of assignments the seat cannot rule out.
"""

from __future__ import annotations

import copy

from gameweave_core import Rng

from .board import CHARACTERS
from .state import State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A fresh state ``seat`` (``None``: a spectator) cannot tell from ``state``."""
    out = copy.deepcopy(state)
    seen = set(state.public)
    if seat is not None:
        seen.add(seat)
        seen.update(state.shown[seat - 1])
    for other in range(1, state.players + 1):
        if other in seen or not state.chosen[other - 1]:
            continue
        # Seats out of the round keep their secrets too; they can be anything not ruled out.
        options = [c for c in CHARACTERS if c not in state.ruled_out[other - 1]]
        out.chosen[other - 1] = rng.choice(options)
    return out
