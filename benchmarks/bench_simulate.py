"""``gameweave simulate`` on one and two processes (``run.py simulate``)."""

from __future__ import annotations

import json
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

import harness as H
from common import BIN, Goal, Section, Settings, run_cmd, say, spread


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


bench = bench_simulate
