"""PettingZoo's own ``tictactoe_v3``, run by ``worker.py`` inside ``.venv-peers`` (the
RL benchmark's peer; ``run.py rl``). Standard library and PettingZoo only.

Step ``i`` plays the game seeded ``seed + i`` with the random policy of
``rl_workloads.random_pick``: ``random.Random(seed + i)`` picks among the action
mask's ones, so both sides play the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def drive(environment: Any, seed: int) -> Callable[[int], int]:
    """Random play through a PettingZoo AEC environment, as a trainer drives it."""

    def step(i: int) -> int:
        game_seed = seed + i
        environment.reset(seed=game_seed)
        policy = random.Random(game_seed)
        n = 0
        for _agent in environment.agent_iter():
            obs, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            environment.step(int(legal[policy.randrange(len(legal))]))
            n += 1
        return n

    return step


def pz_tictactoe_v3(seed: int = 0) -> Callable[[int], int]:
    """PettingZoo's own ``tictactoe_v3`` environment, random play. Units: actions."""
    from pettingzoo.classic import tictactoe_v3

    return drive(tictactoe_v3.env(), seed)


def tictactoe_games(seed: int = 0, games: int = 20) -> list[int]:
    """The action count of each of ``games`` games (untimed: the same-games check)."""
    step = pz_tictactoe_v3(seed)
    return [step(i) for i in range(games)]
