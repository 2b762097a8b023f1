"""Run Gameweave's benchmarks side by side with the peers and write the table.

    python benchmarks/run.py                 # everything; writes benchmarks/results.md
    python benchmarks/run.py --quick         # fewer, shorter rounds (a smoke run)
    python benchmarks/run.py blackjack server  # only these (see --list)

Every figure is a median over interleaved rounds; every comparison is a ratio of
medians measured in the same run. A full run writes ``benchmarks/results.md`` (the
docs include it); a quick or partial run writes only under ``benchmarks/results/``
(raw JSON and markdown, not committed) unless ``--write`` is given.

This file is the table of the benchmarks and the report; each benchmark is a module
of its own with a ``bench(settings, ctx)`` function (see :data:`BENCHES`), and what
they share is in ``common.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness as H
from common import COMPILED_PYTHON, HERE, PY, Section, Settings, git_commit, say

#: Every benchmark, in the order a full run takes them: its name on the command
#: line, its module (whose ``bench(settings, ctx)`` returns its :class:`Section`),
#: and the short title of its section should it fail.
BENCHES: dict[str, tuple[str, str]] = {
    "blackjack": ("bench_blackjack", "1. Blackjack"),
    "overhead": ("bench_overhead", "2. Framework overhead"),
    "games": ("bench_games", "3. Whole games"),
    "simulate": ("bench_simulate", "3b. simulate"),
    "cluster": ("bench_cluster", "3c. cluster"),
    "server": ("bench_server", "4. Server"),
    "memory": ("bench_memory", "5. Memory"),
    "search": ("search", "6. Search bot"),
    "versus": ("versus", "7. Versus boardgame.io"),
    "soak": ("soak", "8. Soak"),
    "rl": ("bench_rl", "9. Reinforcement learning"),
}


def busy_note(info: dict[str, Any]) -> str:
    """Says so when other work shared the machine (a one-minute load average over 1)."""
    loads = [
        float(info["machine"][k].split()[0])
        for k in ("loadavg_at_start", "loadavg_at_end")
        if info["machine"].get(k, "?") != "?"
    ]
    return " (other work shared the machine)" if any(x > 1.0 for x in loads) else ""


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
        for name, (module, _) in BENCHES.items():
            doc = (importlib.import_module(module).__doc__ or "").strip().splitlines()
            print(f"{name}: {doc[0] if doc else module}")
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
                module, short = BENCHES[name]
                sec = importlib.import_module(module).bench(s, ctx)
            except Exception as exc:
                say(f"{name} FAILED: {type(exc).__name__}: {exc}")
                sec = Section(name, short, error=f"{type(exc).__name__}: {exc}")
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
