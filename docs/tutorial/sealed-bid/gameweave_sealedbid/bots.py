"""The bots of Sealed Bids. A bot sees only its seat's observation."""

from __future__ import annotations

from gameweave_core import Bot, BotFactory, Observation, Rng

from .actions import Bid


class ThriftyBot:
    """Bids about a coin per point of the lot, never more than it can spare."""

    def act(self, observation: Observation, rng: Rng) -> Bid:
        view = observation.view
        coins = view["coins"][observation.seat - 1]
        want = view["lot"] + rng.randint(-1, 2)
        return Bid(max(0, min(coins, want)))


def thrifty(seat: int, players: int) -> Bot:
    """The :data:`~gameweave_core.bots.BotFactory` of :class:`ThriftyBot`."""
    return ThriftyBot()


#: The title's own bots by name (the core adds ``random``).
BOTS: dict[str, BotFactory] = {"thrifty": thrifty}
