"""The Museum Job as a Gameweave title: the rules wired to the title protocol.

The title holds no state of its own; every method passes the one floor plan and
the match's :class:`~gameweave_museum.state.State` to the module that knows
about it (``rules``, ``views``, ``terminal``, ``bots``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import rules, terminal, views
from .actions import ALL
from .floorplan import FloorPlan, quayside_palace
from .state import DAWN, OVER, State


class MuseumJob(Title[State]):
    """The Museum Job: one Thief against the night watch of the Quayside Palace."""

    name = "museum"
    display_name = "The Museum Job"
    summary = "A hidden-movement heist: one Thief, three guards, eighteen rounds until dawn."
    min_players = 2
    max_players = 4
    version = "4"
    actions = ALL
    default_bot = "heuristic"
    web_renderer = "web/museum.js"
    # 3 posts + the entry + 18 rounds of at most 4 actions.
    max_actions = 4 + DAWN * 4

    @property
    def plan(self) -> FloorPlan:
        return quayside_palace()

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.setup(self.plan, players, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return rules.awaiting(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return rules.legal_actions(self.plan, state, seat)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> Sequence[Event]:
        return rules.apply(self.plan, state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self.plan, state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        value = rules.satchel_value(self.plan, state)
        figures = {"rounds": state.round, "satchel": value, "dawn": state.dawn}
        security = tuple(range(2, state.players + 1))
        if state.ended == "escape":
            return Outcome(
                "Thief",
                (1,),
                "escape",
                f"The Thief escaped in round {state.round} with a satchel worth {value}",
                figures,
            )
        if state.ended == "catch":
            summary = f"Security caught the Thief in round {state.round}"
        else:
            summary = "Dawn broke with the Thief still inside"
        return Outcome("Security", security, state.ended, summary, figures)

    def seat_label(self, state: State, seat: int) -> str:
        if seat == rules.THIEF_SEAT:
            return "Thief"
        guards = rules.guards_of(state, seat)
        if not guards:
            return f"Security {seat}"
        listed = ", ".join(map(str, guards))
        return f"Security {seat} (guard{'s' if len(guards) > 1 else ''} {listed})"

    def has_secrets(self, state: State, seat: int) -> bool:
        # Security shares everything it knows; only the Thief hides a screen.
        return seat == rules.THIEF_SEAT and state.phase != OVER

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return rules.explain_illegal(self.plan, state, seat, action)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import heuristic_bot

        return {"heuristic": heuristic_bot}

    def describe_action(self, action: Any) -> str:
        return terminal.describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        if text.strip().startswith("{"):
            return super().parse_action(text, legal)  # the canonical JSON form
        return terminal.parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None) -> str | None:
        return terminal.render_text(view, seat)
