"""The dealer against exact enumeration, and settlement arithmetic in isolation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from gameweave_core import Rng
from gameweave_house.cards import FULL_DECK
from gameweave_house.dealer import CATEGORIES, category, dealer_play, exact_outcomes
from gameweave_house.settle import (
    BLACKJACK,
    BUST,
    LOSS,
    PUSH,
    WALKED,
    WIN,
    result,
    settle_backed,
    settle_hand,
)


def independent_enumeration() -> dict[str, Fraction]:
    """The dealer's final hand from a fresh deck, enumerated without the game's code:
    counts by value (1 = ace), soft totals by hand, standing on every 17."""
    left = {v: 4 for v in range(1, 10)}
    left[10] = 16
    out: dict[str, Fraction] = {}

    def best(hard: int, ace: bool) -> int:
        return hard + 10 if ace and hard + 10 <= 21 else hard

    def walk(n: int, hard: int, ace: bool, p: Fraction) -> None:
        score = best(hard, ace)
        if n == 2 and score == 21:
            out["blackjack"] = out.get("blackjack", Fraction(0)) + p
            return
        if n >= 2 and score >= 17:
            key = "bust" if score > 21 else str(score)
            out[key] = out.get(key, Fraction(0)) + p
            return
        total = sum(left.values())
        for v, k in list(left.items()):
            if k:
                left[v] = k - 1
                walk(n + 1, hard + v, ace or v == 1, p * Fraction(k, total))
                left[v] = k

    walk(0, 0, False, Fraction(1))
    return out


def test_dealer_play_matches_an_independent_exact_enumeration() -> None:
    ours = exact_outcomes()
    theirs = independent_enumeration()
    assert set(ours) == set(CATEGORIES)
    assert ours == theirs
    assert sum(ours.values()) == 1


def test_sampled_dealer_hands_fit_the_exact_distribution() -> None:
    # Seeded, so it cannot flake; the chi-square bound is the 0.1% point for 6 dof.
    exact = exact_outcomes()
    rng = Rng(20261129)
    n = 20_000
    seen = dict.fromkeys(CATEGORIES, 0)
    for _ in range(n):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        cards = [deck.pop(), deck.pop()]
        if category(cards) != "blackjack":
            dealer_play(cards, deck.pop)
        seen[category(cards)] += 1
    chi2 = sum((seen[k] - n * float(exact[k])) ** 2 / (n * float(exact[k])) for k in CATEGORIES)
    assert chi2 < 22.46, (chi2, seen)


def test_slow_hand_enumeration_stands_on_16() -> None:
    slow = exact_outcomes(stand_on=16)
    assert "16" in slow and slow["bust"] < exact_outcomes()["bust"]


@pytest.mark.parametrize(
    ("pts", "bust", "natural", "walked", "dealer", "dealer_bj", "word"),
    [
        (22, True, False, False, 23, False, BUST),  # bust loses even if the dealer busts
        (21, False, True, False, 20, False, BLACKJACK),
        (21, False, True, False, 21, True, PUSH),
        (20, False, False, False, 21, True, LOSS),
        (18, False, False, False, 22, False, WIN),
        (18, False, False, False, 18, False, PUSH),
        (17, False, False, False, 18, False, LOSS),
        (16, False, False, True, 18, False, WALKED),
    ],
)
def test_results(
    pts: Any, bust: Any, natural: Any, walked: Any, dealer: Any, dealer_bj: Any, word: Any
) -> None:
    assert result(pts, bust, natural, walked, dealer, dealer_bj) == word


@pytest.mark.parametrize(
    ("word", "heavy", "marked", "bag", "credit", "debit"),
    [
        (WIN, False, False, False, 200, 0),  # even money: bet back + 100
        (BLACKJACK, False, False, False, 250, 0),  # 3:2
        (WIN, False, True, False, 300, 0),  # the Mark 2:1
        (WIN, False, True, True, 400, 0),  # with Double Bag 3:1
        (WIN, True, False, False, 300, 0),  # the Heavy: effective 200 at even money
        (WIN, True, True, False, 500, 0),  # Heavy then Mark: 200 x 2
        (WIN, True, True, True, 700, 0),  # Heavy then Mark with Double Bag: 200 x 3
        (BLACKJACK, False, True, False, 300, 0),  # a Marked natural takes the Mark's 2:1
        (BLACKJACK, True, False, False, 400, 0),  # Heavy natural: 3:2 of 200
        (LOSS, False, False, False, 0, 0),
        (LOSS, False, True, False, 0, 100),  # loses double: 100 more after the bet
        (LOSS, True, False, False, 0, 100),  # Heavy: 200 lost, 100 more after the bet
        (LOSS, True, True, False, 0, 300),  # Heavy and Mark: 400 lost
        (BUST, True, True, True, 0, 300),
        (PUSH, True, True, False, 100, 0),
    ],
)
def test_mark_heavy_double_bag_arithmetic(
    word: Any, heavy: Any, marked: Any, bag: Any, credit: Any, debit: Any
) -> None:
    got_credit, got_debit, _ = settle_hand(word, 100, heavy=heavy, marked=marked, double_bag=bag)
    assert (got_credit, got_debit) == (credit, debit)


def test_cold_feet_half_is_floored_and_escapes_the_levers() -> None:
    assert settle_hand(WALKED, 25) == (12, 0, ())
    assert settle_hand(WALKED, 100, heavy=True, marked=True) == (50, 0, ())


def test_vanish_and_short_change_rescue_a_bust_or_loss() -> None:
    assert settle_hand(BUST, 100, marked=True, saved=True) == settle_hand(BUST, 100, saved=True)
    assert settle_hand(BUST, 100, saved=True) == (100, 0, ("VANISH",))
    assert settle_hand(LOSS, 100, heavy=True, short_change=True) == (100, 0, ("SHORT CHANGE",))
    assert settle_hand(BUST, 100, short_change=True) == (100, 0, ("SHORT CHANGE",))


def test_backed_chips_ride_at_even_money() -> None:
    assert settle_backed(WIN, 50) == 100
    assert settle_backed(BLACKJACK, 50) == 100
    assert settle_backed(PUSH, 50) == 50
    assert settle_backed(LOSS, 50) == 0
    assert settle_backed(LOSS, 50, short_change=True) == 50
    assert settle_backed(BUST, 50, saved=True) == 50
    assert settle_backed(WALKED, 51) == 25
