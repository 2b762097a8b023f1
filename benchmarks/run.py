"""Run Gameweave's benchmarks side by side with the peers and write the table.

    python benchmarks/run.py                 # everything; writes benchmarks/results.md
    python benchmarks/run.py --quick         # fewer, shorter rounds (a smoke run)
    python benchmarks/run.py blackjack server  # only these (see --list)

Every figure is a median over interleaved rounds; every comparison is a ratio of
medians measured in the same run. A full run writes ``benchmarks/results.md`` (the
docs include it); a quick or partial run writes only under ``benchmarks/results/``
(raw JSON and markdown, not committed) unless ``--write`` is given.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness as H
import peers

HERE = H.HERE
ROOT = H.ROOT
PY = str(H.PROJECT_PYTHON)
BIN = Path(PY).parent
#: The mypyc-compiled install of the project (``make compiled``), if built.
COMPILED_PYTHON = ROOT / ".venv-compiled" / "bin" / "python"


@attrs.frozen
class Settings:
    quick: bool
    rounds: int
    seconds: float  # one timed batch of a rate benchmark
    overhead_batch: float  # target seconds of one fixed-work overhead batch
    simulate_target: float  # seconds of one `simulate --jobs 1` run
    simulate_rounds: int
    server_rounds: int
    server_seconds: float
    memory_games: int
    memory_matches: int

    @classmethod
    def make(cls, quick: bool, rounds: int | None) -> Settings:
        if quick:
            return cls(True, rounds or 3, 0.3, 0.25, 2.0, 1, rounds or 2, 1.0, 1000, 100)
        # simulate: about 20 s at --jobs 1, so that the command's own start-up (about
        # 0.3 s, paid once by either) does not pass for a cost of the second process.
        return cls(False, rounds or 9, 1.0, 0.6, 20.0, 3, rounds or 5, 3.0, 10_000, 1000)


@attrs.define
class Goal:
    benchmark: str
    goal: str
    measured: str
    met: bool | None  # None: not measured


@attrs.define
class Section:
    key: str
    title: str
    body: list[str] = attrs.field(factory=list)
    goals: list[Goal] = attrs.field(factory=list)
    raw: dict[str, Any] = attrs.field(factory=dict)
    error: str | None = None


def say(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def spread(values: list[float], fmt: Callable[[float], str] = H.fmt_ratio) -> str:
    return f"{fmt(min(values))} – {fmt(max(values))}"


#: How the peers are named in the tables.
PEER = {"openspiel": "OpenSpiel", "rlcard": "RLCard"}

# -- 1. blackjack ------------------------------------------------------------------------


def bench_blackjack(s: Settings, ctx: dict[str, Any]) -> Section:
    """House Job hands/s against OpenSpiel and RLCard blackjack."""
    sec = Section("blackjack", "1. Blackjack: hands per second against OpenSpiel and RLCard")
    peer_py = peers.ensure()
    ours, fast = ctx["ours"], ctx["compiled"]
    theirs = H.Worker(peer_py, "peers")
    try:
        versions = theirs.info("peer_workloads:versions")
        check = theirs.info("peer_workloads:check_openspiel")
        if check["players"] != 1 or not check["initial_is_chance"]:
            raise RuntimeError(f"OpenSpiel's blackjack is not the game expected: {check}")
        ours_check = ours.info("workloads:blackjack_check", {"games": 50})
        say(f"blackjack: hand count checked on {ours_check}")
        if fast is not None:
            fast_check = fast.info("workloads:blackjack_check", {"games": 50})
            if fast_check != ours_check:
                raise RuntimeError(
                    f"the compiled build played other hands: {fast_check} vs {ours_check}"
                )
        cs = [
            H.on_worker(ours, "house_bare", "workloads:blackjack_bare", {}, seconds=s.seconds),
            H.on_worker(
                theirs, "openspiel", "peer_workloads:openspiel_blackjack", {}, seconds=s.seconds
            ),
            H.on_worker(ours, "house_match", "workloads:blackjack_match", {}, seconds=s.seconds),
            H.on_worker(theirs, "rlcard", "peer_workloads:rlcard_blackjack", {}, seconds=s.seconds),
        ]
        if fast is not None:
            cs += [
                H.on_worker(
                    fast, "house_bare_c", "workloads:blackjack_bare", {}, seconds=s.seconds
                ),
                H.on_worker(
                    fast, "house_match_c", "workloads:blackjack_match", {}, seconds=s.seconds
                ),
            ]
        H.interleave(cs, s.rounds, progress=lambda m: say("blackjack " + m))
    finally:
        theirs.close()
    by = {c.name: c for c in cs}
    names = {
        "house_bare_c": "The House Job, compiled build, bare rules",
        "house_match_c": "The House Job, compiled build, through `Match`",
        "house_bare": "The House Job, pure Python, bare rules",
        "house_match": "The House Job, pure Python, through `Match`",
        "openspiel": f"OpenSpiel `blackjack` (open-spiel {versions['open-spiel']})",
        "rlcard": f"RLCard `blackjack`, `env.run` (rlcard {versions['rlcard']})",
    }
    ours_keys = [
        k for k in ("house_bare_c", "house_match_c", "house_bare", "house_match") if k in by
    ]

    def cpu_rate(c: H.Contender) -> float:
        # Hands per CPU-second of the worker: less disturbed by other processes.
        return statistics.median(x.units / x.cpu for x in c.samples if x.cpu > 0)

    rows = []
    for key in (*ours_keys, "openspiel", "rlcard"):
        c = by[key]
        rows.append(
            [
                names[key],
                H.fmt_rate(c.median_rate()),
                spread(c.rates, H.fmt_rate),
                H.fmt_rate(cpu_rate(c)),
            ]
        )
    sec.body.append(
        H.md_table(
            ["Engine", "hands/s (median)", "range over rounds", "hands per CPU-second"], rows
        )
    )
    ratio_rows = []
    raw_ratios = {}
    # The goal is judged on the engine at its fastest: the compiled build's bare rules
    # when it is built, else the pure-Python rules. Every other ratio is shown too.
    judged = "house_bare_c" if "house_bare_c" in by else "house_bare"
    for a in ours_keys:
        for b, goal in (("openspiel", 1.0), ("rlcard", 2.5)):
            r = by[a].median_rate() / by[b].median_rate()
            rc = cpu_rate(by[a]) / cpu_rate(by[b])
            pr = H.paired_ratios(by[a], by[b])
            raw_ratios[f"{a}/{b}"] = r
            raw_ratios[f"{a}/{b} cpu"] = rc
            ratio_rows.append(
                [
                    f"{names[a].removeprefix('The House Job, ')} / {PEER[b]}",
                    H.fmt_ratio(r),
                    spread(pr),
                    H.fmt_ratio(rc),
                    f">= {goal:.1f}x",
                ]
            )
    for b, goal in (("openspiel", 1.0), ("rlcard", 2.5)):
        r, rc = raw_ratios[f"{judged}/{b}"], raw_ratios[f"{judged}/{b} cpu"]
        others = "; ".join(
            f"{raw_ratios[f'{k}/{b}']:.2f}x {names[k].removeprefix('The House Job, ')}"
            for k in ours_keys
            if k != judged
        )
        # Met only if both the wall-clock and the CPU-time ratios reach the goal.
        sec.goals.append(
            Goal(
                "Blackjack",
                f">= {goal:.1f}x {PEER[b]} (hands/s)",
                f"{r:.2f}x wall, {rc:.2f}x CPU ({names[judged].removeprefix('The House Job, ')}); "
                + others,
                min(r, rc) >= goal,
            )
        )
    sec.body.append("")
    sec.body.append(
        H.md_table(["Ratio", "median (wall)", "per-round range", "CPU time", "goal"], ratio_rows)
    )
    sec.body.append("")
    build = (
        "The compiled build is the same source compiled by mypyc (`make compiled`, "
        f"modules {', '.join(f'`{m}`' for m in ctx['compiled_modules'])}); it played the "
        "same 50 checked jobs hand for hand before timing. "
        if fast is not None
        else "The compiled build was not built (`make compiled`); only pure Python ran. "
    )
    sec.body.append(
        f"Two seats, minimum bets (one 10-chip push, then *Deal me in*), no ability card, "
        f"Mark or Heavy; other choices uniformly random among hit, stand, double, split "
        f"and Cold Feet. A hand is a settled box: {ours_check['hands']} hands in "
        f"{ours_check['games']} jobs were checked against the boxes on the table at each "
        f"settlement. {build}OpenSpiel: one playout per hand, random legal actions, chance "
        "outcomes sampled in Python from `chance_outcomes()`. RLCard: one `env.run` per hand "
        f"with `RandomAgent`. Peers run in `benchmarks/.venv-peers` (numpy {versions['numpy']})."
    )
    if raw_ratios[f"{judged}/openspiel"] < 1.0 or raw_ratios[f"{judged}/rlcard"] < 2.5:
        prof = ours.info(
            "workloads:profile_split", {"fn": "blackjack_bare", "kwargs": {}, "games": 300}
        )
        sec.body += profile_md(
            prof, "Where the time goes in The House Job's bare rules (pure Python, 300 jobs)"
        )
        sec.raw["profile_bare"] = prof
    sec.raw.update(
        {
            "versions": versions,
            "check": ours_check,
            "rates": {c.name: c.rates for c in cs},
            "ratios": raw_ratios,
        }
    )
    return sec


# -- 2. framework overhead ------------------------------------------------------------------


def calibrate_count(worker: H.Worker, fn: str, kwargs: dict[str, Any], target: float) -> int:
    sample = worker.call(fn, kwargs, seconds=min(0.5, target))
    per_step = sample.wall / max(1, sample.extra.get("iterations", 1))
    return max(3, int(target / per_step))


def bench_overhead(s: Settings, ctx: dict[str, Any]) -> Section:
    """The same random games through Match and through the bare rules."""
    sec = Section("overhead", "2. Framework overhead: `Match` against the bare rules")
    rows = []
    # Each title in the default (pure Python) install, and the House Job once more in
    # the compiled build when there is one: there the rules are faster, so the same
    # Match costs a larger share.
    variants = [(title, title, ctx["ours"]) for title in ctx["titles"]]
    if ctx["compiled"] is not None:
        variants.append(("house, compiled build", "house", ctx["compiled"]))
    for label, title, ours in variants:
        kw = {"title": title, "players": 2}
        same = ours.info("workloads:same_games", {**kw, "games": 20})
        games = calibrate_count(ours, "workloads:bare_random", kw, s.overhead_batch)
        cs = [
            H.on_worker(ours, "bare", "workloads:bare_random", kw, count=games),
            H.on_worker(ours, "match", "workloads:match_random", kw, count=games),
        ]
        H.interleave(cs, s.rounds, progress=lambda m, t=label: say(f"overhead {t} " + m))
        bare, match = cs
        ratio = match.median_wall() / bare.median_wall()
        pr = H.paired_ratios(match, bare, by="wall")
        # CPU time of the worker, for the same batches: less disturbed by other processes.
        cpu_ratio = statistics.median(x.cpu for x in match.samples) / statistics.median(
            x.cpu for x in bare.samples
        )
        actions = bare.samples[0].units
        rows.append(
            [
                label,
                f"{games} games, {actions:,.0f} actions",
                H.fmt_rate(bare.median_rate()),
                H.fmt_rate(match.median_rate()),
                H.fmt_ratio(ratio),
                spread(pr),
                H.fmt_ratio(cpu_ratio),
            ]
        )
        # Met only if both the wall-clock and the CPU-time ratios are within the goal.
        worst = max(ratio, cpu_ratio)
        sec.goals.append(
            Goal(
                "Overhead",
                f"{label}: Match <= 1.3x bare rules",
                f"{ratio:.2f}x wall, {cpu_ratio:.2f}x CPU",
                worst <= 1.3,
            )
        )
        entry: dict[str, Any] = {
            "games": games,
            "checked": same,
            "ratio": ratio,
            "cpu_ratio": cpu_ratio,
            "bare_rates": bare.rates,
            "match_rates": match.rates,
        }
        if worst > 1.3 or ctx["profile_always"]:
            entry["profile_match"] = ours.info(
                "workloads:profile_split", {"fn": "match_random", "kwargs": kw, "games": games}
            )
            entry["profile_bare"] = ours.info(
                "workloads:profile_split", {"fn": "bare_random", "kwargs": kw, "games": games}
            )
        sec.raw[label] = entry
    sec.body.append(
        H.md_table(
            [
                "Title",
                "batch (same games both ways)",
                "bare actions/s",
                "Match actions/s",
                "Match / bare time",
                "per-round range",
                "Match / bare CPU time",
            ],
            rows,
        )
    )
    sec.body.append("")
    sec.body.append(
        "Random games (two seats, the core's random bot) played once through the title's "
        "own `setup`/`awaiting`/`legal_actions`/`apply` and once through `Match` with the "
        "core's bot runner (seat and legality checks, action log, events, observations). "
        "Before timing, 20 games per title are replayed both ways and must end in the same "
        "state digest after the same number of actions."
    )
    for label, _, _ in variants:
        prof = sec.raw[label].get("profile_match")
        if not prof:
            continue
        sec.body += profile_md(prof, f"Where the time goes through `Match` ({label})")
    return sec


def profile_md(prof: dict[str, Any], caption: str) -> list[str]:
    """A profile from ``workloads.profile_split`` as two small markdown tables."""
    return [
        "",
        f"{caption}, by cProfile: share of profiled time by area (profiling inflates "
        "call-heavy code), then the functions with the most time of their own:",
        "",
        H.md_table(
            ["Area", "share"], [[k, f"{v:.0%}"] for k, v in prof["areas"].items() if v >= 0.01]
        ),
        "",
        H.md_table(
            ["Function (own time)", "share", "calls", "with callees"],
            [
                [
                    f"`{f['function']}`",
                    f"{f['share']:.0%}",
                    f"{f['calls']:,}",
                    f"{f['cumulative_share']:.0%}",
                ]
                for f in prof["top"][:8]
            ],
        ),
    ]


# -- 3. whole games, replay, simulate --------------------------------------------------------


def bench_games(s: Settings, ctx: dict[str, Any]) -> Section:
    """Whole games per second (random and default bots) and verified replays."""
    sec = Section("games", "3. Whole games, replays and `simulate` on one and two cores")
    ours = ctx["ours"]
    cs = []
    labels = {}
    for title in ctx["titles"]:
        default = ours.info("workloads:default_bot", {"title": title})
        for bot in ("random", default):
            name = f"{title}/{bot}"
            labels[name] = (title, bot if bot == "random" else f"{bot} (default)")
            cs.append(
                H.on_worker(
                    ours,
                    name,
                    "workloads:whole_games",
                    {"title": title, "players": 2, "bot": bot},
                    seconds=s.seconds,
                )
            )
        cs.append(
            H.on_worker(
                ours,
                f"{title}/replay",
                "workloads:replay_verify",
                {"title": title, "players": 2},
                seconds=s.seconds,
            )
        )
    H.interleave(cs, s.rounds, progress=lambda m: say("games " + m))
    rows = []
    replay_rows = []
    rates = {}
    for c in cs:
        rates[c.name] = c.rates
        if c.name.endswith("/replay"):
            replay_rows.append(
                [c.name.split("/")[0], H.fmt_rate(c.median_rate()), spread(c.rates, H.fmt_rate)]
            )
            continue
        title, bot = labels[c.name]
        acts = statistics.median(
            smp.extra.get("actions", 0) / smp.units for smp in c.samples if smp.units
        )
        rows.append(
            [title, bot, H.fmt_rate(c.median_rate()), spread(c.rates, H.fmt_rate), f"{acts:,.0f}"]
        )
    sec.body.append(
        H.md_table(
            ["Title", "bots (every seat)", "games/s, one core (median)", "range", "actions/game"],
            rows,
        )
    )
    sec.body.append("")
    sec.body.append(
        H.md_table(
            [
                "Replay with digest check (`Match.from_log(verify=True)` from TOML text)",
                "actions/s (median)",
                "range",
            ],
            replay_rows,
        )
    )
    sec.raw["rates"] = rates
    ctx["game_rates"] = {c.name: c.median_rate() for c in cs}
    return sec


def run_cmd(cmd: list[str], timeout: float, cwd: Path) -> H.Sample:
    """Run a command; the sample's ``cpu`` is the CPU time of its whole process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=timeout, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({done.returncode}): "
            f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}"
        )
    return H.Sample(1, wall, cpu, {"stdout": done.stdout})


def bench_simulate(s: Settings, ctx: dict[str, Any]) -> Section:
    """Gameweave simulate wall time with 1 and 2 processes."""
    sec = Section("simulate", "3b. `gameweave simulate`: one process against two")
    gw = str(BIN / "gameweave")
    rows = []
    # Failed games leave logs in the working folder: keep them out of the repository.
    work = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    for title in ctx["titles"]:
        try:
            rows.append(simulate_title(s, ctx, gw, title, work, sec))
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            say(f"simulate {title} FAILED: {message}")
            rows.append([title, "failed", message, "", "", "", "", ""])
            sec.goals.append(
                Goal("simulate", f"{title}: 2 processes >= 1.8x 1 process", "failed", None)
            )
    sec.body.append(
        H.md_table(
            [
                "Title",
                "games (default bots)",
                "--jobs 1 (median wall)",
                "--jobs 2",
                "speed-up",
                "per-round range",
                "games/s at --jobs 2",
                "CPU / wall at --jobs 2",
            ],
            rows,
        )
    )
    sec.body.append("")
    sec.body.append(
        "Wall time of the whole command (`gameweave simulate TITLE --games N --jobs J "
        f"--seed 1 --json`), start-up included, interleaved; N is about {s.simulate_target:g} s "
        "of games for one process (from the one-core rate above). Both runs must report the "
        "same results. CPU / wall is the CPU time of the command's processes over its wall "
        "time: how many cores it actually got (2.0 at best)."
    )
    shutil.rmtree(work, ignore_errors=True)
    return sec


def simulate_title(
    s: Settings, ctx: dict[str, Any], gw: str, title: str, work: Path, sec: Section
) -> list[str]:
    """Time `simulate` for one title with 1 and 2 processes; a table row."""
    rate = ctx.get("game_rates", {}).get(f"{title}/{ctx['defaults'][title]}")
    if not rate:
        probe = ctx["ours"].call(
            "workloads:whole_games", {"title": title, "players": 2, "bot": None}, seconds=0.5
        )
        rate = probe.rate
    games = max(50, int(rate * s.simulate_target))

    def cmd(jobs: int, t: str = title, n: int = games) -> list[str]:
        return [
            gw,
            "simulate",
            t,
            "--games",
            str(n),
            "--jobs",
            str(jobs),
            "--seed",
            "1",
            "--json",
        ]

    one = H.Contender("1 process", lambda c=cmd: run_cmd(c(1), 600, work))
    two = H.Contender("2 processes", lambda c=cmd: run_cmd(c(2), 600, work))
    H.interleave(
        [one, two],
        s.simulate_rounds,
        warmup=False,
        progress=lambda m, t=title: say(f"simulate {t} " + m),
    )
    # Both must report the same games (results depend on the seed only).
    a = json.loads(one.samples[-1].extra["stdout"])
    b = json.loads(two.samples[-1].extra["stdout"])
    if a.get("sides") != b.get("sides") or a.get("finished") != games:
        raise RuntimeError(f"simulate {title}: 1 and 2 processes disagree on the results")
    speedup = one.median_wall() / two.median_wall()
    pr = H.paired_ratios(one, two, by="wall")
    row = [
        title,
        f"{games:,}",
        f"{one.median_wall():.2f} s",
        f"{two.median_wall():.2f} s",
        H.fmt_ratio(speedup),
        spread(pr),
        f"{games / two.median_wall():,.0f}",
        f"{statistics.median(x.cpu / x.wall for x in two.samples):.2f}",
    ]
    sec.goals.append(
        Goal(
            "simulate",
            f"{title}: 2 processes >= 1.8x 1 process",
            f"{speedup:.2f}x",
            speedup >= 1.8,
        )
    )
    sec.raw[title] = {
        "games": games,
        "one": one.walls,
        "two": two.walls,
        "cpu_one": [x.cpu for x in one.samples],
        "cpu_two": [x.cpu for x in two.samples],
    }
    return row


# -- 3c. simulate on a Dask cluster ------------------------------------------------------------


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


# -- 4. server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A server subprocess on 127.0.0.1, stopped (by its own pid) on exit."""

    def __init__(
        self, cmd: list[str], port: int, label: str, log: Path, env: dict[str, str] | None = None
    ):
        self.label, self.port = label, port
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{label} exited at start-up (see {log})")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{label} did not listen on 127.0.0.1:{port} within 60 s")

    def cpu(self) -> float:
        """CPU seconds the server process has used so far (all its threads)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss(self) -> dict[str, int]:
        out = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) * 1024
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def loadgen(cfg: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [PY, str(HERE / "loadgen.py"), json.dumps(cfg)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=cfg.get("seconds", 5) + 120,
    )
    if done.returncode != 0:
        raise RuntimeError("loadgen failed: " + (done.stderr.strip().splitlines() or ["?"])[-1])
    return json.loads(done.stdout)


def with_cpu(server: Server, cfg: dict[str, Any]) -> dict[str, Any]:
    """A load run, with the CPU time the server used during it."""
    before = server.cpu()
    out = loadgen(cfg)
    out["server_cpu"] = server.cpu() - before
    return out


#: The server's limits for the benchmarks: every load generator's client comes from
#: one address, which the default rate of match creation (per address) would refuse.
BENCH_LIMITS = "creates_per_minute=10000000,streams=4000,streams_per_match=4000,connections=5000"


def our_server(tmp: Path, label: str, limits: str = BENCH_LIMITS) -> Server:
    port = free_port()
    db = tmp / f"{label}.sqlite3"
    return Server(
        [PY, "-m", "gameweave_http.server", str(port), str(db)],
        port,
        label,
        tmp / f"{label}.log",
        env={"GAMEWEAVE_LIMITS": limits},
    )


def bench_server(s: Settings, ctx: dict[str, Any]) -> Section:
    """Loopback round trip and 32-client throughput against bare Starlette."""
    sec = Section("server", "4. Server: a submitted action on loopback against a bare endpoint")
    tmp = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    ours = our_server(tmp, "gameweave")
    bare_port = free_port()
    bare = Server(
        [PY, str(HERE / "bare_server.py"), str(bare_port)], bare_port, "bare", tmp / "bare.log"
    )
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        title = "house"
        lat_n = 150 if s.quick else 400
        base = {"title": title, "players": 2}
        warm = loadgen(
            {
                **base,
                "target": "gameweave",
                "port": ours.port,
                "clients": 32,
                "seconds": s.server_seconds,
                "seed": 99,
            }
        )
        mix = {
            "gets_per_action": warm["gets"] / max(1, warm["actions"]),
            "creates_per_action": warm["creates"] / max(1, warm["actions"]),
        }
        loadgen(
            {**mix, "target": "bare", "port": bare.port, "clients": 32, "seconds": s.server_seconds}
        )
        say(f"server: request mix per action {mix}")
        runs = {
            "ours_rt": lambda r: loadgen(
                {
                    **base,
                    "target": "gameweave",
                    "port": ours.port,
                    "clients": 1,
                    "seconds": s.server_seconds,
                    "max_actions": lat_n,
                    "seed": r,
                    "keep_latencies": True,
                }
            ),
            "bare_rt": lambda r: loadgen(
                {
                    **mix,
                    "target": "bare",
                    "port": bare.port,
                    "clients": 1,
                    "seconds": s.server_seconds,
                    "max_actions": lat_n,
                    "keep_latencies": True,
                }
            ),
            "ours_32": lambda r: with_cpu(
                ours,
                {
                    **base,
                    "target": "gameweave",
                    "port": ours.port,
                    "clients": 32,
                    "seconds": s.server_seconds,
                    "seed": 100 + r,
                },
            ),
            "bare_32": lambda r: with_cpu(
                bare,
                {
                    **mix,
                    "target": "bare",
                    "port": bare.port,
                    "clients": 32,
                    "seconds": s.server_seconds,
                },
            ),
        }
        order = list(runs)
        for r in range(s.server_rounds):
            for i in range(len(order)):
                key = order[(r + i) % len(order)]
                results.setdefault(key, []).append(runs[key](r))
            say(
                "server round {}/{}: ours {:,.0f}/s, bare {:,.0f}/s, rt p50 {:.1f} ms".format(
                    r + 1,
                    s.server_rounds,
                    results["ours_32"][-1]["actions"] / results["ours_32"][-1]["wall"],
                    results["bare_32"][-1]["actions"] / results["bare_32"][-1]["wall"],
                    results["ours_rt"][-1]["p50"] * 1000,
                )
            )
        profile = None
        if ctx["profile_always"] or not goals_met(results):
            profile = profile_server(ours, base, max(s.server_seconds, 5.0), tmp)
    finally:
        ours.stop()
        bare.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    def lat(key: str) -> tuple[float, float, int]:
        pooled = [x for run in results[key] for x in run["latencies"]]
        return H.percentile(pooled, 50), H.percentile(pooled, 99), len(pooled)

    def busy(key: str) -> float:
        # How much of one core the server process used while loaded.
        return statistics.median(run["server_cpu"] / run["wall"] for run in results[key])

    def cost(key: str) -> float:
        # Server CPU per action (the GETs and creates of the mix included), in ms.
        return statistics.median(
            1000 * run["server_cpu"] / run["actions"] for run in results[key] if run["actions"]
        )

    def thr(key: str) -> list[float]:
        return [run["actions"] / run["wall"] for run in results[key]]

    o50, o99, on = lat("ours_rt")
    b50, b99, bn = lat("bare_rt")
    ot, bt = statistics.median(thr("ours_32")), statistics.median(thr("bare_32"))
    ratio = ot / bt
    pr = [a / b for a, b in zip(thr("ours_32"), thr("bare_32"), strict=True)]
    o32_99 = statistics.median(run["p99"] for run in results["ours_32"])
    b32_99 = statistics.median(run["p99"] for run in results["bare_32"])
    sec.body.append(
        H.md_table(
            [
                "Server",
                "round trip p50 (1 client)",
                "p99",
                "actions/s, 32 clients (median)",
                "range",
                "p99 at 32 clients",
                "server CPU / wall",
                "server CPU ms per action",
            ],
            [
                [
                    "Gameweave (`gameweave_http`, The House Job)",
                    f"{o50 * 1000:.2f} ms",
                    f"{o99 * 1000:.2f} ms",
                    H.fmt_rate(ot),
                    spread(thr("ours_32"), H.fmt_rate),
                    f"{o32_99 * 1000:.1f} ms",
                    f"{busy('ours_32'):.2f}",
                    f"{cost('ours_32'):.2f}",
                ],
                [
                    "bare Starlette JSON endpoint",
                    f"{b50 * 1000:.2f} ms",
                    f"{b99 * 1000:.2f} ms",
                    H.fmt_rate(bt),
                    spread(thr("bare_32"), H.fmt_rate),
                    f"{b32_99 * 1000:.1f} ms",
                    f"{busy('bare_32'):.2f}",
                    f"{cost('bare_32'):.2f}",
                ],
                [
                    "ratio (Gameweave / bare)",
                    f"{o50 / b50:.1f}x",
                    f"{o99 / b99:.1f}x",
                    H.fmt_ratio(ratio),
                    spread(pr),
                    "",
                    "",
                    H.fmt_ratio(cost("ours_32") / cost("bare_32")),
                ],
            ],
        )
    )
    sec.body.append("")
    sec.body.append(
        f"Both apps are served by `gameweave_http.server.serve` (uvicorn, the same flags; the "
        f"bare one only swaps the app) on 127.0.0.1, driven by `benchmarks/loadgen.py` "
        f"(raw asyncio HTTP/1.1 keep-alive). Each Gameweave client creates House Job "
        f"matches holding every seat and POSTs uniformly random legal actions, reading the "
        f"awaited seat's legal actions with a GET when the last answer was another seat's; "
        f"the bare clients send the same mix ({mix['gets_per_action']:.2f} GETs and "
        f"{mix['creates_per_action']:.3f} creates per action). Round trip: one client, "
        f"{on:,} timed POSTs pooled over {s.server_rounds} rounds; throughput: 32 clients "
        f"for {s.server_seconds:.0f} s per round, interleaved with the bare server. Server "
        "CPU is the server process's own CPU time (all threads) during the 32-client runs; "
        "a server well under 1.0 CPU / wall spends its time waiting, not computing."
    )
    sec.goals.append(
        Goal("Server", ">= 0.5x bare throughput (32 clients)", f"{ratio:.2f}x", ratio >= 0.5)
    )
    sec.goals.append(Goal("Server", "p99 round trip < 20 ms", f"{o99 * 1000:.1f} ms", o99 < 0.020))
    if profile:
        gil, threads = profile["gil"], profile["threads"]
        sec.body += [
            "",
            "Where the Gameweave server's CPU goes under 32 clients, sampled by py-spy at "
            f"100 Hz for {profile['seconds']:.0f} s per view: first only the thread holding "
            f"the GIL ({gil['samples']:,} samples; py-spy misses some, so read these as "
            "shares, not as how busy the server was: the CPU / wall column above says that). "
            "Share of those samples under each function, callees included, then the "
            "innermost frames:",
            "",
            H.md_table(
                ["Function (with callees), GIL held", "share"],
                [[f"`{k}`", f"{v:.0%}"] for k, v in gil["inclusive"][:10]],
            ),
            "",
            H.md_table(
                ["Innermost frame, GIL held", "share"],
                [[f"`{k}`", f"{v:.0%}"] for k, v in gil["leaves"][:8]],
            ),
            "",
            "Every thread, idle waits (a pool thread with no work, the event loop's select) "
            f"left out ({threads['samples']:,} samples); a thread waiting for a lock or "
            "on I/O counts here:",
            "",
            H.md_table(
                ["Innermost frame, any thread", "share"],
                [[f"`{k}`", f"{v:.0%}"] for k, v in threads["leaves"][:8]],
            ),
        ]
    sec.raw = {
        "profile": profile,
        "mix": mix,
        "runs": {
            k: [{kk: vv for kk, vv in run.items() if kk != "latencies"} for run in v]
            for k, v in results.items()
        },
        "ours_rt": [o50, o99, on],
        "bare_rt": [b50, b99, bn],
    }
    return sec


def goals_met(results: dict[str, list[dict[str, Any]]]) -> bool:
    """The server goals, judged on the rounds so far (decides whether to profile)."""
    ours = statistics.median(r["actions"] / r["wall"] for r in results["ours_32"])
    bare = statistics.median(r["actions"] / r["wall"] for r in results["bare_32"])
    pooled = [x for run in results["ours_rt"] for x in run["latencies"]]
    return ours >= 0.5 * bare and H.percentile(pooled, 99) < 0.020


def profile_server(server: Server, base: dict[str, Any], seconds: float, tmp: Path) -> Any:
    """Sample the server with py-spy while 32 clients load it: once only the thread
    holding the GIL (where the CPU goes), once every thread (where they wait)."""
    import spy

    out: dict[str, Any] = {"seconds": seconds, "rate": 100}
    for mode in ("gil", "threads"):
        path = tmp / f"spy-{mode}.txt"
        proc = spy.start(peers.py_spy(), server.proc.pid, seconds, path, gil=mode == "gil")
        try:
            time.sleep(0.3)  # let py-spy attach before the load starts
            load = loadgen(
                {
                    **base,
                    "target": "gameweave",
                    "port": server.port,
                    "clients": 32,
                    "seconds": seconds,
                    "seed": 7,
                }
            )
        finally:
            failed = spy.finish(proc, seconds, path)
        if failed:
            say(f"server: {failed}")
            return None
        out[mode] = spy.summarise(path, drop_idle=mode == "threads")
        out[mode]["actions_per_s"] = load["actions"] / load["wall"]
    return out


# -- 5. memory ----------------------------------------------------------------------------------


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants, now."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    total = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    total += int(line.split()[1]) * 1024
                    break
        except OSError:
            pass
    return total


def peak_tree_rss(cmd: list[str], timeout: float) -> tuple[int, float, str]:
    proc = subprocess.Popen(
        cmd, cwd=tempfile.gettempdir(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    peak = 0
    t0 = time.perf_counter()
    out: list[str] = []
    import threading

    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else ""))
    reader.start()
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        if time.perf_counter() - t0 > timeout:
            proc.kill()
            raise RuntimeError(f"{' '.join(cmd)} took over {timeout:.0f} s")
        time.sleep(0.05)
    reader.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode})")
    return peak, time.perf_counter() - t0, "".join(out)


def mib(n: float) -> str:
    return f"{n / 1024 / 1024:,.0f} MiB"


def bench_memory(s: Settings, ctx: dict[str, Any]) -> Section:
    """Peak RSS of a 10,000-game simulate and of a server with 1,000 matches."""
    sec = Section("memory", "5. Memory: peak resident set")
    gw = str(BIN / "gameweave")
    rows = []
    for title in ctx["titles"]:
        n = s.memory_games
        peak, wall, out = peak_tree_rss(
            [
                gw,
                "simulate",
                title,
                "--games",
                str(n),
                "--jobs",
                "2",
                "--seed",
                "1",
                "--json",
                "--seat",
                "1=random",
                "--seat",
                "2=random",
            ],
            timeout=900,
        )
        finished = json.loads(out).get("finished")
        if finished != n:
            raise RuntimeError(f"simulate {title} finished {finished} of {n} games")
        rows.append(
            [
                f"`gameweave simulate {title} --games {n} --jobs 2 --seat 1=random --seat "
                "2=random` (process tree)",
                mib(peak),
                f"{wall:.1f} s wall",
            ]
        )
        sec.raw[f"simulate_{title}"] = {"games": n, "peak_tree_rss": peak, "wall": wall}
        say(f"memory: simulate {title} {n} games peak {mib(peak)}")
    tmp = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    server = our_server(tmp, "memory")
    try:
        idle = server.rss()
        m = s.memory_matches
        res = loadgen(
            {
                "target": "gameweave",
                "port": server.port,
                "clients": 1,
                "seconds": 600,
                "create_only": m,
                "title": "house",
                "players": 2,
                "moves_each": 5,
            }
        )
        held = server.rss()
        if res.get("created") != m:
            raise RuntimeError(f"created {res.get('created')} of {m} matches")
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    per = (held["VmRSS"] - idle["VmRSS"]) / m
    rows.append(
        [
            f"`gameweave serve` holding {m:,} live House Job matches (5 actions each)",
            mib(held["VmHWM"]),
            f"idle {mib(idle['VmRSS'])}; {per / 1024:,.1f} KiB per match",
        ]
    )
    sec.raw["server"] = {"matches": m, "idle": idle, "held": held, "per_match": per}
    streams, many = server_streams_and_matches(1500, 5000)
    rows.append(
        [
            f"`gameweave serve` with {streams['streams']:,} open event streams (one match each "
            "of 50, 30 streams a match)",
            mib(streams["held"]["VmRSS"]),
            f"idle {mib(streams['idle']['VmRSS'])}; an action reached its 30 streams in "
            f"{streams['reach_ms']:.0f} ms",
        ]
    )
    rows.append(
        [
            f"`gameweave serve` after {many['created']:,} matches created (default limits: "
            f"at most {many['live_limit']:,} held live)",
            mib(many["after"]["VmRSS"]),
            f"idle {mib(many['idle']['VmRSS'])}; after the first 1,000 "
            f"{mib(many['at_1000']['VmRSS'])}",
        ]
    )
    sec.raw["server_streams"] = streams
    sec.raw["server_many_matches"] = many
    sec.body.append(H.md_table(["Process", "peak RSS", "notes"], rows))
    sec.body.append("")
    sec.body.append(
        "Peak RSS of a `simulate` run is the largest sum over the command's "
        "process tree (parent and workers), sampled every 50 ms; the server's is "
        "its own high-water mark (VmHWM)."
    )
    return sec


def open_streams(port: int, ids: list[str], per_match: int) -> list[socket.socket]:
    """``per_match`` event streams of each match in ``ids``, each past its first event."""
    held = []
    for mid in ids:
        for _ in range(per_match):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.settimeout(30)
            sock.sendall(f"GET /api/matches/{mid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            held.append(sock)
    for sock in held:
        seen = b""
        while b"event: payload" not in seen:
            chunk = sock.recv(65536)
            if not chunk:
                raise RuntimeError(f"an event stream was refused: {seen[:200]!r}")
            seen += chunk
    return held


def server_streams_and_matches(streams: int, matches: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's memory with ``streams`` open event streams, and after
    ``matches`` matches were created (default live-match limit)."""
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    per_match = 30
    server = our_server(tmp, "streams")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
            created = [
                http.post("/api/matches", json={"title": "house", "players": 2}).json()
                for _ in range(streams // per_match)
            ]
            idle = server.rss()
            held = open_streams(server.port, [c["id"] for c in created], per_match)
            with_streams = server.rss()
            # One action, and the time until every stream of its match has its event.
            first = created[0]
            seat = http.get(f"/api/matches/{first['id']}").json()["awaiting"][0]
            token = next(x["token"] for x in first["seats"] if x["seat"] == seat)
            payload = http.get(
                f"/api/matches/{first['id']}", headers={"X-Seat-Token": token}
            ).json()
            started = time.perf_counter()
            r = http.post(
                f"/api/matches/{first['id']}/actions",
                headers={"X-Seat-Token": token},
                json={"version": payload["version"], "action": payload["legal"][0]},
            )
            if r.status_code != 200:
                raise RuntimeError(f"the action was refused: {r.text}")
            mark = f'"version":{payload["version"] + 1}'.encode()
            for sock in held[:per_match]:
                seen = b""
                while mark not in seen:
                    seen += sock.recv(65536)
            reach_ms = (time.perf_counter() - started) * 1000
            for sock in held:
                sock.close()
    finally:
        server.stop()
    say(
        f"memory: server idle {mib(idle['VmRSS'])}, {len(held)} streams "
        f"{mib(with_streams['VmRSS'])}, an action reached 30 streams in {reach_ms:.0f} ms"
    )
    stream_out = {
        "streams": len(held),
        "idle": idle,
        "held": with_streams,
        "reach_ms": reach_ms,
    }
    # Default limits but for the rate of creation (one address creates them all).
    server = our_server(tmp, "matches", "creates_per_minute=10000000")
    try:
        idle = server.rss()
        at_1000: dict[str, int] = {}
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
            for i in range(matches):
                r = http.post("/api/matches", json={"title": "house", "players": 2})
                if r.status_code != 201:
                    raise RuntimeError(f"creating match {i} answered {r.status_code}: {r.text}")
                if i == 999:
                    at_1000 = server.rss()
        after = server.rss()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    say(
        f"memory: server idle {mib(idle['VmRSS'])}, after 1,000 matches "
        f"{mib(at_1000['VmRSS'])}, after {matches:,} {mib(after['VmRSS'])}"
    )
    from gameweave_http.limits import Limits

    many_out = {
        "created": matches,
        "live_limit": Limits().live_matches,
        "idle": idle,
        "at_1000": at_1000,
        "after": after,
    }
    return stream_out, many_out


# -- the run ---------------------------------------------------------------------------------


def bench_search(s: Settings, ctx: dict[str, Any]) -> Section:
    """The ISMCTS bot: strength against the shipped bots (seat-swapped, Wilson
    intervals) and time per decision per title (benchmarks/search.py)."""
    import search

    sec = Section("search", "6. The search bot (ISMCTS): strength and speed")
    out = search.run(s.quick, ctx.get("search_games"), say=say)
    sec.body += out["body"]
    sec.goals += [Goal(*g) for g in out["goals"]]
    sec.raw = out["raw"]
    return sec


def bench_versus(s: Settings, ctx: dict[str, Any]) -> Section:
    """The server against boardgame.io's on tic-tac-toe: moves/s and move latency at
    1, 32 and 256 matches, CPU per move, memory with 1,000 live matches
    (benchmarks/versus.py)."""
    import versus

    sec = Section("versus", "7. The server against boardgame.io, on tic-tac-toe")
    out = versus.run(s, say)
    sec.body += out["body"]
    sec.goals += [Goal(*g) for g in out["goals"]]
    sec.raw = out["raw"]
    return sec


BENCHES: dict[str, Callable[[Settings, dict[str, Any]], Section]] = {
    "blackjack": bench_blackjack,
    "overhead": bench_overhead,
    "games": bench_games,
    "simulate": bench_simulate,
    "cluster": bench_cluster,
    "server": bench_server,
    "memory": bench_memory,
    "search": bench_search,
    "versus": bench_versus,
}


def busy_note(info: dict[str, Any]) -> str:
    """Says so when other work shared the machine (a one-minute load average over 1)."""
    loads = [
        float(info["machine"][k].split()[0])
        for k in ("loadavg_at_start", "loadavg_at_end")
        if info["machine"].get(k, "?") != "?"
    ]
    return " (other work shared the machine)" if any(x > 1.0 for x in loads) else ""


def git_commit() -> str:
    """The checked-out commit (with "+changes" when tracked files differ from it)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # The results file this run rewrites does not count as a change.
        dirty = subprocess.run(
            [
                "git",
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ".",
                ":!benchmarks/results.md",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+changes" if dirty else head


def render(sections: list[Section], s: Settings, info: dict[str, Any], command: str) -> str:
    goals = [g for sec in sections for g in sec.goals]
    lines = ["# Benchmarks", ""]
    lines.append(
        f"Measured on {info['date']} by `{command}` at commit {info['commit']} on "
        f"{info['machine']['nproc']} cores ({info['machine']['cpu']}, "
        f"{info['machine']['memory']}), Python {info['machine']['python']}; load average "
        f"{info['machine']['loadavg_at_start']} at the start and "
        f"{info['machine']['loadavg_at_end']} at the end{busy_note(info)}; "
        f"the run took {info['seconds'] / 60:.1f} minutes. Every figure is the median of {s.rounds} interleaved rounds (the server "
        f"{s.server_rounds}, `simulate` {s.simulate_rounds}); ratios are of medians, with the "
        "range of the round-by-round ratios beside them. No timed tests: these numbers come "
        "only from `make bench`."
    )
    if s.quick:
        lines += [
            "",
            "**Quick run** (`--quick`): fewer and shorter rounds, smaller memory "
            "workloads; indicative only.",
        ]
    lines += ["", "## Goals", ""]
    rows = []
    for g in goals:
        met = "not measured" if g.met is None else ("yes" if g.met else "**no**")
        rows.append([g.benchmark, g.goal, g.measured, met])
    for sec in sections:
        if sec.error:
            rows.append([sec.title.split(":")[0], "—", f"failed: {sec.error}", "not measured"])
    lines.append(H.md_table(["Benchmark", "Goal", "Measured", "Met"], rows))
    for sec in sections:
        lines += ["", f"## {sec.title}", ""]
        if sec.error:
            lines.append(f"Not measured: {sec.error}")
        else:
            lines += sec.body
    lines += [
        "",
        "## Reproducing",
        "",
        "`make bench` (all of the above; creates `benchmarks/.venv-peers` with the peers on "
        "first use, and builds `.venv-compiled`, the mypyc-compiled build, with `make "
        "compiled`), `python benchmarks/run.py --quick` for a short run, "
        "`python benchmarks/run.py blackjack server` for some benchmarks only (`versus`, "
        "the boardgame.io comparison, needs Node.js and npm; `make bench-bgio` installs "
        "boardgame.io). Raw figures of every run are kept as JSON under `benchmarks/results/`.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("benchmarks", nargs="*", help=f"some of: {', '.join(BENCHES)}")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    parser.add_argument("--rounds", type=int, help="rounds per comparison")
    parser.add_argument(
        "--write",
        action="store_true",
        help="write benchmarks/results.md even for a quick or partial run",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile the overhead benchmark even when its goal is met",
    )
    parser.add_argument(
        "--search-games",
        "--games",
        type=int,
        help="games per pairing of the search benchmark (default 100; the issue asks for 400)",
    )
    parser.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    args = parser.parse_args(argv)
    if args.list:
        for name, fn in BENCHES.items():
            print(f"{name}: {(fn.__doc__ or '').strip()}")
        return 0
    unknown = [b for b in args.benchmarks if b not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark(s) {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    chosen = args.benchmarks or list(BENCHES)
    s = Settings.make(args.quick, args.rounds)
    info = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": H.machine(),
        "commit": git_commit(),
        "quick": s.quick,
        "benchmarks": chosen,
    }
    say(f"machine: {info['machine']}")
    ours = H.Worker(PY, "gameweave")
    ctx: dict[str, Any] = {
        "ours": ours,
        "titles": ["museum", "house"],
        "profile_always": args.profile,
        "search_games": args.search_games,
        "compiled": None,
        "compiled_modules": [],
    }
    if COMPILED_PYTHON.exists():
        fast = H.Worker(COMPILED_PYTHON, "compiled")
        built = fast.info("workloads:compiled_modules")
        # A build that quietly fell back to pure Python must not pass for compiled.
        if "gameweave_house.rules" not in built:
            fast.close()
            raise SystemExit(f"{COMPILED_PYTHON}: gameweave_house.rules is not compiled ({built})")
        ctx["compiled"], ctx["compiled_modules"] = fast, built
        say(f"compiled build: {', '.join(built)}")
    else:
        say(f"no compiled build at {COMPILED_PYTHON} (make compiled): pure Python only")
    ctx["defaults"] = {t: ours.info("workloads:default_bot", {"title": t}) for t in ctx["titles"]}
    sections = []
    t0 = time.perf_counter()
    try:
        for name in chosen:
            say(f"== {name}")
            start = time.perf_counter()
            try:
                sec = BENCHES[name](s, ctx)
            except Exception as exc:
                say(f"{name} FAILED: {type(exc).__name__}: {exc}")
                sec = Section(name, BENCHES[name].__name__, error=f"{type(exc).__name__}: {exc}")
                sec.title = {
                    "blackjack": "1. Blackjack",
                    "overhead": "2. Framework overhead",
                    "games": "3. Whole games",
                    "simulate": "3b. simulate",
                    "cluster": "3c. cluster",
                    "server": "4. Server",
                    "memory": "5. Memory",
                    "search": "6. Search bot",
                    "versus": "7. Versus boardgame.io",
                }[name]
            sec.raw["seconds"] = time.perf_counter() - start
            sections.append(sec)
    finally:
        ours.close()
        if ctx["compiled"] is not None:
            ctx["compiled"].close()
    info["seconds"] = time.perf_counter() - t0
    info["machine"]["loadavg_at_end"] = H.machine()["loadavg_at_start"]
    command = (
        "make bench"
        if not s.quick and not args.benchmarks
        else (
            "python benchmarks/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
        ).strip()
    )
    text = render(sections, s, info, command)
    print(text)
    out_dir = HERE / "results"
    out_dir.mkdir(exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    (out_dir / f"{stamp}.json").write_text(
        json.dumps(
            {
                "info": info,
                "sections": {
                    sec.key: {
                        "error": sec.error,
                        "raw": sec.raw,
                        "goals": [attrs.asdict(g) for g in sec.goals],
                    }
                    for sec in sections
                },
            },
            indent=1,
            default=str,
        )
    )
    (out_dir / f"{stamp}.md").write_text(text)
    full = not s.quick and not args.benchmarks
    if full or args.write:
        (HERE / "results.md").write_text(text)
        say(f"wrote {HERE / 'results.md'} ({info['seconds']:.0f} s)")
    else:
        say(f"wrote {out_dir / (stamp + '.md')} ({info['seconds']:.0f} s); results.md untouched")
    return 1 if any(sec.error for sec in sections) else 0


if __name__ == "__main__":
    sys.exit(main())
