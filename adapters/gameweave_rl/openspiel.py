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

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from gameweave_core import Registry, Title, default_registry

from ._host import Host, NotHostable, host

__all__ = ["GameweaveGame", "GameweaveState", "game_type", "load_game", "register"]

#: The prefix of the names under which titles are registered with OpenSpiel.
PREFIX = "gameweave_"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


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
        params = dict(params or _parameters(hosted.title, hosted.players, hosted.config))
        super().__init__(game_type(hosted), info, params)
        self.shared = _Shared(hosted, (PREFIX + hosted.title.name, tuple(sorted(params.items()))))

    def new_initial_state(self) -> GameweaveState:
        """The state before the first chance draw and the first action."""
        return GameweaveState(self)

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


class _Shared:
    """The hosted title, shared by every state of a game: OpenSpiel's clone of a
    Python state deep-copies the state's attributes, and this one is not copied.
    Pickled as the game's registered name and parameters."""

    __slots__ = ("host", "key")

    def __init__(self, hosted: Host, key: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
        self.host = hosted
        self.key = key

    def __deepcopy__(self, memo: Any) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared_of, self.key)


def _shared_of(name: str, params: tuple[tuple[str, Any], ...]) -> _Shared:
    game = pyspiel.load_game(name, dict(params))
    assert isinstance(game, GameweaveGame)
    return game.shared


class _MatchRef:
    """A state's match, made when first needed: OpenSpiel's clone makes a new
    initial state and then copies the attributes into it, so the new state's own
    match would be made for nothing. Deep-copying it clones the match. It keeps the
    numbers applied so far (chance outcomes included), from which it is pickled and
    from which it is replayed, once, when an information state is first asked for:
    keeping information states costs a canonical view per seat per step, which the
    algorithms that never ask (MCTS, rollouts) would pay for nothing."""

    __slots__ = ("_match", "applied", "recall", "shared")

    def __init__(
        self,
        shared: _Shared,
        match: Any = None,
        applied: list[int] | None = None,
        recall: bool = False,
    ) -> None:
        self.shared = shared
        self._match = match
        #: The numbers applied since the start; None for a resampled match (no
        #: history of actions leads to it).
        self.applied: list[int] | None = [] if applied is None and match is None else applied
        self.recall = recall

    @property
    def match(self) -> Any:
        match = self._match
        if match is None:
            match = self._match = self.shared.host.new_explicit(recall=self.recall)
        return match

    def recalling(self) -> Any:
        """The match, keeping its seats' information states from now on (a resampled
        match gives them by replaying itself)."""
        if not self.recall and self.applied is not None:
            host = self.shared.host
            match = host.new_explicit(recall=True)
            for number in self.applied:
                host.apply(match, number)
            self._match, self.recall = match, True
        return self.match

    def record(self, number: int) -> None:
        if self.applied is not None:
            self.applied.append(number)

    def __deepcopy__(self, memo: Any) -> _MatchRef:
        applied = None if self.applied is None else list(self.applied)
        return _MatchRef(self.shared, self.shared.host.clone(self.match), applied, self.recall)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.applied is None:
            raise TypeError("a resampled state is reached by no history, so it cannot be pickled")
        return (_replayed, (self.shared, tuple(self.applied)))


def _replayed(shared: _Shared, applied: tuple[int, ...]) -> _MatchRef:
    ref = _MatchRef(shared)
    host, match = shared.host, ref.match
    for number in applied:
        host.apply(match, number)
        ref.record(number)
    return ref


class GameweaveState(pyspiel.State):  # type: ignore[misc]
    """A point of a match: a seat to act, a chance draw, or the end."""

    def __init__(self, game: GameweaveGame) -> None:
        super().__init__(game)
        self._shared = game.shared
        self._ref = _MatchRef(game.shared)

    @property
    def match(self) -> Any:
        """The match this state is a point of (its state is never shown to a seat)."""
        return self._ref.match

    # current_player and is_terminal are asked many times per node by OpenSpiel's
    # algorithms: they read the match directly rather than through the host.

    def current_player(self) -> int:
        match = self._ref.match
        if match.is_chance_node:
            return _CHANCE
        awaiting = match.awaiting
        return awaiting[0] - 1 if awaiting else _TERMINAL

    def is_terminal(self) -> bool:
        match = self._ref.match
        return not match.awaiting and not match.is_chance_node

    def _legal_actions(self, player: int) -> list[int]:
        return self._shared.host.legal_indices(self._ref.match, player + 1)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._shared.host.chance_outcomes(self._ref.match)

    def _apply_action(self, action: int) -> None:
        ref = self._ref
        self._shared.host.apply(ref.match, action)
        ref.record(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"chance outcome {action}"
        return self._shared.host.describe(action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._shared.host.players
        return list(self._shared.host.utilities(self._ref.match))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GameweaveState:
        """A state ``player_id`` cannot tell from this one, drawn by the title's
        resample hook with a generator seeded from ``probability_sampler`` (what
        OpenSpiel's IS-MCTS searches). Such a state is not reached by a history of
        actions, so it is not serialized."""
        host = self._shared.host
        if not host.title.can_resample:
            raise NotImplementedError(f"{host.title.name} has no resample hook")
        seed = int(probability_sampler() * 2**31)
        drawn = GameweaveState(self.get_game())
        # From a match keeping information states, so that the drawn one keeps them
        # too: IS-MCTS keys its tree by them at every node it visits.
        source = self._ref.recalling()
        drawn._ref = _MatchRef(
            self._shared, host.resampled(source, player_id + 1, seed), None, True
        )
        return drawn

    def __str__(self) -> str:
        # OpenSpiel's state string identifies the state (its algorithms use it as a
        # key): the spectator's view and the digest of the state it was built from.
        return self._shared.host.state_string(self._ref.match)


class _Observer:
    """A seat's observation or information state, as a string and a tensor."""

    def __init__(self, hosted: Host, perfect_recall: bool) -> None:
        self.host = hosted
        self.perfect_recall = perfect_recall
        size = hosted.info_size if perfect_recall else hosted.obs_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GameweaveState, player: int) -> None:
        match = state._ref.match
        if self.perfect_recall:
            self.tensor[:] = self.host.info_tensor(match, player + 1)
        else:
            self.tensor[:] = self.host.observe(match, player + 1)

    def string_from(self, state: GameweaveState, player: int) -> str:
        if self.perfect_recall:
            return self.host.info_string(state._ref.recalling(), player + 1)
        match = state._ref.match
        return self.host.view_string(match, player + 1)


# -- loading and registering --------------------------------------------------------------


def load_game(title: str | Title[Any], players: int | None = None, **options: Any) -> GameweaveGame:
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
    refused here, in one line (:class:`~gameweave_rl.NotHostable`). Registering
    the same title again does nothing."""
    name = PREFIX + title.name
    known = _registered.get(name)
    if known is not None:
        if known.title is not title:
            raise ValueError(f"another title is already registered with OpenSpiel as {name}")
        return name
    default = host(title, None, {})
    # OpenSpiel's registry keeps its game makers until the process ends, after the
    # interpreter has gone: a class (like OpenSpiel's own Python games register)
    # lives that long, where a closure freed then would crash the exit.
    maker = type(
        f"Gameweave{type(title).__name__}Game",
        (_RegisteredGame,),
        {"title": title, "__module__": __name__},
    )
    pyspiel.register_game(game_type(default), maker)
    _registered[name] = maker
    return name


class _RegisteredGame(GameweaveGame):
    """The game class OpenSpiel's registry builds a registered title's games with."""

    title: Title[Any]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        options = dict(params or {})
        players = options.pop("players", None)
        super().__init__(host(self.title, players, options), params)


_registered: dict[str, type[_RegisteredGame]] = {}

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
        except Exception as error:  # a broken title must not break the import
            reason = f"{type(error).__name__}: {error}".splitlines()[0]
            not_registered[entry.title.name] = f"{entry.title.name}: {reason}"
    return names


register_installed()
