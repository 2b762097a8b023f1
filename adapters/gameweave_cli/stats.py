"""Small statistics for simulation tables."""

from __future__ import annotations

import math
from statistics import NormalDist

#: The normal quantile of a two-sided 95% interval (about 1.96).
Z95 = NormalDist().inv_cdf(0.975)


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)`` it stays within [0, 1] and is
    honest for rates near 0 or 1 and for few trials. With no trials nothing is
    known, so the interval is the whole of [0, 1].
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = (z / (1 + z2 / trials)) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean(values: list[float]) -> float | None:
    """The arithmetic mean, or ``None`` for no values."""
    return math.fsum(values) / len(values) if values else None
