"""A script that plays one seat of a match through the HTTP API, with httpx (the
``http`` extra installs it). Start a server first with ``gameweave serve``."""

from __future__ import annotations

from typing import Any

import httpx


def play_first_choice(client: httpx.Client, title: str = "sealedbid") -> dict[str, Any]:
    """Create a two-seat match with a bot in seat 2, then play seat 1's first legal
    action; return seat 1's payload after it."""
    created = client.post("/api/matches", json={"title": title, "players": 2, "bots": [2]})
    match = created.raise_for_status().json()
    # Each human seat gets a secret token; it is what the server knows the seat by.
    seat = {"X-Seat-Token": match["seats"][0]["token"]}
    url = f"/api/matches/{match['id']}"
    payload = client.get(url, headers=seat).raise_for_status().json()
    # Actions go in their canonical JSON form, with the step the choice was made at.
    action = {"version": payload["version"], "action": payload["legal"][0]}
    reply = client.post(f"{url}/actions", headers=seat, json=action)
    if reply.status_code != 200:  # a refusal is one line of JSON: {"error": "..."}
        raise SystemExit(reply.json()["error"])
    result: dict[str, Any] = reply.json()
    return result


if __name__ == "__main__":
    with httpx.Client(base_url="http://127.0.0.1:8000") as client:
        print("\n".join(play_first_choice(client)["history"]))
