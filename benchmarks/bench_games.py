"""Whole games per second and verified replays (``run.py games``)."""

from __future__ import annotations

import statistics
from typing import Any

import harness as H
from common import Section, Settings, say, spread


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


bench = bench_games
