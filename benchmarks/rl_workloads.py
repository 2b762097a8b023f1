"""The workloads of the reinforcement-learning adapter's benchmark (``run.py rl``), run
by ``worker.py`` in the project's environment (which has the ``rl`` extra: PettingZoo
and OpenSpiel).

Each factory returns ``step(i) -> units``; step ``i`` plays the game seeded
``seed + i`` with a random policy seeded the same way, so two workloads given the same
seed and numbering play the same games. Units: actions taken by seats.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from gameweave_core import Match, Rng, default_registry, derive_seed

HERE = Path(__file__).resolve().parent
if str(HERE / "tictactoe") not in sys.path:
    sys.path.insert(0, str(HERE / "tictactoe"))


def _title(name: str) -> Any:
    if name == "tictactoe":
        import gameweave_tictactoe

        return gameweave_tictactoe.TicTacToe()
    return default_registry().title(name)


# -- each title: its AEC environment against a bare Match loop ---------------------------


def match_loop(title: str, players: int, seed: int = 0) -> Callable[[int], int]:
    """Random games through a bare ``Match``: the awaited seat picks one of its legal
    actions uniformly (one draw of a seeded ``Rng``) and submits it."""
    t = _title(title)

    def step(i: int) -> int:
        game_seed = seed + i
        match = Match(t, players, game_seed)
        policy = Rng(derive_seed(game_seed, "policy"))
        n = 0
        while True:
            awaiting = match.awaiting
            if not awaiting:
                return n
            seat = awaiting[0]
            match.submit(seat, policy.choice(match.legal_actions(seat)))
            n += 1

    return step


def aec_loop(
    title: str, players: int, seed: int = 0, wrapped: bool = False
) -> Callable[[int], int]:
    """The same kind of games through the title's PettingZoo AEC environment
    (``gameweave_rl.pettingzoo.raw_env``, or ``env`` with PettingZoo's wrappers when
    ``wrapped``), as an RL trainer drives it: ``last()`` for the agent's observation
    (view encoding and action mask), one uniform draw among the mask's ones, ``step``."""
    from gameweave_rl.pettingzoo import env, raw_env

    environment = (env if wrapped else raw_env)(_title(title), players)

    def step(i: int) -> int:
        game_seed = seed + i
        environment.reset(seed=game_seed)
        policy = Rng(derive_seed(game_seed, "policy"))  # the draws match_loop makes
        n = 0
        for _agent in environment.agent_iter():
            obs, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            environment.step(int(legal[policy.randbelow(len(legal))]))
            n += 1
        return n

    return step


# -- tic-tac-toe: the same wrappers as PettingZoo's tictactoe_v3, against it --------------


def gw_tictactoe_aec(seed: int = 0) -> Callable[[int], int]:
    """Gameweave's tic-tac-toe through ``gameweave_rl.pettingzoo.env`` (the wrappers
    ``tictactoe_v3`` applies), random play as ``rl_peer_workloads`` drives
    ``tictactoe_v3`` (which runs in the peers' environment). Both number the cells 0
    to 8 row by row, so the two play the same games."""
    from rl_peer_workloads import drive

    from gameweave_rl.pettingzoo import env

    return drive(env(_title("tictactoe"), 2), seed)


def tictactoe_games(seed: int = 0, games: int = 20) -> list[int]:
    """The action count of each of ``games`` games (untimed: the same-games check)."""
    step = gw_tictactoe_aec(seed)
    return [step(i) for i in range(games)]


# -- tic-tac-toe as an OpenSpiel game, against OpenSpiel's python_tic_tac_toe ------------


def _mcts_loop(game: Any, seed: int, simulations: int) -> Callable[[int], int]:
    from open_spiel.python.algorithms import mcts

    def step(i: int) -> int:
        game_seed = seed + i
        rs = np.random.RandomState(game_seed % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(1, rs)
        bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rs)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            state.apply_action(bot.step(state))
            n += 1
        return n

    return step


def os_python_tic_tac_toe(seed: int = 0, simulations: int = 20) -> Callable[[int], int]:
    """OpenSpiel's ``python_tic_tac_toe``, each move chosen by OpenSpiel's MCTS bot
    (random rollouts): cloning, legal actions, applying, returns."""
    import pyspiel
    from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers it)

    return _mcts_loop(pyspiel.load_game("python_tic_tac_toe"), seed, simulations)


def os_gameweave_tic_tac_toe(seed: int = 0, simulations: int = 20) -> Callable[[int], int]:
    """Gameweave's tic-tac-toe through ``gameweave_rl.openspiel.load_game``, the same
    MCTS bot and seeds (same numbering, so the same games)."""
    from gameweave_rl.openspiel import load_game

    return _mcts_loop(load_game(_title("tictactoe"), players=2), seed, simulations)


def same_mcts_games(seed: int = 0, games: int = 10) -> dict[str, Any]:
    """Untimed proof that the two OpenSpiel workloads play the same games: the same
    action count game by game."""
    theirs, ours = os_python_tic_tac_toe(seed, 5), os_gameweave_tic_tac_toe(seed, 5)
    a = [theirs(i) for i in range(games)]
    b = [ours(i) for i in range(games)]
    return {"same": a == b, "actions": sum(a)}


def origin() -> str:
    """Where this worker's core and adapter come from (the before/after check)."""
    import gameweave_core
    import gameweave_rl

    return f"gameweave_core {Path(gameweave_core.__file__).parent}, gameweave_rl {Path(gameweave_rl.__file__).parent}"


def titles() -> list[str]:
    """Every installed title, and tic-tac-toe."""
    return [*default_registry().names(), "tictactoe"]


def hosted(title: str, players: int) -> int:
    """The size of the title's action space, or the adapter's refusal (raised)."""
    from gameweave_rl import host

    return host(_title(title), players, {}).size


def _area(filename: str) -> str:
    path = filename.replace("\\", "/")
    for marker, area in (
        ("gameweave_core/observation.py", "the core's observation encoder"),
        ("<view schema plan", "the core's observation encoder"),
        ("gameweave_core/space.py", "the core's action numbering"),
        ("gameweave_core/", "the core (Match, views, ...)"),
        ("gameweave_rl/", "the adapter"),
        ("/pettingzoo/", "PettingZoo"),
        ("/gymnasium/", "Gymnasium"),
        ("/numpy/", "NumPy"),
        ("benchmarks/", "the benchmark's loop"),
    ):
        if marker in path:
            return area
    if "site-packages" in path or path.startswith("~") or path.startswith("<"):
        return "Python and built-ins"
    return "the title's rules and views"


def profile_aec(title: str, players: int, seconds: float = 1.0, top: int = 8) -> dict[str, Any]:
    """cProfile of :func:`aec_loop` for about ``seconds`` of games: the share of time
    per area (the observation encoder, the core, the title, PettingZoo, ...) and the
    functions with the most time of their own."""
    import cProfile
    import pstats
    import time

    step = aec_loop(title, players)
    profiler = cProfile.Profile()
    deadline = time.perf_counter() + seconds
    i = 0
    profiler.enable()
    while time.perf_counter() < deadline:
        step(i)
        i += 1
    profiler.disable()
    raw: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values()) or 1.0
    areas: dict[str, float] = {}
    rows = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in raw.items():
        area = _area(filename)
        areas[area] = areas.get(area, 0.0) + tottime
        short = (
            filename.replace("\\", "/")
            .split("site-packages/")[-1]
            .removeprefix(str(HERE.parent) + "/")
        )
        rows.append((tottime, f"{short}:{line}({name})", ncalls, cumtime))
    rows.sort(reverse=True)
    return {
        "games": i,
        "areas": {k: v / total for k, v in sorted(areas.items(), key=lambda kv: -kv[1])},
        "top": [
            {"function": f, "share": t / total, "calls": n, "cumulative_share": c / total}
            for t, f, n, c in rows[:top]
        ],
    }
