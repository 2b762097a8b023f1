"""Issue 38, point 3: a database file replaced, moved or removed while the server
runs. The open connection would go on writing to a file no one opens again, so
the store refuses to write, and never acknowledges what it cannot keep: one-line
503s, one log line saying why; the backup and restore the HTTP reference
documents (stop, copy, start) still work."""

from __future__ import annotations

import logging
import os
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Registry
from gameweave_http.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CREATE = {"title": "sealedbid", "players": 2, "seed": 3}


def bid(client: Any, match: dict[str, Any], seat: int, version: int, coins: int) -> Any:
    token = match["seats"][seat - 1]["token"]
    return client.post(
        f"/api/matches/{match['id']}/actions",
        headers={"X-Seat-Token": token},
        json={"version": version, "action": {"type": "bid", "coins": coins}},
    )


def refused(response: Any) -> None:
    """A write refused: 503, one line of JSON error, Retry-After."""
    assert response.status_code == 503, response.text
    assert "\n" not in response.json()["error"]
    assert int(response.headers["retry-after"]) >= 1


def other_db(tmp_path: Path, registry: Registry) -> Path:
    """Another server's database, cleanly stopped, with one match."""
    path = tmp_path / "other.sqlite3"
    app = create_app(path, registry, dev=True)
    with TestClient(app) as c:
        assert c.post("/api/matches", json=CREATE).status_code == 201
    app.state.store.close()
    return path


def swap_by_mv(db: Path, other: Path) -> None:
    os.replace(other, db)


def swap_by_rm(db: Path, other: Path) -> None:
    db.unlink()


def swap_by_move(db: Path, other: Path) -> None:
    db.rename(db.with_name("moved.sqlite3"))


@pytest.mark.parametrize("swap", [swap_by_mv, swap_by_rm, swap_by_move])
def test_a_replaced_database_file_is_noticed_and_writes_are_refused(
    tmp_path: Path,
    sealed_registry: Registry,
    caplog: pytest.LogCaptureFixture,
    swap: Callable[[Path, Path], None],
) -> None:
    other = other_db(tmp_path, sealed_registry)
    db = tmp_path / "gameweave.sqlite3"
    app = create_app(db, sealed_registry, dev=True)
    with TestClient(app) as c:
        match = c.post("/api/matches", json=CREATE).json()
        assert bid(c, match, 1, 0, 2).status_code == 200  # kept: before the swap
        swap(db, other)
        with caplog.at_level(logging.WARNING, logger="gameweave_http"):
            refused(bid(c, match, 2, 1, 3))
            refused(c.post("/api/matches", json=CREATE))
            host = {"X-Host-Token": match["host_token"]}
            refused(c.post(f"/api/matches/{match['id']}/seats/1/token", headers=host, json={}))
        # One line in the log for each request refused, saying why.
        said = [r.getMessage() for r in caplog.records]
        assert len(said) == 3, said
        assert all("no longer the file" in line and "\n" not in line for line in said), said
        # Nothing changed: the match is where it was, and reads go on.
        read = c.get(f"/api/matches/{match['id']}")
        assert read.status_code == 200 and read.json()["version"] == 1
    app.state.store.close()
    # What was acknowledged is in the file the server opened, wherever it went;
    # nothing refused is anywhere.
    if swap is swap_by_move:
        kept = db.with_name("moved.sqlite3")
        again = create_app(kept, sealed_registry, dev=True)
        with TestClient(again) as c:
            assert c.get(f"/api/matches/{match['id']}").json()["version"] == 1
        again.state.store.close()


def test_writes_go_on_once_the_file_is_back(tmp_path: Path, sealed_registry: Registry) -> None:
    db = tmp_path / "gameweave.sqlite3"
    app = create_app(db, sealed_registry, dev=True)
    with TestClient(app) as c:
        match = c.post("/api/matches", json=CREATE).json()
        aside = tmp_path / "aside.sqlite3"
        db.rename(aside)
        refused(bid(c, match, 1, 0, 2))
        aside.rename(db)
        assert bid(c, match, 1, 0, 2).status_code == 200
    app.state.store.close()
    again = create_app(db, sealed_registry, dev=True)
    with TestClient(again) as c:
        assert c.get(f"/api/matches/{match['id']}").json()["version"] == 1
    again.state.store.close()


def test_backup_and_restore_while_stopped_still_work(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    """The documented way: stop the server, copy the file; later, stop, copy the
    backup back, start: the restored file is served, and written to."""
    db = tmp_path / "gameweave.sqlite3"
    app = create_app(db, sealed_registry, dev=True)
    with TestClient(app) as c:
        first = c.post("/api/matches", json=CREATE).json()
    app.state.store.close()
    shutil.copyfile(db, tmp_path / "backup.sqlite3")
    app = create_app(db, sealed_registry, dev=True)
    with TestClient(app) as c:
        second = c.post("/api/matches", json=CREATE).json()
    app.state.store.close()
    shutil.copyfile(tmp_path / "backup.sqlite3", db)  # restore, the server stopped
    app = create_app(db, sealed_registry, dev=True)
    with TestClient(app) as c:
        assert c.get(f"/api/matches/{second['id']}").status_code == 404
        assert bid(c, first, 1, 0, 2).status_code == 200
        assert c.post("/api/matches", json=CREATE).status_code == 201
    app.state.store.close()
