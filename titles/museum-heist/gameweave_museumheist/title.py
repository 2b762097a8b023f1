"""Museum Heist as a Gameweave title: metadata, and one-line delegations to the
modules that hold the rules (``rules``), the views (``views``), the sampler
(``resample``), the bots (``bots``) and the terminal (``terminal``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import bots, resample, rules, rules_text, terminal, views
from .actions import ACTIONS
from .state import State

# A round ends within 1 placement + 4 choices + 686 moves (each move lowers the sum of
# the pieces' squared distances to the Artwork, at most 7 x 98, and a swap keeps it)
# + 8 swaps + 4 challenges; a game has at most 9 rounds (one token per round).
_ROUND_BOUND = 1 + 4 + 7 * 98 + 8 + 4


class MuseumHeist(Title[State]):
    """Museum Heist: secret identities on a shared board."""

    name = "museumheist"
    display_name = "Museum Heist"
    summary = "Secret identities on a shared board: bring your own character to the Artwork."
    min_players = 2
    max_players = 4
    version = "1"
    actions = ACTIONS
    default_bot = "heuristic"
    web_renderer = "web/museumheist.js"
    max_actions = 9 * _ROUND_BOUND

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

    def bots(self) -> Mapping[str, BotFactory]:
        return bots.BOTS

    def search_defaults(self, seat: int, players: int) -> Mapping[str, Any]:
        return bots.search_defaults(seat, players)

    def describe_action(self, action: Any) -> str:
        return terminal.describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        return (
            super().parse_action(text, legal)
            if text.strip()[:1] == "{"
            else terminal.parse_action(text, legal)
        )

    def render_text(self, view: Mapping[str, Any], seat: int | None, width: int = 80) -> str | None:
        return terminal.render_text(view, seat, width)

    def rules_text(self) -> Mapping[str, str]:
        return rules_text.TOPICS
