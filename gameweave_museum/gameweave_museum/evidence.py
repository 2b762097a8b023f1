"""Evidence: what Security learns of the Thief's night, and when.

Sightings by guards and cameras, cases found empty, cut cameras and breakers found,
and what the monitors in the security office show. Each function records what it
finds on the state and returns the events that tell the seats.
"""

from __future__ import annotations

from gameweave_core import Event

from .floorplan import FloorPlan, coord
from .sight import camera_working, office_manned
from .state import (
    Evidence,
    State,
)


def watched(state: State, squares: int, monitors: bool = False) -> None:
    """Note in ``state.trail`` that this round's checks covered ``squares`` (a bit
    mask), and whether they read the monitors."""
    trail = state.trail
    while len(trail.watched) < state.round:
        trail.watched.append(0)
        trail.monitored.append(False)
    trail.watched[-1] |= squares
    if monitors:
        trail.monitored[-1] = True


def spot(state: State, how: str) -> list[Event]:
    """The Thief is Spotted where they stand: a Last Seen token, public."""
    where = state.thief
    for ev in state.evidence:
        if ev.kind == "last_seen" and (ev.square, ev.round, ev.how) == (where, state.round, how):
            return []
    state.evidence.append(Evidence("last_seen", where, state.round, how=how))
    return [
        Event.public(
            f"Spotted! The Thief is at {coord(where)} ({how})",
            "spotted",
            at=coord(where),
            how=how,
            round=state.round,
        )
    ]


def bring_to_light(plan: FloorPlan, state: State, case_index: int) -> list[Event]:
    """A theft comes to light: the artifact comes off, an empty frame stays."""
    if case_index in state.revealed:
        return []
    taken = state.taken[case_index]
    state.revealed[case_index] = taken
    square = plan.cases[case_index].square
    state.evidence.append(Evidence("empty_frame", square, taken))
    name = plan.collection[state.display[case_index]].name
    return [
        Event.public(
            f"The {name} is gone from its case at {coord(square)}: taken in round {taken}",
            "theft",
            at=coord(square),
            round=taken,
        )
    ]


def found_cut(state: State, kind: str, key: str, square: int, what: str) -> list[Event]:
    """A cut camera (``kind`` "cut_camera") or dark breaker ("dark") is found:
    evidence with the rounds it could have happened in, since Security last saw
    it working."""
    since = state.confirmed.get(key, 0) + 1
    state.evidence.append(Evidence(kind, square, state.round, since=since))
    window = f"round {since}" if since == state.round else f"rounds {since}-{state.round}"
    return [
        Event.public(
            f"{what[0].upper()}{what[1:]} at {coord(square)} was cut ({window})",
            kind,
            at=coord(square),
            since=since,
            round=state.round,
        )
    ]


def check_monitors(plan: FloorPlan, state: State) -> list[Event]:
    """While a guard is in the Office: working cameras that see the Thief, dead
    feeds, and empty cases a working camera sees."""
    if not office_manned(plan, state):
        return []
    working = [cam for cam in plan.cameras if camera_working(state, cam)]
    covered = 0
    for cam in working:
        covered |= cam.coverage_bits
    watched(state, covered, monitors=True)
    events: list[Event] = []
    for cam in working:
        state.confirmed[f"camera {cam.number}"] = state.round
        if state.thief in cam.coverage:
            events += spot(state, f"camera {cam.number}")
    events += dark_wings_seen(plan, state)
    events += dead_feeds_seen(plan, state)
    for cam in working:
        for case in plan.cases:
            if case.square in cam.coverage and case.index in state.taken:
                events += bring_to_light(plan, state, case.index)
    return events


def dark_wings_seen(plan: FloorPlan, state: State) -> list[Event]:
    """On the monitors: a wing newly dark has had its breaker cut (and the Thief
    is caught at it if that was this round); a breaker still on is confirmed."""
    events: list[Event] = []
    for wing, square in plan.breakers.items():
        if wing not in state.cut_breakers:
            state.confirmed[wing] = state.round
        elif wing not in state.dark_wings:
            state.dark_wings.append(wing)
            events += found_cut(state, "dark", wing, square, f"the {wing} breaker")
            if state.cut_breakers[wing] == state.round:
                events += spot(state, "caught cutting")
    return events


def dead_feeds_seen(plan: FloorPlan, state: State) -> list[Event]:
    """On the monitors: a camera's feed newly dead has been cut (and the Thief is
    caught at it if that was this round)."""
    events: list[Event] = []
    for cam in plan.cameras:
        # Ruling: a camera in a dark wing shows nothing, so a cut on it is not told
        # apart from the blackout until the breaker is reset.
        if cam.wing in state.cut_breakers or cam.number not in state.cut_cameras:
            continue
        if cam.number not in state.dead_cameras:
            state.dead_cameras.append(cam.number)
            cut_round = state.cut_cameras[cam.number]
            key = f"camera {cam.number}"
            events += found_cut(state, "cut_camera", key, cam.square, key)
            if cut_round == state.round:
                events += spot(state, "caught cutting")
    return events
