"""Every per-seat JSON the server sends (a read, an action's reply, an event of the
stream, a replay) is the core's ``Match.payload(seat)`` plus fields that carry no
state of the match. The conformance kit checks ``Match.payload`` for leaks, so
this is what makes its check cover the server too.

The reference payloads come from a match rebuilt here from the stored seed,
options and actions, not from the server's own match object.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
from http_support import ThreadServer

from gameweave_core import Match, MatchLog, Registry

#: The fields the server adds to ``Match.payload``, none of them state of the match:
#: the match's id, the bot seats (fixed when it was created), a label per legal
#: action (``describe_action`` of the action alone, checked below), a bot's
#: failure notice and the bot seats searching now (a fact of the server's work,
#: which the bot's move, once applied, shows anyway). A new field must be
#: justified here, or be part of the payload.
STATELESS = {"match", "bots", "labels", "bot_error", "thinking"}


def reference(app: Any, registry: Registry, match_id: str, step: int | None = None) -> Match:
    """The match as the core alone builds it from what the store holds."""
    stored = app.state.store.load(match_id)
    match = Match(registry.title(stored.title), stored.players, stored.seed, stored.config)
    for seat, action in stored.actions[:step]:
        match.submit(seat, action)
    return match


def check(
    sent: dict[str, Any], match: Match, seat: int | None, match_id: str, bots: list[int]
) -> None:
    expected = match.payload(seat)
    assert set(sent) - set(expected) <= STATELESS, set(sent) - set(expected)
    assert {k: sent[k] for k in expected} == expected
    assert sent["match"] == match_id and sent["bots"] == bots
    title = match.title
    labels = [title.describe_action(title.codec.from_json(a)) for a in expected["legal"]]
    assert sent["labels"] == labels
    assert "bot_error" not in sent
    assert set(sent["thinking"]) <= set(bots)


def stream(response: httpx.Response) -> Iterator[dict[str, Any]]:
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


def test_every_payload_the_server_sends_is_the_cores_plus_stateless_fields(
    sealed_app: Any, sealed_registry: Registry
) -> None:
    app = sealed_app
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        created = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 3, "bots": [3], "seed": 21}
        ).json()
        mid = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
        labels = [{"seat": s["seat"], "label": s["label"]} for s in created["seats"]]
        assert labels == reference(app, sealed_registry, mid).payload(None)["seats"]
        checked = 0
        with (
            http.stream("GET", f"/api/matches/{mid}/events", params={"token": tokens[2]}) as two,
            http.stream("GET", f"/api/matches/{mid}/events") as watching,
        ):
            streams = {2: stream(two), None: stream(watching)}
            for turn in range(6):
                for seat, events in streams.items():
                    event = next(events)
                    step = event["version"]
                    check(event, reference(app, sealed_registry, mid, step), seat, mid, [3])
                    checked += 1
                now = reference(app, sealed_registry, mid)
                for seat in (1, 2, None):
                    headers = {"X-Seat-Token": tokens[seat]} if seat else {}
                    read = http.get(f"/api/matches/{mid}", headers=headers).json()
                    check(read, now, seat, mid, [3])
                    checked += 1
                if now.is_over:
                    break
                seat = 1 + turn % 2
                if seat not in now.awaiting:
                    seat = 3 - seat
                reply = http.post(
                    f"/api/matches/{mid}/actions",
                    headers={"X-Seat-Token": tokens[seat]},
                    json={"version": now.step, "action": now.legal_json(seat)[-1]},
                )
                assert reply.status_code == 200, reply.text
                check(reply.json(), reference(app, sealed_registry, mid), seat, mid, [3])
                checked += 1
        assert checked >= 30


def test_a_replayed_payload_is_the_cores_plus_its_labels(
    client: Any, sealed_registry: Registry
) -> None:
    created = client.post(
        "/api/matches", json={"title": "sealedbid", "players": 2, "bots": [2], "seed": 3}
    ).json()
    mid, token = created["id"], created["seats"][0]["token"]
    while "outcome" not in (now := client.get(f"/api/matches/{mid}").json()):
        r = client.post(
            f"/api/matches/{mid}/actions",
            headers={"X-Seat-Token": token},
            json={"version": now["version"], "action": {"type": "bid", "coins": 1}},
        )
        assert r.status_code == 200, r.text
    text = client.get(f"/api/matches/{mid}/log").text
    for step in (0, 3):
        for seat in (1, 2, None):
            body = client.post("/api/replay", json={"log": text, "step": step, "seat": seat})
            sent = body.json()["payload"]
            log = MatchLog.from_toml(text)
            match = Match.from_log(log, upto=step, registry=sealed_registry)
            expected = match.payload(seat)
            assert set(sent) - set(expected) == {"labels"}
            assert {k: sent[k] for k in expected} == expected
            title = match.title
            assert sent["labels"] == [
                title.describe_action(title.codec.from_json(a)) for a in expected["legal"]
            ]
