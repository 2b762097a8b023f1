"""Gameweave's engine: titles, matches, logs, randomness, plugins and bots.

The core knows nothing about any particular game. A title (a plugin) supplies the
rules; :class:`Match` runs them, keeps the replayable log and builds everything a
seat receives from that seat's view.
"""

from typing import Any

from .actions import ActionCodec, action, action_tag, make_converter
from .bots import Bot, BotFactory, Observation, RandomBot
from .errors import (
    ConfigError,
    CutLog,
    DigestMismatch,
    GameOver,
    GameweaveError,
    IllegalAction,
    LogError,
    MalformedAction,
    NotAwaited,
    PluginError,
    TitleError,
    UnknownTitle,
)
from .events import Event
from .facts import GameFacts, GameInfo, game_info
from .hooks import hookimpl
from .log import FORMAT_VERSION, LogEntry, MatchLog
from .match import Match
from .observation import (
    Bag,
    Bool,
    Const,
    IntRange,
    ListOf,
    MapOf,
    Maybe,
    NotEncoded,
    NoViewSchema,
    Number,
    ObservationSpec,
    OneOf,
    Record,
    Schema,
    ViewOutsideSchema,
)
from .outcome import Outcome
from .registry import Registry, TitleEntry, default_registry
from .rng import Rng, derive_seed
from .runner import BotSeat, play_out, run_bots, seat_bots
from .space import ActionSpace, NotEnumerable, Relative, action_space, values
from .title import ModuleTitle, Title, pickled_copy

__all__ = [
    "FORMAT_VERSION",
    "ActionCodec",
    "ActionSpace",
    "Bag",
    "Bool",
    "Bot",
    "BotFactory",
    "BotSeat",
    "ConfigError",
    "Const",
    "CutLog",
    "DigestMismatch",
    "Event",
    "GameFacts",
    "GameInfo",
    "GameOver",
    "GameweaveError",
    "IllegalAction",
    "IntRange",
    "ListOf",
    "LogEntry",
    "LogError",
    "MalformedAction",
    "MapOf",
    "Match",
    "MatchLog",
    "Maybe",
    "ModuleTitle",
    "NoViewSchema",
    "NotAwaited",
    "NotEncoded",
    "NotEnumerable",
    "Number",
    "Observation",
    "ObservationSpec",
    "OneOf",
    "Outcome",
    "PluginError",
    "RandomBot",
    "Record",
    "Registry",
    "Relative",
    "Rng",
    "Schema",
    "Title",
    "TitleEntry",
    "TitleError",
    "UnknownTitle",
    "ViewOutsideSchema",
    "action",
    "action_space",
    "action_tag",
    "default_registry",
    "derive_seed",
    "game_info",
    "hookimpl",
    "make_converter",
    "pickled_copy",
    "play_out",
    "run_bots",
    "seat_bots",
    "values",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    # The deprecated global converter (see gameweave_core.actions).
    if name == "converter":
        from . import actions

        return actions.__getattr__(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
