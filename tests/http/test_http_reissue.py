"""The host token and reissued seat links: creating a match hands out a host
token (stored hashed, like seat tokens); with it, ``POST
/api/matches/{id}/seats/{seat}/token`` gives a seat a new token and link, and the
seat's previous token stops working at once, on every route, open event streams
included."""

from __future__ import annotations

import hashlib
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ThreadServer
from hub_calls import run

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.hub import Hub
from gameweave_http.store import Store

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

JSON = {"Content-Type": "application/json"}
BID = {"type": "bid", "coins": 1}


@pytest.fixture
def app(tmp_path: Path, sealed_registry: Registry) -> Any:
    return create_app(
        tmp_path / "m.sqlite3", sealed_registry, public_url="https://games.example.org/"
    )


@pytest.fixture
def http(app: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            yield c


def create(http: Any, **extra: Any) -> dict[str, Any]:
    r = http.post("/api/matches", json={"title": "sealedbid", "players": 2, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def reissue(http: Any, match_id: str, seat: Any, host: str | None, body: Any = None) -> Any:
    headers = dict(JSON)
    if host is not None:
        headers["X-Host-Token"] = host
    return http.post(
        f"/api/matches/{match_id}/seats/{seat}/token",
        headers=headers,
        json={} if body is None else body,
    )


def refused(response: Any, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error and all(w in error for w in words), error


def test_a_reissued_link_replaces_the_old_one_at_once(http: Any, app: Any) -> None:
    created = create(http)
    host = created["host_token"]
    assert isinstance(host, str) and len(host) >= 24
    old = created["seats"][0]["token"]
    r = reissue(http, created["id"], 1, host)
    assert r.status_code == 200, r.text
    out = r.json()
    new = out["token"]
    assert out == {
        "seat": 1,
        "token": new,
        "url": f"https://games.example.org/play/{created['id']}#token={new}",
    }
    assert new not in (old, host, created["seats"][1]["token"])
    path = f"/api/matches/{created['id']}"
    # The old token is any unknown token now: no read as the seat, no action.
    refused(http.get(path, headers={"X-Seat-Token": old}), 403, "belongs to no seat")
    refused(
        http.post(
            path + "/actions",
            headers={"X-Seat-Token": old, **JSON},
            json={"version": 0, "action": BID},
        ),
        403,
    )
    assert http.get(path, headers={"X-Seat-Token": new}).json()["seat"] == 1
    r = http.post(
        path + "/actions", headers={"X-Seat-Token": new, **JSON}, json={"version": 0, "action": BID}
    )
    assert r.status_code == 200 and r.json()["version"] == 1
    # The other seat's token is untouched.
    other = created["seats"][1]["token"]
    assert http.get(path, headers={"X-Seat-Token": other}).json()["seat"] == 2
    # Reissued again: the second token goes the way of the first.
    newer = reissue(http, created["id"], 1, host).json()["token"]
    refused(http.get(path, headers={"X-Seat-Token": new}), 403)
    assert http.get(path, headers={"X-Seat-Token": newer}).json()["seat"] == 1


def test_the_old_token_stays_dead_after_a_restart(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    db = tmp_path / "m.sqlite3"
    store = Store(db)
    hub = Hub(store, sealed_registry)
    live, tokens = run(hub.create("sealedbid", 2, host_token="the-host"))
    assert hub.seat(live.id, tokens[1]) == 1  # cached now
    store.reissue(live.id, 1, "fresh-token")
    assert store.seat_for(live.id, tokens[1]) is None
    assert store.seat_for(live.id, "fresh-token") == 1
    store.close()
    reopened = Store(db)
    try:
        assert not reopened.tokens_cached(live.id)
        assert reopened.seat_for(live.id, tokens[1]) is None
        assert reopened.seat_for(live.id, "fresh-token") == 1
        assert reopened.seat_for(live.id, tokens[2]) == 2
    finally:
        reopened.close()


def test_the_host_token_is_stored_hashed(http: Any, app: Any, tmp_path: Path) -> None:
    created = create(http)
    host = created["host_token"]
    store = app.state.store
    seating = store.seating(created["id"])
    assert seating.host_hash == hashlib.sha256(host.encode()).digest()
    assert seating.is_host(host) and not seating.is_host(host[:-1])
    store._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    stored = (tmp_path / "m.sqlite3").read_bytes()
    assert host.encode() not in stored and created["seats"][0]["token"].encode() not in stored


def test_each_refusal_is_one_line_and_changes_nothing(
    http: Any, app: Any, sealed_registry: Registry
) -> None:
    created = create(http, bots=[2])
    mid, host = created["id"], created["host_token"]
    token = created["seats"][0]["token"]
    refused(reissue(http, mid, 1, None), 401, "X-Host-Token")
    refused(reissue(http, mid, 1, ""), 401, "X-Host-Token")
    refused(reissue(http, mid, 1, host + "x"), 403, "not the host token")
    other = create(http)
    refused(reissue(http, mid, 1, other["host_token"]), 403)  # another match's host
    refused(reissue(http, "nosuchmatch", 1, host), 404, "no match")
    refused(reissue(http, mid, 0, host), 422, "seats are 1 to 2")
    refused(reissue(http, mid, 3, host), 422, "seats are 1 to 2")
    refused(reissue(http, mid, 2, host), 422, "played by a bot")
    refused(reissue(http, mid, "one", host), 422, "seat number")
    refused(reissue(http, mid, 1, host, body={"seat": 2}), 400, "unknown field")
    refused(reissue(http, mid, 1, host, body=[]), 400, "JSON object")
    r = http.post(
        f"/api/matches/{mid}/seats/1/token", headers={"X-Host-Token": host}, content=b"{}"
    )
    refused(r, 415, "Content-Type")
    # None of it changed the seat's token.
    assert http.get(f"/api/matches/{mid}", headers={"X-Seat-Token": token}).json()["seat"] == 1
    # A match created without a host token (as before schema version 2) cannot reissue.
    live, _ = run(app.state.hub.create("sealedbid", 2))
    refused(reissue(http, live.id, 1, host), 409, "before host tokens")


def test_an_open_event_stream_of_the_old_token_ends_before_its_next_event(app: Any) -> None:
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        created = create(http)
        mid = created["id"]
        old, other = created["seats"][0]["token"], created["seats"][1]["token"]
        lines: dict[str, list[str]] = {"old": [], "spectator": []}
        ended: dict[str, bool] = {}

        def listen(name: str, token: str | None) -> None:
            query = f"?token={token}" if token else ""
            url = f"{server.url}/api/matches/{mid}/events{query}"
            with httpx.stream("GET", url, timeout=60) as r:
                for line in r.iter_lines():
                    lines[name].append(line)
                    if '"version":1' in line:
                        return  # seen what it waited for: this client leaves
            ended[name] = True  # the server ended the stream

        threads = [
            threading.Thread(target=listen, args=("old", old), daemon=True),
            threading.Thread(target=listen, args=("spectator", None), daemon=True),
        ]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60  # a hang, not a slow machine
        while not all(any(x.startswith("data:") for x in v) for v in lines.values()):
            assert time.monotonic() < deadline, lines
            time.sleep(0.02)
        assert reissue(http, mid, 1, created["host_token"]).status_code == 200
        r = http.post(
            f"/api/matches/{mid}/actions",
            headers={"X-Seat-Token": other},
            json={"version": 0, "action": BID},
        )
        assert r.status_code == 200
        deadline = time.monotonic() + 60  # a hang, not a slow machine
        while not ended.get("old"):
            assert time.monotonic() < deadline, "the old token's stream is still open"
            time.sleep(0.02)
        # The old link never saw version 1; a spectator's stream did, the server
        # having ended it neither before nor after (the spectator leaves by itself).
        assert not any('"version":1' in x for x in lines["old"])
        for t in threads:
            t.join(60)
        assert any('"version":1' in x for x in lines["spectator"]), lines["spectator"]
        assert not ended.get("spectator")
