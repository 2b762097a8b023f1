"""Hand-made positions for the rule tests (imported as ``from helpers import ...``).

``table`` sets up a match and puts every thief where a test wants it, in the turn
phase with nothing pending; ``room_at`` moves a Room tile (with what lies on it) to
a grid position; ``act`` applies one action through the rules after checking it is
awaited and legal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gameweave_museumrush import rules
from gameweave_museumrush.cards import CARDS, parse_coord
from gameweave_museumrush.queries import tile_of
from gameweave_museumrush.state import TURN, State

from gameweave_core import Event, Rng


def table(
    players: int = 2,
    at: Sequence[str] = ("A1", "G4", "A4", "G1"),
    *,
    seed: int = 1,
    first_game: bool = True,
    guards: Iterable[str] = (),
    turn: int = 1,
) -> State:
    """A match in its first turn: thieves on ``at``, Guards only on ``guards``, no
    cards in hand, seat ``turn`` to move with 3 moves left."""
    state = rules.setup(players, {"first_game": first_game}, Rng(seed))
    state.phase = TURN
    state.turn = turn
    for s in range(1, players + 1):
        state.pos[s - 1] = parse_coord(at[s - 1])
    state.guards = [parse_coord(g) for g in guards]
    state.moves_left = 3
    state.visited = [state.pos[turn - 1]]
    return state


def room_at(state: State, name: str, at: str) -> int:
    """Swap the tile of room ``name`` with whatever lies at ``at``; return ``at``'s index."""
    here, there = tile_of(state, name), parse_coord(at)
    state.grid[here], state.grid[there] = state.grid[there], state.grid[here]
    return there


def card_of(kind: str, nth: int = 0) -> int:
    """The ``nth`` card of ``kind``."""
    return [i for i, c in enumerate(CARDS) if c.kind == kind][nth]


def give(state: State, seat: int, *cards: int) -> None:
    """Put ``cards`` in ``seat``'s hand, taking them from wherever they were."""
    for c in cards:
        for pile in (state.deck, state.vault, state.lost, *state.hands):
            if c in pile:
                pile.remove(c)
        for tile in state.grid:
            if c in tile.cards:
                if tile.cards.index(c) == 0:
                    tile.up = False
                tile.cards.remove(c)
        state.hands[seat - 1].append(c)
        state.knows[c] = 1 << seat


def deck_top(state: State, *cards: int) -> None:
    """Put ``cards`` on top of the Search deck, in order."""
    for c in reversed(cards):
        state.deck.remove(c)
        state.deck.insert(0, c)


def act(state: State, seat: int, action: Any, seed: int = 0) -> list[Event]:
    """Apply ``action`` for ``seat``, after checking it is awaited and legal."""
    assert seat in rules.awaiting(state), f"seat {seat} is not awaited: {rules.awaiting(state)}"
    legal = rules.legal_actions(state, seat)
    assert action in legal, f"{action} is not legal: {rules.explain_illegal(state, seat, action)}"
    return rules.apply(state, seat, action, Rng(seed))


def texts(events: Sequence[Event], seat: int | None) -> list[str]:
    """What ``seat`` (``None``: a spectator) reads of ``events``."""
    return [e.text for e in events if e.visible_to(seat)]


def seed_where(check: Any, tries: int = 400) -> int:
    """The first generator seed for which ``check(seed)`` holds (dice are seeded)."""
    for seed in range(tries):
        if check(seed):
            return seed
    raise AssertionError("no seed gives the situation the test needs")
