"""The resample hook (being written)."""

from __future__ import annotations

import copy

from gameweave_core import Rng

from .state import State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    return copy.deepcopy(state)
