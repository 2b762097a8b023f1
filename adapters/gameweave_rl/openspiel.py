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
    match would be made for nothing. Deep-copying it clones the match.

    The match keeps no information states: keeping them costs a canonical view per
    seat per step, which the algorithms that never ask (MCTS, the rollouts of
    IS-MCTS) would pay for nothing. A second match that keeps them is made the
    first time one is asked for, and from then on follows this one; a copy does not
    take it along, only the way to make it: the numbers applied since the start
    (from which the state is also pickled), or, for a state drawn by the title's
    resample hook, the drawn match that keeps them (shared, never advanced) and the
    numbers applied since the draw."""

    __slots__ = ("_match", "_recalled", "applied", "origin", "shared", "since")

    def __init__(
        self,
        shared: _Shared,
        match: Any = None,
        applied: list[int] | None = None,
        origin: Any = None,
        since: list[int] | None = None,
    ) -> None:
        self.shared = shared
        self._match = match
        #: The numbers applied since the start; None for a resampled match (no
        #: history of actions leads to it).
        self.applied: list[int] | None = [] if applied is None and origin is None else applied
        #: A resampled match's drawn match that keeps information states.
        self.origin = origin
        self.since: list[int] = [] if since is None else since
        self._recalled: Any = None

    @property
    def match(self) -> Any:
        match = self._match
        if match is None:
            match = self._match = self.shared.host.new_explicit()
        return match

    def recalling(self) -> Any:
        """The match at the same point that keeps its seats' information states."""
        recalled = self._recalled
        if recalled is None:
            host = self.shared.host
            if self.origin is not None:
                recalled, numbers = host.clone(self.origin), self.since
            else:
                assert self.applied is not None
                recalled, numbers = host.new_explicit(recall=True), self.applied
            for number in numbers:
                host.apply(recalled, number)
            self._recalled = recalled
        return recalled

    def record(self, number: int) -> None:
        """Note ``number``, just applied to :attr:`match`."""
        if self.applied is not None:
            self.applied.append(number)
        else:
            self.since.append(number)
        if self._recalled is not None:
            self.shared.host.apply(self._recalled, number)

    def __deepcopy__(self, memo: Any) -> _MatchRef:
        return _MatchRef(
            self.shared,
            self.shared.host.clone(self.match),
            None if self.applied is None else list(self.applied),
            self.origin,
            list(self.since),
        )

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
        #: The player to act, kept until the next action (None: not known yet).
        self._player: int | None = None

    @property
    def match(self) -> Any:
        """The match this state is a point of (its state is never shown to a seat)."""
        return self._ref.match

    # current_player and is_terminal are asked many times per node by OpenSpiel's
    # algorithms (MCTS asks several times per node it visits): the answer is kept
    # until the state's next action (a clone copies it, as it copies the match).

    def current_player(self) -> int:
        player = self._player
        if player is None:
            match = self._ref.match
            if match.is_chance_node:
                player = _CHANCE
            else:
                awaiting = match.awaiting
                player = awaiting[0] - 1 if awaiting else _TERMINAL
            self._player = player
        return player

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._shared.host.legal_indices(self._ref.match, player + 1)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._shared.host.chance_outcomes(self._ref.match)

    def _apply_action(self, action: int) -> None:
        ref = self._ref
        self._player = None
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
        seat, ref = player_id + 1, self._ref
        # Drawn twice with the same seed, so the same world: from the match, for the
        # moves, and from the match keeping information states, whose draw keeps
        # them too (IS-MCTS keys its tree by them at every node it visits; the
        # rollouts from a node never ask).
        drawn._ref = _MatchRef(
            self._shared,
            host.resampled(ref.match, seat, seed),
            origin=host.resampled(ref.recalling(), seat, seed),
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
