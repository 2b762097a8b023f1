"""Cards leaving and joining hands and piles, who learns which card moved, the Hand
Limit, and the dice. Changes to the state that report nothing themselves: the rule
that moves a card says what the table sees of it."""

from __future__ import annotations

from gameweave_core import Rng

from .cards import CARDS, VALUABLES
from .queries import bit, everyone, has_kind
from .state import State, Task

HAND_LIMIT = 7
DIE_FACES = 6  # faces 0 to 5: the rulebook's "roll a 0, 1 or 2"


def roll(rng: Rng, n: int) -> list[int]:
    return [rng.randrange(DIE_FACES) for _ in range(n)]


def check_limit(state: State, seat: int) -> None:
    """Hand Limit: 8 or more cards and the thief drops back down to 7 at once."""
    if len(state.hands[seat - 1]) > HAND_LIMIT and not any(
        t.kind == "drop" and t.seat == seat for t in state.tasks
    ):
        state.tasks.insert(0, Task("drop", seat))


def discard_from_hand(state: State, seat: int, card: int) -> str:
    """A card leaves a hand face down: Loot and Treasure to the Vault, Items to the
    Lost & Found. Only its owner knows which card it was; the table sees which pile
    it goes to. Returns the pile's name (``"vault"`` or ``"lost"``)."""
    hand = state.hands[seat - 1]
    unseen_move(state, hand, card, bit(seat))
    hand.remove(card)
    valuable = CARDS[card].kind in VALUABLES
    (state.vault if valuable else state.lost).append(card)
    return "vault" if valuable else "lost"


def back(card: int) -> str:
    """What the table sees of a card in a hand or a face-down pile: its back, red
    (``"museum"``: Loot and Rare Treasures) or purple (``"search"``: Items)."""
    return "museum" if CARDS[card].kind in VALUABLES else "search"


def unseen_move(state: State, cards: list[int], card: int, told: int) -> None:
    """``card`` leaves ``cards`` (a hand or a face-down pile, still holding it) and
    only the seats in ``told`` (a ``knows`` mask: its owner, a thief taking it) see
    which card it is; the rest of the table sees its back go. If ``cards`` held
    other cards of that back, nobody else can tell which of them went: they forget
    every one of them, the moved card too (before this, the others' view of the
    hand dropped exactly the card that left, and told them which it was). If it was
    the only one, they know it moved."""
    alike = [c for c in cards if back(c) == back(card)]
    if len(alike) > 1:
        for c in alike:
            state.knows[c] &= told
    state.knows[card] |= told


def take_public(state: State, seat: int, card: int) -> None:
    """A card seen by all goes into ``seat``'s hand."""
    state.hands[seat - 1].append(card)
    state.knows[card] = everyone(state)


def spend(state: State, seat: int, kind: str) -> int:
    """Play the seat's card of ``kind`` face up onto the discard pile."""
    card = has_kind(state.hands[seat - 1], kind)
    state.hands[seat - 1].remove(card)
    state.discard.append(card)
    state.knows[card] = everyone(state)
    return card
