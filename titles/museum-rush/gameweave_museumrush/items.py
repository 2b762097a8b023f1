"""The Items a thief plays (Lure, Take Down, Disable, Booby Trap) and the two rooms
that work like them: the Control Room disables a Camera as a Disable card does, the
Security Room sends a Guard as a Lure does."""

from __future__ import annotations

from typing import Any

from gameweave_core import Event, Rng

from .actions import Control, Disable, Lure, Security, TakeDown, Trap
from .cards import DISABLE, LURE, TAKEDOWN, TRAP, coord, distance, neighbours, parse_coord
from .guards import enter, move_guard_to
from .hands import spend
from .queries import control_tile, everyone, has_kind, label, security_tile, top_camera, within
from .state import State, Task


def act(state: State, seat: int, action: Any, task: Task | None, rng: Rng) -> list[Event]:
    """Carry out a legal Item or room of ``seat`` (``task``: the one it answers)."""
    match action:
        case Lure(guard=g, seat=other, to=to):
            return do_lure(state, seat, g, other, parse_coord(to), task, rng)
        case TakeDown():
            assert task is not None
            return do_takedown(state, seat, task)
        case Disable(at=at):
            return do_disable(state, seat, parse_coord(at), "a Disable card")
        case Trap(at=at):
            return do_trap(state, seat, parse_coord(at))
        case Control(at=at):
            state.used_control = True
            if control_tile(state) not in state.visited:
                state.used_cipher = True
            return do_disable(state, seat, parse_coord(at), "the Control Room")
        case Security(guard=g, to=to):
            state.used_security = True
            if security_tile(state) not in state.visited:
                state.used_cipher = True
            events = [Event.public(f"{label(seat)} uses the Security Room", "security")]
            return events + move_guard_to(state, g, parse_coord(to))
    raise TypeError(f"not a Museum Rush Item: {action!r}")


def lure_reach(state: State, seat: int) -> int:
    """How far ``seat``'s Lure sends a Guard or a thief (The Ventriloquist: 3)."""
    return 3 if state.thief[seat - 1] == "The Ventriloquist" else 1


def lure_moves(state: State, seat: int, here: int) -> list[Any]:
    """Lures ``seat`` may play standing on ``here`` in its own turn."""
    if has_kind(state.hands[seat - 1], LURE) < 0:
        return []
    reach = lure_reach(state, seat)
    out: list[Any] = []
    done_tiles: set[int] = set()
    for g, p in enumerate(state.guards):
        if p >= 0 and distance(p, here) <= 1 and p not in done_tiles:
            done_tiles.add(p)
            out.extend(Lure(g, 0, coord(t)) for t in within(p, reach))
    for other in range(1, state.players + 1):
        p = state.pos[other - 1]
        if other != seat and p >= 0 and distance(p, here) <= 1:
            out.extend(Lure(-1, other, coord(t)) for t in within(p, reach))
    return out


def trap_spots(state: State, here: int) -> list[int]:
    """Adjacent tiles a Booby Trap may go on: no thief, no Guard, no Camera on top,
    no Booby Trap there already."""
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [
        t
        for t in neighbours(here)
        if t not in taken and not top_camera(state, t) and state.grid[t].trap < 0
    ]


def do_lure(
    state: State, seat: int, guard: int, other: int, to: int, task: Task | None, rng: Rng
) -> list[Event]:
    # Which of the Lure cards goes face up onto the discard: the data says it.
    card = spend(state, seat, LURE)
    if guard >= 0:
        events = [Event.public(f"{label(seat)} plays a Lure on a Guard", "lure", card=card)]
        return events + move_guard_to(state, guard, to)
    text = f"{label(seat)} plays a Lure: {label(other)} moves to {coord(to)}"
    events = [Event.public(text, "lure", card=card)]
    events += enter(state, other, to, rng)
    if task is not None and task.kind == "defend":
        events.append(Event.public(f"{label(other)}'s steal fails"))
    return events


def do_takedown(state: State, seat: int, task: Task) -> list[Event]:
    card = spend(state, seat, TAKEDOWN)
    state.guards[task.guard] = -1
    if state.supply > 0:
        state.supply -= 1
        state.keys[seat - 1] += 1
    text = f"{label(seat)} plays a Take Down: the Guard is out, and its key taken"
    return [Event.public(text, "takedown", card=card)]


def do_disable(state: State, seat: int, tile: int, how: str) -> list[Event]:
    spent = spend(state, seat, DISABLE) if how == "a Disable card" else -1
    t = state.grid[tile]
    state.removed.append(t.cards.pop(0))
    t.up = False
    state.tasks.insert(0, Task("turnover", room=tile))
    text = f"{label(seat)} disables the Camera on {coord(tile)} with {how}"
    return [Event.public(text, "disable", **({"card": spent} if spent >= 0 else {}))]


def do_trap(state: State, seat: int, tile: int) -> list[Event]:
    card = has_kind(state.hands[seat - 1], TRAP)
    state.hands[seat - 1].remove(card)
    state.knows[card] = everyone(state)
    state.grid[tile].trap = card
    return [Event.public(f"{label(seat)} sets a Booby Trap on {coord(tile)}", "settrap", card=card)]
