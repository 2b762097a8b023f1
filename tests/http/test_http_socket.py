"""The seat socket against a real server (served as ``gameweave serve`` serves):
each socket carries its own seat's payloads, the same bytes a read answers, and
takes the seat's moves; a refused move is answered there and changes nothing; the
handshake is refused as any request is; a client breaking the protocol, or whose
link was reissued, is closed with the code that says why."""

from __future__ import annotations

import gc
import json
import socket
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ThreadServer
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from gameweave_core import Registry
from gameweave_http import protocol
from gameweave_http.app import create_app
from gameweave_http.limits import Limits
from gameweave_http.sockets import SeatSocket

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def served(tmp_path: Path, sealed_registry: Registry) -> Iterator[ThreadServer]:
    limits = Limits(streams_per_match=4)
    app = create_app(tmp_path / "matches.sqlite3", sealed_registry, dev=True, limits=limits)
    with ThreadServer(app, limits=limits) as server:
        yield server


def ws_url(server: ThreadServer, match_id: str, token: str | None = None) -> str:
    query = f"?token={token}" if token else ""
    return f"ws://127.0.0.1:{server.port}/api/matches/{match_id}/socket{query}"


def new_match(http: httpx.Client, players: int = 2) -> dict[str, Any]:
    r = http.post("/api/matches", json={"title": "sealedbid", "players": players, "seed": 5})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def received(ws: ClientConnection) -> dict[str, Any]:
    message = ws.recv(timeout=30)
    out: dict[str, Any] = json.loads(message)
    return out


def closed_with(ws: ClientConnection) -> tuple[int, str]:
    """The code and reason the server closed ``ws`` with (every message before
    the close read and dropped)."""
    with pytest.raises(ConnectionClosed) as caught:
        while True:
            ws.recv(timeout=30)
    close = caught.value.rcvd
    assert close is not None, "the connection ended without a close frame"
    return close.code, close.reason


def test_each_socket_carries_its_seats_payloads_and_takes_its_moves(served: ThreadServer) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        created = new_match(http)
        mid = created["id"]
        t1, t2 = (s["token"] for s in created["seats"])
        with (
            connect(ws_url(served, mid, t1)) as one,
            connect(ws_url(served, mid, t2)) as two,
            connect(ws_url(served, mid)) as spectator,
        ):
            # The first message of each is the payload a read answers, byte for byte.
            for ws, token in ((one, t1), (two, t2), (spectator, None)):
                headers = {"X-Seat-Token": token} if token else {}
                read = http.get(f"/api/matches/{mid}", headers=headers)
                assert ws.recv(timeout=30) == read.text
            one.send(json.dumps({"version": 0, "action": {"type": "bid", "coins": 13}}))
            made = received(one)
            assert made["version"] == 1 and made["seat"] == 1
            assert any("You bid 13" in line for line in made["history"])
            assert received(one) == {"ok": True}  # the answer, after the payload it made
            for ws in (two, spectator):
                pushed = received(ws)
                assert pushed["version"] == 1
                assert "13" not in json.dumps(pushed["history"]), "seat 1's bid leaked"
            # Seat 2's move reaches seat 1 too; each payload is sent once.
            two.send(json.dumps({"version": 1, "action": {"type": "bid", "coins": 4}}))
            assert received(two)["version"] >= 2
            assert received(two) == {"ok": True}
            assert received(one)["version"] >= 2


def test_a_refused_move_is_answered_on_the_socket_and_changes_nothing(
    served: ThreadServer,
) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        created = new_match(http)
        mid, t1 = created["id"], created["seats"][0]["token"]
        with connect(ws_url(served, mid, t1)) as one, connect(ws_url(served, mid)) as spectator:
            received(one), received(spectator)
            bad = {
                "not json": 400,
                json.dumps({"version": 0}): 400,
                json.dumps({"version": 0, "action": {"type": "fly"}}): 400,
                json.dumps({"version": 0, "action": {"type": "bid", "coins": 10**6}}): 422,
                json.dumps({"version": 7, "action": {"type": "bid", "coins": 3}}): 409,
            }
            for message, status in bad.items():
                one.send(message)
                said = received(one)
                assert set(said) == {"ok", "error", "status"} and said["ok"] is False, said
                assert said["status"] == status, (message, said)
                assert said["error"] and "\n" not in said["error"]
            spectator.send(json.dumps({"version": 0, "action": {"type": "bid", "coins": 3}}))
            said = received(spectator)
            assert said["status"] == 401 and "token" in said["error"]
            # Nothing changed: the match is where it was, and the socket still plays.
            assert http.get(f"/api/matches/{mid}").json()["version"] == 0
            one.send(json.dumps({"version": 0, "action": {"type": "bid", "coins": 3}}))
            assert received(one)["version"] == 1
            assert received(one) == {"ok": True}


def test_the_handshake_is_refused_as_any_request_is(served: ThreadServer) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        created = new_match(http)
        mid = created["id"]

        def status(url: str, **options: Any) -> int:
            with pytest.raises(InvalidStatus) as caught:
                connect(url, **options)
            return caught.value.response.status_code

        assert status(ws_url(served, mid, "guess")) == 403
        assert status(ws_url(served, "nope")) == 404
        assert status(ws_url(served, mid), origin="http://evil.example") == 403
        r = http.get(f"/api/matches/{mid}/socket")
        assert r.status_code == 426 and "WebSocket" in r.json()["error"]
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket"}
        r = http.get(
            f"/api/matches/{mid}/socket",
            headers={**upgrade, "Sec-WebSocket-Version": "8", "Sec-WebSocket-Key": "x"},
        )
        assert r.status_code == 426 and "version 13" in r.json()["error"]
        r = http.get(
            f"/api/matches/{mid}/socket",
            headers={**upgrade, "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "short"},
        )
        assert r.status_code == 400 and "Sec-WebSocket-Key" in r.json()["error"]
        # A socket is an event stream: the match's places are counted (4 here, one
        # kept for each of its 2 seats' first): spectators get the 2 left over.
        with connect(ws_url(served, mid)) as a, connect(ws_url(served, mid)) as b:
            received(a), received(b)
            assert status(ws_url(served, mid)) == 429


def raw_socket(served: ThreadServer, mid: str) -> socket.socket:
    """A socket that has made the handshake by hand (and read its 101)."""
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    sock.sendall(
        f"GET /api/matches/{mid}/socket HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101 "), head
    assert b"sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" in head
    return sock


def close_code(sock: socket.socket) -> tuple[int, bytes]:
    """Read frames until the server's close; its code and reason."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        assert chunk, f"closed without a close frame after {data[-200:]!r}"
        data += chunk
        while len(data) >= 2:
            n = data[1] & 0x7F
            at = 2 + (2 if n == 126 else 8 if n == 127 else 0)
            if n >= 126:
                n = int.from_bytes(data[2:at], "big")
            if len(data) < at + n:
                break
            opcode, body, data = data[0] & 0x0F, data[at : at + n], data[at + n :]
            if opcode == 0x8:
                return int.from_bytes(body[:2], "big"), body[2:]


@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        (bytes((0x81, 2)) + b"hi", 1002, b"masked"),  # unmasked
        (bytes((0x82, 0x82)) + b"mask" + b"hi", 1003, b"text"),  # binary
        (bytes((0x81, 0x80 | 127)) + (1 << 40).to_bytes(8, "big") + b"mask", 1009, b"larger"),
    ],
)
def test_a_client_breaking_the_protocol_is_closed_with_the_reason(
    served: ThreadServer, frame: bytes, code: int, words: bytes
) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        mid = new_match(http)["id"]
        with raw_socket(served, mid) as sock:
            sock.sendall(frame)
            got, reason = close_code(sock)
            assert got == code and words in reason, (got, reason)
            # The server closes its side once the close is sent.
            deadline = time.monotonic() + 30
            while sock.recv(65536):
                assert time.monotonic() < deadline
        # The server still answers, and let go of the socket's place.
        listeners = served.server.config.app.state.listeners  # type: ignore[union-attr]
        deadline = time.monotonic() + 30
        while listeners.count(mid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert listeners.count(mid) == 0
        assert http.get(f"/api/matches/{mid}").status_code == 200


def test_a_reissued_link_closes_its_socket_with_4001(served: ThreadServer) -> None:
    with httpx.Client(base_url=served.url, timeout=60) as http:
        created = new_match(http)
        mid, t1 = created["id"], created["seats"][0]["token"]
        with connect(ws_url(served, mid, t1)) as one:
            received(one)
            r = http.post(
                f"/api/matches/{mid}/seats/1/token",
                headers={**JSON, "X-Host-Token": created["host_token"]},
                json={},
            )
            assert r.status_code == 200, r.text
            code, reason = closed_with(one)
            assert code == 4001 and "new link" in reason


def test_the_socket_pings_when_quiet_and_closes_1001_when_the_server_stops(
    tmp_path: Path, sealed_registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gameweave_http import sockets

    monkeypatch.setattr(sockets, "KEEPALIVE", 0.2)
    app = create_app(tmp_path / "matches.sqlite3", sealed_registry, dev=True)
    server = ThreadServer(app, limits=Limits()).__enter__()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            mid = new_match(http)["id"]
        with raw_socket(server, mid) as sock:
            seen = b""
            deadline = time.monotonic() + 30
            while bytes((0x89, 0)) not in seen:  # an empty ping frame
                seen += sock.recv(65536)
                assert time.monotonic() < deadline, seen[-100:]
            server.__exit__(None, None, None)
            code, reason = close_code(sock)
            assert code == 1001 and b"stopping" in reason
    finally:
        server.__exit__(None, None, None)


def test_a_flood_of_moves_is_answered_in_order_a_few_read_at_a_time(
    served: ThreadServer,
) -> None:
    """Past a few queued moves the server stops reading the client (the rest wait
    in its socket) and reads on as it answers: every move is answered, in order."""
    with httpx.Client(base_url=served.url, timeout=60) as http:
        created = new_match(http)
        mid, t1 = created["id"], created["seats"][0]["token"]
        with connect(ws_url(served, mid, t1)) as one:
            received(one)
            for version in range(1, 41):  # each stale: the match is at version 0
                one.send(json.dumps({"version": version, "action": {"type": "bid", "coins": 3}}))
            one.send(json.dumps({"version": 0, "action": {"type": "bid", "coins": 3}}))
            for version in range(1, 41):
                said = received(one)
                assert said["status"] == 409 and f"saw version {version} " in said["error"]
            assert received(one)["version"] == 1
            assert received(one) == {"ok": True}


def test_a_closed_socket_and_its_connection_are_freed_without_the_cyclic_collector(
    served: ThreadServer,
) -> None:
    """Once a socket closes, its session, its connection and the HTTP protocol it
    was switched from are freed by reference counting alone, as are the responses
    of a closed HTTP connection. Left in reference cycles, every closed connection
    waited for the cyclic collector, whose passes then took about 6% of the server's
    CPU in the versus benchmark (``benchmarks/README.md``)."""
    kinds = (SeatSocket, protocol.WebSocket, protocol.GuardedProtocol)

    def responses() -> int:  # a OneWrite has no weak references: counted instead
        return sum(isinstance(o, protocol.OneWrite) for o in gc.get_objects())

    gc.collect()
    gc.disable()  # what is freed now is freed by reference counting
    try:
        with httpx.Client(base_url=served.url, timeout=60) as http:
            created = new_match(http)
            mid, t1 = created["id"], created["seats"][0]["token"]
            with connect(ws_url(served, mid, t1)) as one:
                received(one)
                one.send(json.dumps({"version": 0, "action": {"type": "bid", "coins": 13}}))
                assert received(one)["version"] == 1
                assert received(one) == {"ok": True}
                made = [weakref.ref(o) for o in gc.get_objects() if isinstance(o, kinds)]
                found = {type(ref()).__name__ for ref in made}
                assert {"SeatSocket", "WebSocket", "GuardedProtocol"} <= found, found
                assert responses() > 0
        deadline = time.monotonic() + 30  # the server's thread sees both closes
        while (
            any(ref() is not None for ref in made) or responses()
        ) and time.monotonic() < deadline:
            time.sleep(0.02)
        alive = sorted(type(ref()).__name__ for ref in made if ref() is not None)
        alive += ["OneWrite"] * responses()
        assert not alive, f"left for the cyclic collector: {alive}"
    finally:
        gc.enable()
