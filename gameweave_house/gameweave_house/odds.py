"""Measured odds of The House Job: many jobs played by the basic-strategy bot.

    python -m gameweave_house.odds --jobs 5000 --seats 3 --seed 1 [--no-abilities]

Each job gets its own seed derived from ``--seed`` and its number, so the figures
do not depend on how the jobs are split between the worker processes.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from multiprocessing import Pool

from gameweave_core import Match, default_registry, derive_seed
from gameweave_core.runner import play_out


def play_job(args: tuple[int, int, str]) -> tuple[int, bool, str]:
    """One job: (final Take, whether the crew took the house, how it ended)."""
    seed, seats, bot = args
    match = Match.create("house", seats, seed, registry=default_registry())
    play_out(match, dict.fromkeys(range(1, seats + 1), bot))
    result = match.outcome()
    assert result is not None
    return int(result.figures["take"]), bool(result.figures["took_the_house"]), result.reason


def summarise(results: Sequence[tuple[int, bool, str]]) -> dict[str, float]:
    takes = [t for t, _, _ in results]
    q1, median, q3 = statistics.quantiles(takes, n=4)
    n = len(takes)
    won = sum(1 for _, w, _ in results if w)
    share = won / n
    return {
        "jobs": n,
        "mean": statistics.fmean(takes),
        "sd": statistics.pstdev(takes),
        "q1": q1,
        "median": median,
        "q3": q3,
        "took": share,
        # normal-approximation 95% half-width of the share
        "took_ci": 1.96 * math.sqrt(share * (1 - share) / n),
        "broke": sum(1 for _, _, r in results if r == "broke") / n,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameweave_house.odds", description=__doc__)
    parser.add_argument("--jobs", type=int, default=5000)
    parser.add_argument("--seats", type=int, default=3, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-abilities", action="store_true", help="bot basic-noabilities")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    bot = "basic-noabilities" if args.no_abilities else "basic"
    work = [(derive_seed(args.seed, f"job:{i}"), args.seats, bot) for i in range(args.jobs)]
    if args.workers > 1:
        with Pool(args.workers) as pool:
            results = pool.map(play_job, work, chunksize=50)
    else:
        results = [play_job(w) for w in work]
    s = summarise(results)
    print(
        f"| {args.seats} | {'off' if args.no_abilities else 'on'} | {s['jobs']:.0f} | "
        f"{s['mean']:.0f} | {s['sd']:.0f} | {s['q1']:.0f} / {s['median']:.0f} / {s['q3']:.0f} | "
        f"{100 * s['took']:.1f}% ± {100 * s['took_ci']:.1f} | {100 * s['broke']:.1f}% |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
