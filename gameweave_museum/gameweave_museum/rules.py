"""The rules of The Museum Job.

The title's entry points (``setup``, ``awaiting``, ``legal_actions``, ``apply``,
``explain_illegal``, ``outcome``) take the state alone: there is one floor plan,
:func:`~gameweave_museum.floorplan.quayside_palace`, read once. The helpers they
call (``walk_targets``, ``satchel_value`` ...) are pure functions of the floor plan
and the state. Transitions (``apply`` and the steps of a round it calls) change
the state in place and return the events that happened, each addressed to the
seats allowed to read it: the Thief reads what they did, everyone else reads "The
Thief takes a turn".

The rules are cut by concept: :mod:`~.queries` holds the questions every module
asks of the state (where the Thief may walk, what may be cut, what the satchel is
worth), :mod:`~.evidence` what Security learns and when, and :mod:`~.reveal` the
Thief's night as every seat sees it at the end; this module stays the way in.

Every ruling on a point the rulebook leaves open is marked ``Ruling:`` in these
modules and written up in ``docs/titles/museum/rulings.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import attrs

from gameweave_core import Event, Outcome, Rng, action_tag

from .actions import (
    THEN_CUT,
    THEN_ESCAPE,
    Cut,
    Enter,
    Escape,
    Hold,
    Lift,
    MoveGuard,
    Pick,
    Post,
    Walk,
)
from .evidence import bring_to_light, check_monitors, found_cut, spot, watched
from .floorplan import FloorPlan, coord, parse_coord, quayside_palace
from .queries import (
    THIEF_SEAT,
    can_cut,
    can_escape,
    free_posts,
    guard_targets,
    satchel_value,
    seats_for_guard,
    security_seats,
    walk_range,
    walk_targets,
)
from .reveal import thief_section
from .sight import guard_sees
from .state import (
    DAWN,
    ENTRY,
    ESCAPE_VALUE,
    GUARD_MOVE,
    GUARDS,
    OVER,
    POSTING,
    SECURITY,
    THIEF,
    Evidence,
    State,
)

#: The line every seat but the Thief's reads for any Thief turn.
THIEF_TURN = "The Thief takes a turn"

#: The way in: the title's entry points, and the questions of :mod:`~.queries` that the
#: title's other modules and tests ask through this module.
__all__ = [
    "THIEF_SEAT",
    "THIEF_TURN",
    "apply",
    "awaiting",
    "can_cut",
    "explain_illegal",
    "legal_actions",
    "outcome",
    "satchel_value",
    "setup",
    "thief_actions",
    "walk_range",
    "walk_targets",
]


# -- setup ----------------------------------------------------------------------


def setup(players: int, config: Mapping[str, Any], rng: Rng) -> State:
    """Crowns in the vault cases, the rest of the collection shuffled into the
    display cases; guards, assignments and the entry are chosen by actions."""
    plan = quayside_palace()
    crowns = [i for i, a in enumerate(plan.collection) if a.vault]
    others = [i for i, a in enumerate(plan.collection) if not a.vault]
    rng.shuffle(others)
    display = []
    for case in plan.cases:
        display.append(crowns.pop(0) if case.vault else others.pop(0))
    return State(players=players, display=display, dawn=DAWN)


# -- queries --------------------------------------------------------------------


def awaiting(state: State) -> tuple[int, ...]:
    if state.phase == POSTING:
        # Ruling: the lowest Security seat types the team's setup choices.
        return (2,)
    if state.phase in (ENTRY, THIEF):
        return (THIEF_SEAT,)
    if state.phase == SECURITY:
        return (state.guard_seats[state.turn],)
    return ()


def legal_actions(state: State, seat: int) -> list[Any]:
    """The actions ``seat`` may take now (none when it is not asked to act)."""
    if seat not in awaiting(state):
        return []
    plan = quayside_palace()
    if state.phase == POSTING:
        index = state.guards.index(-1)
        return [
            Post(index + 1, coord(p), s)
            for p in free_posts(plan, state)
            for s in seats_for_guard(state, index)
        ]
    if state.phase == ENTRY:
        return [Enter(coord(e.square)) for e in plan.exits]
    if state.phase == THIEF:
        return thief_actions(plan, state)
    index = state.turn
    return [guard_move(index + 1, sq) for sq in sorted(guard_targets(plan, state, index))]


@cache
def guard_move(guard: int, square: int) -> MoveGuard:
    """Guard ``guard`` (1-3) moving to ``square``. Actions are frozen, so one object
    serves every listing: the search bot lists the guards' moves at every step of its
    rollouts, and making them afresh took about a fifteenth of its time."""
    return MoveGuard(guard, coord(square))


def thief_actions(plan: FloorPlan, state: State) -> list[Any]:
    out: list[Any] = []
    for sq in sorted(walk_targets(plan, state)):
        out.append(Walk(coord(sq)))
        if can_cut(plan, state, sq):
            out.append(Walk(coord(sq), THEN_CUT))
        if can_escape(plan, state, sq):
            out.append(Walk(coord(sq), THEN_ESCAPE))
    here = state.thief
    out.append(Hold())
    case = plan.case_at(here)
    if case is not None and case.index not in state.taken:
        out.append(Lift())
    if plan.exit_at(here) is not None and here not in state.open_exits:
        out.append(Pick())
    if can_cut(plan, state, here):
        out.append(Cut())
    if can_escape(plan, state, here):
        out.append(Escape())
    return out


def explain_illegal(state: State, seat: int, action: Any) -> str | None:
    """Why a well-formed action is not legal, in words the seat may read.

    Only facts the seat knows are used: Security is never told anything about
    the Thief, and the Thief knows everything.
    """
    plan, act = quayside_palace(), action
    if state.phase == THIEF and seat == THIEF_SEAT:
        return explain_thief(plan, state, act)
    if state.phase == SECURITY and isinstance(act, MoveGuard):
        return explain_guard_move(plan, state, act)
    if state.phase == POSTING and isinstance(act, Post):
        return explain_post(plan, state, act)
    if state.phase == ENTRY and isinstance(act, Enter):
        exits = ", ".join(coord(e.square) for e in plan.exits)
        return f"{act.exit} is not an exit; the exits are {exits}"
    phase_words = {
        POSTING: "Security is posting guards",
        ENTRY: "the Thief is choosing where to break in",
        THIEF: "it is the Thief's turn",
        SECURITY: f"it is guard {state.turn + 1}'s move",
        OVER: "the heist is over",
    }
    return f"{phase_words[state.phase]}: a {action_tag(act)} action is not possible now"


def explain_thief(plan: FloorPlan, state: State, act: Any) -> str:
    """Why the Thief may not take ``act`` on their turn."""
    here = state.thief
    if isinstance(act, Walk):
        return explain_walk(plan, state, act)
    if isinstance(act, Lift):
        case = plan.case_at(here)
        return "you are not standing on a case" if case is None else "that case is empty"
    if isinstance(act, Pick):
        if plan.exit_at(here) is None:
            return "you are not standing on an exit"
        return "this exit is already open"
    if isinstance(act, Cut):
        return "there is no working camera or live breaker on your square"
    if isinstance(act, Escape):
        if here not in state.open_exits:
            return "you are not standing on an open exit"
        return (
            f"your satchel is worth {satchel_value(plan, state)}; you need {ESCAPE_VALUE} to leave"
        )
    return f"it is your turn: walk, hold, lift, pick, cut or escape, not {action_tag(act)}"


def explain_walk(plan: FloorPlan, state: State, act: Walk) -> str:
    """Why the Thief may not take this walk."""
    try:
        to = parse_coord(act.to)
    except ValueError as exc:
        return str(exc)
    if to in plan.walls:
        return f"{act.to} is a wall"
    if to == state.thief:
        return "you are already there: hold, or choose another square"
    if to in state.guards:
        return f"a guard stands on {act.to}"
    steps = walk_range(plan, state)
    if to not in walk_targets(plan, state):
        return f"{act.to} is more than {steps} steps away (walls and guards block)"
    if act.then == THEN_CUT:
        return f"there is nothing at {act.to} you can cut"
    if act.then == THEN_ESCAPE:
        if to not in state.open_exits:
            return f"{act.to} is not an open exit"
        return (
            f"your satchel is worth {satchel_value(plan, state)}; you need {ESCAPE_VALUE} to leave"
        )
    return f"a walk may end with 'cut' or 'escape', not {act.then!r}"


def explain_guard_move(plan: FloorPlan, state: State, act: MoveGuard) -> str:
    """Why Security may not make this guard move."""
    if act.guard != state.turn + 1:
        return f"it is guard {state.turn + 1}'s move, not guard {act.guard}'s"
    try:
        to = parse_coord(act.to)
    except ValueError as exc:
        return str(exc)
    if to in plan.walls:
        return f"{act.to} is a wall"
    if to in state.guards:
        return f"another guard stands on {act.to}"
    return f"{act.to} is more than {GUARD_MOVE} steps from guard {act.guard} (walls block)"


def explain_post(plan: FloorPlan, state: State, act: Post) -> str:
    """Why Security may not post this guard so."""
    index = state.guards.index(-1)
    if act.guard != index + 1:
        return f"guard {index + 1} is posted next"
    try:
        at = parse_coord(act.at)
    except ValueError as exc:
        return str(exc)
    if at not in plan.posts:
        posts = ", ".join(coord(p) for p in plan.posts)
        return f"{act.at} is not a guard post; the posts are {posts}"
    if at in state.guards:
        return f"a guard is already posted at {act.at}"
    seats = ", ".join(map(str, seats_for_guard(state, index)))
    return f"guard {act.guard} may be run by seat {seats}: every Security player needs a guard"


# -- evidence ---------------------------------------------------------------------


# -- the round ----------------------------------------------------------------------


def end_thief_turn(plan: FloorPlan, state: State) -> list[Event]:
    """Step 2 of a round: old thefts come off, guards look, the monitors are read."""
    events: list[Event] = []
    for case_index, taken in list(state.taken.items()):
        if taken < state.round:
            events += bring_to_light(plan, state, case_index)
    seen = 0
    for i, g in enumerate(state.guards):
        seen |= plan.sight_bits[g]
        if guard_sees(plan, g, state.thief):
            events += spot(state, f"guard {i + 1}")
    watched(state, seen)
    return events + check_monitors(plan, state)


def guard_checks(plan: FloorPlan, state: State, index: int) -> list[Event]:
    """What a guard does after its move, in the rulebook's order."""
    here = state.guards[index]
    number = index + 1
    watched(state, plan.sight_bits[here])
    events: list[Event] = []
    if guard_sees(plan, here, state.thief):
        events += spot(state, f"guard {number}")
    if here in state.open_exits:
        state.open_exits.remove(here)
        state.evidence.append(Evidence("forced_exit", here, state.round))
        name = plan.exit_at(here).name  # type: ignore[union-attr]
        events.append(
            Event.public(
                f"Guard {number} finds the {name} at {coord(here)} forced open, and locks it",
                "forced_exit",
                at=coord(here),
                round=state.round,
            )
        )
    wing = plan.breaker_at(here)
    if wing is not None:
        if wing in state.cut_breakers:
            if wing in state.dark_wings:
                state.dark_wings.remove(wing)
            else:
                events += found_cut(state, "dark", wing, here, f"the {wing} breaker")
            del state.cut_breakers[wing]
            events.append(Event.public(f"Guard {number} resets the {wing} breaker", "reset"))
        state.confirmed[wing] = state.round
    cam = plan.camera_at(here)
    if cam is not None:
        key = f"camera {cam.number}"
        if cam.number in state.cut_cameras:
            if cam.number not in state.dead_cameras:
                events += found_cut(state, "cut_camera", key, here, key)
            else:
                state.dead_cameras.remove(cam.number)
            del state.cut_cameras[cam.number]
            events.append(Event.public(f"Guard {number} repairs camera {cam.number}", "repair"))
        state.confirmed[key] = state.round
    for case in plan.cases:
        if case.index in state.taken and guard_sees(plan, here, case.square):
            events += bring_to_light(plan, state, case.index)
    return events + check_monitors(plan, state)


def end_round(state: State) -> list[Event]:
    state.dawn -= 1
    if state.dawn <= 0:
        state.ended = "dawn"
        state.phase = OVER
        dawn = Event.public("Dawn breaks with the Thief still inside", "dawn")
        return [revealing(state, dawn)]
    events = [
        Event.public(f"Round {state.round} ends; dawn in {state.dawn}", "round", dawn=state.dawn)
    ]
    state.round += 1
    state.turn = 0
    state.phase = THIEF
    return events


# -- applying actions ------------------------------------------------------------------


def apply(state: State, seat: int, action: Any, rng: Rng) -> list[Event]:
    """Carry out a legal action and everything that follows from it (the rules
    draw nothing at random after setup, so ``rng`` is unused)."""
    plan = quayside_palace()
    match action:
        case Post():
            return do_post(state, action)
        case Enter():
            return do_enter(state, action)
        case MoveGuard():
            return do_move_guard(plan, state, action)
        case Walk():
            events = do_walk(plan, state, action)
        case Hold():
            events = do_hold(state)
        case Lift():
            events = do_lift(plan, state)
        case Pick():
            events = do_pick(state)
        case Cut():
            events = do_cut(plan, state)
        case Escape():
            events = do_escape(state)
        case _:
            raise TypeError(f"not a Museum Job action: {action!r}")
    return events + end_of_thief_action(plan, state)


def do_post(state: State, act: Post) -> list[Event]:
    index = act.guard - 1
    state.guards[index] = state.turn_start[index] = parse_coord(act.at)
    state.guard_seats[index] = act.seat
    state.trail.guards.append(state.guards[index])
    if -1 not in state.guards:
        state.phase = ENTRY
    return [
        Event.public(
            f"Guard {act.guard} takes the post at {act.at}, run by seat {act.seat}",
            "post",
            guard=act.guard,
            at=act.at,
            seat=act.seat,
        )
    ]


def do_enter(state: State, act: Enter) -> list[Event]:
    square = parse_coord(act.exit)
    state.entry = square
    state.thief = square
    state.route = [square]
    state.open_exits = [square]
    state.phase = THIEF
    return [
        Event.private([THIEF_SEAT], f"You force the exit at {act.exit} and slip inside"),
        Event.others([THIEF_SEAT], state.players, "The Thief breaks in somewhere"),
    ]


# Each of the Thief's actions returns its events: the line the Thief reads of it and
# the one everyone else reads (thief_turn), then anything public it set off.


def thief_turn(state: State, mine: str) -> list[Event]:
    """A Thief's action as the table reads it: the Thief reads ``mine`` (or that
    they took a turn), everyone else only that the Thief took a turn."""
    return [
        Event.private([THIEF_SEAT], mine or "You take a turn", "turn"),
        Event.others([THIEF_SEAT], state.players, THIEF_TURN, "turn"),
    ]


def do_walk(plan: FloorPlan, state: State, act: Walk) -> list[Event]:
    state.thief = parse_coord(act.to)
    mine = f"You walk to {act.to}"
    if act.then == THEN_CUT:
        mine += f"; {cut(plan, state)}"
    elif act.then == THEN_ESCAPE:
        state.ended = "escape"
    return thief_turn(state, mine)


def do_hold(state: State) -> list[Event]:
    return thief_turn(state, "You hold still")


def do_pick(state: State) -> list[Event]:
    state.open_exits.append(state.thief)
    state.open_exits.sort()
    return thief_turn(state, f"You pick the lock at {coord(state.thief)}: it is open")


def do_escape(state: State) -> list[Event]:
    state.ended = "escape"
    return thief_turn(state, "")


def do_cut(plan: FloorPlan, state: State) -> list[Event]:
    return thief_turn(state, cut(plan, state))


def cut(plan: FloorPlan, state: State) -> str:
    """Cut the camera or breaker where the Thief stands; returns what the Thief
    reads of it."""
    here = state.thief
    cam = plan.camera_at(here)
    if cam is not None:
        state.cut_cameras[cam.number] = state.round
        return f"you cut camera {cam.number}"
    wing = plan.breaker_at(here)
    assert wing is not None
    state.cut_breakers[wing] = state.round
    return f"you cut the {wing} breaker: its cameras are blind"


def do_lift(plan: FloorPlan, state: State) -> list[Event]:
    case = plan.case_at(state.thief)
    assert case is not None
    state.taken[case.index] = state.round
    art = plan.collection[state.display[case.index]]
    text = f"You lift the {art.name} (worth {art.value}{', heavy' if art.heavy else ''})"
    if not case.vault or "North" in state.cut_breakers:
        return thief_turn(state, text)
    state.evidence.append(Evidence("alarm", case.square, state.round))
    alarm = [
        Event.public(
            f"The vault alarm goes off at {coord(case.square)}!",
            "alarm",
            at=coord(case.square),
            round=state.round,
        )
    ]
    alarm += bring_to_light(plan, state, case.index)
    alarm += spot(state, "vault alarm")
    return thief_turn(state, text + ": the vault alarm goes off") + alarm


def end_of_thief_action(plan: FloorPlan, state: State) -> list[Event]:
    """What follows every Thief action: the route grows, and unless the Thief
    escaped, step 2 of the round runs."""
    state.route.append(state.thief)
    if state.ended == "escape":
        state.phase = OVER
        value = satchel_value(plan, state)
        line = f"The Thief escapes through {coord(state.thief)} with a satchel worth {value}"
        return [revealing(state, Event.public(line, "escape"))]
    events = end_thief_turn(plan, state)
    state.phase = SECURITY
    state.turn = 0
    state.turn_start = list(state.guards)
    return events


def do_move_guard(plan: FloorPlan, state: State, act: MoveGuard) -> list[Event]:
    index = act.guard - 1
    to = parse_coord(act.to)
    state.trail.guards.append(to)
    stays = state.guards[index] == to
    state.guards[index] = to
    verb = "stays at" if stays else "moves to"
    events = [
        Event.public(f"Guard {act.guard} {verb} {act.to}", "guard", guard=act.guard, at=act.to)
    ]
    if to == state.thief:
        state.ended = "catch"
        state.phase = OVER
        caught = Event.public(f"Guard {act.guard} catches the Thief at {act.to}!", "catch")
        events.append(revealing(state, caught))
        return events
    events += guard_checks(plan, state, index)
    state.turn += 1
    if state.turn == GUARDS:
        events += end_round(state)
    return events


# -- the end ----------------------------------------------------------------------------


def revealing(state: State, event: Event) -> Event:
    """The event that ends the heist, carrying what every view then shows of the
    Thief's night (as its data): a seat learns only through the events it reads."""
    reveal = thief_section(quayside_palace(), state)
    return attrs.evolve(event, data={**event.data, "reveal": reveal})


def outcome(state: State) -> Outcome | None:
    """Who won once the heist is over: the Thief by escaping, Security by a
    catch or at dawn."""
    if state.phase != OVER:
        return None
    value = satchel_value(quayside_palace(), state)
    figures = {"rounds": state.round, "satchel": value, "dawn": state.dawn}
    if state.ended == "escape":
        return Outcome(
            "Thief",
            (THIEF_SEAT,),
            "escape",
            f"The Thief escaped in round {state.round} with a satchel worth {value}",
            figures,
        )
    if state.ended == "catch":
        summary = f"Security caught the Thief in round {state.round}"
    else:
        summary = "Dawn broke with the Thief still inside"
    return Outcome("Security", tuple(security_seats(state)), state.ended, summary, figures)
