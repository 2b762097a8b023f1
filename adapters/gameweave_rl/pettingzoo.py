"""Any installed title as a PettingZoo environment.

:func:`env` gives the AEC environment (one seat acts at a time, as PettingZoo's
classic games do), wrapped like PettingZoo's own board games; :func:`raw_env` the
environment without the wrappers; :func:`parallel_env` a parallel environment for
titles whose seats choose at the same time.

The agents are the seats (``"seat_1"``, ``"seat_2"``, ...). A seat's observation is
a dict: ``"observation"``, the title's encoding of **that seat's view** (never of the
state), and ``"action_mask"``, which of the title's numbered actions the seat may
take now. Rewards are the title's utilities, given once at the end. ``reset(seed=s)``
starts the same game for the same ``s``; a later ``reset()`` without a seed starts
the next game of a sequence drawn from the last seed given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from gameweave_core import Match
from gameweave_core.rng import derive_seed, fresh_seed

from ._host import Host, host

__all__ = ["GameweaveAEC", "GameweaveParallel", "env", "parallel_env", "raw_env"]


def agent_name(seat: int) -> str:
    """The agent of seat ``seat``: ``"seat_1"`` for seat 1."""
    return f"seat_{seat}"


class _Seeds:
    """The seeds of an environment's games: ``reset(seed=s)`` plays the game of ``s``
    and starts a sequence from it, so that each later ``reset()`` without a seed
    plays the next game of that sequence (the same sequence on every run)."""

    def __init__(self) -> None:
        self._base: int | None = None
        self._count = 0

    def next(self, seed: int | None) -> int:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
                raise TypeError(f"reset(seed=...) takes a whole number, not {seed!r}")
            self._base, self._count = int(seed), 0
            return derive_seed(int(seed), "env")
        if self._base is None:
            # Never seeded: a fresh seed (which refuses under the project's tests).
            self._base, self._count = fresh_seed(), 0
        self._count += 1
        return derive_seed(self._base, f"env:{self._count}")


class GameweaveAEC(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """A title's matches as a PettingZoo AEC environment (see the module's docstring)."""

    def __init__(self, hosted: Host, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.host = hosted
        self.render_mode = render_mode
        # PettingZoo's metadata: the render modes, the name, and whether the
        # environment may be turned into a parallel one.
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi"],
            "name": f"gameweave_{hosted.title.name}",
            "is_parallelizable": hosted.simultaneous,
        }
        self.possible_agents = [agent_name(s) for s in range(1, hosted.players + 1)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents, start=1)}
        # Seat ``s``'s agent at index ``s`` (the hot path picks the next agent by seat).
        self._agent = ["", *self.possible_agents]
        # One space object per agent, as PettingZoo's api_test asks (`is`, not ==).
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=hosted.obs_low, high=hosted.obs_high, dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, shape=(hosted.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(hosted.size) for a in self.possible_agents}
        self._seeds = _Seeds()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: the game of ``seed``, or the next of the last seed's sequence.
        ``options`` is accepted for the API's sake; a title's options are given to
        :func:`env` (a game's options do not change between resets)."""
        self.match = self.host.new_match(self._seeds.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        """The agent to act: the first awaited seat, or every agent in turn at the end."""
        assert self.match is not None
        awaiting = self.match.awaiting
        if awaiting:
            self.agent_selection = self._agent[awaiting[0]]
            return
        utilities = self.host.utilities(self.match)
        for agent in self.agents:
            self.rewards[agent] = utilities[self._seat[agent] - 1]
            self.terminations[agent] = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """``agent``'s observation: its view, encoded, and its action mask."""
        match = self.match
        if match is None:
            match = self._live()  # refuses: not reset yet
        seat = self._seat[agent]
        hosted = self.host
        return {"observation": hosted.observe(match, seat), "action_mask": hosted.mask(match, seat)}

    def step(self, action: int | None) -> None:
        """The selected agent takes action number ``action`` (``None`` once it is done).

        An action the seat may not take now is refused with a one-line
        :class:`ValueError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: step() needs an action number, not None")
        match = self._live()
        self.host.submit(match, self._seat[agent], action)  # a refusal changes nothing
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._select()

    def _live(self) -> Match:
        if self.match is None:
            raise RuntimeError("call reset() before using the environment")
        return self.match

    def render(self) -> str | None:
        """The game as a spectator sees it, in text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        match = self._live()
        text = match.title.render_text(match.view(None), None)
        return text if text is not None else repr(match.view(None))

    def close(self) -> None:
        self.match = None


class GameweaveParallel(ParallelEnv):  # type: ignore[misc]
    """A title whose seats choose at the same time, as a PettingZoo parallel
    environment: every awaited seat acts in one ``step``, in seat order (each choice
    is hidden from the others by the title, as at the table); a seat not awaited
    has an all-zero mask and its action is ignored.

    As with :func:`env`'s wrappers, an awaited seat's action outside its mask ends
    the game: that seat gets the title's lowest utility, the others 0."""

    def __init__(self, hosted: Host) -> None:
        self.aec = GameweaveAEC(hosted)
        self.metadata: dict[str, Any] = {"render_modes": [], "name": self.aec.metadata["name"]}
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, NDArray[Any]]], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        return {a: self.aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, int]
    ) -> tuple[
        dict[str, dict[str, NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self.aec
        match = aec._live()
        host = aec.host
        agents = self.agents
        awaited = [agent_name(s) for s in match.awaiting]
        missing = [a for a in awaited if a not in actions]
        if missing:
            raise ValueError(f"step() needs an action of every awaited agent; missing: {missing}")
        rewards = dict.fromkeys(agents, 0.0)
        # Checked before any is submitted: an illegal action ends the game at once.
        illegal = [a for a in awaited if not host.is_legal(match, aec._seat[a], actions[a])]
        if illegal:
            EnvLogger.warn_on_illegal_move()
            rewards[illegal[0]] = host.min_utility
            over = True
        else:
            for agent in awaited:
                host.submit(match, aec._seat[agent], actions[agent])
            over = not match.awaiting
            if over:
                utilities = host.utilities(match)
                rewards = {a: utilities[aec._seat[a] - 1] for a in agents}
        observations = {a: aec.observe(a) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        self.aec.close()


def raw_env(
    title: Any, players: int, *, render_mode: str | None = None, **options: Any
) -> GameweaveAEC:
    """The AEC environment of ``title`` (an installed title's name, or a title
    object) for ``players`` seats and the title's ``options``, without wrappers.

    Raises :class:`~gameweave_rl.NotHostable` (one line) for a title whose actions or
    views are not declared."""
    return GameweaveAEC(host(title, players, options), render_mode=render_mode)


def env(title: Any, players: int, *, render_mode: str | None = None, **options: Any) -> Any:
    """:func:`raw_env` wrapped as PettingZoo wraps its own board games
    (``tictactoe_v3``, ``connect_four_v3``): an action outside the mask ends the game
    with the title's lowest utility for the seat that took it, an action outside the
    space is an assertion error, and the calls must come in the API's order."""
    raw = raw_env(title, players, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=raw.host.min_utility)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(title: Any, players: int, **options: Any) -> GameweaveParallel:
    """The parallel environment of a title whose seats choose at the same time.

    A title whose seats always act one at a time is refused in one line: its AEC
    environment (:func:`env`) is the one to use."""
    hosted = host(title, players, options)
    if not hosted.simultaneous:
        raise ValueError(
            f"{hosted.title.name}: its seats act one at a time; use "
            "gameweave_rl.pettingzoo.env (parallel_env is for simultaneous choices)"
        )
    return GameweaveParallel(hosted)
