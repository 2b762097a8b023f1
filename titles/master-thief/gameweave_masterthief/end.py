"""The end of the game: thieves still inside are caught, the Black Market Credits are
counted, and a tie is broken by one more steal.
"""

from __future__ import annotations

from gameweave_core import Event, Rng

from .cards import (
    CALLING,
    CALLING_BONUS,
    MUSEUM,
)
from .state import (
    CAUGHT,
    ESCAPED,
    OVER,
    TIEBREAK,
    State,
)
from .table import describe_item, in_play, into_museum, label


def end_game(state: State, reason: str, rng: Rng) -> list[Event]:
    """Strikes or time: thieves still inside drop their Carried items and are caught."""
    state.ended = reason
    state.window = None
    state.alarms = []
    events = []
    why = {"strikes": "Security Strikes", "time": "Time is up", "escapes": "Everyone is out"}
    events.append(Event.public(f"{why[reason]}: the game is over", "end", reason=reason))
    state.caught_with = [[] for _ in range(state.players)]
    for s in in_play(state):
        state.status[s - 1] = CAUGHT
        state.revealed[s - 1] = True
        state.caught_with[s - 1] = list(state.carried[s - 1])
        # Dropped into the disorderly pile like any card going back: each at a random
        # place, so a tie-break steal cannot hand out what everyone just saw dropped.
        for item in state.carried[s - 1]:
            into_museum(state, item, rng)
        state.carried[s - 1] = []
        events.append(
            Event.public(f"{label(s)} is caught ({state.calling[s - 1]}); only the stash counts")
        )
    state.scores = [score(state, s) for s in range(1, state.players + 1)]
    for s in range(1, state.players + 1):
        state.revealed[s - 1] = True
    shown = ", ".join(f"{label(s)} {state.scores[s - 1]}" for s in range(1, state.players + 1))
    events.append(Event.public(f"Final Black Market Credits: {shown}", "scores"))
    top = max(state.scores)
    best = [s for s in range(1, state.players + 1) if state.scores[s - 1] == top]
    return events + settle(state, best)


def score(state: State, seat: int) -> int:
    """Black Market Credits: the items kept, +2 for each of the Calling Card's kinds."""
    kept = list(state.stashed[seat - 1])
    if state.status[seat - 1] == ESCAPED:
        kept += state.carried[seat - 1]
    favoured = CALLING[state.calling[seat - 1]].categories
    return sum(
        MUSEUM[i].bmc + (CALLING_BONUS if MUSEUM[i].category in favoured else 0) for i in kept
    )


def settle(state: State, best: list[int]) -> list[Event]:
    """One winner, or a tie-break steal while the Museum holds a card for each."""
    if len(best) == 1 or len(state.museum) < len(best):
        state.winners = best
        state.phase = OVER
        return []
    state.tied, state.tie_in, state.phase = best, [], TIEBREAK
    names = ", ".join(label(s) for s in best)
    return [Event.public(f"A tie between {names}: one last steal, all at once", "tie")]


def tie_steal(state: State, seat: int, rng: Rng) -> list[Event]:
    state.tie_in = sorted([*state.tie_in, seat])
    events = [Event.public(f"{label(seat)} reaches into the Museum one last time")]
    if len(state.tie_in) < len(state.tied):
        return events
    state.tie_steals = {}
    for s in state.tied:
        card = state.museum.pop()
        state.tie_steals[s] = card
        events.append(Event.public(f"Tie-break: {label(s)} steals {describe_item(card)}", "steal"))
    top = max(MUSEUM[c].bmc for c in state.tie_steals.values())
    best = [s for s in state.tied if MUSEUM[state.tie_steals[s]].bmc == top]
    for card in state.tie_steals.values():
        into_museum(state, card, rng)
    return events + settle(state, best)
