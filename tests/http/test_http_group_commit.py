"""Group commit: the actions submitted during one turn of the event loop are
committed together, in one transaction. Every reply still waits for its own
action's commit; a commit that fails answers each of its requests with an error
and leaves their matches as the store has them."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from http_support import new_match

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.store import Row, Store

pytestmark = pytest.mark.timeout(60)

MATCHES = 8
T = TypeVar("T")


@pytest.fixture
def app(tmp_path: Path, sealed_registry: Registry) -> Iterator[Any]:
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry, dev=True)
    yield app
    app.state.store.close()


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of rows of each call of ``Store.append_rows``."""
    sizes: list[int] = []
    original = Store.append_rows

    def counting(self: Store, rows: Any) -> Any:
        sizes.append(len(rows))
        return original(self, rows)

    monkeypatch.setattr(Store, "append_rows", counting)
    return sizes


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(scenario())`` in a thread of its own: the browser tests' Playwright
    keeps an event loop running in the main thread."""
    out: list[T] = []
    failed: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(scenario()))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join(50)
    if failed:
        raise failed[0]
    assert out, "the scenario did not finish"
    return out[0]


async def call(
    app: Any, method: str, path: str, body: Any = None, token: str | None = None
) -> tuple[int, Any]:
    """One request straight to the ASGI app: its status and JSON answer. The body
    is there at once, so concurrent calls reach their commits in the same turn."""
    data = b"" if body is None else json.dumps(body).encode()
    # Every HTTP/1.1 request names its host (the server refuses one that does not).
    headers = [(b"host", b"127.0.0.1"), (b"content-length", str(len(data)).encode())]
    if method == "POST":
        headers.append((b"content-type", b"application/json"))
    if token is not None:
        headers.append((b"x-seat-token", token.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 1234),
    }
    sent = False
    status, parts = 0, []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.Event().wait()  # never disconnects
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        else:
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, json.loads(b"".join(parts))


async def create_matches(app: Any, n: int) -> list[dict[str, Any]]:
    out = []
    for seed in range(n):
        status, created = await call(
            app, "POST", "/api/matches", {"title": "sealedbid", "players": 2, "seed": seed}
        )
        assert status == 201, created
        out.append(created)
    return out


async def bid(
    app: Any, created: dict[str, Any], seat: int, version: int, coins: int
) -> tuple[int, Any]:
    return await call(
        app,
        "POST",
        f"/api/matches/{created['id']}/actions",
        {"version": version, "action": {"type": "bid", "coins": coins}},
        created["seats"][seat - 1]["token"],
    )


def test_concurrent_submissions_are_all_committed_in_order(app: Any, batches: list[int]) -> None:
    store: Store = app.state.store

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, list[tuple[int, int]]]]:
        created = await create_matches(app, MATCHES)
        acked: dict[str, list[tuple[int, int]]] = {c["id"]: [] for c in created}

        async def play(c: dict[str, Any], seat: int, version: int, coins: int) -> int:
            status, payload = await bid(app, c, seat, version, coins)
            assert status == 200, payload
            acked[c["id"]].append((seat, coins))
            # Acknowledged means stored, at the index the reply names.
            stored = store.load(c["id"])
            assert stored is not None and len(stored.actions) == payload["version"]
            assert stored.actions[-1] == (seat, {"type": "bid", "coins": coins})
            return int(payload["version"])

        versions = [0] * MATCHES
        # Four lots: all seats 1 at once, then all seats 2, each on the version it saw.
        for lot in range(4):
            for seat in (1, 2):
                versions = list(
                    await asyncio.gather(
                        *(
                            play(c, seat, v, (lot + seat + i) % 2)
                            for i, (c, v) in enumerate(zip(created, versions, strict=True))
                        )
                    )
                )
        return created, acked

    created, acked = run(scenario)
    assert max(batches) == MATCHES  # the actions of one turn share one transaction
    for c in created:
        stored = store.load(c["id"])
        assert stored is not None
        assert [(seat, act["coins"]) for seat, act in stored.actions] == acked[c["id"]]
        assert len(acked[c["id"]]) == 8


def test_a_failed_commit_answers_each_waiting_request_and_changes_nothing(
    app: Any, batches: list[int]
) -> None:
    store: Store = app.state.store

    async def scenario() -> None:
        created = await create_matches(app, 6)
        doomed = {c["id"] for c in created[:3]}
        # The disk refuses the doomed matches' actions: a real SQLite failure inside
        # the transaction opened for the whole batch.
        ids = ", ".join(f"'{i}'" for i in sorted(doomed))
        store._db.execute(
            "CREATE TEMP TRIGGER refuse BEFORE INSERT ON actions"
            f" WHEN NEW.match_id IN ({ids}) BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
        )
        before = {c["id"]: await call(app, "GET", f"/api/matches/{c['id']}") for c in created}
        answers = await asyncio.gather(*(bid(app, c, 1, 0, 5) for c in created))
        for c, (status, body) in zip(created, answers, strict=True):
            if c["id"] in doomed:
                assert status == 503, body
                assert body == {
                    "error": "the action could not be stored (see the server log); nothing changed"
                }
            else:
                assert status == 200 and body["version"] == 1, body
        for c in created:
            stored = store.load(c["id"])
            assert stored is not None
            after = await call(app, "GET", f"/api/matches/{c['id']}")
            if c["id"] in doomed:
                assert stored.actions == [] and after == before[c["id"]]
            else:
                assert stored.actions == [(1, {"type": "bid", "coins": 5})]
        # The failure is over: the same action is accepted now.
        store._db.execute("DROP TRIGGER refuse")
        for c in created[:3]:
            status, body = await bid(app, c, 1, 0, 5)
            assert status == 200 and body["version"] == 1, body

    run(scenario)
    assert 6 in batches  # the failing rows shared a transaction with good ones


def test_one_bad_row_fails_only_itself(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.sqlite3")
    try:
        for mid in ("a", "b"):
            new_match(store, mid, seed=1, tokens={1: f"{mid}-1", 2: f"{mid}-2"})
        store.append("a", 1, 1, {"type": "bid", "coins": 1}, over=False)
        text = json.dumps({"coins": 2, "type": "bid"})
        results = store.append_rows(
            [Row("a", 1, 2, text, False), Row("b", 1, 2, text, False), Row("b", 2, 1, text, True)]
        )
        assert results[0] is not None and "UNIQUE" in str(results[0])
        assert results[1:] == [None, None]
        assert len(store.load("a").actions) == 1  # type: ignore[union-attr]
        assert len(store.load("b").actions) == 2  # type: ignore[union-attr]
        over = {s["id"]: s["over"] for s in store.summaries()}
        assert over == {"a": False, "b": True}
    finally:
        store.close()


def test_a_request_cancelled_before_its_commit_keeps_its_match_until_the_commit(
    app: Any,
) -> None:
    store: Store = app.state.store

    async def scenario() -> None:
        (created,) = await create_matches(app, 1)
        live = await app.state.hub.get(created["id"])
        task = asyncio.create_task(bid(app, created, 1, 0, 4))
        await asyncio.sleep(0)  # the request runs up to its commit, due next turn
        assert live.lock.locked() and not task.done()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The cancellation reached the request only after its commit.
        assert not live.lock.locked()
        assert live.match.step == 1
        stored = store.load(created["id"])
        assert stored is not None and stored.actions == [(1, {"type": "bid", "coins": 4})]
        status, body = await bid(app, created, 2, 1, 3)
        assert status == 200 and body["version"] == 2, body

    run(scenario)
