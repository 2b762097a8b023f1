"""Leak test of The House Job through the HTTP API: whole matches, every payload
the server sends (replies, reads, event streams, refusals), and no card that is
still in the deck or face down as the house's hole card ever appears in one."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ThreadServer
from test_http_leaks import Stream, leaves

from gameweave_core import Registry
from gameweave_http.app import create_app

CARD_CODE = re.compile(r"^[A2-9TJQK][SHDC]$")
CARD_LABEL = re.compile(r"(?<![0-9A-Za-z])(10|[A2-9JQK])([♠♥♦♣])")
SIGNS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def house_registry() -> Registry:
    from gameweave_house import plugin

    reg = Registry()
    reg.add_plugin(plugin, "house", "gameweave", "test")
    return reg


def cards_in(payload: dict[str, Any]) -> set[str]:
    """Every card a payload names: as a code anywhere in its data, or as a label
    ("10♥", "A♠") in any of its texts."""
    found = set()
    for _, value in leaves(payload):
        if not isinstance(value, str):
            continue
        if CARD_CODE.match(value):
            found.add(value)
        for rank, sign in CARD_LABEL.findall(value):
            found.add(("T" if rank == "10" else rank) + SIGNS[sign])
    return found


def unrevealed(log: Any, registry: Registry, version: int) -> set[str]:
    """The cards nobody may see after ``version`` actions: the undealt deck (bar
    any the rules turned face up) and the house's hole card while it is face down.
    Read from the match's own state, which only this test peeks at."""
    from gameweave_core import Match

    match = Match.from_log(log, upto=version, registry=registry)
    state = match.state
    hidden = set(state.deck)
    from gameweave_house.rules import face_up

    hidden -= set(face_up(state))
    if len(state.dealer) >= 2 and not state.hole_up:
        hidden.add(state.dealer[1])
    return hidden


@pytest.fixture
def house_server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(tmp_path / "house.sqlite3", house_registry(), dev=True)) as s:
        yield s


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_house_payloads_never_show_an_unrevealed_card(
    house_server: ThreadServer, players: int, seed: int
) -> None:
    from gameweave_core import MatchLog

    url = house_server.url
    chooser = random.Random(seed)
    captured: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=30) as http:
        created = http.post(
            "/api/matches", json={"title": "house", "players": players, "seed": seed}
        ).json()
        mid = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        streams = [Stream(url, mid, tokens[1]), Stream(url, mid, None)]
        for s in streams:
            s.start()

        def read(seat: int | None) -> dict[str, Any]:
            headers = {"X-Seat-Token": tokens[seat]} if seat else {}
            return dict(http.get(f"/api/matches/{mid}", headers=headers).json())

        while True:
            payloads = [read(s) for s in [*tokens, None]]
            captured.extend(payloads)
            first = payloads[0]
            if "outcome" in first:
                break
            seat = first["awaiting"][0]
            mine = payloads[seat - 1]
            # A refused action's reason is captured and checked too.
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": tokens[seat]},
                json={"version": first["version"], "action": {"type": "ability", "card": "nope"}},
            )
            assert r.status_code in (400, 422)
            captured.append({"version": first["version"], "error": r.json()["error"]})
            r = http.post(
                f"/api/matches/{mid}/actions",
                headers={"X-Seat-Token": tokens[seat]},
                json={"version": first["version"], "action": chooser.choice(mine["legal"])},
            )
            assert r.status_code == 200, r.text
            captured.append(r.json())
        log = MatchLog.from_toml(http.get(f"/api/matches/{mid}/log").text)
    for s in streams:
        s.join(20)
        assert s.payloads and "outcome" in s.payloads[-1]
        captured.extend(s.payloads)
    registry = house_registry()
    hidden_at: dict[int, set[str]] = {}

    def hidden(v: int) -> set[str]:
        if v not in hidden_at:
            hidden_at[v] = unrevealed(log, registry, v)
        return hidden_at[v]

    # A history line is checked against the cards hidden when it was written (the
    # first version it was seen at: every version is read): once the discard is
    # shuffled back in, cards an old line named are in the deck again, unseen.
    written: dict[tuple[Any, int, str], int] = {}
    for payload in captured:
        for i, line in enumerate(payload.get("history", [])):
            key = (payload.get("seat"), i, line)
            written[key] = min(written.get(key, payload["version"]), payload["version"])
    shown = 0
    for payload in captured:
        v = payload["version"]
        seen = cards_in({k: x for k, x in payload.items() if k != "history"})
        shown += len(seen)
        leaked = seen & hidden(v)
        assert not leaked, f"version {v}: unrevealed {sorted(leaked)} in {payload}"
        for i, line in enumerate(payload.get("history", [])):
            then = written[(payload.get("seat"), i, line)]
            named = cards_in({"line": line})
            shown += len(named)
            leaked = named & hidden(then)
            assert not leaked, f"version {then}: unrevealed {sorted(leaked)} in {line!r}"
    assert shown > 0  # the check looked at real cards, not at nothing
    assert len(hidden_at) > 10
