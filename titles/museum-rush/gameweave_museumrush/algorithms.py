"""What game-playing algorithms (OpenSpiel, PettingZoo trainers) need to know about
Museum Rush beyond its rules: each thief's utility at the end, and the facts the
core cannot work out (the largest random draw, one seat at a time, the kind of sum
of the utilities)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import GameFacts, Outcome

from .cards import FILL_IDS, SEARCH_IDS, TILES


def utilities(outcome: Outcome, players: int) -> Sequence[float]:
    """The win, shared: each winner gets ``1 / winners`` (thieves tied on the Take
    and on their Items share it), everyone else 0. The sum is always 1."""
    share = 1.0 / len(outcome.winners)
    return tuple(share if s in outcome.winners else 0.0 for s in range(1, players + 1))


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """The largest draw is a shuffle at setup: the Search deck (29 cards), the 28
    Room tiles, the 28 cards that fill the rooms (dice have 6 faces, a hand 8
    cards). One seat chooses at a time. The utilities sum to 1 (:func:`utilities`)."""
    return GameFacts(
        max_chance_outcomes=max(len(SEARCH_IDS), TILES, len(FILL_IDS)),
        simultaneous=False,
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
    )
