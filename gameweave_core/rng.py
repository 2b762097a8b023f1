"""Seeded randomness owned by the core.

Titles never import :mod:`random` or read the clock: every random draw in a match
comes from the one :class:`Rng` the match hands to ``setup`` and ``apply``. With the
same seed and the same actions a match therefore replays byte for byte, on every
Python version and platform, because Gameweave defines every draw itself.

Generator 2 (Gameweave's own, see ``docs/reference/randomness.md``)
    Block ``j`` of the stream is BLAKE2b-512 (RFC 7693, unkeyed) of the 16 bytes
    ``seed || j``, both unsigned 64-bit little-endian; it is read as sixteen 32-bit
    little-endian words. The stream is the words of blocks 0, 1, 2, ... in order.
    ``randbelow(n)`` for ``n <= 2**32`` multiplies one word by ``n`` and keeps the
    high 32 bits, rejecting a word whose low 32 bits fall below ``2**32 mod n``
    (Lemire's method, exact); above ``2**32`` it joins ``ceil(k / 32)`` words,
    first word most significant, keeps the top ``k = n.bit_length()`` bits and
    rejects values ``>= n``. Every other draw is built on ``randbelow`` or on whole
    words as documented on each method.

Generator 1 (legacy)
    :class:`random.Random` seeded with the integer seed, with its own ``randrange``,
    ``shuffle`` and ``sample``. CPython promises only ``random()`` to stay the same
    across releases, so it is kept only to replay logs recorded with it (a log
    without a ``generator`` field).
"""

from __future__ import annotations

import hashlib
import os
import random
import struct
from collections.abc import MutableSequence, Sequence
from typing import TYPE_CHECKING, Final, TypeVar, cast

# Defined with the errors (an interpreted module) and re-exported: mypyc cannot compile a
# class that inherits an exception into this compiled one (see setup.py).
from .errors import NeedsChance as NeedsChance
from .errors import UnseededMatch as UnseededMatch

if TYPE_CHECKING:
    # mypyc's native 64-bit integer; a plain int when interpreted (and never imported
    # then). A 32-bit word times a bound passes what mypyc multiplies unboxed, so
    # without it nearly every draw of the compiled build multiplied boxed integers:
    # 28% of a House shuffle's instructions (cachegrind).
    from mypy_extensions import i64

T = TypeVar("T")

#: Seeds are stored in TOML logs, whose integers are signed 64-bit.
MAX_SEED = 2**63 - 1

#: The generator of logs recorded before Gameweave defined its own (no field in the log).
LEGACY_GENERATOR: Final = 1
#: Gameweave's own generator, described in the module docstring.
GENERATOR: Final = 2
#: Every generator this Gameweave can replay.
GENERATORS: Final = (LEGACY_GENERATOR, GENERATOR)
#: The generator of new matches (and of ``Rng(seed)``: bots, simulations).
DEFAULT_GENERATOR: Final = GENERATOR

#: Sixteen 32-bit little-endian words out of one 64-byte block.
_WORDS: Final = struct.Struct("<16I").unpack
#: The 16-byte message hashed for one block: the seed, then the block number.
_MESSAGE: Final = struct.Struct("<QQ").pack
_TWO_32: Final = 1 << 32
#: The bounds below which a word times the bound fits a signed 64-bit integer: the
#: inlined draws (:meth:`Rng.choice`, :meth:`Rng.shuffle`) multiply natively below it.
_NATIVE_BOUND: Final = 1 << 31
_LOW_32: Final = (1 << 32) - 1
#: 2**-53: a 53-bit integer times this is a float in [0, 1), every value exact.
_FLOAT_UNIT: Final = 1.0 / (1 << 53)


def derive_seed(seed: int, label: str) -> int:
    """A seed for an independent stream, fixed by ``seed`` and ``label`` alone.

    Used for bots (``"bot:2"``) and for the games of a simulation (``"game:17"``) so
    that results never depend on the order in which streams are consumed.
    """
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def check_generator(generator: object) -> int:
    """``generator`` if this Gameweave knows it, else a one-line :class:`ValueError`."""
    if type(generator) is not int or generator not in GENERATORS:
        known = ", ".join(str(g) for g in GENERATORS)
        raise ValueError(
            f"unknown random generator {generator!r}: this Gameweave knows {known} "
            "(a newer Gameweave may have written it)"
        )
    return generator


class Rng:
    """A seeded random generator with the few draws games need.

    ``Rng(seed)`` uses :data:`DEFAULT_GENERATOR`; ``generator`` picks another one
    (replays pass the one their log records). Drawing never touches the global
    :mod:`random` state.

    :meth:`randbelow` is the one draw primitive: ``randrange``, ``randint``,
    ``choice``, ``shuffle`` and ``sample`` are built on it (generator 2's fast
    paths inline it, draw for draw), so a subclass that overrides ``randbelow``
    alone changes every one of them (see :class:`ScriptedRng`). ``random`` reads
    whole words of the stream instead and cannot be scripted.
    """

    __slots__ = ("_block", "_fast", "_legacy", "_next_block", "_pos", "generator", "seed")

    def __init__(self, seed: int, generator: int | None = None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed!r}")
        self.seed = seed
        self.generator = DEFAULT_GENERATOR if generator is None else check_generator(generator)
        # The legacy generator when replaying an old log; None for generator 2.
        self._legacy: random.Random | None = (
            random.Random(seed) if self.generator == LEGACY_GENERATOR else None
        )
        # The current block's words and the position of the next unread one; the
        # first block is hashed on the first draw (many streams are never read).
        self._block: tuple[int, ...] = ()
        self._pos = 16
        self._next_block = 0
        # The inlined copies of randbelow serve generator 2 itself only: a subclass
        # that draws otherwise gets every draw through its own randbelow.
        self._fast = type(self) is Rng and self._legacy is None

    def copy(self) -> Rng:
        """An independent generator in the same place of the same stream: it draws
        what this one would draw next (for :meth:`gameweave_core.Match.clone`)."""
        other = Rng(self.seed, self.generator)
        other._block = self._block
        other._pos = self._pos
        other._next_block = self._next_block
        if self._legacy is not None and other._legacy is not None:
            other._legacy.setstate(self._legacy.getstate())
        return other

    def fork(self, label: str) -> Rng:
        """An independent generator (of the same kind) derived from this one's seed
        and ``label``."""
        return Rng(derive_seed(self.seed, label), self.generator)

    # -- the stream ----------------------------------------------------------------

    def _refill(self) -> tuple[int, ...]:
        """Hash the next block and make its words the current ones (the caller sets
        the position)."""
        block = _WORDS(hashlib.blake2b(_MESSAGE(self.seed, self._next_block)).digest())
        self._next_block += 1
        self._block = block
        return block

    def word(self) -> int:
        """The next 32-bit word of generator 2's stream (the legacy generator's draws
        never read it)."""
        pos = self._pos
        if pos < 16:
            self._pos = pos + 1
            return self._block[pos]
        self._pos = 1
        return self._refill()[0]

    def _reject(self, n: int, m: int) -> int:
        # Lemire's rejection step, rarely reached: ``m`` (a word times ``n``) is
        # kept unless its low half is below 2**32 mod n, the values that would
        # make some results one draw likelier than others.
        threshold = (_TWO_32 - n) % n
        while m & _LOW_32 < threshold:
            m = self.word() * n
        return m >> 32

    # -- draws -----------------------------------------------------------------------

    def randbelow(self, n: int) -> int:
        """A whole number in ``range(n)``, each equally likely; ``n`` must be >= 1."""
        if self._legacy is not None:
            return self._legacy.randrange(n)
        if n <= _TWO_32:
            if n < 1:
                raise ValueError(f"randbelow needs a bound of at least 1, got {n}")
            # word(), inlined: the bots' choice and every shuffle come through here.
            pos = self._pos
            if pos < 16:
                m = self._block[pos] * n
                self._pos = pos + 1
            else:
                m = self._refill()[0] * n
                self._pos = 1
            if m & _LOW_32 < n:
                return self._reject(n, m)
            return m >> 32
        bits = n.bit_length()
        words = (bits + 31) // 32
        extra = 32 * words - bits
        while True:
            value = 0
            for _ in range(words):
                value = (value << 32) | self.word()
            value >>= extra
            if value < n:
                return value

    def randrange(self, stop: int) -> int:
        """A whole number in ``range(stop)`` (``randbelow(stop)``)."""
        if self._legacy is not None:
            return self._legacy.randrange(stop)
        if stop < 1:
            raise ValueError(f"empty range: randrange({stop})")
        return self.randbelow(stop)

    def randint(self, low: int, high: int) -> int:
        """A whole number between ``low`` and ``high``, both included
        (``low + randbelow(high - low + 1)``)."""
        if self._legacy is not None:
            return self._legacy.randint(low, high)
        if high < low:
            raise ValueError(f"empty range: randint({low}, {high})")
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        """A float in [0, 1): 53 bits, the top 27 of one word then the top 26 of the
        next, divided by ``2**53``."""
        if self._legacy is not None:
            return self._legacy.random()
        high = self.word() >> 5
        low = self.word() >> 6
        return (high * 67108864 + low) * _FLOAT_UNIT

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence: ``items[randbelow(len(items))]``."""
        n = len(items)
        if not n:
            raise IndexError("cannot choose from an empty sequence")
        if not self._fast or n >= _NATIVE_BOUND:
            return items[self.randbelow(n)]
        # randbelow, inlined: the random bots call this once per action.
        pos = self._pos
        bound: i64 = n
        word: i64
        if pos < 16:
            word = self._block[pos]
            self._pos = pos + 1
        else:
            word = self._refill()[0]
            self._pos = 1
        m = word * bound
        if m & _LOW_32 < bound:
            return items[self._reject(n, m)]
        return items[m >> 32]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place: Fisher–Yates from the end, swapping position
        ``i`` (from ``len - 1`` down to 1) with position ``randbelow(i + 1)``."""
        if self._legacy is not None:
            self._legacy.shuffle(items)
            return
        if not self._fast or len(items) >= _NATIVE_BOUND:
            for i in range(len(items) - 1, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # randbelow, inlined: a House deck is shuffled in every game, and the method
        # call per card would cost more than the draw. The swaps are made on a list:
        # compiled, a list's items are read and written directly, where a
        # MutableSequence's go through Python's generic item protocol with a boxed
        # index (three fifths of a compiled 52-card shuffle). Any other sequence is
        # copied to a list and written back, the same swaps in the same order.
        swapped: list[T] = cast("list[T]", items) if type(items) is list else list(items)
        block = self._block
        pos = self._pos
        low: i64 = _LOW_32  # a local: read once per card
        for i in range(len(swapped) - 1, 0, -1):
            if pos == 16:
                block = self._refill()
                pos = 0
            n: i64 = i + 1
            word: i64 = block[pos]
            m = word * n
            pos += 1
            if m & low < n:
                self._pos = pos
                j = self._reject(i + 1, m)
                block = self._block
                pos = self._pos
            else:
                j = m >> 32
            swapped[i], swapped[j] = swapped[j], swapped[i]
        self._pos = pos
        if swapped is not items:
            for k, item in enumerate(swapped):
                items[k] = item

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items of ``items``, in random order: the first ``k`` places
        of a Fisher–Yates from the front, position ``i`` swapped with
        ``i + randbelow(len - i)``."""
        if self._legacy is not None:
            return self._legacy.sample(list(items), k)
        pool = list(items)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError(f"cannot sample {k} items from {n}")
        for i in range(k):
            j = i + self.randbelow(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


class ScriptedRng(Rng):
    """A generator whose draws are given: the ``i``-th call of :meth:`randbelow`
    returns ``draws[i]``; a call past the end raises :class:`NeedsChance` with
    its bound, which is how a match with explicit chance stops at a chance node
    (see :meth:`gameweave_core.Match.explicit`). ``bounds`` records the bound of
    every draw made. :meth:`random` and :meth:`word` refuse: their outcomes are
    not a finite choice."""

    __slots__ = ("_draws", "_next", "bounds")

    def __init__(self, draws: Sequence[int] = ()) -> None:
        super().__init__(0)
        self._draws = list(draws)
        self._next = 0
        self.bounds: list[int] = []

    def randbelow(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"randbelow needs a bound of at least 1, got {n}")
        i = self._next
        if i >= len(self._draws):
            raise NeedsChance(n)
        value = self._draws[i]
        if not 0 <= value < n:
            raise ValueError(f"scripted draw {i} is {value}, outside range({n})")
        self._next = i + 1
        self.bounds.append(n)
        return value

    def word(self) -> int:
        raise TypeError(
            "a raw word or rng.random() cannot be an explicit chance outcome: "
            "draw with randbelow, randint, choice, shuffle or sample"
        )

    def fork(self, label: str) -> Rng:
        raise TypeError("rng.fork() cannot be an explicit chance outcome")


#: Set to ``1`` (the project's pytest plugin does, for a whole test run and the
#: servers and commands it starts) to make :func:`fresh_seed` refuse: a test that
#: creates a match without choosing its seed plays a different game on every run.
REQUIRE_SEED_ENV: Final = "GAMEWEAVE_REQUIRE_SEED"
#: Set to a whole number to draw every fresh seed of the process from a fixed
#: sequence derived from it: how a test of a server that chooses seeds itself (one
#: not in development mode) still plays the same games on every run.
FRESH_SEEDS_ENV: Final = "GAMEWEAVE_FRESH_SEEDS"

_fresh_drawn = 0


def reset_fresh_seeds() -> None:
    """Start the sequence of :data:`FRESH_SEEDS_ENV` again from its first seed."""
    global _fresh_drawn
    _fresh_drawn = 0


def fresh_seed() -> int:
    """A new seed for a match whose user gave none (the only non-deterministic draw).

    With the environment variable :data:`FRESH_SEEDS_ENV` set, the next seed of the
    fixed sequence it names instead; else, with :data:`REQUIRE_SEED_ENV` set to
    ``1`` (as under the project's tests), raises :class:`UnseededMatch`."""
    global _fresh_drawn
    fixed = os.environ.get(FRESH_SEEDS_ENV)
    if fixed:
        _fresh_drawn += 1
        return derive_seed(int(fixed), f"fresh:{_fresh_drawn}")
    if os.environ.get(REQUIRE_SEED_ENV) == "1":
        raise UnseededMatch(
            f"a match was created without a seed while {REQUIRE_SEED_ENV}=1: "
            f"tests must choose every match's seed (or set {FRESH_SEEDS_ENV})"
        )
    return random.SystemRandom().randrange(MAX_SEED)
