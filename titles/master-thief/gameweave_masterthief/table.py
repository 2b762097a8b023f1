"""The table: who is still in play, how seats and items are named in the events, and
the card moves every part of the rules makes (an item back into the Museum, Thief
Cards drawn, a card spent).
"""

from __future__ import annotations

from gameweave_core import Event, Rng

from .cards import (
    MUSEUM,
)
from .state import (
    IN,
    PLAY,
    State,
)


def in_play(state: State) -> list[int]:
    return [s for s in range(1, state.players + 1) if state.status[s - 1] == IN]


def label(seat: int) -> str:
    return f"Seat {seat}"


def describe_item(name: str) -> str:
    card = MUSEUM[name]
    if card.kind == "Security":
        return f"{name} (Security: avert with {card.category})"
    return f"{name} ({card.category}, {card.bmc} BMC)"


def into_museum(state: State, card: str, rng: Rng) -> None:
    """A card goes back into the disorderly pile, somewhere."""
    state.museum.insert(rng.randrange(len(state.museum) + 1), card)


def draw_thief(state: State, seat: int, count: int) -> list[Event]:
    drawn = [state.deck.pop() for _ in range(count)]
    state.hands[seat - 1] = sorted(state.hands[seat - 1] + drawn)
    if not drawn:
        return []
    return [
        Event.private([seat], f"You draw {', '.join(sorted(drawn))}", "draw", cards=sorted(drawn)),
        Event.others(
            [seat], state.players, f"{label(seat)} draws {count} Thief Cards", "draw", count=count
        ),
    ]


def spend(state: State, seat: int, card: str) -> None:
    state.hands[seat - 1].remove(card)
    state.discard.append(card)
    if state.turn == seat and state.phase == PLAY:
        state.played.append(card)
