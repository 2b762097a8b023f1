"""The SQLite match store: one file, stdlib ``sqlite3``, nothing to install.

A match is stored as its header (title, players, seed, options, bot seats), the
hashes of its seat tokens and its accepted actions in order. The state itself is
never stored: it is rebuilt by replaying the actions, which is what makes a
restart after SIGKILL lose nothing that was acknowledged. Every accepted action is
committed in its own transaction before the server replies.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    title_version TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    config TEXT NOT NULL,
    distribution TEXT NOT NULL,
    distribution_version TEXT NOT NULL,
    bots TEXT NOT NULL,
    created REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match_id, idx)
);
"""


def hash_token(token: str) -> bytes:
    """What the store keeps of a seat token: its SHA-256 (tokens are long random
    strings, so a plain hash cannot be reversed by guessing)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@attrs.frozen
class StoredMatch:
    """A match header as stored, plus its actions (seat, JSON) in order."""

    id: str
    title: str
    title_version: str
    players: int
    seed: int
    config: dict[str, Any]
    distribution: str
    distribution_version: str
    bots: dict[int, str | None]
    created: float
    actions: list[tuple[int, dict[str, Any]]]


class Store:
    """Matches, seat-token hashes and actions in one SQLite file.

    One connection shared by the server's threads behind a lock: SQLite serialises
    writers anyway, and every statement here is short.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        # WAL keeps readers off the writer's back; FULL syncs every commit, so an
        # acknowledged action survives even the machine going down, not only the process.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing ------------------------------------------------------------------

    def create(
        self,
        match_id: str,
        *,
        title: str,
        title_version: str,
        players: int,
        seed: int,
        config: Mapping[str, Any],
        distribution: str,
        distribution_version: str,
        bots: Mapping[int, str | None],
        tokens: Mapping[int, str],
    ) -> None:
        """Store a new match and the hashes of its seat tokens."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO matches (id, title, title_version, players, seed, config,"
                " distribution, distribution_version, bots, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match_id,
                    title,
                    title_version,
                    players,
                    seed,
                    json.dumps(dict(config), sort_keys=True),
                    distribution,
                    distribution_version,
                    json.dumps({str(s): n for s, n in bots.items()}),
                    time.time(),
                ),
            )
            db.executemany(
                "INSERT INTO seats (match_id, seat, token_hash) VALUES (?, ?, ?)",
                [(match_id, seat, hash_token(tok)) for seat, tok in tokens.items()],
            )

    def append(
        self, match_id: str, index: int, seat: int, action: Mapping[str, Any], over: bool
    ) -> None:
        """Commit action number ``index`` (1-based). A second action with the same
        index is refused by the primary key, so a race can never store two."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO actions (match_id, idx, seat, action) VALUES (?, ?, ?, ?)",
                (match_id, index, seat, json.dumps(dict(action), sort_keys=True)),
            )
            db.execute(
                "UPDATE matches SET version = ?, over = ? WHERE id = ?",
                (index, int(over), match_id),
            )

    # -- reading ------------------------------------------------------------------

    def load(self, match_id: str) -> StoredMatch | None:
        """The stored match ``match_id`` with its actions, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, title, title_version, players, seed, config, distribution,"
                " distribution_version, bots, created FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT seat, action FROM actions WHERE match_id = ? ORDER BY idx", (match_id,)
            ).fetchall()
        return StoredMatch(
            id=row[0],
            title=row[1],
            title_version=row[2],
            players=row[3],
            seed=row[4],
            config=json.loads(row[5]),
            distribution=row[6],
            distribution_version=row[7],
            bots={int(s): n for s, n in json.loads(row[8]).items()},
            created=row[9],
            actions=[(seat, json.loads(act)) for seat, act in actions],
        )

    def seat_for(self, match_id: str, token: str) -> int | None:
        """The seat whose token is ``token``, compared in constant time, or ``None``."""
        wanted = hash_token(token)
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, token_hash FROM seats WHERE match_id = ? ORDER BY seat",
                (match_id,),
            ).fetchall()
        found = None
        for seat, stored in rows:
            # Check every seat, so the time taken does not depend on which one matched.
            if hmac.compare_digest(stored, wanted):
                found = seat
        return found

    def summaries(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest matches, public facts only (no seed, no tokens)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, title, players, version, over, created FROM matches"
                " ORDER BY created DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            {
                "id": r[0],
                "title": r[1],
                "players": r[2],
                "version": r[3],
                "over": bool(r[4]),
                "created": r[5],
            }
            for r in rows
        ]
