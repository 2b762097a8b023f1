"""Museum Heist as a Gameweave title: its metadata, and the modules that hold the
rules (``rules``), the views (``views``), the sampler (``resample``), the bots
(``bots``), the terminal (``terminal``), the rules for players (``rules_text``) and
the state a maintainer reads (``state``).
Every method is the function of the same name in one of them, bound as it is."""

from __future__ import annotations

from typing import Any

from gameweave_core import ModuleTitle, Rng
from gameweave_core.worlds import World

from . import actions, algorithms, bots, resample, rules, rules_text, terminal, views
from . import state as state_module
from .state import HISTORY_FIELDS, State

# A round ends within 1 placement + 4 choices + 686 moves (each move lowers the sum of
# the pieces' squared distances to the Artwork, at most 7 x 98, and a swap keeps it)
# + 8 swaps + 4 challenges; a game has at most 9 rounds (one token per round).
_ROUND_BOUND = 1 + 4 + 7 * 98 + 8 + 4


class MuseumHeist(
    ModuleTitle[State],
    actions=actions,
    rules=rules,
    views=views,
    resample=resample,
    bots=bots,
    terminal=terminal,
    rules_text=rules_text,
    algorithms=algorithms,
    state=state_module,  # its readable_snapshot: squares by name for replay --state
):
    """Museum Heist: secret identities on a shared board."""

    name = "museumheist"
    display_name = "Museum Heist"
    summary = "Secret identities on a shared board: bring your own character to the Artwork."
    min_players = 2
    max_players = 4
    version = "1"
    default_bot = "heuristic"
    web_renderer = "web/museumheist.js"
    max_actions = 9 * _ROUND_BOUND

    def snapshot(self, state: State) -> Any:
        # The generic snapshot without the past kept for resample_world: the seed and
        # the actions fix it, and the digests of logs recorded before it stay as they were.
        data = super().snapshot(state)
        for name in HISTORY_FIELDS:
            del data[name]
        return data

    def resample_world(self, state: State, seat: int | None, rng: Rng) -> World:
        """The resample as a world the core can check (``resample.resample_world``);
        the core has no module hook of that name, so the class names it."""
        return resample.resample_world(state, seat, rng)
