"""The server side by side with boardgame.io's, on the same game (``run.py versus``).

Tic-tac-toe twice: ``benchmarks/tictactoe`` (a Gameweave title, served by
``gameweave_http`` with its default durable SQLite store) and ``benchmarks/bgio``
(a boardgame.io 0.50.2 game, served by boardgame.io's own Koa + socket.io server
with its default in-memory store). Each is played by its own client: Gameweave's
seats as the browser client plays (``versus_loadgen.py``: an event stream per seat,
a POST per move), boardgame.io's with its ``Client`` and ``SocketIO`` transport
(``bgio/loadgen.js``). Both load generators follow one protocol (see their
docstrings): M matches at once, two seats each, each seat moving at random when
pushed its turn, finished matches replaced.

Measured in interleaved rounds (the order of the two servers rotates each round),
at M = 1, 32 and 256: moves/s, the move latency (one seat's submit to the other
seat's receipt of the new state; percentiles of every move of every round pooled),
and the server's and the client's CPU time per move; then each server's memory
(RSS) with 1,000 live matches, each with both seats connected and a move played.
"""

from __future__ import annotations

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

HERE = Path(__file__).resolve().parent
BGIO = HERE / "bgio"
TICTACTOE = HERE / "tictactoe"
#: The matches played at once.
SIZES = (1, 32, 256)
#: The live matches of the memory measurement.
HELD = 1000


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


def versions(node_exe: str) -> dict[str, str]:
    def npm_version(name: str) -> str:
        data = json.loads((BGIO / "node_modules" / name / "package.json").read_text())
        return str(data["version"])

    import importlib.metadata as md

    return {
        "node": subprocess.run(
            [node_exe, "--version"], capture_output=True, text=True, check=True
        ).stdout.strip(),
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


def start_ours(R: Any, tmp: Path, label: str) -> Any:
    """``gameweave_http.server`` serving only tic-tac-toe, with the benchmarks' limits
    (every client comes from one address) and its default store."""
    port = R.free_port()
    env = {
        "GAMEWEAVE_LIMITS": R.BENCH_LIMITS,
        "GAMEWEAVE_LOAD_PLUGINS": "tictactoe",
        "PYTHONPATH": plugin_path(tmp),
    }
    return R.Server(
        [R.PY, "-m", "gameweave_http.server", str(port), str(tmp / f"{label}.sqlite3")],
        port,
        label,
        tmp / f"{label}.log",
        env=env,
    )


def start_bgio(R: Any, node_exe: str, tmp: Path, label: str) -> Any:
    """boardgame.io's server, in production mode as deployed (no console log per move)."""
    port = R.free_port()
    return R.Server(
        [node_exe, str(BGIO / "server.js"), str(port)],
        port,
        label,
        tmp / f"{label}.log",
        env={"NODE_ENV": "production"},
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


def hold(cmd: list[str], server: Any, n: int) -> dict[str, Any]:
    """The server's RSS idle, then with ``n`` live matches held by ``cmd``."""
    time.sleep(1.0)  # let start-up settle
    idle = server.rss()
    proc = subprocess.Popen(
        [*cmd, json.dumps({"port": server.port, "hold": n})],
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


def run(s: Any, say: Callable[[str], None]) -> dict[str, Any]:
    """The comparison; returns ``{"body": [markdown lines], "goals": [...], "raw": {...}}``."""
    import harness as H
    import run as R

    node_exe = node()
    vers = versions(node_exe)
    machine = H.machine()
    machine["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    machine["commit"] = R.git_commit()
    say(f"versus: {vers}")
    ours_cmd = [R.PY, str(HERE / "versus_loadgen.py")]
    bgio_cmd = [node_exe, str(BGIO / "loadgen.js")]
    seconds = s.server_seconds
    warm = {1: 1.0, 32: 1.0, 256: 3.0} if not s.quick else {1: 0.5, 32: 0.5, 256: 2.0}
    tmp = Path(tempfile.mkdtemp(prefix="gameweave-versus-"))
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    profile = None
    try:
        ours = start_ours(R, tmp, "gameweave")
        bgio = start_bgio(R, node_exe, tmp, "bgio")
        sides = {"gameweave": (ours, ours_cmd), "bgio": (bgio, bgio_cmd)}
        try:

            def one(side: str, m: int, r: int) -> dict[str, Any]:
                server, cmd = sides[side]
                cfg = {
                    "port": server.port,
                    "matches": m,
                    "seconds": seconds,
                    "warmup": warm[m],
                    "seed": r,
                    "server_pid": server.proc.pid,
                    "clock_ticks": os.sysconf("SC_CLK_TCK"),
                    "keep_latencies": True,
                }
                return load(cmd, cfg, timeout=seconds + warm[m] + 120)

            for m in SIZES:  # a discarded warm-up round
                for side in sides:
                    one(side, m, 99)
            for r in range(s.server_rounds):
                for m in SIZES:
                    order = list(sides) if (r + m) % 2 == 0 else list(sides)[::-1]
                    for side in order:
                        results.setdefault((side, m), []).append(one(side, m, r))
                say(
                    f"versus round {r + 1}/{s.server_rounds}: "
                    + ", ".join(
                        f"M={m} {rate(results[('gameweave', m)][-1]):,.0f} vs "
                        f"{rate(results[('bgio', m)][-1]):,.0f} moves/s"
                        for m in SIZES
                    )
                )
            missed = missed_at(H, results)
            if missed:
                profile = profile_ours(R, ours, ours_cmd, seconds, max(missed), tmp, say)
        finally:
            ours.stop()
            bgio.stop()
        n = HELD if not s.quick else 200
        memory = {}
        for side, start, cmd in (
            ("gameweave", lambda: start_ours(R, tmp, "gameweave-memory"), ours_cmd),
            ("bgio", lambda: start_bgio(R, node_exe, tmp, "bgio-memory"), bgio_cmd),
        ):
            server = start()
            try:
                memory[side] = hold(cmd, server, n)
            finally:
                server.stop()
            say(
                f"versus memory: {side} idle {memory[side]['idle']['VmRSS'] / 2**20:.0f} MiB, "
                f"{n} live matches {memory[side]['held']['VmRSS'] / 2**20:.0f} MiB"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    machine["loadavg_at_end"] = H.machine()["loadavg_at_start"]
    return report(H, s, vers, results, memory, profile, warm, machine)


def shared(machine: dict[str, Any]) -> bool:
    """Whether other work shared the machine (a one-minute load average over 1)."""
    loads = [machine.get(k, "?").split()[0] for k in ("loadavg_at_start", "loadavg_at_end")]
    return any(x != "?" and float(x) > 1.0 for x in loads)


def div(a: float, b: float) -> float:
    """``a / b``, infinite when ``b`` is 0 (a side that made no move at all)."""
    return a / b if b else float("inf")


def rate(run: dict[str, Any]) -> float:
    return float(run["moves"]) / float(run["wall"])


def missed_at(H: Any, results: dict[tuple[str, int], list[dict[str, Any]]]) -> list[int]:
    """The numbers of matches at which a speed goal was missed (decides the profile)."""

    def p99(side: str, m: int) -> float:
        lat = [x for r in results[(side, m)] for x in r["latencies"]]
        return float(H.percentile(lat, 99)) if lat else float("inf")

    return [
        m
        for m in SIZES
        if p99("gameweave", m) > p99("bgio", m)
        or (
            m > 1
            and statistics.median(map(rate, results[("gameweave", m)]))
            < statistics.median(map(rate, results[("bgio", m)]))
        )
    ]


def profile_ours(
    R: Any,
    server: Any,
    cmd: list[str],
    seconds: float,
    matches: int,
    tmp: Path,
    say: Callable[[str], None],
) -> dict[str, Any] | None:
    """py-spy on the Gameweave server (the thread holding the GIL) while ``matches``
    matches play."""
    import peers
    import spy

    seconds = max(seconds, 5.0)
    path = tmp / "spy-versus.txt"
    proc = spy.start(peers.py_spy(), server.proc.pid, seconds, path, gil=True)
    try:
        time.sleep(0.3)
        load(cmd, {"port": server.port, "matches": matches, "seconds": seconds, "seed": 7}, 300)
    finally:
        failed = spy.finish(proc, seconds, path)
    if failed:
        say(f"versus: {failed}")
        return None
    out: dict[str, Any] = spy.summarise(path, drop_idle=False)
    out["seconds"] = seconds
    out["matches"] = matches
    return out


def report(
    H: Any,
    s: Any,
    vers: dict[str, str],
    results: dict[tuple[str, int], list[dict[str, Any]]],
    memory: dict[str, dict[str, Any]],
    profile: dict[str, Any] | None,
    warm: dict[int, float],
    machine: dict[str, Any],
) -> dict[str, Any]:
    names = {
        "gameweave": f"Gameweave {vers['gameweave']}",
        "bgio": f"boardgame.io {vers['boardgame.io']}",
    }

    def rates(side: str, m: int) -> list[float]:
        return [rate(r) for r in results[(side, m)]]

    def pooled(side: str, m: int, q: float) -> float:
        lat = [x for r in results[(side, m)] for x in r["latencies"]]
        return float(H.percentile(lat, q)) if lat else float("nan")

    def per_move(side: str, m: int, key: str) -> float:
        # CPU ms per move, the median over the rounds that made moves.
        runs = [r for r in results[(side, m)] if r["moves"]]
        return statistics.median(1000 * r[key] / r["moves"] for r in runs) if runs else 0.0

    def stalled(side: str, m: int) -> int:
        # Rounds under a twentieth of the side's median: the clients stood waiting.
        floor = statistics.median(rates(side, m)) / 20
        return sum(1 for x in rates(side, m) if x < floor or x == 0)

    rows = []
    for m in SIZES:
        for side in ("gameweave", "bgio"):
            rows.append(
                [
                    names[side],
                    str(m),
                    H.fmt_rate(statistics.median(rates(side, m))),
                    H.fmt_range(rates(side, m))
                    + (f" ({stalled(side, m)} stalled)" if stalled(side, m) else ""),
                    f"{pooled(side, m, 50) * 1000:.1f} ms",
                    f"{pooled(side, m, 99) * 1000:.1f} ms",
                    f"{div(m, statistics.median(rates(side, m))) * 1000:.0f} ms",
                    f"{per_move(side, m, 'server_cpu'):.2f}",
                    f"{per_move(side, m, 'client_cpu'):.2f}",
                ]
            )
    body = [
        f"Measured on {machine.get('date', '?')} at commit {machine.get('commit', '?')} by "
        "`python benchmarks/run.py versus` (part of `make bench`; "
        f"`make bench-bgio` installs boardgame.io from `benchmarks/bgio/package-lock.json`) "
        f"on {machine['nproc']} cores ({machine['cpu']}, {machine['memory']}), load "
        f"average {machine['loadavg_at_start']} at its start and "
        f"{machine['loadavg_at_end']} at its end"
        + (
            " (other work shared the machine: the two servers and their clients competed "
            "with it for the cores, so read the ratios, measured side by side, more than "
            "the rates)."
            if shared(machine)
            else "."
        ),
        "",
        H.md_table(
            [
                "Server",
                "M",
                "moves/s (median)",
                "range over rounds",
                "latency p50",
                "p99",
                "move cycle (M / moves/s)",
                "server CPU ms / move",
                "client CPU ms / move",
            ],
            rows,
        ),
        "",
    ]
    goals: list[tuple[str, str, str, bool]] = []
    ratio_rows = []
    raw_ratios = {}
    for m in SIZES:
        ours, theirs = rates("gameweave", m), rates("bgio", m)
        ratio = div(statistics.median(ours), statistics.median(theirs))
        paired = [a / b for a, b in zip(ours, theirs, strict=True) if b] or [float("inf")]
        p99 = div(pooled("gameweave", m, 99), pooled("bgio", m, 99))
        cpu = div(per_move("gameweave", m, "server_cpu"), per_move("bgio", m, "server_cpu"))
        raw_ratios[m] = {"moves": ratio, "p99": p99, "server_cpu": cpu}
        ratio_rows.append(
            [
                str(m),
                H.fmt_ratio(ratio),
                H.fmt_range(paired, H.fmt_ratio),
                f"{p99:.2f}x",
                f"{cpu:.2f}x",
            ]
        )
        if m in (32, 256):
            goals.append(
                (
                    "Versus",
                    f">= 1.0x boardgame.io moves/s at M = {m}",
                    f"{ratio:.2f}x ({statistics.median(ours):,.0f} vs {statistics.median(theirs):,.0f})",
                    ratio >= 1.0,
                )
            )
        goals.append(
            (
                "Versus",
                f"p99 move latency <= boardgame.io's at M = {m}",
                f"{pooled('gameweave', m, 99) * 1000:.1f} ms vs {pooled('bgio', m, 99) * 1000:.1f} ms",
                p99 <= 1.0,
            )
        )
    body += [
        H.md_table(
            [
                "M",
                "moves/s, Gameweave / boardgame.io",
                "per-round range",
                "p99 latency ratio",
                "server CPU per move ratio",
            ],
            ratio_rows,
        ),
        "",
    ]
    per = {
        side: (memory[side]["held"]["VmRSS"] - memory[side]["idle"]["VmRSS"])
        / memory[side]["matches"]
        for side in memory
    }
    mem_rows = [
        [
            names[side],
            f"{memory[side]['idle']['VmRSS'] / 2**20:.0f} MiB",
            f"{memory[side]['held']['VmRSS'] / 2**20:.0f} MiB",
            f"{per[side] / 1024:.1f} KiB",
        ]
        for side in ("gameweave", "bgio")
    ]
    held = memory["gameweave"]["matches"]
    body += [
        H.md_table(
            ["Server", "RSS idle", f"RSS with {held:,} live matches", "per live match"], mem_rows
        ),
        "",
    ]
    goals.append(
        (
            "Versus",
            "memory per live match <= boardgame.io's",
            f"{per['gameweave'] / 1024:.1f} KiB vs {per['bgio'] / 1024:.1f} KiB",
            per["gameweave"] <= per["bgio"],
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
        "its browser client plays (an event stream per seat, a POST per move, "
        "`benchmarks/versus_loadgen.py`), boardgame.io's by its `Client` with the "
        "`SocketIO` transport and its `LobbyClient` (`benchmarks/bgio/loadgen.js`). M "
        "matches at once, two seats each; a seat pushed its turn marks a random empty "
        "cell; a finished match is replaced at once (on boardgame.io: create and two "
        "joins through its lobby API, then two socket.io connections; on Gameweave: one "
        "create, then two event streams). A match's first move waits until both seats "
        "have their first state. Latency: from one seat's submit to the other seat's "
        "receipt of the state the move made, every move of every round pooled. The move "
        "cycle is how long one match takes per move (M over the moves/s): besides the "
        "latency it holds the seats' reaction to their turn and, shared among a match's "
        "moves, the setting up of each new match (creating, joining, connecting). A "
        "*stalled* round made under a twentieth of its side's median; it counts at its "
        "rate in the median. (Seen on boardgame.io at M = 256: every match standing "
        "still for seconds, its last move applied by the mover's own client but neither "
        "confirmed to it nor pushed to the other seat, while the server sat mostly idle; "
        "not explained yet.) Each "
        f"round plays {s.server_seconds:.0f} s per side and M after a warm-up of "
        f"{warm[1]:.1f} s ({warm[256]:.1f} s at M = 256) that is not counted; "
        f"{s.server_rounds} rounds, the servers' order alternating, after a discarded "
        "round. CPU per move is the server process's own CPU time (its "
        "`/proc/<pid>/stat`) and the load generator's, over the counted window: "
        "boardgame.io's client runs the game's reducer itself (optimistic updates), so "
        "on these two shared cores its client costs the server CPU time too. Memory: a "
        "fresh server of each, its RSS idle and then with "
        f"{held:,} matches live, each with both seats connected and one move played."
    )
    if profile:
        body += [
            "",
            f"A goal was missed: where the Gameweave server's time goes under "
            f"{profile['matches']} matches, sampled by py-spy "
            f"(the thread holding the GIL, {profile['samples']:,} samples over "
            f"{profile['seconds']:.0f} s): share of samples under each function, callees "
            "included, then the innermost frames:",
            "",
            H.md_table(
                ["Function (with callees)", "share"],
                [[f"`{k}`", f"{v:.0%}"] for k, v in profile["inclusive"][:10]],
            ),
            "",
            H.md_table(
                ["Innermost frame", "share"],
                [[f"`{k}`", f"{v:.0%}"] for k, v in profile["leaves"][:8]],
            ),
        ]
    raw = {
        "versions": vers,
        "machine": machine,
        "runs": {
            f"{side}/{m}": [{k: v for k, v in r.items() if k != "latencies"} for r in runs]
            for (side, m), runs in results.items()
        },
        "latency_ms": {
            f"{side}/{m}": [pooled(side, m, 50) * 1000, pooled(side, m, 99) * 1000]
            for (side, m) in results
        },
        "ratios": raw_ratios,
        "memory": memory,
        "profile": profile,
    }
    return {"body": body, "goals": goals, "raw": raw}
