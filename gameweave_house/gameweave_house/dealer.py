"""The house dealer: pure functions for how it plays, and the exact odds of its play.

The rules module drives :func:`dealer_needs_card` with real draws; the enumeration
below drives the very same function over every order of a deck, so the published
odds and the statistical test measure the code the game runs.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from .cards import RANKS, VALUES, is_two_card_21, points

#: Outcome categories of a dealer hand, in display order.
CATEGORIES = ("17", "18", "19", "20", "21", "bust", "blackjack")


def dealer_needs_card(cards: list[str], stand_on: int = 17) -> bool:
    """Whether the dealer draws again: below ``stand_on`` (17, or 16 with Slow Hand).

    Soft totals count their ace as 11, so the dealer stands on every 17, soft or hard.
    """
    return points(cards) < stand_on


def dealer_play(cards: list[str], draw: Callable[[], str], stand_on: int = 17) -> list[str]:
    """Draw for the dealer until it stands or busts; returns the cards drawn."""
    drawn = []
    while dealer_needs_card(cards, stand_on):
        card = draw()
        cards.append(card)
        drawn.append(card)
    return drawn


def category(cards: list[str]) -> str:
    """The outcome category of a finished dealer hand."""
    if is_two_card_21(cards):
        return "blackjack"
    p = points(cards)
    if p > 21:
        return "bust"
    return str(p)


def exact_outcomes(counts: dict[str, int] | None = None, stand_on: int = 17) -> dict[str, Fraction]:
    """The exact distribution of the dealer's final hand dealt from ``counts``
    (cards left per rank; default a fresh deck), playing by :func:`dealer_needs_card`.

    Ranks of equal value are merged (tens, jacks, queens, kings), which keeps the
    recursion small without changing any probability.
    """
    by_value: dict[int, int] = {}
    rep: dict[int, str] = {}
    for r in RANKS:
        n = 4 if counts is None else counts.get(r, 0)
        v = VALUES[r]
        by_value[v] = by_value.get(v, 0) + n
        rep.setdefault(v, r + "S")
    result: dict[str, Fraction] = {}

    def walk(cards: list[str], left: dict[int, int], prob: Fraction) -> None:
        if len(cards) >= 2 and not dealer_needs_card(cards, stand_on):
            key = category(cards)
            result[key] = result.get(key, Fraction(0)) + prob
            return
        remaining = sum(left.values())
        for v, n in left.items():
            if n == 0:
                continue
            left[v] = n - 1
            cards.append(rep[v])
            walk(cards, left, prob * Fraction(n, remaining))
            cards.pop()
            left[v] = n

    walk([], by_value, Fraction(1))
    return result
