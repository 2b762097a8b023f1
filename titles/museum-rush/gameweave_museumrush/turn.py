"""A thief's turn: breaking in, drawing a Search card, moving, the choices of the
turn and why others are refused, the Stash and the Gift Shop, and ending the turn."""

from __future__ import annotations

from typing import Any

from gameweave_core import Event, Rng

from .actions import (
    BreakIn,
    Control,
    Crack,
    Disable,
    End,
    Move,
    Raid,
    Rob,
    Security,
    Shop,
    Stash,
    StealLoot,
    Trap,
)
from .cards import (
    CARDS,
    CLOCK,
    CLOCKS_TO_END,
    CONTROL,
    DISABLE,
    EDGE,
    LOOT,
    SECURITY,
    SHOP,
    TILES,
    TRAP,
    VALUABLES,
    WAYOUT,
    coord,
    distance,
    neighbours,
    parse_coord,
)
from .end import begin_rush
from .guards import enter, pick_up_keys
from .hands import check_limit
from .items import lure_moves, trap_spots
from .queries import (
    bit,
    control_tile,
    everyone,
    has_kind,
    is_way_out,
    label,
    name,
    order_from,
    room_name,
    security_tile,
    steps,
    thieves_on,
    tile_of,
    top_camera,
    unlocked,
)
from .state import BREAKIN, ESCAPED, OUTSIDE, TURN, State, Task
from .steals import can_crack, can_raid


def act(state: State, seat: int, action: Any, task: Task | None, rng: Rng) -> list[Event]:
    """Carry out a legal move of ``seat``'s turn."""
    match action:
        case BreakIn(at=at):
            return do_breakin(state, seat, parse_coord(at), rng)
        case Move(to=to):
            return do_move(state, seat, parse_coord(to), rng)
        case Shop():
            state.used_shop = True
            events = [Event.public(f"{label(seat)} draws an extra card in the Gift Shop")]
            return events + draw(state, seat, rng)
        case Stash(card=c):
            return do_stash(state, seat, c)
        case End(escape=escape):
            return do_end(state, seat, escape)
    raise TypeError(f"not a move of a Museum Rush turn: {action!r}")


# -- the choices of a turn ------------------------------------------------------------


def free_edges(state: State) -> list[int]:
    """Edge tiles with no Guard and no thief: where a thief may break in."""
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [t for t in EDGE if t not in taken]


def turn_actions(state: State, seat: int) -> list[Any]:
    """The current thief's choices when nothing else is pending."""
    here = state.pos[seat - 1]
    if here == OUTSIDE:
        edges = free_edges(state)
        return [BreakIn(coord(t)) for t in edges] if edges else [End(False)]
    out: list[Any] = []
    hand = state.hands[seat - 1]
    if state.moves_left > 0 and not state.stolen:
        out.extend(Move(coord(t)) for t in steps(state, seat, here))
    if not state.stolen:
        out.extend(steal_actions(state, seat, here))
    out.extend(lure_moves(state, seat, here))
    if top_camera(state, here) and has_kind(hand, DISABLE) >= 0:
        out.append(Disable(coord(here)))
    out.extend(room_actions(state, seat))
    # Ruling: the Stash is part of the movement ("Carry on with your movement"),
    # which the Steal Action ends.
    if (
        not state.first_game
        and not state.stolen
        and not state.stash_shown[seat - 1]
        and room_name(state, here) == state.stash[seat - 1]
    ):
        out.extend(Stash(c) for c in sorted(hand) if CARDS[c].kind in VALUABLES)
    out.append(End(False))
    if is_way_out(state, here):
        out.append(End(True))
    return out


def steal_actions(state: State, seat: int, here: int) -> list[Any]:
    """What a thief on ``here`` may do until its Steal Action: the Steal Actions
    themselves, and setting a Booby Trap."""
    out: list[Any] = []
    tile = state.grid[here]
    top = tile.cards[0] if tile.cards and tile.up else -1
    if top >= 0 and CARDS[top].kind == LOOT and unlocked(state, here):
        out.append(StealLoot())
    if can_crack(state, seat) is None:
        out.append(Crack())
    # An empty hand is no shelter: the victim may win the roll and take instead.
    out.extend(Rob(other) for other in thieves_on(state, here) if other != seat)
    if can_raid(state, seat) is None:
        out.append(Raid())
    if has_kind(state.hands[seat - 1], TRAP) >= 0:
        out.extend(Trap(coord(t)) for t in trap_spots(state, here))
    return out


def room_actions(state: State, seat: int) -> list[Any]:
    """The rooms ``seat`` may use this turn: the Control Room and the Security Room
    once visited (or, for the Cipher, within reach), the Gift Shop once visited."""
    out: list[Any] = []
    control = control_tile(state)
    if not state.used_control and (control in state.visited or cipher_reach(state, seat, CONTROL)):
        out.extend(Control(coord(t)) for t in range(TILES) if top_camera(state, t))
    security = security_tile(state)
    if not state.used_security and (
        security in state.visited or cipher_reach(state, seat, SECURITY)
    ):
        seen: set[int] = set()
        for g, p in enumerate(state.guards):
            if p >= 0 and p not in seen:
                seen.add(p)
                out.extend(Security(g, coord(t)) for t in neighbours(p))
    if not state.used_shop and tile_of(state, SHOP) in state.visited and state.deck:
        out.append(Shop())
    return out


def cipher_reach(state: State, seat: int, room: str) -> bool:
    """Whether the Cipher may use ``room`` from afar now (once, during movement)."""
    return (
        state.thief[seat - 1] == "Cipher"
        and not state.used_cipher
        and not state.stolen
        and distance(state.pos[seat - 1], tile_of(state, room)) <= 3
    )


def explain(state: State, seat: int, action: Any) -> str:
    """Why ``action`` is not among the choices of ``seat``'s turn, in one line."""
    legal = turn_actions(state, seat)
    here = state.pos[seat - 1]
    if state.stolen and isinstance(action, (StealLoot, Crack, Rob, Raid, Trap)):
        return "one Steal Action a turn, and no Booby Trap after it"
    if state.stolen and isinstance(action, Stash):
        return "the Stash is used during your movement, before your Steal Action"
    match action:
        case BreakIn(at=at):
            if state.phase == TURN and here >= 0:
                return "your thief is already in the museum"
            return f"{at} is not a free edge tile (no Guard, no thief, on the edge)"
        case Move(to=to):
            if here < 0:
                return "break in first"
            if state.stolen:
                return "you have taken your Steal Action: no more moves this turn"
            if state.moves_left == 0:
                return "you have moved 3 times this turn"
            return f"{to} is not next to your tile {coord(here)}"
        case StealLoot():
            return "there is no face-up Loot you can reach on your tile"
        case Crack():
            return (can_crack(state, seat) or "") if here >= 0 else "break in first"
        case Rob(seat=other):
            return f"{label(other)} is not on your tile"
        case Raid():
            return (can_raid(state, seat) or "") if here >= 0 else "break in first"
        case End(escape=True):
            return "you are not on a Way Out (a Way Out card's tile or the Entrance Hall)"
    kinds = sorted({type(a).__name__ for a in legal})
    return f"not possible now; you may: {', '.join(kinds)}"


# -- starting and passing the turn --------------------------------------------------------


def do_breakin(state: State, seat: int, tile: int, rng: Rng) -> list[Event]:
    """Break In: onto a free edge tile (not a move); in a turn, the draw follows."""
    state.pos[seat - 1] = tile
    events = [Event.public(f"{label(seat)} breaks in at {coord(tile)} ({room_name(state, tile)})")]
    if state.phase == BREAKIN:
        left = [s for s in range(1, state.players + 1) if state.pos[s - 1] == OUTSIDE]
        if left:
            state.turn = next(s for s in order_from(state, state.turn) if s in left)
        else:
            state.phase = TURN
            state.turn = state.starter
            events += start_turn(state, rng)
        return events
    state.visited = [tile]
    events += pick_up_keys(state, seat, tile)
    events += draw(state, seat, rng)
    return events


def start_turn(state: State, rng: Rng) -> list[Event]:
    """Step 1 of a turn: draw (after breaking in again if busted)."""
    seat = state.turn
    state.turns_taken += 1
    state.moves_left = 3
    state.stolen = state.moved = False
    state.used_control = state.used_security = state.used_shop = state.used_cipher = False
    state.cracked_at[seat - 1] = -1
    here = state.pos[seat - 1]
    state.visited = [here] if here >= 0 else []
    events = [Event.public(f"{label(seat)}'s turn", "turn", seat=seat)]
    if here >= 0:
        events += draw(state, seat, rng)
    return events


def next_turn(state: State, rng: Rng) -> list[Event]:
    """Pass the turn clockwise to the next thief who has not escaped; with none
    left, the game ends."""
    for s in [*order_from(state, state.turn)[1:], state.turn]:
        if state.pos[s - 1] != ESCAPED:
            state.turn = s
            return start_turn(state, rng)
    return [Event.public("Every thief has escaped"), *begin_rush(state, rng)]


def do_end(state: State, seat: int, escape: bool) -> list[Event]:
    events: list[Event] = []
    if escape:
        state.pos[seat - 1] = ESCAPED
        events.append(Event.public(f"{label(seat)} escapes with the loot", "escape"))
    else:
        here = state.pos[seat - 1]
        # Starting on a Camera is fine only if you move away or disable it.
        if here >= 0 and not state.moved and top_camera(state, here):
            events.append(Event.public(f"{label(seat)} stayed under the Camera"))
            state.tasks.insert(0, Task("alert", seat))
    state.phase = TURN
    state.moves_left = -1  # marks the turn as over once the tasks are settled
    return events


# -- drawing --------------------------------------------------------------------------------


def draw(state: State, seat: int, rng: Rng) -> list[Event]:
    """Draw 1 Search card (The Owl: look at 2, keep 1, the other to the bottom)."""
    if not state.deck:
        return [Event.public("The Search deck is empty")]
    if state.thief[seat - 1] == "The Owl" and len(state.deck) >= 2:
        two = [state.deck.pop(0), state.deck.pop(0)]
        for c in two:
            state.knows[c] = bit(seat)
        state.tasks.insert(0, Task("owl", seat, cards=two))
        text = f"You draw {name(two[0])} and {name(two[1])}"
        return [
            Event.public(f"{label(seat)} (The Owl) draws two cards to keep one"),
            # Cards of one name differ by id (the views show it): the data names them.
            Event.private([seat], text, "owl", cards=list(two)),
        ]
    return receive(state, seat, state.deck.pop(0), rng)


def receive(state: State, seat: int, card: int, rng: Rng) -> list[Event]:
    """A drawn card: Clock and Way Out at once, anything else into the hand."""
    kind = CARDS[card].kind
    if kind == CLOCK:
        state.clocks += 1
        state.discard.append(card)
        state.knows[card] = everyone(state)
        need = CLOCKS_TO_END[state.players]
        text = f"{label(seat)} draws a Clock: {state.clocks} of {need}"
        events = [Event.public(text, "clock", card=card)]
        if state.clocks >= need:
            events += begin_rush(state, rng)
        return events
    if kind == WAYOUT:
        state.knows[card] = everyone(state)
        state.discard.append(card)
        return [
            Event.public(f"{label(seat)} draws a Way Out", "wayout", card=card),
            *way_out(state, seat),
        ]
    state.hands[seat - 1].append(card)
    state.knows[card] = bit(seat)
    check_limit(state, seat)
    return [
        Event.private([seat], f"You draw {name(card)}", "draw", card=card),
        Event.others([seat], state.players, f"{label(seat)} draws a Search card"),
    ]


def way_out(state: State, seat: int) -> list[Event]:
    """A Way Out drawn goes by the nearest edge room without one (the thief chooses
    among several)."""
    spots = wayout_spots(state, seat)
    if not spots:
        return [Event.public("The nearest edge rooms all have a Way Out: no effect")]
    if len(spots) == 1:
        return place_way_out(state, seat, spots[0])
    state.tasks.insert(0, Task("wayout", seat))
    return []


def wayout_spots(state: State, seat: int) -> list[int]:
    """The closest edge tiles to the thief that have no Way Out yet."""
    here = state.pos[seat - 1]
    if here < 0:
        return []
    near = min(distance(t, here) for t in EDGE)
    return [t for t in EDGE if distance(t, here) == near and not is_way_out(state, t)]


def place_way_out(state: State, seat: int, tile: int) -> list[Event]:
    state.grid[tile].wayout = True
    text = f"{label(seat)} puts a Way Out by {coord(tile)} ({room_name(state, tile)})"
    return [Event.public(text, "way")]


# -- moving -----------------------------------------------------------------------------


def do_move(state: State, seat: int, to: int, rng: Rng) -> list[Event]:
    state.moves_left -= 1
    state.moved = True
    events = [Event.public(f"{label(seat)} moves to {coord(to)} ({room_name(state, to)})")]
    return events + enter(state, seat, to, rng)


def do_stash(state: State, seat: int, card: int) -> list[Event]:
    state.stash_shown[seat - 1] = True
    state.hands[seat - 1].remove(card)
    state.stashed[seat - 1] = card
    state.knows[card] = everyone(state)
    return [
        Event.public(
            f"{label(seat)} shows their Stash card ({state.stash[seat - 1]}) and stashes "
            f"{name(card)}",
            "stash",
        )
    ]
