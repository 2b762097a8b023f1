"""Questions about a state that several modules ask: who is where, which way a
Guard may go, where a thief may step, and how the history names a seat and a card.
Pure functions of the state."""

from __future__ import annotations

from .cards import (
    ARCHIVE_A,
    ARCHIVE_B,
    CAMERA,
    CARDS,
    CONTROL,
    ENTRANCE,
    GENTS,
    HIGH,
    ITEMS,
    LADIES,
    ROOM_INDEX,
    ROOMS,
    SECURITY,
    TILES,
    VALUABLES,
    diagonals,
    distance,
    neighbours,
)
from .state import ESCAPED, State


def label(seat: int) -> str:
    """How the history names ``seat``."""
    return f"Seat {seat}"


def name(card: int) -> str:
    """How the history names ``card``: Loot and Treasure with their value."""
    c = CARDS[card]
    return f"{c.name} (${c.value}M)" if c.kind in VALUABLES else c.name


def bit(seat: int) -> int:
    """The ``knows`` bit of ``seat``."""
    return 1 << seat


def everyone(state: State) -> int:
    """A ``knows`` mask of every seat and the spectators."""
    return (1 << (state.players + 1)) - 1


def tile_of(state: State, room_name: str) -> int:
    """Where the room named ``room_name`` lies on the grid."""
    index = ROOM_INDEX[room_name]
    return next(t for t, tile in enumerate(state.grid) if tile.room == index)


def room_name(state: State, tile: int) -> str:
    return ROOMS[state.grid[tile].room].name


def room_kind(state: State, tile: int) -> str:
    return ROOMS[state.grid[tile].room].kind


def cannot_be_caught(state: State, tile: int) -> bool:
    """The Gents and the Ladies: Guards do not look in the cubicles."""
    return room_name(state, tile) in (GENTS, LADIES)


def is_way_out(state: State, tile: int) -> bool:
    """A tile marked by a Way Out card, or the Entrance Hall."""
    return state.grid[tile].wayout or room_name(state, tile) == ENTRANCE


def unlocked(state: State, tile: int) -> bool:
    """An Exhibit room, or a High Security room whose code is all covered."""
    kind = room_kind(state, tile)
    return kind != HIGH or all(state.grid[tile].covered)


def top_camera(state: State, tile: int) -> bool:
    """Whether a face-up Camera lies on top of ``tile``'s cards."""
    t = state.grid[tile]
    return t.up and bool(t.cards) and CARDS[t.cards[0]].kind == CAMERA


def order_from(state: State, first: int) -> list[int]:
    """Seats clockwise starting with ``first``."""
    return [(first - 1 + i) % state.players + 1 for i in range(state.players)]


def thieves_on(state: State, tile: int) -> list[int]:
    """Thieves on ``tile``, the current player first, then clockwise."""
    return [s for s in order_from(state, state.turn) if state.pos[s - 1] == tile]


def guards_on(state: State, tile: int) -> list[int]:
    return [g for g, p in enumerate(state.guards) if p == tile]


def right_of(state: State, seat: int) -> int:
    """The player to the right: the seat before ``seat`` (play passes clockwise),
    skipping thieves who have escaped (they are out of the game)."""
    for s in reversed(order_from(state, seat)[1:]):
        if state.pos[s - 1] != ESCAPED:
            return s
    return seat


def guard_mover(state: State) -> int:
    """Who directs the Guards now: the Joker in his own turn, else the player to
    the current player's right."""
    if state.thief[state.turn - 1] == "The Joker":
        return state.turn
    return right_of(state, state.turn)


def steps(state: State, seat: int, tile: int) -> list[int]:
    """Tiles a thief may move to from ``tile``: up, down, left, right, The Cat's
    diagonals, and the passage between the Archives."""
    out = set(neighbours(tile))
    if state.thief[seat - 1] == "The Cat":
        out.update(diagonals(tile))
    name = room_name(state, tile)
    if name in (ARCHIVE_A, ARCHIVE_B):
        out.add(tile_of(state, ARCHIVE_B if name == ARCHIVE_A else ARCHIVE_A))
    return sorted(out)


def within(tile: int, reach: int) -> list[int]:
    """Tiles 1 to ``reach`` orthogonal steps from ``tile`` (a Lure's destinations)."""
    return [t for t in range(TILES) if 1 <= distance(t, tile) <= reach]


def valuables(hand: list[int]) -> int:
    """How many Loot and Rare Treasure cards are in ``hand``."""
    return sum(1 for c in hand if CARDS[c].kind in VALUABLES)


def has_kind(hand: list[int], kind: str) -> int:
    """A card of ``kind`` in ``hand`` (the lowest id), or -1."""
    found = [c for c in hand if CARDS[c].kind == kind]
    return min(found) if found else -1


def hand_value(hand: list[int]) -> int:
    return sum(CARDS[c].value for c in hand if CARDS[c].kind in VALUABLES)


def item_value(hand: list[int]) -> int:
    return sum(CARDS[c].value for c in hand if CARDS[c].kind in ITEMS)


def guard_paths(start: int, target: int, length: int) -> list[list[int]]:
    """Every way of taking ``length`` steps from ``start`` that each bring a Guard
    one step closer to ``target`` (Guards always take a shortest route)."""
    if length == 0:
        return [[]]
    out: list[list[int]] = []
    for n in neighbours(start):
        if distance(n, target) == distance(start, target) - 1:
            out.extend([n, *rest] for rest in guard_paths(n, target, length - 1))
    return out


def guard_options(state: State, seat: int) -> list[tuple[int, list[int]]]:
    """The nearest Guard's possible moves 2 tiles towards ``seat``: (guard, path).

    Guards sharing a tile are alike, so only the lowest-numbered one of a tile is
    offered. Empty when no Guard is left or the thief is not in the museum.
    """
    target = state.pos[seat - 1]
    live = [(g, p) for g, p in enumerate(state.guards) if p >= 0]
    if target < 0 or not live:
        return []
    near = min(distance(p, target) for _, p in live)
    first: dict[int, int] = {}
    for g, p in live:
        if distance(p, target) == near and p not in first:
            first[p] = g
    return [
        (g, path) for p, g in sorted(first.items()) for path in guard_paths(p, target, min(2, near))
    ]


def security_tile(state: State) -> int:
    return tile_of(state, SECURITY)


def control_tile(state: State) -> int:
    return tile_of(state, CONTROL)
