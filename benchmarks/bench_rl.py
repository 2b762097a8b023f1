"""Every title through the RL adapter: PettingZoo and OpenSpiel speed (``run.py rl``)."""

from __future__ import annotations

from typing import Any

import harness as H
from common import Goal, Section, Settings, say, spread


def _pair(
    worker: H.Worker,
    label: str,
    ours: tuple[str, str, dict[str, Any]],
    theirs: tuple[str, str, dict[str, Any]],
    s: Settings,
) -> tuple[H.Contender, H.Contender, float, list[float]]:
    """Measure two workloads interleaved (same fixed batch of games for each); return
    them, the ratio of their median rates (ours / theirs) and the round-by-round ratios."""
    cs = [H.on_worker(worker, name, fn, kw, seconds=s.seconds) for name, fn, kw in (ours, theirs)]
    H.interleave(cs, s.rounds, progress=lambda m: say(f"rl {label} " + m))
    a, b = cs
    return a, b, a.median_rate() / b.median_rate(), H.paired_ratios(a, b)


def bench_rl(s: Settings, ctx: dict[str, Any]) -> Section:
    """Steps per second of each title's AEC environment against a bare Match loop,
    tic-tac-toe against PettingZoo's tictactoe_v3 and OpenSpiel's python_tic_tac_toe."""
    sec = Section("rl", "9. Reinforcement learning: PettingZoo and OpenSpiel")
    ours: H.Worker = ctx["ours"]
    rows = []
    for title in ours.info("rl_workloads:titles"):
        players = 2
        kw = {"title": title, "players": players}
        try:
            aec, bare, ratio, pr = _pair(
                ours,
                title,
                ("aec", "rl_workloads:aec_loop", kw),
                ("match", "rl_workloads:match_loop", kw),
                s,
            )
        except H.WorkerError as exc:  # a title the adapter refuses: say so in the table
            rows.append([title, "-", "-", "-", str(exc).splitlines()[0][:120]])
            sec.goals.append(Goal("RL", f"{title}: AEC env >= 0.5x Match loop", "refused", None))
            continue
        rows.append(
            [
                title,
                H.fmt_rate(bare.median_rate()),
                H.fmt_rate(aec.median_rate()),
                H.fmt_ratio(ratio),
                spread(pr),
            ]
        )
        sec.goals.append(
            Goal("RL", f"{title}: AEC env >= 0.5x Match loop", f"{ratio:.2f}x", ratio >= 0.5)
        )
        sec.raw[title] = {"ratio": ratio, "aec": aec.rates, "match": bare.rates}
    sec.body.append(
        H.md_table(
            ["Title (2 seats)", "Match actions/s", "AEC env actions/s", "env / Match", "range"],
            rows,
        )
    )
    sec.body += [
        "",
        "Random play, one uniform draw among the awaited seat's legal actions per step: "
        "through a bare `Match` (`legal_actions`, `submit`) and through "
        "`gameweave_rl.pettingzoo.env` as a trainer drives it (`last()`: the seat's "
        "view encoded and its action mask; `step(index)`), PettingZoo's wrappers included.",
        "",
    ]
    same = ours.info("rl_workloads:same_tictactoe_games", {"games": 20})
    sec.raw["same_games"] = same
    peers = [
        (
            "PettingZoo",
            "tictactoe_v3",
            ("gameweave", "rl_workloads:gw_tictactoe_aec", {}),
            ("tictactoe_v3", "rl_workloads:pz_tictactoe_v3", {}),
        ),
        (
            "OpenSpiel",
            "python_tic_tac_toe (MCTS, 20 simulations a move)",
            ("gameweave", "rl_workloads:os_gameweave_tic_tac_toe", {}),
            ("python_tic_tac_toe", "rl_workloads:os_python_tic_tac_toe", {}),
        ),
    ]
    rows = []
    for peer, theirs_name, mine, theirs in peers:
        a, b, ratio, pr = _pair(ours, peer, mine, theirs, s)
        key = peer.lower()
        rows.append(
            [
                f"{peer}: {theirs_name}",
                H.fmt_rate(b.median_rate()),
                H.fmt_rate(a.median_rate()),
                H.fmt_ratio(ratio),
                spread(pr),
                "yes" if same[key]["same"] else "no",
            ]
        )
        sec.goals.append(
            Goal(
                "RL", f"tic-tac-toe: Gameweave >= 1.0x {theirs_name}", f"{ratio:.2f}x", ratio >= 1.0
            )
        )
        sec.raw[f"tictactoe_{key}"] = {"ratio": ratio, "ours": a.rates, "theirs": b.rates}
    sec.body.append(
        H.md_table(
            [
                "Tic-tac-toe against",
                "theirs actions/s",
                "Gameweave actions/s",
                "ratio",
                "range",
                "same games",
            ],
            rows,
        )
    )
    sec.body += [
        "",
        "Both sides number the cells 0 to 8 row by row and are driven by the same seeded "
        "policy, so they play the same games (checked on 20 games before timing: the "
        "'same games' column).",
    ]
    return sec


bench = bench_rl
