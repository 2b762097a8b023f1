"""Issue 38, points 5 and 6: every malformed request is answered (a JSON 400 with
the safety headers) and the access log says why; a request names exactly one
host, served on the port it names; a new match's counts and seats are integers
written plainly (422 otherwise)."""

from __future__ import annotations

import json
import logging
import socket
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from http_support import ThreadServer

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.limits import Limits

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

SAFETY = {
    "content-security-policy",
    "x-frame-options",
    "x-content-type-options",
    "referrer-policy",
}

POST = b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"

#: Framings that uvicorn's parser refuses once the head is in (the app is then
#: already waiting for the body): the server closed these without a word.
FRAMINGS = {
    "gzip transfer coding": POST + b"Transfer-Encoding: gzip\r\n\r\n{}",
    "chunk size past 64 bits": POST
    + b"Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n{}\r\n0\r\n\r\n",
    "chunk lines ended by a bare LF": POST + b"Transfer-Encoding: chunked\r\n\r\n2\n{}\n0\n\n",
}


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``raw`` on a new connection; the status, headers and body of the answer
    (read until the server closes the connection or the body is in)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(30)
        s.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(65536)
            assert chunk, f"closed without an answer: {data!r}"
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        while len(body) < length:
            chunk = s.recv(65536)
            assert chunk
            body += chunk
        return int(lines[0].split()[1]), headers, body


def access_lines(caplog: pytest.LogCaptureFixture, count: int = 1) -> list[str]:
    """The access log's lines, once there are ``count`` (the app writes a request's
    line when the request ends, which may be just after its answer went out)."""
    deadline = time.monotonic() + 60  # a hang, not a slow machine
    while True:
        lines = [r.getMessage() for r in caplog.records if r.name == "gameweave_http.access"]
        if len(lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


def refused_400(answer: tuple[int, dict[str, str], bytes], *words: str) -> None:
    status, headers, body = answer
    assert status == 400, (status, body)
    assert set(headers) >= SAFETY, headers
    error = json.loads(body)["error"]
    assert "\n" not in error and all(w in error for w in words), error


@pytest.fixture
def server(tmp_path: Path, sealed_registry: Registry) -> Any:
    limits = Limits()
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=limits)
    with ThreadServer(app, limits) as running:
        yield running


@pytest.mark.parametrize("framing", sorted(FRAMINGS))
def test_a_malformed_body_framing_is_answered_and_logged(
    server: Any, framing: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gameweave_http.access")
    refused_400(exchange(server.port, FRAMINGS[framing]), "not valid HTTP/1.1")
    lines = access_lines(caplog)
    assert len(lines) == 1, lines
    assert lines[0].startswith("POST /api/matches 400 ") and "not valid HTTP/1.1" in lines[0]


def test_every_line_of_the_access_log_without_an_answer_says_why(
    tmp_path: Path, sealed_registry: Registry, caplog: pytest.LogCaptureFixture
) -> None:
    """A client that hangs up mid-body gets no answer: its line says so, rather
    than a bare status 0."""
    caplog.set_level(logging.INFO, logger="gameweave_http.access")
    limits = Limits()
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, limits=limits)
    with ThreadServer(app, limits) as running:
        with socket.create_connection(("127.0.0.1", running.port)) as s:
            s.sendall(POST + b"Content-Length: 100\r\n\r\n{")
            s.settimeout(30)
            s.shutdown(socket.SHUT_WR)
            assert s.recv(65536) == b""
        lines = access_lines(caplog)
    assert len(lines) == 1 and " 0 " in lines[0] and "(" in lines[0], lines
    assert "went away" in lines[0] or "closed" in lines[0], lines


HOSTS = {
    "own then foreign": b"Host: 127.0.0.1\r\nHost: evil.example\r\n",
    "twice the same": b"Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n",
    "none": b"",
}


@pytest.mark.parametrize("hosts", sorted(HOSTS))
def test_a_request_names_exactly_one_host(server: Any, hosts: str) -> None:
    raw = b"GET /api/titles HTTP/1.1\r\n" + HOSTS[hosts] + b"\r\n"
    refused_400(exchange(server.port, raw), "host")


def test_the_hosts_port_must_be_one_served(server: Any) -> None:
    port = server.port
    other = port + 1 if port < 65535 else port - 1
    for host in (f"127.0.0.1:{other}", f"localhost:{other}", "127.0.0.1:1"):
        raw = f"GET /api/titles HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        refused_400(exchange(server.port, raw), "port")
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "127.0.0.1"):
        raw = f"GET /api/titles HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        assert exchange(server.port, raw)[0] == 200, host


@pytest.mark.parametrize(
    "body",
    [
        {"title": "sealedbid", "players": 2.0},
        {"title": "sealedbid", "players": 3, "bots": [2.0]},
        {"title": "sealedbid", "players": 3, "bots": {"2": None, "02": "random"}},
        {"title": "sealedbid", "players": 3, "bots": {"02": None}},
        {"title": "sealedbid", "players": 2, "seed": 3.0},
    ],
)
def test_a_new_matchs_counts_and_seats_are_plain_integers(
    tmp_path: Path, sealed_registry: Registry, body: dict[str, Any]
) -> None:
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, dev=True)
    with TestClient(app) as c:
        r = c.post("/api/matches", json=body)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert "\n" not in error and ("integer" in error or "plainly" in error), error
        assert c.get("/api/matches").json() == []  # nothing created
        plain = {"title": "sealedbid", "players": int(body["players"]), "seed": 1}
        assert c.post("/api/matches", json=plain).status_code == 201
