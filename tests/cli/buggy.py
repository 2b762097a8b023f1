"""Titles with bugs planted on purpose, for the maintainers' commands.

Tests in this process add them to the registry (``add_titles``); a child
``gameweave`` process finds them through the ``buggy`` entry point of a test
distribution (see ``buggy_env``), like any third-party title.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from gameweave_core import Rng, hookimpl
from gameweave_sealedbid.title import SealedBid, State


class PlantedBug(SealedBid):
    """Sealed Bids whose third reveal divides by zero (``lot / (sold - 2)``)."""

    name = "plantedbug"
    display_name = "Planted Bug"

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Any]:
        if len(state.bids) == state.players - 1:
            # Every bid is in: the "auctioneer's share" of the lot, with a planted
            # bug on the third lot, where sold is 2.
            share = state.lot / (state.sold - 2)
            assert share is not None
        return list(super().apply(state, seat, action, rng))


@attrs.define
class LuckyState(State):
    """Sealed Bids' state with a luck figure drawn at every reveal."""

    luck: list[float] = attrs.field(factory=list)


class GlobalRandomBid(SealedBid):
    """Sealed Bids that draws a luck figure with the global random module at
    every reveal (the bug: only the ``rng`` it is given replays)."""

    name = "globalrandom"
    display_name = "Global Random Bids"

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> LuckyState:
        state = super().setup(players, config, rng)
        return LuckyState(**attrs.asdict(state, recurse=False))

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Any]:
        events = list(super().apply(state, seat, action, rng))
        if not state.bids and isinstance(state, LuckyState):  # the bids were revealed
            state.luck.append(random.random())
        return events


class RulesV1(SealedBid):
    """A title recorded at rules version 1 ..."""

    name = "revised"
    display_name = "Revised Bids"
    version = "1"


class RulesV2(RulesV1):
    """... whose version 2 lets the winner of the third lot pay one coin less."""

    version = "2"

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Any]:
        third = state.sold == 2
        before = list(state.coins)
        events = list(super().apply(state, seat, action, rng))
        if third and state.sold == 3:
            for i, (was, now) in enumerate(zip(before, state.coins, strict=True)):
                if now < was:
                    state.coins[i] += 1
        return events


@hookimpl
def register_titles(register: Callable[[Any], None]) -> None:
    register(PlantedBug())
    register(GlobalRandomBid())
