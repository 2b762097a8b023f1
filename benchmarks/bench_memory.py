"""Peak resident memory of ``simulate`` and of the server (``run.py memory``)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import harness as H
from common import BIN, Section, Settings, loadgen, our_server, say


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants, now."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    total = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    total += int(line.split()[1]) * 1024
                    break
        except OSError:
            pass
    return total


def peak_tree_rss(cmd: list[str], timeout: float) -> tuple[int, float, str]:
    proc = subprocess.Popen(
        cmd, cwd=tempfile.gettempdir(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    peak = 0
    t0 = time.perf_counter()
    out: list[str] = []
    import threading

    reader = threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else ""))
    reader.start()
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        if time.perf_counter() - t0 > timeout:
            proc.kill()
            raise RuntimeError(f"{' '.join(cmd)} took over {timeout:.0f} s")
        time.sleep(0.05)
    reader.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode})")
    return peak, time.perf_counter() - t0, "".join(out)


def mib(n: float) -> str:
    return f"{n / 1024 / 1024:,.0f} MiB"


def bench_memory(s: Settings, ctx: dict[str, Any]) -> Section:
    """Peak RSS of a 10,000-game simulate and of a server with 1,000 matches."""
    sec = Section("memory", "5. Memory: peak resident set")
    gw = str(BIN / "gameweave")
    rows = []
    for title in ctx["titles"]:
        n = s.memory_games
        peak, wall, out = peak_tree_rss(
            [
                gw,
                "simulate",
                title,
                "--games",
                str(n),
                "--jobs",
                "2",
                "--seed",
                "1",
                "--json",
                "--seat",
                "1=random",
                "--seat",
                "2=random",
            ],
            timeout=900,
        )
        finished = json.loads(out).get("finished")
        if finished != n:
            raise RuntimeError(f"simulate {title} finished {finished} of {n} games")
        rows.append(
            [
                f"`gameweave simulate {title} --games {n} --jobs 2 --seat 1=random --seat "
                "2=random` (process tree)",
                mib(peak),
                f"{wall:.1f} s wall",
            ]
        )
        sec.raw[f"simulate_{title}"] = {"games": n, "peak_tree_rss": peak, "wall": wall}
        say(f"memory: simulate {title} {n} games peak {mib(peak)}")
    tmp = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    server = our_server(tmp, "memory")
    try:
        idle = server.rss()
        m = s.memory_matches
        res = loadgen(
            {
                "target": "gameweave",
                "port": server.port,
                "clients": 1,
                "seconds": 600,
                "create_only": m,
                "title": "house",
                "players": 2,
                "moves_each": 5,
            }
        )
        held = server.rss()
        if res.get("created") != m:
            raise RuntimeError(f"created {res.get('created')} of {m} matches")
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    per = (held["VmRSS"] - idle["VmRSS"]) / m
    rows.append(
        [
            f"`gameweave serve` holding {m:,} live House Job matches (5 actions each)",
            mib(held["VmHWM"]),
            f"idle {mib(idle['VmRSS'])}; {per / 1024:,.1f} KiB per match",
        ]
    )
    sec.raw["server"] = {"matches": m, "idle": idle, "held": held, "per_match": per}
    streams, many = server_streams_and_matches(1500, 5000)
    rows.append(
        [
            f"`gameweave serve` with {streams['streams']:,} open event streams (one match each "
            "of 50, 30 streams a match)",
            mib(streams["held"]["VmRSS"]),
            f"idle {mib(streams['idle']['VmRSS'])}; an action reached its 30 streams in "
            f"{streams['reach_ms']:.0f} ms",
        ]
    )
    rows.append(
        [
            f"`gameweave serve` after {many['created']:,} matches created (default limits: "
            f"at most {many['live_limit']:,} held live)",
            mib(many["after"]["VmRSS"]),
            f"idle {mib(many['idle']['VmRSS'])}; after the first 1,000 "
            f"{mib(many['at_1000']['VmRSS'])}",
        ]
    )
    sec.raw["server_streams"] = streams
    sec.raw["server_many_matches"] = many
    sec.body.append(H.md_table(["Process", "peak RSS", "notes"], rows))
    sec.body.append("")
    sec.body.append(
        "Peak RSS of a `simulate` run is the largest sum over the command's "
        "process tree (parent and workers), sampled every 50 ms; the server's is "
        "its own high-water mark (VmHWM)."
    )
    return sec


def open_streams(port: int, ids: list[str], per_match: int) -> list[socket.socket]:
    """``per_match`` event streams of each match in ``ids``, each past its first event."""
    held = []
    for mid in ids:
        for _ in range(per_match):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.settimeout(30)
            sock.sendall(
                f"GET /api/matches/{mid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            )
            held.append(sock)
    for sock in held:
        seen = b""
        while b"event: payload" not in seen:
            chunk = sock.recv(65536)
            if not chunk:
                raise RuntimeError(f"an event stream was refused: {seen[:200]!r}")
            seen += chunk
    return held


def server_streams_and_matches(streams: int, matches: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's memory with ``streams`` open event streams, and after
    ``matches`` matches were created (default live-match limit)."""
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="gameweave-bench-"))
    per_match = 30
    server = our_server(tmp, "streams")
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
            created = [
                http.post("/api/matches", json={"title": "house", "players": 2}).json()
                for _ in range(streams // per_match)
            ]
            idle = server.rss()
            held = open_streams(server.port, [c["id"] for c in created], per_match)
            with_streams = server.rss()
            # One action, and the time until every stream of its match has its event.
            first = created[0]
            seat = http.get(f"/api/matches/{first['id']}").json()["awaiting"][0]
            token = next(x["token"] for x in first["seats"] if x["seat"] == seat)
            payload = http.get(
                f"/api/matches/{first['id']}", headers={"X-Seat-Token": token}
            ).json()
            started = time.perf_counter()
            r = http.post(
                f"/api/matches/{first['id']}/actions",
                headers={"X-Seat-Token": token},
                json={"version": payload["version"], "action": payload["legal"][0]},
            )
            if r.status_code != 200:
                raise RuntimeError(f"the action was refused: {r.text}")
            mark = f'"version":{payload["version"] + 1}'.encode()
            for sock in held[:per_match]:
                seen = b""
                while mark not in seen:
                    seen += sock.recv(65536)
            reach_ms = (time.perf_counter() - started) * 1000
            for sock in held:
                sock.close()
    finally:
        server.stop()
    say(
        f"memory: server idle {mib(idle['VmRSS'])}, {len(held)} streams "
        f"{mib(with_streams['VmRSS'])}, an action reached 30 streams in {reach_ms:.0f} ms"
    )
    stream_out = {
        "streams": len(held),
        "idle": idle,
        "held": with_streams,
        "reach_ms": reach_ms,
    }
    # Default limits but for the rate of creation (one address creates them all).
    server = our_server(tmp, "matches", "creates_per_minute=10000000")
    try:
        idle = server.rss()
        at_1000: dict[str, int] = {}
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=30) as http:
            for i in range(matches):
                r = http.post("/api/matches", json={"title": "house", "players": 2})
                if r.status_code != 201:
                    raise RuntimeError(f"creating match {i} answered {r.status_code}: {r.text}")
                if i == 999:
                    at_1000 = server.rss()
        after = server.rss()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    say(
        f"memory: server idle {mib(idle['VmRSS'])}, after 1,000 matches "
        f"{mib(at_1000['VmRSS'])}, after {matches:,} {mib(after['VmRSS'])}"
    )
    from gameweave_http.limits import Limits

    many_out = {
        "created": matches,
        "live_limit": Limits().live_matches,
        "idle": idle,
        "at_1000": at_1000,
        "after": after,
    }
    return stream_out, many_out


bench = bench_memory
