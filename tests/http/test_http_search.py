"""Search on the server: search bots take their turns in the search pool, off the
event loop and out of the match's lock, playing exactly the moves they would
play in the hub's own thread; reads stay prompt meanwhile; the pool queues the
bots and refuses hints when full; a hint is searched from the seat's view alone."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import time
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import search_bots
from http_support import ThreadServer
from hub_calls import run
from search_bots import GATE_ENV, TRACE_ENV, started_file

from gameweave_cli.hint import search_hint
from gameweave_core import Match, Registry
from gameweave_http.app import create_app
from gameweave_http.hub import Hub
from gameweave_http.limits import Limits
from gameweave_http.search import (
    SEARCHES_ENV,
    AlreadySearching,
    SearchPool,
    bot_job,
    default_workers,
    hint_job,
)
from gameweave_http.store import Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

T = TypeVar("T")

#: Seconds a test waits for a search it started (a loaded machine is slow).
PATIENCE = 120.0


@pytest.fixture
def registry() -> Registry:
    from gameweave_sealedbid import plugin

    reg = Registry()
    reg.add_plugin(plugin, "sealedbid", "gameweave-sealedbid", "1.0.0")
    reg.add_plugin(search_bots, "searchbots", "tests", "1")
    return reg


@pytest.fixture
def gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file whose creation lets the held bot finish (workers inherit the variable)."""
    path = tmp_path / "gate"
    monkeypatch.setenv(GATE_ENV, str(path))
    return path


def client(app: Any) -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(app)


def wait_for(found: Callable[[], T | None], what: str, timeout: float = PATIENCE) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = found()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def create(
    c: Any, bots: dict[str, str] | None = None, *, seed: int = 7, **fields: Any
) -> dict[str, Any]:
    body = {"title": "sealedbid", "players": 2, "bots": bots or {}, "seed": seed, **fields}
    r = c.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def token_of(created: dict[str, Any], seat: int) -> str:
    return str(next(s["token"] for s in created["seats"] if s["seat"] == seat))


def read(c: Any, match_id: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/matches/{match_id}", headers={"X-Seat-Token": token} if token else {})
    assert r.status_code == 200, r.text
    payload: dict[str, Any] = r.json()
    return payload


def settled(c: Any, match_id: str, token: str | None = None) -> dict[str, Any]:
    """The payload once no bot is thinking."""
    return wait_for(
        lambda: p if not (p := read(c, match_id, token))["thinking"] else None,
        "the bots to finish thinking",
    )


def finished(c: Any, match_id: str) -> dict[str, Any]:
    """The payload once the match is over."""
    return wait_for(lambda: p if "outcome" in (p := read(c, match_id)) else None, "the end")


def pool_of(app: Any) -> SearchPool:
    pool = app.state.hub.search
    assert isinstance(pool, SearchPool)
    return pool


# -- the same moves as in the hub's thread ------------------------------------------------------


def test_a_server_bot_searches_in_a_worker_and_plays_as_it_would_inline(
    tmp_path: Path, registry: Registry
) -> None:
    app = create_app(tmp_path / "pool.sqlite3", registry, dev=True, searches=1)
    with client(app) as c:
        created = create(c, {"2": "ismcts"}, seed=11)
        token = token_of(created, 1)
        while "outcome" not in (p := settled(c, created["id"], token)):
            # The person bids a third of what it may, after the bot has bid.
            action = p["legal"][len(p["legal"]) // 3]
            r = c.post(
                f"/api/matches/{created['id']}/actions",
                headers={"X-Seat-Token": token},
                json={"version": p["version"], "action": action},
            )
            assert r.status_code == 200, r.text
        played = run(app.state.hub.get(created["id"])).match.actions()
        pool = pool_of(app)
        assert pool.uses_processes and pool.searches == 5  # one search per lot, in a worker

    # The same match with the bot playing in the hub's thread, under the lock.
    inline = Hub(Store(tmp_path / "inline.sqlite3"), registry)
    assert inline.search is None
    live, _ = run(inline.create("sealedbid", 2, 11, None, {2: "ismcts"}))
    for seat, action in played:
        if seat == 1:
            run(inline.submit(live, 1, live.match.step, action))
    assert live.match.is_over
    assert live.match.actions() == played


def test_bots_only_match_with_search_and_cheap_bots_plays_out_as_inline(
    tmp_path: Path, registry: Registry
) -> None:
    bots = {"1": "ismcts", "2": "thrifty", "3": "ismcts"}
    app = create_app(tmp_path / "pool.sqlite3", registry, dev=True, searches=2)
    with client(app) as c:
        created = create(c, bots, seed=4, players=3)
        assert "outcome" in settled(c, created["id"])
        played = run(app.state.hub.get(created["id"])).match.actions()
        assert pool_of(app).searches == 10  # two search bots, five lots
    inline = Hub(Store(tmp_path / "inline.sqlite3"), registry)
    live, _ = run(inline.create("sealedbid", 3, 4, None, {int(s): b for s, b in bots.items()}))
    assert live.match.actions() == played


# -- prompt reads --------------------------------------------------------------------------------


def test_reads_are_answered_while_a_bot_searches(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    # Every read is answered while the search holds the only worker; how fast is a
    # figure for the benchmark (benchmarks/soak.py --search), not a test's to assert.
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        searching = create(http, {"2": "held"})
        other = create(http)
        wait_for(lambda: started_file(gate).exists() or None, "the search to start")
        targets = [
            (searching["id"], token_of(searching, 1)),
            (other["id"], token_of(other, 1)),
            (other["id"], None),
        ]
        for i in range(600):
            match_id, token = targets[i % len(targets)]
            r = http.get(
                f"/api/matches/{match_id}", headers={"X-Seat-Token": token} if token else {}
            )
            assert r.status_code == 200
        # The search was under way for every read: it ends only once the gate opens.
        assert read(http, searching["id"])["thinking"] == [2]
        gate.touch()
        done = settled(http, searching["id"])
        assert done["version"] == 1 and done["awaiting"] == [1]


# -- the pool's limit ----------------------------------------------------------------------------


def test_bot_searches_queue_and_hints_are_refused_while_the_pool_is_full(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    with client(app) as c:
        held = create(c, {"2": "held"})
        wait_for(lambda: started_file(gate).exists() or None, "the held search to start")
        queued = create(c, {"2": "ismcts"})
        pool = pool_of(app)
        assert pool.in_flight() == 2  # the second waits for the only worker
        hint = c.post(
            f"/api/matches/{held['id']}/hint", headers={"X-Seat-Token": token_of(held, 1)}, json={}
        )
        assert hint.status_code == 503
        assert int(hint.headers["retry-after"]) >= 1
        assert "as many searches as it may (1 at once)" in hint.json()["error"]
        assert "\n" not in hint.json()["error"]
        waiting = read(c, queued["id"])
        assert waiting["thinking"] == [2] and waiting["version"] == 0  # queued, not refused
        gate.touch()
        for created in (held, queued):
            done = settled(c, created["id"])
            assert done["version"] == 1 and done["awaiting"] == [1]
        assert pool.in_flight() == 0
        again = c.post(
            f"/api/matches/{held['id']}/hint", headers={"X-Seat-Token": token_of(held, 1)}, json={}
        )
        assert again.status_code == 200, again.text


def test_a_seat_gets_one_hint_at_a_time(registry: Registry, gate: Path) -> None:
    pool = SearchPool(registry, workers=2)
    try:
        match = Match(registry.title("sealedbid"), 2, 5)
        held = bot_job("m1", match, 2, "held")
        first = pool.submit(held, hint=True)
        with pytest.raises(AlreadySearching, match="seat 2 already asked for a hint"):
            pool.submit(held, hint=True)
        # Another seat may ask meanwhile: admitted, it waits (of two workers, one is
        # kept for bots' turns in people's matches, which hints cannot delay).
        waiting = pool.submit(hint_job("m1", match, 1), hint=True)
        assert pool.waiting() == (1, 0)
        gate.touch()
        assert waiting.result(PATIENCE)["action"] in match.legal_json(1)
        assert first.result(PATIENCE) in match.legal_json(2)
        assert pool.submit(held, hint=True).result(PATIENCE) in match.legal_json(2)
    finally:
        pool.close()


# -- hints ---------------------------------------------------------------------------------------


def test_a_hint_is_searched_from_the_seat_view_only(tmp_path: Path, registry: Registry) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    seen = []
    hints = []
    with client(app) as c:
        # Twins for seat 1: other seeds, other lots to come, another sealed bid of seat 2;
        # the same lot up now and the same view.
        for seed, lots, bid in ((3, [5, 1, 2, 3, 4], 2), (8, [5, 9, 8, 7, 6], 9)):
            created = create(c, seed=seed, config={"lots": lots})
            r = c.post(
                f"/api/matches/{created['id']}/actions",
                headers={"X-Seat-Token": token_of(created, 2)},
                json={"version": 0, "action": {"type": "bid", "coins": bid}},
            )
            assert r.status_code == 200, r.text
            p = read(c, created["id"], token_of(created, 1))
            seen.append((p["view"], p["legal"], p["history"]))
            r = c.post(
                f"/api/matches/{created['id']}/hint",
                headers={"X-Seat-Token": token_of(created, 1)},
                json={},
            )
            assert r.status_code == 200, r.text
            hints.append(r.json())
    assert seen[0] == seen[1]  # seat 1 cannot tell the two matches apart
    assert hints[0] == hints[1]
    hint = hints[0]
    assert hint["action"] in seen[0][1]
    assert hint["iterations"] > 0 and 0 < hint["share"] <= 1
    assert hint["text"] == f"bid {hint['action']['coins']}"
    assert all(0 < o["share"] <= hint["share"] for o in hint["others"])
    # The terminal's hint for the same position is the same search.
    match = Match(registry.title("sealedbid"), 2, 3, {"lots": [5, 1, 2, 3, 4]})
    match.submit(2, {"type": "bid", "coins": 2})
    at_terminal = search_hint(match, 1)
    assert match.title.codec.to_json(at_terminal.action) == hint["action"]
    assert at_terminal.share == hint["share"] and at_terminal.iterations == hint["iterations"]


def test_hint_refusals(tmp_path: Path, registry: Registry) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    with client(app) as c:
        created = create(c)
        mid = created["id"]
        url = f"/api/matches/{mid}/hint"
        one = {"X-Seat-Token": token_of(created, 1)}

        def refused(status: int, words: str, **kw: Any) -> None:
            r = c.post(url, **kw)
            assert r.status_code == status, r.text
            error = r.json()["error"]
            assert words in error and "\n" not in error
            assert read(c, mid)["version"] == version  # nothing changed

        version = 0
        refused(401, "needs the seat's token", json={})
        refused(403, "belongs to no seat", headers={"X-Seat-Token": "nobody"}, json={})
        refused(400, "the body", headers=one, json={"depth": 3})
        r = c.post(
            f"/api/matches/{mid}/actions",
            headers=one,
            json={"version": 0, "action": {"type": "bid", "coins": 1}},
        )
        assert r.status_code == 200
        version = 1
        refused(409, "not seat 1's turn", headers=one, json={})
        assert (
            c.post(url, headers={"X-Seat-Token": token_of(created, 2)}, json={}).status_code == 200
        )
        r = c.post("/api/matches/nosuchmatch/hint", headers=one, json={})
        assert r.status_code == 404

        blind = create(c, title="blindbids")
        mid, version = blind["id"], 0
        url = f"/api/matches/{mid}/hint"
        refused(422, "cannot be searched", headers={"X-Seat-Token": token_of(blind, 1)}, json={})


def test_search_bots_are_held_to_the_title_action_bound(
    tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Searches in the pool take their turns one by one; the bots' actions since a
    # person's last one still count towards the title's bound, as in the hub's thread.
    monkeypatch.setattr(type(registry.title("sealedbid")), "max_actions", 3)
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    with client(app) as c:
        created = create(c, {"1": "ismcts", "2": "ismcts"})
        stuck = wait_for(
            lambda: p if (p := read(c, created["id"])).get("bot_error") else None,
            "the bots to stop at the bound",
        )
    assert "action bound" in stuck["bot_error"]
    assert stuck["version"] == 3 and stuck["thinking"] == []


def test_the_number_of_searches_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(SEARCHES_ENV, "3")
    assert default_workers() == 3
    monkeypatch.delenv(SEARCHES_ENV)
    assert default_workers() == (os.cpu_count() or 1)
    monkeypatch.setenv(SEARCHES_ENV, "many")
    assert default_workers() == (os.cpu_count() or 1)  # the default, said in one line
    (record,) = [r for r in caplog.records if SEARCHES_ENV in r.getMessage()]
    assert "'many'" in record.getMessage() and "\n" not in record.getMessage()


def test_a_plugin_workers_cannot_import_makes_the_pool_search_in_threads() -> None:
    from gameweave_sealedbid import plugin

    reg = Registry()
    reg.add_plugin(types.SimpleNamespace(register_titles=plugin.register_titles), "made", "t")
    pool = SearchPool(reg, workers=1)
    try:
        assert not pool.uses_processes
        match = Match(reg.title("sealedbid"), 2, 5)
        found = pool.submit(hint_job("m", match, 1), hint=True).result(PATIENCE)
        assert found == pool.submit(hint_job("m", match, 1)).result(PATIENCE)
        assert found["action"] in match.legal_json(1)
    finally:
        pool.close()


def test_stopping_the_server_abandons_a_search_and_the_turn_is_taken_after(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1)
    hub = app.state.hub
    with client(app) as c:
        held = create(c, {"2": "held"})
        wait_for(lambda: started_file(gate).exists() or None, "the held search to start")
    # The app stopped: its search was ended (not failed), and nothing new starts.
    live = run(hub.get(held["id"]))
    pool = pool_of(app)
    stopped = wait_for(
        lambda: p if not (p := json.loads(run(hub.payload(live, None))))["thinking"] else None,
        "the seat to stop thinking",
    )
    assert "bot_error" not in stopped and stopped["version"] == 0
    assert pool.in_flight() == 0 and run(hub.get(held["id"])) is live
    assert not json.loads(run(hub.payload(live, None)))["thinking"]  # a read started no search
    gate.touch()
    with client(app) as c:  # started again: the owed turn is searched and played
        done = settled(c, held["id"])
        assert done["version"] == 1 and "bot_error" not in done


# -- fair shares: people before bots-only matches ------------------------------------------------


@pytest.fixture
def trace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The file traced bots note their searches in (workers inherit the variable)."""
    path = tmp_path / "trace"
    monkeypatch.setenv(TRACE_ENV, str(path))
    return path


def test_a_persons_bot_and_hint_go_before_bots_only_matches(
    tmp_path: Path, registry: Registry, gate: Path, trace: Path
) -> None:
    limits = Limits(bot_matches=3, bot_matches_per_client=3)
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1, limits=limits)
    pool = pool_of(app)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=PATIENCE) as http:
        # A bots-only match holds the only worker; two more (three seats each) wait.
        holder = create(http, {"1": "held", "2": "held"}, seed=1)
        wait_for(lambda: started_file(gate).exists() or None, "the held search to start")
        flood = [
            create(http, {"1": "traced", "2": "traced", "3": "traced"}, seed=s, players=3)
            for s in (2, 3)
        ]
        assert pool.in_flight() == 3
        # A person asks for a hint (admitted: bots-only searches do not fill the pool)...
        asker = create(http, seed=4)
        with cf.ThreadPoolExecutor(1) as side:
            asked = side.submit(
                http.post,
                f"/api/matches/{asker['id']}/hint",
                headers={"X-Seat-Token": token_of(asker, 1)},
                json={},
            )
            wait_for(lambda: pool.in_flight() == 4 or asked.done() or None, "the hint to queue")
            # ... and another plays against a search bot (two seats).
            person = create(http, {"2": "traced"}, seed=5)
            assert read(http, person["id"])["thinking"] == [2]
            queued = pool.in_flight()
            gate.touch()
            hint = asked.result(PATIENCE)
        assert hint.status_code == 200, hint.text
        assert queued == 5  # the held search, two bots-only turns, the hint, the bot's turn
        assert hint.json()["action"] in read(http, asker["id"], token_of(asker, 1))["legal"]
        assert settled(http, person["id"], token_of(person, 1))["awaiting"] == [1]
        for created in (holder, *flood):
            finished(http, created["id"])
    # With one worker the trace is the order the searches ran in: the person's bot's
    # first, although both bots-only matches asked before it (3 seats x 5 lots each).
    assert trace.read_text().split() == ["2"] + ["3"] * 30


def test_a_person_is_served_while_bots_only_searches_hold_their_workers(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=2)
    pool = pool_of(app)
    with client(app) as c:
        # Two bots-only matches whose searches never end while the gate is shut: one
        # runs, the other waits, as the second worker is kept for people.
        held = [create(c, {"1": "held", "2": "held"}, seed=s) for s in (1, 2)]
        wait_for(lambda: started_file(gate).exists() or None, "a held search to start")
        assert pool.in_flight() == 2 and [read(c, m["id"])["thinking"] for m in held] == [[1]] * 2
        # A person's bot and hint are searched meanwhile, the held search still under way.
        person = create(c, {"2": "ismcts"}, seed=3)
        token = token_of(person, 1)
        assert settled(c, person["id"], token)["awaiting"] == [1]
        hint = c.post(f"/api/matches/{person['id']}/hint", headers={"X-Seat-Token": token}, json={})
        assert hint.status_code == 200, hint.text
        assert not gate.exists() and pool.in_flight() == 2  # both held turns still owed
        gate.touch()
        for created in held:
            assert finished(c, created["id"])["version"] == 10


def test_bots_only_search_matches_are_limited_per_client_and_in_total(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    limits = Limits(bot_matches=3, bot_matches_per_client=2)
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1, limits=limits)
    bots_only = {"1": "held", "2": "held"}
    with client(app) as one:
        two = TestClient(app, client=("192.0.2.2", 50000))  # another address

        def refused(c: Any, status: int, words: str) -> None:
            stored = len(c.get("/api/matches").json())
            body = {"title": "sealedbid", "players": 2, "bots": bots_only, "seed": 9}
            r = c.post("/api/matches", json=body)
            assert r.status_code == status, r.text
            error = r.json()["error"]
            assert words in error and "\n" not in error
            assert int(r.headers["retry-after"]) >= 1
            assert len(c.get("/api/matches").json()) == stored  # nothing was stored

        first = [create(one, bots_only, seed=s) for s in (1, 2)]
        refused(one, 429, "this client already has 2 matches of bots only with a search bot")
        # Matches with a person, or with cheap bots only, are not bots-only search play.
        create(one, {"2": "held"}, seed=3)
        create(one, {"1": "thrifty", "2": "thrifty"}, seed=4)
        create(two, bots_only, seed=5)
        refused(two, 503, "the server already has 3 matches of bots only with a search bot")
        refused(one, 429, "this client already has 2")
        gate.touch()
        for created in first:
            finished(one, created["id"])
        # Over, they no longer count.
        assert create(one, bots_only, seed=6)["id"]


def test_bots_only_matches_stay_bounded_in_memory(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    # A bots-only match is never dropped from memory while its bot thinks (its move
    # would land on a match no longer held): the limit on them is what bounds them.
    limits = Limits(live_matches=4, bot_matches=2, bot_matches_per_client=2)
    app = create_app(tmp_path / "m.sqlite3", registry, dev=True, searches=1, limits=limits)
    hub = app.state.hub
    with client(app) as c:
        answers, accepted = [], []
        for seed in range(12):
            body = {"title": "sealedbid", "players": 2, "seed": seed}
            r = c.post("/api/matches", json={**body, "bots": {"1": "held", "2": "held"}})
            answers.append(r.status_code)
            accepted += [r.json()["id"]] if r.status_code == 201 else []
            create(c, seed=100 + seed)  # a person's match, dropped when idle
            assert hub.live_count() <= limits.live_matches
        # Each accepted one is still held, its one search under way: reading it
        # starts no other (as it would for a copy rebuilt from the store).
        for match_id in accepted:
            assert read(c, match_id)["thinking"] == [1]
        assert pool_of(app).in_flight() == len(accepted)
        assert answers == [201, 201] + [429] * 10
        gate.touch()


def test_a_bots_only_match_resumed_from_the_store_takes_a_share(
    tmp_path: Path, registry: Registry, gate: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    bots_only = {"1": "held", "2": "held"}
    first = create_app(db, registry, dev=True, searches=1)
    with client(first) as c:
        stopped = create(c, bots_only, seed=1)  # the server stops while its bot thinks
        wait_for(lambda: started_file(gate).exists() or None, "the held search to start")
    first.state.store.close()

    limits = Limits(bot_matches=1)
    again = create_app(db, registry, dev=True, searches=1, limits=limits)
    with client(again) as c:
        playing = create(c, bots_only, seed=2)
        # The server's one share is taken: the stopped match waits, its turn owed.
        waiting = read(c, stopped["id"])
        assert waiting["thinking"] == [] and waiting["version"] == 0
        gate.touch()
        finished(c, playing["id"])
        # Asked for again with the share free, it goes on to its end.
        finished(c, stopped["id"])
