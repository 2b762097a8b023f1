"""The SQLite match store: one file, stdlib ``sqlite3``, nothing to install.

A match is stored as its header (title, players, seed, options, bot seats), the
hashes of its seat tokens and of its host token, and its accepted actions in
order. The state itself is
never stored: it is rebuilt by replaying the actions, which is what makes a
restart after SIGKILL lose nothing that was acknowledged. Every accepted action is
committed before the server replies: from a worker thread in a transaction of its
own (:meth:`Store.append`), from the event loop together with the others of the
same turn of the loop (:meth:`Store.commit_soon`, :class:`GroupCommit`).

Durability: the file is in WAL mode with ``synchronous=NORMAL``. A commit has been
written into the WAL file (handed to the operating system) before ``COMMIT``
returns, so a process killed at any moment, SIGKILL included, loses no committed
action: the kernel still holds and writes those pages. What NORMAL gives up against
FULL is the ``fsync`` per commit, which only matters if the operating system itself
crashes or the power fails (the last commits may then be lost, never the file's
consistency). ``Store(path, fsync=True)`` restores FULL for that case; it costs a
disk flush, up to several milliseconds, on every transaction.

The connection holds the file in SQLite's exclusive locking mode: no other process
can open it while the server runs (a second server would serve matches the first
also holds in memory), and each commit skips the file-lock calls and the WAL's
shared-memory index (about a quarter of a commit's system time, as measured).

The file the connection holds must stay the file at the store's path: one
replaced, moved or removed while the server runs would take every later commit
into a file no one opens again. Before each write is reported done (before the
COMMIT of a transaction; after a lone INSERT, which is then taken back), the
store compares the device and inode of the file at its path with those of the
file it opened, and refuses (:class:`FileSwapped`) when they differ: one stat a
commit (about 3 us).

Checkpoints (copying the WAL back into the database file, with a disk flush even
under NORMAL) are SQLite's own, run by the commit that finds the WAL past 1,000
pages: a few milliseconds about once every thousand actions; and one more on a
clean stop (:meth:`Store.checkpoint`, from the app's shutdown, and
:meth:`Store.close`), after which the ``.sqlite3`` file alone holds every match. (Checkpointing from a
separate thread instead was tried and rejected: under sustained load a passive
checkpoint never catches up with the writer, so the WAL is never restarted and
grows without bound, and the server slows as it grows.)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import orjson

from gameweave_core.errors import one_line

log = logging.getLogger("gameweave_http")

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
    -- The random generator the match draws from (gameweave_core.rng).
    generator INTEGER NOT NULL DEFAULT 2,
    -- Written with the last action only (the live version is the count of actions).
    version INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    -- SHA-256 of the host token, which may reissue seat tokens (NULL: a match
    -- created before host tokens, which cannot reissue).
    host_hash BLOB
);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (match_id, seat)
);
-- The seat tokens replaced by new links (their hashes): a replaced link is told
-- "this seat was given a new link", a link that never opened a seat "mistyped".
CREATE TABLE IF NOT EXISTS retired (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    token_hash BLOB NOT NULL,
    PRIMARY KEY (match_id, token_hash)
) WITHOUT ROWID;
-- Without rowid: an action is one entry in one b-tree, so a commit writes fewer pages.
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (match_id, idx)
) WITHOUT ROWID;
-- The list of matches, newest first, without reading every match (a lobby asks
-- for it every few seconds, and the store's lock is held meanwhile).
CREATE INDEX IF NOT EXISTS matches_by_created ON matches(created);
"""


#: The schema's version, kept in SQLite's ``user_version``. Version 0 is a database
#: written before the version was recorded: its matches have no ``generator``
#: column and were all drawn with the legacy generator. Version 2 adds the host
#: token's hash (``host_hash``) to each match (matches from before have none) and
#: an index of the matches by creation time.
SCHEMA_VERSION = 2


def migrate(db: sqlite3.Connection) -> None:
    """Bring a database written by an earlier version of the server up to
    :data:`SCHEMA_VERSION` (a new database is created at it)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(
            f"the database was written by a newer Gameweave (schema {version}; "
            f"this one knows up to {SCHEMA_VERSION})"
        )
    columns = {row[1] for row in db.execute("PRAGMA table_info(matches)")}
    if version == 0 and columns and "generator" not in columns:
        # Matches stored before generators were numbered drew from generator 1.
        db.execute("ALTER TABLE matches ADD COLUMN generator INTEGER NOT NULL DEFAULT 1")
    if version < 2 and columns and "host_hash" not in columns:
        db.execute("ALTER TABLE matches ADD COLUMN host_hash BLOB")
    db.executescript(SCHEMA)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


#: base64url's 64 characters in ASCII order: a string of them compares as the
#: number it spells.
_ID_DIGITS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def new_match_id() -> str:
    """A new match's id, 15 characters: the time in milliseconds in 7 characters
    that sort as the time does (:data:`_ID_DIGITS`), then 48 random bits in 8.

    Why the time first: every table keys a match's rows by its id. Ids that grow
    with time put a new match's rows, and its actions, at the right edge of each
    B-tree, on pages already in SQLite's cache; random ids scattered them over the
    whole file. The store's own CPU per move (a new match every seven moves, 32 at
    once) fell from 19 to 15 us on a database already holding 60,000 matches, and
    from 19 to 16 us on a new one (``benchmarks/README.md``). An id is no secret
    (the list of matches shows them; a seat's token is the secret), and the random
    part still keeps one match's id from being guessed from another's.
    """
    now = time.time_ns() // 1_000_000
    head = "".join(_ID_DIGITS[(now >> shift) & 63] for shift in range(36, -1, -6))
    return head + secrets.token_urlsafe(6)


def hash_token(token: str) -> bytes:
    """What the store keeps of a seat token: its SHA-256 (tokens are long random
    strings, so a plain hash cannot be reversed by guessing)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


#: Values orjson writes exactly as the standard library would read them back.
_PLAIN = (str, int, bool)


def action_text(action: Mapping[str, Any]) -> str:
    """An action's JSON as stored: keys sorted. orjson writes the usual flat action
    (strings, whole numbers, booleans) a dozen times faster than the standard
    library; anything else (floats, which orjson writes as ``null`` when they are
    not finite; nested values; integers beyond 64 bits) is left to the latter."""
    if all(type(v) in _PLAIN for v in action.values()):
        try:
            return orjson.dumps(action, option=orjson.OPT_SORT_KEYS).decode()
        except TypeError:  # an integer beyond 64 bits, or a key that is not a string
            pass
    return json.dumps(dict(action), sort_keys=True)


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
    generator: int = 2


@attrs.frozen
class Seating:
    """The seats of a stored match: how many, which bots play, and the hash of
    its host token (``None``: created before host tokens, so none can reissue)."""

    players: int
    bots: frozenset[int]
    host_hash: bytes | None

    def is_host(self, token: str) -> bool:
        """Whether ``token`` is this match's host token, compared in constant time."""
        if self.host_hash is None:
            return False
        return hmac.compare_digest(self.host_hash, hash_token(token))


INSERT = "INSERT INTO actions (match_id, idx, seat, action) VALUES (?, ?, ?, ?)"


@attrs.frozen
class Row:
    """An action to store: its match, 1-based index, seat, JSON text, and whether it
    ended the match."""

    match_id: str
    index: int
    seat: int
    action: str
    over: bool


class Commit(asyncio.Future[None]):
    """The future of one action's commit, which cannot be cancelled: a request
    cancelled while its action waits to be committed is told so only once the
    commit is decided, so that it never lets go of its match with the outcome
    unknown."""

    def cancel(self, msg: Any = None) -> bool:
        return False


class GroupCommit:
    """Group commit: the actions handed over during one turn of an event loop are
    committed together, in one transaction, as the loop's next turn begins.

    Under load, a turn of the loop reads several requests, so one commit serves
    several actions. Each action's future is settled only after its transaction
    committed, so nothing is acknowledged before it is stored. (A writer thread
    was measured too: it saved the loop the commit but cost it more in waking the
    thread and handing the GIL back and forth.)
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._pending: dict[asyncio.AbstractEventLoop, list[tuple[Row, Commit]]] = {}

    def submit(self, row: Row) -> Commit:
        loop = asyncio.get_running_loop()
        future = Commit(loop=loop)
        pending = self._pending.get(loop)
        if pending is None:
            pending = self._pending[loop] = []
            loop.call_soon(self._flush, loop)
        pending.append((row, future))
        return future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        batch = self._pending.pop(loop, [])
        try:
            results = self._store.append_rows([row for row, _ in batch])
        except Exception as exc:  # the store itself failed (closed under us)
            results = [exc] * len(batch)
        for (_, future), error in zip(batch, results, strict=True):
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


class StoreError(Exception):
    """The store cannot be used: one line naming the file and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))
        self.message = one_line(message)


class Damaged(Exception):
    """The stored rows of one match cannot be read (damaged pages or values)."""


class FileSwapped(sqlite3.OperationalError):
    """The database file at the store's path is no longer the file it opened (it was
    replaced, moved or removed while the server ran): what the store would write
    now would go to a file no one will open again, so nothing is written."""


#: A file's identity: its device and inode numbers.
FileId = tuple[int, int]


def file_id(path: str) -> FileId | None:
    """The identity of the file at ``path`` now (``None``: there is none)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


#: Seconds ``PRAGMA quick_check`` may take at start-up before it is given up on
#: (a large file is then served unchecked, and the server log says so).
QUICK_CHECK_SECONDS = 5.0


def quick_check(db: sqlite3.Connection, seconds: float) -> str | None:
    """SQLite's ``quick_check`` of the open file, stopped after ``seconds``: what
    it found wrong, in a few words, or ``None`` (no problem, or no time to finish)."""
    deadline = time.monotonic() + seconds
    db.set_progress_handler(lambda: int(time.monotonic() > deadline), 1000)
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError as exc:
        if "interrupted" not in str(exc):
            raise
        log.warning("quick_check of the database did not finish in %.0f s: skipped", seconds)
        return None
    except sqlite3.DatabaseError as exc:  # so damaged that the check itself gave up
        return str(exc)
    finally:
        db.set_progress_handler(None, 0)
    # The first line of a report is a heading ("*** in database main ***").
    problems = [
        line.strip()
        for (row,) in rows
        for line in str(row).splitlines()
        if line.strip() and not line.startswith("***")
    ]
    if not problems or problems == ["ok"]:
        return None
    more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
    return f"{problems[0][:120]}{more}"


def is_damage(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite finding damaged pages (rather than, say, a full
    disk): those parts of the file stay unreadable however often one tries."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB
    return "malformed" in str(exc) or "not a database" in str(exc)


def _unusable(path: Path) -> str | None:
    """Why ``path`` cannot hold the server's database, found before SQLite tries
    (whose own words, "unable to open database file", name neither cause nor cure)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        return f"{path} is a folder, not a database file: give --db a file name inside it"
    if not folder.is_dir():
        return f"cannot create {path}: the folder {folder} does not exist; create it or choose another --db"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"{path} is not readable and writable by this user: fix its permissions (chmod u+rw) or choose another --db"
    if not os.access(folder, os.W_OK | os.X_OK):
        # SQLite writes its journal (the WAL) beside the file.
        return f"the folder {folder} is not writable, and the database needs its journal there: fix the folder's permissions or choose another --db"
    return None


def _open_failure(path: Path, exc: sqlite3.Error) -> str:
    """One line for an error SQLite raised while opening ``path``."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return f"{path} is in use by another Gameweave server (only one may open a database): stop that one or choose another --db"
    if "not a database" in text or "malformed" in text or "damaged" in text:
        return f"{path} is not a Gameweave database or is damaged ({text}): move it aside and start again, or choose another --db"
    if "newer Gameweave" in text:
        return f"{path}: {text}; upgrade Gameweave or choose another --db"
    if "readonly" in text or "I/O" in text:
        return f"{path} cannot be written ({text}): check its permissions and the disk, or choose another --db"
    return f"{path} cannot be opened as a database ({text}): choose another --db"


#: Matches read at once when listing them around damaged pages.
CHUNK = 50


class Store:
    """Matches, seat-token hashes and actions in one SQLite file.

    One connection shared by the server's threads behind a lock: SQLite serialises
    writers anyway, and every statement here is short. The token hashes of every
    match looked up once are kept in memory (they never change), so checking a
    seat's token costs no query.
    """

    def __init__(
        self, path: str | Path, *, fsync: bool = False, check_seconds: float = QUICK_CHECK_SECONDS
    ) -> None:
        self.path = str(path)
        #: Where the file is, whatever the working folder becomes.
        self._where = os.path.abspath(self.path)
        self._lock = threading.Lock()
        self._tokens: dict[str, tuple[tuple[int, bytes], ...]] = {}
        refusal = _unusable(Path(path))
        if refusal is not None:
            raise StoreError(refusal)
        try:
            self._db = self._open(fsync)
        except sqlite3.Error as exc:
            raise StoreError(_open_failure(Path(path), exc)) from exc
        #: The identity of the file opened (see :meth:`_still_ours`).
        self._opened = file_id(self._where)
        #: The same, inode first, as compared at each write.
        self._opened_id = None if self._opened is None else (self._opened[1], self._opened[0])
        #: Why writes are refused now (``None``: they are not).
        self._swapped: str | None = None
        try:
            #: What the start-up check found wrong in the file (``None``: nothing).
            self.damage = quick_check(self._db, check_seconds)
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(_open_failure(Path(path), exc)) from exc
        if self.damage is not None:
            # Damaged pages hold a few matches: the others are still served, and
            # each damaged one is answered as unavailable (see load).
            log.warning(
                "%s",
                one_line(
                    f"{path} is damaged ({self.damage}): serving the matches it can still "
                    "read, the others answer 503 unavailable; to repair it, stop the server, "
                    f"copy out what SQLite can read with `sqlite3 {path} .recover | sqlite3 "
                    "NEW.sqlite3` and serve NEW.sqlite3"
                ),
            )
        self._group = GroupCommit(self)

    def _open(self, fsync: bool) -> sqlite3.Connection:
        # A short busy timeout: the only other holder of the file's lock is a second
        # server, which will not let go, so waiting the default 5 s is pointless.
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=0.2)
        self._db = db
        # This process alone opens the file (its matches live in its memory, so a
        # second server on the file would go astray): holding the lock for good
        # spares every commit its file-lock calls, and the WAL its shared-memory index.
        self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit is in the WAL file, so in the kernel's hands,
        # before COMMIT returns; a killed process loses nothing acknowledged. Only
        # an OS crash or power loss could lose the last commits, which FULL's fsync
        # per commit (several ms per action) guards against (see the module doc).
        self._db.execute(f"PRAGMA synchronous={'FULL' if fsync else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        migrate(self._db)
        return db

    def _still_ours(self) -> None:
        """Raise :class:`FileSwapped` unless the file at the store's path is still
        the one it opened (same device and inode). Asked, the lock held, at every
        write, before it is reported done: a file
        replaced (``mv other.sqlite3 gameweave.sqlite3``), moved or removed while
        the server runs leaves the open connection writing to a file no one will
        open again, so the store refuses to write, or to acknowledge, rather than
        lose what it acknowledged. A stat a transaction; writes go on once the
        file is back where it was."""
        try:
            found = os.stat(self._where)
        except OSError:
            found = None
        if found is not None and (found.st_ino, found.st_dev) == self._opened_id:
            if self._swapped is not None:
                log.warning("%s is back: the store writes again", self.path)
                self._swapped = None
            return
        # Each refused request logs this in one line (the caller, as for any
        # failure of the store).
        self._swapped = one_line(
            f"the database file {self.path} is no longer the file the server opened "
            "(it was replaced, moved or removed while the server ran); nothing more "
            "is stored: put it back, or stop the server and start it on the file "
            "you mean it to serve"
        )
        raise FileSwapped(self._swapped)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                # Last thing before COMMIT: a file no longer ours gets nothing.
                self._still_ours()
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            try:
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite keeps a transaction open on some failures
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise

    def checkpoint(self) -> bool:
        """Write every commit from the write-ahead log back into the database file
        and empty the log, so that the ``.sqlite3`` file alone holds every match
        (what a person copying "the database" copies); the store stays open. The
        app's shutdown calls it. A failure (a full disk) is logged in one line and
        answered ``False``: the commits are still safe in the ``-wal`` file."""
        with self._lock:
            return self._checkpoint()

    def _checkpoint(self) -> bool:
        try:
            # TRUNCATE: the WAL file is left empty, not just marked as copied. This
            # connection is the file's only one (exclusive locking), so no reader
            # can hold the checkpoint back.
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.ProgrammingError:
            raise  # the store is closed: a caller's mistake, not the disk's
        except sqlite3.Error as exc:
            log.error(
                "%s",
                one_line(
                    f"could not write {self.path}-wal back into {self.path} ({exc}); its "
                    "matches are safe in the -wal file: copy both files, or start the "
                    "server again"
                ),
            )
            return False
        return True

    def close(self) -> None:
        """Checkpoint (see :meth:`checkpoint`) and close the file."""
        with self._lock:
            with contextlib.suppress(sqlite3.ProgrammingError):  # closed already
                self._checkpoint()
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
        generator: int = 2,
        host_token: str | None = None,
    ) -> None:
        """Store a new match and the hashes of its seat tokens (and of its host
        token, which may reissue them; ``None``: the match has no host)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO matches (id, title, title_version, players, seed, config,"
                " distribution, distribution_version, bots, created, generator, host_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    generator,
                    None if host_token is None else hash_token(host_token),
                ),
            )
            hashes = tuple(sorted((seat, hash_token(tok)) for seat, tok in tokens.items()))
            db.executemany(
                "INSERT INTO seats (match_id, seat, token_hash) VALUES (?, ?, ?)",
                [(match_id, seat, hashed) for seat, hashed in hashes],
            )
        self._tokens[match_id] = hashes

    def append(
        self, match_id: str, index: int, seat: int, action: Mapping[str, Any], over: bool
    ) -> None:
        """Commit action number ``index`` (1-based). A second action with the same
        index is refused by the primary key, so a race can never store two."""
        error = self.append_rows([Row(match_id, index, seat, action_text(action), over)])[0]
        if error is not None:
            raise error

    def append_rows(self, rows: Sequence[Row]) -> list[Exception | None]:
        """Commit ``rows``, all in one transaction, and say what became of each:
        ``None`` when it is committed, else the error that refused it. If the
        transaction fails, each row is tried again alone, so that one bad row (a
        duplicate index) fails only itself; rows that fail are not stored."""
        if len(rows) == 1 and not rows[0].over:
            # One statement is its own transaction (autocommit), committed when
            # execute returns: a quarter of the statements of BEGIN/INSERT/COMMIT.
            row = rows[0]
            try:
                with self._lock:
                    self._db.execute(INSERT, (row.match_id, row.index, row.seat, row.action))
                    try:
                        self._still_ours()  # one stat, after the write, before the reply
                    except FileSwapped:
                        # Not acknowledged: taken out of the file it went to as well,
                        # so that the match rebuilt from it is the one before it.
                        self._db.execute(
                            "DELETE FROM actions WHERE match_id = ? AND idx = ?",
                            (row.match_id, row.index),
                        )
                        raise
            except Exception as exc:
                return [exc]
            return [None]
        try:
            with self._tx() as db:
                self._insert(db, rows)
            return [None] * len(rows)
        except Exception as exc:
            if len(rows) == 1 or isinstance(exc, FileSwapped):
                return [exc] * len(rows)
        out: list[Exception | None] = []
        for row in rows:
            try:
                with self._tx() as db:
                    self._insert(db, [row])
                out.append(None)
            except Exception as exc:
                out.append(exc)
        return out

    @staticmethod
    def _insert(db: sqlite3.Connection, rows: Sequence[Row]) -> None:
        db.executemany(INSERT, [(r.match_id, r.index, r.seat, r.action) for r in rows])
        for r in rows:
            if r.over:
                db.execute(
                    "UPDATE matches SET version = ?, over = 1 WHERE id = ?", (r.index, r.match_id)
                )

    def commit_soon(
        self, match_id: str, index: int, seat: int, action: Mapping[str, Any], over: bool
    ) -> Commit:
        """:meth:`append` for the event loop: a future of the running loop, done
        once the action is committed (or failing with the error that refused it).
        The commit runs at the loop's next turn, together with the others handed
        over meanwhile (see :class:`GroupCommit`)."""
        return self._group.submit(Row(match_id, index, seat, action_text(action), over))

    # -- reading ------------------------------------------------------------------

    def load(self, match_id: str) -> StoredMatch | None:
        """The stored match ``match_id`` with its actions, or ``None``. Raises
        :class:`Damaged` when its rows cannot be read (damaged pages or values)."""
        try:
            return self._load(match_id)
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, IndexError) as exc:
            log.error("match %s: its stored rows cannot be read: %s", match_id, exc)
            raise Damaged(match_id) from exc

    def _load(self, match_id: str) -> StoredMatch | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, title, title_version, players, seed, config, distribution,"
                " distribution_version, bots, created, generator FROM matches WHERE id = ?",
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
            generator=row[10],
        )

    def forget(self, match_id: str) -> None:
        """Drop the cached token hashes of ``match_id`` (read again when needed)."""
        self._tokens.pop(match_id, None)

    def tokens_of(self, match_id: str) -> object | None:
        """The token hashes of ``match_id`` as kept in memory (``None``: not kept).
        Reissuing a token replaces them as a whole: while the same object is kept,
        no token of the match changed."""
        return self._tokens.get(match_id)

    def tokens_cached(self, match_id: str) -> bool:
        """Whether :meth:`seat_for` can answer for ``match_id`` without a query."""
        return match_id in self._tokens

    def seat_for(self, match_id: str, token: str) -> int | None:
        """The seat whose token is ``token``, compared in constant time, or ``None``."""
        wanted = hash_token(token)
        rows = self._tokens.get(match_id)
        if rows is None:
            with self._lock:
                try:
                    rows = tuple(
                        self._db.execute(
                            "SELECT seat, token_hash FROM seats WHERE match_id = ? ORDER BY seat",
                            (match_id,),
                        ).fetchall()
                    )
                except sqlite3.DatabaseError as exc:
                    if not is_damage(exc):
                        raise
                    log.error("match %s: its seats cannot be read: %s", match_id, exc)
                    raise Damaged(match_id) from exc
                # Only a match that exists is remembered: unknown ids must not fill
                # memory. Remembered under the lock, so that a token reissued
                # meanwhile (see reissue) is never overwritten by the old one.
                if rows:
                    self._tokens[match_id] = rows
        found = None
        for seat, stored in rows:
            # Check every seat, so the time taken does not depend on which one matched.
            if hmac.compare_digest(stored, wanted):
                found = seat
        return found

    def retired_seat(self, match_id: str, token: str) -> int | None:
        """The seat ``token`` opened before the seat was given a new link, or ``None``
        when it never was a token of ``match_id`` (mistyped, cut short, forged).
        Asked only after :meth:`seat_for` found no seat: one short query."""
        with self._lock:
            row = self._db.execute(
                "SELECT seat FROM retired WHERE match_id = ? AND token_hash = ?",
                (match_id, hash_token(token)),
            ).fetchone()
        return None if row is None else int(row[0])

    def seating(self, match_id: str) -> Seating | None:
        """Who sits at ``match_id`` (its seats, bot seats and host token's hash),
        or ``None`` when there is no such match."""
        with self._lock:
            row = self._db.execute(
                "SELECT players, bots, host_hash FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            return None
        bots = frozenset(int(s) for s in json.loads(row[1]))
        return Seating(players=row[0], bots=bots, host_hash=row[2])

    def reissue(self, match_id: str, seat: int, token: str) -> None:
        """Make ``token`` the only token of ``seat`` in ``match_id``: the seat's
        previous token stops working at once (the cached hashes are replaced in
        the same locked step as the stored one)."""
        hashed = hash_token(token)
        with self._lock:
            self._still_ours()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # The old token is remembered as replaced (see retired_seat).
                self._db.execute(
                    "INSERT OR IGNORE INTO retired (match_id, seat, token_hash)"
                    " SELECT match_id, seat, token_hash FROM seats WHERE match_id = ? AND seat = ?",
                    (match_id, seat),
                )
                changed = self._db.execute(
                    "UPDATE seats SET token_hash = ? WHERE match_id = ? AND seat = ?",
                    (hashed, match_id, seat),
                ).rowcount
                if changed != 1:
                    raise ValueError(f"match {match_id} has no seat {seat} with a token")
                rows = tuple(
                    self._db.execute(
                        "SELECT seat, token_hash FROM seats WHERE match_id = ? ORDER BY seat",
                        (match_id,),
                    ).fetchall()
                )
                self._db.execute("COMMIT")
                self._still_ours()
            except BaseException:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
            self._tokens[match_id] = rows

    def summaries(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest matches, public facts only (no seed, no tokens). In a file
        with damaged pages, the newest of those that can still be read."""
        try:
            with self._lock:
                rows = self._db.execute(
                    "SELECT id, title, players,"
                    " (SELECT COALESCE(MAX(idx), 0) FROM actions WHERE match_id = matches.id),"
                    " over, created FROM matches ORDER BY created DESC LIMIT ?",
                    (limit,),
                ).fetchall()
        except sqlite3.DatabaseError as exc:
            if not is_damage(exc):
                raise
            rows = self._readable_summaries(limit)
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

    def _readable_summaries(self, limit: int) -> list[tuple[Any, ...]]:
        """The rows of :meth:`summaries` read around damaged pages.

        Matches are never deleted, so their rowids run from 1 to the last one
        (read from the table, or from its index of ids if the table's last page is
        the damaged one). They are read newest first, :data:`CHUNK` at a time; a
        chunk that meets a damaged page is read again a match at a time, so that
        only the matches whose own rows are damaged are left out. (A range query
        cannot fence the damage in by itself: a search for any rowid past the
        damaged page's first has to read that page.)"""
        query = (
            "SELECT id, title, players, over, created FROM matches"
            " WHERE rowid BETWEEN ? AND ? ORDER BY rowid DESC"
        )
        count = "SELECT COALESCE(MAX(idx), 0) FROM actions WHERE match_id = ?"
        out: list[tuple[Any, ...]] = []
        skipped = 0

        def read(sql: str, args: tuple[Any, ...]) -> list[Any] | None:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                if not is_damage(exc):
                    raise
                return None

        with self._lock:
            top = 0
            for last in (
                "SELECT MAX(rowid) FROM matches",
                "SELECT MAX(rowid) FROM matches INDEXED BY sqlite_autoindex_matches_1",
            ):
                found = read(last, ())
                if found and found[0][0] is not None:
                    top = max(top, int(found[0][0]))
            while top >= 1 and len(out) < limit:
                low = max(1, top - CHUNK + 1)
                rows = read(query, (low, top))
                if rows is None:
                    rows = []
                    for rowid in range(top, low - 1, -1):
                        one = read(query, (rowid, rowid))
                        if one is None:
                            skipped += 1
                        rows += one or []
                for match_id, title, players, over, created in rows:
                    version = read(count, (match_id,))
                    if version is None:
                        skipped += 1
                        continue
                    out.append((match_id, title, players, version[0][0], over, created))
                top = low - 1
        if skipped:
            log.warning(
                "the list of matches leaves out %d damaged match(es) of %s", skipped, self.path
            )
        out.sort(key=lambda r: r[5], reverse=True)
        return out[:limit]
