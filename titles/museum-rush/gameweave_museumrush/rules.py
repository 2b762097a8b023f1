"""The rules of Museum Rush as pure functions over :class:`~.state.State`.

Entry points follow the title convention (``setup``, ``awaiting``, ``legal_actions``,
``apply``, ``explain_illegal``, ``outcome``). Whatever the rules must settle before
play goes on (a Guard's walk, a thief caught, the next card turned over) is queued
as a :class:`~.state.Task`; :func:`settle` works through the queue and stops at the
first task that needs somebody's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gameweave_core import Event, Outcome, Rng

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
    BUYER_BONUS,
    BUYERS,
    CAMERA,
    CARDS,
    CLOCK,
    CLOCKS_TO_END,
    CONTROL,
    DISABLE,
    EDGE,
    EXHIBIT,
    FILL_IDS,
    GUARD,
    HIGH,
    LOOT,
    LOST,
    LURE,
    RARE,
    RARE_FOR_ROOM,
    ROOMS,
    SEARCH_IDS,
    SECURITY,
    SHOP,
    STASH_ROOMS,
    TAKEDOWN,
    THIEVES,
    TILES,
    TRAP,
    VALUABLES,
    VAULT,
    WAYOUT,
    coord,
    distance,
    neighbours,
    parse_coord,
)
from .queries import (
    bit,
    cannot_be_caught,
    control_tile,
    everyone,
    guard_mover,
    guard_options,
    guards_on,
    hand_value,
    has_kind,
    is_way_out,
    item_value,
    right_of,
    room_kind,
    room_name,
    security_tile,
    steps,
    thieves_on,
    tile_of,
    top_camera,
    unlocked,
    valuables,
    within,
)
from .state import BREAKIN, ESCAPED, OUTSIDE, OVER, RUSH, TURN, State, Task, Tile

HAND_LIMIT = 7
DIE_FACES = 6  # faces 0 to 5: the rulebook's "roll a 0, 1 or 2"


def label(seat: int) -> str:
    return f"Seat {seat}"


def name(card: int) -> str:
    c = CARDS[card]
    return f"{c.name} (${c.value}M)" if c.kind in VALUABLES else c.name


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


# -- whose choice -------------------------------------------------------------------


def decider(state: State, task: Task) -> int:
    """Who settles ``task``: the Guard mover for a Guard's route, the player to the
    right for a new Guard (the Joker moves Guards, he does not place them), else the
    thief it concerns."""
    if task.kind == "alert":
        return guard_mover(state)
    if task.kind == "newguard":
        return right_of(state, state.turn)
    return task.seat


def awaiting(state: State) -> Sequence[int]:
    """The seat whose choice the first task needs, else the seat to play."""
    if state.phase == OVER:
        return ()
    if state.tasks:
        return (decider(state, state.tasks[0]),)
    return (state.turn,)


def free_edges(state: State) -> list[int]:
    """Edge tiles with no Guard and no thief: where a thief may break in."""
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [t for t in EDGE if t not in taken]


def lure_moves(state: State, seat: int, here: int) -> list[Any]:
    """Lures ``seat`` may play standing on ``here`` in its own turn."""
    if has_kind(state.hands[seat - 1], LURE) < 0:
        return []
    reach = 3 if state.thief[seat - 1] == "The Ventriloquist" else 1
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


def cipher_reach(state: State, seat: int, room: str) -> bool:
    """Whether the Cipher may use ``room`` from afar now (once, during movement)."""
    return (
        state.thief[seat - 1] == "Cipher"
        and not state.used_cipher
        and not state.stolen
        and distance(state.pos[seat - 1], tile_of(state, room)) <= 3
    )


def turn_actions(state: State, seat: int) -> list[Any]:
    """The current thief's choices when nothing else is pending."""
    here = state.pos[seat - 1]
    if here == OUTSIDE:
        edges = free_edges(state)
        return [BreakIn(coord(t)) for t in edges] if edges else [End(False)]
    out: list[Any] = []
    hand = state.hands[seat - 1]
    tile = state.grid[here]
    if state.moves_left > 0 and not state.stolen:
        out.extend(Move(coord(t)) for t in steps(state, seat, here))
    if not state.stolen:
        top = tile.cards[0] if tile.cards and tile.up else -1
        if top >= 0 and CARDS[top].kind == LOOT and unlocked(state, here):
            out.append(StealLoot())
        if can_crack(state, seat) is None:
            out.append(Crack())
        # An empty hand is no shelter: the victim may win the roll and take instead.
        out.extend(Rob(other) for other in thieves_on(state, here) if other != seat)
        if can_raid(state, seat) is None:
            out.append(Raid())
        if has_kind(hand, TRAP) >= 0:
            out.extend(Trap(coord(t)) for t in trap_spots(state, here))
    out.extend(lure_moves(state, seat, here))
    if top_camera(state, here) and has_kind(hand, DISABLE) >= 0:
        out.append(Disable(coord(here)))
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


def trap_spots(state: State, here: int) -> list[int]:
    """Adjacent tiles a Booby Trap may go on: no thief, no Guard, no Camera on top,
    no Booby Trap there already."""
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [
        t
        for t in neighbours(here)
        if t not in taken and not top_camera(state, t) and state.grid[t].trap < 0
    ]


def can_crack(state: State, seat: int) -> str | None:
    """Why ``seat`` may not try the lock of its tile, or None."""
    here = state.pos[seat - 1]
    if room_kind(state, here) != HIGH:
        return "you are not in a High Security room"
    if unlocked(state, here):
        return "this lock is already cracked"
    for other in thieves_on(state, here):
        if other != seat and state.cracked_at[other - 1] == here:
            return f"I was here first: {label(other)} tried this lock last turn and is still here"
    return None


def can_raid(state: State, seat: int) -> str | None:
    """Why ``seat`` may not break into the Vault or Lost & Found here, or None."""
    here = state.pos[seat - 1]
    room = room_name(state, here)
    if room == VAULT:
        need, pile = 2, state.vault
    elif room == LOST:
        need, pile = 1, state.lost
    else:
        return "you are not in the Vault or the Lost & Found"
    if state.keys[seat - 1] < need:
        return f"the {room} needs {need} key(s); you have {state.keys[seat - 1]}"
    if not pile:
        return f"the {room} is empty"
    return None


def task_actions(state: State, task: Task) -> list[Any]:
    """The choices a pending task offers its decider."""
    seat = task.seat
    hand = state.hands[seat - 1] if seat else []
    reach = 3 if seat and state.thief[seat - 1] == "The Ventriloquist" else 1
    match task.kind:
        case "alert":
            return [
                Route(g, "-".join(coord(t) for t in path)) for g, path in guard_options(state, seat)
            ]
        case "caught":
            out: list[Any] = []
            if has_kind(hand, TAKEDOWN) >= 0:
                out.append(TakeDown())
            if has_kind(hand, LURE) >= 0:
                g = task.guard
                out.extend(Lure(g, 0, coord(t)) for t in within(state.guards[g], reach))
            return [*out, Pass()]
        case "slip":
            return [Go(coord(t)) for t in neighbours(state.pos[seat - 1])]
        case "bust":
            return [Keep(c) for c in sorted(hand)]
        case "camera":
            disable = has_kind(hand, DISABLE) >= 0
            return [Disable(coord(task.room)), Pass()] if disable else [Pass()]
        case "react":
            return [*lure_moves(state, seat, state.pos[seat - 1]), Pass()]
        case "newguard":
            return [Place(coord(t)) for t in new_guard_spots(state, task.room)]
        case "drop":
            return [Drop(c) for c in sorted(hand)]
        case "pick":
            pile = state.vault if room_name(state, task.room) == VAULT else state.lost
            return [*(Pick(c) for c in sorted(pile)), Done()]
        case "keys":
            return [UseKeys(), Pass()]
        case "defend":
            if has_kind(hand, LURE) < 0:
                return [Pass()]
            p = state.pos[task.n - 1]
            return [*(Lure(-1, task.n, coord(t)) for t in within(p, reach)), Pass()]
        case "owl":
            clocks = [c for c in task.cards if CARDS[c].kind == CLOCK]
            return [Choose(c) for c in sorted(clocks or task.cards)]
        case "wayout":
            return [PutWayOut(coord(t)) for t in wayout_spots(state, seat)]
    return []


def legal_actions(state: State, seat: int) -> Sequence[Any]:
    """Every action ``seat`` may take now (nothing when it is not awaited)."""
    if seat not in awaiting(state):
        return ()
    if state.tasks:
        return task_actions(state, state.tasks[0])
    if state.phase == BREAKIN:
        return [BreakIn(coord(t)) for t in free_edges(state)]
    return turn_actions(state, seat)


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why ``action`` is not legal for ``seat`` now, in one line."""
    if state.phase == OVER:
        return "the game is over"
    if seat not in awaiting(state):
        return f"it is not your turn: waiting for {label(awaiting(state)[0])}"
    if state.tasks:
        task = state.tasks[0]
        offered = sorted({type(a).__name__ for a in task_actions(state, task)})
        if type(action).__name__ not in offered:
            return f"not now: {TASK_WORDS[task.kind]} (choose {', '.join(offered)})"
        return f"not one of the choices now: {TASK_WORDS[task.kind]}"
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
            return can_crack(state, seat) if here >= 0 else "break in first"
        case Rob(seat=other):
            return f"{label(other)} is not on your tile"
        case Raid():
            return can_raid(state, seat) if here >= 0 else "break in first"
        case End(escape=True):
            return "you are not on a Way Out (a Way Out card's tile or the Entrance Hall)"
    kinds = sorted({type(a).__name__ for a in legal})
    return f"not possible now; you may: {', '.join(kinds)}"


TASK_WORDS = {
    "alert": "a Guard's route towards a thief is being chosen",
    "caught": "a Guard has found a thief (Take Down, Lure or roll to slip away)",
    "slip": "a thief slipped away and picks an adjacent room",
    "bust": "a busted thief keeps one card",
    "camera": "a Camera has seen a thief (Disable or not)",
    "react": "a Guard is close: the thief may play Items before the next card is turned",
    "newguard": "a new Guard is being placed",
    "drop": "a thief drops cards",
    "pick": "a thief takes cards from a pile",
    "keys": "a thief may finish the lock with keys",
    "defend": "a thief may Lure the one stealing from them",
    "owl": "The Owl keeps one of two cards",
    "wayout": "a Way Out is being placed",
}


# -- carrying out actions -------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action of ``seat``, then settle what follows."""
    events: list[Event] = []
    task = state.tasks.pop(0) if state.tasks else None
    match action:
        case BreakIn(at=at):
            events += do_breakin(state, seat, parse_coord(at), rng)
        case Move(to=to):
            events += do_move(state, seat, parse_coord(to), rng)
        case StealLoot():
            events += do_steal_loot(state, seat)
        case Crack():
            events += do_crack(state, seat, rng)
        case Rob(seat=other):
            events += do_rob(state, seat, other)
        case Raid():
            events += do_raid(state, seat)
        case Lure(guard=g, seat=other, to=to):
            events += do_lure(state, seat, g, other, parse_coord(to), task, rng)
        case TakeDown():
            events += do_takedown(state, seat, task)
        case Disable(at=at):
            events += do_disable(state, seat, parse_coord(at), "a Disable card")
        case Trap(at=at):
            events += do_trap(state, seat, parse_coord(at))
        case Control(at=at):
            state.used_control = True
            if control_tile(state) not in state.visited:
                state.used_cipher = True
            events += do_disable(state, seat, parse_coord(at), "the Control Room")
        case Security(guard=g, to=to):
            state.used_security = True
            if security_tile(state) not in state.visited:
                state.used_cipher = True
            events.append(Event.public(f"{label(seat)} uses the Security Room", "security"))
            events += move_guard_to(state, g, parse_coord(to))
        case Shop():
            state.used_shop = True
            events.append(Event.public(f"{label(seat)} draws an extra card in the Gift Shop"))
            events += draw(state, seat, rng)
        case Stash(card=c):
            events += do_stash(state, seat, c)
        case Pass():
            events += do_pass(state, seat, task, rng)
        case UseKeys():
            assert task is not None
            events += do_use_keys(state, seat, task.room)
        case Go(to=to):
            events.append(Event.public(f"{label(seat)} slips away to {coord(parse_coord(to))}"))
            events += enter(state, seat, parse_coord(to), rng)
        case Keep(card=c):
            events += do_bust(state, seat, c)
        case Drop(card=c):
            assert task is not None
            events += do_drop(state, seat, c, task)
        case Pick(card=c):
            assert task is not None
            events += do_pick(state, seat, c, task)
        case Done():
            events.append(Event.public(f"{label(seat)} takes no more cards"))
        case Route(guard=g, path=path):
            assert task is not None
            events += walk_guard(state, g, [parse_coord(p) for p in path.split("-") if p])
        case Place(at=at):
            events += do_place_guard(state, parse_coord(at))
        case PutWayOut(at=at):
            events += place_way_out(state, seat, parse_coord(at))
        case Choose(card=c):
            assert task is not None
            events += do_owl(state, seat, c, task, rng)
        case End(escape=escape):
            events += do_end(state, seat, escape)
        case _:
            raise TypeError(f"not a Museum Rush action: {action!r}")
    events += settle(state, rng)
    # What everyone just saw, kept in the view: a public choice (a Guard's route)
    # must show there, not only in the history.
    state.news = [e.text for e in events if e.seats is None]
    return events


def do_breakin(state: State, seat: int, tile: int, rng: Rng) -> list[Event]:
    """Break In: onto a free edge tile (not a move); in a turn, the draw follows."""
    events: list[Event] = []
    state.pos[seat - 1] = tile
    events.append(
        Event.public(f"{label(seat)} breaks in at {coord(tile)} ({room_name(state, tile)})")
    )
    if state.phase == BREAKIN:
        left = [s for s in range(1, state.players + 1) if state.pos[s - 1] == OUTSIDE]
        if left:
            state.turn = next(s for s in order_from_turn(state) if s in left)
        else:
            state.phase = TURN
            state.turn = state.starter
            events += start_turn(state, rng)
        return events
    state.visited = [tile]
    events += pick_up_keys(state, seat, tile)
    events += draw(state, seat, rng)
    return events


def order_from_turn(state: State) -> list[int]:
    return [(state.turn - 1 + i) % state.players + 1 for i in range(state.players)]


def start_turn(state: State, rng: Rng) -> list[Event]:
    """Step 1 of a turn: draw (after breaking in again if busted)."""
    events: list[Event] = []
    seat = state.turn
    state.turns_taken += 1
    state.moves_left = 3
    state.stolen = state.moved = False
    state.used_control = state.used_security = state.used_shop = state.used_cipher = False
    state.cracked_at[seat - 1] = -1
    here = state.pos[seat - 1]
    state.visited = [here] if here >= 0 else []
    events.append(Event.public(f"{label(seat)}'s turn", "turn", seat=seat))
    if here >= 0:
        events += draw(state, seat, rng)
    return events


def draw(state: State, seat: int, rng: Rng) -> list[Event]:
    """Draw 1 Search card (The Owl: look at 2, keep 1, the other to the bottom)."""
    events: list[Event] = []
    if not state.deck:
        events.append(Event.public("The Search deck is empty"))
        return events
    if state.thief[seat - 1] == "The Owl" and len(state.deck) >= 2:
        two = [state.deck.pop(0), state.deck.pop(0)]
        for c in two:
            state.knows[c] = bit(seat)
        state.tasks.insert(0, Task("owl", seat, cards=two))
        events.append(Event.public(f"{label(seat)} (The Owl) draws two cards to keep one"))
        text = f"You draw {name(two[0])} and {name(two[1])}"
        # Cards of one name differ by id (the views show it): the data names them.
        events.append(Event.private([seat], text, "owl", cards=list(two)))
        return events
    events += receive(state, seat, state.deck.pop(0), rng)
    return events


def receive(state: State, seat: int, card: int, rng: Rng) -> list[Event]:
    """A drawn card: Clock and Way Out at once, anything else into the hand."""
    events: list[Event] = []
    kind = CARDS[card].kind
    if kind == CLOCK:
        state.clocks += 1
        state.discard.append(card)
        state.knows[card] = everyone(state)
        need = CLOCKS_TO_END[state.players]
        events.append(
            Event.public(
                f"{label(seat)} draws a Clock: {state.clocks} of {need}", "clock", card=card
            )
        )
        if state.clocks >= need:
            events += begin_rush(state, rng)
        return events
    if kind == WAYOUT:
        state.knows[card] = everyone(state)
        state.discard.append(card)
        events.append(Event.public(f"{label(seat)} draws a Way Out", "wayout", card=card))
        spots = wayout_spots(state, seat)
        if not spots:
            events.append(Event.public("The nearest edge rooms all have a Way Out: no effect"))
        elif len(spots) == 1:
            events += place_way_out(state, seat, spots[0])
        else:
            state.tasks.insert(0, Task("wayout", seat))
        return events
    state.hands[seat - 1].append(card)
    state.knows[card] = bit(seat)
    events.append(Event.private([seat], f"You draw {name(card)}", "draw", card=card))
    events.append(Event.others([seat], state.players, f"{label(seat)} draws a Search card"))
    check_limit(state, seat)
    return events


def wayout_spots(state: State, seat: int) -> list[int]:
    """The closest edge tiles to the thief that have no Way Out yet."""
    here = state.pos[seat - 1]
    if here < 0:
        return []
    near = min(distance(t, here) for t in EDGE)
    return [t for t in EDGE if distance(t, here) == near and not is_way_out(state, t)]


def place_way_out(state: State, seat: int, tile: int) -> list[Event]:
    events: list[Event] = []
    state.grid[tile].wayout = True
    events.append(
        Event.public(
            f"{label(seat)} puts a Way Out by {coord(tile)} ({room_name(state, tile)})", "way"
        )
    )
    return events


def check_limit(state: State, seat: int) -> None:
    """Hand Limit: 8 or more cards and the thief drops back down to 7 at once."""
    if len(state.hands[seat - 1]) > HAND_LIMIT and not any(
        t.kind == "drop" and t.seat == seat for t in state.tasks
    ):
        state.tasks.insert(0, Task("drop", seat))


def do_move(state: State, seat: int, to: int, rng: Rng) -> list[Event]:
    events: list[Event] = []
    state.moves_left -= 1
    state.moved = True
    events.append(Event.public(f"{label(seat)} moves to {coord(to)} ({room_name(state, to)})"))
    events += enter(state, seat, to, rng)
    return events


def pick_up_keys(state: State, seat: int, tile: int) -> list[Event]:
    events: list[Event] = []
    t = state.grid[tile]
    if t.keys:
        state.keys[seat - 1] += t.keys
        events.append(Event.public(f"{label(seat)} picks up {t.keys} key(s)"))
        t.keys = 0
    return events


def enter(state: State, seat: int, tile: int, rng: Rng) -> list[Event]:
    """A thief moves into ``tile``: keys, Booby Trap, Guards and Camera there act."""
    events: list[Event] = []
    state.pos[seat - 1] = tile
    if seat == state.turn and tile not in state.visited:
        state.visited.append(tile)
    events += pick_up_keys(state, seat, tile)
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
        hand = state.hands[seat - 1]
        if hand:
            lost = hand[rng.randrange(len(hand))]
            pile = discard_from_hand(state, seat, lost)
            events.append(Event.private([seat], f"You lose {name(lost)}", "lose", card=lost))
            events.append(
                Event.others(
                    [seat], state.players, f"{label(seat)} loses a card", "lose", pile=pile
                )
            )
        queued.append(Task("alert", seat))
    state.tasks[0:0] = queued
    return events


def discard_from_hand(state: State, seat: int, card: int) -> str:
    """A card leaves a hand face down: Loot and Treasure to the Vault, Items to the
    Lost & Found. Only its owner knows which card it was; the table sees which pile
    it goes to. Returns the pile's name (``"vault"`` or ``"lost"``)."""
    hand = state.hands[seat - 1]
    unseen_move(state, hand, card, bit(seat))
    hand.remove(card)
    valuable = CARDS[card].kind in VALUABLES
    (state.vault if valuable else state.lost).append(card)
    return "vault" if valuable else "lost"


def back(card: int) -> str:
    """What the table sees of a card in a hand or a face-down pile: its back, red
    (``"museum"``: Loot and Rare Treasures) or purple (``"search"``: Items)."""
    return "museum" if CARDS[card].kind in VALUABLES else "search"


def unseen_move(state: State, cards: list[int], card: int, told: int) -> None:
    """``card`` leaves ``cards`` (a hand or a face-down pile, still holding it) and
    only the seats in ``told`` (a ``knows`` mask: its owner, a thief taking it) see
    which card it is; the rest of the table sees its back go. If ``cards`` held
    other cards of that back, nobody else can tell which of them went: they forget
    every one of them, the moved card too (before this, the others' view of the
    hand dropped exactly the card that left, and told them which it was). If it was
    the only one, they know it moved."""
    alike = [c for c in cards if back(c) == back(card)]
    if len(alike) > 1:
        for c in alike:
            state.knows[c] &= told
    state.knows[card] |= told


def do_steal_loot(state: State, seat: int) -> list[Event]:
    events: list[Event] = []
    tile = state.pos[seat - 1]
    card = state.grid[tile].cards.pop(0)
    state.grid[tile].up = False
    take_public(state, seat, card)
    state.stolen = True
    events.append(Event.public(f"{label(seat)} steals {name(card)}", "steal", card=card))
    state.tasks[0:0] = [
        Task("alert", seat),
        Task("react", seat, room=tile),
        Task("turnover", room=tile),
    ]
    check_limit(state, seat)
    return events


def take_public(state: State, seat: int, card: int) -> None:
    state.hands[seat - 1].append(card)
    state.knows[card] = everyone(state)


def roll(rng: Rng, n: int) -> list[int]:
    return [rng.randrange(DIE_FACES) for _ in range(n)]


def do_crack(state: State, seat: int, rng: Rng) -> list[Event]:
    """Roll 3 dice; each uncovered digit matched by a die takes an Unlock token."""
    events: list[Event] = []
    tile = state.pos[seat - 1]
    state.stolen = True
    state.cracked_at[seat - 1] = tile
    t = state.grid[tile]
    code = ROOMS[t.room].code
    dice = roll(rng, 3)
    state.rolls.append((seat, "crack", dice))
    spare = list(dice)
    for i, digit in enumerate(code):
        if not t.covered[i] and int(digit) in spare and state.supply > 0:
            spare.remove(int(digit))
            t.covered[i] = True
            state.supply -= 1
    events.append(
        Event.public(
            f"{label(seat)} rolls {' '.join(map(str, dice))} at the lock {code}: "
            f"{sum(t.covered)} of {len(code)} digits covered",
            "crack",
            dice=dice,
        )
    )
    if all(t.covered):
        events += cracked(state, seat, tile)
        return events
    missing = t.covered.count(False)
    if state.keys[seat - 1] >= missing:
        state.tasks.insert(0, Task("keys", seat, room=tile, n=missing))
        return events
    events.append(Event.public("Not cracked"))
    state.tasks.insert(0, Task("alert", seat))
    return events


def do_use_keys(state: State, seat: int, tile: int) -> list[Event]:
    events: list[Event] = []
    t = state.grid[tile]
    missing = t.covered.count(False)
    state.keys[seat - 1] -= missing
    t.covered = [True] * len(t.covered)
    events.append(Event.public(f"{label(seat)} uses {missing} key(s) to finish the code"))
    events += cracked(state, seat, tile)
    return events


def cracked(state: State, seat: int, tile: int) -> list[Event]:
    """Cracked: the Rare Treasure into the hand, the Guard, the next card."""
    events: list[Event] = []
    t = state.grid[tile]
    events.append(Event.public(f"The lock of the {room_name(state, tile)} is cracked", "open"))
    if t.up and t.cards and CARDS[t.cards[0]].kind in (RARE, LOOT):
        card = t.cards.pop(0)
        t.up = False
        take_public(state, seat, card)
        events.append(Event.public(f"{label(seat)} steals {name(card)}", "steal", card=card))
    state.tasks[0:0] = [
        Task("alert", seat),
        Task("react", seat, room=tile),
        Task("turnover", room=tile),
    ]
    check_limit(state, seat)
    return events


def do_rob(state: State, seat: int, other: int) -> list[Event]:
    events: list[Event] = []
    state.stolen = True
    events.append(Event.public(f"{label(seat)} tries to steal from {label(other)}", "rob"))
    state.tasks.insert(0, Task("defend", other, n=seat))
    return events


def finish_rob(state: State, thief: int, victim: int, rng: Rng) -> list[Event]:
    """Both roll a die; the higher takes a random card from the other (ties: the
    thief whose turn it is). Then the nearest Guard comes for the thief."""
    events: list[Event] = []
    a, b = roll(rng, 2)
    state.rolls.append((thief, "rob", [a, b]))
    winner, loser = (thief, victim) if a >= b else (victim, thief)
    events.append(
        Event.public(
            f"{label(thief)} rolls {a}, {label(victim)} rolls {b}: {label(winner)} wins",
            "robroll",
            dice=[a, b],
        )
    )
    state.tasks.insert(0, Task("alert", thief))
    hand = state.hands[loser - 1]
    if hand:
        card = hand[rng.randrange(len(hand))]
        unseen_move(state, hand, card, bit(winner) | bit(loser))
        hand.remove(card)
        state.hands[winner - 1].append(card)
        took = f"{label(winner)} takes {name(card)}"
        events.append(Event.private([winner, loser], took, "took", card=card))
        taken = f"{label(winner)} takes a card from {label(loser)}"
        # The others see the card's back change hands: the data says which.
        events.append(Event.others([winner, loser], state.players, taken, "took", back=back(card)))
        check_limit(state, winner)
    return events


def do_raid(state: State, seat: int) -> list[Event]:
    events: list[Event] = []
    tile = state.pos[seat - 1]
    room = room_name(state, tile)
    need = 2 if room == VAULT else 1
    state.keys[seat - 1] -= need
    state.supply += need
    state.stolen = True
    pile = state.vault if room == VAULT else state.lost
    for c in pile:
        state.knows[c] |= bit(seat)
    events.append(Event.public(f"{label(seat)} uses {need} key(s) to break into the {room}"))
    events.append(
        Event.private(
            [seat],
            "Inside: " + ", ".join(name(c) for c in sorted(pile)),
            "pile",
            cards=sorted(pile),
        )
    )
    state.tasks[0:0] = [Task("pick", seat, room=tile, n=3), Task("alert", seat)]
    return events


def do_pick(state: State, seat: int, card: int, task: Task) -> list[Event]:
    events: list[Event] = []
    pile = state.vault if room_name(state, task.room) == VAULT else state.lost
    unseen_move(state, pile, card, bit(seat))
    pile.remove(card)
    state.hands[seat - 1].append(card)
    events.append(Event.private([seat], f"You take {name(card)}", "take", card=card))
    events.append(Event.others([seat], state.players, f"{label(seat)} takes a card"))
    if task.n > 1 and pile:
        state.tasks.insert(0, Task("pick", seat, room=task.room, n=task.n - 1))
    check_limit(state, seat)
    return events


def spend(state: State, seat: int, kind: str) -> int:
    """Play the seat's card of ``kind`` face up onto the discard pile."""
    card = has_kind(state.hands[seat - 1], kind)
    state.hands[seat - 1].remove(card)
    state.discard.append(card)
    state.knows[card] = everyone(state)
    return card


def do_lure(
    state: State,
    seat: int,
    guard: int,
    other: int,
    to: int,
    task: Task | None,
    rng: Rng,
) -> list[Event]:
    # Which of the Lure cards goes face up onto the discard: the data says it.
    events: list[Event] = []
    card = spend(state, seat, LURE)
    if guard >= 0:
        events.append(Event.public(f"{label(seat)} plays a Lure on a Guard", "lure", card=card))
        events += move_guard_to(state, guard, to)
        return events
    text = f"{label(seat)} plays a Lure: {label(other)} moves to {coord(to)}"
    events.append(Event.public(text, "lure", card=card))
    events += enter(state, other, to, rng)
    if task is not None and task.kind == "defend":
        events.append(Event.public(f"{label(other)}'s steal fails"))
    return events


def move_guard_to(state: State, guard: int, to: int) -> list[Event]:
    """A Guard sent to ``to`` (a Lure or the Security Room): what is there acts."""
    events: list[Event] = []
    state.guards[guard] = to
    events.append(Event.public(f"A Guard moves to {coord(to)}", "guard", guard=guard, to=coord(to)))
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


def do_takedown(state: State, seat: int, task: Task | None) -> list[Event]:
    events: list[Event] = []
    assert task is not None
    card = spend(state, seat, TAKEDOWN)
    state.guards[task.guard] = -1
    if state.supply > 0:
        state.supply -= 1
        state.keys[seat - 1] += 1
    text = f"{label(seat)} plays a Take Down: the Guard is out, and its key taken"
    events.append(Event.public(text, "takedown", card=card))
    return events


def do_disable(state: State, seat: int, tile: int, how: str) -> list[Event]:
    events: list[Event] = []
    spent = spend(state, seat, DISABLE) if how == "a Disable card" else -1
    t = state.grid[tile]
    state.removed.append(t.cards.pop(0))
    t.up = False
    text = f"{label(seat)} disables the Camera on {coord(tile)} with {how}"
    events.append(Event.public(text, "disable", **({"card": spent} if spent >= 0 else {})))
    state.tasks.insert(0, Task("turnover", room=tile))
    return events


def do_trap(state: State, seat: int, tile: int) -> list[Event]:
    events: list[Event] = []
    card = has_kind(state.hands[seat - 1], TRAP)
    state.hands[seat - 1].remove(card)
    state.knows[card] = everyone(state)
    state.grid[tile].trap = card
    text = f"{label(seat)} sets a Booby Trap on {coord(tile)}"
    events.append(Event.public(text, "settrap", card=card))
    return events


def do_stash(state: State, seat: int, card: int) -> list[Event]:
    events: list[Event] = []
    state.stash_shown[seat - 1] = True
    state.hands[seat - 1].remove(card)
    state.stashed[seat - 1] = card
    state.knows[card] = everyone(state)
    events.append(
        Event.public(
            f"{label(seat)} shows their Stash card ({state.stash[seat - 1]}) and stashes "
            f"{name(card)}",
            "stash",
        )
    )
    return events


def do_pass(state: State, seat: int, task: Task | None, rng: Rng) -> list[Event]:
    events: list[Event] = []
    assert task is not None
    match task.kind:
        case "caught":
            events += slip(state, seat, task, rng)
        case "camera":
            events.append(Event.public(f"The Camera on {coord(task.room)} sees {label(seat)}"))
            state.tasks.insert(0, Task("alert", seat))
        case "keys":
            events.append(Event.public("Not cracked"))
            state.tasks.insert(0, Task("alert", seat))
        case "defend":
            events += finish_rob(state, task.n, seat, rng)
    return events


def slip(state: State, seat: int, task: Task, rng: Rng) -> list[Event]:
    """Slipping Away: a die above the Loot and Treasure in hand gets away (the
    Snake adds 1); otherwise busted."""
    events: list[Event] = []
    (die,) = roll(rng, 1)
    state.rolls.append((seat, "slip", [die]))
    bonus = 1 if state.thief[seat - 1] == "The Snake" else 0
    carried = valuables(state.hands[seat - 1])
    plus = " + 1 (The Snake)" if bonus else ""
    if die + bonus > carried:
        events.append(
            Event.public(
                f"{label(seat)} rolls {die}{plus} against {carried}: slips away", "slip", die=die
            )
        )
        state.tasks.insert(0, Task("slip", seat))
        return events
    events.append(
        Event.public(f"{label(seat)} rolls {die}{plus} against {carried}: busted!", "bust", die=die)
    )
    state.tasks.insert(0, Task("bust", seat))
    return events


def do_bust(state: State, seat: int, keep: int) -> list[Event]:
    """Busted: keep one card (and the keys); the rest confiscated; out of the museum."""
    events: list[Event] = []
    piles = {"vault": 0, "lost": 0}
    for c in list(state.hands[seat - 1]):
        if c != keep:
            piles[discard_from_hand(state, seat, c)] += 1
    if keep >= 0:
        state.knows[keep] = bit(seat)
    state.pos[seat - 1] = OUTSIDE
    text = f"{label(seat)} is busted and thrown out of the museum"
    # How many cards go face down to each pile is seen by all: the data says it.
    events.append(Event.public(text, "busted", **piles))
    # Tasks about this thief are moot now.
    state.tasks = [t for t in state.tasks if t.seat != seat]
    return events


def do_drop(state: State, seat: int, card: int, task: Task) -> list[Event]:
    events: list[Event] = []
    pile = discard_from_hand(state, seat, card)
    events.append(Event.private([seat], f"You drop {name(card)}", "drop", card=card))
    events.append(
        Event.others([seat], state.players, f"{label(seat)} drops a card", "drop", pile=pile)
    )
    if state.phase == RUSH:
        if task.n > 1 and state.hands[seat - 1]:
            state.tasks.insert(0, Task("drop", seat, n=task.n - 1))
        return events
    check_limit(state, seat)
    return events


def do_place_guard(state: State, tile: int) -> list[Event]:
    events: list[Event] = []
    state.guards.append(tile)
    events.append(Event.public(f"A new Guard starts at {coord(tile)}", "newguard"))
    return events


def new_guard_spots(state: State, tile: int) -> list[int]:
    taken = {p for p in state.guards if p >= 0} | {p for p in state.pos if p >= 0}
    return [t for t in neighbours(tile) if t not in taken]


def do_owl(state: State, seat: int, keep: int, task: Task, rng: Rng) -> list[Event]:
    events: list[Event] = []
    other = next(c for c in task.cards if c != keep)
    state.deck.append(other)
    state.knows[other] = bit(seat)
    events.append(Event.public(f"{label(seat)} puts a card on the bottom of the deck"))
    events += receive(state, seat, keep, rng)
    return events


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


# -- settling tasks ---------------------------------------------------------------------


def settle(state: State, rng: Rng) -> list[Event]:
    """Work through the queue until a task needs a choice; then pass the turn on if
    the current turn is over, or finish the game once the last thief has fled."""
    events: list[Event] = []
    while True:
        while state.tasks and state.phase != OVER:
            task = state.tasks[0]
            if needs_choice(state, task):
                return events
            state.tasks.pop(0)
            events += auto(state, task, rng)
        if state.phase == RUSH:
            events += finish(state)
            return events
        if state.phase != TURN:
            return events
        seat = state.turn
        out_now = state.pos[seat - 1] == OUTSIDE and bool(state.visited)
        if state.moves_left == -1 or out_now or state.pos[seat - 1] == ESCAPED:
            events += next_turn(state, rng)
            continue
        return events


def next_turn(state: State, rng: Rng) -> list[Event]:
    """Pass the turn clockwise to the next thief who has not escaped; with none
    left, the game ends."""
    for s in [*order_from_turn(state)[1:], state.turn]:
        if state.pos[s - 1] != ESCAPED:
            state.turn = s
            return start_turn(state, rng)
    return [Event.public("Every thief has escaped"), *begin_rush(state, rng)]


def needs_choice(state: State, task: Task) -> bool:
    """Whether ``task`` waits for a choice; tasks with one outcome settle at once."""
    seat = task.seat
    match task.kind:
        case "alert":
            return state.phase == TURN and len(guard_options(state, seat)) > 1
        case "turnover":
            return False
        case "react":
            return reaction_due(state, task)
        case "caught":
            # Always asked, even with nothing to play: a pause for thought must not
            # tell the table what is in the hand.
            return still_caught(state, task)
        case "slip":
            return state.pos[seat - 1] >= 0 and len(neighbours(state.pos[seat - 1])) > 1
        case "bust":
            return len(set(state.hands[seat - 1])) > 1
        case "camera":
            return state.pos[seat - 1] == task.room and top_camera(state, task.room)
        case "newguard":
            return len(new_guard_spots(state, task.room)) > 1
        case "drop":
            if state.phase == RUSH:
                return bool(state.hands[seat - 1])
            return len(state.hands[seat - 1]) > HAND_LIMIT
        case "pick":
            return True
        case "keys":
            return True
        case "defend":
            return state.pos[task.n - 1] == state.pos[seat - 1]
        case "owl":
            return len(task_actions(state, task)) > 1
        case "wayout":
            return len(wayout_spots(state, seat)) > 1
    return False


def reaction_due(state: State, task: Task) -> bool:
    """Turn Over Next Card: after the Guard's move and before the next card, the
    thief may play Items. Asked whenever a Guard stands on or next to the thief and a
    card waits face down, whatever the hand holds, so the pause tells nobody what is
    in it; otherwise the card is turned at once."""
    here = state.pos[task.seat - 1]
    t = state.grid[task.room]
    return (
        state.phase == TURN
        and here >= 0
        and not t.up
        and bool(t.cards)
        and any(p >= 0 and distance(p, here) <= 1 for p in state.guards)
    )


def still_caught(state: State, task: Task) -> bool:
    return (
        state.pos[task.seat - 1] == task.room
        and state.guards[task.guard] == task.room
        and not cannot_be_caught(state, task.room)
    )


def auto(state: State, task: Task, rng: Rng) -> list[Event]:
    """Settle a task with at most one outcome."""
    events: list[Event] = []
    seat = task.seat
    match task.kind:
        case "alert":
            if state.phase != TURN:
                return events
            options = guard_options(state, seat)
            if len(options) == 1:
                g, path = options[0]
                events += walk_guard(state, g, path)
        case "turnover":
            events += turn_over(state, task.room)
        case "caught":
            if still_caught(state, task):
                events += slip(state, seat, task, rng)
        case "slip":
            if state.pos[seat - 1] >= 0:
                (only,) = neighbours(state.pos[seat - 1])
                events += enter(state, seat, only, rng)
        case "bust":
            hand = state.hands[seat - 1]
            events += do_bust(state, seat, hand[0] if hand else -1)
        case "camera":
            if state.pos[seat - 1] == task.room and top_camera(state, task.room):
                events.append(Event.public(f"The Camera on {coord(task.room)} sees {label(seat)}"))
                state.tasks.insert(0, Task("alert", seat))
        case "newguard":
            spots = new_guard_spots(state, task.room)
            events += do_place_guard(state, spots[0] if spots else security_tile(state))
        case "defend":
            if state.pos[task.n - 1] == state.pos[seat - 1]:
                events += finish_rob(state, task.n, seat, rng)
        case "owl":
            (keep,) = [a.card for a in task_actions(state, task)]
            events += do_owl(state, seat, keep, task, rng)
        case "wayout":
            spots = wayout_spots(state, seat)
            if spots:
                events += place_way_out(state, seat, spots[0])
    return events


def turn_over(state: State, tile: int) -> list[Event]:
    """Turn Over Next Card: Loot waits, a Guard card brings a new Guard nearby
    (then the next card), a Camera sees every thief on the tile."""
    events: list[Event] = []
    t = state.grid[tile]
    if t.up or not t.cards:
        return events
    card = t.cards[0]
    state.knows[card] = everyone(state)
    kind = CARDS[card].kind
    events.append(
        Event.public(f"On {coord(tile)} the next card is {name(card)}", "flip", card=card)
    )
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


# -- the end -----------------------------------------------------------------------------


def begin_rush(state: State, rng: Rng) -> list[Event]:
    """The game ends at once: thieves still inside run for the nearest Way Out,
    rolling a die per tile, per Guard and per Booby Trap on the way; each 0, 1 or 2
    costs a card of their choice."""
    events: list[Event] = []
    state.phase = RUSH
    state.tasks = []
    state.ended = "clock" if state.clocks >= CLOCKS_TO_END[state.players] else "escaped"
    events.append(Event.public("The game is over: thieves still inside rush out", "rush"))
    for seat in order_from_turn(state):
        here = state.pos[seat - 1]
        if here < 0:
            continue
        tiles, guards, traps = flight(state, seat, here)
        dice = roll(rng, tiles + guards + traps)
        state.rolls.append((seat, "rush", dice))
        drops = sum(1 for d in dice if d <= 2)
        events.append(
            Event.public(
                f"{label(seat)} is {tiles} tile(s) from a Way Out ({guards} Guard(s), "
                f"{traps} Booby Trap(s)): rolls {' '.join(map(str, dice)) or 'nothing'}, "
                f"drops {drops}",
                "flee",
                dice=dice,
            )
        )
        if drops and state.hands[seat - 1]:
            state.tasks.append(Task("drop", seat, n=drops))
    return events


def flight(state: State, seat: int, start: int) -> tuple[int, int, int]:
    """Tiles to the nearest Way Out, and the Guards and Booby Traps on the way.

    Project's ruling: of the shortest routes, the thief takes the one with the
    fewest Guards and Booby Traps."""
    best: dict[int, tuple[int, int, int]] = {start: (0, 0, 0)}
    frontier = [start]
    while frontier:
        nxt = []
        for tile in frontier:
            d, g, b = best[tile]
            for n in steps(state, seat, tile):
                cost = (d + 1, g + len(guards_on(state, n)), b + (state.grid[n].trap >= 0))
                if n not in best:
                    best[n] = cost
                    nxt.append(n)
                elif best[n][0] == cost[0] and best[n][1] + best[n][2] > cost[1] + cost[2]:
                    best[n] = cost
        frontier = nxt
    outs = [best[t] for t in best if is_way_out(state, t)]
    return min(outs, key=lambda c: (c[0], c[1] + c[2]))


def takes(state: State) -> list[int]:
    """Each thief's Take: Loot and Treasure in hand, the stashed card, Buyer bonuses."""
    out = []
    for s in range(1, state.players + 1):
        held = list(state.hands[s - 1])
        if state.stashed[s - 1] >= 0:
            held.append(state.stashed[s - 1])
        total = hand_value(held)
        if state.buyer[s - 1] >= 0:
            _, loot, rare = BUYERS[state.buyer[s - 1]]
            total += BUYER_BONUS * sum(1 for c in (loot, rare) if c in held)
        out.append(total)
    return out


def finish(state: State) -> list[Event]:
    events: list[Event] = []
    state.phase = OVER
    state.takes = takes(state)
    best = max(state.takes)
    top = [s for s in range(1, state.players + 1) if state.takes[s - 1] == best]
    tie = max(item_value(state.hands[s - 1]) for s in top)
    state.winners = [s for s in top if item_value(state.hands[s - 1]) == tie]
    # The hands, the Vault and the Lost & Found are shown (the face-down cards left
    # on the tiles and in the deck are not: the views never show those).
    for c in [*(c for hand in state.hands for c in hand), *state.vault, *state.lost]:
        state.knows[c] = everyone(state)
    seats = range(1, state.players + 1)
    # Every card and Buyer is shown now: the data carries what the views then show.
    shown = {
        "hands": {str(s): sorted(state.hands[s - 1]) for s in seats},
        "vault": sorted(state.vault),
        "lost": sorted(state.lost),
        "buyers": {str(s): state.buyer[s - 1] for s in seats},
    }
    events.append(
        Event.public(
            "Takes: "
            + ", ".join(f"{label(s)} ${t}M" for s, t in enumerate(state.takes, start=1))
            + "; winner: "
            + ", ".join(label(s) for s in state.winners),
            "over",
            **shown,
        )
    )
    return events


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
