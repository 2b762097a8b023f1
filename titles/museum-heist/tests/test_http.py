"""Museum Heist through the HTTP API (the server's ASGI app, in process): what the
server sends a seat is built from that seat's view, so a card nobody was shown
changes no other seat's payload, and a card shown to a challenger reaches that
seat's payload only."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gameweave_museumheist import plugin

from gameweave_core import Registry, Rng
from gameweave_http.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    registry = Registry()
    registry.add_plugin(plugin, "museumheist", "gameweave", "test")
    # Development mode: the test picks the seed, so two matches share a board.
    app = create_app(tmp_path / "heist.sqlite3", registry, dev=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as c:
            yield c


class Table:
    """One match on the server, with its seat tokens."""

    def __init__(self, client: Any, players: int, seed: int) -> None:
        made = client.post(
            "/api/matches", json={"title": "museumheist", "players": players, "seed": seed}
        ).json()
        self.client = client
        self.id = made["id"]
        self.tokens = {s["seat"]: s["token"] for s in made["seats"]}

    def read(self, seat: int | None) -> dict[str, Any]:
        headers = {"X-Seat-Token": self.tokens[seat]} if seat else {}
        payload = self.client.get(f"/api/matches/{self.id}", headers=headers).json()
        payload.pop("match")  # the match's id: the one thing twins may not share
        return dict(payload)

    def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        version = self.read(seat)["version"]
        reply = self.client.post(
            f"/api/matches/{self.id}/actions",
            json={"version": version, "action": action},
            headers={"X-Seat-Token": self.tokens[seat]},
        )
        assert reply.status_code == 200, reply.text
        body = reply.json()
        body.pop("match", None)
        return dict(body)


def _hides_seat_one(action: dict[str, Any], artwork: str | None) -> bool:
    # No challenge (one of seat 1 would show its card; any other may end the round
    # before much is compared) and no piece onto the Artwork (it may be seat 1's).
    if action["type"] == "challenge":
        return False
    if action["type"] == "move":
        return bool(action["to"] != artwork)
    return True


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_unseen_card_changes_no_other_seats_payload(client: Any, players: int) -> None:
    a, b = Table(client, players, 40 + players), Table(client, players, 40 + players)
    watchers: list[int | None] = [*range(2, players + 1), None]
    a.act(1, {"type": "choose", "character": "artist"})
    b.act(1, {"type": "choose", "character": "duchess"})
    assert a.read(1)["view"]["you"]["card"] == "artist"
    rng = Rng(players)
    steps = 0
    for _ in range(40):
        for seat in watchers:
            assert a.read(seat) == b.read(seat), f"seat {seat} can tell the matches apart"
        payload = a.read(None)
        if not payload["awaiting"] or payload["view"]["round"] > 1:
            break
        seat = payload["awaiting"][0]
        legal = [
            x for x in a.read(seat)["legal"] if _hides_seat_one(x, payload["view"].get("artwork"))
        ]
        if not legal:
            break
        action = rng.choice(legal)
        reply_a, reply_b = a.act(seat, action), b.act(seat, action)
        if seat != 1:
            assert reply_a == reply_b
        steps += 1
    assert steps >= players + 3  # the choices and some turns were compared


def test_a_card_shown_to_the_challenger_reaches_that_seat_only(client: Any) -> None:
    table = Table(client, 3, 9)
    for seat, card in ((1, "artist"), (2, "duchess"), (3, "guard")):
        table.act(seat, {"type": "choose", "character": card})
    reply = table.act(1, {"type": "challenge", "seat": 3, "character": "boy"})
    assert reply["view"]["known"] == {"3": "guard"}
    assert "Seat 3 shows you The Guard" in reply["history"]
    others: tuple[int | None, ...] = (2, None)
    for other in others:
        payload = table.read(other)
        assert payload["view"]["known"] == {}
        assert not any("Guard" in line for line in payload["history"])
        assert not any("shows you" in line for line in payload["history"])
        assert payload["view"]["ruled_out"] == {"3": ["boy"]}
