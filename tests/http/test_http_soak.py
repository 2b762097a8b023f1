"""A soak test on loopback: writers, readers, event-stream listeners and bad clients
against one server process, each doing a fixed amount of work, beside a flood of
bots-only search matches and people playing against one search bot
(benchmarks/soak.py, which also measures the read latency and a person's bot-reply
time under the same load for ``make bench``).

Afterwards: no request got a server error, every read was answered, every action the
server acknowledged is stored (read back after a SIGKILL), the server's memory is
back near where it started, every hint a person asked for was answered, the flood
was held to its limit, and the server's log holds no traceback. Nothing here
depends on how fast the machine is."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from gameweave_http.store import Store

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import soak  # noqa: E402 (from benchmarks/, put on the path above)


@pytest.mark.slow
def test_soak_mixed_load(process_server: Any, tmp_path: Path, monkeypatch: Any) -> None:
    # Writers create matches faster than a person would; the live matches held are
    # few, so that eviction and rebuilding run all along.
    monkeypatch.setenv("GAMEWEAVE_LIMITS", "creates_per_minute=100000,live_matches=20")
    # Two searches at once whatever the machine: a hint is refused only while
    # people's searches take every worker, and the two people have one each at most.
    monkeypatch.setenv("GAMEWEAVE_SEARCHES", "2")
    db = tmp_path / "soak.sqlite3"
    server = process_server(db, plugins="sealedbid,masterthief")
    plan = soak.Plan(flood=6, people=2, matches_per_person=2)
    result = soak.run(server.url, server.port, server.proc.pid, plan, server.log)
    server.kill()
    print(f"soak: {result.summary()}")  # pytest -rP shows it; the figures are the bench's
    print(f"soak: {result.flood_summary()}")

    load = result.load
    assert load.failures == [], load.failures[:5]
    assert len(load.matches) == plan.writers * plan.matches_per_writer
    assert result.reads["answered"] == plan.readers * plan.reads_per_reader
    assert sum(load.bad_answers.values()) > 0  # the bad clients were answered, not dropped
    assert result.end_rss - result.start_rss < 20_000_000, (result.start_rss, result.end_rss)
    # The flood took its share (bot_matches_per_client, 2 by default) and was refused
    # the rest; the people's bots replied at each of their turns (five lots a
    # match) and every hint they asked for was answered, the flood notwithstanding.
    assert load.flood_created >= 2 and set(load.flood_refused) == {429}, load.flood_refused
    turns = plan.people * plan.matches_per_person * 5
    assert len(load.bot_replies) == turns
    assert load.hints == {200: turns}
    assert result.tracebacks == 0, server.log.read_text()[-3000:]
    # Nothing acknowledged is lost (read back after a SIGKILL).
    store = Store(db)
    try:
        by_match: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for mid, index, seat, coins in load.acked:
            if mid not in by_match:
                stored = store.load(mid)
                assert stored is not None, mid
                by_match[mid] = stored.actions
            assert by_match[mid][index - 1] == (seat, {"type": "bid", "coins": coins})
        # Every match was played to its end (Sealed Bids: five lots, two bids each).
        assert len(load.acked) == len(load.matches) * 10
    finally:
        store.close()
