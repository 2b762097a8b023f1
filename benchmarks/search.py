"""The ISMCTS bot (issue 17): strength against the shipped bots and speed per title.

    python benchmarks/search.py                       # every pairing, 400 games each
    python benchmarks/search.py --games 40 museum     # some titles, fewer games
    python benchmarks/search.py house-base museum-thief   # some pairings (their keys)
    python benchmarks/search.py --json out.json       # also keep the raw figures
    python benchmarks/search.py --first 200 --games 200 --json b.json museum-security
    python benchmarks/search.py --pool a.json b.json  # one table from several runs

``make bench`` runs it as the ``search`` benchmark of ``benchmarks/run.py`` with
:data:`BENCH_GAMES` games per pairing (the slow titles' 400 games take hours on
two cores); ``python benchmarks/run.py search --games 400`` plays the full table.
Every game is seeded from ``--seed`` and its index, so the same seed gives the same
games and outcomes whatever the number of processes (only the times differ). A
long table can therefore be played in parts: ``--first N`` starts at game ``N``,
``--json`` keeps the games played so far (rewritten every ten games, so an
interrupted run loses at most ten), and ``--pool`` makes one table of the parts,
refusing parts of different seeds or parts that play a game twice.

Strength: every pairing plays the same seeds (``game:i`` derived from ``--seed``)
for each side, so the comparisons are paired; symmetric titles swap seats (each
seed is played once with the search in seat 1 and once in seat 2). Win rates carry
95% Wilson intervals. Speed: each decision of the search bot is timed in CPU
seconds (``time.process_time``: the machine is shared, and waiting for a core is
not the bot's cost), and iterations per CPU second are the default budget divided
by that time.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TUTORIAL = ROOT / "docs" / "tutorial" / "sealed-bid"

#: Games per pairing asked for by the issue.
FULL_GAMES = 400
#: Games per pairing of ``make bench``: the same pairings and seeds as the full
#: table (its first games), small enough to finish within about an hour on two cores.
BENCH_GAMES = 100
#: Games per pairing of a quick run.
QUICK_GAMES = 8


def registry() -> Any:
    """The installed titles, and the tutorial title from its folder if it is not
    installed (the dev environment does not install it)."""
    from gameweave_core import Registry, default_registry

    reg = default_registry()
    if "sealedbid" in reg.names():
        return reg
    if str(TUTORIAL) not in sys.path:
        sys.path.insert(0, str(TUTORIAL))
    from gameweave_sealedbid import plugin

    out = Registry()
    for name in reg.names():
        entry = reg.entry(name)
        out.add_title(entry.title, entry.distribution, entry.distribution_version)
    out.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "tutorial")
    return out


#: (key, title, players, {seat: bot}, what it measures). ``None`` is the title's
#: default bot. Pairings of one title with the same "compare" key share seeds.
PAIRINGS: list[dict[str, Any]] = [
    {"key": "sealedbid", "title": "sealedbid", "players": 2, "search": "ismcts", "other": "random",
     "swap": True},
    {"key": "museum-thief", "title": "museum", "players": 2, "seats": {1: "ismcts", 2: None}},
    {"key": "museum-thief-base", "title": "museum", "players": 2, "seats": {1: None, 2: None}},
    {"key": "museum-security", "title": "museum", "players": 2, "seats": {1: None, 2: "ismcts"}},
    {"key": "house", "title": "house", "players": 2, "seats": {1: "ismcts", 2: "ismcts"}},
    {"key": "house-base", "title": "house", "players": 2, "seats": {1: None, 2: None}},
    {"key": "museumheist", "title": "museumheist", "players": 2, "search": "ismcts",
     "other": None, "swap": True},
    {"key": "masterthief", "title": "masterthief", "players": 2, "search": "ismcts",
     "other": None, "swap": True},
    {"key": "museumrush", "title": "museumrush", "players": 2, "search": "ismcts",
     "other": None, "swap": True},
]  # fmt: skip


def jobs_for(
    pairing: dict[str, Any], games: int, seed: int, first: int = 0
) -> list[dict[str, Any]]:
    """One job per game, games ``first`` to ``first + games - 1``: the seats' bots and
    the game's seed."""
    from gameweave_core import derive_seed

    if pairing.get("swap") and first % 2:
        raise ValueError(
            f"--first {first}: seats are swapped in pairs of games, so it must be even"
        )
    out = []
    for i in range(first, first + games):
        if pairing.get("swap"):
            game_seed = derive_seed(seed, f"game:{i // 2}")
            search_seat = 1 + i % 2
            seats = {s: pairing["other"] for s in range(1, pairing["players"] + 1)}
            seats[search_seat] = pairing["search"]
        else:
            game_seed = derive_seed(seed, f"game:{i}")
            seats = dict(pairing["seats"])
            search_seat = next((s for s, b in seats.items() if b == "ismcts"), None)
        out.append(
            {
                "key": pairing["key"],
                "game": i,
                "title": pairing["title"],
                "players": pairing["players"],
                "seed": game_seed,
                "seats": seats,
                "search_seat": search_seat,
            }
        )
    return out


class _Timed:
    """A search bot whose every decision is timed in CPU seconds, with the number
    of iterations it ran (the same move as ``act``: ``act`` is the search's move)."""

    def __init__(self, bot: Any, times: list[float], iterations: list[int]) -> None:
        self.bot = bot
        self.times = times
        self.iterations = iterations

    def act(self, observation: Any, rng: Any) -> Any:
        start = time.process_time()
        result = self.bot.search(observation, rng)
        self.times.append(time.process_time() - start)
        self.iterations.append(result.iterations)
        return result.action


def play(job: dict[str, Any]) -> dict[str, Any]:
    """Play one game of a job; its outcome and the search seats' decision times."""
    from gameweave_core import BotSeat, Match, Rng, derive_seed, run_bots

    reg = registry()
    title = reg.title(job["title"])
    match = Match.create(job["title"], job["players"], job["seed"], registry=reg)
    times: list[float] = []
    iterations: list[int] = []
    seats = {}
    for seat, name in job["seats"].items():
        bot = reg.bot(title, name)(seat, job["players"])
        if name == "ismcts":
            bot = _Timed(bot, times, iterations)
        seats[seat] = BotSeat(bot, Rng(derive_seed(job["seed"], f"bot:{seat}")), name or "")
    run_bots(match, seats, limit=title.max_actions)
    outcome = match.outcome()
    assert outcome is not None
    return {
        "key": job["key"],
        "game": job["game"],
        "title": job["title"],
        "search_seat": job["search_seat"],
        "winners": list(outcome.winners),
        "figures": dict(outcome.figures),
        "steps": match.step,
        "times": times,
        "iterations": iterations,
    }


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of ``k`` successes in ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def rate(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k / n:.1%} ({lo:.1%} – {hi:.1%}), {k}/{n}" if n else "no games"


def run_games(
    pairings: Sequence[dict[str, Any]],
    games: int,
    seed: int,
    workers: int,
    say: Callable[[str], None],
    first: int = 0,
    keep: Callable[[list[dict[str, Any]]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the games, game by game across the pairings (so the games played so far
    pair up whenever the run stops); ``keep`` gets them every ten games."""
    per_pairing = [jobs_for(p, games, seed, first) for p in pairings]
    jobs = [job for game in zip(*per_pairing, strict=True) for job in game]
    results: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for i, result in enumerate(pool.map(play, jobs, chunksize=1), start=1):
            results.append(result)
            if i % 10 == 0 or i == len(jobs):
                say(f"search: {i}/{len(jobs)} games, {time.perf_counter() - start:.0f} s")
                if keep is not None:
                    keep(results)
    return results


def pool_parts(parts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games of several runs' raw figures (``--json`` files), as one run's;
    parts of different seeds, or two parts playing the same game, are refused."""
    seeds = {part["seed"] for part in parts}
    if len(seeds) > 1:
        raise ValueError(f"the parts were played from different seeds ({sorted(seeds)})")
    results: list[dict[str, Any]] = []
    seen: set[tuple[str, int]] = set()
    for part in parts:
        for r in part["results"]:
            game = (r["key"], r["game"])
            if game in seen:
                raise ValueError(f"game {r['game']} of {r['key']} is in two parts")
            seen.add(game)
            results.append(r)
    return sorted(results, key=lambda r: (r["game"], r["key"]))


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The strength table, goals and speed figures from the played games."""
    by: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        by.setdefault(r["key"], []).append(r)
    rows: list[list[str]] = []
    goals: list[tuple[str, str, str, bool | None]] = []

    def wins(key: str, seat_of: Callable[[dict[str, Any]], int]) -> tuple[int, int]:
        games = by.get(key, [])
        return sum(r["winners"] == [seat_of(r)] for r in games), len(games)

    searched = lambda r: r["search_seat"]  # noqa: E731
    thief = lambda r: 1  # noqa: E731

    if "sealedbid" in by:
        k, n = wins("sealedbid", searched)
        rows.append(["Sealed Bids", "ISMCTS against random, seats swapped", "search wins",
                     rate(k, n)])  # fmt: skip
        goals.append(("ISMCTS: Sealed Bids", "beats random in >= 90% of games", rate(k, n),
                      k / n >= 0.9 if n else None))  # fmt: skip
    if "museum-thief" in by:
        k, n = wins("museum-thief", thief)
        kb, nb = wins("museum-thief-base", thief)
        rows.append(["The Museum Job", "ISMCTS Thief against heuristic Security", "Thief wins",
                     rate(k, n)])  # fmt: skip
        rows.append(["The Museum Job", "heuristic Thief against heuristic Security (same seeds)",
                     "Thief wins", rate(kb, nb)])  # fmt: skip
        met = (k / n - kb / nb >= 0.10) if n and nb else None
        goals.append(("ISMCTS: Museum Thief",
                      "wins >= 10 points more often than the heuristic Thief",
                      f"{k / n:.1%} against {kb / nb:.1%} ({n} and {nb} games)" if n and nb
                      else "no games", met))  # fmt: skip
    if "museum-security" in by:
        k, n = wins("museum-security", thief)
        rows.append(["The Museum Job", "heuristic Thief against ISMCTS Security", "Thief wins",
                     rate(k, n)])  # fmt: skip
        goals.append(("ISMCTS: Museum Security", "holds the heuristic Thief to <= 45%",
                      rate(k, n), (k / n <= 0.45) if n else None))  # fmt: skip
    if "house" in by:
        takes = [r["figures"]["take"] for r in by["house"]]
        base = [r["figures"]["take"] for r in by.get("house-base", [])]
        for label, vals in (("ISMCTS crew", takes), ("basic crew (same seeds)", base)):
            if vals:
                sd = statistics.stdev(vals) if len(vals) > 1 else 0.0
                rows.append(["The House Job", f"{label}, 2 seats, abilities on", "mean Take",
                             f"{statistics.mean(vals):,.0f} ± {1.96 * sd / math.sqrt(len(vals)):,.0f}"
                             f" (95%), {len(vals)} games"])  # fmt: skip
        # Seed by seed: the games both crews played.
        ours = {r["game"]: r["figures"]["take"] for r in by["house"]}
        theirs = {r["game"]: r["figures"]["take"] for r in by.get("house-base", [])}
        diff = [ours[g] - theirs[g] for g in sorted(ours.keys() & theirs.keys())]
        if len(diff) > 1:
            half = 1.96 * statistics.stdev(diff) / math.sqrt(len(diff))
            rows.append(["The House Job", "ISMCTS crew minus basic crew, seed by seed",
                         "mean Take difference",
                         f"{statistics.mean(diff):+,.0f} ± {half:,.0f} (95%)"])  # fmt: skip
        met = statistics.mean(takes) >= statistics.mean(base) if takes and base else None
        goals.append(("ISMCTS: House crew", "mean Take >= the basic bots' (same seeds)",
                      f"{statistics.mean(takes):,.0f} against {statistics.mean(base):,.0f}"
                      if takes and base else "no games", met))  # fmt: skip
    symmetric = (
        ("museumheist", "Museum Heist"),
        ("masterthief", "Master Thief"),
        ("museumrush", "Museum Rush"),
    )
    for key, name in symmetric:
        if key in by:
            k, n = wins(key, searched)
            kb = sum(r["winners"] == [3 - r["search_seat"]] for r in by[key])
            rows.append([name, "ISMCTS against the heuristic bot, seats swapped",
                         "search wins / heuristic wins", f"{rate(k, n)} / {kb / n:.1%}"])  # fmt: skip
            goals.append((f"ISMCTS: {name}", "at least matches the heuristic bot",
                          f"{k} wins against {kb} in {n} games", k >= kb))  # fmt: skip
    speed: list[list[str]] = []
    raw_speed: dict[str, Any] = {}
    titles = sorted({r["title"] for r in results})
    for t in titles:
        times = [x for r in results if r["title"] == t for x in r["times"]]
        if not times:
            continue
        its = [x for r in results if r["title"] == t for x in r["iterations"]]
        med = statistics.median(times)
        p90 = sorted(times)[int(0.9 * (len(times) - 1))]
        worst = max(times)
        # Iterations per CPU second over the decisions that searched (a decision
        # with one candidate, or one legal action, runs none).
        searched_time = sum(x for x, n in zip(times, its, strict=True) if n)
        per_s = sum(its) / searched_time if searched_time else 0.0
        share = sum(1 for n in its if n) / len(its)
        speed.append([t, f"{len(times):,}", f"{share:.0%}", f"{med * 1000:,.0f} ms",
                      f"{p90 * 1000:,.0f} ms", f"{worst * 1000:,.0f} ms",
                      f"{per_s:,.0f}"])  # fmt: skip
        raw_speed[t] = {"decisions": len(times), "searched": share, "median": med, "p90": p90,
                        "max": worst, "iterations_per_s": per_s}  # fmt: skip
        goals.append((f"ISMCTS: {t} decision", "<= 1 s per decision at the default budget",
                      f"median {med:.2f} s, 90th percentile {p90:.2f} s, max {worst:.2f} s (CPU)",
                      worst <= 1.0))  # fmt: skip
    return {"rows": rows, "goals": goals, "speed": speed, "raw_speed": raw_speed}


def search_settings(pairings: Sequence[dict[str, Any]]) -> list[list[str]]:
    """Each searched seat's options as its title sets them (``Title.search_defaults``)."""
    from gameweave_core.ismcts import SearchOptions

    reg = registry()
    rows: list[list[str]] = []
    seen: set[tuple[str, int]] = set()
    for p in pairings:
        title = reg.title(p["title"])
        if p.get("swap"):
            seats = list(range(1, p["players"] + 1))
        else:
            seats = [s for s, b in p["seats"].items() if b == "ismcts"]
        for seat in seats:
            if (p["title"], seat) in seen:
                continue
            seen.add((p["title"], seat))
            o = SearchOptions.for_title(title, seat, p["players"])
            evaluate = getattr(o.evaluate, "__name__", "yes") if o.evaluate else "-"
            rows.append([p["title"], str(seat), str(o.iterations), str(o.exploration),
                         o.rollout or "random", str(o.rollout_limit or "-"), evaluate,
                         str(o.candidates or "-")])  # fmt: skip
    return rows


def markdown(
    summary: dict[str, Any],
    games: int,
    seconds: float,
    settings: list[list[str]],
    workers: int = 2,
) -> list[str]:
    # workers=0: a table pooled from runs made apart (--pool), their times summed.
    where = (
        f"on {workers} process{'es' if workers > 1 else ''}" if workers else "in all, run in parts"
    )
    lines = [
        f"The `ismcts` bot as each title sets it up (its `search_defaults`, below) against "
        f"the shipped bots: {games} games per pairing, seeds shared between the sides of a "
        "comparison, seats swapped where the title is symmetric; 95% Wilson intervals "
        f"(the games took {seconds / 60:.1f} minutes {where}). "
        "`python benchmarks/search.py --help` runs parts of it.",
        "",
        _table(["Title", "Pairing", "Measure", "Result"], summary["rows"]),
        "",
        "The search's settings per title and seat (`Title.search_defaults`):",
        "",
        _table(
            [
                "Title",
                "seat",
                "iterations",
                "exploration",
                "rollout",
                "rollout limit",
                "evaluate",
                "candidates",
            ],
            settings,
        ),
        "",
        "Time per decision of the search bot at these settings (CPU seconds, every "
        "decision of the games above), the share of decisions that searched (one legal "
        "action or one candidate needs none) and iterations per CPU second over those:",
        "",
        _table(
            ["Title", "decisions", "searched", "median", "90th percentile", "max", "iterations/s"],
            summary["speed"],
        ),
    ]
    return lines


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(out)


def run(
    quick: bool,
    games: int | None = None,
    only: Sequence[str] = (),
    seed: int = 17,
    workers: int | None = None,
    say: Callable[[str], None] = print,
    first: int = 0,
    keep: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play the pairings and summarize: ``body`` (markdown lines), ``goals``, ``raw``.
    ``keep``, when given, gets the raw figures of the games played so far every ten
    games and at the end."""
    count = games or (QUICK_GAMES if quick else BENCH_GAMES)
    chosen = [p for p in PAIRINGS if not only or p["title"] in only or p["key"] in only]
    start = time.perf_counter()
    workers = workers or min(2, os.cpu_count() or 1)

    def raw(results: list[dict[str, Any]]) -> dict[str, Any]:
        return {"seed": seed, "first": first, "games": count, "results": results,
                "seconds": time.perf_counter() - start}  # fmt: skip

    def keep_raw(done: list[dict[str, Any]]) -> None:
        if keep is not None:
            keep(raw(done))

    results = run_games(chosen, count, seed, workers, say, first, keep_raw)
    seconds = time.perf_counter() - start
    summary = summarize(results)
    return {
        "body": markdown(summary, count, seconds, search_settings(chosen), workers),
        "goals": summary["goals"],
        "raw": dict(raw(results), speed=summary["raw_speed"]),
    }


def bench(s: Any, ctx: dict[str, Any]) -> Any:
    """``run.py search``: :func:`run` as a section of the results (strength against
    the shipped bots, seat-swapped, with Wilson intervals; time per decision)."""
    from common import Goal, Section, say

    sec = Section("search", "6. The search bot (ISMCTS): strength and speed")
    out = run(s.quick, ctx.get("search_games"), say=say)
    sec.body += out["body"]
    sec.goals += [Goal(*g) for g in out["goals"]]
    sec.raw = out["raw"]
    return sec


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` whole or not at all (a run may be stopped mid-write)."""
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(data, indent=1))
    part.replace(path)


def pooled(paths: Sequence[Path]) -> dict[str, Any]:
    """The table of several runs' ``--json`` files, as :func:`run` gives it."""
    parts = [json.loads(path.read_text()) for path in paths]
    results = pool_parts(parts)
    keys = {r["key"] for r in results}
    chosen = [p for p in PAIRINGS if p["key"] in keys]
    most = max(sum(r["key"] == p["key"] for r in results) for p in chosen)
    seconds = sum(part["seconds"] for part in parts)
    summary = summarize(results)
    return {
        "body": markdown(summary, most, seconds, search_settings(chosen), 0),
        "goals": summary["goals"],
        "raw": {"seed": parts[0]["seed"], "results": results, "seconds": seconds,
                "speed": summary["raw_speed"]},
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "titles", nargs="*", help="only these titles or pairings (e.g. museum-security)"
    )
    parser.add_argument("--games", type=int, help=f"games per pairing (default {FULL_GAMES})")
    parser.add_argument("--first", type=int, default=0, help="the first game's index (default 0)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--workers", type=int, help="processes (default: 2 or the cores)")
    parser.add_argument(
        "--json", type=Path, help="write the raw figures here (every ten games, and at the end)"
    )
    parser.add_argument(
        "--pool", type=Path, nargs="+", metavar="JSON", help="print one table of these runs' --json"
    )
    args = parser.parse_args(argv)
    if args.pool:
        try:
            out = pooled(args.pool)
        except (OSError, ValueError, KeyError) as e:
            print(f"error: --pool: {e}", file=sys.stderr)
            return 2
    else:
        keep = (lambda data: write_json(args.json, data)) if args.json else None
        out = run(False, args.games or FULL_GAMES, args.titles, args.seed, args.workers,
                  lambda m: print(m, file=sys.stderr, flush=True), args.first, keep)  # fmt: skip
        if args.json:
            write_json(args.json, out["raw"])
    print("\n".join(out["body"]))
    print()
    for goal in out["goals"]:
        met = "not measured" if goal[3] is None else ("yes" if goal[3] else "NO")
        print(f"- {goal[0]}: {goal[1]}: {goal[2]} -> {met}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
