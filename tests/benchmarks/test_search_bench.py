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


def test_a_table_played_in_parts_is_the_table_played_at_once(search: ModuleType) -> None:
    whole = search.jobs_for(pairing(search, "sealedbid"), 6, 17)
    parts = search.jobs_for(pairing(search, "sealedbid"), 2, 17) + search.jobs_for(
        pairing(search, "sealedbid"), 4, 17, first=2
    )
    assert parts == whole
    assert [j["game"] for j in whole] == list(range(6))
    # Seats swap in pairs of games, so a part cannot start between the two.
    with pytest.raises(ValueError, match="must be even"):
        search.jobs_for(pairing(search, "sealedbid"), 2, 17, first=3)

    def part(first: int, games: int, seed: int = 17) -> dict[str, object]:
        jobs = search.jobs_for(pairing(search, "sealedbid"), games, seed, first)
        results = [{"key": j["key"], "game": j["game"], "seed": j["seed"]} for j in jobs]
        return {"seed": seed, "results": results, "seconds": 1.0}

    pooled = search.pool_parts([part(4, 2), part(0, 4)])
    assert [r["game"] for r in pooled] == list(range(6))
    with pytest.raises(ValueError, match="game 2 of sealedbid is in two parts"):
        search.pool_parts([part(0, 4), part(2, 4)])
    with pytest.raises(ValueError, match="different seeds"):
        search.pool_parts([part(0, 2), part(2, 2, seed=18)])


def test_the_games_played_so_far_pair_up_and_are_kept(search: ModuleType, tmp_path: Path) -> None:
    kept: list[list[dict[str, object]]] = []
    chosen = [pairing(search, "museum-thief-base"), pairing(search, "house-base")]
    results = search.run_games(
        chosen, 6, 17, 1, lambda _: None, keep=lambda done: kept.append(list(done))
    )
    # Game by game across the pairings, so a run stopped anywhere leaves both sides
    # of every comparison; kept every ten games and at the end.
    assert [(r["key"], r["game"]) for r in results[:4]] == [
        ("museum-thief-base", 0), ("house-base", 0), ("museum-thief-base", 1), ("house-base", 1)
    ]  # fmt: skip
    assert [len(k) for k in kept] == [10, 12] and kept[-1] == results
    path = tmp_path / "raw.json"
    search.write_json(path, {"seed": 17, "results": results, "seconds": 1.0})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw.json"]
    table = search.pooled([path])
    assert table["raw"]["results"] == sorted(results, key=lambda r: (r["game"], r["key"]))
    assert "in all, run in parts" in table["body"][0]
