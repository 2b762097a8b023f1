"""What a player can do in Sealed Bids: bid."""

from __future__ import annotations

import attrs

from gameweave_core import action


@action("bid")
@attrs.frozen
class Bid:
    """Bid ``coins`` (0 or more, at most what you hold) on the lot up for sale."""

    coins: int


#: Every kind of action, for the title's codec.
ACTIONS = (Bid,)
