"""Guards, Cameras and Booby Traps: what they do when a thief or a Guard steps into a
tile, how Guards walk and are placed, and what turns up when a tile's next card is
turned over."""

from __future__ import annotations

from gameweave_core import Event, Rng

from .cards import CAMERA, CARDS, GUARD, coord, neighbours
from .hands import discard_from_hand
from .queries import (
    cannot_be_caught,
    everyone,
    guard_options,
    guards_on,
    label,
    name,
    thieves_on,
    top_camera,
)
from .state import TURN, State, Task


def enter(state: State, seat: int, tile: int, rng: Rng) -> list[Event]:
    """A thief moves into ``tile``: keys, Booby Trap, Guards and Camera there act."""
    state.pos[seat - 1] = tile
    if seat == state.turn and tile not in state.visited:
        state.visited.append(tile)
    events = pick_up_keys(state, seat, tile)
    queued: list[Task] = []
    here = state.grid[tile]
    # Every Guard on the tile finds the thief, one after another: taking one down or
    # luring it away leaves the others ("If the Guard is still on the tile, carry on").
    if not cannot_be_caught(state, tile):
        queued.extend(Task("caught", seat, room=tile, guard=g) for g in guards_on(state, tile))
    if top_camera(state, tile):
        queued.append(Task("camera", seat, room=tile))
    if here.trap >= 0:
        state.removed.append(here.trap)
        here.trap = -1
        events.append(Event.public(f"{label(seat)} walks into a Booby Trap", "trap"))
        events += lose_a_card(state, seat, rng)
        queued.append(Task("alert", seat))
    state.tasks[0:0] = queued
    return events


def lose_a_card(state: State, seat: int, rng: Rng) -> list[Event]:
    """A Booby Trap takes a card at random from the thief's hand, face down."""
    hand = state.hands[seat - 1]
    if not hand:
        return []
    lost = hand[rng.randrange(len(hand))]
    pile = discard_from_hand(state, seat, lost)
    return [
        Event.private([seat], f"You lose {name(lost)}", "lose", card=lost),
        Event.others([seat], state.players, f"{label(seat)} loses a card", "lose", pile=pile),
    ]


def pick_up_keys(state: State, seat: int, tile: int) -> list[Event]:
    t = state.grid[tile]
    if not t.keys:
        return []
    state.keys[seat - 1] += t.keys
    events = [Event.public(f"{label(seat)} picks up {t.keys} key(s)")]
    t.keys = 0
    return events


def seen_by_camera(state: State, seat: int, tile: int) -> list[Event]:
    """The Camera on ``tile`` sees ``seat``: the nearest Guard comes."""
    state.tasks.insert(0, Task("alert", seat))
    return [Event.public(f"The Camera on {coord(tile)} sees {label(seat)}")]


def alert(state: State, seat: int) -> list[Event]:
    """The nearest Guard comes for ``seat`` by its only route (a choice of routes
    waits for the Guard mover; out of the turns, Guards stay put)."""
    if state.phase != TURN:
        return []
    options = guard_options(state, seat)
    if len(options) != 1:
        return []
    g, path = options[0]
    return walk_guard(state, g, path)


def walk_guard(state: State, guard: int, path: list[int]) -> list[Event]:
    events: list[Event] = []
    for t in path:
        state.guards[guard] = t
        events.append(
            Event.public(f"A Guard moves to {coord(t)}", "guard", guard=guard, to=coord(t))
        )
        stops = guard_stops(state, t)
        events += guard_arrives(state, guard, t)
        if stops:
            break
    return events


def move_guard_to(state: State, guard: int, to: int) -> list[Event]:
    """A Guard sent to ``to`` (a Lure or the Security Room): what is there acts."""
    state.guards[guard] = to
    events = [Event.public(f"A Guard moves to {coord(to)}", "guard", guard=guard, to=coord(to))]
    events += guard_arrives(state, guard, to)
    return events


def guard_arrives(state: State, guard: int, tile: int) -> list[Event]:
    """A Guard steps into ``tile``: a Booby Trap there takes it out, else it finds
    every thief it can catch there (either stops its walk: :func:`guard_stops`)."""
    here = state.grid[tile]
    if here.trap >= 0:
        state.removed.append(here.trap)
        here.trap = -1
        state.guards[guard] = -1
        if state.supply > 0:
            state.supply -= 1
            here.keys += 1
        return [Event.public(f"A Guard is caught in the Booby Trap on {coord(tile)}", "trapped")]
    found = catchable(state, tile)
    state.tasks[0:0] = [Task("caught", s, room=tile, guard=guard) for s in found]
    return []


def catchable(state: State, tile: int) -> list[int]:
    """The thieves a Guard on ``tile`` finds (none in the cubicles)."""
    return [] if cannot_be_caught(state, tile) else thieves_on(state, tile)


def guard_stops(state: State, tile: int) -> bool:
    """Whether a Guard stepping into ``tile`` stops there: a trap or a thief."""
    return state.grid[tile].trap >= 0 or bool(catchable(state, tile))


def new_guard_spots(state: State, tile: int) -> list[int]:
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [t for t in neighbours(tile) if t not in taken]


def place_guard(state: State, tile: int) -> list[Event]:
    state.guards.append(tile)
    return [Event.public(f"A new Guard starts at {coord(tile)}", "newguard")]


def turn_over(state: State, tile: int) -> list[Event]:
    """Turn Over Next Card: Loot waits, a Guard card brings a new Guard nearby
    (then the next card), a Camera sees every thief on the tile."""
    t = state.grid[tile]
    if t.up or not t.cards:
        return []
    card = t.cards[0]
    state.knows[card] = everyone(state)
    kind = CARDS[card].kind
    events = [Event.public(f"On {coord(tile)} the next card is {name(card)}", "flip", card=card)]
    if kind == GUARD:
        state.removed.append(t.cards.pop(0))
        state.tasks[0:0] = [
            Task("newguard", room=tile),
            Task("turnover", room=tile),
        ]
        return events
    t.up = True
    if kind == CAMERA:
        state.tasks[0:0] = [Task("camera", s, room=tile) for s in thieves_on(state, tile)]
    return events
