"""The protocol ``gameweave serve`` gives uvicorn (``gameweave_http.protocol``): the
one module below ASGI. Its refusals are JSON with the safety headers, as the app's
are; it cuts off a body still trickling in after its request was answered (which
no app sees); and the uvicorn release it subclasses is the one pinned."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import json
import logging
import re
import socket
import threading
import time
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ROOT, ThreadServer
from hub_calls import run
from starlette.routing import Route

from gameweave_core import Registry
from gameweave_http import protocol
from gameweave_http.app import create_app
from gameweave_http.limits import Limits

SAFETY = {"content-security-policy", "referrer-policy", "x-content-type-options", "x-frame-options"}


def test_the_http_extra_accepts_the_tested_range_of_uvicorn() -> None:
    """Issue 38, point 7: a range, not a pin, whose ends are the releases the
    protocol is tested with (``make check-uvicorn`` runs these tests at each end);
    the uvicorn installed is within it and has the whole seam."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = [
        d for d in project["project"]["optional-dependencies"]["http"] if d.startswith("uvicorn")
    ]
    low, high = protocol.UVICORN_TESTED
    major, minor, _ = high.split(".")
    assert wanted == [f"uvicorn>={low},<{major}.{int(minor) + 1}"]
    installed = tuple(int(p) for p in importlib.metadata.version("uvicorn").split(".")[:3])
    assert tuple(map(int, low.split("."))) <= installed < (int(major), int(minor) + 1)
    assert protocol.seam_missing() is None


def test_a_uvicorn_without_the_seam_is_served_with_its_own_protocol(
    tmp_path: Path, sealed_registry: Registry, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    """Should a uvicorn release lack what the guarded protocol relies on, the
    server says so in one line and serves with uvicorn's own protocol and its
    cap on concurrency, rather than fail."""
    from gameweave_http.server import uvicorn_options

    (cls, methods, attributes), *rest = protocol.SEAM
    monkeypatch.setattr(protocol, "SEAM", ((cls, (*methods, "on_frobnicate"), attributes), *rest))
    assert protocol.seam_missing() == "uvicorn's HttpToolsProtocol has no on_frobnicate"
    monkeypatch.setattr(protocol, "SEAM", ((cls, methods, (*attributes, "frob")), *rest))
    assert protocol.seam_missing() == "uvicorn's HttpToolsProtocol has no frob"
    limits = Limits(connections=7)
    with caplog.at_level(logging.WARNING, logger="gameweave_http"):
        options = uvicorn_options(limits)
    assert options["http"] == "httptools" and options["limit_concurrency"] == 7
    lines = [r.getMessage() for r in caplog.records if "own HTTP protocol" in r.getMessage()]
    assert len(lines) == 1 and "has no frob" in lines[0] and "\n" not in lines[0], lines
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=limits)
    with ThreadServer(app, limits) as server:
        assert httpx.get(f"{server.url}/api/titles", timeout=60).status_code == 200


@pytest.fixture
def guarded(tmp_path: Path, sealed_registry: Registry) -> Any:
    limits = Limits(header_timeout=1.0, body_timeout=1.0, connections=3, keep_alive=1)
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=limits)
    with ThreadServer(app, limits) as server:
        yield server


def read_all(s: socket.socket, within: float) -> bytes:
    """Everything the server sends on ``s`` until it closes it; fails if it is
    still open after ``within`` seconds (a hang, not a slow machine)."""
    s.settimeout(within)
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except TimeoutError:
        raise AssertionError(f"still open after {within} s; got {data[:200]!r}") from None
    except ConnectionResetError:
        pass
    return data


def refusal(data: bytes, status: int) -> dict[str, str]:
    """The headers of a protocol refusal, checked: the status, a one-line JSON error,
    the safety headers, and the connection closed."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} "), lines[0]
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert set(headers) >= SAFETY, headers
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close"
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert error and "\n" not in error
    return headers


def test_every_protocol_refusal_is_json_with_the_safety_headers(guarded: Any) -> None:
    port = guarded.port
    # A head trickled in past the header timeout: 408.
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/titles HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        refusal(read_all(s, 5), 408)
    # A head still arriving past max_head: 431.
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/titles HTTP/1.1\r\nX-Big: " + b"a" * 20_000)
        refusal(read_all(s, 5), 431)
    # Not HTTP at all: 400.
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"\x16\x03\x01 hello, this is not HTTP\r\n\r\n")
        refusal(read_all(s, 5), 400)
    # One connection more than the cap: 503 with Retry-After.
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]
    try:
        with socket.create_connection(("127.0.0.1", port)) as s:
            assert refusal(read_all(s, 5), 503)["retry-after"] == "1"
    finally:
        for s in held:
            s.close()


def answered(data: bytes, status: int) -> dict[str, str]:
    """The headers of an answer the app's own layers gave, checked: the status, a
    one-line JSON error and the safety headers."""
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} "), lines[0]
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert set(headers) >= SAFETY, headers
    assert headers["content-type"] == "application/json"
    error = json.loads(body[: int(headers["content-length"])])["error"]
    assert error and "\n" not in error
    return headers


def test_every_refusal_before_the_routes_carries_the_safety_headers(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """Issue 30, point 9: besides the protocol's refusals (above), those the app
    gives before any route answers: a host it does not serve (400), a body too
    slow (408), and a request still running when the server stops and cancels it
    (503, where uvicorn would answer a plain-text 500 and log a traceback)."""
    limits = Limits(body_timeout=1.0)
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=limits)
    waiting = threading.Event()

    async def forever(request: Any) -> Any:
        waiting.set()
        await asyncio.Event().wait()

    app.router.routes.insert(0, Route("/forever", forever))
    with ThreadServer(app, limits) as server:
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(b"GET /api/titles HTTP/1.1\r\nHost: evil.example\r\n\r\n")
            answered(read_all(s, 60), 400)
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(
                b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            answered(read_all(s, 60), 408)
        stopped = socket.create_connection(("127.0.0.1", server.port))
        stopped.sendall(b"GET /forever HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert waiting.wait(60)
        server.server.should_exit = True  # the server stops; its grace runs out
        with stopped:
            assert answered(read_all(stopped, 60), 503)["retry-after"]


def test_a_body_trickling_in_after_its_answer_is_cut_off(guarded: Any) -> None:
    """A route that answers without reading the body (a GET that was sent one)
    leaves the rest to the connection: the protocol closes it after the body
    timeout, however steadily the bytes come."""
    with socket.create_connection(("127.0.0.1", guarded.port)) as s:
        s.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{")
        s.settimeout(5)
        answered = s.recv(65536)
        assert answered.startswith(b"HTTP/1.1 200"), answered[:100]
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 8:  # a byte every 0.2 s: no idle timeout fires
            try:
                s.sendall(b" ")
                s.settimeout(0.2)
                if s.recv(65536) == b"":
                    closed = True
                    break
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
        assert closed, "the connection was still open 8 s into the trickle"


def test_a_request_answered_at_once_keeps_its_connection(guarded: Any) -> None:
    """The protocol's timers leave alone a client that sends whole requests: three on
    one keep-alive connection, each answered."""
    with socket.create_connection(("127.0.0.1", guarded.port)) as s:
        s.settimeout(5)
        for _ in range(3):
            s.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while not re.search(rb"\r\n\r\n\{[^}]*\}", data):
                chunk = s.recv(65536)
                assert chunk, data
                data += chunk
            assert data.startswith(b"HTTP/1.1 200")
        with contextlib.suppress(OSError):
            s.sendall(b"")


class Recorded:
    """A transport that records what is written to it."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


def test_a_reply_goes_out_in_one_write() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        # A head and its body, written one after the other: one write.
        wire = Recorded()
        reply = protocol.OneWrite(wire, loop)  # type: ignore[arg-type]
        reply.write(b"HEAD\r\n\r\n")
        assert wire.writes == []
        reply.write(b"body")
        reply.write(b"more")
        assert wire.writes == [b"HEAD\r\n\r\nbody", b"more"]
        await asyncio.sleep(0)
        assert wire.writes == [b"HEAD\r\n\r\nbody", b"more"]  # nothing held twice
        # A head whose body is not ready yet goes out by itself in the same turn.
        wire = Recorded()
        stream = protocol.OneWrite(wire, loop)  # type: ignore[arg-type]
        stream.write(b"HEAD\r\n\r\n")
        await asyncio.sleep(0)
        assert wire.writes == [b"HEAD\r\n\r\n"]
        stream.write(b"chunk")
        assert wire.writes == [b"HEAD\r\n\r\n", b"chunk"]
        # Closing writes what is held first.
        wire = Recorded()
        closing = protocol.OneWrite(wire, loop)  # type: ignore[arg-type]
        closing.write(b"HEAD\r\n\r\n")
        closing.close()
        assert wire.writes == [b"HEAD\r\n\r\n"] and wire.closed and closing.is_closing()

    run(scenario())


def test_a_server_handed_its_socket_turns_nagle_off(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """``serve(fd=...)`` (a test, a service manager) hands uvicorn a bound socket,
    which it takes for a Unix one: the event loop then leaves Nagle's algorithm on,
    and a small write waits for the client's delayed acknowledgement of the last.
    The protocol turns it off on every TCP connection."""
    import threading

    import uvicorn

    from gameweave_http.server import uvicorn_options
    from gameweave_http.testing import loopback_socket

    app = create_app(tmp_path / "m.sqlite3", sealed_registry)
    bound = loopback_socket()
    config = uvicorn.Config(
        app, fd=bound.fileno(), log_level="warning", lifespan="off", **uvicorn_options(Limits())
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        with socket.create_connection(bound.getsockname()) as s:
            s.sendall(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            s.settimeout(10)
            assert s.recv(65536).startswith(b"HTTP/1.1 200")
            (held,) = server.server_state.connections
            served = held.transport.get_extra_info("socket")
            assert served.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
    finally:
        server.should_exit = True
        thread.join(10)
        bound.close()
        app.state.store.close()
