"""Settlement as pure arithmetic: what one hand, and the chips backed on a box, move.

Chips leave the Take when they are bet, so settlement only ever *credits* the Take
(bets coming back with their winnings) or takes *extra debits* (the Mark's "loses
double" and the Heavy's doubling beyond the bet already gone). The rules apply every
credit of a round first and then the debits, each capped at what the Take holds.
"""

from __future__ import annotations

from typing import Final

# Results of a hand against the dealer.
WALKED: Final = "COLD FEET"
BUST: Final = "BUST"
BLACKJACK: Final = "BLACKJACK"
WIN: Final = "WIN"
PUSH: Final = "PUSH"
LOSS: Final = "LOSS"


def result(
    points: int, bust: bool, natural: bool, walked: bool, dealer_points: int, dealer_natural: bool
) -> str:
    """How a hand fares against the dealer's final hand."""
    if walked:
        return WALKED
    if bust:
        return BUST
    if natural:
        return PUSH if dealer_natural else BLACKJACK
    if dealer_natural:
        return LOSS
    if dealer_points > 21 or points > dealer_points:
        return WIN
    if points == dealer_points:
        return PUSH
    return LOSS


#: What a hand moves: ``(credit, debit, notes)``, the chips ``credit``-ed back to the
#: Take, the ``debit`` still owed (before the never-owes cap) and the notes that
#: explain it (``"MARK"``, ``"VANISH"``...). A plain tuple: the rules settle every hand
#: of every round with it (see docs/titles/house/compiled.md).
Settlement = tuple[int, int, tuple[str, ...]]


#: The notes the Heavy and the Mark add, by (heavy, marked).
_NOTES: Final = {
    (False, False): (),
    (True, False): ("HEAVY",),
    (False, True): ("MARK",),
    (True, True): ("HEAVY", "MARK"),
}


def settle_hand(
    word: str,
    bet: int,
    *,
    heavy: bool = False,
    marked: bool = False,
    double_bag: bool = False,
    saved: bool = False,
    short_change: bool = False,
) -> Settlement:
    """Settle one hand whose result is ``word`` and whose own chips are ``bet``.

    The Heavy doubles the effective bet both ways; the Mark then pays 2:1 (3:1 with
    Double Bag) on a win, a Marked blackjack included, and loses double. A natural
    pays 3:2 of the effective bet, floored. ``saved`` (Vanish) returns a busted
    bet; ``short_change`` turns a loss or bust of the main hand into a push.
    """
    if word == WALKED:
        return bet // 2, 0, ()
    eff = bet * 2 if heavy else bet
    notes = _NOTES[heavy, marked]
    if word in (BUST, LOSS):
        if word == BUST and saved:
            return bet, 0, ("VANISH",)
        if short_change:
            return bet, 0, ("SHORT CHANGE",)
        lost = eff * 2 if marked else eff
        return 0, lost - bet, notes
    if word == PUSH:
        return bet, 0, notes
    if word == WIN:
        rate = (3 if double_bag else 2) if marked else 1
        return bet + eff * rate, 0, notes
    if word == BLACKJACK:
        if marked:
            return bet + eff * (3 if double_bag else 2), 0, notes
        return bet + eff * 3 // 2, 0, notes
    raise ValueError(f"unknown hand result {word!r}")


def settle_backed(
    word: str, backed: int, *, saved: bool = False, short_change: bool = False
) -> int:
    """What chips backed onto a box by Back the Play bring back: they ride the main
    hand at even money, untouched by the Mark and the Heavy."""
    if word in (WIN, BLACKJACK):
        return backed * 2
    if word == PUSH:
        return backed
    if word == WALKED:
        return backed // 2
    if (word == BUST and saved) or short_change:
        return backed
    return 0
