"""SIGKILL a real server process while clients are playing, start it again, and
find every acknowledged action (and bot action) in place."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest

from gameweave_core import Match, MatchLog, Registry

PLAYERS = 2
MATCHES = 6


class Player(threading.Thread):
    """Plays one match as both of its seats, recording every acknowledged action."""

    def __init__(
        self, url: str, created: dict[str, Any], acked: list[tuple[int, int, dict[str, Any]]]
    ):
        super().__init__(daemon=True)
        self.url = url
        self.created = created
        self.acked = acked
        self.failure: BaseException | None = None
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}

    def run(self) -> None:
        mid = self.created["id"]
        try:
            with httpx.Client(base_url=self.url, timeout=60) as http:
                while True:
                    payload = http.get(f"/api/matches/{mid}").json()
                    if "outcome" in payload:
                        return
                    seat = next(s for s in payload["awaiting"] if s in self.tokens)
                    action = {"type": "bid", "coins": (payload["version"] * 7) % 3}
                    r = http.post(
                        f"/api/matches/{mid}/actions",
                        headers={"X-Seat-Token": self.tokens[seat]},
                        json={"version": payload["version"], "action": action},
                    )
                    assert r.status_code == 200, r.text
                    # Acknowledged as action number version + 1 of the match.
                    self.acked.append((payload["version"] + 1, seat, action))
        except (httpx.HTTPError, ValueError):
            return  # the server died under us: this request was never acknowledged
        except BaseException as exc:
            self.failure = exc
            raise


@pytest.mark.slow  # about a minute of servers killed mid-write (make test runs it)
def test_sigkill_loses_no_acknowledged_action(
    process_server: Any, tmp_path: Any, sealed_registry: Registry
) -> None:
    db = tmp_path / "crash.sqlite3"
    server = process_server(db)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        created = [
            http.post(
                "/api/matches", json={"title": "sealedbid", "players": PLAYERS, "seed": i}
            ).json()
            for i in range(MATCHES)
        ]
        # One match where a bot plays seat 3: its actions must survive too.
        with_bot = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 3, "bots": [3], "seed": 99}
        ).json()
        # Tokens in queries (as event streams send them) must not reach the log.
        first = created[0]
        token = first["seats"][0]["token"]
        assert http.get(f"/api/matches/{first['id']}", params={"token": token}).status_code == 200
        with http.stream(
            "GET", f"/api/matches/{first['id']}/events", params={"token": token}
        ) as stream:
            assert next(stream.iter_lines()).startswith("retry:")
    acked: dict[str, list[tuple[int, int, dict[str, Any]]]] = {c["id"]: [] for c in created}
    bot_acked: list[tuple[int, int, dict[str, Any]]] = []

    for kills, threshold in enumerate((6, 24), start=1):
        players = [Player(server.url, c, acked[c["id"]]) for c in created]
        players.append(Player(server.url, with_bot, bot_acked))
        for p in players:
            p.start()
        # Kill while the players are busy: after a number of acknowledged actions,
        # with more requests in flight.
        deadline = time.monotonic() + 20
        while sum(map(len, acked.values())) < threshold and time.monotonic() < deadline:
            time.sleep(0.002)
        server.kill()
        for p in players:
            p.join(10)
            assert p.failure is None, p.failure
        assert any(acked.values()), "no action was acknowledged before the kill"
        # The kill must land mid-match, not after everything was over.
        assert any(len(a) < 2 * 5 for a in acked.values()), "every match had ended"
        server = process_server(db)
        with httpx.Client(base_url=server.url, timeout=60) as http:
            for c in created:
                payload = http.get(f"/api/matches/{c['id']}").json()
                # Everything acknowledged is there; the only extras are actions stored
                # whose reply the kill swallowed, at most one per kill.
                assert len(acked[c["id"]]) <= payload["version"] <= len(acked[c["id"]]) + kills

    # Finish every match, then compare its log with what the clients were told.
    finishers = [Player(server.url, c, acked[c["id"]]) for c in created]
    finishers.append(Player(server.url, with_bot, bot_acked))
    for p in finishers:
        p.start()
    for p in finishers:
        p.join(30)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        for c in [*created, with_bot]:
            r = http.get(f"/api/matches/{c['id']}/log")
            assert r.status_code == 200, r.text
            log = MatchLog.from_toml(r.text)
            Match.from_log(log, verify=True, registry=sealed_registry)
            stored = [(e.seat, e.action) for e in log.actions]
            mine = acked.get(c["id"], bot_acked)
            # Every acknowledged action is stored, at exactly the place it was given.
            for index, seat, action in mine:
                assert stored[index - 1] == (seat, action), (index, stored)
            # The only other human actions are those whose reply a kill swallowed.
            human = [e for e in log.actions if e.seat != 3]
            assert len(human) - len(mine) <= 2
            if c is with_bot:
                assert sum(1 for seat, _ in stored if seat == 3) == 5  # one bid per lot
    # The servers' whole output (uvicorn's and the app's access log) holds no token.
    server.stop()
    logged = "".join(p.read_text() for p in tmp_path.glob("server-*.log"))
    assert f"GET /api/matches/{first['id']}/events 200" in logged
    for c in [*created, with_bot]:
        for seat in c["seats"]:
            if "token" in seat:
                assert seat["token"] not in logged
