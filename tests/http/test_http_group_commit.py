"""Group commit: actions submitted on the event loop are committed by the store's
writer thread, several to a transaction. Every reply still waits for its own
action's commit; a commit that fails answers each of its requests with an error
and leaves their matches as the store has them."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.store import Row, Store

pytestmark = pytest.mark.timeout(60)

MATCHES = 8
T = TypeVar("T")


@pytest.fixture
def app(tmp_path: Path, sealed_registry: Registry) -> Iterator[Any]:
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry)
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


async def create_matches(http: httpx.AsyncClient, n: int) -> list[dict[str, Any]]:
    out = []
    for seed in range(n):
        r = await http.post("/api/matches", json={"title": "sealedbid", "players": 2, "seed": seed})
        assert r.status_code == 201, r.text
        out.append(r.json())
    return out


async def bid(
    http: httpx.AsyncClient, created: dict[str, Any], seat: int, version: int, coins: int
) -> httpx.Response:
    return await http.post(
        f"/api/matches/{created['id']}/actions",
        headers={"X-Seat-Token": created["seats"][seat - 1]["token"]},
        json={"version": version, "action": {"type": "bid", "coins": coins}},
    )


async def handed_over(app: Any, created: list[dict[str, Any]]) -> None:
    """Wait until each match's submission is applied and handed to the writer (its
    match stays locked until the commit), the writer being held up by the store's
    lock, which the caller holds."""
    lives = [app.state.hub.get(c["id"]) for c in created]
    for _ in range(2000):
        if all(live.lock.locked() for live in lives):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the submissions never reached the writer")


def test_concurrent_submissions_are_all_committed_in_order(app: Any, batches: list[int]) -> None:
    store: Store = app.state.store

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, list[tuple[int, int]]]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            created = await create_matches(http, MATCHES)
            acked: dict[str, list[tuple[int, int]]] = {c["id"]: [] for c in created}

            async def play(c: dict[str, Any]) -> None:
                version = 2  # the first lot is bid already
                # Three lots: seat 1 bids, then seat 2, each on the version it saw.
                for lot in range(3):
                    for seat in (1, 2):
                        r = await bid(http, c, seat, version, lot + seat)
                        assert r.status_code == 200, r.text
                        version = r.json()["version"]
                        acked[c["id"]].append((seat, lot + seat))
                        # Acknowledged means stored, at the index the reply names.
                        stored = store.load(c["id"])
                        assert stored is not None and len(stored.actions) >= version

            # Hold the writer up while the first submissions queue, so that they
            # must be committed together.
            with store._lock:
                first = [asyncio.create_task(bid(http, c, 1, 0, 9)) for c in created]
                await handed_over(app, created)
            answers = await asyncio.gather(*first)
            assert [a.status_code for a in answers] == [200] * MATCHES
            for c in created:
                acked[c["id"]].append((1, 9))
                r = await bid(http, c, 2, 1, 1)
                assert r.status_code == 200, r.text
                acked[c["id"]].append((2, 1))
            await asyncio.gather(*(play(c) for c in created))
            return created, acked

    created, acked = run(scenario)
    # The first batch the writer took holds at least one; the others waited for it.
    assert max(batches) >= MATCHES // 2
    for c in created:
        stored = store.load(c["id"])
        assert stored is not None
        assert [(seat, act["coins"]) for seat, act in stored.actions] == acked[c["id"]]


def test_a_failed_commit_answers_each_waiting_request_and_changes_nothing(
    app: Any, batches: list[int]
) -> None:
    store: Store = app.state.store

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            created = await create_matches(http, 6)
            doomed = {c["id"] for c in created[:3]}
            # The disk refuses the doomed matches' actions: a real SQLite failure
            # inside the transaction the writer opens for the whole batch.
            ids = ", ".join(f"'{i}'" for i in sorted(doomed))
            store._db.execute(
                f"CREATE TEMP TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.match_id IN ({ids})"
                " BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
            )
            before = {c["id"]: (await http.get(f"/api/matches/{c['id']}")).json() for c in created}
            with store._lock:
                tasks = [asyncio.create_task(bid(http, c, 1, 0, 5)) for c in created]
                await handed_over(app, created)
            answers = await asyncio.gather(*tasks)
            for c, r in zip(created, answers, strict=True):
                if c["id"] in doomed:
                    assert r.status_code == 503, r.text
                    assert r.json() == {"error": "the action could not be stored; nothing changed"}
                else:
                    assert r.status_code == 200 and r.json()["version"] == 1, r.text
            for c in created:
                stored = store.load(c["id"])
                assert stored is not None
                after = (await http.get(f"/api/matches/{c['id']}")).json()
                if c["id"] in doomed:
                    assert stored.actions == [] and after == before[c["id"]]
                else:
                    assert stored.actions == [(1, {"type": "bid", "coins": 5})]
            # The failure is over: the same action is accepted now.
            store._db.execute("DROP TRIGGER refuse")
            for c in created[:3]:
                r = await bid(http, c, 1, 0, 5)
                assert r.status_code == 200 and r.json()["version"] == 1, r.text

    run(scenario)
    assert max(batches) >= 3  # failing rows shared a transaction with good ones


def test_one_bad_row_fails_only_itself(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.sqlite3")
    try:
        for mid in ("a", "b"):
            store.create(
                mid,
                title="sealedbid",
                title_version="1",
                players=2,
                seed=1,
                config={},
                distribution="test",
                distribution_version="1",
                bots={},
                tokens={1: f"{mid}-1", 2: f"{mid}-2"},
            )
        store.append("a", 1, 1, {"type": "bid", "coins": 1}, over=False)
        text = json.dumps({"coins": 2, "type": "bid"})
        results = store.append_rows(
            [Row("a", 1, 2, text, False), Row("b", 1, 2, text, False), Row("b", 2, 1, text, True)]
        )
        assert results[0] is not None and "UNIQUE" in str(results[0])
        assert results[1:] == [None, None]
        assert len(store.load("a").actions) == 1  # type: ignore[union-attr]
        assert len(store.load("b").actions) == 2  # type: ignore[union-attr]
        assert store.summaries()[0]["over"] or store.summaries()[1]["over"]
    finally:
        store.close()


def test_a_closed_store_commits_what_was_queued(tmp_path: Path, sealed_registry: Registry) -> None:
    """Closing the store lets the writer finish its queue, then stops it."""
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry)
    store: Store = app.state.store

    async def scenario() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            created = await create_matches(http, 3)
            with store._lock:
                tasks = [asyncio.create_task(bid(http, c, 1, 0, 2)) for c in created]
                await handed_over(app, created)
            closing = threading.Thread(target=store._group.close)
            closing.start()
            answers = await asyncio.gather(*tasks)
            closing.join(10)
            assert not closing.is_alive()
            return answers

    answers = run(scenario)
    assert [a.status_code for a in answers] == [200] * 3
    store.close()
    reopened = Store(tmp_path / "m.sqlite3")
    try:
        assert all(s["version"] == 1 for s in reopened.summaries())
    finally:
        reopened.close()


def test_a_request_cancelled_mid_commit_keeps_its_match_locked_until_the_commit(
    app: Any,
) -> None:
    store: Store = app.state.store

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            (created,) = await create_matches(http, 1)
            live = app.state.hub.get(created["id"])
            with store._lock:
                task = asyncio.create_task(bid(http, created, 1, 0, 4))
                for _ in range(2000):  # until it is applied and handed to the writer
                    if live.lock.locked():
                        break
                    await asyncio.sleep(0.001)
                await asyncio.sleep(0.05)
                task.cancel()
                await asyncio.sleep(0.05)
                # Still waiting for the commit, and the match still locked.
                assert not task.done() and live.lock.locked()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert not live.lock.locked()
            assert live.match.version == 1
            stored = store.load(created["id"])
            assert stored is not None and stored.actions == [(1, {"type": "bid", "coins": 4})]
            r = await bid(http, created, 2, 1, 3)
            assert r.status_code == 200 and r.json()["version"] == 2, r.text

    run(scenario)
