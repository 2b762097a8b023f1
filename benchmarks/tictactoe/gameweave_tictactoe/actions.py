"""What a player can do in tic-tac-toe: mark a cell."""

from __future__ import annotations

import attrs

from gameweave_core import action


@action("mark")
@attrs.frozen
class Mark:
    """Put your mark in ``cell`` (0 to 8, row by row), which must be empty."""

    cell: int


#: Every kind of action, for the title's codec.
ACTIONS = (Mark,)
