"""Before and after in one run: the blackjack and overhead workloads of two checkouts,
interleaved round by round (``run.py`` compares contenders of one checkout).

    python benchmarks/sidebyside.py --base /path/to/other/checkout [--rounds 7]
        [--seconds 1.0] [--titles museum,house] [--only blackjack|overhead]

Each checkout runs its own ``benchmarks/worker.py`` with its own ``.venv`` (pure
Python) and, when built, its own ``.venv-compiled``; OpenSpiel runs once, from this
checkout's ``benchmarks/.venv-peers``. Every round measures every contender once, the
order rotating, so "before" and "after" share the machine's ups and downs. Printed:
medians of wall-clock and CPU rates, and the ratios of those medians.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness as H
import peers

HERE = Path(__file__).resolve().parent


def worker(root: Path, python: Path, label: str) -> H.Worker:
    """A :class:`harness.Worker` running ``root``'s own worker and workloads."""
    w = H.Worker.__new__(H.Worker)
    w.label = label
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    w.proc = subprocess.Popen(
        [str(python), "-u", str(root / "benchmarks" / "worker.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=root,
        env=env,
        text=True,
    )
    return w


def cpu_rate(c: H.Contender) -> float:
    return statistics.median(s.units / s.cpu for s in c.samples if s.cpu > 0)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base", required=True, type=Path, help="the checkout measured as 'before'")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--seconds", type=float, default=1.0, help="one blackjack batch")
    p.add_argument("--batch", type=float, default=0.6, help="one overhead batch (seconds)")
    p.add_argument("--titles", default="museum,house,museumheist,masterthief,museumrush")
    p.add_argument("--only", choices=("blackjack", "overhead"))
    p.add_argument("--no-compiled", action="store_true")
    args = p.parse_args()
    trees = {"base": args.base.resolve(), "new": HERE.parent}
    workers: dict[str, H.Worker] = {}
    for side, root in trees.items():
        workers[side] = worker(root, root / ".venv" / "bin" / "python", side)
        compiled = root / ".venv-compiled" / "bin" / "python"
        if compiled.exists() and not args.no_compiled:
            workers[side + "_c"] = worker(root, compiled, side + "_c")
    print(f"load average at start: {os.getloadavg()}", flush=True)
    try:
        if args.only in (None, "blackjack"):
            blackjack(args, workers)
        if args.only in (None, "overhead"):
            overhead(args, workers)
    finally:
        for w in workers.values():
            w.close()
    print(f"load average at end: {os.getloadavg()}", flush=True)
    return 0


def blackjack(args: argparse.Namespace, workers: dict[str, H.Worker]) -> None:
    theirs = H.Worker(peers.ensure(), "peers")
    cs = [
        H.on_worker(
            theirs, "openspiel", "peer_workloads:openspiel_blackjack", {}, seconds=args.seconds
        )
    ]
    for label, w in workers.items():
        for fn in ("blackjack_bare", "blackjack_match"):
            cs.append(H.on_worker(w, f"{label}:{fn}", f"workloads:{fn}", {}, seconds=args.seconds))
    try:
        H.interleave(cs, args.rounds, progress=lambda m: print("  " + m[:200], flush=True))
    finally:
        theirs.close()
    by = {c.name: c for c in cs}
    osw, osc = by["openspiel"].median_rate(), cpu_rate(by["openspiel"])
    print(f"\nOpenSpiel blackjack: {osw:,.0f} hands/s wall, {osc:,.0f} per CPU-s")
    print(f"{'contender':32} {'hands/s':>9} {'/CPU-s':>9} {'xOS wall':>9} {'xOS CPU':>8}")
    for c in cs[1:]:
        rate, cp = c.median_rate(), cpu_rate(c)
        print(f"{c.name:32} {rate:9,.0f} {cp:9,.0f} {rate / osw:9.2f} {cp / osc:8.2f}")
    print("\nnew / base (ratio of medians, wall; CPU):")
    for build in ("", "_c"):
        for fn in ("blackjack_bare", "blackjack_match"):
            a, b = by.get(f"new{build}:{fn}"), by.get(f"base{build}:{fn}")
            if a and b:
                print(
                    f"  {fn}{' compiled' if build else ''}: "
                    f"{a.median_rate() / b.median_rate():.3f}; {cpu_rate(a) / cpu_rate(b):.3f}"
                )


def _progress(title: str, message: str) -> None:
    print(f"  {title} {message[:200]}", flush=True)


def overhead(args: argparse.Namespace, workers: dict[str, H.Worker]) -> None:
    rows = []
    for title in args.titles.split(","):
        kw = {"title": title, "players": 2}
        sides = [s for s in workers if not s.endswith("_c")]
        sides += [s for s in workers if s.endswith("_c")]
        sample = workers["new"].call("workloads:bare_random", kw, seconds=min(0.5, args.batch))
        games = max(3, int(args.batch * sample.extra["iterations"] / sample.wall))
        cs = []
        for s in sides:
            for fn in ("bare_random", "match_random"):
                cs.append(H.on_worker(workers[s], f"{s}:{fn}", f"workloads:{fn}", kw, count=games))
        H.interleave(cs, args.rounds, progress=functools.partial(_progress, title))
        by = {c.name: c for c in cs}
        for s in sides:
            bare, match = by[f"{s}:bare_random"], by[f"{s}:match_random"]
            wall = match.median_wall() / bare.median_wall()
            cpu = statistics.median(x.cpu for x in match.samples) / statistics.median(
                x.cpu for x in bare.samples
            )
            rows.append((title, s, games, bare.median_rate(), match.median_rate(), wall, cpu))
    print(
        f"\n{'title':12} {'side':7} {'games':>5} {'bare act/s':>10} {'Match act/s':>11} {'wall x':>7} {'CPU x':>6}  goal <= 1.15x"
    )
    for title, s, games, b, m, wall, cpu in rows:
        print(f"{title:12} {s:7} {games:5} {b:10,.0f} {m:11,.0f} {wall:7.3f} {cpu:6.3f}")


if __name__ == "__main__":
    sys.exit(main())
