"""Several seats choosing at once: a page whose version is old only because
another seat made its choice of the same round may still act (no reload, no
second click); a page that missed anything more is still refused 409."""

from __future__ import annotations

from typing import Any

import pytest
from hub_calls import run

from gameweave_core import Registry
from gameweave_http.hub import Hub, _stale_ok
from gameweave_http.refusals import StaleVersion
from gameweave_http.store import Store


def create(client: Any, players: int = 2, **extra: Any) -> dict[str, Any]:
    body = {"title": "sealedbid", "players": players, "seed": 5, **extra}
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def bid(client: Any, created: dict[str, Any], seat: int, version: int, coins: int) -> Any:
    tok = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    return client.post(
        f"/api/matches/{created['id']}/actions",
        headers={"X-Seat-Token": tok},
        json={"version": version, "action": {"type": "bid", "coins": coins}},
    )


def version_of(client: Any, created: dict[str, Any]) -> int:
    return int(client.get(f"/api/matches/{created['id']}").json()["version"])


def stale(response: Any) -> None:
    assert response.status_code == 409, response.text
    message = response.json()["error"]
    assert "stale" in message and "\n" not in message


def test_a_seat_may_act_on_the_version_it_saw_after_others_chose(client: Any) -> None:
    created = create(client, players=3)
    # All three pages show version 0; seats 3 and 2 bid first.
    assert bid(client, created, 3, 0, 4).status_code == 200
    assert bid(client, created, 2, 0, 5).status_code == 200
    r = bid(client, created, 1, 0, 6)  # no 409: its own choice is what it was
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == 3 and after["view"]["lots_left"] == 4  # the lot was sold
    assert after["view"]["revealed"] == {"1": 6, "2": 5, "3": 4}


def test_a_page_that_missed_its_own_action_or_a_round_is_refused(client: Any) -> None:
    created = create(client)
    assert bid(client, created, 2, 0, 3).status_code == 200
    assert bid(client, created, 1, 0, 2).status_code == 200  # the round is over: version 2
    assert version_of(client, created) == 2
    # Both seats are awaited again; a page from before the last round is refused:
    # seat 1 acted since version 0 and 1 (a double click, a second tab).
    stale(bid(client, created, 1, 0, 1))
    stale(bid(client, created, 1, 1, 1))
    # Seat 2 acted since version 0 too (its own bid of the last round).
    stale(bid(client, created, 2, 0, 1))
    # Seat 2 at version 1 was not awaited then (it had bid): that page offered nothing.
    stale(bid(client, created, 2, 1, 1))
    assert version_of(client, created) == 2  # nothing changed
    assert bid(client, created, 2, 2, 1).status_code == 200


def test_the_seat_must_have_the_same_legal_actions_as_on_its_page(
    tmp_path: Any, sealed_registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = Hub(Store(tmp_path / "m.sqlite3"), sealed_registry)
    live, _ = run(hub.create("sealedbid", 3, 5))
    run(hub.submit(live, 2, 0, {"type": "bid", "coins": 3}))
    assert _stale_ok(live.match, 1, 0)
    # Were seat 1's choices not what its page at version 0 offered (the rule compares
    # them with a replay to that version), its stale page would be refused.
    fewer = live.match.legal_json(1)[:-1]
    monkeypatch.setattr(live.match, "legal_json", lambda seat: fewer)
    assert not _stale_ok(live.match, 1, 0)
    with pytest.raises(StaleVersion, match="stale"):
        run(hub.submit(live, 1, 0, {"type": "bid", "coins": 1}))
    assert live.match.step == 1
