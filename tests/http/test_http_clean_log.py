"""Issue 30, point 6: what clients and operators ordinarily do leaves a clean server
log. A client hanging up mid-body, a body cut by the body timeout, a request to
switch protocols, a write refused on a full disk, and a stop (SIGTERM, Ctrl-C)
with event streams open each give at most one line, never a traceback, never a
500 for a client that left; and the event streams end at once on a stop, without
waiting out the server's grace.

Each case reads the whole output of a real server process (``ProcessServer``: the
access log on, uvicorn's own lines, the app's). No case measures time: a wait is
bounded only to fail on a hang."""

from __future__ import annotations

import json
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ROOT

# The full-disk case's server is not in development mode, so it picks each match's
# seed itself: from a fixed sequence (the fresh_seeds fixture), the same on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

CREATE = {"title": "sealedbid", "players": 2, "seed": 3}
#: Seconds after which a wait counts as a hang.
HANG = 60.0
#: What uvicorn and the server print about themselves, a line each: not events.
LIFECYCLE = (
    "INFO:     ",
    "Gameweave serving on ",
    "Development mode: ",
)
ACCESS = "INFO gameweave_http.access: "


def eventually(done: Any, what: str) -> None:
    deadline = time.monotonic() + HANG
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def stopped_log(server: Any, how: signal.Signals = signal.SIGTERM) -> str:
    """Stop ``server`` with ``how`` and return its whole output."""
    server.proc.send_signal(how)
    try:
        server.proc.wait(HANG)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the server did not stop on {how.name}") from None
    return str(server.log.read_text())


def clean(log: str) -> list[str]:
    """Check ``log`` holds no traceback and no error, every line either uvicorn's
    or the server's own about itself, or an access-log line; the access lines."""
    assert "Traceback" not in log and "CancelledError" not in log, log
    access = []
    for line in log.splitlines():
        if line.startswith(ACCESS):
            access.append(line[len(ACCESS) :])
        else:
            assert line.startswith(LIFECYCLE), f"an unexpected line: {line!r}\n{log}"
    return access


def hang_up(port: int, path: str, headers: str, reset: bool) -> None:
    """Send ``path`` a head and the start of its body, then go away (closing, or
    resetting the connection)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        if reset:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f'Content-Length: 1000\r\n{headers}\r\n{{"tit'.encode()
        )


def test_clients_that_leave_or_dawdle_leave_one_line_each(
    process_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMEWEAVE_LIMITS", "body_timeout=1")
    server = process_server()
    with httpx.Client(base_url=server.url, timeout=HANG) as http:
        created = http.post("/api/matches", json=CREATE).json()
        mid = created["id"]
        token = created["seats"][0]["token"]
        routes = {
            "/api/matches": "",
            f"/api/matches/{mid}/hint": f"X-Seat-Token: {token}\r\n",
            f"/api/matches/{mid}/seats/1/token": f"X-Host-Token: {created['host_token']}\r\n",
            "/api/replay": "",
        }
        for reset in (False, True):
            for path, headers in routes.items():
                hang_up(server.port, path, headers, reset)
        # A body trickled in until the body timeout cuts it: 408.
        with socket.create_connection(("127.0.0.1", server.port)) as s:
            s.sendall(
                b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
            )
            s.settimeout(0.3)
            answer = b""
            deadline = time.monotonic() + HANG
            while not answer:
                assert time.monotonic() < deadline, "the slow body was never cut off"
                try:
                    answer = s.recv(65536)
                except TimeoutError:
                    s.sendall(b" ")
            assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
        # Every request has been seen to its end (its access line) before the stop.
        eventually(
            lambda: server.log.read_text().count("POST ") >= 2 * len(routes) + 2,
            "the server never finished with the hung-up requests",
        )
        # A request to switch to WebSocket, which the server does not speak, is
        # answered as plain HTTP without a warning of its own (uvicorn writes two).
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket"}
        assert http.get("/api/server", headers=upgrade).status_code == 200
        # The server goes on answering.
        assert http.get(f"/api/matches/{mid}").status_code == 200
    access = clean(stopped_log(server))
    posts = [line for line in access if line.startswith("POST ")]
    assert len(posts) == 2 * len(routes) + 2, posts  # one line per request, no more
    assert not [line for line in posts if " 500 " in line], posts
    assert sum(" 408 " in line for line in posts) == 1


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_with_event_streams_open_ends_them_at_once_and_quietly(
    process_server: Any, how: signal.Signals
) -> None:
    server = process_server()
    created = httpx.post(server.url + "/api/matches", json=CREATE, timeout=HANG).json()
    mid = created["id"]
    queries = [f"?token={seat['token']}" for seat in created["seats"]] + [""]
    streams = []
    for query in queries:
        s = socket.create_connection(("127.0.0.1", server.port))
        s.settimeout(HANG)
        s.sendall(
            f"GET /api/matches/{mid}/events{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
        )
        seen = b""
        while b"event: payload" not in seen:
            chunk = s.recv(65536)
            assert chunk, seen
            seen += chunk
        streams.append(s)
    log = stopped_log(server, how)
    for s in streams:
        while s.recv(65536):  # the server closed every stream (a hang fails by timeout)
            pass
        s.close()
    clean(log)
    # The streams ended as the stop began: the server never had to cancel them.
    assert "graceful shutdown exceeded" not in log, log
    assert "Shutting down" in log


FULL_DISK = textwrap.dedent(
    """
    import json, logging, resource, signal, sys, warnings
    sys.path.insert(0, {tutorial!r})
    from gameweave_core import Registry
    from gameweave_sealedbid import plugin
    from gameweave_http.app import create_app
    from gameweave_http.limits import Limits
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    app = create_app({db!r}, reg, limits=Limits(creates_per_minute=10_000))
    body = {{"title": "sealedbid", "players": 2}}
    refused = []
    with TestClient(app, raise_server_exceptions=False) as c:
        first = c.post("/api/matches", json=body).json()
        token = first["seats"][0]["token"]
        # A full disk, as the kernel makes it: no file may grow past 64 KiB
        # (the signal that would kill the process is ignored, so writes fail).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
        for _ in range(400):
            r = c.post("/api/matches", json=body)
            if r.status_code != 201:
                refused.append(r.status_code)
                break
        # Once full, every write is refused: an action, a reissued link.
        r = c.post("/api/matches/" + first["id"] + "/actions",
                   json={{"version": 0, "action": {{"type": "bid", "coins": 1}}}},
                   headers={{"X-Seat-Token": token}})
        refused.append(r.status_code)
        r = c.post("/api/matches/" + first["id"] + "/seats/1/token", json={{}},
                   headers={{"X-Host-Token": first["host_token"]}})
        refused.append(r.status_code)
    print(json.dumps(refused))
    """
)


def test_a_full_disk_logs_one_line_per_refused_write(tmp_path: Path) -> None:
    script = FULL_DISK.format(
        tutorial=str(ROOT / "docs" / "tutorial" / "sealed-bid"), db=str(tmp_path / "m.sqlite3")
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    refused = json.loads(done.stdout.strip().splitlines()[-1])
    assert refused == [503, 503, 503], refused
    assert "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.strip()]
    # Every line is a logged line (no continuation: no traceback, no dump), one per
    # refused write, and one more at most: the stop could not write its checkpoint.
    assert all(line.startswith(("ERROR ", "INFO ", "WARNING ")) for line in errors), errors
    failures = [line for line in errors if line.startswith("ERROR ")]
    assert len(refused) <= len(failures) <= len(refused) + 1, errors
    assert all("the store failed: " in line for line in failures), failures
