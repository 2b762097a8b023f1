"""The server side by side with boardgame.io's, on the same game (``run.py versus``).

Tic-tac-toe twice: ``benchmarks/tictactoe`` (a Gameweave title, served by
``gameweave_http`` with its default durable SQLite store) and ``benchmarks/bgio``
(a boardgame.io 0.50.2 game, served by boardgame.io's own Koa + socket.io server
with its default in-memory store). Each is played by its own client: Gameweave's
seats as the browser client plays (``versus_loadgen.py``: a seat socket per seat,
and, as a second side, an event stream per seat and a POST per move), boardgame.io's with its ``Client`` and ``SocketIO`` transport
(``bgio/loadgen.js``), in two setups: at its best (each place's two Clients kept
from match to match with ``updateCredentials``/``updateMatchID``, on the WebSocket
transport alone: the row the goals are judged against) and as a page that makes
new Clients for every match (socket.io's default transport, long-polling first).
Both load generators follow one protocol (see their docstrings): M matches at
once, two seats each, each seat moving at random when pushed its turn, finished
matches replaced.

Measured in interleaved rounds (the order of the sides rotates each round), at
M = 1, 32 and 256: moves/s, the move latency (one seat's submit to the other
seat's receipt of the new state; percentiles of every move of every round pooled),
each server's and each load generator's CPU time per move and share of a core;
then each server's memory (RSS) with 1,000 live matches, each with both seats
connected and a move played. Each server runs on one core and its load generator
on another (``taskset``), when the machine has two; a round in which a load
generator, not its server, used most of its core is flagged: its side's figures
are then the client's limit, not the server's.

    python benchmarks/versus.py                     # as run.py versus does
    python benchmarks/versus.py --quick --sizes 32
    python benchmarks/versus.py --before /tmp/old    # also the server of another tree

``--before DIR`` adds a side: ``gameweave_http`` as the tree ``DIR`` has it (e.g.
``git archive main adapters | tar -x -C DIR``), played by the same client,
interleaved with the rest, for before/after figures measured side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
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
from common import BENCH_LIMITS, PY, Goal, Section, Server, Settings, free_port, git_commit, say

HERE = Path(__file__).resolve().parent
BGIO = HERE / "bgio"
TICTACTOE = HERE / "tictactoe"
#: The matches played at once.
SIZES = (1, 32, 256)
#: The live matches of the memory measurement.
HELD = 1000
#: The goal on the server's CPU per move: at most this share of boardgame.io's (its
#: kept clients) at 32 and 256 matches (issue 40).
CPU_GOAL = 0.8
#: A load generator whose process used this share of a core (or more) over a
#: round was the bottleneck of that round, not the server.
CLIENT_BOUND = 0.9


class Missing(RuntimeError):
    """Node, npm or boardgame.io is not there (one line saying which)."""


def node() -> str:
    """The ``node`` executable, boardgame.io installed beside it (``make bench-bgio``)."""
    found = shutil.which("node")
    if found is None:
        raise Missing("node is not installed: the boardgame.io side needs Node.js and npm")
    if not (BGIO / "node_modules" / "boardgame.io" / "package.json").exists():
        raise Missing(
            "boardgame.io is not installed in benchmarks/bgio/node_modules: run make bench-bgio"
        )
    return found


def versions(node_exe: str | None) -> dict[str, str]:
    def npm_version(name: str) -> str:
        if node_exe is None:
            return "-"
        data = json.loads((BGIO / "node_modules" / name / "package.json").read_text())
        return str(data["version"])

    import importlib.metadata as md

    return {
        "node": subprocess.run(
            [node_exe, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if node_exe is not None
        else "-",
        "boardgame.io": npm_version("boardgame.io"),
        "socket.io": npm_version("socket.io"),
        "koa": npm_version("koa"),
        "gameweave": md.version("gameweave"),
        "uvicorn": md.version("uvicorn"),
        "starlette": md.version("starlette"),
        "python": sys.version.split()[0],
    }


def plugin_path(tmp: Path) -> str:
    """A PYTHONPATH on which the server finds the tic-tac-toe title through an entry
    point: the title's folder and a throw-away ``dist-info`` naming it (nothing is
    installed into any environment)."""
    info = tmp / "site" / "gameweave_tictactoe-1.0.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: gameweave-tictactoe\nVersion: 1.0.0\n"
    )
    (info / "entry_points.txt").write_text("[gameweave]\ntictactoe = gameweave_tictactoe\n")
    return os.pathsep.join([str(tmp / "site"), str(TICTACTOE)])


def pinning() -> tuple[list[str], list[str]]:
    """The command prefixes that put a server on one core and its load generator on
    another (``taskset``), or none on a one-core machine or without taskset."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2 or shutil.which("taskset") is None:
        return [], []
    return ["taskset", "-c", str(cores[0])], ["taskset", "-c", str(cores[1])]


@attrs.frozen
class Side:
    """One contender: how its server starts and how its load generator runs."""

    key: str
    name: str
    start: Callable[[Path, str], Server]
    load: list[str]
    extra: dict[str, Any] = attrs.field(factory=dict)
    #: Judged against: the goals compare Gameweave with this side.
    reference: bool = False


def gameweave_side(
    key: str, name: str, pin: list[str], load: list[str], tree: Path | None, transport: str
) -> Side:
    """``gameweave_http.server`` serving only tic-tac-toe, with the benchmarks' limits
    (every client comes from one address) and its default store; from ``tree``
    (its ``adapters`` folder first on the path) when given. Its seats play on the
    ``transport`` the load generator is told (``socket`` or ``stream``)."""

    def start(tmp: Path, label: str) -> Server:
        port = free_port()
        path = [str(tree / "adapters")] if tree is not None else []
        env = {
            "GAMEWEAVE_LIMITS": BENCH_LIMITS,
            "GAMEWEAVE_LOAD_PLUGINS": "tictactoe",
            "PYTHONPATH": os.pathsep.join([*path, plugin_path(tmp)]),
        }
        return Server(
            [*pin, PY, "-m", "gameweave_http.server", str(port), str(tmp / f"{label}.sqlite3")],
            port,
            label,
            tmp / f"{label}.log",
            env=env,
        )

    load_cmd = [*load, PY, str(HERE / "versus_loadgen.py")]
    return Side(key, name, start, load_cmd, {"transport": transport})


def bgio_side(
    key: str, name: str, node_exe: str, pin: list[str], load: list[str], clients: str
) -> Side:
    """boardgame.io's server, in production mode as deployed (no console log per
    move), played by its ``Client`` in the ``clients`` setup of ``bgio/loadgen.js``."""

    def start(tmp: Path, label: str) -> Server:
        port = free_port()
        return Server(
            [*pin, node_exe, str(BGIO / "server.js"), str(port)],
            port,
            label,
            tmp / f"{label}.log",
            env={"NODE_ENV": "production"},
        )

    return Side(
        key,
        name,
        start,
        [*load, node_exe, str(BGIO / "loadgen.js")],
        {"clients": clients},
        reference=clients == "kept",
    )


def load(cmd: list[str], cfg: dict[str, Any], timeout: float) -> dict[str, Any]:
    done = subprocess.run(
        [*cmd, json.dumps(cfg)],
        cwd=HERE,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NODE_ENV": "production"},
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1]
        raise RuntimeError(f"{Path(cmd[-1]).name} failed: {tail}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    # A round in which no move got through (seen on boardgame.io at M = 256: every
    # replacement match's clients waiting for their first state) counts as 0 moves/s,
    # and the table says how many rounds that was.
    return out


def hold(cmd: list[str], server: Server, n: int, extra: dict[str, Any]) -> dict[str, Any]:
    """The server's RSS idle, then with ``n`` live matches held by ``cmd``."""
    time.sleep(1.0)  # let start-up settle
    idle = server.rss()
    proc = subprocess.Popen(
        [*cmd, json.dumps({"port": server.port, "hold": n, **extra})],
        cwd=HERE,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "NODE_ENV": "production"},
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{Path(cmd[-1]).name} could not hold {n} matches")
        told = json.loads(line)
        time.sleep(1.0)  # the last matches' streams settle
        held = server.rss()
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"idle": idle, "held": held, "matches": told["held"]}


def sides_for(before: Path | None, pin: bool = True, bgio: bool = True) -> list[Side]:
    """The contenders: Gameweave (and the server of ``before``), boardgame.io with
    its kept clients (the reference) and with new clients per match (``bgio``)."""
    servers, loads = pinning() if pin else ([], [])
    sides = [
        gameweave_side("gameweave", "Gameweave (seat socket)", servers, loads, None, "socket"),
        gameweave_side(
            "gameweave-stream", "Gameweave (event stream and POST)", servers, loads, None, "stream"
        ),
    ]
    if before is not None:
        # The tree's own way of playing: the seat socket where its server has one.
        has_socket = (before / "adapters" / "gameweave_http" / "sockets.py").exists()
        transport = "socket" if has_socket else "stream"
        name = f"Gameweave from {before} ({'seat socket' if has_socket else 'event stream'})"
        sides.append(gameweave_side("before", name, servers, loads, before, transport))
    if not bgio:
        return sides
    node_exe = node()
    sides += [
        bgio_side(
            "bgio",
            "boardgame.io, kept clients (WebSocket)",
            node_exe,
            servers,
            loads,
            "kept",
        ),
        bgio_side(
            "bgio-default",
            "boardgame.io, new clients per match (default transport)",
            node_exe,
            servers,
            loads,
            "default",
        ),
    ]
    return sides


def measure(
    s: Settings,
    sides: list[Side],
    sizes: tuple[int, ...],
    memory_sides: tuple[str, ...],
    profile_always: bool = False,
) -> dict[str, Any]:
    """Every round of every side and size, interleaved; then the memory of
    ``memory_sides``. Returns the raw results."""
    seconds = s.server_seconds
    warm = {1: 1.0, 32: 1.0, 256: 3.0} if not s.quick else {1: 0.5, 32: 0.5, 256: 2.0}
    tmp = Path(tempfile.mkdtemp(prefix="gameweave-versus-"))
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    profile = None
    by_key = {side.key: side for side in sides}
    machine = H.machine()
    try:
        servers: dict[str, Server] = {}
        try:
            for side in sides:
                servers[side.key] = side.start(tmp, side.key)

            def one(side: Side, m: int, r: int) -> dict[str, Any]:
                server = servers[side.key]
                cfg = {
                    "port": server.port,
                    "matches": m,
                    "seconds": seconds,
                    "warmup": warm[m],
                    "seed": r,
                    "server_pid": server.proc.pid,
                    "clock_ticks": os.sysconf("SC_CLK_TCK"),
                    "keep_latencies": True,
                    **side.extra,
                }
                return load(side.load, cfg, timeout=seconds + warm[m] + 120)

            for m in sizes:  # a discarded warm-up round
                for side in sides:
                    one(side, m, 99)
            for r in range(s.server_rounds):
                for m in sizes:
                    shift = (r + m) % len(sides)
                    for side in sides[shift:] + sides[:shift]:
                        results.setdefault((side.key, m), []).append(one(side, m, r))
                say(
                    f"versus round {r + 1}/{s.server_rounds}: "
                    + "; ".join(
                        f"M={m} "
                        + ", ".join(
                            f"{side.key} {rate(results[(side.key, m)][-1]):,.0f}" for side in sides
                        )
                        for m in sizes
                    )
                    + " moves/s"
                )
            # Where a move's CPU goes, always: the benchmark page says it (issue 40).
            profiled = tuple(m for m in sizes if m > 1) or sizes
            if profiled:
                profile = profile_ours(
                    servers["gameweave"], by_key["gameweave"].load, seconds, profiled, tmp
                )
        finally:
            for server in servers.values():
                server.stop()
        n = HELD if not s.quick else 200
        memory = {}
        for key in memory_sides:
            side = by_key[key]
            server = side.start(tmp, f"{key}-memory")
            try:
                memory[key] = hold(side.load, server, n, side.extra)
            finally:
                server.stop()
            say(
                f"versus memory: {key} idle {memory[key]['idle']['VmRSS'] / 2**20:.0f} MiB, "
                f"{n} live matches {memory[key]['held']['VmRSS'] / 2**20:.0f} MiB"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    machine["loadavg_at_end"] = H.machine()["loadavg_at_start"]
    return {
        "results": results,
        "memory": memory,
        "profile": profile,
        "warm": warm,
        "machine": machine,
    }


def shared(machine: dict[str, Any]) -> bool:
    """Whether other work shared the machine (a one-minute load average over 1)."""
    loads = [machine.get(k, "?").split()[0] for k in ("loadavg_at_start", "loadavg_at_end")]
    return any(x != "?" and float(x) > 1.0 for x in loads)


def div(a: float, b: float) -> float:
    """``a / b``, infinite when ``b`` is 0 (a side that made no move at all)."""
    return a / b if b else float("inf")


def rate(run: dict[str, Any]) -> float:
    return float(run["moves"]) / float(run["wall"])


def pooled(runs: list[dict[str, Any]], q: float) -> float:
    """The ``q`` percentile of the latencies of every move of ``runs``."""
    lat = [x for r in runs for x in r["latencies"]]
    return float(H.percentile(lat, q)) if lat else float("inf")


def per_move(runs: list[dict[str, Any]], key: str) -> float:
    """CPU ms per move (``key``: ``server_cpu`` or ``client_cpu``), the median over
    the rounds that made moves."""
    made = [r for r in runs if r["moves"]]
    return statistics.median(1000 * r[key] / r["moves"] for r in made) if made else 0.0


def share(runs: list[dict[str, Any]], key: str) -> float:
    """The median share of a core ``key``'s process used over a round."""
    return statistics.median(r[key] / r["wall"] for r in runs)


def profile_ours(
    server: Server, cmd: list[str], seconds: float, sizes: tuple[int, ...], tmp: Path
) -> dict[str, Any] | None:
    """py-spy on the Gameweave server while each of ``sizes`` matches play (every
    thread that is running, idle ones left out: where its CPU goes), with the
    server's CPU per move over the same load: the share of each kind of work
    (:func:`spy.categorise`) and its microseconds per move, and the functions
    with the most samples, by size."""
    import peers
    import spy

    seconds = max(seconds, 5.0)
    out: dict[str, Any] = {"seconds": seconds, "sizes": {}}
    for m in sizes:
        path = tmp / f"spy-versus-{m}.txt"
        proc = spy.start(peers.py_spy(), server.proc.pid, seconds + 2, path)
        try:
            time.sleep(0.3)
            cfg = {
                "port": server.port,
                "matches": m,
                "seconds": seconds,
                "warmup": 1.0,
                "seed": 7,
                "server_pid": server.proc.pid,
            }
            ran = load(cmd, cfg, 300)
        finally:
            failed = spy.finish(proc, seconds, path)
        if failed:
            say(f"versus: {failed}")
            return None
        cpu_us = 1e6 * ran["server_cpu"] / ran["moves"] if ran["moves"] else 0.0
        found: dict[str, Any] = spy.summarise(path, drop_idle=True)
        found.update(spy.per_unit(spy.categorise(path), cpu_us), moves=ran["moves"])
        out["sizes"][str(m)] = found
    return out


def profile_md(profile: dict[str, Any]) -> list[str]:
    """The profile of :func:`profile_ours` as markdown: where each microsecond of a
    move goes, by kind of work, then the functions with the most samples."""
    import spy

    sizes = profile["sizes"]
    head, rows = spy.kinds_table({f"M = {m}": found for m, found in sizes.items()}, "move")
    biggest = max(sizes, key=int)
    found = sizes[biggest]
    return [
        "",
        "Where each microsecond of a Gameweave move goes: the server sampled by py-spy "
        f"at 100 Hz for {profile['seconds']:.0f} s at each number of matches (every "
        "thread while it runs on a core, idle waits left out; "
        + ", ".join(f"{f['kind_samples']:,} samples at M = {m}" for m, f in sizes.items())
        + "), each sample counted for the first kind of work one of its frames belongs "
        "to (`benchmarks/spy.py`, `KINDS`: a socket write made while sending an event "
        "counts as a write), and the shares times the server's CPU per move over the "
        "same load (the profiled runs, not the rounds above, and py-spy's sampling "
        "disturbs them a little). Payloads are built once per change of a match and "
        "seat, so twice per move (the mover's reply, the same bytes as its own event, "
        "and the other seat's event); a new match (one per five moves or so) counts "
        "in each kind: its setup under rules, its rows under the store.",
        "",
        H.md_table(head, rows),
        "",
        f"The functions with the most samples at M = {biggest}, callees included, then "
        "the innermost frames:",
        "",
        H.md_table(
            ["Function (with callees)", "share"],
            [[f"`{k}`", f"{v:.0%}"] for k, v in found["inclusive"][:12]],
        ),
        "",
        H.md_table(
            ["Innermost frame", "share"],
            [[f"`{k}`", f"{v:.0%}"] for k, v in found["leaves"][:10]],
        ),
    ]


def report(
    s: Settings,
    vers: dict[str, str],
    sides: list[Side],
    measured: dict[str, Any],
    sizes: tuple[int, ...],
    pinned: bool,
) -> dict[str, Any]:
    """The section's markdown, goals and raw figures."""
    results = measured["results"]
    memory = measured["memory"]
    profile = measured["profile"]
    machine = measured["machine"]
    warm = measured["warm"]

    def rates(key: str, m: int) -> list[float]:
        return [rate(r) for r in results[(key, m)]]

    def stalled(key: str, m: int) -> int:
        # Rounds under a twentieth of the side's median: the clients stood waiting.
        floor = statistics.median(rates(key, m)) / 20
        return sum(1 for x in rates(key, m) if x < floor or x == 0)

    def bound(key: str, m: int) -> int:
        return sum(1 for r in results[(key, m)] if r["client_cpu"] / r["wall"] >= CLIENT_BOUND)

    rows = []
    for m in sizes:
        for side in sides:
            runs = results[(side.key, m)]
            notes = []
            if stalled(side.key, m):
                notes.append(f"{stalled(side.key, m)} stalled")
            if bound(side.key, m):
                notes.append(f"**client-bound in {bound(side.key, m)} of {len(runs)}**")
            rows.append(
                [
                    side.name,
                    str(m),
                    H.fmt_rate(statistics.median(rates(side.key, m))),
                    H.fmt_range(rates(side.key, m)),
                    f"{pooled(runs, 50) * 1000:.1f} ms",
                    f"{pooled(runs, 99) * 1000:.1f} ms",
                    f"{div(m, statistics.median(rates(side.key, m))) * 1000:.0f} ms",
                    f"{per_move(runs, 'server_cpu'):.2f}",
                    f"{per_move(runs, 'client_cpu'):.2f}",
                    f"{share(runs, 'server_cpu'):.2f}",
                    f"{share(runs, 'client_cpu'):.2f}",
                    "; ".join(notes),
                ]
            )
    where = (
        "each server pinned to one core and its load generator to the other (`taskset`)"
        if pinned
        else "servers and load generators not pinned"
    )
    body = [
        f"Measured on {machine.get('date', '?')} at commit {machine.get('commit', '?')} by "
        f"`{machine.get('command', 'python benchmarks/run.py versus')}` "
        f"(`make bench-bgio` installs boardgame.io from `benchmarks/bgio/package-lock.json`) "
        f"on {machine['nproc']} cores ({machine['cpu']}, {machine['memory']}), {where}; load "
        f"average {machine['loadavg_at_start']} at its start and "
        f"{machine['loadavg_at_end']} at its end"
        + (
            " (other work shared the machine: the servers and their clients competed "
            "with it for the cores, so read the ratios, measured side by side, more than "
            "the rates)."
            if shared(machine)
            else "."
        ),
        "",
        H.md_table(
            [
                "Server, client",
                "M",
                "moves/s (median)",
                "range over rounds",
                "latency p50",
                "p99",
                "move cycle (M / moves/s)",
                "server CPU ms / move",
                "client CPU ms / move",
                "server CPU share",
                "client CPU share",
                "notes",
            ],
            rows,
        ),
        "",
    ]
    reference = next((side for side in sides if side.reference), sides[-1])
    others = [side for side in sides if side.key != "gameweave"]
    goals: list[tuple[str, str, str, bool]] = []
    ratio_rows = []
    raw_ratios: dict[str, dict[str, float]] = {}
    for m in sizes:
        ours = results[("gameweave", m)]
        for other in others:
            theirs = results[(other.key, m)]
            ratio = div(statistics.median(map(rate, ours)), statistics.median(map(rate, theirs)))
            paired = [
                a / b for a, b in zip(map(rate, ours), map(rate, theirs), strict=True) if b
            ] or [float("inf")]
            p99 = div(pooled(ours, 99), pooled(theirs, 99))
            cpu = div(per_move(ours, "server_cpu"), per_move(theirs, "server_cpu"))
            raw_ratios[f"{other.key}/{m}"] = {"moves": ratio, "p99": p99, "server_cpu": cpu}
            judged = other.reference

            def against(text: str, goal: str, met: bool, judged: bool = judged) -> str:
                # The goal beside the figure it judges (the reference row only).
                return f"{text} (goal {goal}: {'met' if met else '**missed**'})" if judged else text

            ratio_rows.append(
                [
                    other.name,
                    str(m),
                    against(H.fmt_ratio(ratio), ">= 1.0x", ratio >= 1.0, judged and m > 1),
                    H.fmt_range(paired, H.fmt_ratio),
                    against(f"{p99:.2f}x", "<= 1.0x", p99 <= 1.0),
                    against(f"{cpu:.2f}x", f"<= {CPU_GOAL}x", cpu <= CPU_GOAL, judged and m > 1),
                ]
            )
            if other is not reference:
                continue
            if m in (32, 256):
                goals.append(
                    (
                        "Versus",
                        f">= 1.0x boardgame.io moves/s at M = {m} (its kept clients)",
                        f"{ratio:.2f}x ({statistics.median(map(rate, ours)):,.0f} vs "
                        f"{statistics.median(map(rate, theirs)):,.0f})",
                        ratio >= 1.0,
                    )
                )
            goals.append(
                (
                    "Versus",
                    f"p99 move latency <= boardgame.io's at M = {m} (its kept clients)",
                    f"{pooled(ours, 99) * 1000:.1f} ms vs {pooled(theirs, 99) * 1000:.1f} ms",
                    p99 <= 1.0,
                )
            )
            if m in (32, 256):
                goals.append(
                    (
                        "Versus",
                        f"server CPU per move <= {CPU_GOAL}x boardgame.io's at M = {m} (its "
                        "kept clients)",
                        f"{cpu:.2f}x ({per_move(ours, 'server_cpu'):.2f} ms vs "
                        f"{per_move(theirs, 'server_cpu'):.2f} ms)",
                        cpu <= CPU_GOAL,
                    )
                )
    body += [
        "Gameweave against each other side, side by side (the goals are judged against "
        "boardgame.io with its kept clients, at 32 and 256 matches for moves/s and CPU):",
        "",
        H.md_table(
            [
                "Against",
                "M",
                "moves/s, Gameweave / other",
                "per-round range",
                "p99 latency ratio",
                "server CPU per move ratio",
            ],
            ratio_rows,
        ),
        "",
    ]
    per = {
        key: (memory[key]["held"]["VmRSS"] - memory[key]["idle"]["VmRSS"]) / memory[key]["matches"]
        for key in memory
    }
    names = {side.key: side.name for side in sides}
    if memory:
        held = next(iter(memory.values()))["matches"]
        body += [
            H.md_table(
                ["Server", "RSS idle", f"RSS with {held:,} live matches", "per live match"],
                [
                    [
                        names[key],
                        f"{memory[key]['idle']['VmRSS'] / 2**20:.0f} MiB",
                        f"{memory[key]['held']['VmRSS'] / 2**20:.0f} MiB",
                        f"{per[key] / 1024:.1f} KiB",
                    ]
                    for key in memory
                ],
            ),
            "",
        ]
    if "gameweave" in per and reference.key in per and reference.key != "gameweave":
        body += [
            f"Memory per live match, Gameweave / {reference.name}: "
            f"{per['gameweave'] / per[reference.key]:.2f}x (goal <= 1.0x: "
            f"{'met' if per['gameweave'] <= per[reference.key] else '**missed**'}).",
            "",
        ]
        goals.append(
            (
                "Versus",
                "memory per live match <= boardgame.io's",
                f"{per['gameweave'] / 1024:.1f} KiB vs {per[reference.key] / 1024:.1f} KiB",
                per["gameweave"] <= per[reference.key],
            )
        )
    body.append(
        f"The same game, tic-tac-toe, on both servers on 127.0.0.1: Gameweave "
        f"{vers['gameweave']} (`gameweave_http` on uvicorn {vers['uvicorn']}, Python "
        f"{vers['python']}, only the benchmark's title `benchmarks/tictactoe` loaded) with "
        "its default durable store (SQLite in WAL mode, `synchronous=NORMAL`, every move "
        f"committed before its reply); boardgame.io {vers['boardgame.io']} (Koa "
        f"{vers['koa']}, socket.io {vers['socket.io']}, Node {vers['node']}, "
        "`NODE_ENV=production`) with its default in-memory store, which keeps nothing "
        "across a restart. Each side is driven by its own client: Gameweave's seats as "
        "its browser client plays (`benchmarks/versus_loadgen.py`), in two setups: on a "
        "*seat socket* each (one WebSocket carrying the seat's payloads and its moves, "
        "the page's way where WebSockets work; the goals are judged on this row), and "
        "with an *event stream* each and a POST per move (the page's way without "
        "WebSockets); boardgame.io's by its `Client` with the "
        "`SocketIO` transport and its `LobbyClient` (`benchmarks/bgio/loadgen.js`), in "
        "two setups: *kept clients*, boardgame.io at its best (each place's two Clients "
        "made once on the WebSocket transport and moved to each new match with "
        "`updateCredentials` and `updateMatchID`; the goals are judged against this "
        "row), and *new clients per match* (socket.io's default transport, which starts "
        "with HTTP long-polling and then upgrades). M matches at once, two seats each; "
        "a seat pushed its turn marks a random empty cell; a finished match is replaced "
        "at once (on boardgame.io: create and two joins through its lobby API; on "
        "Gameweave: one create, then two seat sockets or event streams). A match's first move waits "
        "until both seats have their first state. Latency: from one seat's submit to "
        "the other seat's receipt of the state the move made, every move of every round "
        "pooled. The move cycle is how long one match takes per move (M over the "
        "moves/s): besides the latency it holds the seats' reaction to their turn and, "
        "shared among a match's moves, the setting up of each new match. A *stalled* "
        "round made under a twentieth of its side's median; it counts at its rate in "
        f"the median. A *client-bound* round is one whose load generator used "
        f"{CLIENT_BOUND:.0%} of a core or more: that side was held back by its client, "
        "so its figures say less about its server. Each "
        f"round plays {s.server_seconds:.0f} s per side and M after a warm-up of "
        f"{warm[min(warm)]:.1f} s ({warm[max(warm)]:.1f} s at M = {max(warm)}) that is "
        f"not counted; {s.server_rounds} rounds, the sides' order rotating, after a "
        "discarded round. CPU per move and CPU share are each process's own CPU time "
        "(the server's `/proc/<pid>/stat`, the load generator's own) over the counted "
        "window; a share is of one core. boardgame.io's client runs the game's reducer "
        "itself (optimistic updates). Memory: a fresh server of each, its RSS idle and "
        "then with the live matches, each with both seats connected and one move played "
        "(boardgame.io's seats on the WebSocket transport)."
    )
    if profile:
        body += profile_md(profile)
    raw = {
        "versions": vers,
        "machine": machine,
        "sides": {side.key: side.name for side in sides},
        "runs": {
            f"{key}/{m}": [{k: v for k, v in r.items() if k != "latencies"} for r in runs]
            for (key, m), runs in results.items()
        },
        "latency_ms": {
            f"{key}/{m}": [pooled(runs, 50) * 1000, pooled(runs, 99) * 1000]
            for (key, m), runs in results.items()
        },
        "ratios": raw_ratios,
        "memory": memory,
        "profile": profile,
    }
    return {"body": body, "goals": goals, "raw": raw}


def run(
    s: Settings,
    before: Path | None = None,
    sizes: tuple[int, ...] = SIZES,
    pin: bool = True,
    memory: bool = True,
    profile: bool = False,
    command: str = "python benchmarks/run.py versus",
    bgio: bool = True,
    skip: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The comparison; returns ``{"body": [markdown lines], "goals": [...], "raw": {...}}``."""
    vers = versions(node() if bgio else None)
    say(f"versus: {vers}")
    sides = [side for side in sides_for(before, pin, bgio) if side.key not in skip]
    keys = tuple(side.key for side in sides if side.key != "bgio-default")
    measured = measure(s, sides, sizes, keys if memory else (), profile)
    measured["machine"].update(
        date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        commit=git_commit(),
        command=command,
    )
    return report(s, vers, sides, measured, sizes, bool(pinning()[0]) and pin)


def bench(s: Settings, ctx: dict[str, Any]) -> Section:
    """``run.py versus``: the server against boardgame.io's on tic-tac-toe: moves/s
    and move latency at 1, 32 and 256 matches, CPU per move, memory with 1,000 live
    matches."""
    sec = Section("versus", "7. The server against boardgame.io, on tic-tac-toe")
    out = run(s, profile=ctx.get("profile_always", False))
    sec.body += out["body"]
    sec.goals += [Goal(*g) for g in out["goals"]]
    sec.raw = out["raw"]
    return sec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter rounds")
    parser.add_argument("--rounds", type=int, help="rounds (default 5; 2 with --quick)")
    parser.add_argument("--seconds", type=float, help="counted seconds per round and side")
    parser.add_argument("--sizes", default="1,32,256", help="matches at once, e.g. 32,256")
    parser.add_argument("--before", type=Path, help="also serve gameweave_http from this tree")
    parser.add_argument("--no-pin", action="store_true", help="do not pin servers to cores")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    parser.add_argument("--profile", action="store_true", help="py-spy the server at the end")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument(
        "--no-bgio", action="store_true", help="only Gameweave and --before (an A/B of builds)"
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        choices=("bgio-default",),
        help="leave a side out (boardgame.io with new clients per match)",
    )
    args = parser.parse_args(argv)
    s = Settings.make(args.quick, args.rounds)
    if args.seconds:
        s = attrs.evolve(s, server_seconds=args.seconds)
    sizes = tuple(int(x) for x in args.sizes.split(","))
    command = "python benchmarks/versus.py " + " ".join(sys.argv[1:] if argv is None else argv)
    out = run(
        s,
        args.before.resolve() if args.before else None,
        sizes,
        pin=not args.no_pin,
        memory=not args.no_memory,
        profile=args.profile,
        command=command.strip(),
        bgio=not args.no_bgio,
        skip=tuple(args.skip),
    )
    print("\n".join(out["body"]))
    print()
    for goal in out["goals"]:
        print(f"{'met' if goal[3] else 'MISSED'}: {goal[1]}: {goal[2]}")
    if args.json:
        args.json.write_text(json.dumps(out["raw"], indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
