"""Issue 38, point 2: the search pool's classes of work and their order. A bot's
turn in a person's match goes first, then a person's hint, then bots-only
matches' turns; hints keep a worker free for people's bots, and are limited per
client (at once in the pool, per minute in the server). Checked by the order in
which searches start and by what is admitted, never by timing: the executor
here starts nothing, and the test ends each search when it chooses."""

from __future__ import annotations

import concurrent.futures as cf
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

from gameweave_core import Match, Registry
from gameweave_http.app import create_app
from gameweave_http.search import (
    HINTS_PER_CLIENT,
    HINTS_PER_MINUTE,
    PoolFull,
    SearchPool,
    TooManyHints,
    bot_job,
    hint_job,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: Seconds after which a wait counts as a hang.
HANG = 60.0


class Held:
    """The pool's executor replaced: each search handed to it is recorded (its
    match and seat, in order) and runs until :meth:`finish` ends it."""

    def __init__(self, pool: SearchPool) -> None:
        self.lock = threading.Lock()
        self.started: list[tuple[str, int]] = []
        self.running: dict[tuple[str, int], cf.Future[Any]] = {}
        pool._start = self._start  # type: ignore[method-assign]
        pool._execute = self._execute  # type: ignore[method-assign]
        self.pool = pool

    def _start(self, where: Any) -> Any:
        self.pool._executors[where] = self  # type: ignore[assignment]
        return self

    def _execute(self, executor: Any, job: Any) -> cf.Future[Any]:
        future: cf.Future[Any] = cf.Future()
        with self.lock:
            self.started.append((job.match_id, job.seat))
            self.running[(job.match_id, job.seat)] = future
        return future

    def finish(self, match_id: str, seat: int) -> None:
        """End that search. The pool frees its worker at once (in this thread) and
        sends the next searches from a thread of its own: wait for that thread."""
        with self.lock:
            future = self.running.pop((match_id, seat))
        future.set_result({"type": "bid", "coins": 0})
        done = self.pool._done
        if done is not None:
            done.submit(lambda: None).result(HANG)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """As an executor's, when the pool closes: nothing runs here."""


@pytest.fixture
def pool(sealed_registry: Registry) -> Any:
    made = SearchPool(sealed_registry, workers=2)
    yield made
    made.close()


def match(sealed_registry: Registry) -> Match:
    return Match(sealed_registry.title("sealedbid"), 4, 5)


def test_a_persons_bot_goes_before_hints_and_hints_before_bots_only_turns(
    pool: SearchPool, sealed_registry: Registry
) -> None:
    held = Held(pool)
    m = match(sealed_registry)
    pool.submit(bot_job("b1", m, 1, "random"), bots_only=True)  # a worker for bots-only
    pool.submit(bot_job("b2", m, 1, "random"), bots_only=True)  # waits: one is kept
    pool.submit(hint_job("h1", m, 1), hint=True, client="A")  # the other worker
    pool.submit(hint_job("h2", m, 1), hint=True, client="B")  # waits
    with pytest.raises(PoolFull):  # people's searches take every worker
        pool.submit(hint_job("h3", m, 1), hint=True, client="C")
    pool.submit(bot_job("p1", m, 2, "random"))  # a bot in a person's match: waits
    assert held.started == [("b1", 1), ("h1", 1)]
    held.finish("b1", 1)  # the person's bot first, though the hint asked before it
    assert held.started[-1] == ("p1", 2)
    held.finish("h1", 1)  # then the hint, before the older bots-only turn
    assert held.started[-1] == ("h2", 1)
    held.finish("p1", 2)  # no hint waits: the bots-only turn
    assert held.started[-1] == ("b2", 1)
    assert [kind for _, _, kind in pool.started] == [
        "bots-only",
        "hint",
        "bot",
        "hint",
        "bots-only",
    ]


def test_a_bots_only_turn_never_takes_the_worker_kept_for_people(
    pool: SearchPool, sealed_registry: Registry
) -> None:
    """A bots-only turn runs on the shared workers only: with a hint on the one
    shared worker of two, it waits, and a person's bot then starts at once."""
    held = Held(pool)
    m = match(sealed_registry)
    pool.submit(hint_job("h1", m, 1), hint=True, client="A")
    pool.submit(bot_job("b1", m, 1, "random"), bots_only=True)
    assert held.started == [("h1", 1)]  # the bots-only turn waits for the shared worker
    pool.submit(bot_job("p1", m, 2, "random"))
    assert held.started == [("h1", 1), ("p1", 2)]


def test_hint_spam_leaves_a_worker_for_a_persons_bot(
    pool: SearchPool, sealed_registry: Registry
) -> None:
    """However many hints are asked for, from however many clients, a bot's turn
    in a person's match starts at once (with two workers or more)."""
    held = Held(pool)
    m = match(sealed_registry)
    admitted = refused = 0
    for i in range(32):
        try:
            pool.submit(hint_job(f"spam{i}", m, 1), hint=True, client=f"10.0.0.{i % 16}")
            admitted += 1
        except PoolFull:
            refused += 1
    assert (admitted, refused) == (2, 30)
    assert held.started == [("spam0", 1)]  # the second hint waits: a worker is kept
    pool.submit(bot_job("person", m, 2, "random"))
    assert held.started == [("spam0", 1), ("person", 2)]


def test_hints_are_limited_per_client_at_once(sealed_registry: Registry) -> None:
    pool = SearchPool(sealed_registry, workers=8)
    try:
        held = Held(pool)
        m = match(sealed_registry)
        for seat in range(1, HINTS_PER_CLIENT + 1):
            pool.submit(hint_job("mine", m, seat), hint=True, client="A")
        with pytest.raises(TooManyHints, match=f"{HINTS_PER_CLIENT} hints"):
            pool.submit(hint_job("mine", m, HINTS_PER_CLIENT + 1), hint=True, client="A")
        pool.submit(hint_job("theirs", m, 1), hint=True, client="B")  # another client
        held.finish("mine", 1)
        pool.submit(hint_job("mine", m, HINTS_PER_CLIENT + 1), hint=True, client="A")
    finally:
        pool.close()


def test_hints_are_limited_per_client_per_minute(tmp_path: Path, sealed_registry: Registry) -> None:
    """The server counts a client's hints a minute: past the limit, 429 before any
    search, whether or not the earlier ones were answered."""
    app = create_app(tmp_path / "m.sqlite3", sealed_registry, dev=True, searches=1)
    with TestClient(app) as c:
        created = c.post("/api/matches", json={"title": "sealedbid", "players": 2, "seed": 2})
        token = created.json()["seats"][0]["token"]
        mid = created.json()["id"]
        # The rate limit's clock is the test's: the server's minute is spent at once.
        for _ in range(HINTS_PER_MINUTE):
            assert app.state.hints.take("testclient") is None
        r = c.post(f"/api/matches/{mid}/hint", headers={"X-Seat-Token": token}, json={})
        assert r.status_code == 429, r.text
        assert f"{HINTS_PER_MINUTE} hints in the last minute" in r.json()["error"]
        assert int(r.headers["retry-after"]) >= 1
        assert app.state.hub.search.searches == 0  # refused before any search


def test_the_kept_worker_runs_at_the_servers_priority_and_the_shared_ones_below(
    sealed_registry: Registry,
) -> None:
    """On a machine busy with other work, a person's bot is not left a sliver of a
    core behind hints: its worker process has the server's CPU priority, the
    workers hints and bots-only matches share a lower one."""
    import os

    from gameweave_http.search import KEPT_NICENESS, WORKER_NICENESS

    pool = SearchPool(sealed_registry, workers=2)
    try:
        assert pool.uses_processes
        m = match(sealed_registry)
        found = [
            pool.submit(bot_job("person", m, 1, "random")),
            pool.submit(hint_job("hinted", m, 2), hint=True, client="A"),
        ]
        for future in found:
            future.result(HANG)
        own = os.getpriority(os.PRIO_PROCESS, 0)
        niceness = {}
        for where, executor in pool._executors.items():
            assert executor is not None, where
            pids = list(getattr(executor, "_processes", {}))
            assert len(pids) == 1, (where, pids)
            niceness[where] = os.getpriority(os.PRIO_PROCESS, pids[0]) - own
        assert niceness == {"kept": KEPT_NICENESS, "shared": WORKER_NICENESS}
        assert KEPT_NICENESS < WORKER_NICENESS
    finally:
        pool.close()
