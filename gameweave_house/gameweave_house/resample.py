"""The information-set sampler (the resample hook): a job the crew cannot tell apart
from the real one.

The crew shares everything, so every seat and a spectator know the same things: the
cards on the table, the discard (every card in it was dealt face up or discarded in
plain sight), the face-up top of the deck, and what the rules have said about the
cards still face down. Those are the face-down rest of the deck and, until it is
turned, the dealer's hole card (this implementation never burns a card face down,
so there are no others). What the crew knows about them:

- which cards they are, as a set (the deck's size and The Count read only the set);
- a face-down hole card does not make the dealer's blackjack: the house peeked;
- with an Inside Man at the table, The Tell said HIGH or LOW for the hole card.

A resampled job deals those cards out again over the same positions, uniformly among
every deal that keeps the two facts about the hole card: that is the exact posterior
when the deck was shuffled uniformly, since nothing else the crew has seen depends on
the order of the unseen cards.

The draw depends only on what the crew knows: the unseen cards are put in a
canonical order (sorted) before they are dealt again, so the same generator deals
them alike from any order the truth had. Shuffling them where they lay kept the
true order's trace in every draw, and the search's hints differed between jobs the
crew could not tell apart.
"""

from __future__ import annotations

import copy

from gameweave_core import Rng

from .cards import high_low, is_two_card_21
from .state import State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``state`` with the unseen cards dealt again from ``rng``; ``state``
    is left untouched. ``seat`` does not matter: the crew hides nothing from itself."""
    new = copy.deepcopy(state)
    hidden = new.face_down  # deck[:hidden] is face down; the face-up top stays
    unseen = sorted(new.deck[:hidden])  # canonical: nothing of the true order is kept
    if new.hole_down:
        up, hole = new.dealer
        told = new.has_role("inside_man")

        def fits(card: str) -> bool:
            if is_two_card_21([up, card]):
                return False  # the peek said no blackjack
            return not told or high_low(card) == high_low(hole)

        pool = sorted([*unseen, hole])
        # Each hole card that fits leaves the same number of deals of the rest, so a
        # uniform choice of the hole card keeps every consistent deal equally likely.
        choices = [i for i, card in enumerate(pool) if fits(card)]
        new.dealer[1] = pool.pop(rng.choice(choices))
        unseen = pool
    rng.shuffle(unseen)
    new.deck[:hidden] = unseen
    return new
