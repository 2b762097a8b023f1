"""Recorded House Job playthroughs still play the same (``GAMEWEAVE_UPDATE_GOLDEN=1``
records them afresh after a deliberate change; bump ``HouseJob.version`` then)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gameweave_core.testing import check_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
LOGS = sorted(GOLDEN.glob("house-*.toml"))


def test_there_are_golden_logs() -> None:
    assert len(LOGS) >= 4


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_golden(log: Path) -> None:
    check_golden(log)


def test_a_mid_round_golden_view_keeps_the_hole_card_down() -> None:
    expected = json.loads((GOLDEN / "house-3-midround.expected.json").read_text())
    for snapshot in expected["seats"].values():
        dealer = snapshot["view"]["dealer"]
        assert dealer["hole_down"] and len(dealer["cards"]) == 1
