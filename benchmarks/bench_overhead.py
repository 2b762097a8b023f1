"""The same random games through ``Match`` and through the bare rules (``run.py overhead``)."""

from __future__ import annotations

import statistics
from typing import Any

import harness as H
from common import Goal, Section, Settings, profile_md, say, spread

#: Every first-party title: the project's two games and the three published ones.
TITLES = ("museum", "house", "museumheist", "masterthief", "museumrush")
#: The goal (issue 40): `Match` costs at most this many times the bare rules, wall
#: clock and CPU time alike, for every title in either build.
GOAL = 1.15


def calibrate_count(worker: H.Worker, fn: str, kwargs: dict[str, Any], target: float) -> int:
    sample = worker.call(fn, kwargs, seconds=min(0.5, target))
    per_step = sample.wall / max(1, sample.extra.get("iterations", 1))
    return max(3, int(target / per_step))


def bench_overhead(s: Settings, ctx: dict[str, Any]) -> Section:
    """The same random games through Match and through the bare rules."""
    sec = Section("overhead", "2. Framework overhead: `Match` against the bare rules")
    rows = []
    # Each title in the default (pure Python) install, and again in the compiled build
    # when there is one (its core compiled, and The House Job's rules): there the
    # core's share is larger. A title the compiled environment lacks is left out of it.
    variants = [(title, title, ctx["ours"]) for title in TITLES]
    fast = ctx["compiled"]
    if fast is not None:
        there = fast.info("workloads:installed_titles")
        variants += [(f"{t}, compiled build", t, fast) for t in TITLES if t in there]
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
                f"<= {GOAL:.2f}x",
            ]
        )
        # Met only if both the wall-clock and the CPU-time ratios are within the goal.
        worst = max(ratio, cpu_ratio)
        sec.goals.append(
            Goal(
                "Overhead",
                f"{label}: Match <= {GOAL:.2f}x bare rules",
                f"{ratio:.2f}x wall, {cpu_ratio:.2f}x CPU",
                worst <= GOAL,
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
        if worst > GOAL or ctx["profile_always"]:
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
                "goal",
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


bench = bench_overhead
