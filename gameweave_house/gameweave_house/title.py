"""The House Job as a Gameweave title: its metadata, and the modules that hold the rest.

Every method not written below is the function of the same name in one of the
modules the class names (``rules``, ``views``, ``resample``, ``bots``,
``terminal``), bound as it is: ``awaiting``, ``legal_actions`` and ``apply``, called
on every action, are the rules' functions themselves, with no forwarding call (one
cost 1 to 3% of the bare rules' speed; docs/titles/house/compiled.md has the figures).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gameweave_core import ModuleTitle, Rng
from gameweave_core.worlds import World

from . import actions, algorithms, bots, resample, rules, rules_text, terminal, views
from .state import State, for_digest


class HouseJob(
    ModuleTitle[State],
    actions=actions,
    rules=rules,
    views=views,
    resample=resample,
    bots=bots,
    terminal=terminal,
    rules_text=rules_text,
    algorithms=algorithms,
):
    """The House Job: two to four seats share one Take against an automated dealer."""

    name = "house"
    display_name = "The House Job"
    summary = "A co-operative blackjack heist: one deck, one shared Take, five roles."
    min_players = 2
    max_players = 4
    version = "3"
    #: ``deck``: an explicit draw order (52 card strings, e.g. "AS", "TD"), empty to
    #: shuffle with the match's generator; ``take``: the opening Take.
    default_config: ClassVar[Mapping[str, Any]] = {"deck": [], "take": 1000}
    #: A chosen deck fixes every hidden card: for tests and examples only.
    test_only_options: ClassVar[frozenset[str]] = frozenset({"deck"})
    default_bot = "basic"
    web_renderer = "web/house.js"
    max_actions = 5_000

    def snapshot(self, state: State) -> Any:
        # The generic snapshot without State.last, which the digests of older logs lack.
        return for_digest(super().snapshot(state))

    def resample_world(self, state: State, seat: int | None, rng: Rng) -> World:
        """The resample as a world the core can check (``resample.resample_world``);
        the core has no module hook of that name, so the class names it."""
        return resample.resample_world(state, seat, rng)
