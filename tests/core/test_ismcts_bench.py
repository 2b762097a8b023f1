"""The search benchmark (benchmarks/search.py): its games are seeded, paired and
seat-swapped as the strength table says, and the same seed gives the same games."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "search.py"


@pytest.fixture(scope="module")
def search() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gameweave_search_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def pairing(search: ModuleType, key: str) -> dict[str, object]:
    return next(p for p in search.PAIRINGS if p["key"] == key)


def test_symmetric_pairings_play_each_seed_from_both_seats(search: ModuleType) -> None:
    jobs = search.jobs_for(pairing(search, "sealedbid"), 6, 17)
    assert [j["search_seat"] for j in jobs] == [1, 2, 1, 2, 1, 2]
    assert jobs[0]["seed"] == jobs[1]["seed"] != jobs[2]["seed"]
    for job in jobs:
        assert job["seats"][job["search_seat"]] == "ismcts"
        assert job["seats"][3 - job["search_seat"]] == "random"
    # A comparison's two sides play the same seeds.
    thief = search.jobs_for(pairing(search, "museum-thief"), 3, 17)
    base = search.jobs_for(pairing(search, "museum-thief-base"), 3, 17)
    assert [j["seed"] for j in thief] == [j["seed"] for j in base]
    assert search.jobs_for(pairing(search, "sealedbid"), 6, 18)[0]["seed"] != jobs[0]["seed"]


def test_the_same_seed_gives_the_same_games(search: ModuleType) -> None:
    jobs = search.jobs_for(pairing(search, "sealedbid"), 4, 5)
    first = [search.play(j) for j in jobs]
    again = [search.play(j) for j in jobs]

    def games(results: list[dict[str, object]]) -> list[tuple[object, ...]]:
        return [(r["winners"], r["figures"], r["steps"], r["iterations"]) for r in results]

    assert games(first) == games(again)
    # Every search decision was timed, with the iterations it ran.
    for r in first:
        assert len(r["times"]) == len(r["iterations"]) > 0


def test_the_summary_counts_wins_with_wilson_intervals(search: ModuleType) -> None:
    lo, hi = search.wilson(92, 100)
    assert 0.84 < lo < 0.92 < hi < 0.97
    results = [
        {"key": "sealedbid", "title": "sealedbid", "search_seat": 1 + i % 2,
         "winners": [1 + i % 2] if i < 9 else [2 - i % 2], "figures": {}, "steps": 5,
         "times": [0.01, 0.02], "iterations": [160, 0]}
        for i in range(10)
    ]  # fmt: skip
    summary = search.summarize(results)
    assert summary["rows"][0][3].startswith("90.0% (")
    assert summary["goals"][0][3] is True
    speed = summary["raw_speed"]["sealedbid"]
    assert speed["searched"] == 0.5 and speed["iterations_per_s"] == pytest.approx(16_000)
