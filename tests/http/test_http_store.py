"""The store and the hub: what the server does to answer quickly, and that none
of it gives up a guarantee (commits before replies, a WAL that stays bounded, a
busy match never stalling the others)."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import new_match
from hub_calls import run

from gameweave_core import Registry
from gameweave_core.hooks import hookimpl
from gameweave_http.app import create_app
from gameweave_http.hub import Hub
from gameweave_http.store import Store, new_match_id

BID = {"type": "bid", "coins": 1}

# A regression here blocks rather than fails: let it fail.
# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("fresh_seeds")]


def rows_in_main_file(db: Path, tmp: Path) -> int:
    """Actions in the database file itself, leaving the WAL out: what a checkpoint
    has copied back. (A copy without its -wal file is read as the file alone.)"""
    copy = tmp / "copy.sqlite3"
    shutil.copyfile(db, copy)
    con = sqlite3.connect(copy)
    try:
        return int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:  # not even the schema is in the file yet
        return 0
    finally:
        con.close()


def test_durability_is_normal_in_wal_mode_unless_fsync_is_asked_for(tmp_path: Path) -> None:
    for fsync, expected in ((False, 1), (True, 2)):  # 1 = NORMAL, 2 = FULL
        store = Store(tmp_path / f"{fsync}.sqlite3", fsync=fsync)
        try:
            assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert store._db.execute("PRAGMA synchronous").fetchone()[0] == expected
        finally:
            store.close()


def test_the_wal_stays_bounded_under_a_long_run_of_commits(tmp_path: Path) -> None:
    """Checkpoints keep up with the writer: the WAL file is restarted, so it stops
    growing (each commit adds a 4 KiB page; 3,000 unchecked would need 12 MiB)."""
    db = tmp_path / "m.sqlite3"
    store = Store(db)
    try:
        new_match(store)
        for index in range(1, 3001):
            store.append("m1", index, 1, BID, over=False)
        wal = Path(f"{db}-wal").stat().st_size
        assert 0 < wal < 6 * 1024 * 1024, wal
        assert rows_in_main_file(db, tmp_path) > 1000  # checkpointed into the file itself
        assert len(store.load("m1").actions) == 3000  # type: ignore[union-attr]
    finally:
        store.close()


def test_seat_tokens_are_answered_from_memory_after_the_first_lookup(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    first = Store(db)
    new_match(first)
    first.close()
    store = Store(db)  # a restarted server: nothing cached yet
    try:
        assert not store.tokens_cached("m1")
        assert store.seat_for("m1", "token-two") == 2
        assert store.tokens_cached("m1")
        # Even with the file gone from under it, the cache answers, right and wrong.
        store._db.execute("DELETE FROM seats")
        assert store.seat_for("m1", "token-one") == 1
        assert store.seat_for("m1", "token-three") is None
        assert store.seat_for("m1", "token-one"[:-1]) is None
        # An unknown match is not remembered (ids from outside must not fill memory).
        assert store.seat_for("nope", "token-one") is None
        assert not store.tokens_cached("nope")
    finally:
        store.close()


def test_the_list_of_matches_follows_their_actions(tmp_path: Path) -> None:
    store = Store(tmp_path / "m.sqlite3")
    try:
        new_match(store)
        store.append("m1", 1, 1, BID, over=False)
        store.append("m1", 2, 2, BID, over=False)
        assert [(s["version"], s["over"]) for s in store.summaries()] == [(2, False)]
        store.append("m1", 3, 1, BID, over=True)
        assert [(s["version"], s["over"]) for s in store.summaries()] == [(3, True)]
        with pytest.raises(sqlite3.IntegrityError):  # one action per index, ever
            store.append("m1", 3, 2, BID, over=False)
    finally:
        store.close()


def test_rebuilding_a_match_leaves_the_event_loop_and_stalls_no_other_match(
    tmp_path: Path, sealed_registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match is rebuilt from the store (a replay) in a worker thread: meanwhile the
    event loop answers a match that is live, and a second read of the one being
    rebuilt waits for it rather than rebuilding it twice."""
    store = Store(tmp_path / "m.sqlite3")
    try:
        first = Hub(store, sealed_registry)
        slow, tokens = run(first.create("sealedbid", 2, seed=3))
        run(first.submit(slow, 1, 0, BID))
        quick, _ = run(first.create("sealedbid", 2, seed=4))
        loaded: list[threading.Thread] = []
        real_load = Store.load

        def load(self: Store, match_id: str) -> Any:
            loaded.append(threading.current_thread())
            time.sleep(0.5)  # a long replay
            return real_load(self, match_id)

        monkeypatch.setattr(Store, "load", load)
        fresh = Hub(store, sealed_registry)  # a restarted server
        fresh._live[quick.id] = quick  # live already, as after its first use
        order: list[str] = []

        async def scenario() -> tuple[Any, Any]:
            async def read(match_id: str, name: str) -> Any:
                live = await fresh.get(match_id)
                order.append(name)
                return live

            slow_reads = [asyncio.create_task(read(slow.id, "slow")) for _ in range(2)]
            await asyncio.sleep(0.1)  # the rebuild is under way in its thread
            assert await read(quick.id, "quick") is quick
            one, two = await asyncio.gather(*slow_reads)
            assert loaded and loaded[0] is not threading.current_thread()
            return one, two

        one, two = run(scenario())
        assert order == ["quick", "slow", "slow"]  # the live match did not wait
        assert one is two and one.match.step == 1 and len(loaded) == 1
        assert fresh.seat(slow.id, tokens[1]) == 1
    finally:
        store.close()


class SlowSecondMove:
    """A bot that bids at once, then waits before each later move until released:
    a bot thinking at length (off the event loop, holding its match's lock)."""

    started = threading.Event()
    release = threading.Event()

    def __init__(self) -> None:
        self.moves = 0

    def act(self, observation: Any, rng: Any) -> Any:
        self.moves += 1
        if self.moves > 1:
            SlowSecondMove.started.set()
            SlowSecondMove.release.wait(30)
        return observation.legal[0]


class SlowBotPlugin:
    @hookimpl
    def register_bots(self, register: Any) -> None:
        register("sealedbid", "slow", lambda seat, players: SlowSecondMove())


def test_a_bot_thinking_at_length_stalls_no_other_request(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """A bot thinks off the event loop, holding only its own match's lock: a read of
    its match waits for its move (and never sees half of it), while the server
    answers every other match at once."""
    from http_support import ThreadServer

    sealed_registry.add_plugin(SlowBotPlugin(), "slowbot", "tests", "1")
    SlowSecondMove.started.clear()
    SlowSecondMove.release.clear()
    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        slow = http.post(
            "/api/matches", json={"title": "sealedbid", "players": 2, "bots": {"2": "slow"}}
        ).json()
        other = http.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        assert http.get(f"/api/matches/{slow['id']}").json()["version"] == 1  # it bid at once
        answers: dict[str, httpx.Response] = {}

        def ask(name: str, method: str, path: str, **kw: Any) -> threading.Thread:
            def call() -> None:
                with httpx.Client(base_url=server.url, timeout=30) as own:
                    answers[name] = own.request(method, path, **kw)

            thread = threading.Thread(target=call)
            thread.start()
            return thread

        # Seat 1's bid: the bot then thinks about the next lot before the reply.
        bid = ask(
            "bid",
            "POST",
            f"/api/matches/{slow['id']}/actions",
            headers={"X-Seat-Token": slow["seats"][0]["token"]},
            json={"version": 1, "action": {"type": "bid", "coins": 2}},
        )
        assert SlowSecondMove.started.wait(30)
        read = ask("read", "GET", f"/api/matches/{slow['id']}")
        time.sleep(0.3)
        assert not answers  # both wait for the bot's move...
        # ...and the loop serves another match meanwhile, fully.
        r = http.post(
            f"/api/matches/{other['id']}/actions",
            headers={"X-Seat-Token": other["seats"][0]["token"]},
            json={"version": 0, "action": {"type": "bid", "coins": 1}},
        )
        assert r.status_code == 200 and r.json()["version"] == 1
        assert http.get("/api/titles").status_code == 200
        assert not answers
        SlowSecondMove.release.set()
        bid.join(30)
        read.join(30)
        assert answers["bid"].status_code == answers["read"].status_code == 200
        assert answers["bid"].json()["version"] == answers["read"].json()["version"] == 3


def test_remembered_labels_belong_to_their_own_title(tmp_path: Path) -> None:
    """Two titles sharing action classes (a subclass) never get each other's labels."""
    from gameweave_sealedbid.title import SealedBid

    class Mute(SealedBid):
        name = "mute"

        def describe_action(self, action: Any) -> str:
            raise RuntimeError("no words")

    reg = Registry()
    reg.add_title(SealedBid(), "test", "1")
    reg.add_title(Mute(), "test", "1")
    store = Store(tmp_path / "m.sqlite3")
    hub = Hub(store, reg)
    try:
        plain, _ = run(hub.create("sealedbid", 2, seed=5))
        mute, _ = run(hub.create("mute", 2, seed=5))
        for _ in range(2):  # the second time from the cache
            described = json.loads(run(hub.payload(plain, 1)))["labels"]
            assert described == [
                SealedBid().describe_action(a) for a in plain.match.legal_actions(1)
            ]
            assert json.loads(run(hub.payload(mute, 1)))["labels"][:2] == [
                '{"coins": 0, "type": "bid"}',
                '{"coins": 1, "type": "bid"}',
            ]
    finally:
        store.close()


def test_an_app_asked_to_fsync_stores_with_full_durability(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    for fsync, expected in ((False, 1), (True, 2)):
        app: Any = create_app(tmp_path / f"{fsync}.sqlite3", sealed_registry, fsync=fsync)
        try:
            assert app.state.store._db.execute("PRAGMA synchronous").fetchone()[0] == expected
        finally:
            app.state.store.close()


def test_serve_passes_fsync_to_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from gameweave_http import server

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    # serve() sets the collector up for a server process: the tests' keeps its own.
    monkeypatch.setattr(server, "collect_less", lambda: None)
    # serve() sets the access log's level: the tests that follow keep their own.
    access = logging.getLogger("gameweave_http.access")
    level = access.level
    try:
        for fsync, expected in ((False, 1), (True, 2)):
            server.serve(port=0, db=tmp_path / f"{fsync}.sqlite3", fsync=fsync)
            store = served[-1].state.store
            try:
                assert store._db.execute("PRAGMA synchronous").fetchone()[0] == expected
            finally:
                store.close()
    finally:
        access.setLevel(level)


def test_match_ids_sort_as_their_matches_were_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match's id starts with the time it was made, so later matches' rows land at
    the end of each table's B-tree (see ``new_match_id``); the rest is random, and
    every id is safe in a URL."""
    made = []
    for ms in (1, 63, 64, 4095, 4096, 1_764_900_000_000, 1_764_900_000_001, 2**42 - 1):
        monkeypatch.setattr(time, "time_ns", lambda ms=ms: ms * 1_000_000 + 999_999)
        made.append(new_match_id())
    assert made == sorted(made)
    assert all(len(i) == 15 and i.replace("-", "").replace("_", "").isalnum() for i in made)
    # The clock stands still (a fixed value, nothing is timed): ids made at one
    # instant share their time and differ by their random part (50 draws of 48
    # bits: a repeat less than once in 10**11 runs).
    monkeypatch.setattr(time, "time_ns", lambda: 1_764_900_000_000_000_000)
    one_instant = {new_match_id() for _ in range(50)}
    assert len(one_instant) == 50 and len({i[:7] for i in one_instant}) == 1
