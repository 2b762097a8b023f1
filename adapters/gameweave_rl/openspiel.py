"""Any installed title as an OpenSpiel game.

``load_game(title, players=N, **options)`` gives a :class:`pyspiel.Game` that every
OpenSpiel algorithm accepts (MCTS, IS-MCTS, CFR, exploitability, evaluation), and
importing this module registers every installed title as ``gameweave_<name>``, so
``pyspiel.load_game("gameweave_museum(players=3)")`` works too.

The game is sequential: when a title awaits several seats at once (simultaneous
choices), they move one after the other in seat order, each choice hidden from the
others by the title, as it is at the table. Chance is explicit: each draw of the
title's random generator is a chance node whose outcomes and probabilities are those
of the draw, so a state's history (seats' actions and chance outcomes) replays the
game exactly, which is what OpenSpiel's serialization relies on.

What a seat learns is only what its view gives it: the observation string and tensor
are built from the seat's view, the information state from the seat's own actions and
what it was shown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from gameweave_core import Registry, Title, default_registry

from ._host import Host, NotHostable, host

__all__ = ["GameweaveGame", "GameweaveState", "game_type", "load_game", "register"]

#: The prefix of the names under which titles are registered with OpenSpiel.
PREFIX = "gameweave_"


def game_type(hosted: Host) -> pyspiel.GameType:
    """The OpenSpiel game type of a hosted title (its parameters: ``players`` and the
    title's options that OpenSpiel can carry, with their defaults)."""
    chance = (
        pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if hosted.uses_chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC
    )
    information = (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if hosted.hidden_information
        else pyspiel.GameType.Information.PERFECT_INFORMATION
    )
    utility = {
        "zero": pyspiel.GameType.Utility.ZERO_SUM,
        "constant": pyspiel.GameType.Utility.CONSTANT_SUM,
        "general": pyspiel.GameType.Utility.GENERAL_SUM,
        "identical": pyspiel.GameType.Utility.IDENTICAL,
    }[hosted.sum_kind]
    title = hosted.title
    return pyspiel.GameType(
        short_name=PREFIX + title.name,
        long_name=f"Gameweave {title.display_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=title.max_players,
        min_num_players=title.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(title, hosted.players, hosted.config),
    )


def _parameters(title: Title[Any], players: int, config: Mapping[str, Any]) -> dict[str, Any]:
    # OpenSpiel's parameters are scalars (bool, int, float, str): the options of
    # another type stay at the game's value and are not offered as parameters.
    params: dict[str, Any] = {"players": players}
    for name, value in title.offered_options().items():
        value = config.get(name, value)
        if isinstance(value, bool | int | float | str):
            params[name] = value
    return params


class GameweaveGame(pyspiel.Game):  # type: ignore[misc]
    """A title for a number of players and options, as an OpenSpiel game."""

    def __init__(self, hosted: Host, params: Mapping[str, Any] | None = None) -> None:
        self.host = hosted
        info = pyspiel.GameInfo(
            num_distinct_actions=hosted.size,
            max_chance_outcomes=hosted.max_chance_outcomes,
            num_players=hosted.players,
            min_utility=hosted.min_utility,
            max_utility=hosted.max_utility,
            utility_sum=hosted.utility_sum,
            max_game_length=hosted.max_game_length,
        )
        super().__init__(game_type(hosted), info, dict(params or _parameters(
            hosted.title, hosted.players, hosted.config)))

    def new_initial_state(self) -> GameweaveState:
        """The state before the first chance draw and the first action."""
        return GameweaveState(self, self.host.new_explicit())

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> _Observer:
        """The observation (``perfect_recall`` false: the seat's view now) or the
        information state (``perfect_recall`` true: all the seat did and was shown)."""
        if params:
            raise ValueError(f"a Gameweave game's observer takes no parameters, got {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and not iig_obs_type.private_info:
            # Public information only is not something a title declares apart.
            raise ValueError("Gameweave observers give a seat's own view: private_info is needed")
        return _Observer(self.host, perfect_recall)


class GameweaveState(pyspiel.State):  # type: ignore[misc]
    """A point of a match: a seat to act, a chance draw, or the end."""

    def __init__(self, game: GameweaveGame, match: Any) -> None:
        super().__init__(game)
        self.host = game.host
        self.match = match

    def current_player(self) -> int:
        host, match = self.host, self.match
        if host.chance_pending(match):
            return int(pyspiel.PlayerId.CHANCE)
        awaiting = match.awaiting
        if not awaiting:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(awaiting[0]) - 1

    def is_terminal(self) -> bool:
        return not self.host.chance_pending(self.match) and not self.match.awaiting

    def _legal_actions(self, player: int) -> list[int]:
        return self.host.legal_indices(self.match, player + 1)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.host.chance_outcomes(self.match)

    def _apply_action(self, action: int) -> None:
        host, match = self.host, self.match
        if host.chance_pending(match):
            host.resolve_chance(match, action)
        else:
            host.submit(match, match.awaiting[0], action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"chance outcome {action}"
        return self.host.describe(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.host.players
        return list(self.host.utilities(self.match))

    def __str__(self) -> str:
        # OpenSpiel's state string identifies the state (its algorithms use it as a
        # key): the spectator's view and the digest of the state it was built from.
        return self.host.state_string(self.match)

    def __deepcopy__(self, memo: Any) -> GameweaveState:
        # pyspiel's clone() of a Python state deep-copies it: the match clones itself.
        copy = GameweaveState.__new__(GameweaveState)
        pyspiel.State.__init__(copy, self.get_game())
        copy.host = self.host
        copy.match = self.host.clone(self.match)
        return copy


class _Observer:
    """A seat's observation or information state, as a string and a tensor."""

    def __init__(self, hosted: Host, perfect_recall: bool) -> None:
        self.host = hosted
        self.perfect_recall = perfect_recall
        size = hosted.info_size if perfect_recall else hosted.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GameweaveState, player: int) -> None:
        if self.perfect_recall:
            self.tensor[:] = self.host.info_tensor(state.match, player + 1)
        else:
            self.tensor[:] = self.host.observe(state.match, player + 1)

    def string_from(self, state: GameweaveState, player: int) -> str:
        if self.perfect_recall:
            return self.host.info_string(state.match, player + 1)
        return json.dumps(state.match.view(player + 1), sort_keys=True, separators=(",", ":"))


# -- loading and registering --------------------------------------------------------------


def load_game(
    title: str | Title[Any], players: int | None = None, **options: Any
) -> GameweaveGame:
    """The OpenSpiel game of ``title`` (an installed title's name, or a title object)
    for ``players`` seats (default: the title's fewest) and the title's ``options``.

    Raises :class:`~gameweave_rl.NotHostable`, in one line, for a title whose actions,
    views or chance cannot be numbered."""
    hosted = host(title, players, options)
    return GameweaveGame(hosted)


def register(title: Title[Any]) -> str:
    """Register ``title`` with OpenSpiel as ``gameweave_<name>``; returns that name.

    ``pyspiel.load_game(name, {"players": 3, ...})`` and OpenSpiel's deserialization
    then build the game from its parameters. A title that cannot be hosted is
    refused here, in one line (:class:`~gameweave_rl.NotHostable`)."""
    default = host(title, None, {})
    name = PREFIX + title.name
    if name in _registered:
        return name

    def make(params: Mapping[str, Any] | None = None) -> GameweaveGame:
        params = dict(params or {})
        players = int(params.pop("players", default.players))
        return GameweaveGame(host(title, players, params))

    pyspiel.register_game(game_type(default), make)
    _registered[name] = title
    return name


_registered: dict[str, Title[Any]] = {}

#: The installed titles that could not be registered, with the one-line reason.
not_registered: dict[str, str] = {}


def register_installed(registry: Registry | None = None) -> list[str]:
    """Register every title of ``registry`` (default: the installed ones); returns
    the names registered. A title that cannot be hosted is left out and its reason
    kept in :data:`not_registered`."""
    names = []
    for entry in (registry or default_registry()).entries():
        try:
            names.append(register(entry.title))
        except NotHostable as error:
            not_registered[entry.title.name] = str(error)
    return names


register_installed()
