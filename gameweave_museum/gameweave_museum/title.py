"""The Museum Job as a Gameweave title: its metadata, and the modules that hold the rest.

The title holds no state of its own and no logic: every method is the function of
the same name in one of the modules the class names (``rules``, ``state``,
``views``, ``resample``, ``bots``, ``terminal``), bound as it is.
"""

from __future__ import annotations

from gameweave_core import ModuleTitle, Rng
from gameweave_core.worlds import World

from . import actions, algorithms, bots, resample, rules, rules_text, terminal, views
from . import state as state_module
from .state import DAWN, State


class MuseumJob(
    ModuleTitle[State],
    actions=actions,
    rules=rules,
    state=state_module,
    views=views,
    resample=resample,
    bots=bots,
    terminal=terminal,
    rules_text=rules_text,
    algorithms=algorithms,
):
    """The Museum Job: one Thief against the night watch of the Quayside Palace."""

    name = "museum"
    display_name = "The Museum Job"
    summary = "A hidden-movement heist: one Thief, three guards, eighteen rounds until dawn."
    min_players = 2
    max_players = 4
    version = "4"
    default_bot = "heuristic"
    web_renderer = "web/museum.js"
    # 3 posts + the entry + 18 rounds of at most 4 actions.
    max_actions = 4 + DAWN * 4

    def resample_world(self, state: State, seat: int | None, rng: Rng) -> World:
        """The resample as a world the core can check (``resample.resample_world``);
        the core has no module hook of that name, so the class names it."""
        return resample.resample_world(state, seat, rng)
