"""Faults of the storage and of the server itself: every start-up fault is one
line naming the file and what to do (exit status 1 through ``gameweave serve``),
a damaged match is unavailable (503) while the others keep working, a full disk
is a 503 that changes nothing, and a 5xx leaves the connection's next requests
answered."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
from http_support import ROOT, ThreadServer, new_match, sealed_plugin_path
from hub_calls import run

from gameweave_core import Registry
from gameweave_http.app import create_app
from gameweave_http.hub import Hub
from gameweave_http.store import Store, StoreError, quick_check
from gameweave_http.testing import loopback_socket

# The server here is not in development mode, so it picks each match's seed itself:
# from a fixed sequence (the fresh_seeds fixture), the same games on every run.
pytestmark = pytest.mark.usefixtures("fresh_seeds")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

GAMEWEAVE = Path(sys.executable).parent / "gameweave"
JSON = {"Content-Type": "application/json"}


def serve_fails(tmp_path: Path, db: Path) -> str:
    """Run ``gameweave serve --db db``; check it fails with status 1 and one line."""
    env = dict(os.environ)
    env["PYTHONPATH"] = sealed_plugin_path(tmp_path)
    # The port is held here: the server must fail on the database before it binds.
    with loopback_socket() as held:
        port = str(held.getsockname()[1])
        done = subprocess.run(
            [str(GAMEWEAVE), "serve", "--db", str(db), "--port", port],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=tmp_path,
        )
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "serving on" not in done.stdout
    assert str(db.name) in lines[0]
    return lines[0]


def test_start_up_faults_are_one_line_naming_the_file_and_the_cure(tmp_path: Path) -> None:
    line = serve_fails(tmp_path, tmp_path / "no-such-folder" / "m.sqlite3")
    assert "does not exist" in line and "create it" in line

    folder = tmp_path / "adir.sqlite3"
    folder.mkdir()
    assert "is a folder" in serve_fails(tmp_path, folder)

    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(4096))
    line = serve_fails(tmp_path, garbage)
    assert "not a Gameweave database or is damaged" in line and "move it aside" in line


def test_a_truncated_database_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    store = Store(db)
    for i in range(300):
        new_match(store, f"m{i}", seed=i)
    store.close()
    data = db.read_bytes()
    assert len(data) > 8192
    db.write_bytes(data[: len(data) // 2])
    line = serve_fails(tmp_path, db)
    assert "damaged" in line


def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    first = Store(db)
    try:
        line = serve_fails(tmp_path, db)
        assert "in use by another Gameweave server" in line
    finally:
        first.close()


def test_a_read_only_database_is_refused(tmp_path: Path, monkeypatch: Any) -> None:
    db = tmp_path / "m.sqlite3"
    Store(db).close()
    if os.geteuid() == 0:
        # root may write any file: the check is made to see this one as read-only.
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: False if Path(p) == db else real(p, mode))
    else:
        db.chmod(0o444)
    with pytest.raises(StoreError, match="not readable and writable.*chmod") as found:
        Store(db)
    assert str(db) in found.value.message and "\n" not in found.value.message


def played_database(db: Path, registry: Registry, count: int) -> dict[str, dict[str, Any]]:
    """A database of ``count`` Sealed Bids matches, each with a few actions; what
    was stored of each: its version and its seat tokens."""
    store = Store(db)
    hub = Hub(store, registry)
    played: dict[str, dict[str, Any]] = {}
    for i in range(count):
        live, tokens = run(hub.create("sealedbid", 2, host_token=f"host-{i}"))
        for _ in range(i % 4):
            seat = live.match.awaiting[0]
            action = live.match.legal_actions(seat)[-1]
            run(hub.submit(live, seat, live.match.step, live.match.title.codec.to_json(action)))
        played[live.id] = {"version": live.match.step, "tokens": tokens, "order": i}
    store.close()
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    return played


def damage_pages(db: Path, table: str, which: float) -> int:
    """Overwrite one leaf page of ``table`` (at ``which``, 0 to 1, along the
    table's key order) with bytes SQLite cannot take for a page; its number."""
    con = sqlite3.connect(db)
    try:
        size = con.execute("PRAGMA page_size").fetchone()[0]
        leaves = [
            row[0]
            for row in con.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path",
                (table,),
            )
        ]
    finally:
        con.close()
    assert len(leaves) >= 3, (table, leaves)
    page = leaves[min(len(leaves) - 1, int(len(leaves) * which))]
    with db.open("r+b") as f:
        f.seek((page - 1) * size)
        f.write(b"\xff" * size)
    return int(page)


def readable_rows(db: Path, match_id: str) -> dict[str, bool]:
    """Whether SQLite itself can read each table's rows of ``match_id``."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out = {}
    try:
        for table, key in (("matches", "id"), ("actions", "match_id"), ("seats", "match_id")):
            try:
                con.execute(f"SELECT * FROM {table} WHERE {key} = ?", (match_id,)).fetchall()
                out[table] = True
            except sqlite3.DatabaseError:
                out[table] = False
    finally:
        con.close()
    return out


def test_damaged_pages_are_logged_in_one_line_and_the_rest_is_served(
    tmp_path: Path, sealed_registry: Registry, process_server: Any
) -> None:
    db = tmp_path / "m.sqlite3"
    played = played_database(db, sealed_registry, 300)
    # A page of match headers among the newest (those the list shows first), one
    # of actions and one of seat tokens.
    damage_pages(db, "matches", 0.9)
    damage_pages(db, "actions", 0.5)
    damage_pages(db, "seats", 0.3)
    readable = {match_id: readable_rows(db, match_id) for match_id in played}
    server = process_server(db)
    logged = [line for line in server.log.read_text().splitlines() if "is damaged" in line]
    assert len(logged) == 1, logged
    line = logged[0]
    assert str(db) in line and ".recover" in line and "serving the matches" in line
    assert "btreeInitPage" in line or "malformed" in line

    answers: dict[str, tuple[int, int]] = {}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for match_id, stored in played.items():
            statuses = []
            for token in (None, stored["tokens"][1]):
                headers = {"X-Seat-Token": token} if token else {}
                r = http.get(f"/api/matches/{match_id}", headers=headers)
                statuses.append(r.status_code)
                if r.status_code == 200:  # as stored: the right match, seat and version
                    assert r.json()["version"] == stored["version"], match_id
                    assert r.json().get("seat") == (1 if token else None)
                else:
                    assert r.status_code == 503, r.text
                    assert "unavailable" in r.json()["error"] and "\n" not in r.text
                    assert r.headers["retry-after"].isdigit()
            answers[match_id] = (statuses[0], statuses[1])
        listed = http.get("/api/matches")
        assert listed.status_code == 200, listed.text
        summaries = listed.json()
        # Play goes on: a new match, and an action in a match that reads well.
        created = http.post("/api/matches", json={"title": "sealedbid", "players": 2}, headers=JSON)
        assert created.status_code in (201, 503), created.text
    spectators = [a[0] for a in answers.values()]
    seats = [a[1] for a in answers.values()]
    # Each damaged page holds some matches' rows, and only those are unavailable:
    # exactly the matches SQLite itself cannot read (its header, its actions; for
    # a seat, its seat tokens too).
    assert 0 < spectators.count(503) < len(played) // 2
    assert seats.count(503) > spectators.count(503)  # the seats' page too
    for match_id, (spectator, seat) in answers.items():
        rows = readable[match_id]
        assert spectator == (200 if rows["matches"] and rows["actions"] else 503), rows
        assert seat == (200 if all(rows.values()) else 503), rows
    # The list: 50 matches, as stored, newest first, leaving out only what cannot
    # be read (the damaged headers among the newest).
    assert len(summaries) == 50
    for item in summaries:
        assert item["version"] == played[item["id"]]["version"]
    orders = [played[item["id"]]["order"] for item in summaries]
    assert orders == sorted(orders, reverse=True)
    newest_readable = [
        mid
        for mid, stored in played.items()
        if stored["order"] >= orders[-1] and answers[mid][0] == 200
    ]
    assert set(newest_readable) <= {item["id"] for item in summaries}
    assert len(newest_readable) < len(range(orders[-1], 300))  # damage was in the way


def test_a_damaged_file_opens_and_says_what_is_wrong(
    tmp_path: Path, sealed_registry: Registry, caplog: Any
) -> None:
    db = tmp_path / "m.sqlite3"
    played_database(db, sealed_registry, 120)
    damage_pages(db, "actions", 0.5)
    store = Store(db)
    try:
        # SQLite's words: the damaged page's number, or that the file is malformed.
        assert store.damage is not None
        assert "Page " in store.damage or "malformed" in store.damage
    finally:
        store.close()
    (line,) = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert "\n" not in line and str(db) in line and "serve NEW.sqlite3" in line
    assert store.damage in line
    clean = tmp_path / "clean.sqlite3"
    played_database(clean, sealed_registry, 10)
    store = Store(clean)
    try:
        assert store.damage is None
    finally:
        store.close()


def test_the_quick_check_report_is_cut_to_its_first_problem() -> None:
    class Reported:
        """A connection whose quick_check reports what SQLite reports of two pages."""

        def set_progress_handler(self, *args: Any) -> None:
            pass

        def execute(self, sql: str) -> Any:
            assert sql == "PRAGMA quick_check"
            report = "*** in database main ***\nPage 24: btreeInitPage() returns error code 11"
            return sqlite3.connect(":memory:").execute(
                "SELECT ? UNION ALL SELECT ?", (report, "Page 31: free space corruption")
            )

    found = quick_check(Reported(), 5.0)  # type: ignore[arg-type]
    assert found == "Page 24: btreeInitPage() returns error code 11 and 1 more"


def test_the_quick_check_is_bounded_in_time(tmp_path: Path, caplog: Any) -> None:
    db = tmp_path / "m.sqlite3"
    store = Store(db)
    for i in range(2000):
        new_match(store, f"m{i}", seed=i)
    store.close()
    # No time at all: the check is given up on (and said so), the server starts.
    Store(db, check_seconds=0.0).close()
    assert "quick_check of the database did not finish" in caplog.text


@pytest.fixture
def app_and_client(tmp_path: Path, sealed_registry: Registry) -> Any:
    app = create_app(tmp_path / "m.sqlite3", sealed_registry)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app, raise_server_exceptions=False) as client:
            yield app, client


def create(client: Any) -> dict[str, Any]:
    r = client.post("/api/matches", json={"title": "sealedbid", "players": 2})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_match_with_unreadable_rows_is_unavailable_and_the_others_work(
    app_and_client: Any,
) -> None:
    app, client = app_and_client
    good, bad, pages = create(client), create(client), create(client)
    t = {"X-Seat-Token": bad["seats"][0]["token"], **JSON}
    assert (
        client.post(
            f"/api/matches/{bad['id']}/actions",
            headers=t,
            json={"version": 0, "action": {"type": "bid", "coins": 1}},
        ).status_code
        == 200
    )
    hub, store = app.state.hub, app.state.store
    with store._lock:
        store._db.execute(
            "UPDATE actions SET action = '{not json' WHERE match_id = ?", (bad["id"],)
        )
    # The server is restarted, in effect: every match is read from the store again.
    hub._live.clear()
    real_load = store._load

    def load(match_id: str) -> Any:
        if match_id == pages["id"]:  # as SQLite answers when a page is damaged
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_load(match_id)

    store._load = load
    for damaged in (bad, pages):
        r = client.get(f"/api/matches/{damaged['id']}")
        assert r.status_code == 503, r.text
        assert "unavailable" in r.json()["error"] and "\n" not in r.text
        assert r.headers["retry-after"].isdigit()
        assert client.get(f"/api/matches/{damaged['id']}/events").status_code == 503
    assert client.get(f"/api/matches/{good['id']}").status_code == 200
    assert client.get("/api/matches").status_code == 200


def test_the_store_failing_under_a_listing_is_a_503(app_and_client: Any) -> None:
    app, client = app_and_client

    def broken(limit: int = 50) -> Any:
        raise sqlite3.DatabaseError("database disk image is malformed")

    app.state.store.summaries = broken
    r = client.get("/api/matches")
    assert r.status_code == 503 and "store failed" in r.json()["error"]
    assert "retry-after" in r.headers


FULL_DISK = textwrap.dedent(
    """
    import json, resource, signal, sys, warnings
    sys.path.insert(0, {tutorial!r})
    from gameweave_core import Registry
    from gameweave_sealedbid import plugin
    from gameweave_http.app import create_app
    from gameweave_http.limits import Limits
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    app = create_app({db!r}, reg, limits=Limits(creates_per_minute=10_000))
    body = {{"title": "sealedbid", "players": 2}}
    statuses = []
    with TestClient(app, raise_server_exceptions=False) as c:
        first = c.post("/api/matches", json=body).json()
        # A full disk, as the kernel makes it: no file may grow past 64 KiB
        # (the signal that would kill the process is ignored, so writes fail).
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
        refused = None
        for _ in range(400):
            r = c.post("/api/matches", json=body)
            statuses.append(r.status_code)
            if r.status_code != 201:
                refused = {{"status": r.status_code, "body": r.json(),
                           "retry": r.headers.get("retry-after")}}
                break
        again = c.get("/api/matches/" + first["id"]).status_code
        listed = c.get("/api/matches").status_code
    print(json.dumps({{"statuses": statuses, "refused": refused, "again": again,
                      "listed": listed}}))
    """
)


def test_creating_a_match_on_a_full_disk_is_a_503_that_changes_nothing(tmp_path: Path) -> None:
    script = FULL_DISK.format(
        tutorial=str(ROOT / "docs" / "tutorial" / "sealed-bid"), db=str(tmp_path / "m.sqlite3")
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    refused = out["refused"]
    assert refused is not None, out["statuses"]
    assert refused["status"] == 503, refused
    assert "could not be stored" in refused["body"]["error"] and refused["retry"]
    assert 500 not in out["statuses"]
    assert out["again"] == 200 and out["listed"] in (200, 503)


def test_a_5xx_keeps_the_connection_for_its_next_requests(
    tmp_path: Path, sealed_registry: Registry
) -> None:
    app = create_app(tmp_path / "m.sqlite3", sealed_registry)

    def crash(limit: int = 50) -> Any:
        raise RuntimeError("a bug")

    app.state.store.summaries = crash
    with ThreadServer(app) as server, socket.create_connection(("127.0.0.1", server.port)) as s:
        s.settimeout(10)
        request = b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        answers = []
        for path in (b"/api/matches", b"/api/titles", b"/api/matches", b"/api/server"):
            s.sendall(request % path)
            answers.append(read_response(s))
    assert [status for status, _ in answers] == [500, 200, 500, 200]
    assert json.loads(answers[0][1]) == {"error": "internal server error (see the server log)"}


def read_response(s: socket.socket) -> tuple[int, bytes]:
    """One HTTP/1.1 response with a Content-Length, read from ``s``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(
        int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:")
    )
    while len(body) < length:
        chunk = s.recv(65536)
        assert chunk, "the server closed the connection"
        body += chunk
    return int(lines[0].split()[1]), body[:length]


def test_serve_refuses_bad_limits_and_public_urls_in_one_line(tmp_path: Path) -> None:
    for args, words in (
        (["--limit", "nonsense=3"], "NAME=VALUE"),
        (["--limit", "streams=many"], "must be a number"),
        (["--limit", "streams=0"], "must be positive"),
        (["--public-url", "games.example.org"], "http:// or https://"),
    ):
        done = subprocess.run(
            [str(GAMEWEAVE), "serve", "--db", str(tmp_path / "m.sqlite3"), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, (args, done.stderr)
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and words in lines[0], (args, done.stderr)
        assert not (tmp_path / "m.sqlite3").exists()  # refused before anything started
