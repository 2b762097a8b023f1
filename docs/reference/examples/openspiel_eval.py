"""OpenSpiel's IS-MCTS against uniform random play on any installed Gameweave title.

Run it with the ``rl`` extra installed: ``python openspiel_eval.py museumheist 10``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots import uniform_random

from gameweave_rl.openspiel import load_game


def evaluate(title: Any, games: int, seed: int = 7) -> list[float]:
    """Seat 1 searches with IS-MCTS, seat 2 plays at random: each seat's mean return
    over ``games`` games of ``title`` (an installed title's name, or a Title)."""
    game = load_game(title, players=2)
    rng = np.random.RandomState(seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=50, random_state=rng),
        uniform_random.UniformRandomBot(1, rng),
    ]
    totals = np.zeros(2)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():  # the title's draws, at their odds
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=odds)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        totals += state.returns()
    return [float(t) for t in totals / games]


if __name__ == "__main__":
    name, count = (sys.argv[1], int(sys.argv[2])) if len(sys.argv) > 2 else ("museumheist", 10)
    print(f"{name}: mean return of IS-MCTS, of random play:", evaluate(name, count))
