"""The deck: drawing, turning cards face up, and whether another round can be dealt.

The deck is a list whose LAST item is the next card; the ``shown`` cards on top are
face up for the crew, the rest face down.
"""

from __future__ import annotations

from gameweave_core import Event, Rng

from .history import line
from .state import State


def draw(state: State, rng: Rng) -> tuple[str, list[Event]]:
    """The next card of the deck, and what drawing it said: a dry deck takes the
    discard back, shuffled, and makes this round the job's last."""
    events: list[Event] = []
    if not state.deck:
        if not state.discard:  # pragma: no cover - 52 cards cannot all be on the table
            raise RuntimeError("the deck and the discard are both empty")
        pile = tuple(state.discard)
        state.deck = state.discard
        state.discard = []
        rng.shuffle(state.deck)
        state.shuffles.append((pile, tuple(state.deck)))
        state.shown = 0
        state.last_round = True
        events.append(
            line(
                f"The deck runs dry — the discard ({len(state.deck)} cards) is shuffled back "
                "in; this round is the job's last",
                "reshuffle",
            )
        )
    if state.shown:
        state.shown -= 1
    return state.deck.pop(), events


def turn_up(state: State, n: int) -> list[str]:
    """Turn up to ``n`` more deck cards face up; returns the cards turned."""
    before = state.shown
    state.shown = min(len(state.deck), state.shown + n)
    return [state.deck[-1 - i] for i in range(before, state.shown)]


def face_up(state: State) -> list[str]:
    """The face-up deck cards, top first."""
    return [state.deck[-1 - i] for i in range(state.shown)]


def can_deal_round(state: State) -> bool:
    """A full round needs two cards for every seat's box and two for the dealer."""
    return len(state.deck) >= 2 * state.players + 2
