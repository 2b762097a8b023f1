"""A database you can copy: once the server has stopped cleanly, its ``.sqlite3``
file alone holds every match (the write-ahead log has been written back into it),
which is what a person backing up "the database" copies."""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import new_match

from gameweave_http.store import Store

MATCHES = 3


def stored(db: Path) -> dict[str, int]:
    """The matches in ``db`` opened on its own, with their numbers of actions."""
    copy = sqlite3.connect(db)
    try:
        rows = copy.execute(
            "SELECT m.id, COUNT(a.idx) FROM matches m"
            " LEFT JOIN actions a ON a.match_id = m.id GROUP BY m.id"
        ).fetchall()
    finally:
        copy.close()
    return {str(mid): int(n) for mid, n in rows}


def test_a_cleanly_stopped_servers_file_alone_holds_every_match(
    process_server: Any, tmp_path: Path
) -> None:
    db = tmp_path / "served.sqlite3"
    server = process_server(db)
    played: dict[str, int] = {}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for seed in range(MATCHES):
            body = {"title": "sealedbid", "players": 2, "seed": seed}
            created = http.post("/api/matches", json=body)
            assert created.status_code == 201, created.text
            match = created.json()
            token = match["seats"][0]["token"]
            bid = {"version": 0, "action": {"type": "bid", "coins": seed}}
            acted = http.post(
                f"/api/matches/{match['id']}/actions", headers={"X-Seat-Token": token}, json=bid
            )
            assert acted.status_code == 200, acted.text
            played[match["id"]] = 1
    server.stop()  # SIGTERM: a clean stop (uvicorn then ends by the same signal)
    assert "Application shutdown complete" in server.log.read_text()

    backup = tmp_path / "backup"
    backup.mkdir()
    shutil.copyfile(db, backup / db.name)  # the file alone: no -wal, no -shm beside it
    assert sorted(p.name for p in backup.iterdir()) == [db.name]
    assert stored(backup / db.name) == played


def test_a_checkpoint_writes_every_commit_into_the_file(tmp_path: Path) -> None:
    db = tmp_path / "open.sqlite3"
    store = Store(db)
    try:
        new_match(store)
        store.append("m1", 1, 1, {"type": "bid", "coins": 2}, over=False)
        store.checkpoint()
        copy = tmp_path / "copy.sqlite3"
        shutil.copyfile(db, copy)  # while the store is still open
        assert stored(copy) == {"m1": 1}
        store.append("m1", 2, 2, {"type": "bid", "coins": 1}, over=False)  # still open
    finally:
        store.close()
    shutil.copyfile(db, copy)
    assert stored(copy) == {"m1": 2}


class FullDisk:
    """The store's connection on a disk with no room for a checkpoint."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, *args: Any) -> Any:
        if "wal_checkpoint" in sql:
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def close(self) -> None:
        self.db.close()


def test_a_checkpoint_that_fails_is_one_line_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "full.sqlite3"
    store = Store(db)
    new_match(store)
    store._db = FullDisk(store._db)  # type: ignore[assignment]
    try:
        with caplog.at_level(logging.ERROR, logger="gameweave_http"):
            assert store.checkpoint() is False
        (record,) = caplog.records
        message = record.getMessage()
        assert "\n" not in message and "database or disk is full" in message
        assert f"could not write {db}-wal back into {db}" in message
        store.append("m1", 1, 1, {"type": "bid", "coins": 2}, over=False)  # still serving
    finally:
        store.close()
    assert stored(db) == {"m1": 1}
