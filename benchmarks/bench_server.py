"""A submitted action on loopback against a bare Starlette endpoint (``run.py server``)."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import harness as H
import peers
import spy
from common import (
    HERE,
    PY,
    Goal,
    Section,
    Server,
    Settings,
    free_port,
    loadgen,
    our_server,
    say,
    spread,
    with_cpu,
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
                    f"{o99 * 1000:.2f} ms (goal < 20 ms: {'met' if o99 < 0.020 else '**missed**'})",
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
                    f"{H.fmt_ratio(ratio)} (goal >= 0.50x: "
                    f"{'met' if ratio >= 0.5 else '**missed**'})",
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
    sec.body += pipeline_costs(s, ctx, sec)
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
        sec.body += kinds_md(profile["kinds"], cost("bare_32") * 1000)
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


#: The kinds of work (``spy.KINDS``) an action needs whatever serves it: the match's
#: own work, which no HTTP stack, however lean, takes off the server.
MATCH_WORK = tuple(
    name for name, _ in spy.KINDS if name.split(":")[0] in ("store", "payloads", "rules")
)


def kinds_md(kinds: dict[str, Any], bare_us: float) -> list[str]:
    """Where each microsecond of an action goes, by kind of work, and the best
    throughput ratio to the bare endpoint the match's own work leaves."""
    head, rows = spy.kinds_table({"": kinds}, "action")
    match_us = sum(kinds["us_per_unit"][k] for k in MATCH_WORK)
    bound = bare_us / (bare_us + match_us) if bare_us + match_us else 0.0
    return [
        "",
        "The same samples of every thread by kind of work, as in the boardgame.io "
        "comparison (`benchmarks/spy.py`, `KINDS`; "
        f"{kinds['kind_samples']:,} samples), times the server's CPU per action over the "
        f"profiled load ({kinds['cpu_per_unit_us']:.0f} µs: the mix's GETs and creates "
        "included, and py-spy's sampling disturbs it a little):",
        "",
        H.md_table(head, rows),
        "",
        f"The store, the payloads and the rules, the match's own work, took "
        f"{match_us:.0f} µs of each action; the bare endpoint's whole CPU per action "
        f"is {bare_us:.0f} µs. Were every other layer (HTTP parsing, checks, routing, "
        "responses, the event loop) as cheap as the bare endpoint's whole request, the "
        f"throughput ratio would be {bare_us:.0f} / ({bare_us:.0f} + {match_us:.0f}) = "
        f"{H.fmt_ratio(bound)} at most, against the goal's 0.50x.",
    ]


def goals_met(results: dict[str, list[dict[str, Any]]]) -> bool:
    """The server goals, judged on the rounds so far (decides whether to profile)."""
    ours = statistics.median(r["actions"] / r["wall"] for r in results["ours_32"])
    bare = statistics.median(r["actions"] / r["wall"] for r in results["bare_32"])
    pooled = [x for run in results["ours_rt"] for x in run["latencies"]]
    return ours >= 0.5 * bare and H.percentile(pooled, 99) < 0.020


def profile_server(server: Server, base: dict[str, Any], seconds: float, tmp: Path) -> Any:
    """Sample the server with py-spy while 32 clients load it: once only the thread
    holding the GIL (where the CPU goes), once every thread (where they wait)."""
    out: dict[str, Any] = {"seconds": seconds, "rate": 100}
    for mode in ("gil", "threads"):
        path = tmp / f"spy-{mode}.txt"
        proc = spy.start(peers.py_spy(), server.proc.pid, seconds, path, gil=mode == "gil")
        try:
            time.sleep(0.3)  # let py-spy attach before the load starts
            load = with_cpu(
                server,
                {
                    **base,
                    "target": "gameweave",
                    "port": server.port,
                    "clients": 32,
                    "seconds": seconds,
                    "seed": 7,
                },
            )
        finally:
            failed = spy.finish(proc, seconds, path)
        if failed:
            say(f"server: {failed}")
            return None
        out[mode] = spy.summarise(path, drop_idle=mode == "threads")
        out[mode]["actions_per_s"] = load["actions"] / load["wall"]
        if mode == "threads":  # every running thread: where the whole CPU goes, by kind
            cpu_us = 1e6 * load["server_cpu"] / load["actions"] if load["actions"] else 0.0
            out["kinds"] = spy.per_unit(spy.categorise(path), cpu_us)
    return out


bench = bench_server


#: The middleware of the in-process comparison: name, and what the table calls it.
MIDDLEWARE = {
    "none": "`create_app` as it is",
    "pure": "with a pure ASGI middleware that passes every request on",
    "base": "with Starlette's `BaseHTTPMiddleware` passing every request on",
    "gzip": "with Starlette's `GZipMiddleware` (the client accepts gzip)",
}


def pipeline_costs(s: Settings, ctx: dict[str, Any], sec: Section) -> list[str]:
    """The app's own stack in process (no server, no socket), alone and with a
    middleware a user adds: what each costs per request, on the road every move
    takes."""
    cs = [
        H.on_worker(
            ctx["ours"], kind, "pipeline_workloads:turns", {"middleware": kind}, seconds=s.seconds
        )
        for kind in MIDDLEWARE
    ]
    H.interleave(cs, s.rounds, progress=lambda m: say("server pipeline " + m))
    by = {c.name: c for c in cs}

    def cpu_us(c: H.Contender) -> float:
        # CPU time per request of the worker: less disturbed by other processes.
        return statistics.median(1e6 * x.cpu / x.units for x in c.samples if x.units)

    base = cpu_us(by["none"])
    rows = []
    for kind, words in MIDDLEWARE.items():
        c = by[kind]
        cost = cpu_us(c)
        rows.append(
            [
                words,
                H.fmt_rate(c.median_rate()),
                spread(c.rates, H.fmt_rate),
                f"{cost:.1f} µs",
                "" if kind == "none" else f"+{cost - base:.1f} µs ({cost / base - 1:+.0%})",
            ]
        )
    sec.raw["pipeline"] = {c.name: c.rates for c in cs}
    return [
        "",
        "The app's own stack in process, without a server or a socket: requests of "
        "tic-tac-toe turns (an action, then a read of the payload of the seat to move; "
        "a new match after each game) sent straight to the ASGI app, alone and with a "
        "middleware added by `app.add_middleware`, interleaved (`benchmarks/"
        "pipeline_workloads.py`). What a middleware costs is paid on every request, the "
        "action and the event streams of every move included:",
        "",
        H.md_table(
            ["App", "requests/s (median)", "range", "CPU per request", "middleware's cost"],
            rows,
        ),
    ]
