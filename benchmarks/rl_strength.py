"""Gameweave's ISMCTS against OpenSpiel's IS-MCTS, at equal CPU time per decision.

    python benchmarks/rl_strength.py --games 200 --cpu 0.05 museumheist masterthief

Each game is an OpenSpiel game of the title (``gameweave_rl.openspiel``): chance nodes
are sampled from their outcomes with a seeded generator, OpenSpiel's
``ISMCTSBot`` plays its seat through the game's states (resampling with the title's
resample hook, ``resample_from_infostate``), and Gameweave's ``ismcts`` bot plays the
other seat from the observation the match gives that seat. The seats swap every
other game (same seeds both ways). Before the games, each bot's iterations per CPU
second are measured on the title, and each gets the iterations that fill ``--cpu``
seconds of CPU per decision; the CPU time each actually used is reported.
Win rates (a draw counts half) carry 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Players:
    """The two searchers for one title, with their iteration counts."""

    def __init__(self, title: Any, game: Any, gw_iterations: int, os_simulations: int) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        from gameweave_core.ismcts import IsmctsBot, SearchOptions

        self.title, self.game = title, game
        self.rs = np.random.RandomState(0)
        self.openspiel = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, self.rs),
            uct_c=2.0,
            max_simulations=os_simulations,
            random_state=self.rs,
        )
        self.gameweave = {
            seat: IsmctsBot(
                title,
                seat,
                2,
                SearchOptions.for_title(title, seat, 2, iterations=gw_iterations, budget=None),
            )
            for seat in (1, 2)
        }


def play(players: Players, seed: int, gameweave_seat: int) -> tuple[float, float, float]:
    """One game: Gameweave's result (1 win, 0.5 draw, 0 loss) and the CPU seconds per
    decision of each side."""
    from gameweave_core import Rng, derive_seed

    players.rs.seed(seed % 2**32)
    chance = np.random.RandomState(derive_seed(seed, "chance") % 2**32)
    bot_rng = Rng(derive_seed(seed, "gameweave"))
    state = players.game.new_initial_state()
    host = players.game.shared.host
    cpu = {True: 0.0, False: 0.0}
    moves = {True: 0, False: 0}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        ours = state.current_player() + 1 == gameweave_seat
        start = time.process_time()
        if ours:
            match = state.match
            act = players.gameweave[gameweave_seat].act(match.observe(gameweave_seat), bot_rng)
            number = host.number(match, gameweave_seat, act)
        else:
            number = players.openspiel.step(state)
        cpu[ours] += time.process_time() - start
        moves[ours] += 1
        state.apply_action(number)
    returns = state.returns()
    mine, theirs = returns[gameweave_seat - 1], returns[2 - gameweave_seat]
    result = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return result, cpu[True] / max(1, moves[True]), cpu[False] / max(1, moves[False])


def calibrate(title: Any, game: Any, seconds: float) -> tuple[float, float]:
    """Iterations per CPU second of each searcher on the title's first decisions."""
    rates = []
    for kind in ("gameweave", "openspiel"):
        players = Players(title, game, 20, 20)
        spent, iterations = 0.0, 0
        seed = 0
        while spent < seconds:
            state = game.new_initial_state()
            chance = np.random.RandomState(seed)
            for _ in range(6):
                while state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(chance.choice(outcomes, p=probs)))
                if state.is_terminal():
                    break
                seat = state.current_player() + 1
                start = time.process_time()
                if kind == "gameweave":
                    from gameweave_core import Rng

                    bot = players.gameweave[seat]
                    act = bot.act(state.match.observe(seat), Rng(seed))
                    number = game.shared.host.number(state.match, seat, act)
                else:
                    number = players.openspiel.step(state)
                spent += time.process_time() - start
                iterations += 20
                state.apply_action(number)
            seed += 1
        rates.append(iterations / spent)
    return rates[0], rates[1]


def pairing(name: str, games: int, cpu: float, first: int = 0) -> dict[str, Any]:
    """``games`` games of title ``name`` at ``cpu`` CPU seconds per decision."""
    from gameweave_core import default_registry, derive_seed
    from gameweave_rl.openspiel import load_game

    title = default_registry().title(name)
    game = load_game(title, players=2)
    gw_rate, os_rate = calibrate(title, game, seconds=max(1.0, 20 * cpu))
    gw_iterations = max(1, round(gw_rate * cpu))
    # OpenSpiel's IS-MCTS only expands the root on its first simulation: two at least.
    os_simulations = max(2, round(os_rate * cpu))
    players = Players(title, game, gw_iterations, os_simulations)
    wins = 0.0
    gw_cpu, os_cpu = [], []
    for i in range(first, first + games):
        result, mine, theirs = play(players, derive_seed(7, f"game:{i // 2}"), 1 + i % 2)
        wins += result
        gw_cpu.append(mine)
        os_cpu.append(theirs)
    low, high = wilson(wins, games)
    return {
        "title": name,
        "games": games,
        "gameweave_wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
        "gameweave_iterations": gw_iterations,
        "openspiel_simulations": os_simulations,
        "gameweave_cpu_per_decision": float(np.mean(gw_cpu)) if gw_cpu else 0.0,
        "openspiel_cpu_per_decision": float(np.mean(os_cpu)) if os_cpu else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*", default=["museumheist", "masterthief"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cpu", type=float, default=0.05, help="CPU seconds per decision")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = [pairing(t, args.games, args.cpu) for t in args.titles]
    for row in rows:
        low, high = row["ci95"]
        print(
            f"{row['title']}: Gameweave ISMCTS won {row['win_rate']:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}) of {row['games']} games against OpenSpiel's "
            f"IS-MCTS; CPU per decision {row['gameweave_cpu_per_decision'] * 1000:.0f} ms "
            f"({row['gameweave_iterations']} iterations) vs "
            f"{row['openspiel_cpu_per_decision'] * 1000:.0f} ms "
            f"({row['openspiel_simulations']} simulations)"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
