"""The server benchmarks' reading of their own figures: the kinds of work a
profile's samples are counted under (``spy.categorise``, the versus benchmark's
"where each microsecond of a move goes") and the hint-spam goal of the soak
(``soak.within_undisturbed``). Pure functions of made-up samples: no server runs."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def module(name: str) -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module(name)


#: The frames every sample of the server's main thread sits under.
OUTER = (
    "<module> (gameweave_http/server.py:205);serve (gameweave_http/server.py:110);"
    "Server.run (uvicorn/server.py:67);Runner.run (asyncio/runners.py:118)"
)
CYCLE = (
    "RequestResponseCycle.run_asgi (uvicorn/protocols/http/httptools_impl.py:416);"
    "Gate.__call__ (gameweave_http/pipeline.py:190)"
)


def test_each_sample_counts_for_the_first_kind_of_work_it_shows(tmp_path: Path) -> None:
    spy = module("spy")
    stream = f"{OUTER};{CYCLE};EventStream.run (gameweave_http/events.py:250)"
    folded = tmp_path / "samples.txt"
    folded.write_text(
        "\n".join(
            [
                # A socket write made while sending an event: a write, not the stream's.
                f"{stream};RequestResponseCycle.send (uvicorn/x.py:1);"
                "OneWrite.write (gameweave_http/protocol.py:330) 5",
                # The event's own work, and its payload.
                f"{stream} 3",
                f"{stream};Hub.payload (gameweave_http/hub.py:1);"
                "Hub._payload (gameweave_http/hub.py:2);Match.payload (gameweave_core/match.py:3) 4",
                # A commit of the store, a token checked in the store's module.
                f"{OUTER};GroupCommit._flush (gameweave_http/store.py:251) 2",
                f"{OUTER};{CYCLE};Hub.seat (gameweave_http/hub.py:450);"
                "hash_token (gameweave_http/store.py:144) 1",
                # The loop itself, and an idle worker thread (left out).
                f"{OUTER} 6",
                "thread 7 (idle);_worker (concurrent/futures/thread.py:81) 9",
            ]
        )
        + "\n"
    )
    found = spy.categorise(folded)
    assert found["samples"] == 21
    shares = {name.split(":")[0].split(" (")[0]: share for name, share in found["shares"].items()}
    assert shares["socket writes"] == pytest.approx(5 / 21)
    assert shares["event streams"] == pytest.approx(3 / 21)
    assert shares["payloads"] == pytest.approx(4 / 21)
    assert shares["store"] == pytest.approx(2 / 21)
    assert shares["checks"] == pytest.approx(1 / 21)
    assert shares["event loop"] == pytest.approx(6 / 21)
    assert sum(found["shares"].values()) == pytest.approx(1.0)


def figures(p50: float, p99: float, replies: int = 100) -> dict[str, float]:
    return {"bot_reply_p50_ms": p50, "bot_reply_p99_ms": p99, "bot_replies": replies}


def test_the_hint_spam_goal_is_each_percentile_within_two_seconds_of_undisturbed() -> None:
    soak = module("soak")
    quiet = figures(300, 900)

    def judged(spammed: dict[str, float]) -> bool:
        return bool(soak.within_undisturbed({"undisturbed": quiet, "spammed": spammed}))

    assert judged(figures(2300, 2900))  # each exactly 2 s slower: within
    assert not judged(figures(2301, 1000))  # the median too slow
    assert not judged(figures(400, 2901))  # the tail too slow
    assert not judged(figures(300, 900, replies=0))  # no reply seen: nothing shown


def test_the_bare_endpoint_bound_counts_only_the_matchs_own_work() -> None:
    spy, bench_server = module("spy"), module("bench_server")
    names = [name for name, _ in spy.KINDS] + [spy.REST]
    # 200 µs an action: the store 20, the payloads 40, the rules 10, the rest elsewhere.
    own = {bench_server.MATCH_WORK[0]: 0.10, bench_server.MATCH_WORK[1]: 0.20}
    own[bench_server.MATCH_WORK[2]] = 0.05
    shares = {name: own.get(name, 0.0) for name in names}
    shares[spy.REST] = 1.0 - sum(own.values())
    column = spy.per_unit({"shares": shares, "samples": 400}, 200.0)
    assert column["us_per_unit"][bench_server.MATCH_WORK[1]] == pytest.approx(40.0)

    head, rows = spy.kinds_table({"": column}, "action")
    assert head == ["Kind of work", "share", "µs per action"]
    assert rows[-1] == ["**the server's CPU per action**", "100%", "**200**"]
    assert len(rows) == len(names) + 1

    text = "\n".join(bench_server.kinds_md(column, 50.0))
    # 70 µs of the match's own work on top of a bare endpoint's 50: 50 / 120.
    assert "took 70 µs of each action" in text
    assert "50 / (50 + 70) = 0.42x at most" in text
