"""The House Job as a Gameweave title: the protocol glued to the rules module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from gameweave_core import ConfigError, Event, Outcome, Rng, Title
from gameweave_core.bots import BotFactory

from . import rules, views
from .actions import ALL_ACTIONS
from .roles import ROLES
from .state import OVER, State


class HouseJob(Title[State]):
    """The House Job: two to four seats share one Take against an automated dealer."""

    name = "house"
    display_name = "The House Job"
    summary = "A co-operative blackjack heist: one deck, one shared Take, five roles."
    min_players = 2
    max_players = 4
    version = "1"
    actions = ALL_ACTIONS
    #: ``deck``: an explicit draw order (52 card strings, e.g. "AS", "TD"), empty to
    #: shuffle with the match's generator; ``take``: the opening Take.
    default_config: ClassVar[Mapping[str, Any]] = {"deck": [], "take": 1000}
    default_bot = "basic"
    web_renderer = "web/house.js"
    max_actions = 5_000

    def __init__(self) -> None:
        # The hot path: bind the rules functions straight onto the instance so a
        # call from the core costs no extra frame (the methods below document them).
        self.awaiting = rules.awaiting  # type: ignore[method-assign]
        self.legal_actions = rules.legal  # type: ignore[method-assign]
        self.apply = rules.apply  # type: ignore[method-assign]

    def check_config(self, players: int, config: Mapping[str, Any]) -> dict[str, Any]:
        full = super().check_config(players, config)
        problem = rules.check_options(full)
        if problem:
            raise ConfigError(problem)
        return full

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.new_state(players, config, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return () if state.phase == OVER else (state.turn,)

    def legal_actions(self, state: State, seat: int) -> Sequence[Any]:
        return rules.legal(state, seat)

    def apply(self, state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
        return rules.apply(state, seat, action, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        won = state.take > state.opening
        verdict = "took the house" if won else "the house kept its edge"
        how = "went broke" if state.ended == "broke" else "played the deck through"
        return Outcome(
            side="crew" if won else "house",
            winners=tuple(range(1, state.players + 1)) if won else (),
            reason=state.ended,
            summary=f"The crew {how}: Take {state.take} against the opening {state.opening}; "
            f"{verdict}",
            figures={"take": state.take, "opening": state.opening, "took_the_house": won},
        )

    def seat_label(self, state: State, seat: int) -> str:
        role = state.roles[seat - 1]
        return f"Crew {seat} ({ROLES[role].name})" if role else f"Crew {seat}"

    def has_secrets(self, state: State, seat: int) -> bool:
        # Crewmates hide nothing from each other: hot-seat play needs no screen.
        return False

    def explain_illegal(self, state: State, seat: int, action: Any) -> str | None:
        return rules.explain(state, seat, action)

    def snapshot(self, state: State) -> Any:
        return self.codec.converter.unstructure(state)

    def bots(self) -> Mapping[str, BotFactory]:
        from .bots import BOTS

        return BOTS

    def describe_action(self, action: Any) -> str:
        from .terminal import describe_action

        return describe_action(action)

    def parse_action(self, text: str, legal: Sequence[Any]) -> Any:
        from .terminal import parse_action

        return parse_action(text, legal)

    def render_text(self, view: Mapping[str, Any], seat: int | None) -> str | None:
        from .terminal import render_text

        return render_text(view, seat)
