"""Master Thief as a Gameweave title: its metadata, and the modules that hold the
rules (``rules``), the views (``views``), the sampler (``resample``), the bots
(``bots``) and the terminal (``terminal``). Every method is the function of the same
name in one of them, bound as it is; what game-playing algorithms need is in
``actions`` (the values of each action's fields), ``views`` (the views' shape) and
``algorithms`` (utilities and facts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gameweave_core import ModuleTitle

from . import actions, algorithms, bots, resample, rules, rules_text, terminal, views
from .state import State


class MasterThief(
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
    """Master Thief: steal, swipe, stash, and escape before Security or time runs out."""

    name = "masterthief"
    display_name = "Master Thief"
    summary = "Steal from the Museum, foil your rivals out of turn, and escape with the most BMC."
    min_players = 2
    max_players = 6
    version = "4"
    default_bot = "heuristic"
    web_renderer = "web/masterthief.js"
    max_actions = 6000
    default_config: ClassVar[Mapping[str, Any]] = {"museum": [], "deck": [], "calling": []}
    test_only_options = frozenset({"museum", "deck", "calling"})
