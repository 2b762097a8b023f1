"""Gameweave's ISMCTS against OpenSpiel's IS-MCTS, at equal CPU time per decision.

    python benchmarks/rl_strength.py --games 200 --cpu 0.05 museumheist masterthief

writes its table to ``benchmarks/rl_strength.json`` (``--json``), which ``make bench``'s
RL section prints (200 games a pairing take too long to replay on every bench run).

Each game is an OpenSpiel game of the title (``gameweave_rl.openspiel``): chance nodes
are sampled from their outcomes with a seeded generator, OpenSpiel's
``ISMCTSBot`` plays its seat through the game's states (resampling with the title's
resample hook, ``resample_from_infostate``), and Gameweave's ``ismcts`` bot plays the
other seat from the observation the match gives that seat. The seats swap every
other game (same seeds both ways).

Equal CPU is enforced by CPU time, not wall time (the machine is shared, and a
neighbour's load must not starve one side): each searcher runs until this process
has spent ``--cpu`` seconds of CPU (``time.process_time``) on the decision, then
plays what it found (both finish the iteration under way, and OpenSpiel's needs two
simulations at least). The CPU time each side actually spent per decision, its
choosing and everything else included, is measured the same way and reported with
the iterations it ran. Win rates (a draw counts half) carry 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
#: The long run's table, read by ``make bench`` (``bench_rl``).
RESULTS = HERE / "rl_strength.json"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


#: An iteration cap neither searcher reaches within its CPU budget.
UNBOUNDED = 10**9


class _OutOfTime(Exception):
    """OpenSpiel's search has spent its CPU budget (caught by :class:`CpuISMCTS`)."""


class CpuISMCTS:
    """OpenSpiel's ``ISMCTSBot`` searching until ``cpu`` seconds of process CPU time
    are spent on the decision: its loop of simulations is cut where it draws the next
    root state, and the final policy is taken from the root as it stands."""

    def __new__(cls, game: Any, rs: Any, cpu: float) -> Any:
        from open_spiel.python.algorithms import ismcts, mcts

        class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
            def run_search(self, state: Any) -> Any:
                self.deadline = time.process_time() + cpu
                self.simulations = 0
                try:
                    return super().run_search(state)
                except _OutOfTime:
                    return self.get_final_policy(state, self._root_node)

            def sample_root_state(self, state: Any) -> Any:
                # Two simulations at least: the first only expands the root.
                if self.simulations >= 2 and time.process_time() >= self.deadline:
                    raise _OutOfTime
                self.simulations += 1
                self.total_simulations += 1
                return super().sample_root_state(state)

        bot = Bot(
            game,
            mcts.RandomRolloutEvaluator(1, rs),
            uct_c=2.0,
            max_simulations=UNBOUNDED,
            random_state=rs,
        )
        bot.total_simulations = 0
        return bot


class _CpuClock:
    """``time`` as Gameweave's ISMCTS reads it for its ``budget``, with the process's
    CPU time as its clock (the bot's own budget check, measured in CPU seconds)."""

    perf_counter = staticmethod(time.process_time)


class Players:
    """The two searchers for one title, each held to ``cpu`` CPU seconds a decision."""

    def __init__(self, title: Any, game: Any, cpu: float) -> None:
        from gameweave_core import ismcts
        from gameweave_core.ismcts import IsmctsBot, SearchOptions

        # Gameweave's bot stops at its budget by the clock it reads from its module's
        # ``time``: here, CPU time (this benchmark's process only).
        vars(ismcts)["time"] = _CpuClock
        self.title, self.game = title, game
        self.rs = np.random.RandomState(0)
        self.openspiel = CpuISMCTS(game, self.rs, cpu)
        self.gameweave = {
            seat: IsmctsBot(
                title,
                seat,
                2,
                SearchOptions.for_title(title, seat, 2, iterations=UNBOUNDED, budget=cpu),
            )
            for seat in (1, 2)
        }
        self.gameweave_iterations = 0


def play(players: Players, seed: int, gameweave_seat: int) -> dict[str, Any]:
    """One game: Gameweave's result (1 win, 0.5 draw, 0 loss), and each side's CPU
    seconds, decisions and iterations."""
    from gameweave_core import Rng, derive_seed

    players.rs.seed(seed % 2**32)
    chance = np.random.RandomState(derive_seed(seed, "chance") % 2**32)
    bot_rng = Rng(derive_seed(seed, "gameweave"))
    state = players.game.new_initial_state()
    host = players.game.shared.host
    cpu = {True: 0.0, False: 0.0}
    moves = {True: 0, False: 0}
    iterations = {True: 0, False: 0}
    openspiel = players.openspiel
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        ours = state.current_player() + 1 == gameweave_seat
        start = time.process_time()
        if ours:
            match = state.match
            found = players.gameweave[gameweave_seat].search(match.observe(gameweave_seat), bot_rng)
            number = host.number(match, gameweave_seat, found.action)
            iterations[True] += found.iterations
        else:
            before = openspiel.total_simulations
            number = openspiel.step(state)
            iterations[False] += openspiel.total_simulations - before
        cpu[ours] += time.process_time() - start
        moves[ours] += 1
        state.apply_action(number)
    returns = state.returns()
    mine, theirs = returns[gameweave_seat - 1], returns[2 - gameweave_seat]
    return {
        "result": 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
        "gameweave": (cpu[True], moves[True], iterations[True]),
        "openspiel": (cpu[False], moves[False], iterations[False]),
    }


def pairing(name: str, games: int, cpu: float, first: int = 0, log: Any = None) -> dict[str, Any]:
    """``games`` games of title ``name`` at ``cpu`` CPU seconds per decision (each
    game's result is written to ``log`` as it ends, if given)."""
    from gameweave_core import default_registry, derive_seed
    from gameweave_rl.openspiel import load_game

    title = default_registry().title(name)
    game = load_game(title, players=2)
    players = Players(title, game, cpu)
    wins = 0.0
    totals = {side: [0.0, 0, 0] for side in ("gameweave", "openspiel")}
    for i in range(first, first + games):
        game_result = play(players, derive_seed(7, f"game:{i // 2}"), 1 + i % 2)
        wins += game_result["result"]
        for side, total in totals.items():
            for k, v in enumerate(game_result[side]):
                total[k] += v
        if log is not None:
            print(
                f"{name} game {i}: Gameweave seat {1 + i % 2}, result "
                f"{game_result['result']}, running {wins}/{i - first + 1}",
                file=log,
                flush=True,
            )
    low, high = wilson(wins, games)
    row: dict[str, Any] = {
        "title": name,
        "games": games,
        "cpu_budget": cpu,
        "gameweave_wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [low, high],
    }
    for side, (spent, decisions, iterations) in totals.items():
        row[f"{side}_decisions"] = decisions
        row[f"{side}_cpu_per_decision"] = spent / max(1, decisions)
        row[f"{side}_iterations_per_decision"] = iterations / max(1, decisions)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("titles", nargs="*", default=["museumheist", "masterthief"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cpu", type=float, default=0.05, help="CPU seconds per decision")
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the table")
    args = parser.parse_args(argv)
    # The code the games run is the code at the start: everything is imported now,
    # so that an edit made while the games run is not loaded half-way.
    import gameweave_rl.openspiel  # noqa: F401
    from gameweave_core import default_registry, ismcts  # noqa: F401

    for name in args.titles:
        default_registry().title(name)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE.parent, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "adapters", "gameweave_core", "benchmarks"],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
    ).stdout.strip()
    started = time.time()
    load_start = os.getloadavg()
    rows = [pairing(t, args.games, args.cpu, log=sys.stderr) for t in args.titles]
    for row in rows:
        low, high = row["ci95"]
        print(
            f"{row['title']}: Gameweave ISMCTS won {row['win_rate']:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}) of {row['games']} games against OpenSpiel's "
            f"IS-MCTS; CPU per decision {row['gameweave_cpu_per_decision'] * 1000:.0f} ms "
            f"({row['gameweave_iterations_per_decision']:.0f} iterations) vs "
            f"{row['openspiel_cpu_per_decision'] * 1000:.0f} ms "
            f"({row['openspiel_iterations_per_decision']:.0f} simulations), "
            f"budget {row['cpu_budget'] * 1000:.0f} CPU ms"
        )
    meta = {
        "command": "python benchmarks/rl_strength.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "commit": commit + ("+changes" if dirty else ""),
        "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "minutes": round((time.time() - started) / 60, 1),
        "loadavg_at_start": " ".join(f"{x:.2f}" for x in load_start),
        "loadavg_at_end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    args.json.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.exit(main())
