"""Tic-tac-toe as a Gameweave title: metadata, and one line per method."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng, Title

from . import rules, views
from .actions import ACTIONS, Mark
from .state import CELLS, State

__all__ = ["Mark", "State", "TicTacToe"]


class TicTacToe(Title[State]):
    """Tic-tac-toe: the benchmark game shared with boardgame.io."""

    name = "tictactoe"
    display_name = "Tic-tac-toe"
    summary = "Three in a line wins (the server benchmark's game)."
    min_players = 2
    max_players = 2
    version = "1"
    actions = ACTIONS
    max_actions = CELLS

    def setup(self, players: int, config: Mapping[str, Any], rng: Rng) -> State:
        return rules.setup(players, config, rng)

    def awaiting(self, state: State) -> Sequence[int]:
        return rules.awaiting(state)

    def legal_actions(self, state: State, seat: int) -> Sequence[Mark]:
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

    def has_secrets(self, state: State, seat: int) -> bool:
        return False  # the whole board is in everyone's view
