"""Every title through the RL adapter: PettingZoo and OpenSpiel speed (``run.py rl``)."""

from __future__ import annotations

import statistics
from typing import Any

import harness as H
import peers
from common import Goal, Section, Settings, profile_md, say, spread

Side = tuple[H.Worker, str, str, dict[str, Any]]


def _cpu(c: H.Contender) -> float:
    """The median rate per CPU second of the worker (the machine may be shared: CPU
    time is what a neighbour's load disturbs least)."""
    return statistics.median(x.units / x.cpu for x in c.samples if x.cpu > 0)


def _cpu_ratios(a: H.Contender, b: H.Contender) -> list[float]:
    return [
        (x.units / x.cpu) / (y.units / y.cpu)
        for x, y in zip(a.samples, b.samples, strict=True)
        if x.cpu > 0 and y.cpu > 0
    ]


def _pair(label: str, ours: Side, theirs: Side, s: Settings) -> tuple[H.Contender, ...]:
    """Measure two workloads interleaved (each on its own worker, the same seeds)."""
    cs = [
        H.on_worker(worker, name, fn, kw, seconds=s.seconds)
        for worker, name, fn, kw in (ours, theirs)
    ]
    H.interleave(cs, s.rounds, progress=lambda m: say(f"rl {label} " + m))
    return tuple(cs)


def _titles(s: Settings, ours: H.Worker, sec: Section) -> None:
    rows = []
    profiles: list[tuple[str, dict[str, Any]]] = []
    for title in ours.info("rl_workloads:titles"):
        kw = {"title": title, "players": 2}
        goal = f"{title}: AEC env >= 0.5x Match loop"
        try:
            ours.info("rl_workloads:hosted", {"title": title, "players": 2})
        except H.WorkerError as exc:  # a title the adapter refuses: the table says so
            reason = str(exc).split(": ", 2)[-1][:140]
            rows.append([title, "-", "-", "-", "-", "-", reason])
            sec.goals.append(Goal("RL", goal, "refused", None))
            continue
        cs = [
            H.on_worker(ours, name, "rl_workloads:" + fn, {**kw, **extra}, seconds=s.seconds)
            for name, fn, extra in (
                ("match", "match_loop", {}),
                ("aec", "aec_loop", {}),
                ("wrapped", "aec_loop", {"wrapped": True}),
            )
        ]
        try:
            H.interleave(cs, s.rounds, progress=lambda m, t=title: say(f"rl {t} " + m))
        except H.WorkerError as exc:  # e.g. a legal action without a number mid-game
            reason = str(exc).split(": ", 2)[-1][:140]
            rows.append([title, "-", "-", "-", "-", "-", f"stopped: {reason}"])
            sec.goals.append(Goal("RL", goal, "stopped", None))
            continue
        bare, aec, wrapped = cs
        ratio = _cpu(aec) / _cpu(bare)
        rows.append(
            [
                title,
                H.fmt_rate(_cpu(bare)),
                H.fmt_rate(_cpu(aec)),
                H.fmt_ratio(ratio),
                spread(_cpu_ratios(aec, bare)),
                H.fmt_ratio(_cpu(wrapped) / _cpu(bare)),
                "",
            ]
        )
        sec.goals.append(Goal("RL", goal, f"{ratio:.2f}x", ratio >= 0.5))
        if ratio < 0.5:  # the shortfall, profiled
            profiles.append(
                (title, ours.info("rl_workloads:profile_aec", {**kw, "seconds": s.seconds}))
            )
        sec.raw[title] = {
            "ratio": ratio,
            "match": bare.rates,
            "aec": aec.rates,
            "wrapped": wrapped.rates,
        }
    sec.body += [
        H.md_table(
            [
                "Title (2 seats)",
                "Match actions/CPU s",
                "AEC env actions/CPU s",
                "env / Match",
                "range",
                "wrapped env / Match",
                "note",
            ],
            rows,
        ),
        "",
        "Rates are per CPU second of each worker (`time.process_time`; the machine may "
        "be shared), medians of interleaved rounds; ratios of medians. "
        "Random play, one uniform draw among the awaited seat's legal actions per action: "
        "through a bare `Match` (`legal_actions`, `submit`) and through the title's AEC "
        "environment as a trainer drives it (`last()`: the seat's view encoded and its "
        "action mask; `step(number)`): `gameweave_rl.pettingzoo.raw_env` (the goal), and "
        "`env`, the same with the three wrappers PettingZoo puts on its board games.",
        "",
    ]
    for title, prof in profiles:
        sec.raw[title]["profile"] = prof
        sec.body += profile_md(prof, f"Where the AEC environment's time goes ({title})")
        sec.body.append("")


def _tictactoe(s: Settings, ours: H.Worker, sec: Section) -> None:
    peer = H.Worker(peers.ensure(), "peers")
    try:
        same = {
            "PettingZoo": ours.info("rl_workloads:tictactoe_games")
            == peer.info("rl_peer_workloads:tictactoe_games"),
            "OpenSpiel": ours.info("rl_workloads:same_mcts_games")["same"],
        }
        sec.raw["same_games"] = same
        pairs: list[tuple[str, str, Side, Side]] = [
            (
                "PettingZoo",
                "tictactoe_v3",
                (ours, "gameweave", "rl_workloads:gw_tictactoe_aec", {}),
                (peer, "tictactoe_v3", "rl_peer_workloads:pz_tictactoe_v3", {}),
            ),
            (
                "OpenSpiel",
                "python_tic_tac_toe",
                (ours, "gameweave", "rl_workloads:os_gameweave_tic_tac_toe", {}),
                (ours, "python_tic_tac_toe", "rl_workloads:os_python_tic_tac_toe", {}),
            ),
        ]
        rows = []
        for name, theirs_name, mine, theirs in pairs:
            a, b = _pair(name, mine, theirs, s)
            ratio = _cpu(a) / _cpu(b)
            rows.append(
                [
                    f"{name}: `{theirs_name}`",
                    H.fmt_rate(_cpu(b)),
                    H.fmt_rate(_cpu(a)),
                    H.fmt_ratio(ratio),
                    spread(_cpu_ratios(a, b)),
                    "yes" if same[name] else "no",
                ]
            )
            goal = f"tic-tac-toe: Gameweave >= 1.0x {theirs_name}"
            sec.goals.append(Goal("RL", goal, f"{ratio:.2f}x", ratio >= 1.0))
            sec.raw[f"tictactoe_{name}"] = {"ratio": ratio, "ours": a.rates, "theirs": b.rates}
    finally:
        peer.close()
    sec.body += [
        H.md_table(
            [
                "Tic-tac-toe against",
                "theirs actions/CPU s",
                "Gameweave actions/CPU s",
                "ratio",
                "range",
                "same games",
            ],
            rows,
        ),
        "",
        "PettingZoo: random play through `gameweave_rl.pettingzoo.env` (the wrappers "
        "`tictactoe_v3` applies) and through `tictactoe_v3` itself (in the peers' "
        "environment), the same policy (`random.Random(seed)` over the mask) on the same "
        "seeds. OpenSpiel: each move chosen by OpenSpiel's `MCTSBot` (20 simulations, "
        "random rollouts; clones, legal actions, applying, returns) on "
        "`gameweave_rl.openspiel.load_game` and on `python_tic_tac_toe`, the same seeds. "
        "Both games number the cells 0 to 8 row by row, so each pair plays the same games: "
        "checked before timing (the 'same games' column).",
    ]


#: Games per pairing of the strength table (the issue's figure).
STRENGTH_GAMES = 200
#: CPU seconds per decision for both searchers.
STRENGTH_CPU = 0.05
STRENGTH_TITLES = ("museumheist", "masterthief")


def _strength_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    table = []
    for r in rows:
        low, high = r["ci95"]
        table.append(
            [
                r["title"],
                str(r["games"]),
                f"{r['win_rate']:.1%}",
                f"{low:.1%} – {high:.1%}",
                f"{r['cpu_budget'] * 1000:.0f} ms",
                f"{r['gameweave_cpu_per_decision'] * 1000:.0f} ms "
                f"({r['gameweave_iterations_per_decision']:.0f})",
                f"{r['openspiel_cpu_per_decision'] * 1000:.0f} ms "
                f"({r['openspiel_iterations_per_decision']:.0f})",
            ]
        )
    return table


def _strength(s: Settings, ours: H.Worker, sec: Section) -> None:
    """The strength table: from the long run's file (``rl_strength.py`` writes it:
    200 games a pairing take 15 to 30 minutes on a shared machine), else played here."""
    import json
    from pathlib import Path

    results = Path(__file__).resolve().parent / "rl_strength.json"
    if results.exists():
        saved = json.loads(results.read_text())
        meta, rows = saved["meta"], saved["rows"]
        source = (
            f"From the long run's file `benchmarks/rl_strength.json` (`{meta['command']}` "
            f"at commit {meta['commit']}, finished {meta['finished']} after "
            f"{meta['minutes']} minutes, load average {meta['loadavg_at_start']} at the "
            f"start and {meta['loadavg_at_end']} at the end), not replayed by this run: "
            "rerun that command after changing the bot or the adapter."
        )
    else:
        games = 2 if s.quick else STRENGTH_GAMES
        rows = []
        for title in STRENGTH_TITLES:
            say(f"rl strength {title}: {games} games at {STRENGTH_CPU} CPU s per decision")
            rows.append(
                ours.info(
                    "rl_strength:pairing", {"name": title, "games": games, "cpu": STRENGTH_CPU}
                )
            )
        source = f"Played by this run ({games} games a pairing)."
    for r in rows:
        sec.raw[f"strength_{r['title']}"] = r
        sec.goals.append(
            Goal(
                "RL",
                f"strength: {r['title']}, 200 games a pairing",
                f"{r['games']}",
                r["games"] >= 200,
            )
        )
    sec.body += [
        "",
        H.md_table(
            [
                "Title (2 seats)",
                "games",
                "Gameweave ISMCTS wins",
                "95% CI",
                "CPU budget/decision",
                "Gameweave CPU/decision (iterations)",
                "OpenSpiel CPU/decision (simulations)",
            ],
            _strength_rows(rows),
        ),
        "",
        "Strength (`benchmarks/rl_strength.py`): Gameweave's `ismcts` bot against "
        "OpenSpiel's `ISMCTSBot` on the title's OpenSpiel game (resampling with the "
        "title's resample hook), seats swapped every other game on the same seeds. "
        "Equal CPU is enforced by CPU time: each searcher stops when the process has spent "
        "the budget of CPU time (`time.process_time`) on the decision; the CPU columns are "
        "what each side actually spent per decision, measured the same way (a decision "
        "with one legal move, or one candidate, costs no search). A draw counts half; "
        "Wilson intervals. " + source,
    ]


def bench_rl(s: Settings, ctx: dict[str, Any]) -> Section:
    """Steps per second of each title's AEC environment against a bare Match loop,
    tic-tac-toe against PettingZoo's tictactoe_v3 and OpenSpiel's python_tic_tac_toe."""
    sec = Section("rl", "9. Reinforcement learning: PettingZoo and OpenSpiel")
    _titles(s, ctx["ours"], sec)
    _tictactoe(s, ctx["ours"], sec)
    _strength(s, ctx["ours"], sec)
    return sec


bench = bench_rl
