"""Sealed Bids as a Gameweave title: metadata, and one line per method.

Each method hands the state to the module that knows about it: ``rules`` (the
game), ``views`` (what each seat may know), ``resample`` (what a seat cannot tell
apart), ``bots``, ``terminal`` and ``rules_text`` (the rules for players).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gameweave_core import Event, Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import resample, rules, rules_text, terminal, views
from .actions import ACTIONS, Bid
from .bots import BOTS
from .state import LOTS, START_COINS, State

# Re-exported: tests and other plugins import these names from here.
__all__ = ["LOTS", "START_COINS", "Bid", "SealedBid", "State"]


class SealedBid(Title[State]):
    """Sealed Bids: five lots, bid for in secret, all at once."""

    name = "sealedbid"
    display_name = "Sealed Bids"
    summary = "Bid in secret, all at once, for five lots."
    min_players = 2
    max_players = 4
    version = "2"
    actions = ACTIONS
    default_config: ClassVar[Mapping[str, Any]] = {"lots": []}
    test_only_options = frozenset({"lots"})
    default_bot = "thrifty"
    max_actions = LOTS * 4

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        return rules.check_config(players, super().check_config(players, config))

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.setup(players, config, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return rules.awaiting(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Bid]:
        return rules.legal_actions(state, seat)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return rules.explain_illegal(state, seat, action)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        return rules.apply(state, seat, action, rng)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def seat_label(self, state: State, seat: int) -> str:
        return views.seat_label(state, seat)

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return resample.resample(state, seat, rng)

    def bots(self) -> Mapping[str, BotFactory]:
        return BOTS

    def describe_action(self, action: Any) -> str:
        return terminal.describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        return terminal.parse_action(text) or super().parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        return terminal.render_text(view, seat, width)

    def rules_text(self) -> Mapping[str, str]:
        return rules_text.TOPICS
