"""Museum Rush as a Gameweave title: its metadata, and the modules that hold the
rules (``rules``), the views (``views``), the sampler (``resample``), the bots
(``bots``) and the terminal (``terminal``). Every method is the function of the same
name in one of them, bound as it is; what game-playing algorithms need is in
``actions`` (the values of each action's fields, and the numbered list of every
action), ``views`` (the views' shape) and ``algorithms`` (utilities and facts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gameweave_core import ModuleTitle

from . import actions, algorithms, bots, resample, rules, rules_text, terminal, views
from .state import State

# At most 29 Search cards are drawn, so at most ~29 turns after the break-ins; a
# turn is 3 moves, a steal, Items and the choices they bring (well under 300).
_TURN_BOUND = 300


class MuseumRush(
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
    """Museum Rush: a shuffled museum, moving Guards, decks and hidden goals."""

    name = "museumrush"
    display_name = "Museum Rush"
    summary = "Break into a shuffled museum, steal, and get out before the last Clock."
    min_players = 2
    max_players = 4
    version = "4"
    default_config: ClassVar[Mapping[str, Any]] = {"first_game": False}
    default_bot = "heuristic"
    web_renderer = "web/museumrush.js"
    max_actions = 40 * _TURN_BOUND
