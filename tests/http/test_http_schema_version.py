"""The store's schema carries a version, and a database written by the previous
server (no version, no generator column) opens and replays its matches as they were
played: with the legacy random generator they were drawn from."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hub_calls import run

from gameweave_core import Match, Registry
from gameweave_http.hub import Hub
from gameweave_http.store import SCHEMA_VERSION, Store, StoreError, hash_token

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

#: The schema as the server before schema versions wrote it (commit e46e81a).
PREVIOUS_SCHEMA = """
CREATE TABLE matches (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, title_version TEXT NOT NULL,
    players INTEGER NOT NULL, seed INTEGER NOT NULL, config TEXT NOT NULL,
    distribution TEXT NOT NULL, distribution_version TEXT NOT NULL, bots TEXT NOT NULL,
    created REAL NOT NULL, version INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches(id), seat INTEGER NOT NULL,
    token_hash BLOB NOT NULL, PRIMARY KEY (match_id, seat)
);
CREATE TABLE actions (
    match_id TEXT NOT NULL REFERENCES matches(id), idx INTEGER NOT NULL,
    seat INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;
"""


def old_database(path: Path, registry: Registry) -> Match:
    """A database as the previous server left it, holding one Sealed Bids match drawn
    with the legacy generator (1); returns that match as it was played."""
    title = registry.title("sealedbid")
    played = Match(title, 2, 11, generator=1)
    for _ in range(4):
        seat = played.awaiting[0]
        played.submit(seat, played.legal_actions(seat)[-1])
    db = sqlite3.connect(path)
    db.executescript(PREVIOUS_SCHEMA)
    db.execute(
        "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            "oldmatch01",
            "sealedbid",
            title.version,
            2,
            11,
            json.dumps(played.config),
            "gameweave-sealedbid",
            "1.0.0",
            "{}",
            0.0,
            played.step,
            0,
        ),
    )
    db.executemany(
        "INSERT INTO seats VALUES (?, ?, ?)",
        [("oldmatch01", s, hash_token(f"token-{s}")) for s in (1, 2)],
    )
    db.executemany(
        "INSERT INTO actions VALUES (?, ?, ?, ?)",
        [
            ("oldmatch01", i, s, json.dumps(a, sort_keys=True))
            for i, (s, a) in enumerate(played.actions(), start=1)
        ],
    )
    db.commit()
    db.close()
    return played


def test_a_database_of_the_previous_version_opens_and_replays_its_matches(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    path = tmp_path / "old.sqlite3"
    played = old_database(path, sealed_registry)
    store = Store(path)
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        stored = store.load("oldmatch01")
        assert stored is not None and stored.generator == 1
        assert store.seating("oldmatch01").host_hash is None  # type: ignore[union-attr]
        live = run(Hub(store, sealed_registry).get("oldmatch01"))
        # The same state as the match was played in, not a replay drawn afresh.
        assert live.match.generator == 1
        assert live.match.digest() == played.digest()
        assert live.match.view(None) == played.view(None)
    finally:
        store.close()


def test_new_matches_record_the_generator_they_draw_from(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    store = Store(tmp_path / "new.sqlite3")
    try:
        live, _ = run(Hub(store, sealed_registry).create("sealedbid", 2, seed=5))
        stored = store.load(live.id)
        assert stored is not None and stored.generator == live.match.generator == 2
    finally:
        store.close()
    reopened = Store(tmp_path / "new.sqlite3")  # migrating twice changes nothing
    try:
        again = run(Hub(reopened, sealed_registry).get(live.id))
        assert again.match.digest() == live.match.digest()
    finally:
        reopened.close()


def test_a_database_from_a_newer_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="written by a newer Gameweave.*upgrade Gameweave"):
        Store(path)


#: The schema as version 1 wrote it (commit df135eb): a generator per match, no
#: host token.
VERSION_1_SCHEMA = PREVIOUS_SCHEMA.replace(
    "created REAL NOT NULL,", "created REAL NOT NULL, generator INTEGER NOT NULL DEFAULT 2,"
)


def version_1_database(path: Path, registry: Registry) -> Match:
    """A database as schema version 1 left it, holding one Sealed Bids match (drawn
    with generator 2); returns that match as it was played."""
    title = registry.title("sealedbid")
    played = Match(title, 2, 23, generator=2)
    for _ in range(3):
        seat = played.awaiting[0]
        played.submit(seat, played.legal_actions(seat)[0])
    db = sqlite3.connect(path)
    db.executescript(VERSION_1_SCHEMA)
    db.execute(
        "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            "v1match01",
            "sealedbid",
            title.version,
            2,
            23,
            json.dumps(played.config),
            "gameweave-sealedbid",
            "1.0.0",
            "{}",
            0.0,
            2,
            played.step,
            0,
        ),
    )
    db.executemany(
        "INSERT INTO seats VALUES (?, ?, ?)",
        [("v1match01", s, hash_token(f"token-{s}")) for s in (1, 2)],
    )
    db.executemany(
        "INSERT INTO actions VALUES (?, ?, ?, ?)",
        [
            ("v1match01", i, s, json.dumps(a, sort_keys=True))
            for i, (s, a) in enumerate(played.actions(), start=1)
        ],
    )
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    return played


def test_a_version_1_database_gains_host_tokens_for_new_matches_only(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    import warnings

    from gameweave_http.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    path = tmp_path / "v1.sqlite3"
    played = version_1_database(path, sealed_registry)
    app = create_app(path, sealed_registry)
    store = app.state.store
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    headers = {"Content-Type": "application/json"}
    with TestClient(app) as c:
        # The old match is served as it was played, its seat tokens still work...
        r = c.get("/api/matches/v1match01", headers={"X-Seat-Token": "token-2"})
        assert r.status_code == 200 and r.json()["seat"] == 2
        assert r.json()["version"] == played.step
        assert run(app.state.hub.get("v1match01")).match.digest() == played.digest()
        # ...but it has no host token, so its links cannot be reissued.
        seating = store.seating("v1match01")
        assert seating is not None and seating.host_hash is None
        r = c.post(
            "/api/matches/v1match01/seats/1/token",
            headers={"X-Host-Token": "anything", **headers},
            json={},
        )
        assert r.status_code == 409 and "before host tokens" in r.json()["error"]
        # A match created now has one.
        created = c.post("/api/matches", json={"title": "sealedbid", "players": 2}).json()
        r = c.post(
            f"/api/matches/{created['id']}/seats/2/token",
            headers={"X-Host-Token": created["host_token"], **headers},
            json={},
        )
        assert r.status_code == 200 and r.json()["seat"] == 2
    store.close()
    reopened = Store(path)  # migrating twice changes nothing
    try:
        assert reopened.seating("v1match01").host_hash is None  # type: ignore[union-attr]
        assert reopened.seating(created["id"]).host_hash is not None  # type: ignore[union-attr]
    finally:
        reopened.close()
