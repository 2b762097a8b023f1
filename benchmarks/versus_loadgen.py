"""Gameweave's side of the versus benchmark's load: seats as the browser client plays.

Run by ``versus.py`` as a subprocess::

    python benchmarks/versus_loadgen.py '{"port": 8123, "matches": 32, "seconds": 3}'
    python benchmarks/versus_loadgen.py '{"port": 8123, "hold": 1000}'

and prints one JSON line. Each seat does what a browser tab of ``play.html`` does.
With ``"transport": "socket"`` (the default, as the page plays where WebSockets
work) it keeps one seat socket open (``/api/matches/{id}/socket`` with its token:
a payload pushed after every change) and, when a payload says it is awaited,
sends one of the payload's legal actions (chosen at random) with the payload's
version on the same socket. With ``"transport": "stream"`` (the page's way without
WebSockets) it keeps an event stream open instead (``GET .../events``: server-sent
events, one ``payload`` event per change) and POSTs each move on a keep-alive
connection of its own. ``matches`` matches are played at once; a finished one is
replaced by a new one (``POST /api/matches``).

A move's latency runs from its seat's sending it to the other seat's receipt of
the payload the move made. The counted window (``seconds`` long)
opens ``warmup`` seconds after every one of the ``matches`` places has seen its
first move (the ramp); moves submitted in it and received before it closes are
counted. A match's first move waits until both seats have their first payload, as
the boardgame.io side does. The server's CPU time (``server_pid``'s
``/proc/<pid>/stat``) is read when the window opens and when it closes.

Hold (``hold``: N): N matches, both seats' sockets (or streams) open and one move played in
each, held open until stdin closes, while the caller reads the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadgen import Conn, pct
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
TITLE = "tictactoe"


def proc_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` (all its threads); 0 without a pid."""
    if not pid:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class EventStream:
    """One seat's server-sent event stream, read as the browser's EventSource does."""

    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.chunked = False

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await self.writer.drain()
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status = int(head.split()[1])
        if status != 200:
            raise RuntimeError(f"an event stream was refused ({status}): {head[:200]!r}")
        self.chunked = "transfer-encoding: chunked" in head.lower()

    async def _data(self) -> bytes:
        assert self.reader is not None
        if not self.chunked:
            return await self.reader.read(65536)
        size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
        chunk = await self.reader.readexactly(size + 2)
        return chunk[:-2]

    async def payloads(self) -> AsyncIterator[dict[str, Any]]:
        """The data of each ``payload`` event, parsed, as it arrives."""
        buffer = b""
        while True:
            data = await self._data()
            if not data:
                return
            buffer += data
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                kind, lines = "message", []
                for line in block.split(b"\n"):
                    if line.startswith(b"event:"):
                        kind = line[6:].strip().decode()
                    elif line.startswith(b"data:"):
                        lines.append(line[5:].strip())
                if kind == "payload" and lines:
                    yield json.loads(b"\n".join(lines))

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await self.writer.wait_closed()


class Stats:
    def __init__(self, places: int = 0) -> None:
        # The counted window: open once every place has seen a move (see ``ramped``).
        self.start = self.stop = float("inf")
        self.moves = 0
        self.latencies: list[float] = []
        self.created = 0
        self.finished = 0
        self.unramped = set(range(places))
        self.ramped = asyncio.Event()
        if not places:
            self.ramped.set()

    def moved(self, latency: float, submitted: float, place: int = -1) -> None:
        if place in self.unramped:
            self.unramped.discard(place)
            if not self.unramped:
                self.ramped.set()
        if submitted >= self.start and time.perf_counter() <= self.stop:
            self.moves += 1
            self.latencies.append(latency)


async def create(conn: Conn, stats: Stats) -> tuple[str, dict[int, str]]:
    # No seed: a server outside development mode refuses a chosen one.
    status, created = await conn.request("POST", "/api/matches", {"title": TITLE, "players": 2})
    if status != 201:
        raise RuntimeError(f"creating a match answered {status}: {created}")
    stats.created += 1
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


async def play_match(
    port: int,
    conns: dict[int, Conn],
    rng: random.Random,
    stats: Stats,
    move_limit: int = 10**9,
    place: int = -1,
    socket: bool = False,
) -> None:
    """One match from creation to its end (or ``move_limit`` moves, then held open
    until cancelled), both seats as browser tabs: each on a seat socket
    (``socket``), else an event stream and a POST per move."""
    match_id, tokens = await create(conns[1], stats)
    pending: dict[int, tuple[int, float]] = {}  # the version a move makes -> seat, time
    ready = {seat: asyncio.Event() for seat in tokens}
    moves = [0]

    async def play_seat(
        seat: int,
        payloads: AsyncIterator[dict[str, Any]],
        send_move: Callable[[int, Any], Awaitable[None]],
    ) -> None:
        """The seat's side of the match, whichever way it plays: on each payload,
        count the move it shows arriving, and move if it is the seat's turn."""
        made = -1  # the version this seat's last move made
        async for payload in payloads:
            version = payload["version"]
            sent = pending.get(version)
            if sent is not None and sent[0] != seat:
                del pending[version]
                stats.moved(time.perf_counter() - sent[1], sent[1], place)
            if not ready[seat].is_set():
                ready[seat].set()
                for other in ready.values():
                    await other.wait()
            if not payload["awaiting"]:
                return
            if seat not in payload["awaiting"] or version <= made:
                continue
            if time.perf_counter() >= stats.stop or moves[0] >= move_limit:
                continue
            made = version + 1
            moves[0] += 1
            pending[made] = (seat, time.perf_counter())
            await send_move(version, rng.choice(payload["legal"]))

    async def on_socket(seat: int) -> None:
        """The seat as the browser client plays it: one seat socket, payloads in and
        moves out on the same WebSocket."""
        url = f"ws://{HOST}:{port}/api/matches/{match_id}/socket?token={tokens[seat]}"
        async with connect(url, compression=None, max_size=None) as ws:

            async def payloads() -> AsyncIterator[dict[str, Any]]:
                async for message in ws:
                    payload = json.loads(message)
                    if "ok" not in payload:
                        yield payload
                    elif not payload["ok"]:  # the answer to this seat's move
                        raise RuntimeError(f"a legal action was refused: {payload}")

            async def send_move(version: int, action: Any) -> None:
                await ws.send(json.dumps({"version": version, "action": action}))

            await play_seat(seat, payloads(), send_move)

    async def on_stream(seat: int) -> None:
        """The seat without WebSockets: an event stream, and a POST per move."""
        stream = EventStream(port, f"/api/matches/{match_id}/events?token={tokens[seat]}")

        async def send_move(version: int, action: Any) -> None:
            status, answer = await conns[seat].request(
                "POST",
                f"/api/matches/{match_id}/actions",
                {"version": version, "action": action},
                {"X-Seat-Token": tokens[seat]},
            )
            if status != 200:
                raise RuntimeError(f"a legal action was refused ({status}): {answer}")

        try:
            await stream.open()
            await play_seat(seat, stream.payloads(), send_move)
        finally:
            await stream.close()

    seat_loop = on_socket if socket else on_stream
    await asyncio.gather(*(seat_loop(seat) for seat in tokens))


async def slot(port: int, index: int, seed: int, stats: Stats, socket: bool) -> None:
    """One of the ``matches`` places: plays matches one after another."""
    rng = random.Random(seed * 1000 + index)
    conns = {1: Conn(HOST, port), 2: Conn(HOST, port)}  # each opened when first used
    try:
        while time.perf_counter() < stats.stop:
            await play_match(port, conns, rng, stats, place=index, socket=socket)
            if time.perf_counter() < stats.stop:
                stats.finished += 1
    finally:
        await asyncio.gather(*(c.close() for c in conns.values()))


async def play(cfg: dict[str, Any]) -> dict[str, Any]:
    port, pid = int(cfg["port"]), int(cfg.get("server_pid", 0))
    seconds, warmup = float(cfg.get("seconds", 2.0)), float(cfg.get("warmup", 0.0))
    places = int(cfg.get("matches", 1))
    socket = cfg.get("transport", "socket") == "socket"
    t0 = time.perf_counter()
    stats = Stats(places)
    tasks = [
        asyncio.create_task(slot(port, i, int(cfg.get("seed", 0)), stats, socket))
        for i in range(places)
    ]
    ramped = asyncio.create_task(stats.ramped.wait())
    await asyncio.wait([ramped, *tasks], timeout=120, return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        if task.done():  # a place stopped before the window opened: it failed
            task.result()
    if not ramped.done():
        ramped.cancel()
        raise RuntimeError(
            f"{places - len(stats.unramped)} of {places} matches started within 120 s"
        )
    ramp = time.perf_counter() - t0
    stats.start = time.perf_counter() + warmup
    stats.stop = stats.start + seconds
    await asyncio.sleep(warmup)
    cpu0, server0 = time.process_time(), proc_cpu(pid)
    done, _ = await asyncio.wait(tasks, timeout=max(0.0, stats.stop - time.perf_counter()))
    cpu, server = time.process_time() - cpu0, proc_cpu(pid) - server0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:  # a slot that ended before the deadline failed
        if task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    lat = stats.latencies
    return {
        "moves": stats.moves,
        "wall": seconds,
        "ramp": ramp,
        "created": stats.created,
        "finished": stats.finished,
        "p50": pct(lat, 50),
        "p99": pct(lat, 99),
        "max": max(lat, default=0.0),
        "client_cpu": cpu,
        "server_cpu": server,
        "latencies": lat if cfg.get("keep_latencies") else [],
    }


async def hold(cfg: dict[str, Any]) -> None:
    """``hold`` matches with both streams open and one move made in each, held
    until stdin closes."""
    port, total = int(cfg["port"]), int(cfg["hold"])
    stats = Stats()
    stats.start = 0.0
    rng = random.Random(int(cfg.get("seed", 0)))
    socket = cfg.get("transport", "socket") == "socket"
    held: list[asyncio.Task[None]] = []
    conns = {1: Conn(HOST, port), 2: Conn(HOST, port)}  # each opened when first used
    for _ in range(total):
        before = stats.moves
        held.append(
            asyncio.create_task(play_match(port, conns, rng, stats, move_limit=1, socket=socket))
        )
        while stats.moves == before:  # the other seat has the move: the match is live
            if held[-1].done():
                held[-1].result()
                raise RuntimeError("a held match ended before its first move was seen")
            await asyncio.sleep(0.001)
    print(json.dumps({"held": len(held), "created": stats.created}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in held:
        task.cancel()
    await asyncio.gather(*held, return_exceptions=True)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    if cfg.get("hold"):
        asyncio.run(hold(cfg))
    else:
        print(json.dumps(asyncio.run(play(cfg))))


if __name__ == "__main__":
    main()
