"""Seeded randomness owned by the core.

Titles never import :mod:`random` or read the clock: every random draw in a match
comes from the one :class:`Rng` the match hands to ``setup`` and ``apply``. With the
same seed and the same actions a match therefore replays byte for byte.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Seeds are stored in TOML logs, whose integers are signed 64-bit.
MAX_SEED = 2**63 - 1


def derive_seed(seed: int, label: str) -> int:
    """A seed for an independent stream, fixed by ``seed`` and ``label`` alone.

    Used for bots (``"bot:2"``) and for the games of a simulation (``"game:17"``) so
    that results never depend on the order in which streams are consumed.
    """
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


class Rng:
    """A seeded random generator with the few draws games need.

    It wraps :class:`random.Random`, whose integer-seeded sequences (``random``,
    ``randrange``, ``shuffle``) are stable across CPython releases.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
        self.seed = seed
        self._random = random.Random(seed)

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one's seed and ``label``."""
        return Rng(derive_seed(self.seed, label))

    def randint(self, low: int, high: int) -> int:
        """A whole number between ``low`` and ``high``, both included."""
        return self._random.randint(low, high)

    def randrange(self, stop: int) -> int:
        """A whole number in ``range(stop)``."""
        return self._random.randrange(stop)

    def random(self) -> float:
        """A float in [0, 1)."""
        return self._random.random()

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence."""
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self._random.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place."""
        self._random.shuffle(items)

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items of ``items``, in random order."""
        return self._random.sample(list(items), k)


def fresh_seed() -> int:
    """A new seed for a match whose user gave none (the only non-deterministic draw)."""
    return random.SystemRandom().randrange(MAX_SEED)
