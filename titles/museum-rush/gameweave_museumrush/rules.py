"""The rules of Museum Rush as pure functions over :class:`~.state.State`: the title's
entry points (``setup``, ``awaiting``, ``legal_actions``, ``apply``,
``explain_illegal``, ``outcome``), and the way into the modules that hold the rules
by concept:

- :mod:`~.turn`: a thief's turn (breaking in, drawing, moving, the turn's choices);
- :mod:`~.steals`: the Steal Actions (Loot, locks, other thieves, the piles);
- :mod:`~.items`: the Items and the rooms that work like them;
- :mod:`~.guards`: Guards, Cameras and Booby Traps, and the next card turned over;
- :mod:`~.tasks`: what must be settled before play goes on, queued as
  :class:`~.state.Task` and worked through by :func:`~.tasks.settle`;
- :mod:`~.end`: the rush for the Way Outs and the Takes.

Every rule function that has something to say returns its events, and its caller
adds them to its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng

from . import items, steals, tasks, turn
from .actions import (
    BreakIn,
    Choose,
    Control,
    Crack,
    Disable,
    Done,
    Drop,
    End,
    Go,
    Keep,
    Lure,
    Move,
    Pass,
    Pick,
    Place,
    PutWayOut,
    Raid,
    Rob,
    Route,
    Security,
    Shop,
    Stash,
    StealLoot,
    TakeDown,
    Trap,
    UseKeys,
)
from .cards import (
    BUYERS,
    CARDS,
    EXHIBIT,
    FILL_IDS,
    GUARD,
    HIGH,
    RARE_FOR_ROOM,
    ROOMS,
    SEARCH_IDS,
    SECURITY,
    STASH_ROOMS,
    THIEVES,
    TILES,
    coord,
)
from .queries import everyone, label, tile_of
from .state import BREAKIN, ESCAPED, OUTSIDE, OVER, State, Tile

# -- setting up ---------------------------------------------------------------------


def setup(players: int, config: Any, rng: Rng) -> State:
    """Set-up steps 1 to 8: the museum laid out and filled, Guards placed, the
    Search deck shuffled, Buyers, Stashes and Thieves dealt (not in a first game)."""
    first = bool(config.get("first_game", False))
    order = list(range(TILES))
    rng.shuffle(order)
    grid = [Tile(room=r) for r in order]
    fill = list(FILL_IDS)
    rng.shuffle(fill)
    deck = list(SEARCH_IDS)
    rng.shuffle(deck)
    state = State(players=players, first_game=first, grid=grid, deck=deck, knows=[0] * len(CARDS))
    every = everyone(state)
    for t, tile in enumerate(grid):
        room = ROOMS[tile.room]
        if room.kind not in (EXHIBIT, HIGH):
            continue
        tile.cards = [fill.pop(), fill.pop()]
        if room.kind == HIGH:
            rare = RARE_FOR_ROOM[room.name]
            tile.cards.insert(0, rare)
            tile.up = True
            tile.covered = [False] * len(room.code)
            state.knows[rare] = every
            continue
        # Step 2e: Guards showing go to the discard pile, a Guard model in their place.
        while tile.cards:
            top = tile.cards[0]
            state.knows[top] = every
            if CARDS[top].kind != GUARD:
                tile.up = True
                break
            state.removed.append(tile.cards.pop(0))
            state.guards.append(t)
    state.guards.append(tile_of(state, SECURITY))
    state.pos = [OUTSIDE] * players
    state.hands = [[] for _ in range(players)]
    state.keys = [0] * players
    state.stash_shown = [False] * players
    state.stashed = [-1] * players
    state.cracked_at = [-1] * players
    if first:
        state.thief = [""] * players
        state.stash = [""] * players
        state.buyer = [-1] * players
    else:
        state.buyer = rng.sample(range(len(BUYERS)), players)
        state.stash = rng.sample(list(STASH_ROOMS), players)
        state.thief = rng.sample(list(THIEVES), players)
    # "If no one feels like confessing, choose randomly."
    state.starter = state.turn = rng.randrange(players) + 1
    return state


# -- whose choice, and which ----------------------------------------------------------


def awaiting(state: State) -> Sequence[int]:
    """The seat whose choice the first task needs, else the seat to play."""
    if state.phase == OVER:
        return ()
    if state.tasks:
        return (tasks.decider(state, state.tasks[0]),)
    return (state.turn,)


def legal_actions(state: State, seat: int) -> Sequence[Any]:
    """Every action ``seat`` may take now (nothing when it is not awaited)."""
    if seat not in awaiting(state):
        return ()
    if state.tasks:
        return tasks.task_actions(state, state.tasks[0])
    if state.phase == BREAKIN:
        return [BreakIn(coord(t)) for t in turn.free_edges(state)]
    return turn.turn_actions(state, seat)


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why ``action`` is not legal for ``seat`` now, in one line."""
    if state.phase == OVER:
        return "the game is over"
    if seat not in awaiting(state):
        return f"it is not your turn: waiting for {label(awaiting(state)[0])}"
    if state.tasks:
        return tasks.explain(state, state.tasks[0], action)
    return turn.explain(state, seat, action)


# -- carrying out actions -------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action of ``seat`` (in the module of its concept), then
    settle what follows."""
    task = state.tasks.pop(0) if state.tasks else None
    match action:
        case BreakIn() | Move() | Shop() | Stash() | End():
            events = turn.act(state, seat, action, task, rng)
        case StealLoot() | Crack() | Rob() | Raid() | UseKeys() | Pick() | Done():
            events = steals.act(state, seat, action, task, rng)
        case Lure() | TakeDown() | Disable() | Trap() | Control() | Security():
            events = items.act(state, seat, action, task, rng)
        case Pass() | Go() | Keep() | Drop() | Route() | Place() | PutWayOut() | Choose():
            events = tasks.answer(state, seat, action, task, rng)
        case _:
            raise TypeError(f"not a Museum Rush action: {action!r}")
    events += tasks.settle(state, rng)
    # What everyone just saw, kept in the view: a public choice (a Guard's route)
    # must show there, not only in the history.
    state.news = [e.text for e in events if e.seats is None]
    return events


# -- the end -----------------------------------------------------------------------------


def outcome(state: State) -> Outcome | None:
    """The thieves with the biggest Take (Item values break a tie)."""
    if state.phase != OVER:
        return None
    names = ", ".join(label(s) for s in state.winners)
    return Outcome(
        side=names,
        winners=tuple(state.winners),
        reason=state.ended,
        summary=f"{names} won with ${max(state.takes)}M",
        figures={
            "takes": list(state.takes),
            "turns": state.turns_taken,
            "clocks": state.clocks,
            # How many thieves escaped, were busted out, or were still inside at the end.
            "escaped": state.pos.count(ESCAPED),
            "busted_out": state.pos.count(OUTSIDE),
            "inside": sum(1 for p in state.pos if p >= 0),
        },
    )
