"""A plugin that adds a bot to a title it does not own: Sealed Bids.

It would be named in its own distribution's ``pyproject.toml``::

    [project.entry-points.gameweave]
    cautious-bids = "extra_bots"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gameweave_core import Rng, hookimpl
from gameweave_core.bots import Observation


class CautiousBot:
    """Bids at random, but never more than a fifth of the coins it holds."""

    def act(self, observation: Observation, rng: Rng) -> Any:
        coins = observation.view["coins"][observation.seat - 1]
        affordable = [bid for bid in observation.legal if bid.coins <= coins // 5]
        return rng.choice(affordable)


@hookimpl
def register_bots(register: Callable[[str, str, Any], None]) -> None:
    register("sealedbid", "cautious", lambda seat, players: CautiousBot())
