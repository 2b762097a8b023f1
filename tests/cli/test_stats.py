"""The Wilson interval of the simulation tables."""

from __future__ import annotations

import pytest

from gameweave_cli.stats import mean, wilson


def test_known_values() -> None:
    # Reference values of the 95% Wilson score interval.
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)


def test_interval_is_symmetric_and_bounded() -> None:
    for n in (1, 7, 100):
        for k in range(n + 1):
            low, high = wilson(k, n)
            assert 0.0 <= low <= k / n <= high <= 1.0
            mirror = wilson(n - k, n)
            assert mirror == pytest.approx((1 - high, 1 - low))


def test_more_games_narrow_the_interval() -> None:
    assert wilson(50, 100)[1] - wilson(50, 100)[0] > wilson(500, 1000)[1] - wilson(500, 1000)[0]


def test_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)
    with pytest.raises(ValueError):
        wilson(-1, 2)
    assert mean([]) is None
    assert mean([1.0, 2.0, 4.0]) == pytest.approx(7 / 3)
