"""What Carried Charmed Items and Utilities in play change: limits and permissions.

A Charmed Item works only while Carried (a Stashed one loses its properties); a
Utility works while it is face up in front of its owner.
"""

from __future__ import annotations

from .cards import MUSEUM, SECURITY
from .state import CARRY_LIMIT, HAND_LIMIT, IN, STRIKES_TO_END, State


def carries(state: State, seat: int, name: str) -> bool:
    return name in state.carried[seat - 1]


def hand_limit(state: State, seat: int) -> int:
    return HAND_LIMIT + 1 if carries(state, seat, "Amber") else HAND_LIMIT


def carry_limit(state: State, seat: int) -> int:
    limit = CARRY_LIMIT
    if carries(state, seat, "Golden Scarab"):
        limit = CARRY_LIMIT + 1
    if "Deep Pockets" in state.utilities[seat - 1]:
        limit = CARRY_LIMIT + 2
    return limit


def same_title_allowed(state: State, seat: int) -> int:
    """How many of one titled Thief Card the seat may play this turn."""
    return 2 if carries(state, seat, "Mask of Many Faces") else 1


def extra_draw(state: State, seat: int) -> int:
    return 1 if carries(state, seat, "Sabre-Tooth Fang") else 0


def strikes_to_end(state: State) -> int:
    """3, or 4 while a thief in play Carries The Scream."""
    for s in range(1, state.players + 1):
        if state.status[s - 1] == IN and carries(state, s, "The Scream"):
            return STRIKES_TO_END + 1
    return STRIKES_TO_END


def protected(state: State, seat: int) -> bool:
    """Smoke Pellet in play: no opponent's card takes or drops this seat's items."""
    return "Smoke Pellet" in state.utilities[seat - 1]


def averts(state: State, seat: int, security: str) -> list[str]:
    """The Carried items ``seat`` may surrender to avert ``security`` (sorted)."""
    need = MUSEUM[security].category
    if carries(state, seat, "Marble Cherub"):
        return sorted(state.carried[seat - 1])
    return sorted(i for i in state.carried[seat - 1] if MUSEUM[i].category == need)


def is_security(card: str) -> bool:
    return MUSEUM[card].kind == SECURITY
