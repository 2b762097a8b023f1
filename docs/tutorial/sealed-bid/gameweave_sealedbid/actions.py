"""What a player can do in Sealed Bids: bid."""

from __future__ import annotations

import attrs

from gameweave_core import action, values

from .state import START_COINS


@action("bid")
@attrs.frozen
class Bid:
    """Bid ``coins`` (0 or more, at most what you hold) on the lot up for sale."""

    # The values the field can take: what numbers the title's actions, 0 to 20.
    coins: int = values(range(START_COINS + 1))


#: Every kind of action, for the title's codec.
ACTIONS = (Bid,)
