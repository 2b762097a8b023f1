"""How long The Museum Job's resample hook takes, and how often its first draw agrees.

Run from the repository root::

    .venv/bin/python gameweave_museum/benchmarks/resample.py --games 20

Games of the heuristic bots (and of random play) are played with fixed seeds;
at every step where the Thief is hidden, the hook is timed for Security, side by
side with ``copy.deepcopy`` of the same state (the least any fresh state costs),
interleaved call by call. Printed: the median and 90th percentile per call, the
ratio of the medians, the median by round of the game, and how many calls needed
more than one draw or fell back to copying the real state.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from typing import Any

from gameweave_core import Match, Rng, derive_seed
from gameweave_museum import MuseumJob, resample
from gameweave_museum.bots import heuristic_bot
from gameweave_museum.floorplan import quayside_palace
from gameweave_museum.state import SECURITY, THIEF, State

TITLE = MuseumJob()


def hidden_states(games: int, bots: str) -> list[State]:
    states = []
    for i in range(games):
        players = 2 + i % 3
        match = Match(TITLE, players, derive_seed(42, f"bench {bots} {i}"))
        rng = Rng(i)
        seats = {s: heuristic_bot(s, players) for s in range(1, players + 1)}
        while match.awaiting:
            if match._state.phase in (THIEF, SECURITY):
                states.append(copy.deepcopy(match._state))
            seat = match.awaiting[0]
            if bots == "heuristic":
                act: Any = seats[seat].act(match.observe(seat), rng)
            else:
                act = rng.choice(match.legal_actions(seat))
            match.submit(seat, act)
    return states


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per kind of bot")
    args = parser.parse_args(argv)
    plan = quayside_palace()
    for bots in ("heuristic", "random"):
        states = hidden_states(args.games, bots)
        hook, floor = [], []
        by_round: dict[int, list[float]] = {}
        retried = fell_back = 0
        for n, state in enumerate(states):
            t0 = time.process_time_ns()
            copy.deepcopy(state)
            t1 = time.process_time_ns()
            TITLE.resample(state, 2, Rng(n))
            t2 = time.process_time_ns()
            floor.append((t1 - t0) / 1e6)
            hook.append((t2 - t1) / 1e6)
            by_round.setdefault(state.round, []).append(hook[-1])
            # Count the draws the call needed (not timed).
            facts = resample.Facts.read(plan, state)
            want, rng = resample.public_part(state), Rng(n)
            for attempt in range(resample.ATTEMPTS):
                actions = resample.draw_history(
                    plan, facts, rng, extras=attempt < resample.WITH_EXTRAS
                )
                done = actions is not None and (
                    (c := resample.replay(plan, state, actions)) is not None
                    and resample.public_part(c) == want
                )
                if done:
                    retried += attempt > 0
                    break
            else:
                fell_back += 1
        hook.sort()
        floor.sort()
        median, p90 = statistics.median(hook), hook[int(len(hook) * 0.9)]
        print(f"{bots} bots: {len(states)} calls from {args.games} games")
        print(f"  resample      median {median:.3f} ms   p90 {p90:.3f} ms   max {hook[-1]:.3f} ms")
        print(f"  deepcopy      median {statistics.median(floor):.3f} ms")
        print(f"  ratio of medians: {median / statistics.median(floor):.1f}x a deep copy")
        rounds = "  ".join(
            f"r{r}:{statistics.median(v):.2f}" for r, v in sorted(by_round.items()) if r % 3 == 0
        )
        print(f"  median ms by round: {rounds}")
        print(f"  calls needing a second draw: {retried}; copying the real state: {fell_back}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
