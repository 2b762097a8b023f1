"""What game-playing algorithms (OpenSpiel, PettingZoo trainers) need to know about
Master Thief beyond its rules: each thief's utility at the end, and the facts the
core cannot work out (the largest random draw, simultaneous choices, the kind of
sum of the utilities)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import GameFacts, Outcome

from .cards import MUSEUM_CARDS, thief_deck


def utilities(outcome: Outcome, players: int) -> Sequence[float]:
    """The win, shared: each winner gets ``1 / winners`` (a tie the tie-break could
    not settle shares it), everyone else 0. The sum is always 1."""
    share = 1.0 / len(outcome.winners)
    return tuple(share if s in outcome.winners else 0.0 for s in range(1, players + 1))


def game_facts(players: int, config: Mapping[str, Any]) -> GameFacts:
    """The largest draw is the shuffle of the Thief deck (70 cards; the Museum has
    36, a card put back into the Museum goes to one of at most 37 places). Seats
    choose at once in the Heist, the Jury, a tie-break and a Grip or Latch window.
    The utilities sum to 1 (:func:`utilities`)."""
    return GameFacts(
        max_chance_outcomes=max(len(thief_deck()), len(MUSEUM_CARDS) + 1),
        simultaneous=True,
        utility="constant_sum",
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
    )
