"""How balanced is The Museum Job between the heuristic bots?

    python -m gameweave_museum.balance --games 2000 --players 3 --seed 1

plays seeded matches (match ``i`` uses the seed derived from ``--seed`` and
``"game:i"``) with the default bot in every seat, on two worker processes, and
prints the Thief's win rate with its 95% Wilson interval, the mean number of
rounds and how the games ended. The same command prints the same table.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool

import attrs

from gameweave_core import Match, default_registry, derive_seed
from gameweave_core.runner import play_out

ENDINGS = ("escape", "catch", "dawn")


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with the default ``z``)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(job: tuple[int, int, int]) -> tuple[str, int]:
    """One match between heuristic bots: how it ended and in which round."""
    players, seed, index = job
    match = Match.create(
        "museum", players, derive_seed(seed, f"game:{index}"), registry=default_registry()
    )
    play_out(match)
    outcome = match.outcome()
    assert outcome is not None
    return outcome.reason, int(outcome.figures["rounds"])


@attrs.frozen
class Summary:
    players: int
    games: int
    endings: dict[str, int]
    mean_rounds: float

    @property
    def thief_wins(self) -> int:
        return self.endings.get("escape", 0)

    def row(self) -> str:
        low, high = wilson(self.thief_wins, self.games)
        share = " | ".join(
            f"{self.endings.get(e, 0)} ({self.endings.get(e, 0) / self.games:.1%})" for e in ENDINGS
        )
        return (
            f"| {self.players} | {self.games} | {self.thief_wins / self.games:.1%} "
            f"| {low:.1%} – {high:.1%} | {self.mean_rounds:.2f} | {share} |"
        )


HEADER = (
    "| Players | Games | Thief wins | 95% interval (Wilson) | Mean rounds "
    "| Escape | Catch | Dawn |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- |"
)


def simulate(players: int, games: int, seed: int, workers: int = 2) -> Summary:
    jobs = [(players, seed, i) for i in range(games)]
    with Pool(workers) as pool:
        results = pool.map(play_one, jobs, chunksize=25)
    endings = Counter(reason for reason, _ in results)
    rounds = sum(r for _, r in results) / games
    return Summary(players, games, dict(endings), rounds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 1 or any(not 2 <= p <= 4 for p in args.players):
        parser.error("--games must be positive and --players between 2 and 4")
    print(HEADER)
    for players in args.players:
        print(simulate(players, args.games, args.seed, args.workers).row(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
