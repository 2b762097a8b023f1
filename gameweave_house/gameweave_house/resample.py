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
- with an Inside Man at the table, The Tell said HIGH or LOW for the hole card;
- once the deck has run dry and the discard was shuffled back in, the face-down
  deck holds only cards the crew saw in the discard, so a hole card dealt before
  that shuffle is the one card the crew has seen nowhere: it is known, and stays.

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

from gameweave_core import Rng
from gameweave_core.worlds import World, shuffle_outcomes

from .algorithms import copy_state
from .cards import high_low, is_two_card_21
from .state import State


def resample(state: State, seat: int | None, rng: Rng) -> State:
    """A copy of ``state`` with the unseen cards dealt again from ``rng``; ``state``
    is left untouched. ``seat`` does not matter: the crew hides nothing from itself."""
    new = copy_state(state)  # the title's fast copy: the shuffles it shares never change
    hidden = new.face_down  # deck[:hidden] is face down; the face-up top stays
    unseen = sorted(new.deck[:hidden])  # canonical: nothing of the true order is kept
    # A hole card not in the latest shuffle was dealt before it (the discard shuffled
    # back in cannot hold a card on the table): the crew knows it by elimination.
    if new.hole_down and not (new.shuffles and new.dealer[1] not in new.shuffles[-1][1]):
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


def resample_world(state: State, seat: int | None, rng: Rng) -> World:
    """The job :func:`resample` draws, given as the chance outcomes that make it (a
    world, which the core replays and checks: :mod:`gameweave_core.worlds`).

    Each shuffle of the job (:attr:`State.shuffles`) left its pile in an order; the
    cards the crew has not seen keep their places in that order and only change
    cards, as :func:`resample` changed them: each face-down deck card's place takes
    the card drawn there, and the hole card's place (in the shuffle it was dealt
    from) the drawn hole card. With the test option ``deck`` nothing was shuffled:
    the order is the option's, and the world the real one."""
    if not state.shuffles:
        return World(())
    drawn = resample(state, seat, rng)
    hidden = state.face_down
    latest: dict[str, str] = dict(zip(state.deck[:hidden], drawn.deck[:hidden], strict=True))
    changes = [dict[str, str]() for _ in state.shuffles]
    changes[-1] = latest
    if state.hole_down:
        hole = state.dealer[1]
        dealt_from = max(k for k, (_, after) in enumerate(state.shuffles) if hole in after)
        changes[dealt_from] = {**changes[dealt_from], hole: drawn.dealer[1]}
    chance: list[int] = []
    for (pile, after), change in zip(state.shuffles, changes, strict=True):
        chance += shuffle_outcomes(pile, [change.get(card, card) for card in after])
    return World(tuple(chance))
