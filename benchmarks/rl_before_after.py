"""The RL adapter's speed before and after a change, measured interleaved in one run.

    python benchmarks/rl_before_after.py --before /path/to/other/checkout [--rounds 5]

``--before`` is another checkout of the project with its own ``.venv`` (the ``rl``
extra installed): its Python runs the same workloads (this folder's
``rl_workloads.py``) on that checkout's core, adapter and titles, while this
checkout's Python runs them on this one. Every contender is measured in turn, the
order rotating each round, so both sides see the same load. Rates are per CPU second
of the worker (``time.process_time``: the machine may be shared) and per wall
second; ratios are of medians.

Per title: each side's AEC environment against its own bare ``Match`` loop (the
goal: at least 0.5x). Tic-tac-toe: each side's ``env`` against PettingZoo's
``tictactoe_v3`` (in the peers' environment) and each side's OpenSpiel game under
OpenSpiel's MCTS against ``python_tic_tac_toe`` (goal: at least 1.0x).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import harness as H  # noqa: E402
import peers  # noqa: E402


def cpu_rate(c: H.Contender) -> float:
    return statistics.median(s.units / s.cpu for s in c.samples if s.cpu > 0)


def wall_rate(c: H.Contender) -> float:
    return c.median_rate()


def measure(
    sides: dict[str, H.Worker], title: str, rounds: int, seconds: float
) -> dict[str, dict[str, float]]:
    """Each side's bare Match loop and AEC environment on ``title``, interleaved."""
    kw = {"title": title, "players": 2}
    contenders = []
    for label, worker in sides.items():
        for name, fn in (("match", "match_loop"), ("aec", "aec_loop")):
            contenders.append(
                H.on_worker(worker, f"{label} {name}", "rl_workloads:" + fn, kw, seconds=seconds)
            )
    H.interleave(contenders, rounds)
    out: dict[str, dict[str, float]] = {}
    for label in sides:
        bare = next(c for c in contenders if c.name == f"{label} match")
        env = next(c for c in contenders if c.name == f"{label} aec")
        out[label] = {
            "match_cpu": cpu_rate(bare),
            "aec_cpu": cpu_rate(env),
            "ratio_cpu": cpu_rate(env) / cpu_rate(bare),
            "ratio_wall": wall_rate(env) / wall_rate(bare),
        }
    return out


def peers_pair(
    sides: dict[str, H.Worker],
    theirs: tuple[H.Worker, str],
    ours_fn: str,
    rounds: int,
    seconds: float,
) -> dict[str, float]:
    """Each side's workload ``ours_fn`` against the peer's, interleaved."""
    worker, fn = theirs
    peer = H.on_worker(worker, "peer", fn, {}, seconds=seconds)
    mine = {
        label: H.on_worker(w, label, ours_fn, {}, seconds=seconds) for label, w in sides.items()
    }
    H.interleave([peer, *mine.values()], rounds)
    out = {}
    for label, c in mine.items():
        out[f"{label}_cpu"] = cpu_rate(c) / cpu_rate(peer)
        out[f"{label}_wall"] = wall_rate(c) / wall_rate(peer)
    out["peer_cpu_rate"] = cpu_rate(peer)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("titles", nargs="*")
    args = parser.parse_args(argv)
    sides = {
        "before": H.Worker(args.before / ".venv" / "bin" / "python", "before"),
        "after": H.Worker(H.PROJECT_PYTHON, "after"),
    }
    peer = H.Worker(peers.ensure(), "peers")
    try:
        for label, w in sides.items():
            print(f"{label}: {w.info('rl_workloads:origin')}", flush=True)
        print(f"load average at the start: {os.getloadavg()}", flush=True)
        titles = args.titles or sides["after"].info("rl_workloads:titles")
        rows: list[list[str]] = []
        for title in titles:
            r = measure(sides, title, args.rounds, args.seconds)
            b, a = r["before"], r["after"]
            rows.append(
                [
                    title,
                    f"{b['ratio_cpu']:.2f}x ({b['ratio_wall']:.2f}x)",
                    f"{a['ratio_cpu']:.2f}x ({a['ratio_wall']:.2f}x)",
                    f"{a['aec_cpu'] / b['aec_cpu']:.2f}x",
                    "yes" if a["ratio_cpu"] >= 0.5 else "no",
                ]
            )
            print(" | ".join(rows[-1]), flush=True)
        print()
        print(
            H.md_table(
                [
                    "title (2 seats)",
                    "before: env / Match, CPU (wall)",
                    "after: env / Match, CPU (wall)",
                    "env after / before",
                    ">= 0.5x",
                ],
                rows,
            )
        )
        pz = peers_pair(
            sides,
            (peer, "rl_peer_workloads:pz_tictactoe_v3"),
            "rl_workloads:gw_tictactoe_aec",
            args.rounds,
            args.seconds,
        )
        osp = peers_pair(
            sides,
            (sides["after"], "rl_workloads:os_python_tic_tac_toe"),
            "rl_workloads:os_gameweave_tic_tac_toe",
            args.rounds,
            args.seconds,
        )
        print()
        print(
            H.md_table(
                ["tic-tac-toe against", "before, CPU (wall)", "after, CPU (wall)", "goal"],
                [
                    [
                        "PettingZoo tictactoe_v3",
                        f"{pz['before_cpu']:.2f}x ({pz['before_wall']:.2f}x)",
                        f"{pz['after_cpu']:.2f}x ({pz['after_wall']:.2f}x)",
                        ">= 1.0x",
                    ],
                    [
                        "OpenSpiel python_tic_tac_toe (MCTS)",
                        f"{osp['before_cpu']:.2f}x ({osp['before_wall']:.2f}x)",
                        f"{osp['after_cpu']:.2f}x ({osp['after_wall']:.2f}x)",
                        ">= 1.0x",
                    ],
                ],
            )
        )
        print(f"\nload average at the end: {os.getloadavg()}")
    finally:
        for w in (*sides.values(), peer):
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
