"""Gameweave's own random generator (generator 2): test vectors and the definition.

The vectors pin the stream forever: a log recorded anywhere replays with them. The
same figures are printed in docs/reference/randomness.md; change neither, ever (a
new algorithm is a new generator number). The reference implementation below is
the documented definition written as plainly as possible; the fast one in
gameweave_core.rng must agree with it draw for draw.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import UserList
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameweave_core.rng import GENERATOR, LEGACY_GENERATOR, MAX_SEED, Rng


def new(seed: int) -> Rng:
    return Rng(seed, GENERATOR)


# -- the vectors (also in docs/reference/randomness.md) ----------------------------------

FIRST_WORDS = {
    0: [305175155, 1158190079, 2794458690, 42562283, 1448547673, 3189031527],
    1: [2233885011, 3335362369, 3254508897, 3723436523, 3449705486, 1670678448],
    42: [3372624111, 3367500792, 4071405940, 91806593, 1988099639, 2981906090],
    MAX_SEED: [1854840736, 2324176523, 4206986662, 800579648, 1981703341, 1209608446],
}

SHUFFLED_RANGE_10 = {
    0: [4, 6, 7, 1, 3, 8, 9, 5, 2, 0],
    1: [3, 2, 0, 9, 1, 4, 7, 8, 6, 5],
    42: [5, 1, 6, 4, 3, 2, 0, 8, 9, 7],
}

BOUNDS = [1, 2, 6, 52, 1000, 2**31 + 1, 2**32, 2**32 + 1, 10**30, 2**64, 2**100 + 7]
#: ``randbelow(b)`` for each of BOUNDS in turn, from seed 7.
BELOW_BOUNDS_SEED_7 = [
    0,
    1,
    5,
    49,
    698,
    1004020110,
    551884116,
    4177490972,
    340405027034906039625458184680,
    1830260976891732983,
    493350179016795043178041867000,
]


@pytest.mark.parametrize("seed", sorted(FIRST_WORDS))
def test_first_words(seed: Any) -> None:
    rng = new(seed)
    assert [rng.word() for _ in range(6)] == FIRST_WORDS[seed]


@pytest.mark.parametrize("seed", sorted(SHUFFLED_RANGE_10))
def test_shuffle_of_range_10(seed: Any) -> None:
    items = list(range(10))
    new(seed).shuffle(items)
    assert items == SHUFFLED_RANGE_10[seed]


def test_randbelow_small_and_large_bounds() -> None:
    rng = new(7)
    assert [rng.randbelow(b) for b in BOUNDS] == BELOW_BOUNDS_SEED_7


def test_the_other_draws_from_seed_42() -> None:
    rng = new(42)
    assert [rng.random() for _ in range(3)] == [
        0.7852502449159128,
        0.9479480610890343,
        0.46289051841407347,
    ]
    assert new(42).sample(range(20), 5) == [15, 0, 19, 3, 11]
    rng = new(42)
    assert [rng.randint(1, 6) for _ in range(12)] == [5, 5, 6, 1, 3, 5, 6, 2, 5, 5, 5, 5]
    rng = new(42)
    assert "".join(rng.choice("abcdefg") for _ in range(10)) == "ffgadegcff"


def test_block_zero_is_blake2b_of_seed_and_counter() -> None:
    # The definition's first step, checked against hashlib directly.
    digest = hashlib.blake2b((42).to_bytes(8, "little") + (0).to_bytes(8, "little")).digest()
    assert digest.hex()[:32] == "ef2806c9f8fbb7c874b9acf281db7805"
    assert int.from_bytes(digest[:4], "little") == FIRST_WORDS[42][0]


# -- the definition, written plainly -----------------------------------------------------


class Reference:
    """docs/reference/randomness.md, step by step; counts Lemire rejections."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.words: list[int] = []
        self.block = 0
        self.rejections = 0

    def word(self) -> int:
        if not self.words:
            message = self.seed.to_bytes(8, "little") + self.block.to_bytes(8, "little")
            digest = hashlib.blake2b(message).digest()
            self.words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 64, 4)]
            self.block += 1
        return self.words.pop(0)

    def randbelow(self, n: int) -> int:
        if n <= 2**32:
            threshold = 2**32 % n
            while True:
                m = self.word() * n
                if m % 2**32 >= threshold:
                    return m // 2**32
                self.rejections += 1
        k = n.bit_length()
        count = -(-k // 32)
        while True:
            value: int = 0
            for _ in range(count):
                value = value * 2**32 + self.word()
            value //= 2 ** (32 * count - k)
            if value < n:
                return value

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[int], k: int) -> list[int]:
        pool = list(items)
        for i in range(k):
            j = i + self.randbelow(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def random(self) -> float:
        return ((self.word() >> 5) * 2**26 + (self.word() >> 6)) / 2**53


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, MAX_SEED),
    bounds=st.lists(
        st.one_of(st.integers(1, 60), st.integers(1, 2**33), st.integers(1, 2**130)), max_size=40
    ),
)
def test_fast_draws_follow_the_definition(seed: Any, bounds: Any) -> None:
    fast, ref = new(seed), Reference(seed)
    assert [fast.randbelow(b) for b in bounds] == [ref.randbelow(b) for b in bounds]
    deck_fast, deck_ref = list(range(52)), list(range(52))
    fast.shuffle(deck_fast)
    ref.shuffle(deck_ref)
    assert deck_fast == deck_ref
    assert fast.sample(range(30), 7) == ref.sample(list(range(30)), 7)
    assert fast.random() == ref.random()
    assert fast.word() == ref.word()  # and both have read the same number of words


@pytest.mark.parametrize("seed", sorted(SHUFFLED_RANGE_10))
def test_any_mutable_sequence_is_shuffled_in_place_like_a_list(seed: Any) -> None:
    # shuffle swaps on a list (fast when compiled) and writes other sequences back.
    held = UserList(range(10))
    arr = array("i", range(10))
    new(seed).shuffle(held)
    new(seed).shuffle(arr)
    assert list(held) == list(arr) == SHUFFLED_RANGE_10[seed]
    assert type(held) is UserList and type(arr) is array


def test_rejections_happen_and_follow_the_definition() -> None:
    # Bound 2**31 + 1 rejects almost half the words: the rare path, made common.
    fast, ref = new(3), Reference(3)
    assert [fast.randbelow(2**31 + 1) for _ in range(200)] == [
        ref.randbelow(2**31 + 1) for _ in range(200)
    ]
    assert ref.rejections > 50
    # A long shuffle reaches the rejection inside shuffle's own inlined loop.
    fast, ref = new(11), Reference(11)
    big_fast, big_ref = list(range(200_000)), list(range(200_000))
    fast.shuffle(big_fast)
    ref.shuffle(big_ref)
    assert ref.rejections > 0
    assert big_fast == big_ref
    assert fast.word() == ref.word()


def test_draws_are_roughly_uniform() -> None:
    # Not a statistical test suite, but a slip in the arithmetic (a biased or
    # constant draw) shows here: each face of 6 within 10% of its expected 10,000.
    rng = new(5)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randbelow(6)] += 1
    assert all(9_000 < c < 11_000 for c in counts), counts


def test_bad_bounds_are_refused() -> None:
    rng = new(1)
    with pytest.raises(ValueError, match="at least 1"):
        rng.randbelow(0)
    with pytest.raises(ValueError, match="empty range"):
        rng.randrange(0)
    with pytest.raises(ValueError, match="empty range"):
        rng.randint(3, 2)
    with pytest.raises(ValueError, match="cannot sample 4 items from 3"):
        rng.sample([1, 2, 3], 4)
    with pytest.raises(IndexError, match="empty sequence"):
        rng.choice([])


def test_unknown_generators_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="unknown random generator 3: this Gameweave knows 1, 2"):
        Rng(1, 3)
    assert Rng(1, LEGACY_GENERATOR).fork("x").generator == LEGACY_GENERATOR
    assert new(1).fork("x").generator == GENERATOR


def test_the_legacy_generator_still_draws_what_old_logs_recorded() -> None:
    # Recorded with random.Random before Gameweave had its own generator; the
    # golden logs without a generator field replay with these sequences.
    rng = Rng(42, LEGACY_GENERATOR)
    assert [rng.randint(1, 6) for _ in range(8)] == [6, 1, 1, 6, 3, 2, 2, 2]
