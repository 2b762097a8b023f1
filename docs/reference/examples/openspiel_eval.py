"""OpenSpiel's IS-MCTS against uniform random play on any installed Gameweave title.

Run it with the ``rl`` extra installed: ``python openspiel_eval.py museumheist 10``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from gameweave_rl.openspiel import load_game


def evaluate(title: Any, games: int, seed: int = 7) -> list[float]:
    """Seat 1 searches with IS-MCTS, seat 2 plays at random: seat 1's mean return
    and seat 2's over ``games`` games of ``title`` (a name or a Title object)."""
    game = load_game(title, players=2)
    rng = np.random.RandomState(seed)
    rollouts = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, rollouts, uct_c=2.0, max_simulations=50, random_state=rng)
    opponent = pyspiel.make_uniform_random_bot(1, seed)
    totals = np.zeros(2)
    for _ in range(games):
        totals += evaluate_bots(game.new_initial_state(), [searcher, opponent], rng)
    return list(totals / games)


if __name__ == "__main__":
    name, count = (sys.argv[1], int(sys.argv[2])) if len(sys.argv) > 2 else ("museumheist", 10)
    print(f"{name}: mean return of IS-MCTS, of random play:", evaluate(name, count))
