"""The peers' blackjack workloads, run by ``worker.py`` inside ``.venv-peers``.

Each factory returns ``step(i) -> hands``: one complete hand (one playout, one
episode) with uniformly random decisions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib.metadata import version
from typing import Any


def openspiel_blackjack(seed: int = 0) -> Callable[[int], int]:
    """OpenSpiel's ``blackjack``: random legal actions, chance outcomes sampled here in
    Python from ``chance_outcomes()`` (the C++ engine applies every action)."""
    import pyspiel

    game = pyspiel.load_game("blackjack")
    rng = random.Random(seed)

    def step(i: int) -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                x = rng.random()
                acc = 0.0
                outcomes = state.chance_outcomes()
                chosen = outcomes[-1][0]
                for outcome, p in outcomes:
                    acc += p
                    if x < acc:
                        chosen = outcome
                        break
                state.apply_action(chosen)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    return step


def rlcard_blackjack(seed: int = 0) -> Callable[[int], int]:
    """RLCard's ``blackjack`` with its ``RandomAgent``, one ``env.run`` per hand."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("blackjack", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def step(i: int) -> int:
        env.run(is_training=False)
        return 1

    return step


def versions() -> dict[str, Any]:
    """The installed peers, for the results table."""
    return {name: version(name) for name in ("open-spiel", "rlcard", "numpy")}


def check_openspiel() -> dict[str, Any]:
    """A sanity check (untimed): random playouts end, with returns in the game's range."""
    import pyspiel

    game = pyspiel.load_game("blackjack")
    step = openspiel_blackjack(seed=1)
    for i in range(200):
        step(i)
    state = game.new_initial_state()
    return {
        "players": game.num_players(),
        "min_utility": game.min_utility(),
        "max_utility": game.max_utility(),
        "initial_is_chance": state.is_chance_node(),
    }
