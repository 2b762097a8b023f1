"""Server-sent events against a real uvicorn server: each stream pushes its own
seat's payload after every change, and nothing another seat may not see."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from http_support import ThreadServer


def events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The ``payload`` events of an open stream, parsed."""
    kind, data = None, []
    for line in response.iter_lines():
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "":
            if kind == "payload" and data:
                yield json.loads("\n".join(data))
            kind, data = None, []


def test_each_stream_pushes_its_own_seats_payload(live_sealed: ThreadServer) -> None:
    url = live_sealed.url
    with httpx.Client(base_url=url, timeout=60) as http:
        created = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 3, "bots": [3], "seed": 5}
        ).json()
        mid = created["id"]
        t1, t2 = created["seats"][0]["token"], created["seats"][1]["token"]
        streams = {}
        with (
            http.stream("GET", f"/api/matches/{mid}/events", params={"token": t2}) as s2,
            http.stream("GET", f"/api/matches/{mid}/events") as spectator,
        ):
            assert s2.headers["content-type"].startswith("text/event-stream")
            streams = {"seat 2": events(s2), "spectator": events(spectator)}
            first = {name: next(it) for name, it in streams.items()}
            assert first["seat 2"]["seat"] == 2 and first["seat 2"]["version"] == 1
            assert "seat" not in first["spectator"]
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": t1},
                json={"version": 1, "action": {"type": "bid", "coins": 13}},
            )
            assert r.status_code == 200
            pushed = {name: next(it) for name, it in streams.items()}
            for name, payload in pushed.items():
                assert payload["version"] == 2, name
                assert payload["view"]["sealed"] == [1, 3]
                assert "my_bid" not in payload["view"]
                assert "13" not in json.dumps(payload["history"]), name
            assert pushed["seat 2"]["legal"] and pushed["spectator"]["legal"] == []
            # Seat 2's own action reaches its own stream too, with its own bid.
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": t2},
                json={"version": 2, "action": {"type": "bid", "coins": 4}},
            )
            assert r.status_code == 200
            mine = next(streams["seat 2"])
            assert mine["version"] >= 3
            assert any("You bid 4" in line for line in mine["history"])


def test_stream_refuses_unknown_match_and_wrong_token(live_sealed: ThreadServer) -> None:
    with httpx.Client(base_url=live_sealed.url, timeout=60) as http:
        created = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 2, "seed": 5}
        ).json()
        r = http.get("/api/matches/nope/events")
        assert r.status_code == 404 and "nope" in r.json()["error"]
        r = http.get(f"/api/matches/{created['id']}/events", params={"token": "guess"})
        assert r.status_code == 403 and set(r.json()) == {"error"}


@pytest.mark.parametrize("listeners", [1, 3])
def test_closed_streams_are_forgotten(live_sealed: ThreadServer, listeners: int) -> None:
    import time

    with httpx.Client(base_url=live_sealed.url, timeout=60) as http:
        created = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 2, "seed": 5}
        ).json()
        mid = created["id"]
        app_listeners = live_sealed.server.config.app.state.listeners  # type: ignore[union-attr]
        for _ in range(listeners):
            with http.stream("GET", f"/api/matches/{mid}/events") as s:
                # Keep the reader referenced: dropping it closes the connection.
                reader = events(s)
                next(reader)
                assert app_listeners.count(mid) == 1
            # Let go of as soon as the server sees the disconnect: within moments,
            # though on a loaded machine that can take seconds.
            deadline = time.monotonic() + 60  # a hang, not a slow machine
            while app_listeners.count(mid) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert app_listeners.count(mid) == 0
        assert app_listeners.open() == 0


def test_a_quiet_stream_gets_a_keep_alive_and_then_its_payloads(
    live_sealed: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stream with nothing to say sends a keep-alive comment once it has been
    quiet for ``KEEPALIVE`` seconds, and goes on carrying payloads after it."""
    from gameweave_http import events as sse

    monkeypatch.setattr(sse, "KEEPALIVE", 0.2)
    with httpx.Client(base_url=live_sealed.url, timeout=60) as http:
        created = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 2, "seed": 5}
        ).json()
        mid, token = created["id"], created["seats"][0]["token"]
        with http.stream("GET", f"/api/matches/{mid}/events", params={"token": token}) as s:
            lines = s.iter_lines()

            def until(wanted: str) -> list[str]:
                seen = []
                for line in lines:
                    seen.append(line)
                    if line.startswith(wanted):
                        return seen
                raise AssertionError(f"the stream ended before {wanted!r}: {seen}")

            until("data:")  # the first payload
            for _ in range(2):
                assert until(": keep-alive")[-1] == ": keep-alive"
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": token},
                json={"version": 0, "action": {"type": "bid", "coins": 3}},
            )
            assert r.status_code == 200
            data = until("data:")[-1]
            assert json.loads(data[5:])["version"] == 1
            assert until(": keep-alive")[-1] == ": keep-alive"
