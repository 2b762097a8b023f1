"""Recorded Museum Job games still play the same (golden/museum-*.toml).

Each log is replayed with every digest checked, and every seat's final view,
legal actions and history must equal the recorded ``.expected.json``. See
``make_golden.py`` for how they were made.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gameweave_core.testing import check_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
LOGS = sorted(GOLDEN.glob("museum-*.toml"))


def test_there_are_golden_museum_games() -> None:
    assert len(LOGS) >= 3


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_golden_game_plays_the_same(log: Path) -> None:
    check_golden(log)
