"""The Museum Job as a Gameweave title: the rules wired to the title protocol.

The title holds no state of its own and no logic: each method hands the match's
:class:`~gameweave_museum.state.State` to the module that knows about it
(``rules``, ``views``, ``resample``, ``terminal``, ``bots``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import resample, rules, rules_text, terminal, views
from . import state as state_module
from .actions import ACTIONS
from .bots import BOTS, search_defaults
from .state import DAWN, State


class MuseumJob(Title[State]):
    """The Museum Job: one Thief against the night watch of the Quayside Palace."""

    name = "museum"
    display_name = "The Museum Job"
    summary = "A hidden-movement heist: one Thief, three guards, eighteen rounds until dawn."
    min_players = 2
    max_players = 4
    version = "4"
    actions = ACTIONS
    default_bot = "heuristic"
    web_renderer = "web/museum.js"
    # 3 posts + the entry + 18 rounds of at most 4 actions.
    max_actions = 4 + DAWN * 4

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.setup(players, config, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return rules.awaiting(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> Sequence[Event]:
        return rules.apply(state, seat, action, rng)

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
        return state_module.snapshot(state)

    def bots(self) -> Mapping[str, BotFactory]:
        return BOTS

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        return search_defaults(seat, players)

    def describe_action(self, action: Any) -> str:
        return terminal.describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        # Text that opens with "{" is the canonical JSON form, read by the core.
        if text.strip().startswith("{"):
            return super().parse_action(text, legal)
        return terminal.parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        return terminal.render_text(view, seat, width)

    def rules_text(self) -> Mapping[str, str]:
        return rules_text.TOPICS
