"""Instructions per action, counted by valgrind: a noise-free before/after for small steps.

Wall-clock and CPU time on these machines move by 10-15% between rounds, so a change
worth 2-3% of an action cannot be seen in ``run.py overhead``. The number of machine
instructions a workload executes does not move: the same games, seeded, execute the same
instructions on every run, busy machine or quiet. This counts them with valgrind's
cachegrind (``--cache-sim=no``: counting only) for a pair of workloads, the bare rules
and ``Match``, and reports instructions per unit and their ratio: the overhead
section's random games (per action, every title) or the blackjack section's hands of
The House Job (per hand, its policy choosing from ``Match.observe`` and acting with
``Match.submit``, the path the "through ``Match``" goal measures).

Instructions are not time (a cache miss costs more than an add), so the goals stay in
``run.py``; this ranks the steps that lead there. Usage::

    python benchmarks/instructions.py                        # this checkout, every title
    python benchmarks/instructions.py --titles house --games 300
    python benchmarks/instructions.py --tree /path/to/other/checkout   # side by side
    python benchmarks/instructions.py --pair blackjack --warm 3000 --games 2000
    .venv-compiled/bin/python benchmarks/instructions.py --titles house --warm 3000

``--tree`` counts another checkout's ``gameweave_core`` and titles (put first on
``PYTHONPATH``, so their source: pure Python) next to this one's, in the same run.
Run by ``.venv-compiled``'s Python, the count is of the compiled build.

``--warm N`` plays N games before the counted ones, in the counted run and in the
run it is subtracted from alike, so the count is of a process that has played for a
while. It matters for The House Job: its rules share equal history lines and actions
through caches that fill over the first thousands of games, and a short count
includes the filling (its compiled bare hand: 97,700 instructions over 2,000 games
after one, 93,500 after 3,000), which both workloads pay alike and so pulls their
ratio toward 1.
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
#: Each pair of workloads (bare rules, ``Match``), and what one unit of it is.
PAIRS = {
    "overhead": (("bare_random", "match_random"), "action"),
    "blackjack": (("blackjack_bare", "blackjack_match"), "hand"),
}
#: The first game of a warm-up (far from the counted games' seeds 0, 1, 2...).
WARM_SEED = 10_000


def child(fn: str, title: str, warm: int, games: int) -> None:
    """Play ``warm`` games of workload ``fn`` (at least one: imports and first-call
    caches), then ``games`` more; print the units of the latter."""
    sys.path.insert(0, str(HERE))
    import workloads

    make = getattr(workloads, fn)
    # The blackjack workloads play The House Job only, two seats by default.
    step = make(title=title, players=2) if fn in PAIRS["overhead"][0] else make()
    for i in range(max(warm, 1)):
        step(WARM_SEED + i)
    print(sum(step(i) for i in range(games)))


def _source_path(tree: Path) -> str:
    """PYTHONPATH that puts ``tree``'s core and titles ahead of the installed ones."""
    dirs = [tree, tree / "adapters", tree / "gameweave_museum", tree / "gameweave_house"]
    dirs += sorted(p.parent for p in tree.glob("titles/*/pyproject.toml"))
    return os.pathsep.join(str(d) for d in dirs)


def count(fn: str, title: str, warm: int, games: int, tree: Path | None) -> tuple[int, int]:
    """(instructions, units) of one child run under cachegrind."""
    # One hash seed for every run: with Python's random one, the layout of dicts and
    # sets, and so the count, moves by a few hundred instructions a hand.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
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
        str(warm),
        str(games),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def per_unit(fn: str, title: str, warm: int, games: int, tree: Path | None) -> float:
    """Instructions per unit of ``games`` games after ``warm``, less a run of the
    warm-up alone (start-up and warm-up fall out)."""
    start, _ = count(fn, title, warm, 0, tree)
    total, units = count(fn, title, warm, games, tree)
    return (total - start) / units


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--titles", default=None, help="default: every title (blackjack: house)")
    ap.add_argument("--pair", choices=sorted(PAIRS), default="overhead")
    ap.add_argument("--games", type=int, default=100, help="counted games")
    ap.add_argument("--warm", type=int, default=1, help="games played before the counted ones")
    ap.add_argument("--tree", type=Path, help="another checkout to count side by side")
    ap.add_argument(
        "--child", nargs=4, metavar=("FN", "TITLE", "WARM", "GAMES"), help=argparse.SUPPRESS
    )
    args = ap.parse_args()
    if args.child:
        fn, title, warm, games = args.child
        child(fn, title, int(warm), int(games))
        return
    workloads, unit = PAIRS[args.pair]
    titles = args.titles or ("house" if args.pair == "blackjack" else ",".join(TITLES))
    if args.pair == "blackjack" and titles != "house":
        ap.error("the blackjack workloads play The House Job only (--titles house)")
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed (apt-get install valgrind)")
    trees: list[tuple[str, Path | None]] = [("this checkout", None)]
    if args.tree:
        trees.insert(0, (str(args.tree), args.tree.resolve()))
    jobs = [(t, label, tree) for t in titles.split(",") for label, tree in trees]
    # Counts do not depend on the load, so the runs may share the machine's cores.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {
            (t, label, fn): pool.submit(per_unit, fn, t, args.warm, args.games, tree)
            for t, label, tree in jobs
            for fn in workloads
        }
        print(f"{args.pair}: {args.games} games counted after {args.warm} ({sys.executable})")
        print(f"| title | tree | bare rules, instr./{unit} | Match, instr./{unit} | Match / bare |")
        print("|---|---|---|---|---|")
        for t, label, _ in jobs:
            bare, match = (futures[t, label, fn].result() for fn in workloads)
            print(f"| {t} | {label} | {bare:,.0f} | {match:,.0f} | {match / bare:.3f} |")


if __name__ == "__main__":
    main()
