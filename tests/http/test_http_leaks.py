"""Leak tests: whole matches played through the HTTP API, reading every payload
the server sends (replies, reads, event streams, refusals) and checking that a
seat never receives what its view does not allow.

The Museum Job: no Security or spectator payload names the Thief's square unless
Security has just learned it (a sighting, an alarm, evidence found there, a guard
standing on it) or the heist is over.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ThreadServer

from gameweave_core import Registry
from gameweave_http.app import create_app

SQUARE = re.compile(r"\b[A-T](?:1[0-4]|[1-9])\b")
#: Where a square may appear in a Security view: public facts, each a place Security
#: has seen with its own eyes or the static map.
PUBLIC_PATHS = re.compile(
    r"^(guards\.\d+\.at|evidence\.\d+\.at|last_seen\.at|placards\.\d+\.case)$"
)


def museum_registry() -> Registry:
    from gameweave_museum import plugin

    reg = Registry()
    reg.add_plugin(plugin, "museum", "gameweave", "test")
    return reg


@pytest.fixture
def museum_server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(tmp_path / "leaks.sqlite3", museum_registry(), dev=True)) as s:
        yield s


def leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{path}.{k}" if path else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}.{i}")
    else:
        yield path, value


def known_to_security(view: dict[str, Any], square: str) -> bool:
    """Whether Security's own view explains knowing that someone stands on ``square``
    right now: a guard is there, or evidence was found there this round."""
    if any(g["at"] == square for g in view["guards"]):
        return True
    return any(e["at"] == square and e["round"] >= view["round"] - 1 for e in view["evidence"])


def check_security_payload(payload: dict[str, Any], thief_at: str | None, seen_lines: int) -> None:
    """No field or new history line of a Security/spectator payload names the
    Thief's square, unless Security's own view explains it."""
    view = payload["view"]
    assert "thief" not in view
    if "outcome" in payload or thief_at is None:
        return
    assert "reveal" not in view
    explained = known_to_security(view, thief_at)
    for path, value in leaves({k: v for k, v in view.items() if k != "board"}):
        if value == thief_at:
            # Old evidence may lie where the Thief stands again: a coincidence the map
            # allows. Any other field naming the square is a leak.
            assert PUBLIC_PATHS.match(path), f"the Thief's square {thief_at} at {path}"
    for line in payload["history"][seen_lines:]:
        if thief_at in SQUARE.findall(line):
            assert explained, f"history line names the Thief's square {thief_at}: {line!r}"
    text = json.dumps({k: payload[k] for k in ("history", "awaiting", "seats", "labels")})
    assert "You walk" not in text and "You force" not in text


class Stream(threading.Thread):
    """Collects every payload one seat's event stream pushes."""

    def __init__(self, url: str, match_id: str, token: str | None) -> None:
        super().__init__(daemon=True)
        self.url = f"{url}/api/matches/{match_id}/events"
        self.params = {"token": token} if token else {}
        self.payloads: list[dict[str, Any]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, params=self.params, timeout=30) as r:
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        self.payloads.append(json.loads(line[5:]))
                        if "outcome" in self.payloads[-1] or self.stop.is_set():
                            return
        except httpx.HTTPError:
            return


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_museum_security_never_learns_the_thiefs_square(
    museum_server: ThreadServer, players: int, seed: int
) -> None:
    url = museum_server.url
    chooser = random.Random(seed)
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post(
            "/api/matches", json={"title": "museum", "players": players, "seed": seed}
        ).json()
        mid = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        streams = [Stream(url, mid, tokens[s]) for s in range(2, players + 1)]
        streams.append(Stream(url, mid, None))
        for s in streams:
            s.start()
        thief_at: dict[int, str | None] = {}
        checked = 0

        def read(seat: int | None) -> dict[str, Any]:
            headers = {"X-Seat-Token": tokens[seat]} if seat else {}
            r = http.get(f"/api/matches/{mid}", headers=headers)
            assert r.status_code == 200
            return dict(r.json())

        lines_seen = {s: 0 for s in [*range(2, players + 1), None]}
        while True:
            thief = read(1)
            version = thief["version"]
            thief_at[version] = thief["view"]["thief"].get("at")
            for seat in lines_seen:
                payload = read(seat)
                assert payload["version"] == version
                check_security_payload(payload, thief_at[version], lines_seen[seat])
                lines_seen[seat] = len(payload["history"])
                checked += 1
            if "outcome" in thief:
                break
            seat = thief["awaiting"][0]
            legal = thief["legal"] if seat == 1 else read(seat)["legal"]
            if seat != 1:
                # A refused guard move: the reason must not point at the Thief either.
                bad = {"type": "guard", "guard": 1, "to": "A1"}
                r = http.post(
                    f"/api/matches/{mid}/actions",
                    headers={"X-Seat-Token": tokens[seat]},
                    json={"version": version, "action": bad},
                )
                if r.status_code != 200:
                    assert set(r.json()) == {"error"}
                    if thief_at[version]:
                        assert thief_at[version] not in SQUARE.findall(r.json()["error"])
                else:
                    continue  # it happened to be legal: a real move, carry on
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": tokens[seat]},
                json={"version": version, "action": chooser.choice(legal)},
            )
            assert r.status_code == 200, r.text
            reply = r.json()
            if seat != 1:
                check_security_payload(reply, None if "outcome" in reply else "?", 0)
    for s in streams:
        s.join(20)
        assert s.payloads, "an event stream sent nothing"
        last_lines = 0
        for payload in s.payloads:
            check_security_payload(payload, thief_at.get(payload["version"]), last_lines)
            last_lines = len(payload["history"])
        assert "outcome" in s.payloads[-1]
    assert checked > 20
    # At the end everything is public, and the reveal says where the Thief was.
    final = read_final(url, mid)
    assert "reveal" in final["view"]


def read_final(url: str, mid: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/api/matches/{mid}").json())
