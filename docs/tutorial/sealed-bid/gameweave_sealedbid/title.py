"""Sealed Bids as a Gameweave title: its metadata, and the modules that hold the rest.

Every method is the function of the same name in one of the modules named below:
``rules`` (the game), ``views`` (what each seat may know), ``resample`` (what a
seat cannot tell apart), ``bots``, ``terminal`` and ``rules_text`` (the rules for
players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gameweave_core import ModuleTitle

from . import actions, bots, resample, rules, rules_text, terminal, views
from .actions import Bid
from .state import LOTS, START_COINS, State

# Re-exported: tests and other plugins import these names from here.
__all__ = ["LOTS", "START_COINS", "Bid", "SealedBid", "State"]


class SealedBid(
    ModuleTitle[State],
    actions=actions,
    rules=rules,
    views=views,
    resample=resample,
    bots=bots,
    terminal=terminal,
    rules_text=rules_text,
):
    """Sealed Bids: five lots, bid for in secret, all at once."""

    name = "sealedbid"
    display_name = "Sealed Bids"
    summary = "Bid in secret, all at once, for five lots."
    min_players = 2
    max_players = 4
    version = "3"
    default_config: ClassVar[Mapping[str, Any]] = {"lots": []}
    test_only_options = frozenset({"lots"})
    default_bot = "thrifty"
    max_actions = LOTS * 4

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        # terminal.parse_action reads "bid 7" and gives None for anything else: the
        # menu labels are then tried, as the base class does.
        return terminal.parse_action(text) or super().parse_action(text, legal)
