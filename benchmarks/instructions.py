"""Instructions per action, counted by valgrind: a noise-free before/after for small steps.

Wall-clock and CPU time on these machines move by 10-15% between rounds, so a change
worth 2-3% of an action cannot be seen in ``run.py overhead``. The number of machine
instructions a workload executes does not move: the same games, seeded, execute the same
instructions on every run, busy machine or quiet. This counts them with valgrind's
cachegrind (``--cache-sim=no``: counting only) for the overhead section's two workloads,
the bare rules and ``Match``, and reports instructions per action and their ratio.

Instructions are not time (a cache miss costs more than an add), so the goals stay in
``run.py``; this ranks the steps that lead there. Usage::

    python benchmarks/instructions.py                        # this checkout, every title
    python benchmarks/instructions.py --titles house --games 300
    python benchmarks/instructions.py --tree /path/to/other/checkout   # side by side

``--tree`` counts another checkout's ``gameweave_core`` and titles (put first on
``PYTHONPATH``) next to this one's, in the same run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TITLES = ("museum", "house", "museumheist", "masterthief", "museumrush")
WORKLOADS = ("bare_random", "match_random")


def child(fn: str, title: str, games: int) -> None:
    """Play ``games`` games of workload ``fn`` (after one untimed game that loads and
    warms everything); print the actions played."""
    sys.path.insert(0, str(HERE))
    import workloads

    step = getattr(workloads, fn)(title=title, players=2)
    step(10_000)  # a game outside the counted ones: imports and first-call caches
    print(sum(step(i) for i in range(games)))


def _source_path(tree: Path) -> str:
    """PYTHONPATH that puts ``tree``'s core and titles ahead of the installed ones."""
    dirs = [tree, tree / "adapters", tree / "gameweave_museum", tree / "gameweave_house"]
    dirs += sorted(p.parent for p in tree.glob("titles/*/pyproject.toml"))
    return os.pathsep.join(str(d) for d in dirs)


def count(fn: str, title: str, games: int, tree: Path | None) -> tuple[int, int]:
    """(instructions, actions) of one child run under cachegrind."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = _source_path(tree)
    cmd = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        fn,
        title,
        str(games),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def per_action(fn: str, title: str, games: int, tree: Path | None) -> float:
    """Instructions per action of ``games`` games, less a run of none (start-up)."""
    start, _ = count(fn, title, 0, tree)
    total, actions = count(fn, title, games, tree)
    return (total - start) / actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default=",".join(TITLES))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--tree", type=Path, help="another checkout to count side by side")
    ap.add_argument("--child", nargs=3, metavar=("FN", "TITLE", "GAMES"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        fn, title, games = args.child
        child(fn, title, int(games))
        return
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed (apt-get install valgrind)")
    trees: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.tree:
        trees.insert(0, (str(args.tree), args.tree.resolve()))
    jobs = [(t, label, tree) for t in args.titles.split(",") for label, tree in trees]
    # Counts do not depend on the load, so the runs may share the machine's cores.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {
            (t, label, fn): pool.submit(per_action, fn, t, args.games, tree)
            for t, label, tree in jobs
            for fn in WORKLOADS
        }
        print("| title | tree | bare rules, instr./action | Match, instr./action | Match / bare |")
        print("|---|---|---|---|---|")
        for t, label, _ in jobs:
            bare, match = (futures[t, label, fn].result() for fn in WORKLOADS)
            print(f"| {t} | {label} | {bare:,.0f} | {match:,.0f} | {match / bare:.3f} |")


if __name__ == "__main__":
    main()
