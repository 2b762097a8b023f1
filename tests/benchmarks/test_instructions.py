"""``benchmarks/instructions.py``: what its child plays and how a count is taken
apart. No valgrind here: the child runs in process, and ``count`` is replaced by
made-up figures."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def instructions() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("instructions")


def units(capsys: pytest.CaptureFixture[str]) -> int:
    return int(capsys.readouterr().out.split()[-1])


def test_the_child_counts_only_the_games_after_the_warm_up(
    instructions: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    workloads = importlib.import_module("workloads")
    # The counted games are seeds 0, 1...: the warm-up changes nothing in them.
    for warm in (0, 3):
        instructions.child("match_random", "house", warm, 2)
        assert units(capsys) == sum(workloads.match_random("house", 2)(i) for i in range(2))
    instructions.child("blackjack_match", "house", 2, 3)
    hands = units(capsys)
    assert hands == sum(workloads.blackjack_match()(i) for i in range(3))
    instructions.child("blackjack_bare", "house", 2, 3)
    assert units(capsys) == hands  # the same hands, bare
    instructions.child("blackjack_bare", "house", 2, 0)
    assert units(capsys) == 0


def test_a_unit_costs_the_counted_run_less_the_warm_up_alone(
    instructions: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = []

    def count(fn: str, title: str, warm: int, games: int, tree: Path | None) -> tuple[int, int]:
        asked.append((fn, warm, games))
        # Start-up 1,000; 300 instructions a warm-up game; 50 units of 20 each a game.
        return 1_000 + 300 * warm + 1_000 * games, 50 * games

    monkeypatch.setattr(instructions, "count", count)
    assert instructions.per_unit("blackjack_bare", "house", 7, 4, None) == 20
    assert asked == [("blackjack_bare", 7, 0), ("blackjack_bare", 7, 4)]


def test_each_pair_is_a_bare_workload_and_its_match_twin(instructions: ModuleType) -> None:
    workloads = importlib.import_module("workloads")
    for (bare, match), unit in instructions.PAIRS.values():
        assert callable(getattr(workloads, bare)) and callable(getattr(workloads, match))
        assert "bare" in bare and "match" in match
        assert unit in ("action", "hand")
