"""``gameweave simulate --cluster``: a Dask cluster against ``--jobs`` (``run.py cluster``)."""

from __future__ import annotations

import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

import harness as H
from common import BIN, PY, Goal, Section, Settings, run_cmd, say, spread


def bench_cluster(s: Settings, ctx: dict[str, Any]) -> Section:
    """simulate on a LocalCluster of 2 workers against 2 processes; the scheduler's cost."""
    sec = Section("cluster", "3c. `gameweave simulate --cluster`: a Dask cluster against --jobs")
    try:
        import distributed  # noqa: F401
    except ImportError:
        sec.error = "Dask is not installed (pip install 'gameweave[dask]')"
        return sec
    title = "museum"
    rate = ctx.get("game_rates", {}).get(f"{title}/{ctx['defaults'][title]}")
    if not rate:
        probe = ctx["ours"].call(
            "workloads:whole_games", {"title": title, "players": 2, "bot": None}, seconds=0.5
        )
        rate = probe.rate
    games = max(100, int(rate * s.simulate_target))
    batch = min(50, -(-games // 64))  # simulate's batch size for this run (window 4)

    # 1. Between start-up and shut-down: each round starts the pool or the cluster, times
    # the games alone, and stops it. Each in a benchmark worker of its own: a pool forked
    # from a process that has imported Dask would carry Dask's objects into its workers.
    workers = {how: H.Worker(PY, f"cluster bench ({how})") for how in ("pool", "cluster")}
    try:

        def on(how: str) -> H.Sample:
            kwargs = {"title": title, "how": how, "games": games}
            return workers[how].call("workloads:simulate_on", kwargs, count=1)

        pool = H.Contender("2 processes", lambda: on("pool"))
        dask = H.Contender("LocalCluster of 2", lambda: on("cluster"))
        H.interleave(
            [pool, dask], s.simulate_rounds, warmup=False, progress=lambda m: say("cluster " + m)
        )
    finally:
        for worker in workers.values():
            worker.close()
    pairs = list(zip(pool.samples, dask.samples, strict=True))
    if any(p.extra["json"] != d.extra["json"] for p, d in pairs):
        raise RuntimeError(f"simulate {title}: the pool and the cluster disagree")
    pool_rates = [games / p.extra["games_wall"] for p, _ in pairs]
    dask_rates = [games / d.extra["games_wall"] for _, d in pairs]
    ratio = statistics.median(dask_rates) / statistics.median(pool_rates)
    # The client's process hosts a LocalCluster's scheduler (and the workers'
    # nannies): its CPU beyond the pool's client is the scheduler's cost.
    per_game = [(d.extra["games_cpu"] - p.extra["games_cpu"]) / games for p, d in pairs]
    client_cpu = [d.extra["games_cpu"] / games for _, d in pairs]

    # 2. The whole command, start-up and shut-down included, and with 2 games.
    gw = str(BIN / "gameweave")
    work = Path(tempfile.mkdtemp(prefix="gameweave-bench-cluster-"))

    def cmd(n: int, how: list[str]) -> list[str]:
        return [gw, "simulate", title, "--games", str(n), "--seed", "1", "--json", *how]

    jobs = ["--jobs", "2"]
    local = ["--cluster", "local:2"]
    small = 2
    commands = [
        H.Contender("--jobs 2", lambda: run_cmd(cmd(games, jobs), 900, work)),
        H.Contender("--cluster local:2", lambda: run_cmd(cmd(games, local), 900, work)),
        H.Contender("--jobs 2, 2 games", lambda: run_cmd(cmd(small, jobs), 300, work)),
        H.Contender("--cluster local:2, 2 games", lambda: run_cmd(cmd(small, local), 300, work)),
    ]
    try:
        H.interleave(
            commands, s.simulate_rounds, warmup=False, progress=lambda m: say("cluster " + m)
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cj, cc, sj, sc = commands
    rounds = list(zip(cj.samples, cc.samples, sj.samples, sc.samples, strict=True))
    for a, b, c, d in rounds:
        if a.extra["stdout"] != b.extra["stdout"] or c.extra["stdout"] != d.extra["stdout"]:
            raise RuntimeError(f"simulate {title}: --jobs 2 and --cluster local:2 disagree")
    whole = cj.median_wall() / cc.median_wall()
    startup = [d.wall - c.wall for _, _, c, d in rounds]

    sec.body.append(
        H.md_table(
            [
                "Title",
                "games",
                "measured",
                "2 processes (--jobs 2)",
                "LocalCluster of 2",
                "cluster / jobs",
                "per-round range",
            ],
            [
                [
                    title,
                    f"{games:,}",
                    "games/s between start-up and shut-down",
                    f"{statistics.median(pool_rates):,.1f}",
                    f"{statistics.median(dask_rates):,.1f}",
                    H.fmt_ratio(ratio),
                    spread([d / p for p, d in zip(pool_rates, dask_rates, strict=True)]),
                ],
                [
                    title,
                    f"{games:,}",
                    "games/s of the whole command",
                    f"{games / cj.median_wall():,.1f}",
                    f"{games / cc.median_wall():,.1f}",
                    H.fmt_ratio(whole),
                    spread(H.paired_ratios(cj, cc, by="wall")),
                ],
            ],
        )
    )
    sec.body.append("")
    sec.body.append(
        H.md_table(
            ["What the cluster costs", "median", "per-round range"],
            [
                [
                    "start-up and shut-down of `--cluster local:2`, beyond `--jobs 2`'s",
                    f"{statistics.median(startup):.2f} s",
                    spread(startup, lambda x: f"{x:.2f} s"),
                ],
                [
                    "CPU per game of the process of the scheduler and client",
                    f"{1000 * statistics.median(client_cpu):.3f} ms",
                    spread(client_cpu, lambda x: f"{1000 * x:.3f} ms"),
                ],
                [
                    f"the same beyond the pool's client: the scheduler's ({batch} games a task)",
                    f"{1000 * statistics.median(per_game):.3f} ms",
                    spread(per_game, lambda x: f"{1000 * x:.3f} ms"),
                ],
                [
                    "the same per task",
                    f"{1000 * batch * statistics.median(per_game):.2f} ms",
                    spread(per_game, lambda x: f"{1000 * batch * x:.2f} ms"),
                ],
            ],
        )
    )
    sec.body.append("")
    sec.body.append(
        f"The same {games:,} games of {title} (`--seed 1`, default bots) through "
        "`simulate`. First with a pool of two forked processes (as `--jobs 2`) and a Dask "
        "`LocalCluster` of two one-thread worker processes (as `--cluster local:2`), "
        "interleaved, each started for its round and timed from the first game sent to the "
        "last result in: this is the cluster's rate. "
        "Then the whole command, `gameweave simulate "
        f"{title} --games N --seed 1 --json` with `--jobs 2` or `--cluster local:2`, and "
        "the same with 2 games, whose difference is the cluster's start-up and shut-down "
        "(a scheduler, and two worker processes importing Dask and the title). The "
        "scheduler's cost is the CPU time of the process that hosts it and the client, "
        "beyond that of the pool's client, over the games. Every run must report the same "
        "results, byte for byte."
    )
    sec.goals.append(
        Goal(
            "cluster",
            f"{title}: a LocalCluster of 2 >= 0.9x the games/s of 2 processes",
            f"{ratio:.2f}x",
            ratio >= 0.9,
        )
    )
    sec.raw[title] = {
        "games": games,
        "batch": batch,
        **{
            c.name: {"wall": c.walls, "cpu": [x.cpu for x in c.samples]}
            for c in [pool, dask, *commands]
        },
        "games_wall": {
            "pool": [games / r for r in pool_rates],
            "cluster": [games / r for r in dask_rates],
        },
        "games_cpu": {c.name: [x.extra["games_cpu"] for x in c.samples] for c in (pool, dask)},
    }
    return sec


bench = bench_cluster
