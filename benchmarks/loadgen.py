"""A small HTTP/1.1 load generator for loopback servers (asyncio, keep-alive).

Run by ``run.py`` as a subprocess::

    python benchmarks/loadgen.py '{"target": "gameweave", "port": 8123, ...}'

and prints one JSON line of results. It speaks raw HTTP over asyncio streams so that
the client costs as little CPU as possible: on a two-core machine the client and
the server share the cores, and the same client drives both servers.

Targets:

- ``gameweave``: each client creates a House Job (or any title's) match holding
  every seat's token, then plays uniformly random legal actions: it reads the
  awaited seat's legal actions (from the last response when it was that seat's,
  otherwise with a GET) and POSTs one. A finished match is replaced by a new one.
- ``bare``: the same pattern of requests against the bare endpoint (``bare_server``):
  a POST per action, plus GETs and creates at the rates the gameweave run needed
  (``gets_per_action``, ``creates_per_action``), so both servers see one mix.

Only the action POSTs are counted as actions and timed for latency. Every loop is
bounded by ``seconds`` and by ``max_actions``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from typing import Any


class Conn:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """One request and its answer. The connection is opened with the first
        request (a server may close one that sends nothing for a while); one the
        server closed while it was idle (its keep-alive ran out) is opened again
        first, as any HTTP client does; one closed before any answer came is opened
        again and the request sent once more (the server closes an idle connection
        only between requests)."""
        if self.reader is None:
            await self.open()  # when first needed, as a browser does
        elif self.reader.at_eof():
            await self.close()
            await self.open()
        try:
            return await self._request(method, path, body, headers)
        except asyncio.IncompleteReadError as exc:
            if exc.partial:
                raise
        except ConnectionError:  # closed under the request as it was sent
            pass
        await self.close()
        await self.open()
        return await self._request(method, path, body, headers)

    async def _request(
        self, method: str, path: str, body: Any, headers: dict[str, str] | None
    ) -> tuple[int, Any]:
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(data)}")
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = None
        chunked = False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            payload = b"".join(parts)
        else:
            payload = await self.reader.readexactly(length or 0)
        return status, json.loads(payload) if payload else None


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.gets = 0
        self.creates = 0
        self.refused = 0


async def gameweave_client(
    conn: Conn,
    cfg: dict[str, Any],
    rng: random.Random,
    stats: Stats,
    deadline: float,
    budget: list[int],
) -> None:
    title, players = cfg.get("title", "house"), int(cfg.get("players", 2))
    clock = time.perf_counter
    match_id = ""
    tokens: dict[int, str] = {}
    payload: dict[str, Any] = {}
    while clock() < deadline and budget[0] > 0:
        if not match_id or not payload.get("awaiting"):
            status, created = await conn.request(
                "POST",
                "/api/matches",
                # No seed: a server outside development mode refuses a chosen one.
                {"title": title, "players": players},
            )
            stats.creates += 1
            if status != 201:
                raise RuntimeError(f"creating a match answered {status}: {created}")
            match_id = created["id"]
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            payload = {"awaiting": [1]}
        seat = payload["awaiting"][0]
        if payload.get("seat") != seat or not payload.get("legal"):
            status, payload = await conn.request(
                "GET", f"/api/matches/{match_id}?token={tokens[seat]}"
            )
            stats.gets += 1
            if status != 200:
                raise RuntimeError(f"reading the match answered {status}: {payload}")
            if not payload.get("legal"):
                continue  # over, or another seat is awaited: look again
        act = rng.choice(payload["legal"])
        t0 = clock()
        status, answer = await conn.request(
            "POST",
            f"/api/matches/{match_id}/actions",
            {"version": payload["version"], "action": act},
            {"X-Seat-Token": tokens[seat]},
        )
        stats.latencies.append(clock() - t0)
        if status != 200:
            stats.refused += 1
            raise RuntimeError(f"a legal action was refused ({status}): {answer}")
        stats.actions += 1
        budget[0] -= 1
        payload = answer


async def bare_client(
    conn: Conn,
    cfg: dict[str, Any],
    rng: random.Random,
    stats: Stats,
    deadline: float,
    budget: list[int],
) -> None:
    gets_rate = float(cfg.get("gets_per_action", 0.0))
    creates_rate = float(cfg.get("creates_per_action", 0.0))
    gets_due = creates_due = 0.0
    clock = time.perf_counter
    version = 0
    while clock() < deadline and budget[0] > 0:
        creates_due += creates_rate
        if creates_due >= 1:
            creates_due -= 1
            status, _ = await conn.request("POST", "/create", {"title": "bare", "players": 2})
            stats.creates += 1
        gets_due += gets_rate
        if gets_due >= 1:
            gets_due -= 1
            status, _ = await conn.request("GET", "/state?token=abc")
            stats.gets += 1
        t0 = clock()
        status, answer = await conn.request(
            "POST",
            "/act",
            {"version": version, "action": {"type": "hit"}},
            {"X-Seat-Token": "abc"},
        )
        stats.latencies.append(clock() - t0)
        if status != 200:
            raise RuntimeError(f"the bare endpoint answered {status}")
        version = answer["version"]
        stats.actions += 1
        budget[0] -= 1


def pct(values: list[float], q: float) -> float:
    data = sorted(values)
    if not data:
        return 0.0
    pos = (len(data) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


async def populate(conn: Conn, cfg: dict[str, Any]) -> dict[str, Any]:
    """Create ``create_only`` matches and play ``moves_each`` random actions in each
    (as ``gameweave_client`` does), so the server holds that many part-played matches."""
    stats = Stats()
    deadline = time.perf_counter() + float(cfg.get("seconds", 600))
    rng = random.Random(int(cfg.get("seed", 0)))
    for _ in range(int(cfg["create_only"])):
        before = stats.creates
        await gameweave_client(conn, cfg, rng, stats, deadline, [int(cfg.get("moves_each", 1))])
        if stats.creates != before + 1:
            raise RuntimeError("a match ended within moves_each actions; lower it")
    return {"created": stats.creates, "moves": stats.actions}


async def run(cfg: dict[str, Any]) -> dict[str, Any]:
    host, port = "127.0.0.1", int(cfg["port"])
    if host != "127.0.0.1":  # pragma: no cover - loopback only, by design
        raise SystemExit("loadgen only talks to 127.0.0.1")
    if cfg.get("create_only"):
        conn = Conn(host, port)
        await conn.open()
        try:
            return await populate(conn, cfg)
        finally:
            await conn.close()
    clients = int(cfg.get("clients", 1))
    seconds = float(cfg.get("seconds", 2.0))
    budget = [int(cfg.get("max_actions", 100_000))]
    client = gameweave_client if cfg["target"] == "gameweave" else bare_client
    stats = Stats()
    conns = [Conn(host, port) for _ in range(clients)]
    await asyncio.gather(*(c.open() for c in conns))
    t0 = time.perf_counter()
    deadline = t0 + seconds
    try:
        await asyncio.gather(
            *(
                client(
                    c,
                    cfg,
                    random.Random(int(cfg.get("seed", 0)) * 1000 + i),
                    stats,
                    deadline,
                    budget,
                )
                for i, c in enumerate(conns)
            )
        )
    finally:
        wall = time.perf_counter() - t0
        await asyncio.gather(*(c.close() for c in conns))
    lat = stats.latencies
    return {
        "actions": stats.actions,
        "gets": stats.gets,
        "creates": stats.creates,
        "wall": wall,
        "p50": pct(lat, 50),
        "p90": pct(lat, 90),
        "p99": pct(lat, 99),
        "max": max(lat) if lat else 0.0,
        "latencies": lat if cfg.get("keep_latencies") else [],
    }


def main() -> None:
    cfg = json.loads(sys.argv[1])
    print(json.dumps(asyncio.run(run(cfg))))


if __name__ == "__main__":
    main()
