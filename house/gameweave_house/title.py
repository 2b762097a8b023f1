"""The House Job as a Gameweave title: its metadata, and each method handed to the
module that holds that part of the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gameweave_core import Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import resample, rules, rules_text, terminal, views
from .actions import ACTIONS
from .bots import BOTS, search_defaults
from .state import State, for_digest


class HouseJob(Title[State]):
    """The House Job: two to four seats share one Take against an automated dealer."""

    name = "house"
    display_name = "The House Job"
    summary = "A co-operative blackjack heist: one deck, one shared Take, five roles."
    min_players = 2
    max_players = 4
    version = "1"
    actions = ACTIONS
    #: ``deck``: an explicit draw order (52 card strings, e.g. "AS", "TD"), empty to
    #: shuffle with the match's generator; ``take``: the opening Take.
    default_config: ClassVar[Mapping[str, Any]] = {"deck": [], "take": 1000}
    #: A chosen deck fixes every hidden card: for tests and examples only.
    test_only_options: ClassVar[frozenset[str]] = frozenset({"deck"})
    default_bot = "basic"
    web_renderer = "web/house.js"
    max_actions = 5_000

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        return rules.check_config(players, super().check_config(players, config))

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.setup(players, config, rng)

    # The three methods called on every action are the rules' functions themselves:
    # a method that only forwards the call cost 1 to 3% of the bare rules' speed
    # (docs/titles/house/compiled.md has the figures). A subclass may still override them.
    awaiting = staticmethod(rules.awaiting)
    legal_actions = staticmethod(rules.legal_actions)
    apply = staticmethod(rules.apply)

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return rules.explain_illegal(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def seat_label(self, state: State, seat: int) -> str:
        return views.seat_label(state, seat)

    def has_secrets(self, state: State, seat: int) -> bool:
        return views.has_secrets(state, seat)

    def resample(self, state: State, seat: int | None, rng: Rng) -> State:
        return resample.resample(state, seat, rng)

    def snapshot(self, state: State) -> Any:
        return for_digest(super().snapshot(state))

    def rules_text(self) -> Mapping[str, str]:
        return rules_text.TOPICS

    def bots(self) -> Mapping[str, BotFactory]:
        return BOTS

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        return search_defaults(seat, players)

    def describe_action(self, action: Any) -> str:
        return terminal.describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        return terminal.parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        return terminal.render_text(view, seat, width)
