"""The queue of tasks: whatever the rules must settle before play goes on (a Guard's
walk, a thief caught, the next card turned over), who settles each, the choices it
offers, and :func:`settle`, which works through the queue and stops at the first
task that needs somebody's choice."""

from __future__ import annotations

from typing import Any

from gameweave_core import Event, Rng

from .actions import (
    Choose,
    Disable,
    Done,
    Drop,
    Go,
    Keep,
    Lure,
    Pass,
    Pick,
    Place,
    PutWayOut,
    Route,
    TakeDown,
    UseKeys,
)
from .cards import (
    CARDS,
    CLOCK,
    DISABLE,
    LURE,
    TAKEDOWN,
    VAULT,
    coord,
    distance,
    neighbours,
    parse_coord,
)
from .end import finish
from .guards import (
    alert,
    enter,
    new_guard_spots,
    place_guard,
    seen_by_camera,
    turn_over,
    walk_guard,
)
from .hands import HAND_LIMIT, check_limit, discard_from_hand, roll
from .items import lure_moves, lure_reach
from .queries import (
    bit,
    cannot_be_caught,
    guard_mover,
    guard_options,
    has_kind,
    label,
    name,
    right_of,
    room_name,
    security_tile,
    top_camera,
    valuables,
    within,
)
from .state import ESCAPED, OUTSIDE, OVER, RUSH, TURN, State, Task
from .steals import finish_rob
from .turn import next_turn, place_way_out, receive, wayout_spots

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


def decider(state: State, task: Task) -> int:
    """Who settles ``task``: the Guard mover for a Guard's route, the player to the
    right for a new Guard (the Joker moves Guards, he does not place them), else the
    thief it concerns."""
    if task.kind == "alert":
        return guard_mover(state)
    if task.kind == "newguard":
        return right_of(state, state.turn)
    return task.seat


# -- the choices a task offers ------------------------------------------------------------


def task_actions(state: State, task: Task) -> list[Any]:
    """The choices a pending task offers its decider."""
    seat = task.seat
    hand = state.hands[seat - 1] if seat else []
    match task.kind:
        case "alert":
            return [
                Route(g, "-".join(coord(t) for t in path)) for g, path in guard_options(state, seat)
            ]
        case "caught":
            return caught_actions(state, task)
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
            return defend_actions(state, task)
        case "owl":
            clocks = [c for c in task.cards if CARDS[c].kind == CLOCK]
            return [Choose(c) for c in sorted(clocks or task.cards)]
        case "wayout":
            return [PutWayOut(coord(t)) for t in wayout_spots(state, seat)]
    return []


def caught_actions(state: State, task: Task) -> list[Any]:
    """A thief found by Guard ``task.guard``: Take it Down, Lure it away, or roll."""
    hand = state.hands[task.seat - 1]
    out: list[Any] = []
    if has_kind(hand, TAKEDOWN) >= 0:
        out.append(TakeDown())
    if has_kind(hand, LURE) >= 0:
        g = task.guard
        reach = lure_reach(state, task.seat)
        out.extend(Lure(g, 0, coord(t)) for t in within(state.guards[g], reach))
    return [*out, Pass()]


def defend_actions(state: State, task: Task) -> list[Any]:
    """A thief robbed by thief ``task.n``: Lure the robber away, or roll."""
    if has_kind(state.hands[task.seat - 1], LURE) < 0:
        return [Pass()]
    p = state.pos[task.n - 1]
    reach = lure_reach(state, task.seat)
    return [*(Lure(-1, task.n, coord(t)) for t in within(p, reach)), Pass()]


def explain(state: State, task: Task, action: Any) -> str:
    """Why ``action`` does not answer ``task``, in one line."""
    offered = sorted({type(a).__name__ for a in task_actions(state, task)})
    if type(action).__name__ not in offered:
        return f"not now: {TASK_WORDS[task.kind]} (choose {', '.join(offered)})"
    return f"not one of the choices now: {TASK_WORDS[task.kind]}"


# -- answers --------------------------------------------------------------------------------


def answer(state: State, seat: int, action: Any, task: Task | None, rng: Rng) -> list[Event]:
    """Carry out ``seat``'s legal answer to ``task``."""
    match action:
        case Pass():
            assert task is not None
            return do_pass(state, seat, task, rng)
        case Go(to=to):
            tile = parse_coord(to)
            events = [Event.public(f"{label(seat)} slips away to {coord(tile)}")]
            return events + enter(state, seat, tile, rng)
        case Keep(card=c):
            return do_bust(state, seat, c)
        case Drop(card=c):
            assert task is not None
            return do_drop(state, seat, c, task)
        case Route(guard=g, path=path):
            assert task is not None
            return walk_guard(state, g, [parse_coord(p) for p in path.split("-") if p])
        case Place(at=at):
            return place_guard(state, parse_coord(at))
        case PutWayOut(at=at):
            return place_way_out(state, seat, parse_coord(at))
        case Choose(card=c):
            assert task is not None
            return do_owl(state, seat, c, task, rng)
    raise TypeError(f"not an answer to a Museum Rush task: {action!r}")


def do_pass(state: State, seat: int, task: Task, rng: Rng) -> list[Event]:
    match task.kind:
        case "caught":
            return slip(state, seat, task, rng)
        case "camera":
            return seen_by_camera(state, seat, task.room)
        case "keys":
            state.tasks.insert(0, Task("alert", seat))
            return [Event.public("Not cracked")]
        case "defend":
            return finish_rob(state, task.n, seat, rng)
    return []


def slip(state: State, seat: int, task: Task, rng: Rng) -> list[Event]:
    """Slipping Away: a die above the Loot and Treasure in hand gets away (the
    Snake adds 1); otherwise busted."""
    (die,) = roll(rng, 1)
    state.rolls.append((seat, "slip", [die]))
    bonus = 1 if state.thief[seat - 1] == "The Snake" else 0
    carried = valuables(state.hands[seat - 1])
    plus = " + 1 (The Snake)" if bonus else ""
    if die + bonus > carried:
        state.tasks.insert(0, Task("slip", seat))
        text = f"{label(seat)} rolls {die}{plus} against {carried}: slips away"
        return [Event.public(text, "slip", die=die)]
    state.tasks.insert(0, Task("bust", seat))
    text = f"{label(seat)} rolls {die}{plus} against {carried}: busted!"
    return [Event.public(text, "bust", die=die)]


def do_bust(state: State, seat: int, keep: int) -> list[Event]:
    """Busted: keep one card (and the keys); the rest confiscated; out of the museum."""
    piles = {"vault": 0, "lost": 0}
    for c in list(state.hands[seat - 1]):
        if c != keep:
            piles[discard_from_hand(state, seat, c)] += 1
    if keep >= 0:
        state.knows[keep] = bit(seat)
    state.pos[seat - 1] = OUTSIDE
    # Tasks about this thief are moot now.
    state.tasks = [t for t in state.tasks if t.seat != seat]
    text = f"{label(seat)} is busted and thrown out of the museum"
    # How many cards go face down to each pile is seen by all: the data says it.
    return [Event.public(text, "busted", **piles)]


def do_drop(state: State, seat: int, card: int, task: Task) -> list[Event]:
    pile = discard_from_hand(state, seat, card)
    events = [
        Event.private([seat], f"You drop {name(card)}", "drop", card=card),
        Event.others([seat], state.players, f"{label(seat)} drops a card", "drop", pile=pile),
    ]
    if state.phase != RUSH:
        check_limit(state, seat)
    elif task.n > 1 and state.hands[seat - 1]:
        state.tasks.insert(0, Task("drop", seat, n=task.n - 1))
    return events


def do_owl(state: State, seat: int, keep: int, task: Task, rng: Rng) -> list[Event]:
    other = next(c for c in task.cards if c != keep)
    state.deck.append(other)
    state.knows[other] = bit(seat)
    events = [Event.public(f"{label(seat)} puts a card on the bottom of the deck")]
    return events + receive(state, seat, keep, rng)


# -- settling ---------------------------------------------------------------------------------


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
            return events + finish(state)
        if state.phase != TURN:
            return events
        seat = state.turn
        out_now = state.pos[seat - 1] == OUTSIDE and bool(state.visited)
        if not (state.moves_left == -1 or out_now or state.pos[seat - 1] == ESCAPED):
            return events
        events += next_turn(state, rng)


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
            return camera_sees(state, seat, task.room)
        case "newguard":
            return len(new_guard_spots(state, task.room)) > 1
        case "drop":
            return drop_due(state, seat)
        case "pick" | "keys":
            return True
        case "defend":
            return state.pos[task.n - 1] == state.pos[seat - 1]
        case "owl":
            return len(task_actions(state, task)) > 1
        case "wayout":
            return len(wayout_spots(state, seat)) > 1
    return False


def drop_due(state: State, seat: int) -> bool:
    """Whether ``seat`` has cards to drop: any at all in the rush, else above the
    Hand Limit."""
    if state.phase == RUSH:
        return bool(state.hands[seat - 1])
    return len(state.hands[seat - 1]) > HAND_LIMIT


def camera_sees(state: State, seat: int, tile: int) -> bool:
    """Whether ``seat`` is still under the face-up Camera on ``tile``."""
    return state.pos[seat - 1] == tile and top_camera(state, tile)


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
    seat = task.seat
    match task.kind:
        case "alert":
            return alert(state, seat)
        case "turnover":
            return turn_over(state, task.room)
        case "caught":
            return slip(state, seat, task, rng) if still_caught(state, task) else []
        case "slip":
            return slip_to_only(state, seat, rng)
        case "bust":
            hand = state.hands[seat - 1]
            return do_bust(state, seat, hand[0] if hand else -1)
        case "camera":
            seen = camera_sees(state, seat, task.room)
            return seen_by_camera(state, seat, task.room) if seen else []
        case "newguard":
            spots = new_guard_spots(state, task.room)
            return place_guard(state, spots[0] if spots else security_tile(state))
        case "defend":
            robbed = state.pos[task.n - 1] == state.pos[seat - 1]
            return finish_rob(state, task.n, seat, rng) if robbed else []
        case "owl":
            (keep,) = [a.card for a in task_actions(state, task)]
            return do_owl(state, seat, keep, task, rng)
        case "wayout":
            spots = wayout_spots(state, seat)
            return place_way_out(state, seat, spots[0]) if spots else []
    return []


def slip_to_only(state: State, seat: int, rng: Rng) -> list[Event]:
    """A thief who slipped away with one room to go to goes there."""
    if state.pos[seat - 1] < 0:
        return []
    (only,) = neighbours(state.pos[seat - 1])
    return enter(state, seat, only, rng)
