"""Cards, hand totals and the deck: plain data and pure functions.

A card is a two-character string, rank then suit: ``"AS"``, ``"TD"``, ``"7H"``.
Tens are written ``T`` so every card has the same width in logs and configs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "SHDC"
SUIT_SIGNS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: The blackjack value of each rank; an ace counts 1 here and is softened by totals.
VALUES: Final = {r: (1 if r == "A" else 10 if r in "TJQK" else int(r)) for r in RANKS}
#: Card strings of a fresh deck, in a fixed order (spades first, ace to king).
FULL_DECK: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
_FULL_SET: Final = frozenset(FULL_DECK)
#: Each card's value, by the card itself: one lookup where ``VALUES[card[0]]`` takes
#: the rank out first (hand totals run after every card drawn: 1% of a compiled hand).
CARD_VALUES: Final = {card: VALUES[card[0]] for card in FULL_DECK}


def value(card: str) -> int:
    """The card's value with an ace counted as 1."""
    return VALUES[card[0]]


def total(cards: list[str]) -> tuple[int, bool]:
    """The best total of a hand and whether it is soft (an ace counted as 11)."""
    hard = 0
    aces = False
    for c in cards:
        v = CARD_VALUES[c]
        hard += v
        if v == 1:
            aces = True
    if aces and hard <= 11:
        return hard + 10, True
    return hard, False


def points(cards: list[str]) -> int:
    """The best total of a hand (soft aces counted as 11 where that keeps it at 21 or under)."""
    return total(cards)[0]


def is_two_card_21(cards: Sequence[str]) -> bool:
    """Two cards making 21: an ace and a ten-valued card."""
    if len(cards) != 2:
        return False
    a, b = CARD_VALUES[cards[0]], CARD_VALUES[cards[1]]
    return a + b == 11 and (a == 1 or b == 1)


def is_ten_or_ace(card: str) -> bool:
    """What The Count counts: tens, face cards and aces."""
    return card[0] in "TJQKA"


def high_low(card: str) -> str:
    """The Tell's reading of a card: ``HIGH`` for 7 to king or an ace, ``LOW`` for 2 to 6."""
    return "LOW" if card[0] in "23456" else "HIGH"


def count_reading(deck: Sequence[str]) -> tuple[int, int, str]:
    """The Count: (tens and aces left, cards left, THIN / EVEN / RICH / SPENT)."""
    left = len(deck)
    rich = sum(1 for c in deck if c[0] in "TJQKA")
    if left == 0:
        return 0, 0, "SPENT"
    # Integer comparison avoids float edges: 43% and 35% exactly.
    if rich * 100 >= 43 * left:
        return rich, left, "RICH"
    if rich * 100 < 35 * left:
        return rich, left, "THIN"
    return rich, left, "EVEN"


def rank_name(card: str) -> str:
    """The rank alone as people say it in history lines: ``"7"``, ``"10"``, ``"K"``, ``"A"``."""
    return "10" if card[0] == "T" else card[0]


#: Every card's label, worked out once: history lines name cards all the time.
_LABELS: Final = {card: rank_name(card) + SUIT_SIGNS[card[1]] for card in FULL_DECK}


def label(card: str) -> str:
    """A card as people read it: ``"10♥"``, ``"A♠"``."""
    return _LABELS[card]


def labels(cards: Iterable[str]) -> str:
    return " ".join([_LABELS[c] for c in cards])


def check_deck(cards: Sequence[str]) -> str | None:
    """Why ``cards`` is not a whole 52-card deck in some order, or ``None`` if it is."""
    bad = [c for c in cards if c not in _FULL_SET]
    if bad:
        return f"deck: {bad[0]!r} is not a card (write rank then suit, e.g. 'AS', 'TD', '7H')"
    if len(set(cards)) != len(cards):
        seen: set[str] = set()
        dup = next(c for c in cards if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        return f"deck: {dup!r} appears twice"
    if len(cards) != len(FULL_DECK):
        return f"deck: a deck holds all 52 cards, this one has {len(cards)}"
    return None


def stacked(*top: str) -> list[str]:
    """A whole deck in draw order whose first cards are ``top``; the rest follow in
    the fixed fresh-deck order. Handy for tests and examples."""
    chosen = list(top)
    rest = [c for c in FULL_DECK if c not in set(chosen)]
    return chosen + rest
