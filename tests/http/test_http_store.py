"""The store and the hub's fast path: what the server does to answer quickly, and
that none of it gives up a guarantee (commits before replies, a WAL that stays
bounded, a busy match never stalling the others)."""

from __future__ import annotations

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

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.hub import Busy, Hub
from gameweave_http.store import Store

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


def test_the_hub_refuses_to_wait_when_told_not_to_and_changes_nothing(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    store = Store(tmp_path / "m.sqlite3")
    hub = Hub(store, sealed_registry)
    try:
        live, tokens = hub.create("sealedbid", 2, seed=3, wait=False)
        with pytest.raises(Busy):  # bots would play at once: not on the event loop
            hub.create("sealedbid", 2, seed=3, bots={2: None}, wait=False)
        with live.lock:  # another thread holds the match
            with pytest.raises(Busy):
                hub.payload(live, 1, wait=False)
            with pytest.raises(Busy):
                hub.submit(live, 1, 0, {"type": "bid", "coins": 1}, wait=False)
        assert live.match.step == 0 and store.load(live.id).actions == []  # type: ignore[union-attr]
        payload = hub.submit(live, 1, 0, {"type": "bid", "coins": 1}, wait=False)
        assert payload["version"] == 1
        assert store.load(live.id).actions == [(1, {"type": "bid", "coins": 1})]  # type: ignore[union-attr]

        store.close()
        store = Store(tmp_path / "m.sqlite3")
        fresh = Hub(store, sealed_registry)  # a restarted server
        with pytest.raises(Busy):  # rebuilding a match is a replay: never on the loop
            fresh.get(live.id, wait=False)
        with pytest.raises(Busy):  # a token not yet read from the file
            fresh.seat(live.id, tokens[1], wait=False)
        again = fresh.get(live.id)
        assert fresh.get(live.id, wait=False) is again
        assert fresh.seat(live.id, tokens[2]) == 2
        assert fresh.seat(live.id, tokens[1], wait=False) == 1
    finally:
        store.close()


def test_a_match_held_by_another_thread_stalls_no_other_request(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """The event loop never waits for a match's lock: a request for a busy match
    goes to a worker thread, and the server keeps answering everything else."""
    from http_support import ThreadServer

    app: Any = create_app(tmp_path / "m.sqlite3", sealed_registry)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        created = http.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        other = http.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        live = app.state.hub.get(created["id"])
        answers: list[httpx.Response] = []

        def submit() -> None:
            with httpx.Client(base_url=server.url, timeout=10) as own:
                answers.append(
                    own.post(
                        f"/api/matches/{created['id']}/actions",
                        headers={"X-Seat-Token": created["seats"][0]["token"]},
                        json={"version": 0, "action": {"type": "bid", "coins": 2}},
                    )
                )

        with live.lock:
            waiting = threading.Thread(target=submit)
            waiting.start()
            time.sleep(0.3)
            assert not answers  # it waits for the lock...
            # ...in a worker thread: the loop still serves another match, fully.
            r = http.post(
                f"/api/matches/{other['id']}/actions",
                headers={"X-Seat-Token": other["seats"][0]["token"]},
                json={"version": 0, "action": {"type": "bid", "coins": 1}},
            )
            assert r.status_code == 200 and r.json()["version"] == 1
            assert http.get("/api/titles").status_code == 200
        waiting.join(10)
        assert [a.status_code for a in answers] == [200]
        assert answers[0].json()["version"] == 1


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
        plain, _ = hub.create("sealedbid", 2, seed=5)
        mute, _ = hub.create("mute", 2, seed=5)
        for _ in range(2):  # the second time from the cache
            described = hub.payload(plain, 1)["labels"]
            assert described == [
                SealedBid().describe_action(a) for a in plain.match.legal_actions(1)
            ]
            assert hub.payload(mute, 1)["labels"][:2] == [
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
